#include "ui/timeline/tracks/activitytrack.h"

#include "core/text/units.h"
#include "ui/colours.h"
#include "ui/jobs/settings.h"
#include "ui/timeline/legendwriter.h"
#include "ui/timeline/tracks/rectbatch.h"
#include "ui/timeline/timelinerenderer.h"

#include <QAction>
#include <QFontMetrics>
#include <QMenu>
#include <QObject>
#include <QPainter>

#include <algorithm>
#include <climits>
#include <cmath>

namespace hecscope {

std::vector<ActivityColumn> activityColumns(const LogIndex& index, ViewRange view, int width,
                                            const CapabilityLods& lods)
{
    const int w = std::max(1, width);
    std::vector<ActivityColumn> out(static_cast<size_t>(w));
    if (index.caps.empty())
        return out;
    const TimeMapping m(view, 0, w);
    std::vector<uint64_t> edges(size_t(w) + 1);
    for (int x = 0; x <= w; ++x)
        edges[size_t(x)] = m.toTime(x);
    edges[size_t(w)] = std::max(edges[size_t(w)], view.end);
    auto columnOf = [&](uint64_t t) {
        const auto it = std::upper_bound(edges.begin(), edges.end(), t);
        return std::clamp(int(it - edges.begin()) - 1, 0, w - 1);
    };
    for (const std::vector<LodItem>& items : lods)
        for (const LodItem& it : items) {
            const uint64_t a = std::max(it.start, view.start), b = std::min(it.end, view.end);
            if (b <= a)
                continue;
            if (it.aggregate) {
                ActivityColumn& col = out[size_t(columnOf(a))];
                col.running += double(it.totals.running());
                col.gc += double(it.totals.gc());
                col.stopped += double(it.totals.gcSync() + it.totals.parked());
                continue;
            }
            for (int c = columnOf(a); c < w && edges[size_t(c)] < b; ++c) {
                // A column narrower than a nanosecond holds the nanosecond it is in.
                const uint64_t colEnd = std::max(edges[size_t(c) + 1], edges[size_t(c)] + 1);
                const uint64_t lo = std::max(a, edges[size_t(c)]), hi = std::min(b, colEnd);
                if (hi <= lo)
                    continue;
                if (it.kind == SpanKind::Running)
                    out[size_t(c)].running += double(hi - lo);
                else if (isCollecting(it.kind)) // not waiting for a collection or parked after one
                    out[size_t(c)].gc += double(hi - lo);
                else
                    out[size_t(c)].stopped += double(hi - lo);
            }
        }
    const double caps = double(index.caps.size());
    for (int x = 0; x < w; ++x) {
        const double span = double(std::max<uint64_t>(1, edges[size_t(x) + 1] - edges[size_t(x)]));
        out[size_t(x)].running /= span * caps;
        out[size_t(x)].gc /= span * caps;
        out[size_t(x)].stopped /= span * caps;
    }
    return out;
}

namespace {

// The user's choice for this track, from its own menu: running
// capabilities only (no GC stacked on them). Saved in the settings.
struct ActivityShown {
    bool runningOnly = false;
};
const QString kRunningOnlyKey = QStringLiteral("view/activityRunningOnly");

bool activityRunningOnly(const TrackStates& s)
{
    const auto shown = s.get<ActivityShown>();
    return shown && shown->runningOnly;
}

struct ActivityList final : DrawList {
    std::vector<ActivityColumn> columns;
};

// Capabilities running a thread, and in GC, per pixel column, stacked
// (running below; GC left out when the View menu says running only), on a
// scale of 0 to N capabilities with a gridline per capability (per step
// when there are many), as ThreadScope draws it: the first thing read for
// parallelism, so as tall as ThreadScope's graph, the scale's numbers in
// the label column (never over the data).
class ActivityTrack final : public TimelineTrack {
public:
    QString id() const override { return QStringLiteral("activity"); }
    QString title() const override { return QObject::tr("Activity"); }
    QString rowLabel(const TrackContext&, int) const override { return QObject::tr("Activity\n(HECs)"); }
    QString menuText() const override { return QObject::tr("&Activity"); }
    static constexpr int kHeight = 100; // ThreadScope's activity graph
    int rowHeight(const TrackContext&) const override { return kHeight; }
    // The label and, at its right, the scale's widest number.
    int labelWidth(const TrackContext& ctx, const QFont& font) const override
    {
        const QString widest = QString::number(std::max<size_t>(1, ctx.index.caps.size()));
        return TimelineTrack::labelWidth(ctx, font) + QFontMetrics(scaleFont(font)).horizontalAdvance(widest) + 6;
    }
    static QFont scaleFont(QFont font)
    {
        if (font.pointSizeF() > 0)
            font.setPointSizeF(std::max(6.0, font.pointSizeF() * 0.75));
        else
            font.setPixelSize(std::max(8, font.pixelSize() * 3 / 4));
        return font;
    }

    bool prefetch(const TrackContext& ctx, ViewRange view, int width) const override
    {
        return ctx.resources.prefetchCapabilityLods(view, width);
    }

    std::shared_ptr<const DrawList> prepare(const TrackContext& ctx, ViewRange view, int width) const override
    {
        auto list = std::make_shared<ActivityList>();
        list->columns = activityColumns(ctx.index, view, width, *ctx.resources.capabilityLods(view, width));
        return list;
    }

