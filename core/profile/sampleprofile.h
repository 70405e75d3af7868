#pragma once

#include "core/profile/profile.h"

#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <vector>

namespace hecscope {

struct CostCentre;
struct LogIndex;
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

// Which samples a view counts: time in [t0, t1), one capability or all (-1),
// with or without the RTS's own frames.
struct SampleFilter {
    uint64_t t0 = 0;
    uint64_t t1 = std::numeric_limits<uint64_t>::max();
    int cap = -1;
    bool hideRts = false;
};

// The call tree of the samples the filter selects: one sample counts one
// (ProfileUnit::Samples); nodes with no sample are left out. Returns an empty
// optional when cancelled. The header carries the tick interval and the
// number of capabilities; warnings say what the log lacked.
std::optional<CostCentreProfile> sampleProfile(const LogIndex& ix, const SampleFilter& filter,
                                               const std::function<bool()>& cancelled = {});

// Which stacks pass through `node` of a profile made by sampleProfile (found
// by its path of cost centres in the skeleton): per TimeProfileData::stacks
// entry, 1 when it does. Empty when the path is not in the log.
std::vector<uint8_t> stacksThrough(const SampleTree& tree, const CostCentreProfile& profile, uint32_t node);

// [first, last) of the time-ordered samples in [t0, t1).
std::pair<size_t, size_t> sampleRange(const TimeProfileData& profile, uint64_t t0, uint64_t t1);

} // namespace hecscope
