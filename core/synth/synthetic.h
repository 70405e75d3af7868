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

// Writes a heap profile (-hT style string bands) of `censuses` censuses
// 100 ms apart over `labels` bands, with the heap size and live figures:
// bands that grow steadily (leaks), hold still, oscillate or come and go
// (absent from some censuses, as a band of 0 bytes is in real logs).
// Deterministic for a given seed.
std::vector<uint8_t> synthesizeHeapProfileLog(size_t censuses, size_t labels, uint64_t seed = 1);

} // namespace hecscope
