#include "core/index/threadstatesbuilder.h"

#include "core/format/eventtags.h"
#include "core/index/gallop.h"
#include "core/index/threadstatesbuild.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <new>
#include <set>
#include <system_error>
#include <unordered_map>
#include <utility>

namespace hecscope {

// ThreadStatesBuilder on a growing log: the settle's batch joined and
// drained, settled events released, and the seal that extends the last one
// (sealIncremental).

using namespace threadbuild;

ChunkedArray<ThreadStatesBuilder::Raw> ThreadStatesBuilder::join()
{
    if (m_walk.valid())
        m_walk.get();
    ChunkedArray<Raw> emptied = std::move(m_batch);
    m_batch = {};
    if (!emptied.empty()) {
        // A run that could not be written (writeRun): its events go back,
        // before those that came since.
        for (size_t i = 0; i < m_raw.size(); ++i)
            emptied.push_back(std::as_const(m_raw)[i]);
        m_raw = std::move(emptied);
        return {};
    }
    return emptied;
}

void ThreadStatesBuilder::drain()
{
    join();
    m_waiting.forEach([this](const Raw& r) { m_raw.push_back(r); });
    m_waiting.clear();
    m_packed = 0;
    for (size_t i = 0; i < m_inbox.size(); ++i)
        m_raw.push_back(std::as_const(m_inbox)[i]);
    m_inbox.shrinkTo(0);
    m_inbox.releaseFrom(kSettleSlice); // (what came while a bound was stuck: see settle())
    m_async = false; // (a settle() after hands the events over again)
}

void ThreadStatesBuilder::releaseSettledRaw(size_t upcoming)
{
    // The settled events' raw copies go: the pending ones move to the
    // front (their indices ascend, so none is written over before it is
    // moved), and the array keeps its chunks for the events to come (no
    // memory given back and faulted in again at every settle).
    // (From the events packed while the bound was stuck and settle()'s
    // batch too, past m_raw's end: appended. Every event is pending that
    // is not before the bound: m_pendingAll, set by settleUpTo.)
    const size_t ownSize = m_raw.size();
    const uint64_t from = m_pendingFrom;
    size_t kept = 0;
    const auto keep = [&](const Raw& r) {
        if (r.time < from)
            return;
        if (kept < m_raw.size())
            m_raw[kept] = r;
        else
            m_raw.push_back(r);
        ++kept;
    };
    for (size_t i = 0; i < ownSize; ++i)
        keep(Raw(std::as_const(m_raw)[i]));
    m_waiting.forEach(keep);
    m_waiting.clear();
    for (size_t i = 0; i < m_batch.size(); ++i)
        keep(std::as_const(m_batch)[i]);
    m_raw.shrinkTo(kept);
    m_raw.releaseFrom(kept + upcoming); // (what an unusually late bound left)
    // Every event left is pending (m_pendingAll, set by settleUpTo).
    m_pendingCount = kept;
    m_scanned = kept;
}

bool ThreadStatesBuilder::sealIncremental(uint64_t end, uint64_t settleBefore, const LoadObserver* observer,
                                          bool final)
{
    if (m_rewalk) {
        if (m_released)
            return false; // (lostEvents(): the raw events to walk again are gone)
        forgetSettled();
        // (Every event is walked again, from m_raw: insured afresh.)
        dropInsurance();
        m_insuranceDecided = false;
    }
    m_settledBefore = std::max(m_settledBefore, settleBefore);
    if (!final)
        decideInsurance();
    if (m_releaseSettled && !final) {
        settleUpTo(m_settledBefore, true, std::min<size_t>(m_raw.size(), size_t(1) << 19)); // (room for as many as came since the last seal, up to 8 MB)
        m_released = true;
    } else {
        settleUpTo(m_settledBefore);
    }
    if (m_writeFailed)
        return false; // (lostEvents(): see finishWrites)
    if (final) { // (the settles' scratch: up to 2^18 events each in a load, 2^19 in a live session)
        std::vector<Raw>().swap(m_scratch);
        std::vector<PackedSegment>().swap(m_fresh);
        std::vector<uint64_t>().swap(m_pendingNext);
    }
    if (isCancelled(observer))
        return false;
    std::vector<Raw> tail;
    tail.reserve(m_pendingCount);
    forEachPending([&](uint64_t i) -> const Raw& { return std::as_const(m_raw)[i]; },
                   [&](uint64_t i) { tail.push_back(std::as_const(m_raw)[i]); });
    std::vector<Raw> scratch;
    groupByThread(tail, scratch);
    if (isCancelled(observer))
        return false;
    if (final) {
        // Everything is settled: the raw events go.
        m_raw = {};
        clearPending();
    }

    // Every thread: its settled segments, then its pending events walked
    // from where the settled ones left it. (The last seal's pyramids are
    // kept aside for the bins nothing has touched since.)
    ThreadStates& out = m_part.threadStates;
    PreviousOverviews previous{std::move(out.ids), std::move(out.overviews), std::move(out.overviewKeys),
                               std::move(m_cleanBefore)};
    m_cleanBefore.clear();
    out = ThreadStates{};
    out.end = end;
    {
        // (Each thread's arrays reserved for exactly the threads there are,
        // settled or only pending: a snapshot of tens of thousands of
        // threads would keep up to half of them again, grown by doubling.)
        size_t threads = 0;
        auto it = m_settled.begin();
        for (size_t i = 0; i < tail.size();) {
            const uint32_t id = tail[i].thread;
            for (; it != m_settled.end() && it->first < id; ++it)
                ++threads;
            if (it != m_settled.end() && it->first == id)
                ++it;
            ++threads;
            while (i < tail.size() && tail[i].thread == id)
                ++i;
        }
        threads += size_t(std::distance(it, m_settled.end()));
        if (final)
            out.chunked.reserve(threads);
        else
            out.sharedFirst.reserve(threads + 1);
        out.ids.reserve(threads);
        out.offsets.reserve(threads + 1);
        out.checkOffsets.reserve(threads + 1);
        if (!final)
            out.tailOffsets.reserve(threads + 1);
    }
    std::vector<std::vector<uint64_t>> spilled; // by thread number, the final seal's
    bool mapped = false;                        // a snapshot holds mapped chunks
    // A live session's snapshot: the whole-run totals of its threads with
    // spilled segments (ThreadStates::followed), below.
    const bool follow = m_releaseSettled && !final;
    std::vector<std::pair<Settled*, size_t>> settledOf; // (follow: by thread number, with its count of settled segments)
    std::vector<uint8_t> mappedOf;                      // (follow: by thread number, whether its copy maps chunks)
    // (A snapshot's shared chunks' owners, each once: a mapping holds many.)
    std::set<std::shared_ptr<const void>, std::owner_less<>> owners;
    size_t written = 0;
    auto settled = m_settled.begin();
    size_t t = 0;
    while (settled != m_settled.end() || t < tail.size()) {
        const uint32_t id = settled == m_settled.end() ? tail[t].thread
            : t == tail.size()                        ? settled->first
                                                      : std::min(settled->first, tail[t].thread);
        out.ids.push_back(id);
        out.offsets.push_back(written);
        out.checkOffsets.push_back(out.checkTimes.size());
        if (!final)
            out.tailOffsets.push_back(out.tail.size());
        ThreadSegment cur{};
        bool any = false;
        if (follow) {
            settledOf.emplace_back(nullptr, 0);
            mappedOf.push_back(0);
        }
        // The settled segments are shared, not copied (the builder appends
        // to the chunks a snapshot holds in place; the snapshot's pending
        // ones go to its `tail`); the final seal hands them over. A
        // snapshot keeps a copy's chunks in its shared table, not the copy.
        SegmentChunks copy;
        SegmentChunks& segs = final ? out.chunked.emplace_back() : copy;
        if (!final)
            out.sharedFirst.push_back(uint32_t(out.sharedChunks.size()));
        if (settled != m_settled.end() && settled->first == id) {
            Settled& w = settled->second;
            segs = final ? std::move(w.packed) : w.packed;
            // Chunks in the spill file: a snapshot's copy has them read
            // back (a live session's are mapped: see setReleaseSettled);
            // the final seal reads them thread by thread.
            if (!w.spilled.empty()) {
                if (final) {
                    spilled.resize(out.ids.size());
                    spilled.back() = std::move(w.spilled);
                } else if (!restoreSpilled(segs, w.spilled)) {
                    return false;
                }
            }
            mapped = mapped || segs.mappedBytes() > 0; // (a live session maps every settled chunk: writeSettled)
            if (!final) {
                segs.forEachChunk([&](const PackedSegment* chunk, const auto& owner, bool inFile, size_t capacity) {
                    out.sharedChunks.push_back(chunk);
                    if (!inFile)
                        out.sharedInMemory += capacity * sizeof(PackedSegment);
                    owners.insert(owner);
                });
                out.sharedMapped += segs.mappedBytes();
                if (follow)
                    mappedOf.back() = segs.mappedBytes() > 0;
            }
            out.checkTimes.insert(out.checkTimes.end(), w.checks.begin(), w.checks.end());
            for (const auto& [local, time] : w.farTimes)
                out.farTimes.emplace_back(written + local, time);
            for (const auto& [local, info] : w.infos)
                out.infos.emplace_back(written + local, info);
            written += segs.size();
            cur = w.cur;
            any = w.any;
            if (follow)
                settledOf.back() = {&w, segs.size()};
            if (final)
                w = Settled{};
            ++settled;
        }
        // Its segments before its last settled one stay as they are.
        m_cleanBefore.push_back(any ? cur.time : 0);
        const size_t first = out.offsets.back();
        for (; t < tail.size() && tail[t].thread == id; ++t) {
            ThreadSegment s;
            if (!walkStep(tail[t], cur, any, s))
                continue;
            const PackedSegment p = packSegment(s, written - first, written, out.checkTimes, out.farTimes, out.infos);
            if (final)
                segs.push_back(p);
            else
                out.tail.push_back(p);
            ++written;
            cur = s;
            any = true;
        }
    }
    out.offsets.push_back(written);
    out.checkOffsets.push_back(out.checkTimes.size());
    if (!final) {
        out.tailOffsets.push_back(out.tail.size());
        out.tail.shrink_to_fit();
        out.sharedFirst.push_back(uint32_t(out.sharedChunks.size()));
        out.sharedChunks.shrink_to_fit();
        out.sharedOwners.assign(owners.begin(), owners.end());
        owners.clear();
    }
    out.checkTimes.shrink_to_fit(); // (grown by doubling: each snapshot's own)
    // (The segments the settle wrote are read from the file once the
    // writes are done: before the pyramids, or before a thread's settled
    // ones are read below, while they go on. finishWrites() again is a no-op.)
    // The whole-run totals of each thread with segments in the spill file
    // (mapped: a walk of them all would bring their pages into the
    // process): what its settled segments add, counted as they settle
    // (settleUpTo; from its first one in a live session, else once, at its
    // first snapshot with spilled segments), then its newer segments.
    // (The pages read for it are let go with the pyramids', below.) Other
    // threads' segments are in memory.
    for (size_t k = 0; k < settledOf.size(); ++k) {
        const auto [w, settledCount] = settledOf[k];
        if (!w || (w->spilled.empty() && !mappedOf[k]))
            continue;
        const SegmentView segs = out.of(k);
        if (!w->totals) {
            // (The time of each but the last settled segment, the event of
            // each, as settleUpTo counts them.)
            if (!finishWrites())
                return false;
            w->totals = std::make_unique<ThreadTotals>();
            for (size_t i = 0; i < settledCount; ++i) {
                const ThreadSegment s = segs[i];
                if (i + 1 < settledCount)
                    addSegmentTime(*w->totals, s, s.time, segs.timeAt(i + 1));
                countSegmentEvent(*w->totals, s);
            }
        }
        ThreadTotals totals = *w->totals;
        // (Its last settled segment's time on: a thread with chunks in the
        // file has settled segments. That one is the walk's, w->cur, not
        // read from the file.)
        for (size_t i = settledCount - 1; i < segs.size(); ++i) {
            const ThreadSegment s = i + 1 == settledCount ? w->cur : segs[i];
            // (The last segment ends where the log does: threadTotals.)
            addSegmentTime(totals, s, s.time, i + 1 < segs.size() ? segs.timeAt(i + 1) : std::max(end, s.time));
            if (i >= settledCount)
                countSegmentEvent(totals, s);
        }
        out.followed.push_back(uint32_t(k));
        out.followedTotals.push_back(totals);
    }
    out.followed.shrink_to_fit();
    out.followedTotals.shrink_to_fit();
    if (!finishWrites() || isCancelled(observer))
        return false;
    if (!spilled.empty())
        return sealSpilled(spilled, observer);
    // (A load's final seal shapes the pyramids as a load that kept every
    // event does: exactly. A live session's keeps growing its own: its
    // last update stays as quick as the others.)
    if (!buildOverviews(out, observer, final && m_released && !m_releaseSettled ? nullptr : &previous))
        return false;
    // (The totals above and the pyramids read the mapped chunks of the
    // threads, the pyramids from their first bin that changed: the pages
    // are let go after, all at once, so that the process does not hold
    // them all. Chunks are mapped only from m_spill's windows: their
    // places never cross one.)
    if (mapped && m_spill)
        m_spill->releaseAllPages();
    if (final) {
        fillThreadEntries();
        m_spill.reset(); // (the chunks mapped from it keep their windows)
    } else {
        m_part.threadCheckpoints.entryOffsets.clear(); // (made at the final seal)
    }
    return true;
}

} // namespace hecscope
