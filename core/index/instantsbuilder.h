#pragma once

#include "core/format/event.h"
#include "core/index/instantspart.h"

namespace hecscope {

// Builds InstantsPart from spark events (-lf), CREATE_THREAD,
// THREAD_WAKEUP, MIGRATE_THREAD and REQUEST_SEQ/PAR_GC on a capability.
// Nothing provisional. Decoding thread only.
class InstantsBuilder {
public:
    explicit InstantsBuilder(InstantsPart& part)
        : m_part(part)
    {
    }
    // `running`: the thread running on the event's capability (0: none).
    void consume(const Event& e, uint32_t running);

private:
    InstantsPart& m_part;
};

} // namespace hecscope
