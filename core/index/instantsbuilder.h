#pragma once

#include "core/format/event.h"
#include "core/format/eventtags.h"
#include "core/index/instantspart.h"
#include "core/index/schedulerbuilder.h"

#include <array>

namespace hecscope {

// Builds InstantsPart from spark events (-lf), CREATE_THREAD,
// THREAD_WAKEUP, MIGRATE_THREAD and REQUEST_SEQ/PAR_GC on a capability.
// Each capability's instants are counted and marked (CapInstantMarks), not
// kept: a view reads them back from the file. Nothing provisional.
// Decoding thread only.
class InstantsBuilder {
public:
    // IndexBuilders: the tags it consumes, and of those the start-up records.
    static constexpr uint16_t kTags[]{tag::SparkCreate, tag::SparkRun, tag::SparkFizzle, tag::SparkSteal,
                                      tag::CreateThread, tag::ThreadWakeup, tag::MigrateThread, tag::RequestSeqGc,
                                      tag::RequestParGc};
    static constexpr std::array<uint16_t, 0> kStartupTags{};
    // `scheduler`: what runs on each capability, and whether it collects,
    // before each event.
    InstantsBuilder(InstantsPart& part, const SchedulerBuilder& scheduler)
        : m_part(part)
        , m_scheduler(scheduler)
    {
    }
    // Keep every instant too, in InstantsPart::keptInstants.
    void keepAll() { m_keepAll = true; }
    // (The thread running on the event's capability and whether that
    // collects: as SchedulerBuilder says before the event.)
    void consume(const Event& e);

    // What an instant event is (false: not one). Only those with a
    // capability and a time up to CapInstants::kMaxTime are kept.
    struct Instant {
        InstantKind kind;
        uint32_t arg, other;
    };
    static bool classify(const Event& e, uint32_t running, Instant& out);

private:
    InstantsPart& m_part;
    const SchedulerBuilder& m_scheduler;
    bool m_keepAll = false;
};

} // namespace hecscope
