#pragma once

#include "core/detail/detailstore.h"
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
    CapInstants instants; // those in the view, read back from the file (time order)
    std::array<std::vector<uint32_t>, kInstantKinds> shown; // indices into `instants`
    std::array<uint64_t, kInstantKinds> count{}; // in the view, drawn or not
    std::array<bool, kInstantKinds> dense{};
    std::array<bool, kInstantKinds> tall{}; // shown as lines across the lane (else short ticks)
    bool pending = false; // being read from the file: drawn when it lands
    QString error;        // the file could not give them (said on the row)
};
// Rows of every capability. A view holding more than kMaxScan instants on
// a capability (the index's marks tell) is not read at all: every kind is
// dense there. The rest are read back from the file through `store`:
// now when `wait` (exports), else from its cache, and the units not there
// yet are added to `missing` (the view has them read and draws again).
constexpr size_t kMaxInstantScanPerPixel = 8;
std::vector<InstantRow> collectInstants(const LogIndex& index, DetailStore* store, bool wait, ViewRange view,
                                        int width, std::vector<InstantUnitKey>* missing = nullptr);

QColor instantColor(InstantKind kind);
QString instantName(InstantKind kind); // "spark created", "thread woken", ...
// Draws the shown instants of the kinds in `mask` into the run lane `lane`.
void paintInstants(QPainter& p, const InstantRow& row, uint32_t mask, const TimeMapping& m, const QRectF& lane);
// What the instants within 2 pixels of x say ("" when none): kind, time and
// what each is about (thread labels from the index).
QString describeInstants(const InstantRow& row, uint32_t mask, const TimeMapping& m, double x, const LogIndex& index);

} // namespace hecscope
