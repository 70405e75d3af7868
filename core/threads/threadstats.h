#pragma once

#include "core/index/threadstatespart.h"
#include "core/time/viewrange.h"

#include <array>
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

namespace hecscope {

struct LogIndex;

// What one thread did in a range (or the whole log): time in each state
// clipped to the range, and the events inside it. Times in ns.
struct ThreadFigures {
    uint32_t id = 0;
    size_t number = SIZE_MAX; // in ThreadStates (its row)
    std::string_view label;   // into the index (empty: none)
    uint64_t created = kNoTime, finished = kNoTime; // whole log
    std::array<uint64_t, kThreadStates> time{};    // per ThreadState (Finished: after it finished)
    std::array<uint64_t, kBlockReasons> blocked{}; // per BlockReason (a safe foreign call: CCall)
    uint32_t runs = 0, migrations = 0, wakeups = 0;

    uint64_t running() const { return time[size_t(ThreadState::Running)]; }
    uint64_t runnable() const { return time[size_t(ThreadState::Runnable)]; }
    uint64_t blockedTotal() const { return time[size_t(ThreadState::Blocked)]; }
};

// Why a Blocked segment is blocked.
BlockReason blockReasonOf(const ThreadSegment& s);

// Figures of one thread (by its number in ThreadStates). A thread whose
// segments are in the file only (ThreadStates::inFileOnly) has its
// whole-run figures in the index; for a range they are counted from
// `detail`, the segments of that range read back from the file
// (readThreadSegments; core/detail/threaddetail.h has threadFiguresIn,
// which reads them): without it such a thread's times are zero.
ThreadFigures threadFigures(const LogIndex& ix, size_t number, std::optional<ViewRange> range,
                            const ThreadStates* detail = nullptr);
// Whether thread k of `states` has a segment overlapping `range` (its
// segments there, or from the one in force at its start).
bool threadInRange(const ThreadStates& states, size_t k, ViewRange range);
// The same for `range`, or nullopt when the thread has no segment
// overlapping it (a thread in the file only: in `detail`).
std::optional<ThreadFigures> threadFiguresInRange(const LogIndex& ix, size_t number, ViewRange range,
                                                  const ThreadStates* detail = nullptr);
// Every thread with scheduler events, by id; for a range, only those
// with a segment overlapping it (a thread in the file only: in `detail`).
// Empty once `cancelled` says so.
std::vector<ThreadFigures> allThreadFigures(const LogIndex& ix, std::optional<ViewRange> range,
                                            const std::function<bool()>& cancelled = {},
                                            const ThreadStates* detail = nullptr);

} // namespace hecscope
