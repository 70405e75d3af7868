#pragma once

#include "core/format/event.h"
#include "core/format/eventtags.h"
#include "core/index/tickypart.h"

#include <cstdint>

namespace hecscope {

// Builds TickyPart from TICKY_COUNTER_DEF, TICKY_BEGIN_SAMPLE and
// TICKY_COUNTER_SAMPLE, in log order. Nothing provisional. Decoding thread
// only.
class TickyBuilder {
public:
    // IndexBuilders: the tags it consumes, and of those the start-up records.
    static constexpr uint16_t kTags[]{tag::TickyCounterDef, tag::TickyCounterSample, tag::TickyCounterBeginSample};
    static constexpr uint16_t kStartupTags[]{tag::TickyCounterDef};
    explicit TickyBuilder(TickyPart& part)
        : m_part(part)
    {
    }
    void consume(const Event& e);

private:
    TickyPart& m_part;
};

} // namespace hecscope
