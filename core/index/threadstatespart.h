#pragma once

#include "core/format/logformat.h"
#include "core/index/binpyramid.h"
#include "core/index/threadspart.h"
#include "core/index/timeline.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <iterator>
#include <memory>
#include <optional>
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

// A thread's segment as stored: 8 bytes. Its time is an offset from the
// thread's checkpoint (the time of every kCheckEvery-th segment of the
// thread), or kFar when it does not fit (then in ThreadStates::farTimes).
struct PackedSegment {
    static constexpr uint32_t kFar = UINT32_MAX;
    uint32_t offset;
    uint16_t cap;
    uint8_t stop;
    uint8_t bits; // state (3 bits), cause << 3 (3 bits), has info << 6
};
static_assert(sizeof(PackedSegment) == 8);
// A PackedSegment's bytes as one word (little-endian: offset, cap, stop, bits).
constexpr uint64_t packedWord(uint32_t offset, uint16_t cap, uint8_t stop, uint8_t bits)
{
    return uint64_t(offset) | uint64_t(cap) << 32 | uint64_t(stop) << 48 | uint64_t(bits) << 56;
}
static_assert(std::bit_cast<PackedSegment>(packedWord(0x12345678, 0x9abc, 0xde, 0xf1)).offset == 0x12345678
              && std::bit_cast<PackedSegment>(packedWord(0x12345678, 0x9abc, 0xde, 0xf1)).cap == 0x9abc
              && std::bit_cast<PackedSegment>(packedWord(0x12345678, 0x9abc, 0xde, 0xf1)).stop == 0xde
              && std::bit_cast<PackedSegment>(packedWord(0x12345678, 0x9abc, 0xde, 0xf1)).bits == 0xf1);

// A thread's segments as they grow (a live session's, a load's settled
// ones): chunks of 4,096 segments (32 KB). A full chunk can go to a file
// (ThreadStatesBuilder::setSpill); the newest stays in memory, so the
// chunk size is what a long thread costs in memory at least.
using SegmentChunks = ChunkedArray<PackedSegment, 12>;

// A block of PackedSegment from malloc, so that the builder can write it
// over the raw events it came from and give back the rest with realloc.
// Copies share the block (a live session's snapshots): the builder writes
// a block only before the first copy, and seals into a new one.
class PackedSegments {
public:
    // `bytes` of storage (at least 8 per segment), uninitialised.
    void allocate(size_t bytes);
    void* bytes() { return m_block ? m_block->data : nullptr; }
    // Keeps the first `n` segments and returns the rest to the system
    // (when the block is not shared yet).
    void shrinkTo(size_t n);
    // `other`'s segments after these (a large block grows in place: no
    // copy of these). Only for a block not shared yet.
    void append(const PackedSegments& other);
    const PackedSegment& operator[](size_t i) const { return static_cast<const PackedSegment*>(m_block->data)[i]; }
    size_t size() const { return m_size; }
    size_t capacityBytes() const { return m_capacity; }

private:
    struct Block {
        void* data = nullptr;
        Block() = default;
        Block(const Block&) = delete;
        Block& operator=(const Block&) = delete;
        ~Block() { std::free(data); }
    };
    std::shared_ptr<Block> m_block;
    size_t m_size = 0, m_capacity = 0;
};

struct ThreadStates;

// What one thread did in a time range, counted from its segments: time per
// ThreadState (Finished: after it finished), blocked time per BlockReason
// (a foreign call: CCall), and the runs, migrations and wake-ups beginning
// in the range. Times in ns.
struct ThreadTotals {
    std::array<uint64_t, kThreadStates> time{};
    std::array<uint64_t, kBlockReasons> blocked{};
    uint32_t runs = 0, migrations = 0, wakeups = 0;
    bool operator==(const ThreadTotals&) const = default;
};

// Adds `t` to `sum`: a ThreadTotals, or anything with its fields (the
// figures of a thread, core/threads/threadstats.h).
template <class Sum>
void addTotals(Sum& sum, const ThreadTotals& t)
{
    for (size_t s = 0; s < sum.time.size(); ++s)
        sum.time[s] += t.time[s];
    for (size_t r = 0; r < sum.blocked.size(); ++r)
        sum.blocked[r] += t.blocked[r];
    sum.runs += t.runs;
    sum.migrations += t.migrations;
    sum.wakeups += t.wakeups;
}

