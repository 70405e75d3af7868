#pragma once

#include "core/index/logindex.h"
#include "core/time/viewrange.h"

#include <QVector>

class QPainter;
class QPalette;
class QRect;

namespace hecscope {

class ChartPainter;

// The Heap track's chart: heap size, blocks size and live bytes (left
// axis, MB) and the allocation rate (right axis, MB/s), one value per
// pixel column (maxima, so peaks survive; the rate from the cumulative
// counter). Hit tests read the same columns.
struct HeapChart {
    QVector<double> size, blocks, live, rate; // empty: not in the log

    static HeapChart prepare(const LogIndex& index, ViewRange view, int width);
    // On `charts`, into `r`.
    void paint(ChartPainter& charts, QPainter& p, const QRect& r, const QPalette& pal) const;
};

} // namespace hecscope
