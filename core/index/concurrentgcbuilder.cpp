#include "core/index/concurrentgcbuilder.h"

#include "core/format/eventtags.h"
#include "core/time/timestamp.h"

#include <algorithm>

namespace hecscope {

void ConcurrentGcBuilder::consume(const Event& e)
{
    const uint64_t t = e.time;
    switch (e.tag) {
    case tag::ConcMarkBegin:
    case tag::ConcSyncBegin:
    case tag::ConcSweepBegin: {
        const auto kind = e.tag == tag::ConcMarkBegin ? ConcurrentSpan::Mark
            : e.tag == tag::ConcSyncBegin             ? ConcurrentSpan::Sync
                                                      : ConcurrentSpan::Sweep;
        // A second BEGIN while one is open continues the open phase: GHC
        // 9.0 writes CONC_SYNC_BEGIN and _END twice for one sync, nested.
        if (m_open[kind] != SIZE_MAX)
            break;
        m_lastClosed[kind] = SIZE_MAX;
        m_open[kind] = m_part.concurrent.size();
        m_part.concurrent.push_back({t, kNoTime, kind, 0});
        break;
    }
    case tag::ConcMarkEnd:
    case tag::ConcSyncEnd:
    case tag::ConcSweepEnd: {
        const auto kind = e.tag == tag::ConcMarkEnd ? ConcurrentSpan::Mark
            : e.tag == tag::ConcSyncEnd             ? ConcurrentSpan::Sync
                                                    : ConcurrentSpan::Sweep;
        const size_t open = m_open[kind];
        if (open == SIZE_MAX && m_lastClosed[kind] != SIZE_MAX) {
            // The outer END of such a nested pair: the phase ends here.
            ConcurrentSpan& span = m_part.concurrent[m_lastClosed[kind]];
            span.end = std::max(t, span.end);
            break;
        }
        if (open != SIZE_MAX) {
            ConcurrentSpan& span = m_part.concurrent[open];
            span.end = std::max(t, span.start);
            if (kind == ConcurrentSpan::Mark)
                span.markedObjects = uint32_t(e.n[0]);
            m_open[kind] = SIZE_MAX;
            m_lastClosed[kind] = open;
        }
        break;
    }
    case tag::ConcUpdRemSetFlush: m_part.remSetFlushes.push_back({t, uint16_t(e.n[0])}); break;
    case tag::NonmovingHeapCensus: {
        // Older layouts give log2 of the block size.
        const uint64_t size = e.layout >= 14 ? e.n[0] : (e.n[0] < 32 ? uint64_t(1) << e.n[0] : 0);
        m_part.nonmovingCensus.push_back(
            {t, uint32_t(std::min<uint64_t>(size, UINT32_MAX)), uint32_t(e.n[1]), uint32_t(e.n[2]), uint32_t(e.n[3])});
        break;
    }
    default: break;
    }
}

} // namespace hecscope
