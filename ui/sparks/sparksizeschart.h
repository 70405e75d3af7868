#pragma once

#include "core/stats/sparksizes.h"

#include <QWidget>

#include <memory>

namespace hecscope {

// The spark-size histogram, painted: one bar per log2 bin of evaluation
// time on a log-scale time axis (decades labelled), bar heights the bin's
// number of sparks or its total evaluation time (as ThreadScope draws it),
// a dashed line at the median, a tooltip per bar. With no data it draws a
// message (why there is none) instead. UI thread only.
class SparkSizesChart : public QWidget {
    Q_OBJECT
public:
    enum class Bars { TotalTime,
                      Count };

    explicit SparkSizesChart(QWidget* parent = nullptr);

    void setSizes(std::shared_ptr<const SparkSizes> sizes);
    void setMessage(const QString& message); // shown instead of bars
    void setBars(Bars bars);

    QString message() const { return m_message; }
    Bars bars() const { return m_bars; }
    // The bar under `pos` (an index into sizes->bins), -1 if none; the
    // rectangle a bar is drawn in; its tooltip.
    int binAt(QPoint pos) const;
    QRect barRect(int bin) const;
    QString binToolTip(int bin) const;

    QSize minimumSizeHint() const override { return {240, 90}; }
    QSize sizeHint() const override { return {640, 260}; }

protected:
    void paintEvent(QPaintEvent*) override;
    bool event(QEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void leaveEvent(QEvent*) override;

private:
    struct Layout {
        QRectF plot;
        double lo = 0, hi = 1; // log2 ns at the plot's left and right edges
        double yMax = 1;       // bar units at the plot's top
        double yStep = 1;      // between gridlines
    };
    Layout layout() const;
    double value(const SparkSizeBin& b) const;
    QString valueText(double v) const;

    std::shared_ptr<const SparkSizes> m_sizes;
    QString m_message;
    Bars m_bars = Bars::Count;
    int m_hover = -1;
};

} // namespace hecscope
