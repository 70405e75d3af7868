#pragma once

#include "core/index/timeline.h"
#include "core/time/timestamp.h"

#include <cstdint>
#include <vector>

namespace hecscope {

// SPARK_COUNTERS of one capability at one time (cumulative counts).
struct SparkCounters {
    uint64_t time = 0; // ns
    uint64_t created = 0, dud = 0, overflowed = 0, converted = 0, gcd = 0, fizzled = 0, remaining = 0;
};

// One capability: its run/GC timeline and the facts about its own events.
struct Capability {
    CapTimeline timeline;
    std::vector<SparkCounters> sparks;
    uint64_t created = kNoTime, deleted = kNoTime; // ns
    uint64_t firstEvent = kNoTime, lastEvent = 0;  // ns
    uint64_t events = 0;
    // Individual spark events (-lf) by tag, SPARK_CREATE .. SPARK_GC: the
    // events themselves are read back from the file (core/detail/sparkdetail.h).
    uint64_t sparkEvents[7] = {};
    uint64_t outOfOrder = 0;      // events earlier than the capability's previous one
};

// What SchedulerBuilder makes: per-capability timelines, spark counters
// and counts of spark events. Indexed by capability number; gaps are empty
// entries.
struct SchedulerPart {
    std::vector<Capability> caps;
    uint64_t unrepresentableSpans = 0; // starting after 78 hours: not in timelines
    uint64_t clippedSpans = 0;         // long runs cut to 2^32 ns (damaged timestamps)
    // One more than the highest capability a thread migrated to or was
    // woken on: a live log names capabilities before their own blocks come.
    uint32_t capsNamed = 0;

    size_t partBytes() const // (LogIndex::memoryBytes)
    {
        size_t bytes = 0;
        for (const Capability& c : caps)
            bytes += sizeof(Capability) + c.timeline.memoryBytes() + c.sparks.capacity() * sizeof(SparkCounters);
        return bytes;
    }
};

} // namespace hecscope
