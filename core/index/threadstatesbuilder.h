#pragma once

#include "core/format/event.h"
#include "core/format/eventtags.h"
#include "core/format/logformat.h"
#include "core/index/loadobserver.h"
#include "core/index/packedraws.h"
#include "core/io/spillfile.h"
#include "core/index/threadstatespart.h"
#include "core/index/timeline.h"

#include <array>
#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <future>
#include <system_error>
#include <map>
#include <memory>
#include <unordered_map>
#include <vector>

namespace hecscope {

// Builds ThreadStatesPart from CREATE_THREAD, RUN_THREAD, STOP_THREAD,
// THREAD_RUNNABLE, THREAD_WAKEUP and MIGRATE_THREAD. The events of one
// thread come from several capabilities' blocks, so in log order they are
// not in time order: they are kept as they come (16 bytes each) and
// seal() sorts them per thread and walks each thread's states.
//
// The final seal does that once for everything and frees the raw events.
// A provisional seal (a live session's or a progressive load's snapshot)
// is incremental: the events before `settleBefore` (every capability's
// newest event) can no longer be preceded by an event still to come, so
// they are walked once, for good, into each thread's settled segments;
// only the events after it are walked again at every seal. An event that
// comes earlier than a bound already settled (a capability whose first
// block comes late) makes the next seal walk everything again, so that
// the result is always what a single walk of all the events gives.
// Decoding thread only.
class ThreadStatesBuilder {
public:
    // IndexBuilders: the tags it consumes, and of those the start-up records.
    static constexpr uint16_t kTags[]{tag::CreateThread, tag::RunThread, tag::StopThread, tag::ThreadRunnable,
                                      tag::MigrateThread, tag::ThreadWakeup};
    static constexpr std::array<uint16_t, 0> kStartupTags{};
    explicit ThreadStatesBuilder(ThreadStatesPart& part)
        : m_part(part)
    {
    }
    ~ThreadStatesBuilder();
    ThreadStatesBuilder(const ThreadStatesBuilder&) = delete;
    ThreadStatesBuilder& operator=(const ThreadStatesBuilder&) = delete;
    void setEncoding(StopEncoding e) { m_encoding = e; }
    // `e.offset` is the record's byte offset (for the checkpoints).
    void consume(const Event& e);
    // Segments of every thread up to `end` (ns). False once cancelled.
    bool seal(uint64_t end, bool final, const LoadObserver* observer, uint64_t settleBefore = 0);
    // A whole log's load as it goes: walks the events before `settleBefore`
    // (no event still to come can precede it) for good, as a provisional
    // seal does, and lets their raw copies go (16 bytes each; the settled
    // segments take 8). An event that then comes earlier than that bound
    // cannot be walked with them: lostEvents() says so, and the log must be
    // read again without settling (the loader does). Declined for good
    // when the first call finds fewer than `eventsPerThread` events per
    // thread.
    // After the first call, the walking is done on a thread of its own
    // while decoding goes on: each call hands it the events that came
    // since the last (waiting first for the last call's walk), and the
    // events that come meanwhile are kept apart until the next call or a
    // seal (which waits for the walk and takes them in).
    void settle(uint64_t settleBefore);
    void setSettleEventsPerThread(size_t eventsPerThread) { m_settleEventsPerThread = eventsPerThread; }
    // A settle's walk copies the events it settles grouped by thread
    // (16 bytes each), a slice of whole threads of about this many events
    // at a time (a thread of more: alone; a settle of more than
    // kSlicePasses such slices: a kSlicePasses-th of its events, up to
    // kMostSlice), so that a settle after a long wait for one capability's
    // events does not copy millions at once (after the 11.5 M that waited
    // on a 1.12 GB log, a quarter of them was 47 MB).
    static constexpr size_t kSettleSlice = size_t(1) << 18, kSlicePasses = 4, kMostSlice = size_t(1) << 20;
    void setSettleSlice(size_t events) { m_settleSlice = std::max<size_t>(events, 1); }
    // Settling declined, in a load that spills (setSpill): the raw events
    // go to a temporary file (SpillFile) every `events` of them, as a run
    // sorted by thread and time (log order kept for equal times; encoded,
    // about 5 bytes an event: see Run), so that
    // the load holds at most one run's in memory, not 16 bytes for every
    // thread event of the log; a seal merges the runs thread by thread
    // (each run read a frame at a time) and walks each thread's events
    // as the whole walk does, writing only the segments (8 bytes each) to
    // memory. A file that cannot be made or written keeps the rest in
    // memory; one that cannot be read back makes lostEvents() true (the log
    // is read again). Each run is sorted and written on a thread of its
    // own, as settle()'s walk is, while decoding goes on (eventsInRuns()
    // counts it once written; a seal waits for it).
    void setRunEvents(size_t events) { m_runEvents = std::max<size_t>(events, 1); }
    // A settle bound stuck while this many runs' worth of events came
    // makes the load continue in runs (see settle()), while no event has
    // been walked for good (a capability idle from the start holds the
    // first settle back): these wait as they came, 16 bytes each.
    static constexpr size_t kStuckRuns = 4;
    // The same once events have been walked for good: the events that
    // then wait are packed (packWaiting: 3.5 bytes each on the big logs),
    // so that 16 M of them take about 57 MB (the 11.8 M that waited on a
    // 1.12 GB log of the busy program, 41 MB packed, wait for the bound:
    // sent to runs, the load took 7.6 s, not 6.4, and 203 MB, not 133).
    // They then go to runs a run at a time (waitingToRuns).
    static constexpr size_t kStuckPackedRuns = 16;
    uint64_t eventsInRuns() const { return m_eventsInRuns; }
    // The most events that came while the settle bound did not move (a
    // capability silent; the first stretch counts from the load's start),
    // as settle() saw them: each waited in memory for it (16 bytes, or
    // packed), up to kStuckRuns (kStuckPackedRuns) runs' worth. Whether a log's peak memory holds depends on
    // it (`bench` prints it).
    uint64_t mostEventsWaiting() const { return m_mostWaiting; }
    // Of those, the most packed at once (kPackEvents; the rest waited as
    // they came, 16 bytes each).
    uint64_t mostEventsPacked() const { return m_mostPacked; }
    // The memory of the arrays that hold raw events (held and kept for
    // the next ones), and of the scratch they are sorted in. Not while a
    // walk or writer runs: after a seal (tests).
    size_t rawEventBytes() const
    {
        return m_raw.memoryBytes() + m_inbox.memoryBytes() + m_batch.memoryBytes() + m_waiting.memoryBytes()
            + m_scratch.capacity() * sizeof(Raw);
    }
    // While the settle bound is stuck, the events that came are packed
    // (PackedRaws: 3.5 bytes each on the big logs, not 16) on settle()'s
    // thread, which has nothing else to do meanwhile, this many at a time.
    static constexpr size_t kPackEvents = size_t(1) << 18;
    uint64_t runBytes() const { return m_runFileBytes; } // (their size in the file: see Run)
    // Of the final seal over runs: the threads binned as the merge gave
    // them, whose segments then waited for their checkpoint entries in a
    // file of their own (or its last buffer, when the file could take no
    // more), not in memory. The other threads of a pyramid stayed in
    // memory until then.
    uint64_t threadsBinnedAsMerged() const { return m_binnedAsMerged; }
    // With settle(): a thread's settled segments that fill a chunk
    // (SegmentChunks: 4,096) go to a temporary file (SpillFile) as they do, so that the
    // load's memory does not hold them all until the final seal; that seal
    // reads them back one thread at a time (the thread certainly has a bin
    // pyramid, so the final index keeps no segments of it:
    // ThreadStates::moveSegmentsToFile, which it then calls itself). Off
    // when the final index must keep every segment. A file that cannot be
    // made or written leaves the segments in memory; one that cannot be
    // read back makes lostEvents() true (the log is read again).
    void setSpill(bool on) { m_spillOn = m_dropPyramidSegments = on; }
    // A live session's: each provisional seal lets the raw events it
    // settled go, as settle() does (their segments are kept, 8 bytes each,
    // not 16 more for the event). An event that then comes earlier than
    // what was settled makes lostEvents() true and every seal after fail:
    // the session reads its recording again into a builder without this.
    // With setSpill, every settled segment goes to the file and is mapped
    // back from there (writeSettled), so that the session's snapshots share
    // them with no copy in memory (ThreadStates::mappedBytes); its final
    // seal reads them as a load's does.
    void setReleaseSettled(bool on) { m_releaseSettled = on; }
    // (All written, the file gone or not; a walk still running on its own
    // thread, see settle(), counts once a seal has waited for it.)
    uint64_t spilledBytes() const { return m_spilledBytes; }
    bool settleDeclined() const { return m_settleDeclined; }
    // An event came earlier than what was walked for good, and the runs
    // that insure those events took their place (see m_insurance).
    bool insuranceClaimed() const { return m_insuranceClaimed; }
    bool lostEvents() const { return m_lost; }

