#pragma once

#include "core/format/event.h"
#include "core/format/eventtags.h"
#include "core/index/concurrentgcpart.h"

#include <array>
#include <cstddef>
#include <cstdint>

namespace hecscope {

// Builds ConcurrentGcPart from CONC_{MARK,SYNC,SWEEP}_{BEGIN,END}: a span
// per BEGIN, closed by the next END of its kind. A span still open when
// the log ends keeps end == kNoTime (not provisional: nothing to take
// back). Decoding thread only.
class ConcurrentGcBuilder {
public:
    // IndexBuilders: the tags it consumes, and of those the start-up records.
    static constexpr uint16_t kTags[]{tag::ConcMarkBegin, tag::ConcSyncBegin, tag::ConcSweepBegin, tag::ConcMarkEnd,
                                      tag::ConcSyncEnd, tag::ConcSweepEnd, tag::ConcUpdRemSetFlush,
                                      tag::NonmovingHeapCensus};
    static constexpr std::array<uint16_t, 0> kStartupTags{};
    explicit ConcurrentGcBuilder(ConcurrentGcPart& part)
        : m_part(part)
    {
    }
    void consume(const Event& e);

private:
    ConcurrentGcPart& m_part;
    std::array<size_t, 3> m_open{SIZE_MAX, SIZE_MAX, SIZE_MAX}; // per kind: open span
    std::array<size_t, 3> m_lastClosed{SIZE_MAX, SIZE_MAX, SIZE_MAX}; // per kind: no BEGIN since it closed
};

} // namespace hecscope
