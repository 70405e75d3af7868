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

struct TickyCounter {
    uint64_t id = 0;
    uint16_t arity = 0;
    std::string kinds, name;
};

struct TickySample {
    uint64_t time = 0; // ns
    uint64_t id = 0, entries = 0, allocs = 0, allocd = 0;
    uint32_t group = 0; // TICKY_BEGIN_SAMPLE events before it in the log: the samples of one dump share it
};

// What TimeProfileBuilder makes: the time profile and ticky counters.
struct TimeProfilePart {
    TimeProfileData timeProfile;
    std::vector<TickyCounter> tickyCounters;
    std::vector<TickySample> tickySamples;
    std::vector<uint64_t> tickyBegins; // TICKY_BEGIN_SAMPLE times (ns), in log order

    size_t partBytes() const; // (LogIndex::memoryBytes; logindex.cpp, which knows SampleTree)
};

} // namespace hecscope
