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
        if (open != SIZE_MAX) {
            ConcurrentSpan& span = m_part.concurrent[open];
            span.end = std::max(t, span.start);
            if (kind == ConcurrentSpan::Mark)
                span.markedObjects = uint32_t(e.n[0]);
            m_open[kind] = SIZE_MAX;
        }
        break;
    }
    default: break;
    }
}

} // namespace hecscope
