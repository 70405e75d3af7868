#pragma once

#include "core/time/timestamp.h"

#include <cstdint>
#include <string>
#include <vector>

namespace hecscope {

// A capability set (in practice: the OS process) and what the RTS said
// about it.
struct Capset {
    uint32_t id = 0;
    uint16_t type = 0;
    std::vector<uint16_t> caps;     // assigned now (the RTS removes every one at shutdown)
    std::vector<uint16_t> assigned; // every capability ever assigned, in order of assignment
    uint64_t created = kNoTime, deleted = kNoTime; // ns
    std::string rtsIdentifier;
    std::vector<std::string> args, env;
    uint64_t pid = 0, ppid = 0;
    bool hasPid = false, hasPpid = false;
    uint64_t wallSeconds = 0, wallNanoseconds = 0, wallAt = kNoTime; // wallAt: ns
};

// What ProcessBuilder makes: capsets in order of first mention, tasks.
struct ProcessPart {
    std::vector<Capset> capsets;
    uint64_t tasks = 0; // TASK_CREATE events

    size_t partBytes() const { return capsets.capacity() * sizeof(Capset); } // (LogIndex::memoryBytes)
};

} // namespace hecscope
