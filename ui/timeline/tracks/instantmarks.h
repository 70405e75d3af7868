#pragma once

#include "core/index/instantspart.h"
#include "core/index/logindex.h"
#include "core/time/viewrange.h"

#include <QColor>
#include <QString>

#include <array>
#include <vector>

class QPainter;
class QRectF;

namespace hecscope {

// The instants of one HEC row in a (view, width), per kind: indices into
// the capability's CapInstants, or `dense` when a kind has more than one
// per kInstantPixelsPerMark pixels there (then it is not drawn: zoom in;
// closer marks would paint the row over).
constexpr int kInstantPixelsPerMark = 6;
// A kind is drawn as a line across the run lane only zoomed in (a pixel
// at most kTallMarkNsPerPixel ns) and with at most one mark per
// kInstantPixelsPerTallMark pixels; otherwise as short ticks at the lane's
// top (kShortMarkHeight), at most one per pixel column, so that instants
// never paint over more than a sliver of a zoomed-out row (a row of GC
// requests must not look like GC).
constexpr int kInstantPixelsPerTallMark = 40;
constexpr double kTallMarkNsPerPixel = 2000;
constexpr double kShortMarkHeight = 3;
struct InstantRow {
    std::array<std::vector<uint32_t>, kInstantKinds> shown;
    std::array<uint64_t, kInstantKinds> count{}; // in the view, drawn or not
    std::array<bool, kInstantKinds> dense{};
    std::array<bool, kInstantKinds> tall{}; // shown as lines across the lane (else short ticks)
};
// Rows of every capability. A view holding more than kMaxScan instants on
// a capability is not scanned at all: every kind is dense there.
constexpr size_t kMaxInstantScanPerPixel = 8;
std::vector<InstantRow> collectInstants(const LogIndex& index, ViewRange view, int width);

QColor instantColor(InstantKind kind);
QString instantName(InstantKind kind); // "spark created", "thread woken", ...
// Draws the shown instants of the kinds in `mask` into the run lane `lane`.
void paintInstants(QPainter& p, const InstantRow& row, const CapInstants& instants, uint32_t mask,
                   const TimeMapping& m, const QRectF& lane);
// What the instants within 2 pixels of x say ("" when none): kind, time and
// what each is about (thread labels from the index).
QString describeInstants(const InstantRow& row, const CapInstants& instants, uint32_t mask, const TimeMapping& m,
                         double x, const LogIndex& index);

} // namespace hecscope
