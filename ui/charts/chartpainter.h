#pragma once

#include <QImage>
#include <QPalette>
#include <QPicture>
#include <QRect>
#include <QString>

#include <memory>
#include <vector>

class QCustomPlot;
class QCPAxis;
class QCPPainter;
class QPainter;

namespace hecscope {

// Charts drawn ahead of a paint on another thread. QCustomPlot is a widget:
// it is made and used on the GUI thread only, so an export painted on a
// worker replays the charts recorded there, in the order the tracks drew
// them (images for raster devices, pictures for SVG and PDF).
struct ChartRecording {
    struct Chart {
        QImage image;
        QPicture picture;
    };
    bool vector = false;
    std::vector<Chart> charts; // one per ChartPainter::begin; empty when not drawn
};

// A chart canvas over QCustomPlot, for any QPainter (widget, image, SVG,
// PDF): the plot records into a QPicture that the painter replays, so
// vector outputs stay vector. A chart's owner reduces its data to one value
// per pixel column first (never more points than pixels), then
//     if (QCustomPlot* plot = charts.begin(p, r, pal)) {
//         ... plottables on plot->xAxis (pixels from r's left edge) and
//         plot->yAxis / yAxis2, charts.setValueAxis(...) ...
//         charts.draw(p, r);
//     }
// Reused between charts; needs a QApplication, and QCustomPlot the GUI
// thread (an export painted on a worker replays a recording).
class ChartPainter {
public:
    ChartPainter();
    ~ChartPainter();

    // Starts the next chart, into `r`: the plot with no plottables, its
    // axes reset to `pal` (x hidden; y and y2 shown, inside labels), to
    // fill and then draw(p, r). Null when replaying (replayFrom): the next
    // recorded chart was drawn into `r` instead, nothing is left to do.
    // Recording (recordInto): the chart is recorded by draw(), or empty if
    // draw() is not called.
    QCustomPlot* begin(QPainter& p, const QRect& r, const QPalette& pal);
    // One labelled gridline on `axis` (yAxis or yAxis2 of the plot begun),
    // from 0 with headroom over `max` (see the .cpp).
    void setValueAxis(QCPAxis* axis, double max, const QString& unit);
    // The plot begun, with its value labels, into `r` (x from 0 to r's
    // width), or into the recording.
    void draw(QPainter& p, const QRect& r);

    // Charts recorded into `r` instead of drawn (GUI thread); null: drawn.
    void recordInto(std::shared_ptr<ChartRecording> r) { m_record = std::move(r); }
    // Charts drawn from `r`, the first call the first chart, without
    // QCustomPlot (any thread); null: drawn.
    void replayFrom(std::shared_ptr<const ChartRecording> r)
    {
        m_replay = std::move(r);
        m_next = 0;
    }

    // The value labels the last chart drew (not replayed), in the painter's
    // coordinates: each on an opaque box of the palette's base colour, so
    // no data line runs through its text.
    struct ValueLabel {
        QString text;
        QRectF box;
    };
    const std::vector<ValueLabel>& labelsDrawn() const { return m_drawn; }

private:
    void reset(const QPalette& pal);
    // The plot and its value labels into a w × h picture; `at` is where
    // the picture lands on the caller's painter (for labelsDrawn()).
    void plotInto(QCPPainter& cp, int w, int h, QPointF at);
    struct PendingLabel {
        bool right = false; // yAxis2
        double value = 0;
        QString text;
    };
    std::vector<PendingLabel> m_labels;
    std::vector<ValueLabel> m_drawn;
    QPalette m_palette;
    std::shared_ptr<ChartRecording> m_record;
    std::shared_ptr<const ChartRecording> m_replay;
    size_t m_next = 0; // the next chart of m_replay
    std::unique_ptr<QCustomPlot> m_plot;
    QImage m_image; // reused between raster paints
};

} // namespace hecscope
