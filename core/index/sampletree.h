#pragma once

#include "core/profile/profile.h"

#include <cstdint>
#include <map>
#include <memory>
#include <utility>
#include <vector>

namespace hecscope {

struct CostCentre;
struct TimeProfileData;

// The eventlog's time profile made ready for range queries, built once per
// index (prepareForDrawing): every distinct stack's path merged into one
// tree, the skeleton, whose nodes carry no figures yet.
struct SampleTree {
    CostCentreProfile skeleton;        // zero figures; the cost centres named from HEAP_PROF_COST_CENTRE
    std::vector<uint32_t> stackNode;   // per TimeProfileData::stacks entry: its innermost frame's node
    std::vector<uint32_t> stackLeading; // its innermost cost centre (index into skeleton.costCentres)
    std::vector<uint8_t> stackRts;     // whether a frame of it is the RTS's own (GC, IDLE, SYSTEM, ...)
    uint64_t unknownIds = 0;           // cost-centre ids no HEAP_PROF_COST_CENTRE named
    uint64_t emptyStacks = 0;          // samples with a stack of depth 0
    uint64_t samplesBeforeBegin = 0;   // samples logged before PROF_BEGIN

    size_t memoryBytes() const;
};

// Samples must already be in time order (prepareForDrawing sorts them).
std::shared_ptr<const SampleTree> buildSampleTree(const TimeProfileData& profile,
                                                  const std::map<uint32_t, CostCentre>& names);

// Which stacks pass through `node` of a profile made by sampleProfile (found
// by its path of cost centres in the skeleton): per TimeProfileData::stacks
// entry, 1 when it does. Empty when the path is not in the log.
std::vector<uint8_t> stacksThrough(const SampleTree& tree, const CostCentreProfile& profile, uint32_t node);

// [first, last) of the time-ordered samples in [t0, t1).
std::pair<size_t, size_t> sampleRange(const TimeProfileData& profile, uint64_t t0, uint64_t t1);

} // namespace hecscope
