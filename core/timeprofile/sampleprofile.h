#pragma once

#include "core/index/sampletree.h"
#include "core/profile/profile.h"

#include <cstdint>
#include <functional>
#include <limits>
#include <optional>

namespace hecscope {

struct LogIndex;

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

} // namespace hecscope
