#pragma once

#include "core/format/event.h"
#include "core/format/eventtags.h"
#include "core/index/heappart.h"


namespace hecscope {

// Builds HeapPart's figures from HEAP_ALLOCATED, HEAP_SIZE, HEAP_LIVE,
// BLOCKS_SIZE, HEAP_INFO_GHC and MEM_RETURN, in log order. Nothing
// provisional. Decoding thread only.
class HeapSamplesBuilder {
public:
    // IndexBuilders: the tags it consumes, and of those the start-up records.
    static constexpr uint16_t kTags[]{tag::HeapAllocated, tag::HeapSize, tag::HeapLive, tag::BlocksSize,
                                      tag::HeapInfoGhc, tag::MemReturn};
    static constexpr uint16_t kStartupTags[]{tag::HeapInfoGhc};
    explicit HeapSamplesBuilder(HeapPart& part)
        : m_part(part)
    {
    }
    void consume(const Event& e);

private:
    HeapPart& m_part;
};

} // namespace hecscope
