#pragma once

#include "core/index/threadspart.h"
#include "core/index/threadstatespart.h"

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

// An independent account of every thread's states, for checking
// ThreadStatesBuilder and threadFigures: the log decoded with a plain
// EventSink, all thread events put in time order the simple way (a stable
// sort on time of the events in log order, so one thread's events at equal
// times keep their log order) and each thread's state machine walked with
// rules written from eventlog-format.md §2.2, not from the builder:
//
//   CREATE_THREAD → runnable; RUN_THREAD → running on its capability;
//   STOP_THREAD → by status: 5 finished, 6 and 4, 7–18, 20 blocked (6 is a
//   foreign call), anything else (0–3, 19, > 20) runnable; THREAD_WAKEUP and
//   THREAD_RUNNABLE → runnable unless running; MIGRATE_THREAD keeps the
//   state; a RUN_THREAD of another thread on a capability whose thread is
//   still running there makes that thread "unknown". The last state lasts
//   until the last event of the log (block markers aside).
//
// It shares only data types with the code under test (ThreadState,
// ThreadCause, BlockReason as the names of what it found).
namespace hecscope::test {

struct WalkSegment {
    uint64_t time = 0; // ns
    ThreadState state = ThreadState::Runnable;
    ThreadCause cause = ThreadCause::Created;
    uint16_t cap = 0xFFFF;                   // Running: where; after a migration: the new capability
    BlockReason reason = BlockReason::Other; // Blocked only
};

struct WalkThread {
    std::vector<WalkSegment> segments;
    std::vector<uint64_t> runs, migrations, wakeups; // event times, ns
    std::string label;
    uint64_t created = UINT64_MAX;  // ns: its first CREATE_THREAD (UINT64_MAX: none)
    uint64_t finished = UINT64_MAX; // ns: its last stop with status 5 (UINT64_MAX: none)
    ThreadState state = ThreadState::Runnable;
    BlockReason reason = BlockReason::Other;
    uint16_t cap = 0xFFFF;
};

struct WalkFigures {
    std::array<uint64_t, kThreadStates> time{};    // per ThreadState, ns
    std::array<uint64_t, kBlockReasons> blocked{}; // per BlockReason, ns
    uint32_t runs = 0, migrations = 0, wakeups = 0;
};

// A user message (or marker, log message, binary message) in log order and
// the thread running on its capability then (0: none).
struct WalkMessage {
    uint64_t time = 0;
    uint32_t thread = 0;
};

struct Walk {
    std::map<uint32_t, WalkThread> threads; // by id
    std::vector<WalkMessage> messages;
    uint64_t end = 0;                    // ns: the last event's time
    bool shiftedStopCodes = false;       // GHC 7.8.1/7.8.2 numbering (tag 58 declared, 59 not)
    uint64_t threadEventsWithoutCap = 0; // in the global buffer, or a log without blocks

    // End of segment i of `t` (the next one's start, or the log's end).
    uint64_t segmentEnd(const WalkThread& t, size_t i) const;
    // Whether some of the thread's life [first event, end) lies in [a, b).
    bool liveIn(const WalkThread& t, uint64_t a, uint64_t b) const;
    // Time per state clipped to [a, b); events with a time in [a, b).
    WalkFigures figures(const WalkThread& t, uint64_t a, uint64_t b) const;
};

// Decodes whatever complete events `bytes` holds (a truncated or corrupt
// log: the events before the cut) and walks them.
Walk walkThreads(const std::vector<uint8_t>& bytes);
// CREATE/RUN/STOP_THREAD, THREAD_RUNNABLE, MIGRATE_THREAD, THREAD_WAKEUP:
// the events the walk follows.
bool isThreadEventTag(uint16_t tag);

} // namespace hecscope::test
