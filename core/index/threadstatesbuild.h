#pragma once

// The helpers that the files of ThreadStatesBuilder share (the builder's
// own: not for other code): one segment walked and packed, the threads'
// bin pyramids, the runs' frames.

#include "core/format/logformat.h"
#include "core/index/binpyramid.h"
#include "core/index/loadobserver.h"
#include "core/index/threadstatesbuilder.h"
#include "core/index/threadstatespart.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <functional>
#include <new>
#include <system_error>
#include <unordered_map>
#include <utility>
#include <vector>

namespace hecscope::threadbuild {

inline ThreadState stateAfterStop(uint8_t code)
{
    switch (stopClass(code)) {
    case StopClass::Blocked:
    case StopClass::ForeignCall: return ThreadState::Blocked;
    case StopClass::Finished: return ThreadState::Finished;
    default: return ThreadState::Runnable;
    }
}

// The segment a thread's event begins, given the segment it is in (`cur`,
// if `any`): false when it begins none (a replacement of a thread that had
// stopped after all). (Always inline: the walks call it per event.)
template <class Raw>
[[gnu::always_inline]] inline bool walkStep(const Raw& raw, const ThreadSegment& cur, bool any, ThreadSegment& s)
{
    s = ThreadSegment{};
    s.time = raw.time;
    s.cause = ThreadCause(raw.cause);
    s.cap = uint16_t(raw.cap);
    switch (s.cause) {
    case ThreadCause::Created: s.state = ThreadState::Runnable; break;
    case ThreadCause::Run: s.state = ThreadState::Running; break;
    case ThreadCause::Stop:
        s.stop = uint8_t(raw.stop);
        s.info = uint16_t(raw.info < 65536 ? raw.info : 0);
        s.state = stateAfterStop(s.stop);
        break;
    case ThreadCause::Wakeup:
    case ThreadCause::Runnable:
        s.state = !any || cur.state == ThreadState::Blocked || cur.state == ThreadState::Unknown
                || cur.state == ThreadState::Runnable
            ? ThreadState::Runnable
            : cur.state;
        if (s.state != ThreadState::Runnable)
            s.cap = cur.cap;
        break;
    case ThreadCause::Migrate: s.state = any ? cur.state : ThreadState::Runnable; break;
    case ThreadCause::Replaced:
        if (!any || cur.state != ThreadState::Running)
            return false; // it had stopped after all (a stop stamped later than the next run)
        s.state = ThreadState::Unknown;
        break;
    }
    if (s.state == ThreadState::Blocked && s.cause != ThreadCause::Stop) {
        s.stop = cur.stop;
        s.info = cur.info;
    }
    return true;
}

// Segment `local` of its thread, stored at `index`: its time against the
// thread's checkpoints (`checks`, whose last is the thread's), and far
// times and infos noted by `index`.
// `s` packed with its time as an offset from `base` (kFar, and the time in
// `farTimes`, when it does not fit); its info, if any, in `infos`. Both
// under `index`.
inline PackedSegment packFrom(const ThreadSegment& s, uint64_t base, uint64_t index,
                              std::vector<std::pair<uint64_t, uint64_t>>& farTimes,
                              std::vector<std::pair<uint64_t, uint16_t>>& infos)
{
    uint32_t offset = PackedSegment::kFar;
    if (s.time - base < PackedSegment::kFar)
        offset = uint32_t(s.time - base);
    else
        farTimes.emplace_back(index, s.time);
    if (s.info)
        infos.emplace_back(index, s.info);
    // (Made as one word in a register: made field by field on the stack,
    // it was read back whole, a store-forwarding stall per segment.)
    const uint8_t bits = uint8_t(uint8_t(s.state) | uint8_t(s.cause) << 3 | (s.info ? 1u << 6 : 0u));
    return std::bit_cast<PackedSegment>(packedWord(offset, s.cap, s.stop, bits));
}

// Segment `local` of a thread (`index` among all), its time an offset from
// the thread's last check time (every kCheckEvery-th segment's).
inline PackedSegment packSegment(const ThreadSegment& s, size_t local, uint64_t index, std::vector<uint64_t>& checks,
                                 std::vector<std::pair<uint64_t, uint64_t>>& farTimes,
                                 std::vector<std::pair<uint64_t, uint16_t>>& infos)
{
    if (local % ThreadStates::kCheckEvery == 0)
        checks.push_back(s.time);
    return packFrom(s, checks.back(), index, farTimes, infos);
}

// The bin pyramid of one thread's segments (decoded, in time order): time
// per state key in each bin of level 0, then pairs summed level by level;
// each bin keeps its dominant key.
constexpr size_t kKeys = 3 + kBlockReasons;
using BinTime = std::array<uint64_t, kKeys>;

// Scratch space kept between threads: the times of the bin of each level
// being summed.
struct OverviewScratch {
    std::array<BinTime, 32> levels;
};

// Thread k's segments, in order, added to its totals per interval
// (ThreadIntervals: from its first segment's interval up to where it
// finished or the log's end, and its last segment's), as threadTotals
// counts each interval: a segment's time split at the intervals' edges,
// its event in the interval it starts in, the blocking reason from its
// stored key (3 + the reason). `width` is not 0.
class IntervalTotalsAdder {
public:
    IntervalTotalsAdder(const ThreadStates& states, size_t k, uint64_t width, ThreadIntervals& out)
        : m_out(out)
        , m_width(width)
    {
        const SegmentView segs = states.of(k);
        if (segs.empty() || width == 0)
            return;
        const ThreadSegment last = segs.back();
        out.firstTime = segs.timeAt(0);
        out.finished = last.state == ThreadState::Finished ? last.time : kNoTime;
        const uint64_t lastEnd = out.finished != kNoTime ? out.finished : std::max(states.end, last.time);
        out.first = m_j = out.firstTime / width;
        // (And the interval of its last segment: several may start where
        // it finished, on an interval's edge, and their events count.)
        m_endInterval = std::max(lastEnd / width + (lastEnd % width != 0), last.time / width + 1);
        out.totals.resize(m_endInterval - out.first);
        m_edge = (m_j + 1) * width;
        m_endTime = m_endInterval * width;
    }
    // The next segment, [time, end), with its key.
    void add(const PackedSegment& p, uint8_t key, uint64_t time, uint64_t end)
    {
        while (time >= m_edge && m_j + 1 < m_endInterval) {
            ++m_j;
            m_edge += m_width;
        }
        if (time >= m_endTime)
            return;
        ThreadTotals* t = &m_out.totals[m_j - m_out.first];
        switch (ThreadCause((p.bits >> 3) & 7)) {
        case ThreadCause::Run: ++t->runs; break;
        case ThreadCause::Migrate: ++t->migrations; break;
        case ThreadCause::Wakeup: ++t->wakeups; break;
        default: break;
        }
        const size_t state = p.bits & 7;
        const bool blocked = ThreadState(state) == ThreadState::Blocked;
        if (end <= m_edge) [[likely]] { // (within this interval)
            t->time[state] += end - time;
            if (blocked)
                t->blocked[size_t(key) - 3] += end - time;
            return;
        }
        uint64_t a = time, edge = m_edge;
        for (uint64_t j = m_j; a < end && j < m_endInterval; ++j, ++t, edge += m_width) {
            const uint64_t b = std::min(end, edge);
            t->time[state] += b - a;
            if (blocked)
                t->blocked[size_t(key) - 3] += b - a;
            a = edge;
        }
    }