// The whole-run totals of many threads, as an index keeps them: about 20
// bytes a thread where a ThreadTotals takes 144. Each thread's are a byte
// of its blocking reason and then its times and counts as LEB128 varints
// (a time of a few ms takes 3 bytes, of a few s 5, a count of a few 1),
// thread after thread, with where every 16th thread starts. A thread's
// blocked time by reason is kept apart only when it was blocked for more
// than one reason; with one, that reason has all its blocked time.
class KeptTotals {
public:
    void push_back(const ThreadTotals& t);
    // (Decodes up to 15 threads before it: random access, not free.)
    ThreadTotals operator[](size_t i) const;
    size_t size() const { return m_size; }
    void shrink_to_fit();
    size_t memoryBytes() const;
    bool operator==(const KeptTotals&) const = default;

private:
    static constexpr uint8_t kNotBlocked = 0xff, kSeveral = 0xfe;
    static constexpr size_t kGroup = 16;
    std::vector<uint8_t> m_bytes;
    std::vector<uint64_t> m_groupStarts; // where thread g * kGroup starts in m_bytes
    size_t m_size = 0;
    std::vector<std::pair<uint32_t, std::array<uint64_t, kBlockReasons>>> m_blocked; // (i, blocked), i ascending
};

// One thread's segments, decoded on access (by value). Random access.
class SegmentView {
public:
    SegmentView(const ThreadStates& states, size_t thread);
    SegmentView() = default; // no segments
    size_t size() const { return m_n; }
    bool empty() const { return m_n == 0; }
    ThreadSegment operator[](size_t i) const;
    ThreadSegment front() const { return (*this)[0]; }
    ThreadSegment back() const { return (*this)[m_n - 1]; }
    uint64_t timeAt(size_t i) const;
    // Segment i as stored.
    const PackedSegment& packedAt(size_t i) const;

    class iterator {
    public:
        using iterator_category = std::random_access_iterator_tag;
        using value_type = ThreadSegment;
        using difference_type = ptrdiff_t;
        using pointer = void;
        using reference = ThreadSegment;
        iterator(const SegmentView* v, size_t i) : m_v(v), m_i(i) {}
        ThreadSegment operator*() const { return (*m_v)[m_i]; }
        iterator& operator++() { ++m_i; return *this; }
        iterator operator++(int) { iterator t = *this; ++m_i; return t; }
        iterator& operator--() { --m_i; return *this; }
        iterator& operator+=(ptrdiff_t d) { m_i = size_t(ptrdiff_t(m_i) + d); return *this; }
        iterator operator+(ptrdiff_t d) const { return iterator(m_v, size_t(ptrdiff_t(m_i) + d)); }
        ptrdiff_t operator-(const iterator& o) const { return ptrdiff_t(m_i) - ptrdiff_t(o.m_i); }
        bool operator==(const iterator& o) const { return m_i == o.m_i; }
        bool operator!=(const iterator& o) const { return m_i != o.m_i; }
        bool operator<(const iterator& o) const { return m_i < o.m_i; }

    private:
        const SegmentView* m_v;
        size_t m_i;
    };
    iterator begin() const { return iterator(this, 0); }
    iterator end() const { return iterator(this, m_n); }

private:
    const ThreadStates* m_states = nullptr;
    size_t m_thread = 0, m_base = 0, m_n = 0;
    const uint64_t* m_checks = nullptr;
    const SegmentChunks* m_chunked = nullptr; // the thread's own, or null: in ThreadStates::packed
    const PackedSegment* const* m_shared = nullptr; // or its first shared chunk (ThreadStates::sharedChunks)
    // With either: how many of the segments are in it; the rest from m_tail on.
    size_t m_settled = 0;
    const PackedSegment* m_tail = nullptr;

    friend class SegmentCursor;
};

