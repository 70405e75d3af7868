#include "core/text/units.h"
#include "ui/charts/chartpainter.h"
#include "ui/charts/chartparts.h"
#include "ui/heap/heapview.h"
#include "ui/timeline/legendwriter.h"
#include "ui/timeline/timelinerenderer.h"

#include <QObject>
#include <QPainter>
#include <qcustomplot.h>

#include <algorithm>
#include <map>

namespace hecscope {

namespace {

// The non-moving heap's censuses (NONMOVING_HEAP_CENSUS, +RTS -ln): one
// record per allocator, block sizes ascending, so a census ends where the
// size falls back. [first, last) into LogIndex::nonmovingCensus.
struct Census {
    uint64_t time; // ns, of its first record
    size_t first, last;
};

std::vector<Census> censuses(const std::vector<NonmovingCensus>& records)
{
    std::vector<Census> out;
    for (size_t i = 0; i < records.size(); ++i)
        if (out.empty() || records[i].blockSize <= records[i - 1].blockSize)
            out.push_back({records[i].time, i, i + 1});
        else
            out.back().last = i + 1;
    return out;
}

// Live bytes in a census, per block size.
std::map<uint32_t, double> liveBytes(const std::vector<NonmovingCensus>& records, const Census& c)
{
    std::map<uint32_t, double> out;
    for (size_t i = c.first; i < c.last; ++i)
        out[records[i].blockSize] += double(records[i].liveBlocks) * double(records[i].blockSize);
    return out;
}

struct CensusList final : DrawList {
    std::vector<Census> all;          // every census, by time
    std::vector<uint32_t> sizes;      // block sizes that ever hold live blocks, ascending
    QVector<double> x;                // per drawn census: pixels from the plot's left edge
    std::vector<size_t> drawn;        // per drawn census: index into `all`
    std::vector<QVector<double>> tops; // per size: the stack's top there, MB
    double top = 0;
};

// The non-moving heap by block size: live bytes (live blocks × block size)
// stacked per allocator at each census, on the shared time axis; the
// tooltip gives each allocator's active and filled segments and live blocks.
class NonmovingHeapTrack final : public TimelineTrack {
public:
    QString id() const override { return QStringLiteral("nonmoving-heap"); }
    QString title() const override { return QObject::tr("Heap (NM)"); }
    QString menuText() const override { return QObject::tr("Non-moving &heap"); }
    // Only logs with non-moving censuses have the row.
    int rowCount(const TrackContext& ctx) const override { return ctx.index.nonmovingCensus.empty() ? 0 : 1; }
    int rowHeight(const TrackContext&) const override { return 84; }

    std::shared_ptr<const DrawList> prepare(const TrackContext& ctx, ViewRange view, int width) const override
    {
        auto list = std::make_shared<CensusList>();
        const auto& records = ctx.index.nonmovingCensus;
        list->all = censuses(records);
        std::map<uint32_t, bool> live;
        for (const NonmovingCensus& r : records)
            live[r.blockSize] = live[r.blockSize] || r.liveBlocks > 0;
        for (const auto& [size, any] : live)
            if (any)
                list->sizes.push_back(size);
        const TimeMapping m(view, 0, std::max(1, width));
        // The censuses in view and one each side, so the layers reach the
        // edges; dense ones keep one a pixel column (the largest total).
        const auto& all = list->all;
        const auto a = size_t(std::partition_point(all.begin(), all.end(), [&](const Census& c) { return c.time < view.start; }) - all.begin());
        const auto b = size_t(std::partition_point(all.begin(), all.end(), [&](const Census& c) { return c.time <= view.end; }) - all.begin());
        int lastPx = INT32_MIN;
        double lastTotal = -1;
        for (size_t i = a > 0 ? a - 1 : 0; i < std::min(all.size(), b + 1); ++i) {
            const auto bytes = liveBytes(records, all[i]);
            double total = 0;
            for (const auto& [size, v] : bytes)
                total += v;
            const double x = m.toPixel(all[i].time);
            // (The censuses either side of the view may be billions of
            // pixels off: no int, and no column to share.)
            const bool inView = i >= a && i < b;
            if (inView && int(x) == lastPx) {
                if (total > lastTotal) { // the column keeps its largest census
                    list->drawn.back() = i;
                    lastTotal = total;
                }
                continue;
            }
            list->x.push_back(x);
            list->drawn.push_back(i);
            lastPx = inView ? int(x) : INT32_MIN;
            lastTotal = total;
        }
        list->tops.assign(list->sizes.size(), QVector<double>(list->x.size(), 0.0));
        for (qsizetype j = 0; j < list->x.size(); ++j) {
            const auto bytes = liveBytes(records, all[list->drawn[size_t(j)]]);
            double sum = 0;
            for (size_t k = 0; k < list->sizes.size(); ++k) {
                const auto it = bytes.find(list->sizes[k]);
                sum += it == bytes.end() ? 0.0 : it->second / 1e6;
                list->tops[k][j] = sum;
            }
            list->top = std::max(list->top, sum);
        }
        return list;
    }

