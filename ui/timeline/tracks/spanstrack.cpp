#include "core/index/gallop.h"
#include "core/text/units.h"
#include "core/threads/userspans.h"
#include "ui/threads/threadrows.h"
#include "ui/timeline/legendwriter.h"
#include "ui/timeline/timelinerenderer.h"

#include <QObject>
#include <QImage>
#include <QPainter>

#include <algorithm>

namespace hecscope {

namespace {

constexpr int kMaxRows = 10; // the names with the most time; the Spans pane lists every one

// Pixel columns of one name's row with how many of its spans cover them.
struct SpanColumn {
    int x0, x1;     // [x0, x1) pixels from the plot's left
    uint32_t count; // spans of the name overlapping these pixels
};

struct SpansList final : DrawList {
    std::shared_ptr<const UserSpans> spans;
    std::vector<uint32_t> names;                // per row
    QImage strip;                               // a line of pixels per row, as painted
};

QColor nameColour(uint32_t name)
{
    return QColor::fromHsv(int((name * 137u) % 360u), 140, 200);
}

// Every user span name (traceEvent "START x" / "STOP x", paired per
// thread) as a row: where in time spans of that name were open, on any
// thread, shaded by how many at once.
class SpansTrack final : public TimelineTrack {
public:
    QString id() const override { return QStringLiteral("spans"); }
    QString title() const override { return QObject::tr("Spans"); }
    QString menuText() const override { return QObject::tr("User &spans"); }
    bool rowsAreCapabilities(const TrackContext&) const override { return true; } // numbered rows
    int rowCount(const TrackContext& ctx) const override
    {
        const auto spans = ctx.resources.threadRows(ctx.options)->spans;
        return std::max(1, spans ? std::min<int>(kMaxRows, int(spans->namesByTotal.size())) : 0);
    }
    int rowHeight(const TrackContext&) const override { return 16; }
    QString emptyNote(const TrackContext& ctx) const override
    {
        const auto spans = ctx.resources.threadRows(ctx.options)->spans;
        return spans && !spans->spans.empty()
            ? QString()
            : QObject::tr("no user spans (traceEvent \"START name\" / \"STOP name\") in this log");
    }
    QString rowLabel(const TrackContext& ctx, int row) const override
    {
        const auto spans = ctx.resources.threadRows(ctx.options)->spans;
        if (!spans || row < 0 || size_t(row) >= spans->namesByTotal.size())
            return row <= 0 ? title() : QString();
        return QString::fromStdString(spans->names[spans->namesByTotal[size_t(row)]]);
    }
    const void* variant(const TrackContext& ctx) const override
    {
        return ctx.resources.threadRows(ctx.options)->spans.get();
    }

