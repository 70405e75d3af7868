#pragma once

#include <cstdint>
#include <vector>

namespace hecscope {

// Non-moving collector phases (CONC_MARK/SYNC/SWEEP begin..end).
struct ConcurrentSpan {
    enum Kind : uint8_t { Mark,
                          Sync,
                          Sweep };
    uint64_t start = 0, end = 0; // ns; end is kNoTime while open
    Kind kind = Mark;
    uint32_t markedObjects = 0; // CONC_MARK_END
};

// CONC_UPD_REM_SET_FLUSH: a capability flushed its update remembered set.
struct RemSetFlush {
    uint64_t time = 0; // ns
    uint16_t cap = 0;  // the capability named by the event
};

// NONMOVING_HEAP_CENSUS: one line per allocator (block size) at a census.
struct NonmovingCensus {
    uint64_t time = 0;      // ns
    uint32_t blockSize = 0; // bytes
    uint32_t activeSegments = 0, filledSegments = 0, liveBlocks = 0;
};

// What ConcurrentGcBuilder makes: the phases in order of their start, the
// remembered-set flushes and the heap censuses in log order.
struct ConcurrentGcPart {
    std::vector<ConcurrentSpan> concurrent;
    std::vector<RemSetFlush> remSetFlushes;
    std::vector<NonmovingCensus> nonmovingCensus;

    size_t partBytes() const // (LogIndex::memoryBytes)
    {
        return concurrent.capacity() * sizeof(ConcurrentSpan) + remSetFlushes.capacity() * sizeof(RemSetFlush)
            + nonmovingCensus.capacity() * sizeof(NonmovingCensus);
    }
};

} // namespace hecscope