// A thread's segments from one on, in order: each read once, as stored,
// with its time (no chunk looked up per segment, as SegmentView's random
// access does; a far time is still searched for). For the walks over every
// segment of a thread (its bins, its checkpoint entries). It reads `segs`,
// which must outlive it.
class SegmentCursor {
public:
    SegmentCursor(const SegmentView& segs, size_t from);
    SegmentCursor(SegmentView&&, size_t) = delete;
    bool done() const { return m_i >= m_n; }
    size_t index() const { return m_i; }
    const PackedSegment& packed() const { return *m_p; }
    uint64_t time() const { return m_time; }
    void next()
    {
        ++m_i;
        ++m_p;
        if (m_i >= m_runEnd) [[unlikely]]
            refill();
        else
            readTime();
    }

private:
    void refill();
    void readTime();
    const SegmentView* m_segs;
    size_t m_i, m_n;
    size_t m_runEnd = 0;            // the segments from m_i up to here lie one after another
    const PackedSegment* m_p = nullptr; // segment m_i
    uint64_t m_time = 0;
};

// The state segments of every thread seen in scheduler events, 8 bytes
// each: thread after thread in one block (a whole log's), or in chunks per
// thread (a growing log's, whose snapshots share the chunks). Threads are
// numbered by their place in `ids` (ascending thread id), which is how rows
// refer to them. Segment i of thread k is number offsets[k] + i.
struct ThreadStates {
    static constexpr size_t kCheckEvery = 32;
    std::vector<uint32_t> ids;     // thread ids, ascending
    std::vector<uint64_t> offsets; // ids.size() + 1 entries: where each thread's segments are numbered from
    PackedSegments packed;         // all threads' segments, when `chunked` is empty
    std::vector<SegmentChunks> chunked; // else each thread's
    // A live session's snapshot: each thread's segments after those in
    // `chunked` (its pending events walked), thread after thread from
    // tailOffsets[k] (ids.size() + 1 entries; empty: none). Kept apart so
    // that the snapshot never writes the chunks it shares with the builder
    // (which goes on appending to them in place: ChunkedArray).
    std::vector<PackedSegment> tail;
    std::vector<uint64_t> tailOffsets;
    // A growing log's snapshot (not its final seal): each thread's settled
    // segments, shared with the builder, not in `chunked` but here, from
    // the chunk sharedChunks[sharedFirst[k]] on (SegmentChunks::kChunk
    // segments each but its last; sharedFirst has ids.size() + 1 entries),
    // with the memory and mappings that hold them (each once). A
    // SegmentChunks a thread cost 132 bytes, most of a live session's
    // snapshot of many short threads; this costs 12 (one chunk).
    std::vector<const PackedSegment*> sharedChunks;
    std::vector<uint32_t> sharedFirst;
    std::vector<std::shared_ptr<const void>> sharedOwners;
    size_t sharedInMemory = 0; // bytes of the shared chunks not mapped from a file (their capacity)
    size_t sharedMapped = 0;   // bytes of segments in mapped chunks (mappedBytes)
    std::vector<uint64_t> checkTimes;   // per thread, the time of its segments 0, 32, 64, …
    std::vector<uint64_t> checkOffsets; // ids.size() + 1 entries into checkTimes
    std::vector<std::pair<uint64_t, uint64_t>> farTimes; // (index into packed, time), by index
    std::vector<std::pair<uint64_t, uint16_t>> infos;    // (index into packed, info) where not 0, by index
    uint64_t end = 0; // ns: where the last segment of every thread ends

    // The states of a thread with many segments, summarised: per bin the
    // dominant state key (stateKey), kNoKey when finished or not yet seen.
    // A row zoomed out past a bin per pixel reads bins, not segments.
    static constexpr uint8_t kNoKey = 255;
    static constexpr size_t kOverviewMinSegments = 16;
    std::vector<BinPyramid> overviews; // per thread
    std::vector<uint8_t> overviewKeys;
    // 0 running, 1 runnable, 2 unknown, 3 + BlockReason blocked; kNoKey finished.
    static uint8_t stateKey(const ThreadSegment& s);
    // stateKey of every stored segment, by (bits & 7) << 8 | stop: the
    // walks over every segment look it up instead (storedKey).
    static const std::array<uint8_t, 8 * 256>& stateKeys();
    static uint8_t storedKey(const std::array<uint8_t, 8 * 256>& keys, const PackedSegment& p)
    {
        return keys[size_t(p.bits & 7) << 8 | p.stop];
    }

