#include "core/text/units.h"
#include "ui/formatting.h"
#include "ui/timeline/legendwriter.h"
#include "ui/timeline/timelinerenderer.h"

#include <QObject>
#include <QPainter>

#include <algorithm>
#include <array>
#include <cmath>

namespace hecscope {

namespace {

const std::array<QColor, 3> kPhaseColour{QColor(0x16, 0xa0, 0x85),  // concurrent mark
                                         QColor(0xc0, 0x39, 0x2b),  // stop-the-world sync
                                         QColor(0x29, 0x80, 0xb9)}; // sweep
const QColor kFlushColour(0x7f, 0x8c, 0x8d);
constexpr int kLaneTop[] = {3, 13, 23}; // mark, sync, sweep: pixels from the row's top
constexpr int kLaneHeight = 8;
constexpr int kFlushTop = 33, kFlushHeight = 9;

// A drawn mark: a phase span, or the spans / flushes of one pixel column
// (`count` of them, `first` the earliest), in pixels from the plot's left.
struct Mark {
    double x0, x1;
    uint32_t first;
    uint32_t count;
};

struct NonmovingList final : DrawList {
    std::array<std::vector<Mark>, 3> lanes; // by ConcurrentSpan::Kind, by x0
    std::vector<Mark> flushes;              // by x0
};

const char* phaseName(ConcurrentSpan::Kind k)
{
    static const char* const names[] = {"concurrent mark", "stop-the-world sync", "sweep"};
    return names[k];
}

// The mark under x (or nearest within 3 pixels) in a lane sorted by x0.
const Mark* markNear(const std::vector<Mark>& marks, double x)
{
    auto it = std::lower_bound(marks.begin(), marks.end(), x - 3, [](const Mark& m, double v) { return m.x1 < v; });
    const Mark* best = nullptr;
    double bestDistance = 4;
    for (; it != marks.end() && it->x0 <= x + 3; ++it) {
        const double d = x < it->x0 ? it->x0 - x : x > it->x1 ? x - it->x1 : 0;
        if (d < bestDistance)
            best = &*it, bestDistance = d;
    }
    return best;
}

// The non-moving collector (+RTS --nonmoving-gc): its concurrent mark (with
// the objects marked), the stop-the-world sync and the sweep on lanes of
// their own, and the capabilities' update-remembered-set flushes as ticks.
class NonmovingTrack final : public TimelineTrack {
public:
    QString id() const override { return QStringLiteral("nonmoving"); }
    QString title() const override { return QObject::tr("Non-moving"); }
    QString menuText() const override { return QObject::tr("&Non-moving GC"); }
    // Only logs of the non-moving collector have the row: others would
    // carry a row saying so on every screen.
    int rowCount(const TrackContext& ctx) const override { return hasData(ctx.index) ? 1 : 0; }
    int rowHeight(const TrackContext&) const override { return 46; }

    std::shared_ptr<const DrawList> prepare(const TrackContext& ctx, ViewRange view, int width) const override
    {
        auto list = std::make_shared<NonmovingList>();
        const ConcurrentGcPart& part = ctx.index;
        const TimeMapping m(view, 0, std::max(1, width));
        const uint64_t last = ctx.index.lastTime;
        // Phases in order of start; each lane's spans do not overlap.
        for (uint32_t i = 0; i < part.concurrent.size(); ++i) {
            const ConcurrentSpan& s = part.concurrent[i];
            const uint64_t end = s.end == kNoTime ? std::max(last, s.start) : s.end; // open: to the end
            if (end < view.start || s.start > view.end)
                continue;
            const QRectF r = spanRect(m, s.start, std::max(end, s.start + 1), 0, 1);
            add(list->lanes[s.kind], r.left(), r.right(), i);
        }
        const auto& flushes = part.remSetFlushes;
        auto it = std::partition_point(flushes.begin(), flushes.end(),
                                       [&](const RemSetFlush& f) { return f.time < view.start; });
        for (; it != flushes.end() && it->time <= view.end; ++it) {
            const double x = m.toPixel(it->time);
            add(list->flushes, x, x + 1, uint32_t(it - flushes.begin()));
        }
        return list;
    }

    void paint(QPainter& p, const TrackRowGeometry& g, const DrawList& d, const TrackContext&) const override
    {
        const auto& list = static_cast<const NonmovingList&>(d);
        const QRect& r = g.plot;
        for (size_t k = 0; k < 3; ++k)
            for (const Mark& mk : list.lanes[k])
                p.fillRect(QRectF(r.left() + mk.x0, r.top() + kLaneTop[k], std::max(1.0, mk.x1 - mk.x0), kLaneHeight),
                           kPhaseColour[k]);
        for (const Mark& mk : list.flushes) {
            // Taller when several capabilities flushed within the pixel.
            const double h = std::min<double>(kFlushHeight, 3 + 2 * std::log2(double(mk.count)));
            p.fillRect(QRectF(r.left() + mk.x0, r.top() + kFlushTop + kFlushHeight - h, 1, h), kFlushColour);
        }
    }

