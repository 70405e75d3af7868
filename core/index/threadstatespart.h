#pragma once

#include "core/index/binpyramid.h"
#include "core/index/threadspart.h"

#include <cstdint>
#include <memory>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

namespace hecscope {

// What a Haskell thread is doing over time, as its row on the timeline
// draws it.
enum class ThreadState : uint8_t {
    Runnable, // created, woken or stopped without blocking: waiting in a run queue
    Running,  // on `cap`
    Blocked,  // `stop` says why (a STOP_THREAD status; 6 = in a foreign call)
    Finished,
    Unknown // its run ended without a STOP_THREAD (another RUN_THREAD on that capability)
};
constexpr size_t kThreadStates = 5;

// The event that began a segment.
enum class ThreadCause : uint8_t {
    Created,  // CREATE_THREAD
    Run,      // RUN_THREAD
    Stop,     // STOP_THREAD (status in `stop`, its info field in `info`)
    Wakeup,   // THREAD_WAKEUP (`cap`: the thread's capability)
    Runnable, // THREAD_RUNNABLE
    Migrate,  // MIGRATE_THREAD (`cap`: the new capability)
    Replaced  // another thread's RUN_THREAD on the capability it ran on
};

// One segment of a thread's life: from `time` to the next segment's time
// (the last one to the end of the log). Wake-ups and migrations of a
// thread already runnable begin a segment of the same state, so that every
// event that touched the thread can be found and marked.
// (No default member values: the builder fills millions of them in place,
// and an array of them is left uninitialised until written. Write
// `ThreadSegment s{}` for a zeroed one.)
struct ThreadSegment {
    uint64_t time; // ns
    uint16_t cap;  // Running: where; Runnable: the queue it is on, if known
    ThreadState state;
    uint8_t stop; // cause Stop (and state Blocked): the standard STOP_THREAD status
    ThreadCause cause;
    uint8_t pad;
    uint16_t info; // STOP_THREAD's info when blocked on a black hole: the owner (0: unknown or > 65535)
    bool operator==(const ThreadSegment&) const = default;
};
static_assert(sizeof(ThreadSegment) == 16);
static_assert(std::is_trivially_default_constructible_v<ThreadSegment>);

// An allocator whose resize() leaves trivial elements uninitialised, so
// that memory is touched only where it is written.
template <class T>
struct UninitialisedAllocator : std::allocator<T> {
    template <class U>
    struct rebind {
        using other = UninitialisedAllocator<U>;
    };
    UninitialisedAllocator() = default;
    template <class U>
    UninitialisedAllocator(const UninitialisedAllocator<U>&) noexcept
    {
    }
    template <class U>
    void construct(U* p) noexcept
    {
        ::new (static_cast<void*>(p)) U;
    }
    template <class U, class... Args>
    void construct(U* p, Args&&... args)
    {
        ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }
};

// The state segments of every thread seen in scheduler events, stored
// thread after thread. Threads are numbered by their place in `ids`
// (ascending thread id), which is how rows refer to them.
struct ThreadStates {
    std::vector<uint32_t> ids;         // thread ids, ascending
    std::vector<uint64_t> offsets;     // ids.size() + 1 entries into `segments`
    std::vector<ThreadSegment, UninitialisedAllocator<ThreadSegment>> segments;
    // segments[kSampleEvery * k].time: a small index that searches over
    // many segments read (zoomed out, a row skips most of them).
    static constexpr size_t kSampleEvery = 16;
    std::vector<uint64_t> sampleTimes;
    uint64_t end = 0; // ns: where the last segment of every thread ends

    // The states of a thread with many segments, summarised: per bin the
    // dominant state key (stateKey), kNoKey when finished or not yet seen.
    // A row zoomed out past a bin per pixel reads bins, not segments.
    static constexpr uint8_t kNoKey = 255;
    static constexpr size_t kOverviewMinSegments = 64;
    std::vector<BinPyramid> overviews; // per thread
    std::vector<uint8_t> overviewKeys;
    // 0 running, 1 runnable, 2 unknown, 3 + BlockReason blocked; kNoKey finished.
    static uint8_t stateKey(const ThreadSegment& s);

    size_t count() const { return ids.size(); }
    std::span<const ThreadSegment> of(size_t thread) const
    {
        return {segments.data() + offsets[thread], size_t(offsets[thread + 1] - offsets[thread])};
    }
    // The thread's number, or SIZE_MAX.
    size_t find(uint32_t id) const;
    // End of segment i of `segs` (the next one's start, or `end`).
    uint64_t segmentEnd(std::span<const ThreadSegment> segs, size_t i) const
    {
        return i + 1 < segs.size() ? segs[i + 1].time : std::max(end, segs[i].time);
    }
    // First segment of `segs` ending after t (the one covering t, if any).
    static size_t firstEndingAfter(std::span<const ThreadSegment> segs, uint64_t t);
    // The same within thread `number`'s segments, searching from `from`
    // onwards (through sampleTimes).
    size_t firstEndingAfterFrom(size_t number, size_t from, uint64_t t) const;
    size_t memoryBytes() const;
};

// What ThreadStatesBuilder makes.
struct ThreadStatesPart {
    ThreadStates threadStates;
};

// "blocked on an MVar", "running", … for a segment.
const char* threadStateName(const ThreadSegment& s);

} // namespace hecscope
