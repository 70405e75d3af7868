#include "core/index/heapsamplesbuilder.h"

#include "core/format/eventtags.h"

namespace hecscope {

void HeapSamplesBuilder::consume(const Event& e)
{
    const uint64_t t = e.time;
    const auto& n = e.n;
    switch (e.tag) {
    case tag::HeapAllocated: m_part.heapAllocated.push_back({t, n[1], uint32_t(n[0]), e.cap}); break;
    case tag::HeapSize: m_part.heapSize.push_back({t, n[1], uint32_t(n[0]), e.cap}); break;
    case tag::HeapLive: m_part.heapLive.push_back({t, n[1], uint32_t(n[0]), e.cap}); break;
    case tag::BlocksSize: m_part.blocksSize.push_back({t, n[1], uint32_t(n[0]), e.cap}); break;
    case tag::HeapInfoGhc:
        m_part.heapInfo.push_back({t, uint32_t(n[0]), uint32_t(n[1]), n[2], n[3], n[4], n[5]});
        break;
    case tag::MemReturn:
        m_part.memReturns.push_back({t, uint32_t(n[0]), uint32_t(n[1]), uint32_t(n[2]), uint32_t(n[3])});
        break;
    default: break;
    }
}

} // namespace hecscope