    // Reading back (core/detail/threaddetail.h): the same walk over the
    // events of a stretch of the log, from a checkpoint on, giving the
    // segments of a time range. Call before consuming; then seal(end,
    // true, …) once. Events before `from` (ns, the checkpoint's time) and
    // at or after `to` make no segment (they still move the running
    // threads); of each thread's segments only the one in force at `clip`
    // (the last starting at or before it, else its first) and the later
    // ones are kept; no checkpoints are made.
    void readBack(uint64_t from, uint64_t clip, uint64_t to);
    // Thread `id`'s walk starts in `s` (starting before its events walked):
    // the first segment of the thread. Its events before `eventsFrom`
    // (ns, if later than `from`) make no segment.
    void seedThread(uint32_t id, const ThreadSegment& s, uint64_t eventsFrom = 0);
    // The thread running on `cap` at the start (thread + 1, 0: none).
    void seedRunning(uint16_t cap, uint64_t running);
    uint64_t running(uint16_t cap) const { return cap < m_running.size() ? m_running[cap] : 0; }
    // Only these threads (ascending ids) get segments.
    void onlyThreads(std::vector<uint32_t> ids);

private:
    // One event as it came; events of a thread at equal times keep their
    // log order.
    struct Raw {
        uint64_t time : 48; // ns (as the capability timelines, 78 hours at most)
        uint64_t cap : 16;
        uint32_t thread;
        uint32_t info : 20; // a black hole's owner beyond 2^20 is kept as 0 (unknown)
        uint32_t cause : 4;
        uint32_t stop : 8;
    };
    static_assert(sizeof(Raw) == 16);
    static_assert(std::endian::native == std::endian::little); // (add() writes a Raw as two words)
    // A thread's segments walked for good, packed as ThreadStates keeps
    // them (indices local to the thread), and the state its walk is in.
    struct Settled {
        SegmentChunks packed;
        std::vector<uint64_t> checks;
        std::vector<std::pair<uint64_t, uint64_t>> farTimes;
        std::vector<std::pair<uint64_t, uint16_t>> infos;
        std::vector<uint64_t> spilled; // chunk c of `packed` (released or mapped) is at spilled[c] in m_spill
        // (writeSettled) Where chunk c has its place in m_spill, how many
        // segments that takes, and how many are written there.
        struct Place {
            uint64_t offset = 0;
            uint32_t capacity = 0;
            uint32_t written = 0;
        };
        std::vector<Place> places;
        // (setReleaseSettled with a spill file: from the thread's first
        // segment, or else once it has segments in the file, what the
        // segments before `cur` add to its whole-run totals, and `cur`'s
        // event; ThreadStates::followed.)
        std::unique_ptr<ThreadTotals> totals;
        ThreadSegment cur{};
        bool any = false;
    };
    void spillFull(Settled& w);
    // A live session's (setReleaseSettled, with setSpill): every settled
    // segment of the thread goes to the spill file as it settles, and its
    // chunks are mapped back from there in place of memory, full or not
    // (a session of tens of thousands of threads, each with a few hundred
    // segments, would otherwise hold them all: a chunk is 4,096). Each
    // chunk has a place in the file (Settled::places); the walk puts the
    // thread's new segments in m_fresh, which this queues to be written to
    // their place (m_writes) and maps (ChunkedArray::appendMapped): nothing
    // in memory is written or copied. Called by spillFull, after each
    // thread's walk.
    void writeSettled(Settled& w);
    // The writes writeSettled queued, made on a thread of their own
    // (startWrites, after each slice of a settle's walk: one batch at a
    // time, the next queued while it runs) as the walk goes on and the
    // seal makes the rest of its snapshot, which reads no segment of a
    // thread: all waited for (finishWrites) before anything reads the new
    // segments (the pyramids, a final seal's read back, the snapshot's
    // users), and before the next settle. A write that fails loses the
    // segments (lostEvents(): the session reads its recording again).
    // startWrites false: the batch before failed.
    bool startWrites();
    bool finishWrites();
    bool finishWriting(); // (the batch being written only)
    // Chunks c of `segs` that `spilled` names, read back. False on error.
    // (Into chunks from `pool`, if it has some.)
    bool restoreSpilled(SegmentChunks& segs, const std::vector<uint64_t>& spilled,
                        std::vector<std::shared_ptr<PackedSegment[]>>* pool = nullptr);
    // The same, without noting a failure (lostEvents()): callable from
    // several threads at once, for different `segs`.
    bool readSpilled(SegmentChunks& segs, const std::vector<uint64_t>& spilled,
                     std::vector<std::shared_ptr<PackedSegment[]>>* pool) const;
    bool sealSpilled(std::vector<std::vector<uint64_t>>& spilled, const LoadObserver* observer);
    // A spill or run file that cannot be read back: lostEvents(), and no
    // more spilling. False.
    bool lose();
    // (setRunEvents)
    // A run as written: frames of kRunFrame events (the last may have
    // fewer), each encoded on its own (encodeRunFrame): about 5 bytes an
    // event where the Raw takes 16.
    struct Run {
        uint64_t offset = 0; // in m_runFile
        uint64_t count = 0;  // events
        std::vector<uint32_t> frameBytes;
        std::vector<uint32_t> frameThreads; // each frame's first thread (where a merge of some threads begins)
    };
    static constexpr size_t kRunFrame = 4096;
    static constexpr size_t kRunBuffer = size_t(256) << 10; // bytes encoded before they are appended
    void writeRun();
    // `run` (grouped by thread, each thread's in time order) appended to
    // the run file as a Run of `into`. False if the file cannot take it.
    // (One writer at a time: settle()'s walk or writeRun()'s writer.)
    bool appendRun(const std::vector<Raw>& run, std::vector<Run>& into);
    // An event came earlier than what was walked for good: the insurance
    // runs become the runs of a load that declined to settle (see
    // m_insurance), or, if they could not be written, lostEvents().
    void claimInsurance();
    // What was walked for good forgotten: every event is walked again
    // (by a seal over m_raw, or over runs).
    void forgetSettled();
    void decideInsurance();
    void dropInsurance();
    bool sealRuns(uint64_t end, bool final, const LoadObserver* observer);
    // A Raw whose cause is kSeed stands for the thread's seed segment.
    static constexpr uint32_t kSeed = 15;
    void add(uint64_t time, uint64_t thread, ThreadCause cause, uint16_t cap, uint8_t stop = 0, uint32_t info = 0);
    void noteCheckpoint(const Event& e);
    void fillThreadEntries();
    bool sealAll(uint64_t end, bool final, const LoadObserver* observer);
    bool sealIncremental(uint64_t end, uint64_t settleBefore, const LoadObserver* observer, bool final = false);
    // (`bound`: m_settledBefore, already moved up to it.) With `release`,
    // the settled events' raw copies go at once (releaseSettledRaw), and
    // no list of the pending ones is made (m_pendingAll).
    void settleUpTo(uint64_t bound, bool release = false, size_t upcoming = 0);
    void releaseSettledRaw(size_t upcoming);
    // (settle(), its bound stuck) The inbox handed to settle()'s thread to
    // be packed into m_waiting, once it holds kPackEvents and no walk runs.
    void packWaiting();
    // (settle(), the bound stuck for kStuckPackedRuns runs' worth, in a
    // load going to runs) The events not walked yet, m_raw's and then the
    // packed ones, written to runs of setRunEvents' size, in log order
    // (none unpacked but the run being written); what cannot be written
    // stays in m_raw.
    void waitingToRuns();
    // The indices of the raw events not settled yet, ascending (`raws`: the
    // event at an index, in m_raw or past its end in m_batch).
    template <class Raws, class F>
    void forEachPending(const Raws& raws, F f) const
    {
        if (m_pendingAll) {
            // (In locals: f's stores could alias the members, which would
            // then be loaded again at every event, from a line the decoding
            // thread writes meanwhile.)
            const size_t scanned = m_scanned;
            const uint64_t from = m_pendingFrom;
            for (size_t i = 0; i < scanned; ++i)
                if (raws(i).time >= from)
                    f(uint64_t(i));
        } else {
            for (const uint64_t i : m_pending)
                f(i);
        }
    }
    void clearPending()
    {
        std::vector<uint64_t>().swap(m_pending);
        m_pendingAll = false;
        m_pendingCount = 0;
        m_scanned = 0;
    }
    // settle()'s walk on its own thread: waited for (the array it was
    // handed given back, empty, to be the next inbox); and then the events
    // kept apart meanwhile appended to m_raw as well (what a seal needs).
    ChunkedArray<Raw> join();
    void drain();
    // The inbox handed to the walk's thread as m_batch (after join()), and
    // the batch before, emptied, the next inbox.
    void handInbox();
    // `job` on the walk's thread (m_walk, which join() waits for), or here
    // when no thread can be had.
    template <class F>
    void runApart(F job)
    {
        try {
            m_walk = std::async(std::launch::async, job);
        } catch (const std::system_error&) {
            job();
        }
    }

