#pragma once

#include "core/heap/heapbands.h"

#include <QColor>

#include <memory>
#include <vector>

namespace hecscope {

struct LogIndex;

enum class HeapChartMode { Stacked,         // bands stacked, bytes
                           Normalised,      // bands stacked, share of each census (100 %)
                           Lines };         // one line per band, scaled to its own peak
QString heapChartModeName(HeapChartMode m); // for menus and tooltips

// What the heap-profile track draws: the selected bands, how, which are
// hidden (by column of the selection) and which are emphasised (the others
// fade; none emphasised = all drawn normally).
struct HeapView {
    uint64_t indexSerial = 0; // LogIndex::serial of the index the selection was made from
    std::shared_ptr<const BandSelection> selection;
    HeapChartMode mode = HeapChartMode::Stacked;
    std::vector<char> hidden;     // per column; missing = shown
    std::vector<char> emphasised; // per column; empty or all 0 = none

    bool isHidden(size_t column) const { return column < hidden.size() && hidden[column]; }
    bool anyEmphasised() const;
    bool isEmphasised(size_t column) const { return column < emphasised.size() && emphasised[column]; }
};

// Colours by size rank, so reordering keeps each band's colour; OTHER grey.
QColor bandColour(uint32_t sizeRank);
inline const QColor kOtherBandColour{0xa0, 0xa0, 0xa0};
// The colour of a column of `sel`.
QColor columnColour(const BandSelection& sel, const HeapBands& bands, size_t column);
// The display name of a column ("OTHER (n bands)" for OTHER).
QString columnName(const BandSelection& sel, const HeapBands& bands, size_t column);

} // namespace hecscope