    std::shared_ptr<const DrawList> prepare(const TrackContext& ctx, ViewRange view, int width) const override
    {
        auto list = std::make_shared<SpansList>();
        list->spans = ctx.resources.threadRows(ctx.options)->spans;
        if (!list->spans)
            return list;
        const UserSpans& us = *list->spans;
        width = std::max(width, 1);
        const TimeMapping m(view, 0, width);
        std::vector<int32_t> diff(size_t(width) + 2);
        const size_t rows = std::min<size_t>(kMaxRows, us.namesByTotal.size());
        std::vector<std::vector<SpanColumn>> columns; // per row, until they are pixels
        std::vector<uint32_t> peaks;                  // per row: the most spans at once
        for (size_t r = 0; r < rows; ++r) {
            const uint32_t name = us.namesByTotal[r];
            std::fill(diff.begin(), diff.end(), 0);
            const uint32_t* first = us.byName.data() + us.nameOffsets[name];
            const uint32_t* last = us.byName.data() + us.nameOffsets[name + 1];
            // Spans of this name starting early enough to reach the view.
            const uint64_t from = view.start > us.nameMaxDuration[name] ? view.start - us.nameMaxDuration[name] : 0;
            const auto* ext = us.nameExtents.data() + (first - us.byName.data());
            const auto* extEnd = us.nameExtents.data() + (last - us.byName.data());
            const auto* it = std::lower_bound(ext, extEnd, from, [](const auto& e, uint64_t t) { return e.first < t; });
            const uint64_t* maxEnd = us.nameMaxEnd.data() + (first - us.byName.data());
            const size_t n = size_t(extEnd - ext);
            bool any = false;
            for (size_t k = size_t(it - ext); k < n;) {
                const auto [start, end] = ext[k];
                if (start >= view.end)
                    break;
                // (Ended before the view: skipped, as one of no length is
                // unless at its start; it was drawn in pixel 0, and its end's
                // pixel, billions to the left when zoomed in, was no int.)
                if (end < view.start || (end == view.start && end != start)) {
                    ++k;
                    continue;
                }
                const int x0 = int(std::clamp(m.toPixel(std::max(start, view.start)), 0.0, double(width - 1)));
                const int x1 = std::clamp(int(std::ceil(std::clamp(m.toPixel(std::min(end, view.end)), 0.0, double(width)))),
                                          x0 + 1, width);
                int32_t count = 1;
                ++k;
                if (x1 == x0 + 1 && start >= view.start) {
                    // Every later span ending inside this pixel starts in it too:
                    // counted at once (the running maximum of ends finds the next
                    // one that reaches further).
                    const uint64_t pixelEnd = m.toTime(x0 + 1);
                    const size_t next = firstAbove(maxEnd, k, n, pixelEnd);
                    count += int32_t(next - k);
                    k = next;
                }
                diff[size_t(x0)] += count;
                diff[size_t(x1)] -= count;
                any = true;
            }
            std::vector<SpanColumn> cols;
            uint32_t peak = 0;
            if (any) {
                int32_t count = 0;
                for (int x = 0; x < width; ++x) {
                    count += diff[size_t(x)];
                    if (count <= 0)
                        continue;
                    if (!cols.empty() && cols.back().x1 == x && cols.back().count == uint32_t(count))
                        ++cols.back().x1;
                    else
                        cols.push_back({x, x + 1, uint32_t(count)});
                    peak = std::max(peak, uint32_t(count));
                }
            }
            list->names.push_back(name);
            columns.push_back(std::move(cols));
            peaks.push_back(peak);
        }
        // The colours as pixels: painting a row is a few image lines,
        // however many columns it has.
        list->strip = QImage(width, int(std::max<size_t>(rows, 1)), QImage::Format_ARGB32_Premultiplied);
        list->strip.fill(Qt::transparent);
        for (size_t r = 0; r < rows; ++r) {
            const QColor base = nameColour(list->names[r]);
            const uint32_t peak = std::max<uint32_t>(1, peaks[r]);
            QRgb* px = reinterpret_cast<QRgb*>(list->strip.scanLine(int(r)));
            for (const SpanColumn& c : columns[r]) {
                // One span: light; the busiest moment in view: full colour.
                QColor colour = base;
                colour.setAlpha(peak == 1 ? 230 : 90 + int(165.0 * double(c.count - 1) / double(peak - 1)));
                std::fill(px + c.x0, px + c.x1, qPremultiply(colour.rgba()));
            }
        }
        return list;
    }

    void paint(QPainter& p, const TrackRowGeometry& g, const DrawList& d, const TrackContext& ctx) const override
    {
        const auto& list = static_cast<const SpansList&>(d);
        if (!list.spans || list.spans->spans.empty()) {
            if (g.row <= 0)
                paintTrackNote(p, g.plot, ctx.options.palette, emptyNote(ctx), ctx.resources.text());
            return;
        }
        if (g.row < 0 || size_t(g.row) >= list.names.size())
            return;
        const QRect line(0, g.row, list.strip.width(), 1);
        for (int y = g.plot.top() + 2; y < g.plot.bottom() - 1; ++y)
            p.drawImage(QPoint(g.plot.left(), y), list.strip, line);
    }