    void paint(QPainter& p, const TrackRowGeometry& g, const DrawList& d, const TrackContext& ctx) const override
    {
        // The layers stacked bottom first, each from the top of the one
        // below, the value axis from 0 to the largest total.
        const auto& list = static_cast<const CensusList&>(d);
        ChartPainter& charts = ctx.resources.charts();
        QCustomPlot* plot = charts.begin(p, g.plot, ctx.options.palette);
        if (!plot)
            return;
        plot->yAxis2->setVisible(false);
        auto* stack = new chartparts::StackedBands(plot->xAxis, plot->yAxis);
        stack->keys = list.x;
        QVector<double> bottom(list.x.size(), 0.0);
        for (size_t k = 0; k < list.tops.size(); ++k) {
            const QColor c = bandColour(uint32_t(k)); // the k-th smallest block size
            stack->layers.push_back({bottom, list.tops[k], c, QPen(c.darker(125), 0)});
            bottom = list.tops[k];
        }
        plot->yAxis->setRange(0, std::max(list.top, 1e-9) * 1.05);
        charts.draw(p, g.plot);
    }

    QString describe(const TrackRowGeometry& g, QPoint pos, const DrawList& d, const TrackContext& ctx) const override
    {
        const auto& list = static_cast<const CensusList&>(d);
        if (list.all.empty())
            return {};
        // The census nearest to the pointer.
        const uint64_t t = g.mapping.toTime(pos.x());
        auto it = std::partition_point(list.all.begin(), list.all.end(), [&](const Census& c) { return c.time < t; });
        if (it == list.all.end() || (it != list.all.begin() && t - (it - 1)->time < it->time - t))
            --it;
        const auto& records = ctx.index.nonmovingCensus;
        QString s = QObject::tr("Non-moving heap census %1 of %2 at %3\nblock size: active / filled segments, live blocks (bytes)")
                        .arg(it - list.all.begin() + 1)
                        .arg(list.all.size())
                        .arg(QString::fromStdString(formatTimestamp(it->time)));
        for (size_t i = it->first; i < it->last; ++i) {
            const NonmovingCensus& r = records[i];
            if (r.activeSegments == 0 && r.filledSegments == 0 && r.liveBlocks == 0)
                continue;
            s += QObject::tr("\n%1 B: %2 / %3, %4 (%5)")
                     .arg(r.blockSize)
                     .arg(r.activeSegments)
                     .arg(r.filledSegments)
                     .arg(QString::fromStdString(formatGrouped(r.liveBlocks)))
                     .arg(QString::fromStdString(formatBytes(double(r.liveBlocks) * double(r.blockSize))));
        }
        return s;
    }

    void addLegend(LegendWriter& legend, const TrackContext& ctx) const override
    {
        if (ctx.index.nonmovingCensus.empty())
            return;
        legend.startCharts();
        legend.entry(QObject::tr("non-moving heap: live bytes by block size (MB)"), [](QPainter& p, QRect box) {
            for (int i = 0; i < 3; ++i)
                p.fillRect(QRect(box.left(), box.bottom() - 3 * (i + 1) + 1, box.width(), 3), bandColour(uint32_t(i)));
        });
    }
};

} // namespace

std::unique_ptr<TimelineTrack> makeNonmovingHeapTrack()
{
    return std::make_unique<NonmovingHeapTrack>();
}

} // namespace hecscope
