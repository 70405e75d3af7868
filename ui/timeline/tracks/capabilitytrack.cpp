#include "ui/timeline/tracks/capabilitytrack.h"

#include "core/text/units.h"
#include "ui/colours.h"
#include "ui/formatting.h"
#include "ui/timeline/legendwriter.h"
#include "ui/timeline/tracks/instantmarks.h"
#include "ui/timeline/tracks/rectbatch.h"
#include "ui/timeline/timelinerenderer.h"

#include <QFontMetrics>
#include <QObject>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace hecscope {

QString gcPhaseText(SpanKind kind)
{
    switch (kind) {
    case SpanKind::Running: break;
    case SpanKind::Gc: return QObject::tr("GC");
    case SpanKind::GcSync: return QObject::tr("stopped, waiting for the collection to begin (sync; not GC)");
    case SpanKind::GcWork: return QObject::tr("GC: working");
    case SpanKind::GcIdle: return QObject::tr("GC: idle");
    case SpanKind::GcDone: return QObject::tr("GC: done");
    case SpanKind::GcParked:
        return QObject::tr("parked after the collection ended (not GC: its OS thread had not run again to leave"
                           " it; an idle capability's sleeps until the next collection)");
    }
    return QString();
}

namespace {

// Lanes of a row (pixels from its top): the runs, then the GC phases.
constexpr double kRunTop = 3, kRunHeight = 17, kGcTop = 21, kGcHeight = 7;
constexpr int kGcLaneFrom = 20; // a point this far down or more is in the GC lane
// Stopped outside the collection (sync wait, parked): a thin bar in the
// middle of the GC lane, so only collecting looks like GC.
constexpr double kStoppedTop = kGcTop + 2, kStoppedHeight = 3;

struct CapabilityList final : DrawList {
    std::shared_ptr<const CapabilityLods> lods; // shared with the activity track
    std::vector<InstantRow> instants;           // per capability
};

int decimalDigits(uint32_t v)
{
    int n = 1;
    for (; v >= 10; v /= 10)
        ++n;
    return n;
}

// Whether an item shows in a lane: exact spans by kind, aggregates when
// they hold time of the lane's kind.
bool inLane(const LodItem& it, bool gcLane)
{
    if (!it.aggregate)
        return isGc(it.kind) == gcLane;
    return gcLane ? it.totals.stopped() > 0 : it.totals.running() > 0;
}

// One row per capability: runs coloured by thread (the id when it fits),
// GC phases in their own lane; several spans in a pixel drawn as one mark
// whose height is their share of it.
class CapabilityTrack final : public TimelineTrack {
public:
    QString id() const override { return QStringLiteral("hecs"); }
    QString title() const override { return QObject::tr("HECs"); }
    QString menuText() const override { return QObject::tr("&HECs"); }
    int rowCount(const TrackContext& ctx) const override { return int(ctx.index.caps.size()); }
    bool rowsAreCapabilities(const TrackContext&) const override { return true; }
    int rowHeight(const TrackContext&) const override { return 30; }
    QString rowLabel(const TrackContext&, int row) const override { return QObject::tr("HEC %1").arg(row); }

    // The instants read back from the file so far: more may draw now.
    const void* variant(const TrackContext& ctx) const override
    {
        return ctx.options.detail ? reinterpret_cast<const void*>(uintptr_t(ctx.options.detail->generation()))
                                  : nullptr;
    }

    bool prefetch(const TrackContext& ctx, ViewRange view, int width) const override
    {
        return ctx.resources.prefetchCapabilityLods(view, width);
    }

    std::shared_ptr<const DrawList> prepare(const TrackContext& ctx, ViewRange view, int width) const override
    {
        auto list = std::make_shared<CapabilityList>();
        list->lods = ctx.resources.capabilityLods(view, width);
        list->instants = collectInstants(ctx.index, ctx.options.detail.get(), ctx.options.waitForDetail, view, width,
                                         &ctx.resources.wantedInstants());
        return list;
    }

