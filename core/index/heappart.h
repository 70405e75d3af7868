#pragma once

#include "core/index/series.h"

#include <cstdint>
#include <vector>

namespace hecscope {

// A heap figure. HEAP_ALLOCATED is written by each capability for its own
// allocation, so `cap` matters when summing.
struct Sample {
    uint64_t time = 0; // ns
    uint64_t value = 0;
    uint32_t capset = 0;
    uint16_t cap = UINT16_MAX;
};

struct HeapInfo {
    uint64_t time = 0; // ns
    uint32_t capset = 0;
    uint32_t generations = 0;
    uint64_t maxHeap = 0, allocArea = 0, mblockSize = 0, blockSize = 0;
};

struct MemReturn {
    uint64_t time = 0; // ns
    uint32_t capset = 0, current = 0, needed = 0, returned = 0;
};

// What HeapSamplesBuilder makes: the RTS's heap figures in log order
// (`heap`, the same as time series, by prepareForDrawing).
struct HeapPart {
    std::vector<Sample> heapAllocated, heapSize, heapLive, blocksSize;
    std::vector<HeapInfo> heapInfo;
    std::vector<MemReturn> memReturns;
    HeapSeries heap;

    size_t partBytes() const // (LogIndex::memoryBytes)
    {
        return (heapAllocated.capacity() + heapSize.capacity() + heapLive.capacity() + blocksSize.capacity()) * sizeof(Sample)
            + heapInfo.capacity() * sizeof(HeapInfo) + memReturns.capacity() * sizeof(MemReturn)
            + (heap.size.capacity() + heap.blocks.capacity() + heap.live.capacity() + heap.allocated.capacity())
            * sizeof(SeriesPoint);
    }
};

} // namespace hecscope
