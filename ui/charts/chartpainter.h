#pragma once

#include "core/index/logindex.h"
#include "core/time/viewrange.h"
#include "ui/heap/heapview.h"

#include <QColor>
#include <QImage>
#include <QPalette>
#include <QRect>

#include <memory>

class QCustomPlot;
class QPainter;

namespace hecscope {

// The chart-like tracks, drawn with QCustomPlot onto any QPainter (widget,
// image, SVG, PDF): the plot records into a QPicture that the painter
// replays, so vector outputs stay vector. Data are reduced to one value per
// pixel column first (maxima for levels, so peaks survive; rates from the
// cumulative counters), never more points than pixels. Needs a QApplication.
class ChartPainter {
public:
    // The heap size line is drawn in the text colour: it must stand out on
    // light and dark palettes alike.
    static QColor heapSizeColour(const QPalette& pal) { return pal.color(QPalette::Text); }
    static inline const QColor kBlocksSize{0x7f, 0x8c, 0x8d};
    static inline const QColor kLive{0x27, 0xae, 0x60};
    static inline const QColor kAllocRate{0xc0, 0x39, 0x2b};
    static inline const QColor kSparksCreated{0x29, 0x80, 0xb9};
    static inline const QColor kSparksConverted{0x27, 0xae, 0x60};
    static inline const QColor kSparkPool{0x8e, 0x44, 0xad};

    ChartPainter();
    ~ChartPainter();

    // Heap size, blocks size and live bytes (left axis, MB) and allocation
    // rate (right axis, MB/s). `r` is the plot area of the row.
    void paintHeap(QPainter& p, const QRect& r, ViewRange view, const LogIndex& index, const QPalette& pal);
    // Spark creation and conversion rates (sparks/ms, left axis) and the
    // spark pool size (right axis) of one capability.
    void paintSparks(QPainter& p, const QRect& r, ViewRange view, const Capability& cap, const QPalette& pal);
    // The heap-profile bands of `hv` (stacked bytes in MB with the heap size
    // and live lines over them, normalised to 100 %, or one line per band
    // scaled to its peak), with the user markers as dashed lines. Zoomed
    // out to more than two censuses a pixel, each column draws its census
    // of the largest total (stacked, normalised) or each band's maximum in
    // the column (lines), so peaks are never lost.
    void paintHeapProfile(QPainter& p, const QRect& r, ViewRange view, const LogIndex& index, const HeapView& hv,
                          const QPalette& pal);

    // The value range of the last heap-profile paint, for hit tests: the
    // plot rectangle, the view and the top of the value axis (MB or %).
    struct HeapFrame {
        QRect rect;
        ViewRange view;
        double top = 0;
        size_t drawnBands = 0; // bands with their own graph
    };
    static constexpr size_t kMaxDrawnBands = 64;
    const HeapFrame& lastHeapFrame() const { return m_heapFrame; }

private:
    void reset(const QPalette& pal);
    void draw(QPainter& p, const QRect& r);
    std::unique_ptr<QCustomPlot> m_plot;
    QImage m_image; // reused between raster paints
    HeapFrame m_heapFrame;
};

} // namespace hecscope
