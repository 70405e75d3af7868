#include "core/index/series.h"
#include "core/stats/stats.h"
#include "core/text/units.h"
#include "ui/charts/chartpainter.h"
#include "ui/charts/chartparts.h"
#include "ui/colours.h"
#include "ui/timeline/legendwriter.h"
#include "ui/timeline/timelinerenderer.h"

#include <QObject>
#include <QPainter>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace hecscope {

namespace {

using namespace chartparts;

// Spark creation and conversion rates (sparks/ms, left axis) and the
// spark pool size (right axis) of one capability, per pixel column, drawn
// on the ChartPainter canvas.
struct SparksChart {
    QVector<double> created, converted, pool;

    static SparksChart prepare(const Capability& cap, ViewRange view, int width)
    {
        const uint32_t n = uint32_t(std::max(1, width));
        // Spark counters grow between samples (GHC samples them at
        // collections); per column, the growth read linearly between
        // samples, as a rate per millisecond, as ThreadScope draws it.
        Series createdSeries, convertedSeries;
        createdSeries.reserve(cap.sparks.size());
        convertedSeries.reserve(cap.sparks.size());
        for (const SparkCounters& c : cap.sparks) {
            createdSeries.push_back({c.time, double(c.created)});
            convertedSeries.push_back({c.time, double(c.converted)});
        }
        SparksChart d;
        d.created = scaled(columnRates(createdSeries, view.start, view.end, n), 1e-3);
        d.converted = scaled(columnRates(convertedSeries, view.start, view.end, n), 1e-3);
        d.pool = QVector<double>(static_cast<int>(n));
        // Pool size: the latest sample at or before each column's end.
        size_t i = 0;
        double held = std::nan("");
        for (uint32_t c = 0; c < n; ++c) {
            const double end = double(view.start) + double(view.duration()) * (c + 1) / n;
            while (i < cap.sparks.size() && double(cap.sparks[i].time) < end)
                held = double(cap.sparks[i++].remaining);
            d.pool[int(c)] = held;
        }
        return d;
    }

    void paint(ChartPainter& charts, QPainter& p, const QRect& r, const QPalette& pal) const
    {
        QCustomPlot* plot = charts.begin(p, r, pal);
        if (!plot)
            return;
        const QVector<double> x = columns(int(created.size()));
        QCPGraph* g = plot->addGraph(plot->xAxis, plot->yAxis);
        g->setLineStyle(QCPGraph::lsStepLeft);
        g->setPen(QPen(kSparksCreated, 1.2));
        g->setData(x, created, true);
        QCPGraph* conv = plot->addGraph(plot->xAxis, plot->yAxis);
        conv->setLineStyle(QCPGraph::lsStepLeft);
        conv->setPen(QPen(kSparksConverted, 1.2));
        conv->setData(x, converted, true);
        QCPGraph* poolGraph = plot->addGraph(plot->xAxis, plot->yAxis2);
        poolGraph->setLineStyle(QCPGraph::lsStepLeft);
        poolGraph->setPen(QPen(kSparkPool, 1, Qt::DashLine));
        poolGraph->setData(x, pool, true);
        charts.setValueAxis(plot->yAxis, std::max({1.0, maxOf(created), maxOf(converted)}), QStringLiteral("/ms"));
        charts.setValueAxis(plot->yAxis2, std::max(1.0, maxOf(pool)), QStringLiteral("in pool"));
        charts.draw(p, r);
    }
};

struct SparksList final : DrawList {
    std::vector<SparksChart> caps; // per capability
};

// Spark rows are worth a row per capability only when some spark was made:
// every RTS samples the counters, most programs never spark.
bool hasSparks(const LogIndex& ix)
{
    for (const Capability& c : ix.caps)
        if (!c.sparks.empty()) {
            const SparkCounters& last = c.sparks.back();
            if (last.created + last.dud + last.overflowed + last.converted + last.fizzled + last.gcd > 0)
                return true;
        }
    return false;
}

// Spark creation and conversion rates and the pool, per capability (a
// QCustomPlot chart per row); one row with a note when nothing sparked.
class SparksTrack final : public TimelineTrack {
public:
    QString id() const override { return QStringLiteral("sparks"); }
    QString title() const override { return QObject::tr("Sparks"); }
    QString menuText() const override { return QObject::tr("&Sparks"); }
    int rowCount(const TrackContext& ctx) const override { return hasSparks(ctx.index) ? int(ctx.index.caps.size()) : 1; }
    bool rowsAreCapabilities(const TrackContext& ctx) const override { return hasSparks(ctx.index); }
    int rowHeight(const TrackContext&) const override { return 44; }
    QString emptyNote(const TrackContext& ctx) const override
    {
        return hasSparks(ctx.index) ? QString() : QObject::tr("no sparks in this log");
    }
    QString rowLabel(const TrackContext&, int row) const override
    {
        return row >= 0 ? QObject::tr("Sparks %1").arg(row) : QObject::tr("Sparks");
    }