    // Once a whole log is indexed, the threads with a bin pyramid keep no
    // segments in memory (`segmentsInFile`): their rows are drawn from the
    // pyramid until zoomed in past its bins, and their segments of a range
    // are read back from the file (core/detail/threaddetail.h). Their
    // whole-run totals are kept instead: `summarised` (their numbers,
    // ascending) and `wholeRun` beside it.
    bool segmentsInFile = false;
    std::vector<uint32_t> summarised;
    KeptTotals wholeRun;
    // Thread k's segments are in the file only (of() is empty).
    bool inFileOnly(size_t k) const { return std::binary_search(summarised.begin(), summarised.end(), uint32_t(k)); }
    // The summarised threads' totals in each interval of `width` ns
    // (interval j: [j * width, (j + 1) * width)) in which they are: from
    // the one holding their first segment to the one where they finished,
    // or the log's end. A range's figures (threadFiguresIn) take the
    // intervals wholly inside it from here and read back only the two
    // stretches at its ends. Per summarised thread (by its place in
    // `summarised`): its first interval, first segment's time, when it
    // finished (kNoTime: it did not) and where its totals start. Made at a
    // load's final seal (none: width 0, when more than kMaxThreads threads
    // are summarised, or in a load that went to runs).
    struct Intervals {
        static constexpr size_t kMaxIntervals = 256, kMaxEntries = size_t(1) << 16, kMaxThreads = 4096;
        uint64_t width = 0;
        std::vector<uint64_t> first, firstTime, finished;
        std::vector<uint64_t> offsets; // first.size() + 1 entries into totals
        KeptTotals totals;
        // A power of two, at most kMaxIntervals intervals up to `end` and
        // kMaxEntries for `threads` threads; 0 when too many threads.
        static uint64_t widthFor(uint64_t end, size_t threads);
        // The next summarised thread's (threadIntervals).
        void append(uint64_t firstInterval, uint64_t firstSegmentTime, uint64_t finishedAt,
                    const std::vector<ThreadTotals>& each);
        // Summarised thread i's totals in interval j, if kept.
        std::optional<ThreadTotals> at(size_t i, uint64_t j) const;
        size_t memoryBytes() const;
    } intervals;
    // A live session's snapshot while following: the whole-run totals of
    // its threads with segments in the spill file (mapped: reading them
    // all would bring every page of it into the process), counted by the
    // builder as their segments settle (`followed`: their numbers,
    // ascending; `followedTotals` beside it), so that whole-run figures need
    // not read them again at every update. Empty otherwise.
    std::vector<uint32_t> followed;
    KeptTotals followedTotals;
    size_t followedBytes() const { return followed.capacity() * sizeof(uint32_t) + followedTotals.memoryBytes(); }
    // Thread k's whole-run totals if kept: its segments are in the file
    // only, or a live snapshot follows it.
    std::optional<ThreadTotals> wholeRunOf(size_t k) const;
    // Drops the segments of every thread with a pyramid, keeping their
    // whole-run totals (a whole log's final seal). The totals, when given,
    // are those of exactly the threads with a pyramid (numbers ascending),
    // counted before their segments went.
    void moveSegmentsToFile();
    void moveSegmentsToFile(std::vector<uint32_t> pyramidThreads, KeptTotals totals);

