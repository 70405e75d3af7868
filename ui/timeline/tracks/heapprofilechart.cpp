#include "ui/timeline/tracks/heapprofilechart.h"

#include "ui/charts/chartpainter.h"
#include "ui/charts/chartparts.h"
#include "ui/colours.h"

#include "core/index/series.h"

#include <QPainter>
#include <qcustomplot.h>

#include <algorithm>
#include <climits>
#include <cmath>

// The heap-profile chart: the bands of a HeapView reduced to pixel
// columns, drawn stacked, normalised or as lines on the ChartPainter
// canvas, and hit-tested.
namespace hecscope {

using namespace chartparts;

HeapProfileChart HeapProfileChart::prepare(const LogIndex& index, std::shared_ptr<const HeapView> view, ViewRange range,
                                           int width)
{
    HeapProfileChart d;
    d.view = std::move(view);
    const HeapView& hv = *d.view;
    const HeapBands& bands = index.heapBands;
    d.bands = &bands;
    const BandSelection& sel = *hv.selection;
    const int w = std::max(1, width);
    const double duration = double(std::max<uint64_t>(1, range.duration()));
    auto xOf = [&](uint64_t t) { return (double(t) - double(range.start)) * w / duration; };

    // The censuses to draw: those in view (one per pixel column when they
    // are denser than two a pixel) and one each side, so the bands run on
    // to the edges. Each point is drawn at its representative census and
    // stands for the censuses [from, to) of its pixel column.
    const auto [a, b] = bands.censusesIn(range.start, range.end + 1);
    struct Point {
        size_t census, from, to;
    };
    std::vector<Point> points;
    if (a > 0)
        points.push_back({a - 1, a - 1, a});
    if (b - a <= size_t(2 * w)) {
        for (size_t i = a; i < b; ++i)
            points.push_back({i, i, i + 1});
    } else {
        size_t i = a;
        for (int c = 0; c < w && i < b; ++c) {
            const uint64_t end = range.start + uint64_t(duration * (c + 1) / w);
            const bool last = c + 1 == w; // takes a census at exactly range.end
            const size_t from = i;
            size_t best = SIZE_MAX;
            for (; i < b && (last || bands.times[i] < end); ++i)
                if (best == SIZE_MAX || bands.totals[i] > bands.totals[best])
                    best = i;
            if (best != SIZE_MAX)
                points.push_back({best, from, i});
        }
    }
    if (b < bands.times.size())
        points.push_back({b, b, b + 1});

    std::vector<size_t> visible;
    for (size_t k = 0; k < sel.columns(); ++k)
        if (!hv.isHidden(k))
            visible.push_back(k);
    d.visibleBands = visible.size();
    const bool emphasis = hv.anyEmphasised();
    const int np = int(points.size());
    d.x = QVector<double>(np);
    for (int i = 0; i < np; ++i)
        d.x[i] = xOf(bands.times[points[size_t(i)].census]);
    double top = 1e-3; // MB
    // At most kMaxDrawnBands bands get their own graph (the picked-out ones
    // first, then the tallest, or for lines the first in order): thousands
    // of graphs would take seconds a paint. Stacked, the rest show grey.
    const auto drawnSet = [&](auto height) {
        std::vector<size_t> order(visible.begin(), visible.end());
        std::stable_sort(order.begin(), order.end(), [&](size_t u, size_t v) {
            const bool pu = emphasis && hv.isEmphasised(u), pv = emphasis && hv.isEmphasised(v);
            return pu != pv ? pu : height(u) > height(v);
        });
        std::vector<char> drawn(sel.columns(), 0);
        for (size_t i = 0; i < order.size() && i < kMaxDrawnBands; ++i)
            drawn[order[i]] = 1;
        return drawn;
    };
    if (hv.mode == HeapChartMode::Lines) {
        const std::vector<char> drawn = drawnSet([&](size_t k) { return -double(k); }); // display order
        for (size_t k : visible)
            if (drawn[k])
                d.lines.push_back({QVector<double>(np, 0.0), k});
        // Each band's own maximum over the column: a line per band must keep
        // that band's peaks, whichever census has the largest total. Rows
        // are read in order (a row holds every band of a census).
        for (int i = 0; i < np; ++i)
            for (size_t c = points[size_t(i)].from; c < points[size_t(i)].to; ++c) {
                const uint64_t* row = sel.row(c);
                for (HeapProfileChart::Line& line : d.lines)
                    line.y[i] = std::max(line.y[i], double(row[line.column]));
            }
        for (HeapProfileChart::Line& line : d.lines) {
            const double peak = double(std::max<uint64_t>(1, sel.columnPeak[line.column]));
            for (double& y : line.y)
                y = 100.0 * y / peak;
        }
        d.drawnBands = d.lines.size();
        top = 100;
    } else {
        const bool normalised = hv.mode == HeapChartMode::Normalised;
        QVector<double> total(np, 0.0);
        if (normalised)
            for (int i = 0; i < np; ++i)
                for (size_t k : visible)
                    total[i] += double(sel.row(points[size_t(i)].census)[k]);
        const auto valueOf = [&](size_t k, int i) {
            const double v = double(sel.row(points[size_t(i)].census)[k]);
            return normalised ? (total[i] > 0 ? 100.0 * v / total[i] : 0.0) : v * 1e-6;
        };
        // Bands in their colours; beyond kMaxDrawnBands, the tallest (and
        // the picked-out ones) over the whole stack in grey.
        std::vector<char> drawn(sel.columns(), 1);
        if (visible.size() > kMaxDrawnBands) {
            // Rows are read in order: a row holds every band of a census.
            std::vector<double> height(sel.columns(), 0.0);
            for (int i = 0; i < np; ++i)
                for (size_t k : visible)
                    height[k] = std::max(height[k], valueOf(k, i));
            drawn = drawnSet([&](size_t k) { return height[k]; });
        }
        std::vector<size_t> columnsDrawn;
        for (size_t k : visible)
            if (drawn[k])
                columnsDrawn.push_back(k);
        const bool grey = columnsDrawn.size() < visible.size();
        if (grey)
            d.layers.push_back({QVector<double>(np, 0.0), QVector<double>(np), SIZE_MAX});
        const size_t first = d.layers.size();
        for (size_t k : columnsDrawn)
            d.layers.push_back({QVector<double>(np), QVector<double>(np), k});
        for (int i = 0; i < np; ++i) {
            double sum = 0;
            size_t layer = first;
            for (size_t k : visible) {
                const bool mine = layer < d.layers.size() && d.layers[layer].column == k;
                if (mine)
                    d.layers[layer].bottom[i] = sum;
                sum += valueOf(k, i);
                if (mine)
                    d.layers[layer++].top[i] = sum;
            }
            if (grey)
                d.layers.front().top[i] = sum;
            top = std::max(top, sum);
        }
        d.drawnBands = columnsDrawn.size();
        if (normalised) {
            top = 100;
        } else {
            // The live bytes over the bands (how much of the live heap the
            // profile accounts for) and the heap size, when it fits the
            // scale of the bands; else it is named in a corner.
            const uint32_t n = uint32_t(w);
            const HeapSeries& h = index.heap;
            if (!h.live.empty()) {
                d.live = scaled(columnMaxima(h.live, range.start, range.end, n), 1e-6);
                top = std::max(top, maxOf(d.live));
            }
            if (!h.size.empty()) {
                QVector<double> size = scaled(columnMaxima(h.size, range.start, range.end, n), 1e-6);
                d.sizeTop = maxOf(size);
                if (d.sizeTop <= top * 2) {
                    d.size = std::move(size);
                    top = std::max(top, d.sizeTop);
                }
            }
        }
    }
    d.top = top * 1.05;
    // User markers, one a pixel column however many there are.
    const auto& byTime = index.messagesByTime;
    auto it = std::partition_point(byTime.begin(), byTime.end(),
                                   [&](uint32_t m) { return index.messages[m].time < range.start; });
    int lastColumn = INT_MIN;
    for (; it != byTime.end() && index.messages[*it].time <= range.end; ++it) {
        if (index.messages[*it].kind != Message::Marker)
            continue;
        const double px = xOf(index.messages[*it].time);
        if (int(px) == lastColumn)
            continue;
        lastColumn = int(px);
        d.markers.push_back(px);
    }
    return d;
}

namespace {

// The chart's plottables and value axis on `plot`, begun on `charts`.
void plotBands(const HeapProfileChart& d, QCustomPlot* plot, ChartPainter& charts, const QPalette& pal)
{
    plot->yAxis2->setVisible(false);
    const HeapView& hv = *d.view;
    const BandSelection& sel = *hv.selection;
    const bool emphasis = hv.anyEmphasised();
    if (hv.mode == HeapChartMode::Lines) {
        for (const HeapProfileChart::Line& line : d.lines) {
            QColor c = columnColour(sel, *d.bands, line.column);
            if (emphasis && !hv.isEmphasised(line.column))
                c.setAlpha(50);
            QCPGraph* g = plot->addGraph(plot->xAxis, plot->yAxis);
            g->setPen(QPen(c, emphasis && hv.isEmphasised(line.column) ? 2.5 : 0)); // cosmetic unless picked out
            g->setData(d.x, line.y, true);
        }
    } else {
        const QColor base = pal.color(QPalette::Base);
        auto fade = [&](QColor c) {
            return QColor((c.red() + 4 * base.red()) / 5, (c.green() + 4 * base.green()) / 5, (c.blue() + 4 * base.blue()) / 5);
        };
        auto* stack = new StackedBands(plot->xAxis, plot->yAxis);
        stack->keys = d.x;
        for (const HeapProfileChart::Layer& l : d.layers) {
            if (l.column == SIZE_MAX) {
                stack->layers.push_back({l.bottom, l.top, kOtherBandColour.lighter(115), Qt::NoPen});
                continue;
            }
            const bool faded = emphasis && !hv.isEmphasised(l.column);
            const bool picked = emphasis && hv.isEmphasised(l.column);
            const QColor c = columnColour(sel, *d.bands, l.column);
            stack->layers.push_back({l.bottom, l.top, faded ? fade(c) : c,
                                     QPen(faded ? fade(c.darker(125)) : c.darker(picked ? 200 : 125), picked ? 2 : 0)});
        }
        if (!d.live.isEmpty()) {
            QCPGraph* g = plot->addGraph(plot->xAxis, plot->yAxis);
            g->setPen(QPen(kLive, 0)); // cosmetic: the fast line path
            setColumnSteps(g, d.live);
        }
        if (!d.size.isEmpty()) {
            QCPGraph* g = plot->addGraph(plot->xAxis, plot->yAxis);
            g->setPen(QPen(heapSizeColour(pal), 0)); // solid and cosmetic: dashing or stroking 1600 points is slow
            setColumnSteps(g, d.size);
        }
    }
    // The axis ends at the top the data asked for; one labelled gridline
    // below it, in the unit drawn: MB stacked, % of each census normalised,
    // and in lines mode a share of each band's own peak (every line has
    // its own scale, so no byte figure is true of them all).
    const QString unit = hv.mode == HeapChartMode::Stacked      ? QStringLiteral("MB")
                         : hv.mode == HeapChartMode::Normalised ? QStringLiteral("%")
                                                                : QObject::tr("% of peak");
    charts.setValueAxis(plot->yAxis, d.top / 1.35, unit);
    plot->yAxis->setRange(0, d.top);
}

} // namespace

void HeapProfileChart::paint(ChartPainter& charts, QPainter& p, const QRect& r, const QPalette& pal) const
{
    if (QCustomPlot* plot = charts.begin(p, r, pal)) {
        plotBands(*this, plot, charts, pal);
        charts.draw(p, r);
    }
    const HeapView& hv = *view;
    auto smallText = [&](QColor colour, Qt::Alignment align, const QString& text, const QRect& box) {
        p.save();
        p.setPen(colour);
        QFont f = p.font();
        f.setPointSizeF(std::max(6.0, f.pointSizeF() * 0.8));
        p.setFont(f);
        p.drawText(box, align, text);
        p.restore();
    };
    if (drawnBands < visibleBands)
        smallText(pal.color(QPalette::Text), Qt::AlignTop | Qt::AlignLeft,
                  hv.mode == HeapChartMode::Lines
                      ? QObject::tr("%1 of %2 lines drawn: hide bands or show fewer").arg(drawnBands).arg(visibleBands)
                      : QObject::tr("the %1 tallest of %2 bands in colour, the rest grey").arg(drawnBands).arg(visibleBands),
                  r.adjusted(4, 2, 0, 0));
    if (sizeTop > top)
        smallText(heapSizeColour(pal), Qt::AlignTop | Qt::AlignRight,
                  QObject::tr("heap size up to %1 MB (off this scale)").arg(sizeTop, 0, 'f', 1), r.adjusted(0, 2, -4, 0));

    // User markers, dashed across the track.
    p.save();
    p.setClipRect(r);
    QColor markerColour = pal.color(QPalette::Text);
    markerColour.setAlpha(140);
    p.setPen(QPen(markerColour, 1, Qt::DashLine));
    for (double mx : markers)
        p.drawLine(QPointF(r.left() + mx, r.top()), QPointF(r.left() + mx, r.bottom()));
    p.restore();
}

std::optional<size_t> HeapProfileChart::columnAt(const QRect& r, QPoint pos) const
{
    if (!r.contains(pos) || x.isEmpty() || top <= 0)
        return std::nullopt;
    // The plot's value axis spans the row less its margins (2 above, 1 below).
    const double plotTop = r.top() + 2.0, plotBottom = r.bottom() - 1.0;
    const double v = (plotBottom - pos.y()) / std::max(1.0, plotBottom - plotTop) * top;
    const double px = pos.x() - r.left();
    // Nothing is drawn outside the points; between two, the bands are the
    // straight lines QCustomPlot draws between them.
    if (px < x.front() || px > x.back())
        return std::nullopt;
    const auto after = std::lower_bound(x.begin(), x.end(), px);
    const int i1 = int(after - x.begin());
    const int i0 = std::max(0, *after == px ? i1 : i1 - 1);
    const double f = x[i1] > x[i0] ? (px - x[i0]) / (x[i1] - x[i0]) : 0.0;
    const auto at = [&](const QVector<double>& y) { return y[i0] + f * (y[i1] - y[i0]); };
    if (!lines.empty()) {
        const double slack = 5.0 / std::max(1.0, plotBottom - plotTop) * top;
        std::optional<size_t> best;
        double bestDistance = slack;
        for (const Line& line : lines) {
            const double distance = std::abs(at(line.y) - v);
            if (distance <= bestDistance) {
                bestDistance = distance;
                best = line.column;
            }
        }
        return best;
    }
    for (const Layer& l : layers) {
        if (l.column == SIZE_MAX)
            continue; // the grey rest lies under the coloured layers
        const double lo = at(l.bottom), hi = at(l.top);
        if (hi > lo && v >= lo && v <= hi)
            return l.column;
    }
    return std::nullopt;
}

} // namespace hecscope