    // The thread's whole-run totals (threadTotals over everything), once
    // every segment is in: the intervals' and, for a finished thread, its
    // time after the last interval (finished, up to `statesEnd`).
    ThreadTotals whole(uint64_t statesEnd) const
    {
        ThreadTotals sum;
        for (const ThreadTotals& t : m_out.totals)
            addTotals(sum, t);
        if (m_out.finished != kNoTime) {
            const uint64_t after = std::max(m_out.finished, m_endInterval * m_width);
            const uint64_t end = std::max(statesEnd, m_out.finished);
            if (end > after)
                sum.time[size_t(ThreadState::Finished)] += end - after;
        }
        return sum;
    }

private:
    ThreadIntervals& m_out;
    uint64_t m_width, m_j = 0, m_endInterval = 0, m_edge = 0, m_endTime = 0; // (m_endInterval's start)
};

// The bins of thread k. With `reused`, the same thread's pyramid of the
// last seal (same start and bin width, no more levels), whose segments
// before `cleanBefore` (ns) are still the same: the keys of the bins that
// end by then are copied and only the rest is binned again.
// With `totals`, also the thread's whole-run totals (threadTotals over
// everything), and with `intervals` its totals per interval of
// `intervalWidth` ns (threadIntervals), counted in the same pass (not with
// `reused`). The keys go to `keysOut` if given (its offset then from
// there), else to out.overviewKeys.
void buildOverview(ThreadStates& out, size_t k, OverviewScratch& scratch, bool growing,
                   const BinPyramid* reused = nullptr, const uint8_t* reusedKeys = nullptr, uint64_t cleanBefore = 0,
                   ThreadTotals* totals = nullptr, std::vector<uint8_t>* keysOut = nullptr,
                   ThreadIntervals* intervals = nullptr, uint64_t intervalWidth = 0);

// The pyramids of the last seal, to reuse: by thread id, with the time
// before which each thread's segments were settled then.
struct PreviousOverviews {
    std::vector<uint32_t> ids;
    std::vector<BinPyramid> overviews;
    std::vector<uint8_t> keys;
    std::vector<uint64_t> cleanBefore;
};

bool buildOverviews(ThreadStates& out, const LoadObserver* observer, const PreviousOverviews* previous = nullptr);

// The threads of `states` as a source of segments (`visit` around each
// read, if given: see ThreadCheckpoints::chooseSpacing).
ThreadCheckpoints::Source sourceOf(const ThreadStates& states, const ThreadCheckpoints::Visit& visit);

// Each thread's run of `raws` (grouped by thread) in time order, ties in
// the order they are in. A thread's events come as a few stretches already
// in time order (one per block of a capability it was seen on), so they are
// merged as those stretches, in pairs of neighbours, in place (stable: a
// tie takes the earlier stretch's first; std::inplace_merge's buffer is at
// most the shorter stretch), rather than sorted afresh.
template <class Raw>
void sortEachThreadByTime(std::vector<Raw>& raws)
{
    std::vector<size_t> bounds, merged; // where a thread's ascending stretches start, then its end
    const auto byTime = [](const Raw& a, const Raw& b) { return a.time < b.time; };
    const size_t n = raws.size();
    for (size_t first = 0; first < n;) {
        const uint32_t thread = raws[first].thread;
        bounds.assign(1, first);
        size_t last = first + 1;
        for (; last < n && raws[last].thread == thread; ++last)
            if (raws[last].time < raws[last - 1].time)
                bounds.push_back(last);
        bounds.push_back(last);
        const auto at = [&](size_t i) { return raws.begin() + ptrdiff_t(i); };
        while (bounds.size() > 2) {
            merged.assign(1, bounds[0]);
            size_t i = 0;
            for (; i + 2 < bounds.size(); i += 2) {
                std::inplace_merge(at(bounds[i]), at(bounds[i + 1]), at(bounds[i + 2]), byTime);
                merged.push_back(bounds[i + 2]);
            }
            if (i + 1 < bounds.size()) // an odd stretch left: as it is
                merged.push_back(bounds[i + 1]);
            bounds.swap(merged);
        }
        first = last;
    }
}

// A frame of a run (grouped by thread, ascending, each thread's in time
// order) in about 5 bytes an event: a byte of the cause and of flags, then
// as varints the thread's step and the time (absolute at a new thread, else
// the step from the thread's last event, zigzagged), and only where they
// are not the last event's the capability, the stop code and the info.
template <class Raw>
void encodeRunFrame(const Raw* raws, size_t n, std::vector<uint8_t>& out)
{
    // (Written through a pointer into room for the longest an event can
    // take, then cut to what was written: a push_back per byte cost a
    // load of the big log 5 % of its time.)
    constexpr size_t kMaxEventBytes = 1 + 5 + 10 + 3 + 1 + 3; // flags, thread step, time, cap, stop, info
    const size_t start = out.size();
    out.resize(start + n * kMaxEventBytes);
    uint8_t* p = out.data() + start;
    const auto varint = [&p](uint64_t v) {
        while (v >= 0x80) {
            *p++ = uint8_t(v) | 0x80;
            v >>= 7;
        }
        *p++ = uint8_t(v);
    };
    uint32_t thread = 0;
    uint64_t time = 0;
    uint16_t cap = 0;
    uint8_t stop = 0;
    for (size_t i = 0; i < n; ++i) {
        const Raw& r = raws[i];
        const bool newThread = i == 0 || r.thread != thread;
        const bool capDiffers = r.cap != cap;
        const bool stopDiffers = r.stop != stop;
        const bool hasInfo = r.info != 0;
        *p++ = uint8_t(r.cause) | uint8_t(newThread) << 4 | uint8_t(capDiffers) << 5 | uint8_t(stopDiffers) << 6
            | uint8_t(hasInfo) << 7;
        if (newThread) {
            varint(r.thread - (i == 0 ? 0 : thread));
            varint(r.time);
        } else {
            const int64_t step = int64_t(r.time) - int64_t(time);
            varint(uint64_t(step) << 1 ^ uint64_t(step >> 63));
        }
        if (capDiffers)
            varint(r.cap);
        if (stopDiffers)
            *p++ = uint8_t(r.stop);
        if (hasInfo)
            varint(r.info);
        thread = r.thread;
        time = r.time;
        cap = uint16_t(r.cap);
        stop = uint8_t(r.stop);
    }
    out.resize(size_t(p - out.data()));
}

// The n events of a frame back from its bytes; false if they are not there
// (a file that does not hold what was written).
template <class Raw>
bool decodeRunFrame(const uint8_t* p, const uint8_t* end, size_t n, Raw* out)
{
    bool ok = true;
    const auto varint = [&p, end, &ok] {
        uint64_t v = 0;
        for (unsigned shift = 0; shift < 64; shift += 7) {
            if (p == end) {
                ok = false;
                return v;
            }
            const uint8_t b = *p++;
            v |= uint64_t(b & 0x7F) << shift;
            if (!(b & 0x80))
                return v;
        }
        ok = false;
        return v;
    };
    uint32_t thread = 0;
    uint64_t time = 0;
    uint16_t cap = 0;
    uint8_t stop = 0;
    for (size_t i = 0; i < n && ok; ++i) {
        if (p == end)
            return false;
        const uint8_t head = *p++;
        if (head & 0x10) {
            thread += uint32_t(varint());
            time = varint();
        } else {
            const uint64_t z = varint();
            time += uint64_t(int64_t(z >> 1) ^ -int64_t(z & 1));
        }
        if (head & 0x20)
            cap = uint16_t(varint());
        if (head & 0x40) {
            if (p == end)
                return false;
            stop = *p++;
        }
        const uint64_t info = (head & 0x80) ? varint() : 0;
        Raw& r = out[i];
        r.time = time;
        r.cap = cap;
        r.thread = thread;
        r.info = uint32_t(info);
        r.cause = head & 0x0F;
        r.stop = stop;
    }
    return ok && p == end;
}

// `raws` (an array of n, in log order: std::vector or ChunkedArray) into
// `out`, grouped by thread, ascending, each thread's in time order with
// ties in log order.
template <class Raws, class Raw>
void groupByThreadInto(const Raws& raws, std::vector<Raw>& out)
{
    const size_t n = raws.size();
    out.resize(n);
    if (n == 0)
        return;
    uint32_t lo = UINT32_MAX, hi = 0;
    for (size_t i = 0; i < n; ++i) {
        lo = std::min(lo, raws[i].thread);
        hi = std::max(hi, raws[i].thread);
    }
    const size_t span = size_t(hi - lo) + 1;
    if (span <= 4 * n + 65536) {
        // Counting sort by thread, keeping log order within a thread.
        std::vector<size_t> next(span + 1, 0);
        for (size_t i = 0; i < n; ++i)
            ++next[raws[i].thread - lo + 1];
        for (size_t k = 1; k <= span; ++k)
            next[k] += next[k - 1];
        for (size_t i = 0; i < n; ++i)
            out[next[raws[i].thread - lo]++] = raws[i];
    } else {
        for (size_t i = 0; i < n; ++i)
            out[i] = raws[i];
        std::stable_sort(out.begin(), out.end(), [](const Raw& a, const Raw& b) { return a.thread < b.thread; });
    }
    sortEachThreadByTime(out);
}

// The same in place (`scratch`: memory reused between calls).
template <class Raw>
void groupByThread(std::vector<Raw>& raws, std::vector<Raw>& scratch)
{
    groupByThreadInto(raws, scratch);
    raws.swap(scratch);
}

} // namespace hecscope::threadbuild
