#pragma once

#include "core/heap/heapbands.h"
#include "core/heap/heapprofile.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace hecscope {

// What HeapProfileBuilder makes (or the .hp reader): censuses and bands,
// the cost centres that name them and the info-table entries of -hi.
// heapBands and defaultBands are computed by prepareForDrawing.
struct HeapProfilePart {
    std::map<uint32_t, CostCentre> costCentres;
    HeapProfileData heapProfile;
    std::vector<Ipe> ipes;
    HeapBands heapBands;                               // the heap profile's censuses in time order and band figures
    std::shared_ptr<const BandSelection> defaultBands; // top 15 by size, for the first paint
    std::optional<HpHeader> hpFile;                    // read from a .hp heap profile, not an eventlog

    // (LogIndex::memoryBytes) The samples: the censuses, labels and bands
    // are small beside them.
    size_t partBytes() const { return heapProfile.samples.capacity() * sizeof(HeapProfileData::Entry); }
};

} // namespace hecscope
