#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace hecscope {

struct SampleTree;

// The cost-centre time profile (-p with -l): one sample per tick and stack.
// prepareForDrawing puts the samples in time order and builds `tree`.
struct TimeProfileData {
    uint64_t tickInterval = 0;                                       // ns, from PROF_BEGIN
    uint64_t beginTime = std::numeric_limits<uint64_t>::max();       // PROF_BEGIN's time (none: max)
    struct Sample {
        uint64_t time; // ns
        uint64_t tick;
        uint32_t stack; // index into stacks
        uint16_t cap;
    };
    std::vector<Sample> samples;
    std::vector<std::vector<uint32_t>> stacks; // cost-centre ids, innermost first
    std::shared_ptr<const SampleTree> tree;    // the stacks merged, for range queries (core/index/sampletree.h)
};

// What TimeProfileBuilder makes: the cost-centre time profile.
struct TimeProfilePart {
    TimeProfileData timeProfile;

    size_t partBytes() const; // (LogIndex::memoryBytes; logindex.cpp, which knows SampleTree)
};

} // namespace hecscope