    size_t count() const { return ids.size(); }
    size_t segmentCount() const { return offsets.empty() ? 0 : size_t(offsets.back()); }
    SegmentView of(size_t thread) const { return SegmentView(*this, thread); }
    // The thread's number, or SIZE_MAX.
    size_t find(uint32_t id) const;
    // End of segment i of `segs` (the next one's start, or `end`).
    uint64_t segmentEnd(const SegmentView& segs, size_t i) const
    {
        return i + 1 < segs.size() ? segs.timeAt(i + 1) : std::max(end, segs.timeAt(i));
    }
    // First segment of `segs` ending after t (the one covering t, if any).
    static size_t firstEndingAfter(const SegmentView& segs, uint64_t t);
    // The same within thread `number`'s segments, searching from `from`
    // onwards (through the checkpoints).
    size_t firstEndingAfterFrom(size_t number, size_t from, uint64_t t) const;
    size_t memoryBytes() const;
    size_t chunkedBytes() const
    {
        size_t bytes = chunked.capacity() * sizeof(chunked[0]) + tail.capacity() * sizeof(PackedSegment)
            + tailOffsets.capacity() * sizeof(uint64_t) + sharedBytes();
        for (const auto& c : chunked)
            bytes += c.memoryBytes() + c.tableBytes();
        return bytes;
    }
    // The shared chunks' table, owners, and those in memory.
    size_t sharedBytes() const
    {
        return sharedChunks.capacity() * sizeof(sharedChunks[0]) + sharedFirst.capacity() * sizeof(uint32_t)
            + sharedOwners.capacity() * sizeof(sharedOwners[0]) + sharedInMemory;
    }
    // A live session's snapshot: the bytes of `chunked` that are pages of
    // the builder's spill file mapped into memory, not memory of the index
    // (ThreadStatesBuilder::setReleaseSettled); not counted by memoryBytes().
    size_t mappedBytes() const
    {
        size_t bytes = sharedMapped;
        for (const auto& c : chunked)
            bytes += c.mappedBytes();
        return bytes;
    }
};

inline void SegmentCursor::readTime()
{
    if (m_p->offset != PackedSegment::kFar) [[likely]]
        m_time = m_segs->m_checks[m_i / ThreadStates::kCheckEvery] + m_p->offset;
    else
        m_time = m_segs->timeAt(m_i);
}

inline const PackedSegment& SegmentView::packedAt(size_t i) const
{
    if (m_shared) {
        constexpr size_t kChunk = SegmentChunks::kChunk;
        return i < m_settled ? m_shared[i / kChunk][i % kChunk] : m_tail[i - m_settled];
    }
    if (m_chunked)
        return i < m_settled ? (*m_chunked)[i] : m_tail[i - m_settled];
    return m_states->packed[m_base + i];
}

// Inline: the walks over every segment (the overviews, settling, the
// views' LODs) call these per segment from other files.
inline uint8_t ThreadStates::stateKey(const ThreadSegment& s)
{
    switch (s.state) {
    case ThreadState::Running: return 0;
    case ThreadState::Runnable: return 1;
    case ThreadState::Unknown: return 2;
    case ThreadState::Finished: return kNoKey;
    case ThreadState::Blocked: break;
    }
    return uint8_t(3 + size_t(stopClass(s.stop) == StopClass::ForeignCall ? BlockReason::CCall : blockReason(s.stop)));
}

inline uint64_t SegmentView::timeAt(size_t i) const
{
    const PackedSegment& p = packedAt(i);
    if (p.offset != PackedSegment::kFar) [[likely]]
        return m_checks[i / ThreadStates::kCheckEvery] + p.offset;
    const auto& far = m_states->farTimes;
    const auto it = std::lower_bound(far.begin(), far.end(), std::pair<uint64_t, uint64_t>(m_base + i, 0));
    return it != far.end() && it->first == m_base + i ? it->second : m_checks[i / ThreadStates::kCheckEvery];
}

inline ThreadSegment SegmentView::operator[](size_t i) const
{
    const PackedSegment& p = packedAt(i);
    ThreadSegment s{};
    s.time = timeAt(i);
    s.cap = p.cap;
    s.stop = p.stop;
    s.state = ThreadState(p.bits & 7);
    s.cause = ThreadCause((p.bits >> 3) & 7);
    if (p.bits & (1u << 6)) {
        const auto& infos = m_states->infos;
        const auto it = std::lower_bound(infos.begin(), infos.end(), std::pair<uint64_t, uint16_t>(m_base + i, 0));
        if (it != infos.end() && it->first == m_base + i)
            s.info = it->second;
    }
    return s;
}