    ThreadStatesPart& m_part;
    StopEncoding m_encoding = StopEncoding::Standard;
    ChunkedArray<Raw> m_raw;
    std::vector<uint64_t> m_running; // per capability: thread + 1 running there, 0 if none
    // Per stream (0: outside any capability's block, c + 1: capability c):
    // the time of its next checkpoint, before which an event needs no crossing.
    std::vector<uint64_t> m_nextCrossing;
    // Incremental seals: the settled threads by id, the raw events (by
    // index, in log order) not settled yet, how many raw events have been
    // looked at, and the bound settled up to.
    // The pending events are listed in m_pending, or, with m_pendingAll,
    // they are every event below m_scanned at or past m_pendingFrom (the
    // bound they were settled up to: the bounds only grow, so the events
    // before it were walked, and those past it were not). A load's walks
    // release the settled events as they go, so that no list of 8 bytes an
    // event is kept for the events a late capability holds back (two lists
    // while a settle made the next, 16 bytes beside their own 16: 14 MB of
    // the 129 MB peak RSS of `info` on a `generate.sh big` log).
    std::map<uint32_t, Settled> m_settled;
    std::vector<uint64_t> m_pending, m_pendingNext; // (the next: the memory of the one before, reused)
    bool m_pendingAll = false;
    uint64_t m_pendingFrom = 0;
    size_t m_pendingCount = 0;
    size_t m_scanned = 0;
    uint64_t m_settledBefore = 0;
    std::vector<uint64_t> m_cleanBefore; // per thread of the last seal: its last settled segment's time
    bool m_rewalk = false;
    size_t m_settleEventsPerThread = 256; // at the first settle, or never
    size_t m_settleSlice = kSettleSlice;
    bool m_settleDeclined = false;
    // Events added, and how many had been when the bound last moved (or
    // the load went to runs): the decoding thread's own count (kStuckRuns).
    // (m_added, written at every event, and m_inbox below are on cache
    // lines of their own, apart from what settle()'s walk reads meanwhile
    // on the other core: sharing one made both threads slower, measured.)
    alignas(64) uint64_t m_added = 0;
    uint64_t m_addedWhenSettled = 0;
    uint64_t m_mostWaiting = 0; // (mostEventsWaiting)
    uint64_t m_packed = 0, m_mostPacked = 0; // (handed to be packed since the bound last moved; mostEventsPacked)
    alignas(64) bool m_released = false; // settle() let raw events go
    std::vector<Raw> m_scratch; // the events being settled (memory reused)
    bool m_lost = false;     // and then an event came before what it had settled
    bool m_spillOn = false;
    bool m_dropPyramidSegments = false; // (setSpill's: the final index keeps none; m_spillOn goes on a failure)
    bool m_releaseSettled = false;
    // (writeSettled) A live session's walk puts a thread's new segments
    // here, not in its Settled::packed, while m_spillOn (off once the file
    // fails).
    std::vector<PackedSegment> m_fresh;
    struct Write {
        uint64_t offset; // in m_spill
        size_t from;     // in m_written
        size_t count;
    };
    std::vector<Write> m_writes;
    std::vector<PackedSegment> m_written; // (what m_writes write)
    std::future<bool> m_writing;          // (of m_writingWrites: the batch before)
    std::vector<Write> m_writingWrites;
    std::vector<PackedSegment> m_writingData;
    bool m_writeFailed = false; // (and every seal after fails)
    std::unique_ptr<SpillFile> m_spill;
    std::atomic<uint64_t> m_spilledBytes = 0;
    // settle() on its own thread: while a walk runs, it alone touches
    // m_raw, m_waiting, m_batch, m_pending, m_scanned, m_scratch, m_settled and the
    // spill file (m_spill, m_spillOn); the decoding thread adds to m_inbox.
    // The walk empties the array it was handed (m_batch), which is then the
    // next inbox.
    // writeRun()'s writer, on its own thread, alone touches m_batch,
    // m_scratch, m_runBytes, m_runFile, m_runs and m_runsFailed (the decoding thread
    // stores into m_raw); join() waits for it.
    bool m_async = false;
    alignas(64) ChunkedArray<Raw> m_inbox;
    alignas(64) ChunkedArray<Raw> m_batch; // the walk's events, after m_waiting's (settleUpTo); empty when none
    // The events that waited for a stuck bound (packWaiting), after
    // m_raw's and before m_batch's in log order: read by settleUpTo's walk
    // and drain() only, empty after either.
    PackedRaws<Raw> m_waiting;
    std::future<void> m_walk;
    // Runs of raw events in a file (setRunEvents), in log order.
    size_t m_runEvents = size_t(1) << 20;
    std::vector<Run> m_runs;
    std::unique_ptr<SpillFile> m_runFile;
    std::vector<uint8_t> m_runBytes; // (the writer's: frames of a run encoded, up to kRunBuffer)
    bool m_runsFailed = false;
    std::atomic<uint64_t> m_eventsInRuns = 0; // (all written, for good)
    std::atomic<uint64_t> m_runFileBytes = 0;
    uint64_t m_binnedAsMerged = 0;
    // A load's events walked for good are also written to the run file as
    // they are (each settle's, grouped by thread and sorted: a run), about
    // 5 bytes an event, so that an event that then comes earlier than
    // them (the first block of a capability idle from the start, which the
    // RTS writes when the program ends) needs no second reading of the log
    // keeping every event: the runs and the events not walked yet are
    // merged by the final seal, as when settling is declined. Decided
    // before the first walk (a live session's are released: it reads its
    // recording again); written by the walk that settles, read after join().
    bool m_insuranceDecided = false;
    bool m_insuring = false;
    bool m_insuranceFailed = false;
    bool m_insuranceClaimed = false;
    std::vector<Run> m_insurance;
    uint64_t m_insuredEvents = 0;
    // Read back: the window, the seeds (by id) and the threads wanted.
    bool m_readBack = false;
    uint64_t m_from = 0, m_clip = 0, m_to = UINT64_MAX;
    std::unordered_map<uint32_t, ThreadSegment> m_seeds;
    std::unordered_map<uint32_t, uint64_t> m_eventsFrom;
    uint64_t m_eventsFromMax = 0; // the latest of them
    std::vector<uint32_t> m_only;
    std::vector<bool> m_onlyBits; // [id]: wanted (when the ids are dense enough), else m_only searched
    bool m_filtered = false;
    bool wanted(uint32_t id) const
    {
        if (!m_onlyBits.empty())
            return id < m_onlyBits.size() && m_onlyBits[id];
        return std::binary_search(m_only.begin(), m_only.end(), id);
    }
};

} // namespace hecscope
