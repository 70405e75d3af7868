#include "ui/timeline/tracks/heapchart.h"

#include "core/index/series.h"
#include "ui/charts/chartpainter.h"
#include "ui/charts/chartparts.h"
#include "ui/colours.h"

#include <qcustomplot.h>

#include <algorithm>

namespace hecscope {

using namespace chartparts;

HeapChart HeapChart::prepare(const LogIndex& index, ViewRange view, int width)
{
    const uint32_t n = uint32_t(std::max(1, width));
    const HeapSeries& h = index.heap;
    HeapChart d;
    auto column = [&](const Series& s) {
        return s.empty() ? QVector<double>() : scaled(columnMaxima(s, view.start, view.end, n), 1e-6);
    };
    d.size = column(h.size);
    d.blocks = column(h.blocks);
    d.live = column(h.live);
    if (h.allocated.size() >= 2)
        d.rate = scaled(columnRates(h.allocated, view.start, view.end, n), 1e-6);
    return d;
}

void HeapChart::paint(ChartPainter& charts, QPainter& p, const QRect& r, const QPalette& pal) const
{
    QCustomPlot* plot = charts.begin(p, r, pal);
    if (!plot)
        return;
    struct Line {
        const QVector<double>* y;
        QColor colour;
        bool fill;
    };
    const Line lines[] = {
        {&size, heapSizeColour(pal), false},
        {&blocks, kBlocksSize, false},
        {&live, kLive, true},
    };
    double top = 1;
    for (const Line& line : lines) {
        if (line.y->isEmpty())
            continue;
        QCPGraph* g = plot->addGraph(plot->xAxis, plot->yAxis);
        g->setPen(QPen(line.colour, 0)); // cosmetic: wider pens go through the slow stroker
        if (line.fill) {
            QColor c = line.colour;
            c.setAlpha(70);
            g->setBrush(c);
        }
        setColumnSteps(g, *line.y);
        top = std::max(top, maxOf(*line.y));
    }
    charts.setValueAxis(plot->yAxis, top, QStringLiteral("MB"));
    if (!rate.isEmpty()) {
        QCPGraph* g = plot->addGraph(plot->xAxis, plot->yAxis2);
        g->setLineStyle(QCPGraph::lsStepLeft);
        g->setPen(QPen(kAllocRate, 1));
        g->setData(columns(int(rate.size())), rate, true);
        charts.setValueAxis(plot->yAxis2, std::max(1.0, maxOf(rate)), QStringLiteral("MB/s"));
    } else {
        plot->yAxis2->setVisible(false);
    }
    charts.draw(p, r);
}

} // namespace hecscope