// Where to start decoding thread events again, and the state that decoding
// needs there (core/detail/threaddetail.h reads the segments of a time
// range back from the file with them). Checkpoint j is at time j * spacing
// (ns, a power of two).
//
// Per stream of records (each capability's, and the events outside any
// capability's block): for each checkpoint, the first thread event record
// (CREATE/RUN/STOP_THREAD, THREAD_RUNNABLE/WAKEUP, MIGRATE_THREAD) in file
// order with a time at or after it (its offset and time), and the thread
// running on the capability just before that record (as
// ThreadStatesBuilder tracks it for its Replaced segments). A stream has no
// entry for checkpoints after its last thread event. While the log is read
// the checkpoints are at most kMaxCheckpoints (the spacing doubles as it
// grows).
//
// Per thread (numbered as in ThreadStates), sparsely: its segment in force
// at a checkpoint j (the last one starting before it, in interval j - 1),
// noted when the thread had segments in interval j - 1 and either none of
// them synchronises its walk (CREATE/RUN/STOP_THREAD: the state after one
// does not depend on the state before) or it has none in interval j. A
// read from checkpoint j (core/detail/threaddetail.h) decodes from
// checkpoint j - 1 on: a thread with an entry at j starts there in that
// segment (its events before j ignored); any other thread starts at j - 1
// in the segment of its last entry before j (if any) and walks its events
// of interval j - 1, which either are none (it was idle: that entry is its
// state) or hold a synchronising one (the segments before it, which may be
// wrong, all end before checkpoint j). So neither a busy thread nor an
// idle one costs an entry per checkpoint: a thread costs one per stretch
// of activity and per interval in which it only woke, migrated or became
// runnable. 10 bytes an entry: the checkpoint's number and the segment
// packed as ThreadStates packs one, its time an offset from checkpoint
// j - 1. Made at the final seal, where the spacing is widened (while the
// log between checkpoints stays under kMaxIntervalBytes, so a read decodes
// at most about twice that more than its range) until the entries and
// streams take at most kBudgetPerSegment bytes per segment (or
// kBudgetFloor): a log of many threads that block for long gets fewer
// checkpoints. A provisional
// index (a live session's or a progressive load's snapshot) has the
// streams but no thread entries: reading starts at the log's beginning.
// The final index's entries are not in memory: made `toFile`, each full
// chunk of their segments (EntrySegments: 8,192, 64 KB) and of their
// checkpoint numbers (EntryChecks: 32,768, 64 KB) goes to a temporary file
// as the entries are made and is mapped back in its place (read-only pages
// of the file, which the system reads in when touched and may drop;
// counted by mappedBytes(), not memoryBytes()). A chunk that cannot be
// written or mapped stays in memory, and so do the rest.
using EntrySegments = ChunkedArray<PackedSegment, 13>;
using EntryChecks = ChunkedArray<uint16_t, 15>;
struct ThreadCheckpoints {
    static constexpr uint64_t kMaxCheckpoints = 8192;
    static constexpr uint64_t kMaxIntervalBytes = uint64_t(4) << 20; // of log between checkpoints, when widened
    static constexpr double kBudgetPerSegment = 0.25; // bytes (the segments themselves: 8)
    static constexpr double kBudgetFloor = 64 << 10;  // bytes: a small log keeps every checkpoint
    static constexpr uint64_t kFirstSpacing = uint64_t(1) << 10;
    struct Crossing {
        uint64_t offset = 0;  // of the first thread event record at or after the checkpoint
        uint64_t running = 0; // thread + 1 running on the capability before it, 0 if none
        uint64_t time = 0;    // the record's (ns): checked when read back
        bool operator==(const Crossing&) const = default;
    };
    uint64_t spacing = kFirstSpacing; // ns
    std::vector<std::vector<Crossing>> caps; // by capability
    std::vector<Crossing> global;            // events outside a capability's block
    // Thread entries: thread k's are [entryOffsets[k], entryOffsets[k + 1]).
    std::vector<uint64_t> entryOffsets; // empty when not made (provisional)
    EntryChecks entryChecks;            // checkpoint number, ascending per thread
    EntrySegments entrySegments; // offset: from time(check - 1)
    std::vector<std::pair<uint64_t, uint64_t>> entryFarTimes; // (entry, time) when the offset is kFar
    std::vector<std::pair<uint64_t, uint16_t>> entryInfos;    // (entry, info) where not 0

