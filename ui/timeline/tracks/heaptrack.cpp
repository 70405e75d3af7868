#include "core/text/units.h"
#include "ui/colours.h"
#include "ui/timeline/legendwriter.h"
#include "ui/timeline/timelinerenderer.h"
#include "ui/timeline/tracks/heapchart.h"

#include <QObject>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace hecscope {

namespace {

struct HeapList final : DrawList {
    HeapChart chart;
};

// Heap size, blocks size, live bytes and the allocation rate (QCustomPlot).
class HeapTrack final : public TimelineTrack {
public:
    QString id() const override { return QStringLiteral("heap"); }
    QString title() const override { return QObject::tr("Heap"); }
    QString menuText() const override { return QObject::tr("Hea&p"); }
    int rowHeight(const TrackContext&) const override { return 84; }
    QString emptyNote(const TrackContext& ctx) const override
    {
        return ctx.index.heap.empty() ? QObject::tr("no heap figures in this log") : QString();
    }

    std::shared_ptr<const DrawList> prepare(const TrackContext& ctx, ViewRange view, int width) const override
    {
        auto list = std::make_shared<HeapList>();
        if (!ctx.index.heap.empty())
            list->chart = HeapChart::prepare(ctx.index, view, width);
        return list;
    }

    void paint(QPainter& p, const TrackRowGeometry& g, const DrawList& d, const TrackContext& ctx) const override
    {
        if (ctx.index.heap.empty())
            paintTrackNote(p, g.plot, ctx.options.palette, emptyNote(ctx), ctx.resources.text());
        else
            static_cast<const HeapList&>(d).chart.paint(ctx.resources.charts(), p, g.plot, ctx.options.palette);
    }

    // The figures drawn in the pixel column under the pointer (each the
    // column's maximum; the rate over the column).
    QString describe(const TrackRowGeometry& g, QPoint pos, const DrawList& d, const TrackContext& ctx) const override
    {
        if (ctx.index.heap.empty())
            return {};
        const HeapChart& data = static_cast<const HeapList&>(d).chart;
        const int x = pos.x() - g.plot.left();
        const auto at = [x](const QVector<double>& y, const char* unit) {
            if (x < 0 || x >= y.size() || std::isnan(y[x]))
                return QStringLiteral("–");
            return QStringLiteral("%1 %2").arg(y[x], 0, 'f', 2).arg(QLatin1String(unit));
        };
        return QObject::tr("At %1\nheap size %2\nblocks size %3\nlive %4\nallocation rate %5")
            .arg(QString::fromStdString(formatTimestamp(g.mapping.toTime(pos.x()))), at(data.size, "MB"),
                 at(data.blocks, "MB"), at(data.live, "MB"), at(data.rate, "MB/s"));
    }

    void addLegend(LegendWriter& legend, const TrackContext& ctx) const override
    {
        legend.startCharts();
        legend.stroke(QObject::tr("heap size (MB)"), heapSizeColour(ctx.options.palette));
        legend.stroke(QObject::tr("blocks size (MB)"), kBlocksSize);
        legend.solid(QObject::tr("live (MB)"), kLive.lighter(130));
        legend.stroke(QObject::tr("allocation rate (MB/s, right axis)"), kAllocRate);
    }
};

} // namespace

std::unique_ptr<TimelineTrack> makeHeapTrack()
{
    return std::make_unique<HeapTrack>();
}

} // namespace hecscope