    void paint(QPainter& p, const TrackRowGeometry& g, const DrawList& d, const TrackContext& ctx) const override
    {
        const auto& lods = *static_cast<const CapabilityList&>(d).lods;
        if (g.row < 0 || size_t(g.row) >= lods.size())
            return;
        const QRect& r = g.plot;
        const TimeMapping& m = g.mapping;
        const double runTop = r.top() + kRunTop, gcTop = r.top() + kGcTop;
        const int digitW = QFontMetrics(p.font()).horizontalAdvance(QLatin1Char('0'));
        RectBatch fills(p, r.adjusted(-1, 0, 1, 0)); // a span begun before the view starts a pixel early
        p.setPen(Qt::black);
        for (const LodItem& it : lods[size_t(g.row)]) {
            if (!it.aggregate) {
                if (it.kind == SpanKind::Running) {
                    const QRectF rect = spanRect(m, it.start, it.end, runTop, kRunHeight);
                    fills.fill(rect, threadColor(it.thread));
                    if (rect.width() > digitW * decimalDigits(it.thread) + 6) {
                        fills.flush(); // the id over its run, under what comes after it
                        ctx.resources.text().draw(p, rect, Qt::AlignCenter, QString::number(it.thread));
                    }
                } else if (isCollecting(it.kind)) {
                    fills.fill(spanRect(m, it.start, it.end, gcTop, kGcHeight), spanColor(it.kind));
                } else {
                    fills.fill(spanRect(m, it.start, it.end, r.top() + kStoppedTop, kStoppedHeight),
                               spanColor(it.kind));
                }
                continue;
            }
            const double len = double(std::max<uint64_t>(1, it.end - it.start));
            const double run = std::min(1.0, double(it.totals.running()) / len);
            const double gc = std::min(1.0, double(it.totals.gc()) / len);
            const QRectF px = spanRect(m, it.start, it.end, runTop, kRunHeight);
            if (run > 0) {
                const double hh = std::max(2.0, kRunHeight * run);
                fills.fill(QRectF(px.left(), runTop + kRunHeight - hh, px.width(), hh), spanColor(SpanKind::Running));
            }
            const uint64_t outside = it.totals.gcSync() + it.totals.parked();
            if (outside > 0) // thin, in the colour of the larger
                fills.fill(QRectF(px.left(), r.top() + kStoppedTop, px.width(), kStoppedHeight),
                           spanColor(it.totals.parked() >= it.totals.gcSync() ? SpanKind::GcParked : SpanKind::GcSync));
            if (gc > 0) {
                // Collecting: its share of the pixel, in the colour of the
                // phase with the most time.
                SpanKind k = SpanKind::Gc;
                uint64_t most = 0;
                for (size_t i = 1; i < kSpanKinds; ++i)
                    if (isCollecting(SpanKind(i)) && it.totals.time[i] > most)
                        most = it.totals.time[i], k = SpanKind(i);
                const double hh = std::max(2.0, kGcHeight * gc);
                fills.fill(QRectF(px.left(), gcTop + kGcHeight - hh, px.width(), hh), spanColor(k));
            }
        }
        fills.flush();
        const auto& instants = static_cast<const CapabilityList&>(d).instants;
        if (size_t(g.row) < instants.size())
            paintInstants(p, instants[size_t(g.row)], instantKindsShown(ctx.options.states), m,
                          QRectF(r.left(), runTop, r.width(), kRunHeight));
        p.setPen(ctx.options.palette.color(QPalette::Midlight));
        p.drawLine(r.left(), r.bottom(), r.right(), r.bottom());
    }

    // The item drawn under `pos` in its lane: the one containing it, else
    // the nearest within 3 pixels.
    const LodItem* itemNear(const TrackRowGeometry& g, QPoint pos, const DrawList& d) const
    {
        const auto& lods = *static_cast<const CapabilityList&>(d).lods;
        if (g.row < 0 || size_t(g.row) >= lods.size())
            return nullptr;
        const std::vector<LodItem>& items = lods[size_t(g.row)];
        const bool gcLane = pos.y() >= g.rect.top() + kGcLaneFrom;
        const uint64_t t = g.mapping.toTime(pos.x());
        const uint64_t slack = uint64_t(std::ceil(g.mapping.nsPerPixel() * 3));
        // Items are in time order and do not overlap: the first that ends
        // after t - slack, then on while they start before t + slack.
        auto it = std::partition_point(items.begin(), items.end(),
                                       [&](const LodItem& i) { return i.end + slack < t; });
        const LodItem* best = nullptr;
        uint64_t bestDistance = UINT64_MAX;
        for (; it != items.end() && it->start <= t + slack; ++it) {
            if (!inLane(*it, gcLane))
                continue;
            const uint64_t distance = t < it->start ? it->start - t : t > it->end ? t - it->end : 0;
            if (distance < bestDistance) {
                best = &*it;
                bestDistance = distance;
            }
        }
        return best;
    }

    std::optional<SelectedItem> itemAt(const TrackRowGeometry& g, QPoint pos, const DrawList& d,
                                       const TrackContext&) const override
    {
        const LodItem* it = itemNear(g, pos, d);
        if (!it)
            return std::nullopt;
        SelectedItem item{id(), g.row, pos.y() >= g.rect.top() + kGcLaneFrom, it->start, it->end};
        item.eventOnCap = true; // the run's (or collection's) own event, on this capability
        return item;
    }

    QString describe(const TrackRowGeometry& g, QPoint pos, const DrawList& d, const TrackContext& ctx) const override
    {
        QString text = describeSpan(g, pos, d, ctx);
        // The run lane's instants under the pointer, after the run they mark.
        const auto& instants = static_cast<const CapabilityList&>(d).instants;
        if (pos.y() < g.rect.top() + kGcLaneFrom && size_t(g.row) < instants.size()) {
            const QString said = describeInstants(instants[size_t(g.row)], instantKindsShown(ctx.options.states), g.mapping,
                                                  pos.x(), ctx.index);
            if (!said.isEmpty())
                text += QStringLiteral("\n") + said;
        }
        return text;
    }