    void paint(QPainter& p, const TrackRowGeometry& g, const DrawList& d, const TrackContext& ctx) const override
    {
        const auto& columns = static_cast<const ActivityList&>(d).columns;
        const QRect& r = g.plot;
        const int w = int(columns.size());
        const double h = r.height() - 4, base = r.bottom() - 1;
        const bool runningOnly = activityRunningOnly(ctx.options.states);
        // One bar per run of columns with the same heights (rounded to
        // pixels): at most two rectangles per pixel, however busy the log.
        RectBatch fills(p, r);
        int runStart = 0, runH = -1, gcH = -1;
        auto flush = [&](int x) {
            if (x > runStart && runH > 0)
                fills.fill(QRectF(r.left() + runStart, base - runH, x - runStart, runH), spanColor(SpanKind::Running));
            if (x > runStart && gcH > 0)
                fills.fill(QRectF(r.left() + runStart, base - runH - gcH, x - runStart, gcH), spanColor(SpanKind::Gc));
        };
        for (int x = 0; x < w; ++x) {
            const double run = columns[size_t(x)].running, gc = columns[size_t(x)].gc;
            const int rh = int(std::lround(h * std::min(1.0, run)));
            const int gh = runningOnly ? 0 : int(std::lround(h * std::min(1.0, run + gc))) - rh;
            if (rh != runH || gh != gcH) {
                flush(x);
                runStart = x;
                runH = rh;
                gcH = gh;
            }
        }
        flush(w);
        fills.flush();
        // The scale: a line per capability (per step of several when they
        // would be closer than 6 pixels), numbered in the label column at
        // its right edge, next to the line.
        const int caps = std::max<int>(1, int(ctx.index.caps.size()));
        int step = 1;
        while (h * step / caps < 6)
            step *= 2;
        QColor line = ctx.options.palette.color(QPalette::Text);
        line.setAlpha(45);
        const QFont small = scaleFont(p.font());
        p.setFont(small);
        const QFontMetrics fm(small);
        int lastLabel = INT_MAX;
        for (int k = step; k <= caps; k += step) {
            const double y = std::round(base - h * k / caps) + 0.5;
            p.setPen(line);
            p.drawLine(QPointF(r.left(), y), QPointF(r.right(), y));
            if (lastLabel - y >= fm.height() || k == caps) {
                p.setPen(ctx.options.palette.color(QPalette::Text));
                const QString number = QString::number(k);
                // Centred on its line, kept inside the row.
                const double top = std::clamp(y - fm.height() / 2.0, double(g.rect.top()),
                                              double(g.rect.bottom() + 1 - fm.height()));
                ctx.resources.text().draw(p, QRectF(g.rect.left(), top, r.left() - 4 - g.rect.left(), fm.height()),
                           Qt::AlignRight | Qt::AlignVCenter, number);
                lastLabel = int(y);
            }
        }
    }

    QString describe(const TrackRowGeometry& g, QPoint pos, const DrawList& d, const TrackContext& ctx) const override
    {
        const auto& columns = static_cast<const ActivityList&>(d).columns;
        if (columns.empty())
            return {};
        const size_t x = size_t(std::clamp(pos.x() - g.plot.left(), 0, int(columns.size()) - 1));
        const double caps = double(ctx.index.caps.size());
        QString text = QObject::tr("At %1: %2 of %3 capabilities running (%4 %), %5 in GC (%6 %)")
                           .arg(QString::fromStdString(formatTimestamp(g.mapping.toTime(pos.x()))))
                           .arg(caps * columns[x].running, 0, 'f', 2)
                           .arg(caps)
                           .arg(100.0 * columns[x].running, 0, 'f', 1)
                           .arg(caps * columns[x].gc, 0, 'f', 2)
                           .arg(100.0 * columns[x].gc, 0, 'f', 1);
        if (columns[x].stopped > 0)
            text += QObject::tr(", %1 stopped outside a collection (waiting for it or parked after it; not GC)")
                        .arg(caps * columns[x].stopped, 0, 'f', 2);
        return text;
    }

    void addContextActions(QMenu& menu, const TrackPointer& pointer, const TrackContext& ctx) const override
    {
        if (!pointer.editStates)
            return;
        QAction* a = menu.addAction(QObject::tr("Running Only"));
        a->setCheckable(true);
        a->setChecked(activityRunningOnly(ctx.options.states));
        a->setToolTip(QObject::tr("The activity track without GC stacked on the running capabilities"));
        QObject::connect(a, &QAction::triggered, &menu, [edit = pointer.editStates](bool runningOnly) {
            Settings::setValue(kRunningOnlyKey, runningOnly);
            edit([runningOnly](TrackStates& s) { s.set(std::make_shared<const ActivityShown>(ActivityShown{runningOnly})); });
        });
    }

    void restoreState(TrackStates& s) const override
    {
        s.set(std::make_shared<const ActivityShown>(ActivityShown{Settings::value(kRunningOnlyKey, false).toBool()}));
    }

    void addLegend(LegendWriter& legend, const TrackContext& ctx) const override
    {
        // The HEC rows name these colours when they are shown.
        legend.solidUnlessNamed(QObject::tr("running"), spanColor(SpanKind::Running));
        if (!activityRunningOnly(ctx.options.states))
            legend.solidUnlessNamed(QObject::tr("GC"), spanColor(SpanKind::Gc));
    }
};

} // namespace

std::unique_ptr<TimelineTrack> makeActivityTrack()
{
    return std::make_unique<ActivityTrack>();
}

} // namespace hecscope
