#include "core/index/threadstatesbuilder.h"

#include "core/format/eventtags.h"
#include "core/index/gallop.h"
#include "core/index/threadstatesbuild.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <chrono>
#include <bit>
#include <cstring>
#include <functional>
#include <new>
#include <system_error>
#include <unordered_map>
#include <utility>

namespace hecscope {

// ThreadStatesBuilder's events in, and its seals: a provisional or whole
// log's (sealAll), settling, the spill file. The runs are in
// threadstatesruns.cpp, a growing log's seal in threadstatesincremental.cpp,
// the bin pyramids in threadoverview.cpp.

using namespace threadbuild;

void ThreadStatesBuilder::add(uint64_t time, uint64_t thread, ThreadCause cause, uint16_t cap, uint8_t stop,
                              uint32_t info)
{
    if (time > Span::kMaxStart || thread > UINT32_MAX)
        return; // as the capability timelines: not representable
    if (m_readBack) {
        if (time < m_from || time >= m_to || (m_filtered && !wanted(uint32_t(thread))))
            return;
        // (Events at or after every thread's `eventsFrom`, most of them,
        // look nothing up.)
        if (time < m_eventsFromMax)
            if (const auto it = m_eventsFrom.find(uint32_t(thread)); it != m_eventsFrom.end() && time < it->second)
                return;
    }
    if (time < m_settledBefore) {
        m_rewalk = true; // before what is settled: walk everything again
        // (Which needs the raw events let go: in the runs that insure
        // them, else the log is read again.)
        m_lost = m_lost || (m_released && !m_insuring);
    }
    // Written as its two words, made in registers (Raw's bit-fields as
    // the x86-64 and AArch64 ABIs lay them out, lowest bits first): a Raw
    // made on the stack, field by field, was read back from there whole,
    // a store-forwarding stall per event.
    const uint64_t words[2] = {
        time | uint64_t(cap) << 48,
        uint64_t(uint32_t(thread))
            | uint64_t((info < (1u << 20) ? info : 0) | (uint32_t(cause) & 0xF) << 20 | uint32_t(stop) << 24) << 32};
    std::memcpy((m_async ? m_inbox : m_raw).appendSlot(), words, sizeof words);
    ++m_added;
}

ThreadStatesBuilder::~ThreadStatesBuilder()
{
    if (m_walk.valid())
        m_walk.wait(); // (it uses this builder; what it threw goes with it)
    if (m_writing.valid())
        m_writing.wait(); // (startWrites': the same)
}

void ThreadStatesBuilder::readBack(uint64_t from, uint64_t clip, uint64_t to)
{
    m_readBack = true;
    m_from = from;
    m_clip = clip;
    m_to = to;
}

void ThreadStatesBuilder::onlyThreads(std::vector<uint32_t> ids)
{
    m_only = std::move(ids);
    m_filtered = true;
    // Many wanted (a range's figures read every summarised thread): a bit
    // per id up to the largest, when that is not many more bits than ids,
    // instead of a search for every event.
    m_onlyBits.clear();
    if (m_only.size() > 64 && m_only.back() / 64 <= m_only.size())
        m_onlyBits.resize(size_t(m_only.back()) + 1, false);
    for (size_t i = 0; i < m_only.size() && !m_onlyBits.empty(); ++i)
        m_onlyBits[m_only[i]] = true;
}

void ThreadStatesBuilder::seedThread(uint32_t id, const ThreadSegment& s, uint64_t eventsFrom)
{
    if (s.time > Span::kMaxStart)
        return;
    m_seeds[id] = s;
    if (eventsFrom > m_from) {
        m_eventsFrom[id] = eventsFrom;
        m_eventsFromMax = std::max(m_eventsFromMax, eventsFrom);
    }
    Raw r{};
    r.time = s.time;
    r.cap = s.cap;
    r.thread = id;
    r.cause = kSeed;
    m_raw.push_back(r);
}

void ThreadStatesBuilder::seedRunning(uint16_t cap, uint64_t running)
{
    if (cap == kNoCap)
        return;
    if (cap >= m_running.size())
        m_running.resize(size_t(cap) + 1, 0);
    m_running[cap] = running;
}

// The checkpoints' streams: the first thread event of each stream at or
// after each checkpoint, with the thread running before it.
void ThreadStatesBuilder::noteCheckpoint(const Event& e)
{
    // Most events: before their stream's next checkpoint.
    const size_t slot = e.cap == kNoCap ? 0 : size_t(e.cap) + 1;
    if (slot < m_nextCrossing.size() && e.time < m_nextCrossing[slot])
        return;
    if (e.time > Span::kMaxStart)
        return; // never walked (add): no checkpoint for it
    ThreadCheckpoints& cp = m_part.threadCheckpoints;
    using Crossing = ThreadCheckpoints::Crossing;
    if (e.time / cp.spacing >= ThreadCheckpoints::kMaxCheckpoints) {
        // Too many: wider apart, keeping every `factor`-th.
        uint64_t factor = 1;
        while (e.time / (cp.spacing * factor) >= ThreadCheckpoints::kMaxCheckpoints)
            factor *= 2;
        cp.spacing *= factor;
        const auto thin = [factor](std::vector<Crossing>& v) {
            size_t n = 0;
            for (size_t j = 0; j < v.size(); j += factor)
                v[n++] = v[j];
            v.resize(n);
        };
        for (auto& v : cp.caps)
            thin(v);
        thin(cp.global);
    }
    std::vector<Crossing>* v = &cp.global;
    if (e.cap != kNoCap) {
        if (cp.caps.size() <= e.cap)
            cp.caps.resize(size_t(e.cap) + 1);
        v = &cp.caps[e.cap];
    }
    const uint64_t need = e.time / cp.spacing + 1;
    if (v->size() < need)
        v->resize(need, Crossing{e.offset, e.cap < m_running.size() ? m_running[e.cap] : 0, e.time});
    // Where each stream's next crossing is (all of them: the spacing may
    // have widened).
    m_nextCrossing.resize(std::max(m_nextCrossing.size(), cp.caps.size() + 1), 0);
    m_nextCrossing[0] = cp.global.size() * cp.spacing;
    for (size_t c = 0; c < cp.caps.size(); ++c)
        m_nextCrossing[c + 1] = cp.caps[c].size() * cp.spacing;
}

void ThreadStatesBuilder::fillThreadEntries()
{
    m_part.threadCheckpoints.makeThreadEntries(m_part.threadStates, true);
}

void ThreadStatesBuilder::consume(const Event& e)
{
    if (!m_readBack)
        noteCheckpoint(e);
    const uint64_t id = e.n[0];
    switch (e.tag) {
    case tag::CreateThread: add(e.time, id, ThreadCause::Created, e.cap); break;
    case tag::RunThread:
        if (e.cap != kNoCap) {
            if (e.cap >= m_running.size())
                m_running.resize(size_t(e.cap) + 1, 0);
            if (m_running[e.cap] && m_running[e.cap] != id + 1)
                add(e.time, m_running[e.cap] - 1, ThreadCause::Replaced, e.cap);
            m_running[e.cap] = id + 1;
        }
        add(e.time, id, ThreadCause::Run, e.cap);
        break;
    case tag::StopThread: {
        const uint64_t code = std::min<uint64_t>(standardStopCode(e.n[1], m_encoding), 253);
        if (e.cap < m_running.size() && m_running[e.cap] == id + 1)
            m_running[e.cap] = 0;
        add(e.time, id, ThreadCause::Stop, e.cap, uint8_t(code), uint32_t(std::min<uint64_t>(e.n[2], UINT32_MAX)));
        break;
    }
    case tag::ThreadRunnable: add(e.time, id, ThreadCause::Runnable, e.cap); break;
    case tag::ThreadWakeup: add(e.time, id, ThreadCause::Wakeup, uint16_t(e.n[1])); break;
    case tag::MigrateThread: add(e.time, id, ThreadCause::Migrate, uint16_t(e.n[1])); break;
    default: break;
    }
}

bool ThreadStatesBuilder::seal(uint64_t end, bool final, const LoadObserver* observer, uint64_t settleBefore)
{
    drain();
    if (m_rewalk && m_released && m_insuring)
        claimInsurance();
    if (final)
        m_insuring = false; // (nothing can come earlier than what it settles)
    if (m_lost)
        return false; // (what a walk would give is wrong: the log is read again)
    if (!m_runs.empty())
        return sealRuns(end, final, observer);
    if (!final)
        return sealIncremental(end, settleBefore, observer);
    // After provisional seals that settled most events (a live session),
    // the rest settles as well; otherwise (a load) the whole walk once
    // more, over the raw events' own memory, with the settled segments
    // freed first. Both give the same states.
    const size_t unsettled = m_pendingCount + (m_raw.size() - m_scanned);
    if (!m_rewalk && (m_released || (m_scanned > 0 && unsettled < m_raw.size() / 4))) {
        if (!sealIncremental(end, UINT64_MAX, observer, true))
            return false;
        m_settled.clear();
        return true;
    }
    m_settled.clear();
    clearPending();
    m_settledBefore = 0;
    return sealAll(end, final, observer);
}

bool ThreadStatesBuilder::sealAll(uint64_t end, bool final, const LoadObserver* observer)
{
    ThreadStates& out = m_part.threadStates;
    out = ThreadStates{};
    out.end = end;
    const size_t n = m_raw.size();
    // Number the threads by ascending id: a table when ids are dense (they
    // count up from 1), a hash map for stray far ids.
    uint32_t maxId = 0;
    for (size_t i = 0; i < n; ++i)
        maxId = std::max(maxId, std::as_const(m_raw)[i].thread);
    std::vector<uint32_t> numberOf; // by id (dense case)
    std::unordered_map<uint32_t, uint32_t> numberOfSparse;
    const bool dense = maxId < (1u << 26) && maxId <= 4 * n + 65536;
    if (dense) {
        numberOf.assign(size_t(maxId) + 1, 0);
        for (size_t i = 0; i < n; ++i)
            numberOf[std::as_const(m_raw)[i].thread] = 1;
        for (uint32_t id = 0; id <= maxId; ++id)
            if (numberOf[id]) {
                numberOf[id] = uint32_t(out.ids.size());
                out.ids.push_back(id);
            } else {
                numberOf[id] = UINT32_MAX;
            }
    } else {
        for (size_t i = 0; i < n; ++i)
            numberOfSparse.emplace(std::as_const(m_raw)[i].thread, 0);
        for (const auto& [id, _] : numberOfSparse)
            out.ids.push_back(id);
        std::sort(out.ids.begin(), out.ids.end());
        for (size_t k = 0; k < out.ids.size(); ++k)
            numberOfSparse[out.ids[k]] = uint32_t(k);
    }
    const auto number = [&](uint32_t id) { return dense ? numberOf[id] : numberOfSparse.at(id); };
    if (isCancelled(observer))
        return false;

    // Counting sort by thread, keeping log order within a thread.
    out.offsets.assign(out.ids.size() + 1, 0);
    for (size_t i = 0; i < n; ++i)
        ++out.offsets[number(std::as_const(m_raw)[i].thread) + 1];
    for (size_t k = 1; k < out.offsets.size(); ++k)
        out.offsets[k] += out.offsets[k - 1];
    // The raw events sorted by thread go into one malloc'd block; each
    // thread's segments are then packed (8 bytes) over its raw events
    // (16 bytes; never more segments than events, so a write never reaches
    // an event not yet read), and the unused half is given back: the index
    // never holds a second copy.
    PackedSegments& packed = out.packed;
    packed.allocate(n * sizeof(Raw));
    Raw* raws = static_cast<Raw*>(packed.bytes());
    {
        std::vector<uint64_t> next(out.offsets.begin(), out.offsets.end() - 1);
        constexpr size_t kChunk = decltype(m_raw)::kChunk;
        for (size_t i = 0; i < n; ++i) {
            raws[next[number(std::as_const(m_raw)[i].thread)]++] = std::as_const(m_raw)[i];
            // For good: each chunk of raw events is freed once copied.
            if (final && (i + 1) % kChunk == 0)
                m_raw.releaseBefore(i + 1);
        }
    }
    if (final)
        m_raw = {};
    if (isCancelled(observer))
        return false;

    // Each thread's events in time order, then its states.
    std::vector<uint64_t> offsets(out.offsets.size(), 0);
    out.checkOffsets.assign(out.offsets.size(), 0);
    size_t written = 0;
    PackedSegment* dest = static_cast<PackedSegment*>(packed.bytes());
    for (size_t k = 0; k < out.ids.size(); ++k) {
        if ((k & 0xFFF) == 0 && isCancelled(observer))
            return false;
        offsets[k] = written;
        out.checkOffsets[k] = out.checkTimes.size();
        Raw* first = raws + out.offsets[k];
        Raw* last = raws + out.offsets[k + 1];
        const auto byTime = [](const Raw& a, const Raw& b) { return a.time < b.time; };
        if (!std::is_sorted(first, last, byTime))
            std::stable_sort(first, last, byTime);
        bool any = false;
        ThreadSegment cur{};
        // Read back: the segment in force at m_clip is held until the next
        // one starts after it.
        ThreadSegment held{};
        bool holding = false;
        const auto emit = [&](const ThreadSegment& s) {
            // Packed at `written`, at or before `at` in bytes: already read
            // (never more segments than events, a seed counting as one).
            dest[written] = packSegment(s, written - offsets[k], written, out.checkTimes, out.farTimes, out.infos);
            ++written;
        };
        for (Raw* at = first; at != last; ++at) {
            const Raw raw = *at; // read before its bytes can be written over
            ThreadSegment s;
            if (raw.cause == kSeed) // (only ever a thread's first, being earlier than its events)
                s = m_seeds.at(raw.thread);
            else if (!walkStep(raw, cur, any, s))
                continue;
            cur = s;
            any = true;
            if (m_readBack) {
                if (s.time <= m_clip) {
                    held = s;
                    holding = true;
                    continue;
                }
                if (holding)
                    emit(held);
                holding = false;
            }
            emit(s);
        }
        if (holding)
            emit(held);
    }
    packed.shrinkTo(written);
    offsets.back() = written;
    out.offsets = std::move(offsets);
    out.checkOffsets.back() = out.checkTimes.size();
    if (m_readBack) {
        // Segments read back are drawn and counted as they are: rows take
        // their bins from the index.
        out.overviews.assign(out.ids.size(), {});
        return true;
    }
    if (!buildOverviews(out, observer))
        return false;
    fillThreadEntries();
    return true;
}

// Walks the events before `settleBefore` (and the last bound) for good
// into each thread's settled segments; the rest stay pending.
void ThreadStatesBuilder::settleUpTo(uint64_t bound, bool release, size_t upcoming)
{
    if (!finishWrites()) // (the last seal's, if it did not wait: before more are queued)
        return;
    // The events to settle now (before the bound), and the indices of
    // those still pending, each in log order.
    // Event i: in m_raw, or past its end in the batch handed to settle()'s
    // walk (not copied into m_raw: only the events left pending go there).
    // The events packed while the bound was stuck (m_waiting) come between
    // the two, with no index: only a walk that releases what it settles
    // has them (settle()), and it keeps no list of the pending ones.
    const ChunkedArray<Raw>& own = m_raw; // (read only: no check for a copy's chunks)
    const ChunkedArray<Raw>& batch = m_batch;
    const size_t ownSize = own.size(), total = ownSize + batch.size();
    const auto raws = [&](uint64_t i) -> const Raw& { return i < ownSize ? own[i] : batch[i - ownSize]; };
    // f(index, event) for every event not settled yet, in log order.
    const auto unsettled = [&](auto f) {
        forEachPending(raws, [&](uint64_t i) { f(i, raws(i)); });
        for (size_t i = m_scanned; i < ownSize; ++i)
            f(i, own[i]);
        m_waiting.forEach([&](const Raw& r) { f(uint64_t(0), r); });
        for (size_t i = std::max(m_scanned, ownSize); i < total; ++i)
            f(i, batch[i - ownSize]);
    };
    // The events before the bound copied, straight to their place grouped
    // by thread (a count per thread first), log order kept within a
    // thread, and walked; the indices of the others kept pending.
    assert(release || m_waiting.empty()); // (a seal's: after drain())
    std::vector<Raw>& settle = m_scratch; // (its memory kept from one settle to the next)
    std::vector<uint64_t>& pending = m_pendingNext; // (memory reused)
    pending.clear();
    uint32_t lo = UINT32_MAX, hi = 0;
    size_t n = 0, stillPending = 0;
    const auto classify = [&](uint64_t i, const Raw& r) {
        if (r.time < bound) {
            ++n;
            lo = std::min(lo, r.thread);
            hi = std::max(hi, r.thread);
        } else {
            ++stillPending;
            if (!release) // (a release keeps them by their time instead)
                pending.push_back(i);
        }
    };
    unsettled(classify);
    const bool dense = n > 0 && size_t(hi - lo) + 1 <= 4 * n + 65536;
    const auto each = [&](auto f) {
        unsettled([&](uint64_t, const Raw& r) {
            if (r.time < bound)
                f(r);
        });
    };
    // The copy (grouped by thread) in time order per thread, walked.
    Settled* walked = nullptr;
    const auto walkCopy = [&] {
        sortEachThreadByTime(settle);
        // Grouped by thread and in time order: a run, as writeRun makes
        // them, that insures these events (see m_insurance).
        if (m_insuring && !m_insuranceFailed && !settle.empty()) {
            if (appendRun(settle, m_insurance))
                m_insuredEvents += settle.size();
            else
                m_insuranceFailed = true;
        }
        for (size_t j = 0; j < settle.size(); ++j) {
            const Raw& raw = settle[j];
            if (j == 0 || settle[j - 1].thread != raw.thread) {
                if (walked && m_spillOn)
                    spillFull(*walked);
                walked = &m_settled[raw.thread];
            }
            ThreadSegment s;
            if (!walkStep(raw, walked->cur, walked->any, s))
                continue;
            // (A live session's threads count their whole-run totals from
            // their first segment: a snapshot reads none of the segments in
            // the file for them, see sealIncremental.)
            if (!walked->totals && !walked->any && m_releaseSettled && m_spillOn)
                walked->totals = std::make_unique<ThreadTotals>();
            if (walked->totals) {
                if (walked->any)
                    addSegmentTime(*walked->totals, walked->cur, walked->cur.time, s.time);
                countSegmentEvent(*walked->totals, s);
            }
            const size_t local = walked->packed.size() + m_fresh.size();
            const PackedSegment p = packSegment(s, local, local, walked->checks, walked->farTimes, walked->infos);
            if (m_releaseSettled && m_spillOn)
                m_fresh.push_back(p); // (writeSettled)
            else
                walked->packed.push_back(p);
            walked->cur = s;
            walked->any = true;
        }
    };
    if (dense) {
        // The threads in slices of whole threads (setSettleSlice), copied
        // and walked one after the other: the copy is a slice's, not every
        // event's, for one more pass over the events a slice. (At most about
        // kSlicePasses slices: a live session's settle may have millions of
        // events, each pass reads them all.)
        // (With packed events, those are read once whatever the slices (see
        // parts below): a slice reads only the others again, m_raw's and the
        // batch's, so up to 16 slices. Big logs, the walk after the stuck
        // bound, slices of n/4 -> n/16: 3.7 M events 270 -> 150 ms (its
        // scratch 4 MB, not 15: none faulted in), 11.9 M 600 -> 620 ms;
        // of setSettleSlice's, 150 and 770 ms.)
        const size_t slice = m_waiting.empty()
            ? std::max(m_settleSlice, std::min((n + kSlicePasses - 1) / kSlicePasses, kMostSlice))
            : std::max(m_settleSlice, std::min(n / 16, kMostSlice));
        std::vector<size_t> count(size_t(hi - lo) + 1, 0), next(count.size(), 0);
        each([&](const Raw& r) { ++count[r.thread - lo]; });
        // Slice s: the threads from firsts[s] up to firsts[s + 1].
        std::vector<size_t> firsts;
        for (size_t first = 0; first < count.size();) {
            firsts.push_back(first);
            size_t events = 0;
            while (first < count.size() && (events == 0 || events + count[first] <= slice))
                events += count[first++];
        }
        firsts.push_back(count.size());
        // The events packed while the bound was stuck, the most of a long
        // wait's (11.9 M of the 1.12 GB log's first settle, 16 slices):
        // unpacked once, packed again by slice, not unpacked once a slice.
        // (Those left pending keep their place: after m_raw's, before the
        // batch's, for releaseSettledRaw.)
        std::vector<PackedRaws<Raw>> parts;
        if (firsts.size() > 2 && !m_waiting.empty()) {
            parts.resize(firsts.size() - 1);
            std::vector<uint32_t> sliceOf(count.size());
            for (size_t s = 0; s + 1 < firsts.size(); ++s)
                std::fill(sliceOf.begin() + ptrdiff_t(firsts[s]), sliceOf.begin() + ptrdiff_t(firsts[s + 1]), uint32_t(s));
            PackedRaws<Raw> later;
            m_waiting.consumeEach([&](const Raw& r) {
                if (r.time < bound)
                    parts[sliceOf[r.thread - lo]].push_back(r);
                else
                    later.push_back(r);
            });
            m_waiting = std::move(later);
        }
        for (size_t s = 0; s + 1 < firsts.size(); ++s) {
            const size_t first = firsts[s], last = firsts[s + 1];
            size_t events = 0;
            for (size_t k = first; k < last; ++k) {
                next[k] = events;
                events += count[k];
            }
            // (Emptied first: a larger size copies none of the last
            // slice's. Room for a whole slice at once, not grown by each
            // slice that is a little larger: every new allocation of this
            // size is a mapping whose pages are faulted in.)
            settle.clear();
            if (settle.capacity() < events)
                settle.reserve(std::max(events, slice));
            settle.resize(events);
            const auto place = [&](const Raw& r) {
                const size_t k = r.thread - lo;
                if (r.time < bound && k >= first && k < last)
                    settle[next[k]++] = r;
            };
            if (parts.empty()) {
                unsettled([&](uint64_t, const Raw& r) { place(r); });
            } else {
                // (As unsettled(), in the same order, with the slice's part
                // for the packed events.)
                forEachPending(raws, [&](uint64_t i) { place(raws(i)); });
                for (size_t i = m_scanned; i < ownSize; ++i)
                    place(own[i]);
                parts[s].consumeEach(place);
                for (size_t i = std::max(m_scanned, ownSize); i < total; ++i)
                    place(batch[i - ownSize]);
            }
            walkCopy();
            startWrites(); // (while the next slice is walked; a failure: m_writeFailed)
        }
    } else if (n > 0) {
        settle.resize(n);
        size_t at = 0;
        each([&](const Raw& r) { settle[at++] = r; });
        std::stable_sort(settle.begin(), settle.end(), [](const Raw& a, const Raw& b) { return a.thread < b.thread; });
        walkCopy();
    }
    if (walked && m_spillOn)
        spillFull(*walked);
    m_scanned = total;
    m_pendingCount = stillPending;
    if (release) {
        m_pendingAll = true;
        m_pendingFrom = bound;
        std::vector<uint64_t>().swap(m_pending);
        releaseSettledRaw(upcoming);
    } else {
        m_pendingAll = false;
        m_pending.swap(pending);
    }
    settle.clear();
    startWrites(); // (a failure: m_writeFailed)
}

void ThreadStatesBuilder::spillFull(Settled& w)
{
    if (m_releaseSettled) {
        writeSettled(w);
        return;
    }
    constexpr size_t kChunk = SegmentChunks::kChunk;
    // A chunk goes once a later segment is in: a thread's last segment
    // stays in memory (ThreadCheckpoints::chooseSpacing reads it).
    while (m_spillOn && (w.spilled.size() + 1) * kChunk < w.packed.size()) {
        if (!m_spill)
            m_spill = std::make_unique<SpillFile>();
        uint64_t offset = 0;
        const PackedSegment* chunk = w.packed.chunk(w.spilled.size());
        if (!m_spill->open() || !m_spill->append(chunk, kChunk * sizeof(PackedSegment), offset)) {
            m_spillOn = false; // (what is not in the file stays in memory)
            return;
        }
        m_spilledBytes += kChunk * sizeof(PackedSegment);
        w.spilled.push_back(offset);
        w.packed.takeChunk(w.spilled.size() - 1);
    }
}

void ThreadStatesBuilder::writeSettled(Settled& w)
{
    constexpr size_t kChunk = SegmentChunks::kChunk;
    // (A thread's first chunk has a place of 256 segments, then 1,024,
    // then a whole chunk's: a place outgrown is copied to the next and left
    // behind, for the snapshots that map it.)
    constexpr size_t kFirstPlace = 256;
    size_t done = 0;
    if (!m_spill)
        m_spill = std::make_unique<SpillFile>();
    const bool opened = m_spill->open();
    const auto queue = [&](uint64_t offset, const PackedSegment* from, size_t n) {
        m_writes.push_back({offset, m_written.size(), n});
        m_written.insert(m_written.end(), from, from + n);
    };
    while (opened && done < m_fresh.size()) {
        const size_t at = w.packed.size(), c = at / kChunk, from = at % kChunk;
        const size_t n = std::min(m_fresh.size() - done, kChunk - from), length = from + n;
        if (w.places.size() <= c)
            w.places.emplace_back();
        Settled::Place& place = w.places[c];
        if (place.capacity < length) {
            size_t capacity = c > 0 ? kChunk : kFirstPlace;
            while (capacity < length)
                capacity *= 4;
            capacity = std::min(capacity, kChunk);
            uint64_t offset = 0;
            m_spill->reserve(capacity * sizeof(PackedSegment), capacity * sizeof(PackedSegment), offset);
            // (What the old place holds, moved: read from its mapping, written
            // by an earlier seal.)
            if (from > 0)
                queue(offset, w.packed.chunk(c), from);
            place = {offset, uint32_t(capacity), uint32_t(from)};
        }
        std::shared_ptr<const void> view = m_spill->map(place.offset, length * sizeof(PackedSegment));
        if (!view)
            break;
        queue(place.offset + from * sizeof(PackedSegment), m_fresh.data() + done, n);
        m_spilledBytes += n * sizeof(PackedSegment);
        place.written = uint32_t(length);
        // (Its new segments are in the file once finishWrites() has waited
        // for them: nothing reads them before, see startWrites.)
        auto* pages = static_cast<PackedSegment*>(const_cast<void*>(view.get())); // (read only: see mapChunk)
        w.packed.appendMapped(c, std::shared_ptr<PackedSegment[]>(std::move(view), pages), length);
        done += n;
    }
    if (done < m_fresh.size()) {
        // A file that cannot be made or mapped: the rest in memory, and from
        // here on. (What is queued written first: a push into a mapped
        // chunk copies what it maps.)
        if (!finishWrites()) {
            m_fresh.clear(); // (lost: every seal after fails)
            return;
        }
        m_spillOn = false;
        for (size_t i = done; i < m_fresh.size(); ++i)
            w.packed.push_back(m_fresh[i]);
    }
    m_fresh.clear();
    // The full chunks, once a later segment is in, are read back from
    // their places by the final seal as a load's spilled ones are
    // (sealSpilled).
    while ((w.spilled.size() + 1) * kChunk < w.packed.size() && w.spilled.size() < w.places.size()
           && w.packed.isMapped(w.spilled.size()))
        w.spilled.push_back(w.places[w.spilled.size()].offset);
}

bool ThreadStatesBuilder::startWrites()
{
    if (m_writes.empty())
        return true;
    if (!finishWriting())
        return false;
    m_writingWrites.swap(m_writes);
    m_writingData.swap(m_written);
    const auto write = [this] {
        for (const Write& x : m_writingWrites)
            if (!m_spill->write(x.offset, m_writingData.data() + x.from, x.count * sizeof(PackedSegment)))
                return false;
        return true;
    };
    try {
        m_writing = std::async(std::launch::async, write);
    } catch (const std::system_error&) {
        std::promise<bool> now; // (no thread to be had: here, then)
        now.set_value(write());
        m_writing = now.get_future();
    }
    return true;
}

bool ThreadStatesBuilder::finishWrites()
{
    return startWrites() && finishWriting();
}

bool ThreadStatesBuilder::finishWriting()
{
    bool ok = true;
    if (m_writing.valid())
        ok = m_writing.get();
    m_writingWrites.clear();
    m_writingData.clear();
    if (ok)
        return true;
    // (What is queued is dropped with it: every seal from here on fails.)
    m_writes.clear();
    m_written.clear();
    m_writeFailed = true;
    return lose();
}

bool ThreadStatesBuilder::restoreSpilled(SegmentChunks& segs, const std::vector<uint64_t>& spilled,
                                         std::vector<std::shared_ptr<PackedSegment[]>>* pool)
{
    return readSpilled(segs, spilled, pool) || lose();
}

void ThreadStatesBuilder::claimInsurance()
{
    // (No walk running: after drain().)
    if (m_insuranceFailed) {
        m_lost = true; // (the log is read again)
        dropInsurance();
        return;
    }
    // Every event walked for good is in the insurance runs, every other
    // in m_raw: from here on as a load that declined to settle (runs of
    // events in any order, merged by the final seal).
    m_runs = std::move(m_insurance);
    m_insurance = {};
    m_eventsInRuns = m_insuredEvents;
    m_insuredEvents = 0;
    m_insuring = false;
    forgetSettled();
    m_released = false;
    m_settleDeclined = true;
    m_insuranceClaimed = true;
    m_spill.reset(); // (the settled segments' chunks: not read again)
}

void ThreadStatesBuilder::forgetSettled()
{
    m_settled.clear();
    clearPending();
    m_settledBefore = 0;
    m_cleanBefore.clear();
    m_rewalk = false;
}

void ThreadStatesBuilder::decideInsurance()
{
    // (Before any event is walked for good, so that all of them are
    // insured; on the decoding thread, before a walk of its own begins:
    // add() reads m_insuring.)
    if (m_insuranceDecided)
        return;
    m_insuranceDecided = true;
    m_insuring = m_spillOn && !m_releaseSettled && !m_readBack;
}

void ThreadStatesBuilder::dropInsurance()
{
    m_insuring = false;
    m_insurance.clear();
    m_insuredEvents = 0;
}

bool ThreadStatesBuilder::lose()
{
    m_lost = true; // (the loader reads the log again, keeping the events)
    m_spillOn = false;
    return false;
}

bool ThreadStatesBuilder::readSpilled(SegmentChunks& segs, const std::vector<uint64_t>& spilled,
                                      std::vector<std::shared_ptr<PackedSegment[]>>* pool) const
{
    constexpr size_t kChunk = SegmentChunks::kChunk;
    for (size_t c = 0; c < spilled.size(); ++c) {
        if (segs.chunk(c))
            continue;
        std::shared_ptr<PackedSegment[]> buffer;
        if (pool && !pool->empty()) {
            buffer = std::move(pool->back());
            pool->pop_back();
        }
        PackedSegment* into = segs.restoreChunk(c, std::move(buffer));
        if (!m_spill || !m_spill->read(spilled[c], into, kChunk * sizeof(PackedSegment)))
            return false;
    }
    return true;
}

// A load's final seal with segments in the spill file: each thread's read
// back in turn, binned, totalled and walked for its checkpoint entries,
// then let go (see setSpill).
bool ThreadStatesBuilder::sealSpilled(std::vector<std::vector<uint64_t>>& spilled, const LoadObserver* observer)
{
    ThreadStates& out = m_part.threadStates;
    ThreadCheckpoints& cp = m_part.threadCheckpoints;
    // (The chunks' memory goes from one thread to the next: no memory
    // given back and faulted in again. A pool for each thread of ours.)
    using Pool = std::vector<std::shared_ptr<PackedSegment[]>>;
    const auto visit = [&](size_t k, bool load, Pool& pool) {
        if (k >= spilled.size() || spilled[k].empty())
            return true;
        if (load) {
            // (Mapped chunks are read into memory too: the pages of the
            // mapping would stay in the process as long as a snapshot holds
            // them, one thread after another.)
            for (size_t c = 0; c < spilled[k].size(); ++c)
                if (out.chunked[k].isMapped(c))
                    out.chunked[k].takeChunk(c);
            return readSpilled(out.chunked[k], spilled[k], &pool);
        }
        for (size_t c = 0; c < spilled[k].size(); ++c)
            if (auto chunk = out.chunked[k].takeChunk(c))
                pool.push_back(std::move(chunk));
        return true;
    };
    Pool pool;
    if (!cp.chooseSpacing(out, [&](size_t k, bool load) { return visit(k, load, pool) || lose(); }))
        return false;
    // Each Haskell thread read back, binned, totalled and walked for its
    // checkpoint entries on its own: two threads of ours take them in turn
    // (this one and a helper; each holds one Haskell thread's segments at
    // a time), and their results are then put together in order.
    out.overviews.assign(out.ids.size(), {});
    struct Sealed {
        std::vector<uint8_t> keys;
        ThreadTotals whole;
        ThreadIntervals intervals; // (its totals kept as a KeptTotals: a fifth of the memory)
        KeptTotals intervalTotals;
        ThreadCheckpoints entries; // (this thread's alone)
    };
    std::vector<Sealed> sealed(out.count());
    size_t pyramidsAtMost = 0;
    for (size_t k = 0; k < out.count(); ++k)
        pyramidsAtMost += out.offsets[k + 1] - out.offsets[k] >= ThreadStates::kOverviewMinSegments;
    const uint64_t intervalWidth = ThreadStates::Intervals::widthFor(out.end, pyramidsAtMost);
    std::atomic<size_t> next = 0;
    std::atomic<bool> stop = false, failed = false;
    const auto work = [&](Pool& own, bool checkCancel) {
        OverviewScratch scratch;
        for (size_t k = next++; k < out.count() && !stop; k = next++) {
            if (checkCancel && (k & 0x3F) == 0 && isCancelled(observer)) {
                stop = true;
                return;
            }
            Sealed& r = sealed[k];
            if (!visit(k, true, own)) {
                failed = true;
                stop = true;
                return;
            }
            if (out.offsets[k + 1] - out.offsets[k] >= ThreadStates::kOverviewMinSegments) {
                buildOverview(out, k, scratch, false, nullptr, nullptr, 0, &r.whole, &r.keys,
                              intervalWidth ? &r.intervals : nullptr, intervalWidth);
                if (intervalWidth) {
                    for (const ThreadTotals& t : r.intervals.totals)
                        r.intervalTotals.push_back(t);
                    std::vector<ThreadTotals>().swap(r.intervals.totals);
                }
            }
            r.entries.spacing = cp.spacing;
            r.entries.beginThreadEntries(1);
            r.entries.addThread(out.of(k));
            visit(k, false, own);
        }
    };
    {
        Pool helperPool;
        std::future<void> helper;
        try {
            if (out.count() > 1)
                helper = std::async(std::launch::async, [&] { work(helperPool, false); });
        } catch (const std::system_error&) {
            // (No thread to be had: this one does them all.)
        }
        work(pool, true);
        if (helper.valid())
            helper.get();
    }
    if (failed)
        return lose();
    if (stop)
        return false; // (cancelled)
    cp.beginThreadEntries(out.count(), true);
    std::vector<uint32_t> pyramidThreads;
    KeptTotals totals;
    ThreadStates::Intervals intervals;
    intervals.width = intervalWidth;
    for (size_t k = 0; k < out.count(); ++k) {
        Sealed& r = sealed[k];
        if (out.overviews[k].bins > 0) {
            out.overviews[k].offset = out.overviewKeys.size();
            out.overviewKeys.insert(out.overviewKeys.end(), r.keys.begin(), r.keys.end());
            pyramidThreads.push_back(uint32_t(k));
            totals.push_back(r.whole);
            if (intervalWidth) {
                std::vector<ThreadTotals> each(r.intervalTotals.size());
                for (size_t j = 0; j < each.size(); ++j)
                    each[j] = r.intervalTotals[j];
                intervals.append(r.intervals.first, r.intervals.firstTime, r.intervals.finished, each);
            }
        }
        cp.appendThreadEntries(r.entries);
        r = Sealed{};
    }
    cp.endThreadEntries();
    out.moveSegmentsToFile(std::move(pyramidThreads), std::move(totals));
    out.intervals = std::move(intervals);
    m_spill.reset();
    return true;
}

void ThreadStatesBuilder::settle(uint64_t settleBefore)
{
    if (m_rewalk && m_released && m_insuring) {
        drain();
        claimInsurance();
    }
    if (m_settleDeclined) {
        if (m_raw.size() >= m_runEvents)
            writeRun();
        return;
    }
    // (Up to now: the events since the bound last moved, or since the
    // first, all waited for it.)
    m_mostWaiting = std::max(m_mostWaiting, m_added - m_addedWhenSettled);
    if (m_rewalk || settleBefore <= m_settledBefore) {
        // The bound has not moved while kStuckRuns runs' worth of events
        // came: a capability sends none (idle since its first block; the
        // RTS writes the next when the program ends), and every event
        // would wait in memory for it. From here on as a load that
        // declined to settle: the events go to runs (what was walked for
        // good is in the runs that insure it), merged by the final seal.
        // (Counted as they came, not from m_raw's size: a walk running on
        // its own thread may be changing that.)
        // Once events have been walked for good, those that wait are
        // packed (packWaiting), and more of them may.
        const size_t stuckRuns = m_released ? kStuckPackedRuns : kStuckRuns;
        if (!m_rewalk && m_added - m_addedWhenSettled >= stuckRuns * m_runEvents) {
            join();
            if (!m_released) {
                m_settleDeclined = true;
                dropInsurance();
            } else if (m_insuring) {
                claimInsurance();
            }
            if (m_settleDeclined) {
                waitingToRuns();
                drain();
                writeRun();
            }
            // (Else no runs can be written, without a spill file: the
            // events wait on, packed.)
            m_addedWhenSettled = m_added;
            return;
        }
        if (!m_rewalk)
            packWaiting();
        return;
    }
    if (!m_released) {
        // A settled thread costs its own arrays (a few hundred bytes) and
        // each settle a pass over every thread number: worth it only for
        // threads of many events (a server's handful), not for a log of
        // many short-lived ones, whose events the final seal sorts in place.
        std::vector<uint32_t> ids;
        ids.reserve(m_raw.size());
        for (size_t i = 0; i < m_raw.size(); ++i)
            ids.push_back(std::as_const(m_raw)[i].thread);
        std::sort(ids.begin(), ids.end());
        const size_t threads = size_t(std::unique(ids.begin(), ids.end()) - ids.begin());
        if (m_settleEventsPerThread && threads > m_raw.size() / m_settleEventsPerThread) { // (threads * that > events)
            m_settleDeclined = true;
            dropInsurance(); // (every event is in m_raw still: the runs take them all)
            if (m_raw.size() >= m_runEvents)
                writeRun();
            return;
        }
    }
    // From here on, an event earlier than the bound is lost (add()), or
    // claims the insurance.
    decideInsurance();
    m_settledBefore = settleBefore;
    m_addedWhenSettled = m_added;
    m_packed = 0;
    m_released = true;
    // The walk before this one done, the events since handed over (the
    // first time, they are all in m_raw already) and a new walk begun,
    // on its own thread: it takes about a fifth of a load's time.
    handInbox();
    m_async = true;
    const auto walk = [this, bound = settleBefore] {
        settleUpTo(bound, true);
        // Its chunks kept for the next events, about a settle's worth: the
        // events that came while the bound was stuck (millions, on a log
        // whose capability is silent for long) let go, not passed on from
        // inbox to inbox to the end of the load.
        m_batch.shrinkTo(0);
        m_batch.releaseFrom(kSettleSlice);
    };
    runApart(walk);
}

void ThreadStatesBuilder::handInbox()
{
    ChunkedArray<Raw> spare = join();
    m_batch = std::move(m_inbox);
    m_inbox = std::move(spare);
}

void ThreadStatesBuilder::packWaiting()
{
    if (!m_released)
        return; // (before the first walk, every event is in m_raw: see settle())
    if (!m_async) {
        // After a seal (a progressive load's snapshot, which took the
        // inbox into m_raw): the events from here on kept apart again, to
        // be packed after m_raw's.
        m_async = true;
        return;
    }
    // (Not waiting for a walk still running: the next settle() looks again.)
    using namespace std::chrono_literals;
    if (m_inbox.size() < kPackEvents || (m_walk.valid() && m_walk.wait_for(0s) != std::future_status::ready))
        return;
    handInbox();
    m_packed += m_batch.size();
    m_mostPacked = std::max(m_mostPacked, m_packed);
    const auto pack = [this] {
        for (size_t i = 0; i < m_batch.size(); ++i)
            m_waiting.push_back(std::as_const(m_batch)[i]);
        // The chunks kept to be the next inbox: kPackEvents' worth.
        m_batch.shrinkTo(0);
        m_batch.releaseFrom(kPackEvents);
    };
    runApart(pack);
}

} // namespace hecscope
