#pragma once

#include "core/format/event.h"
#include "core/format/eventtags.h"
#include "core/index/processpart.h"

#include <cstdint>
#include <unordered_map>

namespace hecscope {

// Builds ProcessPart from CAPSET_*, RTS_IDENTIFIER, PROGRAM_ARGS/ENV,
// OSPROCESS_PID/PPID, WALL_CLOCK_TIME and TASK_CREATE. A capset is created
// by the first event naming it. Nothing provisional. Decoding thread only.
class ProcessBuilder {
public:
    // IndexBuilders: the tags it consumes, and of those the start-up records.
    static constexpr uint16_t kTags[]{tag::CapsetCreate, tag::CapsetDelete, tag::CapsetAssignCap,
                                      tag::CapsetRemoveCap, tag::RtsIdentifier, tag::ProgramArgs, tag::ProgramEnv,
                                      tag::OsProcessPid, tag::OsProcessPpid, tag::WallClockTime, tag::TaskCreate};
    static constexpr uint16_t kStartupTags[]{tag::CapsetCreate, tag::CapsetDelete, tag::CapsetAssignCap,
                                             tag::CapsetRemoveCap, tag::RtsIdentifier, tag::ProgramArgs,
                                             tag::ProgramEnv, tag::OsProcessPid, tag::OsProcessPpid,
                                             tag::WallClockTime};
    explicit ProcessBuilder(ProcessPart& part)
        : m_part(part)
    {
    }
    void consume(const Event& e);

private:
    Capset& capset(uint64_t id);

    ProcessPart& m_part;
    std::unordered_map<uint32_t, size_t> m_index; // id -> index in capsets
};

} // namespace hecscope
