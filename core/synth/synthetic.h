#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
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

// Writes the life of `threads` Haskell threads (ids 1..threads, created in
// id order, staggered over the run so that their lifetimes overlap), each
// made of `runsPerThread` runs on `caps` capabilities: CREATE_THREAD, a
// THREAD_LABEL for ~90% ("worker-<id>" ~70%, "conn-<id>" ~20%), then
// RUN_THREAD / STOP_THREAD pairs with a mix of statuses (standard GHC >= 7.8.3
// numbering: yielding, heap and stack overflow, foreign call, blocked on an
// MVar, MVar read, black hole (owner in `info`), read, delay, STM, throwTo),
// THREAD_WAKEUP or THREAD_RUNNABLE between runs and an occasional
// MIGRATE_THREAD; the last run ends with ThreadFinished. A few stop-the-world
// collections (GC_START ... GC_END on every capability). Runs on a capability
// never overlap; each capability flushes ~2 MiB blocks in turn, each block's
// events in time order. Deterministic for a given seed.
std::vector<uint8_t> synthesizeThreadsLog(size_t threads, size_t runsPerThread, int caps = 4,
                                          uint64_t seed = 1);

// Writes exactly `spans` user spans: `threads` long-lived Haskell threads run
// on `caps` capabilities and, while running, write USER_MSG events
// (traceEvent) "START <name>" / "STOP <name>", properly nested per thread (at
// most 4 deep; 50 names, by depth). A span is often left open over a stop of
// its thread and closed in a later run, maybe on another capability. A user
// message belongs to the thread running on its capability. Each thread ends
// with ThreadFinished once every span is closed. Deterministic for a seed.
std::vector<uint8_t> synthesizeSpansLog(size_t spans, size_t threads = 64, int caps = 4,
                                        uint64_t seed = 1);

// Writes a cost-centre time profile (+RTS -p -l) of exactly `samples`
// PROF_SAMPLE_COST_CENTRE samples, one per 1 ms tick on each of `caps`
// capabilities in turn: HEAP_PROF_COST_CENTRE definitions of `costCentres`
// cost centres over 100 modules (id 1 is main) plus GC and IDLE (module
// MAIN), PROF_BEGIN, then the samples. Stacks are random walks from main
// over a fixed random call graph (1-6 callees each, 1 in 40 cost centres
// calling itself), up to `maxDepth` frames (at most 255); there are about
// samples / 25 distinct stacks (at most 60,000), drawn with Zipf weights whose
// ranking changes in each quarter of the run; 6 % of samples are GC and 4 %
// IDLE. Deterministic for a given seed (syntheticprofile.cpp).
std::vector<uint8_t> synthesizeProfileLog(size_t samples, size_t costCentres = 5000, size_t maxDepth = 50,
                                          int caps = 4, uint64_t seed = 1);

// A `.prof` report in GHC 9.0.2's `-P` layout (writeProfText) of at least
// `targetBytes` (a little more, at most about 10 %), from the whole run of
// synthesizeProfileLog's samples on 4 capabilities: more samples and cost
// centres (one per 200 samples) until the text is that long. Ticks are the
// samples; entries and bytes are drawn per node from its number, so the
// alloc columns are not all zero. Deterministic for a given seed
// (syntheticprofreport.cpp).
std::string synthesizeProfReport(size_t targetBytes, uint64_t seed = 1);

} // namespace hecscope
