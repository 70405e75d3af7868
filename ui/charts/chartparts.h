#pragma once

// What the charts drawn on a ChartPainter share (the heap, sparks,
// heap-profile and non-moving heap tracks'): pixel-column keys, maxima and
// scaling of per-column values, and StackedBands, the stacked bands as one
// QCustomPlot plottable.

#include <QColor>
#include <QPen>
#include <QVector>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace hecscope::chartparts {

inline QVector<double> columns(int n)
{
    QVector<double> x(n);
    for (int i = 0; i < n; ++i)
        x[i] = i;
    return x;
}

// One value per pixel column as a step line (QCPGraph::lsStepLeft: each
// value from its column to the next point's), from fewer points, two
// vertices each: a heap series holds each sample's value over many
// columns. Of a run of equal values the first two points and the last are
// kept (with the first alone, Qt's aliased rasteriser put a run's line and
// fill up to ten pixels further along where two runs' values were less than
// a pixel apart); NaN (a gap) is kept. The same pixels as every column's
// point: tst_timeline compares them.
inline void setColumnSteps(QCPGraph* g, const QVector<double>& values)
{
    QVector<double> keys, kept;
    const int n = int(values.size());
    for (int i = 0; i < n; ++i)
        if (i <= 1 || i + 1 == n || !(values[i] == values[i - 1]) || !(values[i] == values[i + 1])
            || !(values[i - 1] == values[i - 2])) {
            keys.push_back(i);
            kept.push_back(values[i]);
        }
    g->setLineStyle(QCPGraph::lsStepLeft);
    g->setData(keys, kept, true);
}

inline double maxOf(const QVector<double>& v)
{
    double m = 0;
    for (double x : v)
        if (!std::isnan(x))
            m = std::max(m, x);
    return m;
}

inline QVector<double> scaled(const std::vector<double>& v, double factor)
{
    QVector<double> out(int(v.size()));
    for (size_t i = 0; i < v.size(); ++i)
        out[int(i)] = v[i] * factor;
    return out;
}

// Stacked bands as one QCustomPlot plottable: each layer a polygon from its
// top line back along its bottom line, so every pixel of the stack is
// filled once (graphs filled to the axis overdraw each other; channel
// fills between graphs cost more than the drawing).
class StackedBands final : public QCPAbstractPlottable {
public:
    struct Layer {
        QVector<double> bottom, top;
        QColor fill;
        QPen outline; // along the top; Qt::NoPen for none
    };
    StackedBands(QCPAxis* key, QCPAxis* value) : QCPAbstractPlottable(key, value) {}
    QVector<double> keys;
    std::vector<Layer> layers;

    double selectTest(const QPointF&, bool, QVariant*) const override { return -1; }
    QCPRange getKeyRange(bool& found, QCP::SignDomain) const override
    {
        found = !keys.isEmpty();
        return found ? QCPRange(keys.front(), keys.back()) : QCPRange();
    }
    QCPRange getValueRange(bool& found, QCP::SignDomain, const QCPRange&) const override
    {
        double top = 0;
        for (const Layer& l : layers)
            for (double v : l.top)
                top = std::max(top, v);
        found = !layers.empty();
        return QCPRange(0, top);
    }

protected:
    void draw(QCPPainter* painter) override
    {
        const int n = int(keys.size());
        QPolygonF polygon;
        polygon.reserve(2 * n);
        for (const Layer& l : layers) {
            polygon.clear();
            for (int i = 0; i < n; ++i)
                polygon << coordsToPixels(keys[i], l.top[i]);
            for (int i = n; i-- > 0;)
                polygon << coordsToPixels(keys[i], l.bottom[i]);
            painter->setPen(Qt::NoPen);
            painter->setBrush(l.fill);
            painter->drawPolygon(polygon);
            if (l.outline.style() != Qt::NoPen) {
                painter->setPen(l.outline);
                painter->setBrush(Qt::NoBrush);
                painter->drawPolyline(polygon.constData(), n);
            }
        }
    }
    void drawLegendIcon(QCPPainter*, const QRectF&) const override {}
};


} // namespace hecscope::chartparts