    QString describeSpan(const TrackRowGeometry& g, QPoint pos, const DrawList& d, const TrackContext& ctx) const
    {
        const LodItem* found = itemNear(g, pos, d);
        if (!found)
            return QObject::tr("HEC %1: idle at %2").arg(g.row).arg(qs(formatTimestamp(g.mapping.toTime(pos.x()))));
        const LodItem& it = *found;
        const QString when = QObject::tr("start %1, duration %2")
                                 .arg(qs(formatTimestamp(it.start)), qs(formatDuration(it.end - it.start)));
        if (it.aggregate) {
            const double len = double(std::max<uint64_t>(1, it.end - it.start));
            QString text = QObject::tr("HEC %1: %2 spans in this pixel (zoom in to see each)\n%3\n%4 % running, %5 % GC")
                               .arg(g.row)
                               .arg(it.count)
                               .arg(when)
                               .arg(100.0 * double(it.totals.running()) / len, 0, 'f', 1)
                               .arg(100.0 * double(it.totals.gc()) / len, 0, 'f', 1);
            if (it.totals.gcSync() > 0)
                text += QObject::tr(", %1 % waiting for a collection to begin")
                            .arg(100.0 * double(it.totals.gcSync()) / len, 0, 'f', 1);
            if (it.totals.parked() > 0)
                text += QObject::tr(", %1 % parked after a collection")
                            .arg(100.0 * double(it.totals.parked()) / len, 0, 'f', 1);
            return text;
        }
        if (!isGc(it.kind)) {
            const ThreadLabel label = ctx.index.labelOf(it.thread);
            QString name = QObject::tr("Thread %1").arg(it.thread);
            if (!label.empty())
                name += QStringLiteral(" “%1”").arg(qs(label));
            return QObject::tr("HEC %1: %2 running\n%3\nstopped: %4").arg(g.row).arg(name, when, stopReasonText(it.stop));
        }
        return QObject::tr("HEC %1: %2\n%3").arg(g.row).arg(gcPhaseText(it.kind), when);
    }

    void paintSelected(QPainter& p, const TrackRowGeometry& g, const SelectedItem& item,
                       const TrackContext& ctx) const override
    {
        const double top = item.gcLane ? g.rect.top() + kGcTop - 1 : g.rect.top() + kRunTop - 1;
        const double height = item.gcLane ? kGcHeight + 2 : kRunHeight + 2;
        p.setPen(QPen(ctx.options.palette.color(QPalette::Highlight), 2));
        p.setBrush(Qt::NoBrush);
        p.drawRect(spanRect(g.mapping, item.start, item.end, top, height).adjusted(-1, -1, 1, 1));
    }

    void addLegend(LegendWriter& legend, const TrackContext& ctx) const override
    {
        legend.entry(QObject::tr("running (colour per thread)"), [](QPainter& p, QRect box) {
            for (int i = 0; i < 4; ++i)
                p.fillRect(QRect(box.left() + i * 3, box.top(), 3, box.height()), threadColor(uint32_t(i + 1)));
        });
        legend.solid(QObject::tr("running, several per pixel"), spanColor(SpanKind::Running));
        legend.solid(QObject::tr("GC"), spanColor(SpanKind::Gc));
        legend.solid(QObject::tr("GC work"), spanColor(SpanKind::GcWork));
        legend.solid(QObject::tr("GC idle"), spanColor(SpanKind::GcIdle));
        legend.solid(QObject::tr("GC done"), spanColor(SpanKind::GcDone));
        const auto thin = [&](const QString& text, SpanKind k) {
            const QColor colour = spanColor(k);
            legend.entry(text, [colour](QPainter& p, QRect box) {
                p.fillRect(QRect(box.left(), box.center().y() - 1, box.width(), 3), colour);
            });
        };
        thin(QObject::tr("waiting for a collection to begin (not GC)"), SpanKind::GcSync);
        thin(QObject::tr("parked after a collection (not GC)"), SpanKind::GcParked);
        // The instants this log has and the View menu shows.
        for (int k = 0; k < kInstantKinds; ++k) {
            if (!(instantKindsShown(ctx.options.states) & (1u << k)))
                continue;
            if (ctx.index.instantCounts[k] == 0)
                continue;
            const QColor colour = instantColor(InstantKind(k));
            legend.entry(instantName(InstantKind(k)), [colour](QPainter& p, QRect box) {
                p.fillRect(QRect(box.center().x() - 2, box.top(), 5, 3), colour);
                p.fillRect(QRect(box.center().x(), box.top(), 1, box.height()), colour);
            });
        }
    }
};

} // namespace

std::unique_ptr<TimelineTrack> makeCapabilityTrack()
{
    return std::make_unique<CapabilityTrack>();
}

} // namespace hecscope
