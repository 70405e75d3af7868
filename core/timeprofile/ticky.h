#pragma once

#include "core/index/tickypart.h"

#include <cstdint>
#include <string>
#include <vector>

namespace hecscope {

// Ticky-ticky counters (TICKY_COUNTER_DEF / TICKY_COUNTER_SAMPLE /
// TICKY_BEGIN_SAMPLE). The RTS writes the counters in dumps: each dump
// starts with TICKY_BEGIN_SAMPLE (logs from before that event have a single
// dump at exit).
struct TickyDump {
    uint32_t group = 0;  // TickySample::group
    uint64_t time = 0;   // ns: its TICKY_BEGIN_SAMPLE, else its first sample
    size_t samples = 0;  // counters in it
};
std::vector<TickyDump> tickyDumps(const TickyPart& part);

// Every defined counter (and any sampled but never defined) with its figures
// in one dump and the change since the previous dump that sampled it.
struct TickyRow {
    uint64_t id = 0;
    std::string name, kinds;
    uint16_t arity = 0;
    bool defined = false;  // a TICKY_COUNTER_DEF names it
    bool sampled = false;  // the dump has a sample of it (else figures are 0)
    uint64_t entries = 0, allocs = 0, allocd = 0;
    bool hasPrevious = false; // sampled in this dump and in an earlier one: the deltas below are set (else 0)
    int64_t dEntries = 0, dAllocs = 0, dAllocd = 0;
};
std::vector<TickyRow> tickyTable(const TickyPart& part, size_t dump);

} // namespace hecscope