    // The span of this row's name covering [t0, t1] that is the longest of
    // those stopped (one never stopped only if no other is there: its
    // duration is only up to the end of the log). `count` of them all,
    // `open` of those never stopped.
    static const UserSpan* spanAt(const SpansList& list, int row, uint64_t t0, uint64_t t1, size_t* count,
                                  size_t* open = nullptr)
    {
        const UserSpans& us = *list.spans;
        const uint32_t name = list.names[size_t(row)];
        const uint32_t* first = us.byName.data() + us.nameOffsets[name];
        const uint32_t* last = us.byName.data() + us.nameOffsets[name + 1];
        const uint64_t from = t0 > us.nameMaxDuration[name] ? t0 - us.nameMaxDuration[name] : 0;
        const UserSpan* best = nullptr;
        const UserSpan* bestOpen = nullptr;
        *count = 0;
        size_t opened = 0;
        for (auto it = std::lower_bound(first, last, from, [&](uint32_t i, uint64_t t) { return us.spans[i].start < t; });
             it != last && us.spans[*it].start <= t1; ++it) {
            const UserSpan& s = us.spans[*it];
            if (s.end < t0)
                continue;
            ++*count;
            const UserSpan*& b = (s.flags & UserSpan::OpenAtEnd) ? bestOpen : best;
            opened += (s.flags & UserSpan::OpenAtEnd) != 0;
            if (!b || s.duration() > b->duration())
                b = &s;
        }
        if (open)
            *open = opened;
        return best ? best : bestOpen;
    }

    std::optional<SelectedItem> itemAt(const TrackRowGeometry& g, QPoint pos, const DrawList& d,
                                       const TrackContext&) const override
    {
        const auto& list = static_cast<const SpansList&>(d);
        if (!list.spans || g.row < 0 || size_t(g.row) >= list.names.size())
            return std::nullopt;
        size_t count = 0;
        const UserSpan* s = spanAt(list, g.row, g.mapping.toTime(pos.x() - 1), g.mapping.toTime(pos.x() + 1), &count);
        if (!s)
            return std::nullopt;
        return SelectedItem{id(), g.row, false, s->start, s->end, int64_t(s - list.spans->spans.data())};
    }

    QString describe(const TrackRowGeometry& g, QPoint pos, const DrawList& d, const TrackContext& ctx) const override
    {
        const auto& list = static_cast<const SpansList&>(d);
        if (!list.spans || g.row < 0 || size_t(g.row) >= list.names.size())
            return {};
        size_t count = 0, open = 0;
        const UserSpan* s = spanAt(list, g.row, g.mapping.toTime(pos.x() - 1), g.mapping.toTime(pos.x() + 1), &count, &open);
        if (!s)
            return {};
        const auto dur = [](uint64_t ns) { return QString::fromStdString(formatDuration(ns)); };
        QString text = QObject::tr("span \"%1\": %2 here")
                           .arg(QString::fromStdString(list.spans->names[s->name]),
                                count == 1 ? QObject::tr("1 span") : QObject::tr("%1 spans").arg(count));
        if (open)
            text += QObject::tr(", %1 never stopped").arg(open);
        if (s->flags & UserSpan::OpenAtEnd) // no span stopped here
            text += QObject::tr("\nnever stopped, on %1: from %2, drawn to the end of the log (at least %3); "
                                "left out of the span figures")
                        .arg(threadName(ctx.index, s->thread), dur(s->start), dur(s->duration()));
        else
            text += QObject::tr("\nlongest on %1: %2 (self %3), from %4 to %5")
                        .arg(threadName(ctx.index, s->thread), dur(s->duration()), dur(s->self), dur(s->start),
                             dur(s->end));
        return text;
    }

    void paintSelected(QPainter& p, const TrackRowGeometry& g, const SelectedItem& item, const TrackContext& ctx) const override
    {
        paintSelectionOutline(p, g.mapping, item.start, item.end, g.rect.top() + 1, g.rect.height() - 2, ctx.options.palette);
    }
};

} // namespace

std::unique_ptr<TimelineTrack> makeSpansTrack()
{
    return std::make_unique<SpansTrack>();
}

} // namespace hecscope
