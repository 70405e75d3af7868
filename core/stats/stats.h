#pragma once

#include "core/index/logindex.h"

#include <cstdint>
#include <vector>

namespace hecscope {

struct SparkTotals {
    uint64_t created = 0, converted = 0, overflowed = 0, dud = 0, gcd = 0, fizzled = 0;
    // Sparks offered, as +RTS -s and ThreadScope total them.
    uint64_t total() const { return created + dud + overflowed; }
    SparkTotals& operator+=(const SparkTotals& o);
};

struct GenerationStats {
    int generation = 0; // -1: collections without GC_STATS_GHC
    uint64_t collections = 0;
    uint64_t parallel = 0;
    uint64_t elapsed = 0; // ns, sum of pauses
    uint64_t maxPause = 0;
    uint64_t copied = 0;
};

struct CapStats {
    uint16_t cap = 0;
    // ns inside the range. gc: collecting (inside its collections, the
    // leaders' GC_START..GC_END, so never more than RangeStats::gcNs);
    // gcSync: stopped for a collection not begun yet; parked: stopped after
    // a collection ended, until its own GC_END (see SpanKind).
    uint64_t running = 0, gc = 0, gcSync = 0, parked = 0, idle = 0;
    uint64_t runs = 0;                      // thread runs starting in the range
    SparkTotals sparks;
};

// The figures ThreadScope and `+RTS -s` report, for [from, to): adjacent
// ranges add up (the whole run is [0, last event], its end included). A
// collection belongs to the range it starts in; times are clipped to it.
struct RangeStats {
    uint64_t from = 0, to = 0;
    uint64_t totalNs = 0;   // to - from
    uint64_t gcNs = 0;      // the collections' pauses (their leaders' GC_START..GC_END)
    uint64_t mutatorNs = 0; // totalNs - gcNs
    // Time when any capability was collecting: the union of the
    // capabilities' collecting time. Each collects only inside its
    // collection, so this is the collections' pauses (gcNs) where their
    // leaders are known, and GC_START..GC_END of the first to the last
    // capability where they are not.
    uint64_t gcAnyCapNs = 0;
    // Summed over the capabilities: stopped before their collection began
    // (gcSync) and parked after it ended (see CapStats).
    uint64_t gcSyncCapNs = 0, parkedCapNs = 0;
    double productivity = 0;

    uint64_t collections = 0;
    uint64_t parallelCollections = 0;
    uint64_t copiedBytes = 0;
    uint64_t maxPauseNs = 0;
    uint64_t avgPauseNs = 0;
    // sum(par_balanced_copied) / sum(par_tot_copied) over parallel
    // collections, as GHC >= 8.4's +RTS -s prints it (0 serial, 1 perfect);
    // -1 unknown (no parallel collection, or GHC < 8.4).
    double workBalance = -1;
    // ThreadScope's (and older GHCs') measure: (sum(par_tot_copied) /
    // sum(par_max_copied) - 1) / (max par threads - 1); -1 unknown.
    double workBalanceThreadScope = -1;
    uint64_t maxSlopBytes = 0; // over the oldest generation's collections, as +RTS -s
    std::vector<GenerationStats> generations;
    // As +RTS -s counts residency: the live bytes after each collection of
    // the oldest generation (HEAP_LIVE of that collection), their maximum
    // and how many there were ("N sample(s)").
    int oldestGeneration = -1; // generations 0..this (HEAP_INFO_GHC), -1 unknown
    uint64_t maxResidencyBytes = 0;
    uint64_t residencySamples = 0;
    // The non-moving collector (--nonmoving-gc): its stop-the-world syncs
    // (sum and longest, ns) and the time in its concurrent mark and sweep
    // phases (ns).
    bool nonmoving = false;
    uint64_t nonmovingSyncs = 0, nonmovingSyncNs = 0, nonmovingSyncMaxNs = 0, nonmovingConcurrentNs = 0;

    uint64_t allocatedBytes = 0;
    double allocationRate = 0; // bytes per second of mutator time
    uint64_t maxHeapSizeBytes = 0;
    uint64_t maxLiveBytes = 0;
    uint64_t maxBlocksSizeBytes = 0;
    // How many samples those maxima were taken over: 0 means the range has
    // none, and the maximum is unknown rather than 0.
    uint64_t heapSizeSamples = 0, liveSamples = 0, blocksSizeSamples = 0;

    SparkTotals sparks;
    std::vector<CapStats> caps;
};

RangeStats computeStats(const LogIndex& index, uint64_t from, uint64_t to);

// Growth of a capability's spark counters in each bucket of `width` ns from
// `from` on (`buckets` of them), for spark-rate charts at any resolution.
// GHC samples the counters only now and then (at collections); between two
// samples the growth is spread evenly over time, as ThreadScope draws it.
// The buckets add up exactly to the growth between the range's ends.
std::vector<SparkTotals> sparkBuckets(const Capability& cap, uint64_t from, uint64_t width, size_t buckets);
// The whole run: from 0 (RTS start-up) to the last event.
RangeStats computeStats(const LogIndex& index);

// ThreadScope's balance of parallel copying, (total / max copied - 1) /
// (threads - 1), for one collection or summed over many: 1 = perfectly
// balanced; -1 when unknown (fewer than two GC threads, nothing copied).
double workBalanceThreadScope(uint64_t totalCopied, uint64_t maxCopied, uint32_t threads);

} // namespace hecscope
