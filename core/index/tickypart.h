#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace hecscope {

// A ticky-ticky counter (a program built with -ticky, run with +RTS -lT):
// TICKY_COUNTER_DEF.
struct TickyCounter {
    uint64_t id = 0;
    uint16_t arity = 0;
    std::string kinds, name;
};

// One counter's figures at one dump (TICKY_COUNTER_SAMPLE).
struct TickySample {
    uint64_t time = 0; // ns
    uint64_t id = 0, entries = 0, allocs = 0, allocd = 0;
    uint32_t group = 0; // TICKY_BEGIN_SAMPLE events before it in the log: the samples of one dump share it
};

// What TickyBuilder makes: the ticky counters and their samples, in log order.
struct TickyPart {
    std::vector<TickyCounter> tickyCounters;
    std::vector<TickySample> tickySamples;
    std::vector<uint64_t> tickyBegins; // TICKY_BEGIN_SAMPLE times (ns), in log order

    size_t partBytes() const // (LogIndex::memoryBytes)
    {
        return tickyCounters.capacity() * sizeof(TickyCounter) + tickySamples.capacity() * sizeof(TickySample)
            + tickyBegins.capacity() * sizeof(uint64_t);
    }
};

} // namespace hecscope
