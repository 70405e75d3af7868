#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace hecscope {

// Writes a plausible scheduler-heavy eventlog with the project's encoder:
// `caps` capabilities, each flushing 2 MiB-ish blocks of thread runs, stops,
// wakeups, sparks and GCs in time order, a global block of heap figures, and
// DATA_END. Deterministic for a given seed. For benchmarks and tests that
// need sizes no test program produces quickly.
std::vector<uint8_t> synthesizeSchedulerLog(size_t targetBytes, int caps = 4, uint64_t seed = 1);

} // namespace hecscope