    uint64_t time(uint64_t j) const { return j * spacing; }
    // The checkpoint at or before t.
    uint64_t before(uint64_t t) const { return t / spacing; }
    uint64_t count() const;
    bool hasThreadEntries() const { return !entryOffsets.empty(); }
    // The stream of `cap` (kNoCap: the global one), or null.
    const std::vector<Crossing>* stream(uint16_t cap) const
    {
        if (cap == kNoCap)
            return &global;
        return cap < caps.size() ? &caps[cap] : nullptr;
    }
    // Thread k's last entry at or before checkpoint j: false if none;
    // `check` its checkpoint.
    bool segmentAt(size_t k, uint64_t j, ThreadSegment& out, uint64_t* check = nullptr) const;
    // Entry e's segment.
    ThreadSegment entry(uint64_t e) const;
    // Thread k's first entry at a checkpoint after j (entryOffsets[k + 1]
    // if none).
    uint64_t firstEntryAfter(size_t k, uint64_t j) const;
    // Makes the thread entries from `states` (in time order per thread),
    // choosing the spacing first (see above).
    void makeThreadEntries(const ThreadStates& states, bool toFile = false);
    // Where the threads' segments come from, for a caller that does not
    // hold them all in memory: how many threads and segments; a thread's
    // extent without reading its segments; and its segments, read (false
    // on an error, which ends the making).
    struct Extent {
        uint64_t segments = 0, first = 0, last = 0; // first: its first segment's time; last: its last's
    };
    struct Source {
        size_t threads = 0;
        uint64_t segments = 0;
        std::function<Extent(size_t)> extent;
        std::function<bool(size_t, const std::function<void(const SegmentView&)>&)> read;
    };
    bool makeThreadEntries(const Source& source, bool toFile = false);
    // The same in steps, for a caller that has a thread's segments in
    // memory one at a time (ThreadStatesBuilder's spill): the spacing
    // (`visit(k, true)` before thread k's segments are read, `visit(k,
    // false)` after; only threads with many entries are read, and only
    // when the first and last segments of every thread do not settle it),
    // then each thread's entries in order, then done.
    using Visit = std::function<bool(size_t thread, bool load)>;
    bool chooseSpacing(const ThreadStates& states, const Visit& visit);
    bool chooseSpacing(const Source& source);
    void beginThreadEntries(size_t threads, bool toFile = false);
    void addThread(const SegmentView& segs);
    // Or threads' entries made apart (`one`: begun with the same spacing,
    // holding theirs alone), added as the next threads'.
    void appendThreadEntries(const ThreadCheckpoints& one);
    void endThreadEntries();
    size_t memoryBytes() const;
    size_t mappedBytes() const { return entrySegments.mappedBytes() + entryChecks.mappedBytes(); }

    // Calls note(j, i) for each entry of a thread: checkpoint j, segment i.
    template <class Note>
    static void forEachEntry(const SegmentView& segs, uint64_t spacing, Note note);

private:
    void mapFullEntries();
    std::shared_ptr<SpillFile> m_entriesFile; // while entries are made toFile
    size_t m_segmentsMapped = 0, m_checksMapped = 0; // chunks
};

// The totals of thread `number` of `states` over [t0, t1).
ThreadTotals threadTotals(const ThreadStates& states, size_t number, uint64_t t0, uint64_t t1);
// Thread `number`'s totals in each interval of `width` ns from the one
// holding its first segment up to where it finished, or `states.end` (and
// the one holding its last segment): each
// as threadTotals counts that interval, in one walk of its segments
// (ThreadStates::Intervals::append takes them).
struct ThreadIntervals {
    uint64_t first = 0, firstTime = 0, finished = kNoTime;
    std::vector<ThreadTotals> totals;
};
ThreadIntervals threadIntervals(const ThreadStates& states, size_t number, uint64_t width);
// What segment `s` adds to totals as threadTotals counts it: its time in
// [a, b) (nothing when empty), and its event.
void addSegmentTime(ThreadTotals& t, const ThreadSegment& s, uint64_t a, uint64_t b);
void countSegmentEvent(ThreadTotals& t, const ThreadSegment& s);

// What ThreadStatesBuilder makes.
struct ThreadStatesPart {
    ThreadStates threadStates;
    ThreadCheckpoints threadCheckpoints;

    size_t partBytes() const { return threadStates.memoryBytes() + threadCheckpoints.memoryBytes(); } // (LogIndex::memoryBytes)
};

// "blocked on an MVar", "running", … for a segment.
const char* threadStateName(const ThreadSegment& s);

} // namespace hecscope
