#pragma once

#include "core/time/timestamp.h"

#include <cstdint>
#include <vector>

namespace hecscope {

// One garbage collection, from the capabilities' GC_START/GC_END spans
// grouped by overlap, with the request, global sync and GC_STATS_GHC that
// belong to it. Times in ns.
struct Collection {
    // (Ordered by size: 112 bytes; a log may have millions.)
    uint64_t start = 0; // earliest GC_START
    uint64_t end = 0;   // latest GC_END
    // The collection as its leader saw it (the capability that wrote
    // GC_GLOBAL_SYNC, else GC_STATS_GHC): the pause +RTS -s and ThreadScope
    // report. [start, end] when no leader is known.
    uint64_t leaderStart = 0, leaderEnd = 0;
    uint64_t request = kNoTime;
    uint64_t sync = kNoTime; // GC_GLOBAL_SYNC
    uint64_t copied = 0, slop = 0, fragmentation = 0;
    uint64_t parMaxCopied = 0, parTotCopied = 0, parBalancedCopied = 0;
    int generation = -1;
    uint32_t parThreads = 0;
    uint16_t leaderCap = UINT16_MAX;
    uint16_t requestCap = UINT16_MAX;
    uint16_t caps = 0; // capabilities that took part
    bool parallelRequest : 1 = false;
    bool hasStats : 1 = false;
    bool hasBalanced : 1 = false;

    uint64_t pause() const { return leaderEnd - leaderStart; }
    // As GHC counts it: more than one GC thread (GC_STATS_GHC).
    bool parallel() const { return parThreads > 1; }
};

// What CollectionsBuilder makes (collectionsByStart by prepareForDrawing).
struct CollectionsPart {
    std::vector<Collection> collections;
    std::vector<uint32_t> collectionsByStart; // indices into collections, by start time

    // Bytes held beyond the part itself (LogIndex::memoryBytes adds every part's).
    size_t partBytes() const
    {
        return collections.capacity() * sizeof(Collection) + collectionsByStart.capacity() * sizeof(uint32_t);
    }
};

} // namespace hecscope