    std::optional<SelectedItem> itemAt(const TrackRowGeometry& g, QPoint pos, const DrawList& d,
                                       const TrackContext& ctx) const override
    {
        const auto lane = laneAt(g, pos);
        if (!lane || *lane == 3)
            return std::nullopt;
        const Mark* mk = markNear(static_cast<const NonmovingList&>(d).lanes[*lane], pos.x() - g.plot.left());
        if (!mk || mk->count != 1)
            return std::nullopt;
        const ConcurrentSpan& s = ctx.index.concurrent[mk->first];
        SelectedItem item{id(), -1, false, s.start, s.end == kNoTime ? ctx.index.lastTime : s.end};
        item.item = *lane;
        return item;
    }

    QString describe(const TrackRowGeometry& g, QPoint pos, const DrawList& d, const TrackContext& ctx) const override
    {
        const auto lane = laneAt(g, pos);
        if (!lane)
            return {};
        const auto& list = static_cast<const NonmovingList&>(d);
        const double x = pos.x() - g.plot.left();
        if (*lane == 3) {
            const Mark* mk = markNear(list.flushes, x);
            if (!mk)
                return {};
            const RemSetFlush& f = ctx.index.remSetFlushes[mk->first];
            QString s = QObject::tr("Update remembered set flushed by capability %1 at %2").arg(f.cap).arg(qs(formatTimestamp(f.time)));
            if (mk->count > 1)
                s += QObject::tr("\n(and %1 more flushes in this pixel)").arg(mk->count - 1);
            return s;
        }
        const Mark* mk = markNear(list.lanes[*lane], x);
        if (!mk)
            return {};
        const ConcurrentSpan& s = ctx.index.concurrent[mk->first];
        const bool open = s.end == kNoTime;
        QString text = QObject::tr("Non-moving GC: %1\nstart %2, %3")
                           .arg(QString::fromLatin1(phaseName(s.kind)), qs(formatTimestamp(s.start)),
                                open ? QObject::tr("still running at the end of the log")
                                     : QObject::tr("duration %1").arg(qs(formatDuration(s.end - s.start))));
        if (s.kind == ConcurrentSpan::Mark && !open)
            text += QObject::tr("\n%1 objects marked").arg(qs(formatGrouped(s.markedObjects)));
        if (mk->count > 1)
            text += QObject::tr("\n(the first of %1 in this pixel: zoom in to see each)").arg(mk->count);
        return text;
    }

    void paintSelected(QPainter& p, const TrackRowGeometry& g, const SelectedItem& item,
                       const TrackContext& ctx) const override
    {
        if (item.item < 0 || item.item > 2)
            return;
        p.setPen(QPen(ctx.options.palette.color(QPalette::Highlight), 2));
        p.setBrush(Qt::NoBrush);
        p.drawRect(spanRect(g.mapping, item.start, item.end, g.rect.top() + kLaneTop[item.item] - 1, kLaneHeight + 2)
                       .adjusted(-1, -1, 1, 1));
    }

    void addLegend(LegendWriter& legend, const TrackContext& ctx) const override
    {
        if (!hasData(ctx.index))
            return;
        legend.solid(QObject::tr("non-moving: mark"), kPhaseColour[0]);
        legend.solid(QObject::tr("sync"), kPhaseColour[1]);
        legend.solid(QObject::tr("sweep"), kPhaseColour[2]);
        legend.entry(QObject::tr("remembered-set flush"), [](QPainter& p, QRect box) {
            p.fillRect(QRect(box.center().x(), box.top(), 1, box.height()), kFlushColour);
        });
    }

private:
    static bool hasData(const LogIndex& ix) { return !ix.concurrent.empty() || !ix.remSetFlushes.empty(); }

    // Marks of one lane: a span wider than a pixel alone, narrower ones
    // merged per pixel column (never more marks than pixels).
    static void add(std::vector<Mark>& marks, double x0, double x1, uint32_t index)
    {
        if (!marks.empty() && x1 - x0 <= 1 && int(x0) == int(marks.back().x0) && marks.back().x1 - marks.back().x0 <= 1) {
            ++marks.back().count;
            return;
        }
        marks.push_back({x0, x1, index, 1});
    }

    // 0..2 a phase lane, 3 the flushes.
    static std::optional<int> laneAt(const TrackRowGeometry& g, QPoint pos)
    {
        const int y = pos.y() - g.rect.top();
        for (int k = 0; k < 3; ++k)
            if (y >= kLaneTop[k] - 1 && y <= kLaneTop[k] + kLaneHeight)
                return k;
        if (y >= kFlushTop - 1 && y <= kFlushTop + kFlushHeight)
            return 3;
        return std::nullopt;
    }
};

} // namespace

std::unique_ptr<TimelineTrack> makeNonmovingTrack()
{
    return std::make_unique<NonmovingTrack>();
}

} // namespace hecscope
