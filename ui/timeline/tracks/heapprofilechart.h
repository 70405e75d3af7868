#pragma once

#include "core/index/logindex.h"
#include "core/time/viewrange.h"
#include "ui/heap/heapview.h"

#include <QPoint>
#include <QVector>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

class QPainter;
class QPalette;
class QRect;

namespace hecscope {

class ChartPainter;

// The Heap profile track's chart: the bands of a HeapView reduced to what
// is drawn: stacked bytes in MB with the heap size and live lines over
// them, normalised to 100 %, or one line per band scaled to its peak; the
// user markers as dashed lines. Zoomed out to more than two censuses a
// pixel, each column holds its census of the largest total (stacked,
// normalised) or each band's maximum in the column (lines), so peaks are
// never lost. Hit tests read the same data.
struct HeapProfileChart {
    std::shared_ptr<const HeapView> view; // kept alive: colours, emphasis
    const HeapBands* bands = nullptr;
    QVector<double> x; // per point: pixels from the plot's left edge
    struct Layer {
        QVector<double> bottom, top; // MB or %
        size_t column = SIZE_MAX;    // of the selection; SIZE_MAX: the grey rest
    };
    std::vector<Layer> layers; // stacked and normalised, bottom first
    struct Line {
        QVector<double> y; // % of the band's peak
        size_t column = 0;
    };
    std::vector<Line> lines;    // lines mode
    QVector<double> live, size; // per pixel column, MB (stacked); empty: not drawn
    double top = 1;             // top of the value axis (MB or %)
    double sizeTop = 0;         // the heap size's maximum, MB
    size_t drawnBands = 0, visibleBands = 0;
    std::vector<double> markers; // pixels from the left edge

    // Bands with a graph of their own at most (see prepare).
    static constexpr size_t kMaxDrawnBands = 64;
    static HeapProfileChart prepare(const LogIndex& index, std::shared_ptr<const HeapView> view, ViewRange range,
                                    int width);
    // On `charts`, into `r`, with its notes (bands left grey or undrawn,
    // the heap size off the scale) and the markers.
    void paint(ChartPainter& charts, QPainter& p, const QRect& r, const QPalette& pal) const;
    // The column of the selection drawn at `pos` in `r`: the band under it
    // when stacked or normalised, the line within 5 pixels in lines mode.
    std::optional<size_t> columnAt(const QRect& r, QPoint pos) const;
};

} // namespace hecscope
