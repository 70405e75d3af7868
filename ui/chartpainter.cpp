#include "ui/chartpainter.h"

#include "core/series.h"

#include <QImage>
#include <QPaintEngine>
#include <QPainter>
#include <QPicture>
#include <qcustomplot.h>

#include <cmath>

namespace hecscope {

namespace {

QVector<double> columns(int n)
{
    QVector<double> x(n);
    for (int i = 0; i < n; ++i)
        x[i] = i;
    return x;
}

double maxOf(const QVector<double>& v)
{
    double m = 0;
    for (double x : v)
        if (!std::isnan(x))
            m = std::max(m, x);
    return m;
}

QVector<double> scaled(const std::vector<double>& v, double factor)
{
    QVector<double> out(int(v.size()));
    for (size_t i = 0; i < v.size(); ++i)
        out[int(i)] = v[i] * factor;
    return out;
}

} // namespace

ChartPainter::ChartPainter() = default;
ChartPainter::~ChartPainter() = default;

void ChartPainter::reset(const QPalette& pal)
{
    if (!m_plot) {
        m_plot = std::make_unique<QCustomPlot>();
        m_plot->setNoAntialiasingOnDrag(true);
        m_plot->setPlottingHints(QCP::phFastPolylines);
        // One value per pixel column: antialiasing would only blur it, and costs.
        m_plot->setNotAntialiasedElements(QCP::aeAll);
    }
    m_plot->clearGraphs();
    m_plot->setBackground(Qt::NoBrush);
    QCPAxisRect* rect = m_plot->axisRect();
    rect->setAutoMargins(QCP::msNone);
    rect->setMargins(QMargins(0, 2, 0, 1));
    QFont small = m_plot->font();
    small.setPointSizeF(std::max(6.0, small.pointSizeF() * 0.8));
    for (QCPAxis* axis : {m_plot->xAxis, m_plot->yAxis, m_plot->xAxis2, m_plot->yAxis2}) {
        axis->setBasePen(Qt::NoPen);
        axis->setTickPen(QPen(pal.color(QPalette::Mid)));
        axis->setSubTickPen(Qt::NoPen);
        axis->setTickLabelColor(pal.color(QPalette::Text));
        axis->setTickLabelFont(small);
        axis->grid()->setPen(QPen(pal.color(QPalette::Midlight), 0, Qt::DotLine));
        axis->grid()->setVisible(false);
    }
    m_plot->xAxis->setVisible(false);
    m_plot->yAxis->setVisible(true);
    m_plot->yAxis->setTickLabelSide(QCPAxis::lsInside);
    m_plot->yAxis->setTickLength(0, 3);
    m_plot->yAxis->grid()->setVisible(true);
    m_plot->yAxis2->setVisible(true);
    m_plot->yAxis2->setTickLabelSide(QCPAxis::lsInside);
    m_plot->yAxis2->setTickLength(0, 3);
    m_plot->yAxis->ticker()->setTickCount(2);
    m_plot->yAxis2->ticker()->setTickCount(2);
}

void ChartPainter::draw(QPainter& p, const QRect& r)
{
    m_plot->xAxis->setRange(0, r.width());
    const QPaintEngine* engine = p.paintEngine();
    if (engine && (engine->type() == QPaintEngine::Raster || engine->type() == QPaintEngine::OpenGL2)) {
        // Pixels: draw into an image at the device's resolution and blit it.
        const qreal dpr = p.device() ? p.device()->devicePixelRatioF() : 1.0;
        const QSize size(int(std::ceil(r.width() * dpr)), int(std::ceil(r.height() * dpr)));
        if (m_image.size() != size)
            m_image = QImage(size, QImage::Format_ARGB32_Premultiplied);
        m_image.setDevicePixelRatio(dpr);
        m_image.fill(Qt::transparent);
        {
            QCPPainter cp(&m_image);
            m_plot->toPainter(&cp, r.width(), r.height());
        }
        p.drawImage(r.topLeft(), m_image);
        return;
    }
    // Vectors (SVG, PDF): record the drawing and replay it onto the painter.
    QPicture picture;
    {
        QCPPainter cp(&picture);
        m_plot->toPainter(&cp, r.width(), r.height());
    }
    p.drawPicture(r.topLeft(), picture);
}

void ChartPainter::paintHeap(QPainter& p, const QRect& r, ViewRange view, const LogIndex& index, const QPalette& pal)
{
    reset(pal);
    const uint32_t n = uint32_t(std::max(1, r.width()));
    const QVector<double> x = columns(int(n));
    const HeapSeries& h = index.heap;
    struct Line {
        const Series* series;
        QColor colour;
        bool fill;
    };
    const Line lines[] = {
        {&h.size, heapSizeColour(pal), false},
        {&h.blocks, kBlocksSize, false},
        {&h.live, kLive, true},
    };
    double top = 1;
    for (const Line& line : lines) {
        if (line.series->empty())
            continue;
        QCPGraph* g = m_plot->addGraph(m_plot->xAxis, m_plot->yAxis);
        g->setLineStyle(QCPGraph::lsStepLeft);
        g->setPen(QPen(line.colour, 1.5));
        if (line.fill) {
            QColor c = line.colour;
            c.setAlpha(70);
            g->setBrush(c);
        }
        const QVector<double> y = scaled(columnMaxima(*line.series, view.start, view.end, n), 1e-6);
        g->setData(x, y, true);
        top = std::max(top, maxOf(y));
    }
    m_plot->yAxis->setRange(0, top * 1.1);
    if (h.allocated.size() >= 2) {
        QCPGraph* g = m_plot->addGraph(m_plot->xAxis, m_plot->yAxis2);
        g->setLineStyle(QCPGraph::lsStepLeft);
        g->setPen(QPen(kAllocRate, 1));
        const QVector<double> y = scaled(columnRates(h.allocated, view.start, view.end, n), 1e-6);
        g->setData(x, y, true);
        m_plot->yAxis2->setRange(0, std::max(1.0, maxOf(y)) * 1.1);
    } else {
        m_plot->yAxis2->setVisible(false);
    }
    draw(p, r);
}

void ChartPainter::paintSparks(QPainter& p, const QRect& r, ViewRange view, const Capability& cap, const QPalette& pal)
{
    reset(pal);
    const uint32_t n = uint32_t(std::max(1, r.width()));
    const QVector<double> x = columns(int(n));
    // Spark counters grow between samples (GHC samples them at
    // collections); per column, the growth read linearly between samples,
    // as a rate per millisecond, as ThreadScope draws it.
    Series createdSeries, convertedSeries;
    createdSeries.reserve(cap.sparks.size());
    convertedSeries.reserve(cap.sparks.size());
    for (const SparkCounters& c : cap.sparks) {
        createdSeries.push_back({c.time, double(c.created)});
        convertedSeries.push_back({c.time, double(c.converted)});
    }
    const QVector<double> created = scaled(columnRates(createdSeries, view.start, view.end, n), 1e-3);
    const QVector<double> converted = scaled(columnRates(convertedSeries, view.start, view.end, n), 1e-3);
    QVector<double> pool(static_cast<int>(n));
    // Pool size: the latest sample at or before each column's end.
    size_t i = 0;
    double held = std::nan("");
    for (uint32_t c = 0; c < n; ++c) {
        const double end = double(view.start) + double(view.duration()) * (c + 1) / n;
        while (i < cap.sparks.size() && double(cap.sparks[i].time) < end)
            held = double(cap.sparks[i++].remaining);
        pool[int(c)] = held;
    }
    QCPGraph* g = m_plot->addGraph(m_plot->xAxis, m_plot->yAxis);
    g->setLineStyle(QCPGraph::lsStepLeft);
    g->setPen(QPen(kSparksCreated, 1.2));
    g->setData(x, created, true);
    QCPGraph* conv = m_plot->addGraph(m_plot->xAxis, m_plot->yAxis);
    conv->setLineStyle(QCPGraph::lsStepLeft);
    conv->setPen(QPen(kSparksConverted, 1.2));
    conv->setData(x, converted, true);
    QCPGraph* poolGraph = m_plot->addGraph(m_plot->xAxis, m_plot->yAxis2);
    poolGraph->setLineStyle(QCPGraph::lsStepLeft);
    poolGraph->setPen(QPen(kSparkPool, 1, Qt::DashLine));
    poolGraph->setData(x, pool, true);
    m_plot->yAxis->setRange(0, std::max({1.0, maxOf(created), maxOf(converted)}) * 1.1);
    m_plot->yAxis2->setRange(0, std::max(1.0, maxOf(pool)) * 1.1);
    draw(p, r);
}

} // namespace hecscope
