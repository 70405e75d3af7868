#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace hecscope {

// The cost-centre time profile (-p with -l): one sample per tick and stack.
struct TimeProfileData {
    uint64_t tickInterval = 0;
    struct Sample {
        uint64_t time; // ns
        uint64_t tick;
        uint32_t stack; // index into stacks
        uint16_t cap;
    };
    std::vector<Sample> samples;
    std::vector<std::vector<uint32_t>> stacks; // cost-centre ids, innermost first
};

struct TickyCounter {
    uint64_t id = 0;
    uint16_t arity = 0;
    std::string kinds, name;
};

struct TickySample {
    uint64_t time = 0; // ns
    uint64_t id = 0, entries = 0, allocs = 0, allocd = 0;
};

// What TimeProfileBuilder makes: the time profile and ticky counters.
struct TimeProfilePart {
    TimeProfileData timeProfile;
    std::vector<TickyCounter> tickyCounters;
    std::vector<TickySample> tickySamples;
};

} // namespace hecscope