    std::shared_ptr<const DrawList> prepare(const TrackContext& ctx, ViewRange view, int width) const override
    {
        auto list = std::make_shared<SparksList>();
        if (hasSparks(ctx.index))
            for (const Capability& c : ctx.index.caps)
                list->caps.push_back(SparksChart::prepare(c, view, width));
        return list;
    }

    void paint(QPainter& p, const TrackRowGeometry& g, const DrawList& d, const TrackContext& ctx) const override
    {
        const auto& caps = static_cast<const SparksList&>(d).caps;
        if (g.row >= 0 && size_t(g.row) < caps.size())
            caps[size_t(g.row)].paint(ctx.resources.charts(), p, g.plot, ctx.options.palette);
        else
            paintTrackNote(p, g.plot, ctx.options.palette, emptyNote(ctx), ctx.resources.text());
    }

    QString describe(const TrackRowGeometry& g, QPoint pos, const DrawList& d, const TrackContext& ctx) const override
    {
        const auto& caps = static_cast<const SparksList&>(d).caps;
        if (g.row < 0 || size_t(g.row) >= caps.size())
            return {};
        const SparksChart& data = caps[size_t(g.row)];
        const int x = std::clamp(pos.x() - g.plot.left(), 0, int(data.created.size()) - 1);
        // The rates and pool drawn in this pixel column, and the column's
        // other counts from the counters.
        const uint64_t a = g.mapping.toTime(g.plot.left() + x), b = std::max(a + 1, g.mapping.toTime(g.plot.left() + x + 1));
        const auto buckets = sparkBuckets(ctx.index.caps[size_t(g.row)], a, b - a, 1);
        const SparkTotals st = buckets.empty() ? SparkTotals{} : buckets[0];
        const auto number = [](double v, int decimals) {
            return std::isnan(v) ? QStringLiteral("–") : QString::number(v, 'f', decimals);
        };
        return QObject::tr("HEC %1 sparks at %2\ncreated %3 /ms, converted %4 /ms\nfizzled %5, GC'd %6, dud %7, overflowed %8 in %9\npool %10")
            .arg(g.row)
            .arg(QString::fromStdString(formatTimestamp(g.mapping.toTime(pos.x()))))
            .arg(number(data.created[x], 2), number(data.converted[x], 2))
            .arg(st.fizzled)
            .arg(st.gcd)
            .arg(st.dud)
            .arg(st.overflowed)
            .arg(QString::fromStdString(formatDuration(b - a)))
            .arg(number(data.pool[x], 0));
    }

    void addLegend(LegendWriter& legend, const TrackContext& ctx) const override
    {
        if (!hasSparks(ctx.index))
            return; // the row says so
        legend.startCharts();
        legend.stroke(QObject::tr("sparks created (/ms)"), kSparksCreated);
        legend.stroke(QObject::tr("converted (/ms)"), kSparksConverted);
        legend.stroke(QObject::tr("spark pool (right axis)"), kSparkPool, Qt::DashLine);
    }
};

} // namespace

std::unique_ptr<TimelineTrack> makeSparksTrack()
{
    return std::make_unique<SparksTrack>();
}

} // namespace hecscope
