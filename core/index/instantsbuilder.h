#pragma once

#include "core/format/event.h"
#include "core/index/instantspart.h"

namespace hecscope {

// Builds InstantsPart from spark events (-lf), CREATE_THREAD,
// THREAD_WAKEUP, MIGRATE_THREAD and REQUEST_SEQ/PAR_GC on a capability.
// Each capability's instants are counted and marked (CapInstantMarks), not
// kept: a view reads them back from the file. Nothing provisional.
// Decoding thread only.
class InstantsBuilder {
public:
    explicit InstantsBuilder(InstantsPart& part)
        : m_part(part)
    {
    }
    // Keep every instant too, in InstantsPart::keptInstants.
    void keepAll() { m_keepAll = true; }
    // `running`: the thread running on the event's capability (0: none);
    // `inGc`: the capability is inside a collection (both as
    // SchedulerBuilder says before the event).
    void consume(const Event& e, uint32_t running, bool inGc);

    // What an instant event is (false: not one). Only those with a
    // capability and a time up to CapInstants::kMaxTime are kept.
    struct Instant {
        InstantKind kind;
        uint32_t arg, other;
    };
    static bool classify(const Event& e, uint32_t running, Instant& out);

private:
    InstantsPart& m_part;
    bool m_keepAll = false;
};

} // namespace hecscope
