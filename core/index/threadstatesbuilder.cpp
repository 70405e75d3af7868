#include "core/index/threadstatesbuilder.h"


#include "core/format/eventtags.h"
#include "core/index/gallop.h"

#include <algorithm>
#include <cstring>
#include <new>
#include <bit>
#include <functional>
#include <array>
#include <unordered_map>
#include <system_error>
#include <utility>

namespace hecscope {

void ThreadStatesBuilder::add(uint64_t time, uint64_t thread, ThreadCause cause, uint16_t cap, uint8_t stop,
                              uint32_t info)
{
    if (time > Span::kMaxStart || thread > UINT32_MAX)
        return; // as the capability timelines: not representable
    if (m_readBack) {
        if (time < m_from || time >= m_to || (m_filtered && !std::binary_search(m_only.begin(), m_only.end(), uint32_t(thread))))
            return;
        if (const auto it = m_eventsFrom.find(uint32_t(thread)); it != m_eventsFrom.end() && time < it->second)
            return;
    }
    if (time < m_settledBefore) {
        m_rewalk = true; // before what is settled: walk everything again
        m_lost = m_lost || m_released; // (which needs the raw events let go)
    }
    // (Made in one piece: field by field, the compiler wrote the
    // bit-fields through memory and read them back, a stall per event.)
    const Raw r{time, cap, uint32_t(thread), info < (1u << 20) ? info : 0, uint32_t(cause), stop};
    (m_async ? m_inbox : m_raw).push_back(r);
}

ThreadStatesBuilder::~ThreadStatesBuilder()
{
    if (m_walk.valid())
        m_walk.wait(); // (it uses this builder; what it threw goes with it)
}

void ThreadStatesBuilder::readBack(uint64_t from, uint64_t clip, uint64_t to)
{
    m_readBack = true;
    m_from = from;
    m_clip = clip;
    m_to = to;
}

void ThreadStatesBuilder::seedThread(uint32_t id, const ThreadSegment& s, uint64_t eventsFrom)
{
    if (s.time > Span::kMaxStart)
        return;
    m_seeds[id] = s;
    if (eventsFrom > m_from)
        m_eventsFrom[id] = eventsFrom;
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

namespace {

ThreadState stateAfterStop(uint8_t code)
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
// stopped after all).
template <class Raw>
bool walkStep(const Raw& raw, const ThreadSegment& cur, bool any, ThreadSegment& s)
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
PackedSegment packFrom(const ThreadSegment& s, uint64_t base, uint64_t index,
                       std::vector<std::pair<uint64_t, uint64_t>>& farTimes,
                       std::vector<std::pair<uint64_t, uint16_t>>& infos)
{
    PackedSegment p{};
    if (s.time - base < PackedSegment::kFar) {
        p.offset = uint32_t(s.time - base);
    } else {
        p.offset = PackedSegment::kFar;
        farTimes.emplace_back(index, s.time);
    }
    p.cap = s.cap;
    p.stop = s.stop;
    p.bits = uint8_t(uint8_t(s.state) | uint8_t(s.cause) << 3 | (s.info ? 1u << 6 : 0u));
    if (s.info)
        infos.emplace_back(index, s.info);
    return p;
}

// Segment `local` of a thread (`index` among all), its time an offset from
// the thread's last check time (every kCheckEvery-th segment's).
PackedSegment packSegment(const ThreadSegment& s, size_t local, uint64_t index, std::vector<uint64_t>& checks,
                          std::vector<std::pair<uint64_t, uint64_t>>& farTimes,
                          std::vector<std::pair<uint64_t, uint16_t>>& infos)
{
    if (local % ThreadStates::kCheckEvery == 0)
        checks.push_back(s.time);
    return packFrom(s, checks.back(), index, farTimes, infos);
}

} // namespace

namespace {

// The bin pyramid of one thread's segments (decoded, in time order): time
// per state key in each bin of level 0, then pairs summed level by level;
// each bin keeps its dominant key.
constexpr size_t kKeys = 3 + kBlockReasons;
using BinTimes = std::vector<std::array<uint64_t, kKeys>>;

// Scratch space kept between threads: the bins' times.
struct OverviewScratch {
    BinTimes binTime;
};

// Where a thread's bins are: from its first segment, at most 65536 level-0
// bins of about four segments each. A growing log's (`growing`) are a power
// of two ns wide, so that a thread keeps its bins until its extent doubles
// (and then halves them); a whole log's are as narrow as that allows.
BinPyramid overviewShape(uint64_t start, uint64_t extent, size_t segments, bool growing)
{
    BinPyramid ov;
    ov.start = start;
    extent = std::max<uint64_t>(extent, 1);
    const uint64_t want = std::min<uint64_t>(uint64_t(1) << 16, segments / 4);
    ov.binWidth = std::max<uint64_t>(1, (extent + want - 1) / want);
    if (growing)
        ov.binWidth = std::bit_ceil(ov.binWidth);
    ov.bins = uint32_t((extent + ov.binWidth - 1) / ov.binWidth);
    ov.levels = BinPyramid::levelsFor(ov.bins);
    return ov;
}

// The bins of thread k. With `reused`, the same thread's pyramid of the
// last seal (same start and bin width, no more levels), whose segments
// before `cleanBefore` (ns) are still the same: the keys of the bins that
// end by then are copied and only the rest is binned again.
// With `totals`, also the thread's whole-run totals (threadTotals over
// everything), counted in the same pass (not with `reused`).
// The keys go to `keysOut` if given (its offset then from there), else to
// out.overviewKeys.
void buildOverview(ThreadStates& out, size_t k, OverviewScratch& scratch, bool growing,
                   const BinPyramid* reused = nullptr, const uint8_t* reusedKeys = nullptr, uint64_t cleanBefore = 0,
                   ThreadTotals* totals = nullptr, std::vector<uint8_t>* keysOut = nullptr)
{
    std::vector<uint8_t>& keys = keysOut ? *keysOut : out.overviewKeys;
    const SegmentView segs = out.of(k);
    const size_t base = out.offsets[k], n = segs.size();
    BinPyramid& ov = out.overviews[k];
    const uint64_t start = segs.timeAt(0);
    ov = overviewShape(start, out.segmentEnd(segs, n - 1) - start, n, growing);
    ov.offset = keys.size();
    // The level-0 bins binned again: from a bin that starts a bin of every
    // level, so that each coarser bin from there has all its halves.
    // When the thread's extent has doubled since, its bins have too: the
    // last pyramid's level `shift` is this one's level 0.
    uint64_t from = 0;
    int shift = 0;
    if (reused && reused->start == ov.start && reused->binWidth && ov.binWidth >= reused->binWidth
        && cleanBefore > ov.start) {
        shift = std::countr_zero(ov.binWidth / reused->binWidth);
        if ((reused->binWidth << shift) == ov.binWidth && shift < reused->levels) {
            // (Up to the last pyramid's top level: at most one level fewer
            // than a new pyramid would have.)
            ov.levels = uint8_t(std::min<int>(ov.levels, reused->levels - shift));
            const uint64_t cleanBins
                = std::min<uint64_t>((cleanBefore - ov.start) / ov.binWidth, reused->levelBins(shift));
            from = (cleanBins >> (ov.levels - 1)) << (ov.levels - 1);
        }
    }
    if (from == 0)
        reused = nullptr;
    if (totals && from != 0)
        totals = nullptr; // (not asked for: see above)
    // The segments from the one covering bin `from`, decoded in order
    // (one ahead: its time ends the one before): times from the
    // checkpoints (far ones from farTimes, in index order as well).
    const uint64_t fromTime = ov.start + from * ov.binWidth;
    const size_t first = from ? ThreadStates::firstEndingAfter(segs, fromTime) : 0;
    const uint64_t* checks = out.checkTimes.data() + out.checkOffsets[k];
    auto far = std::lower_bound(out.farTimes.begin(), out.farTimes.end(), std::pair<uint64_t, uint64_t>(base + first, 0));
    const auto timeOf = [&](size_t i) {
        const PackedSegment& p = segs.packedAt(i);
        if (p.offset != PackedSegment::kFar) [[likely]]
            return checks[i / ThreadStates::kCheckEvery] + p.offset;
        while (far != out.farTimes.end() && far->first < base + i)
            ++far;
        return far != out.farTimes.end() && far->first == base + i ? far->second : checks[i / ThreadStates::kCheckEvery];
    };
    const auto keyOf = [&](size_t i) {
        const PackedSegment& p = segs.packedAt(i);
        ThreadSegment s{};
        s.state = ThreadState(p.bits & 7);
        s.stop = p.stop;
        return ThreadStates::stateKey(s);
    };
    BinTimes& binTime = scratch.binTime;
    binTime.assign(ov.bins - from, {});
    // The segments are in time order: the bins are walked along with them
    // (no division per segment).
    const uint64_t limit = uint64_t(ov.bins) * ov.binWidth;
    size_t at = 0;
    uint64_t binStart = from * ov.binWidth;
    uint64_t next = first < n ? timeOf(first) : 0;
    for (size_t i = first; i < n; ++i) {
        const uint64_t time = next;
        if (i + 1 < n)
            next = timeOf(i + 1);
        const uint8_t key = keyOf(i);
        const uint64_t end = i + 1 < n ? next : std::max(out.end, time);
        if (totals) {
            const uint8_t bits = segs.packedAt(i).bits;
            const auto state = ThreadState(bits & 7);
            if (end > time) {
                totals->time[size_t(state)] += end - time;
                if (state == ThreadState::Blocked)
                    totals->blocked[key - 3] += end - time; // (a blocked key is 3 + its reason)
            }
            switch (ThreadCause((bits >> 3) & 7)) {
            case ThreadCause::Run: ++totals->runs; break;
            case ThreadCause::Migrate: ++totals->migrations; break;
            case ThreadCause::Wakeup: ++totals->wakeups; break;
            default: break;
            }
        }
        if (key == ThreadStates::kNoKey)
            continue;
        uint64_t a = std::max(time - ov.start, from * ov.binWidth);
        const uint64_t b = std::min(end - ov.start, limit);
        while (a < b) {
            while (binStart + ov.binWidth <= a) {
                ++at;
                binStart += ov.binWidth;
            }
            const uint64_t binEnd = std::min(b, binStart + ov.binWidth);
            binTime[at][key] += binEnd - a;
            a = binEnd;
        }
    }
    // Level by level: the reused keys, then the bins binned again (each
    // coarser level summed in place over the finer one).
    size_t count = binTime.size();
    for (int level = 0; level < ov.levels; ++level) {
        if (level > 0) {
            for (size_t bin = 0; bin < (count + 1) / 2; ++bin) {
                auto& sum = binTime[bin];
                sum = binTime[2 * bin];
                if (2 * bin + 1 < count)
                    for (size_t key = 0; key < kKeys; ++key)
                        sum[key] += binTime[2 * bin + 1][key];
            }
            count = (count + 1) / 2;
        }
        const uint64_t kept = from >> level;
        if (reused) {
            const uint8_t* old = reusedKeys + reused->levelOffset(level + shift);
            keys.insert(keys.end(), old, old + kept);
        }
        for (size_t bin = 0; bin < count; ++bin) {
            const auto& times2 = binTime[bin];
            const auto best = std::max_element(times2.begin(), times2.end());
            keys.push_back(*best ? uint8_t(best - times2.begin()) : ThreadStates::kNoKey);
        }
    }
}

// The pyramids of the last seal, to reuse: by thread id, with the time
// before which each thread's segments were settled then.
struct PreviousOverviews {
    std::vector<uint32_t> ids;
    std::vector<BinPyramid> overviews;
    std::vector<uint8_t> keys;
    std::vector<uint64_t> cleanBefore;
};

// `done(k)` after thread k's pyramid, if given.
bool buildOverviews(ThreadStates& out, const LoadObserver* observer, const PreviousOverviews* previous = nullptr,
                    const std::function<void(size_t)>& done = {})
{
    out.overviews.assign(out.ids.size(), {});
    OverviewScratch scratch;
    size_t j = 0;
    for (size_t k = 0; k < out.ids.size(); ++k) {
        if ((k & 0xFF) == 0 && isCancelled(observer))
            return false;
        if (out.offsets[k + 1] - out.offsets[k] < ThreadStates::kOverviewMinSegments)
            continue;
        if (previous && previous->cleanBefore.size() == previous->ids.size()) {
            while (j < previous->ids.size() && previous->ids[j] < out.ids[k])
                ++j;
            if (j < previous->ids.size() && previous->ids[j] == out.ids[k] && previous->overviews[j].bins > 0) {
                const BinPyramid& old = previous->overviews[j];
                buildOverview(out, k, scratch, true, &old, previous->keys.data() + old.offset, previous->cleanBefore[j]);
                if (done)
                    done(k);
                continue;
            }
        }
        buildOverview(out, k, scratch, previous != nullptr);
        if (done)
            done(k);
    }
    return true;
}

// Each thread's run of `raws` (grouped by thread) in time order, ties in
// the order they are in.
template <class Raw>
void sortEachThreadByTime(std::vector<Raw>& raws)
{
    const auto byTime = [](const Raw& a, const Raw& b) { return a.time < b.time; };
    for (auto first = raws.begin(); first != raws.end();) {
        const uint32_t thread = first->thread;
        const auto last = std::find_if(first, raws.end(), [thread](const Raw& r) { return r.thread != thread; });
        if (!std::is_sorted(first, last, byTime))
            std::stable_sort(first, last, byTime);
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
    const auto varint = [&out](uint64_t v) {
        while (v >= 0x80) {
            out.push_back(uint8_t(v) | 0x80);
            v >>= 7;
        }
        out.push_back(uint8_t(v));
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
        out.push_back(uint8_t(r.cause) | uint8_t(newThread) << 4 | uint8_t(capDiffers) << 5
                      | uint8_t(stopDiffers) << 6 | uint8_t(hasInfo) << 7);
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
            out.push_back(uint8_t(r.stop));
        if (hasInfo)
            varint(r.info);
        thread = r.thread;
        time = r.time;
        cap = uint16_t(r.cap);
        stop = uint8_t(r.stop);
    }
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

} // namespace

bool ThreadStatesBuilder::seal(uint64_t end, bool final, const LoadObserver* observer, uint64_t settleBefore)
{
    drain();
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
    const size_t unsettled = m_pending.size() + (m_raw.size() - m_scanned);
    if (!m_rewalk && (m_released || (m_scanned > 0 && unsettled < m_raw.size() / 4))) {
        if (!sealIncremental(end, UINT64_MAX, observer, true))
            return false;
        m_settled.clear();
        return true;
    }
    m_settled.clear();
    m_pending = {};
    m_scanned = 0;
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
void ThreadStatesBuilder::settleUpTo(uint64_t bound)
{
    // The events to settle now (before the bound), and the indices of
    // those still pending, each in log order.
    // Event i: in m_raw, or past its end in the batch handed to settle()'s
    // walk (not copied into m_raw: only the events left pending go there).
    const ChunkedArray<Raw>& own = m_raw; // (read only: no check for a copy's chunks)
    const ChunkedArray<Raw>& batch = m_batch;
    const size_t ownSize = own.size(), total = ownSize + batch.size();
    const auto raws = [&](uint64_t i) -> const Raw& { return i < ownSize ? own[i] : batch[i - ownSize]; };
    // The events before the bound copied once, straight to their place
    // grouped by thread (a count per thread first), log order kept within
    // a thread; the indices of the others kept pending.
    std::vector<Raw>& settle = m_scratch; // (its memory kept from one settle to the next)
    std::vector<uint64_t>& pending = m_pendingNext; // (memory reused)
    pending.clear();
    uint32_t lo = UINT32_MAX, hi = 0;
    size_t n = 0;
    const auto classify = [&](uint64_t i) {
        const Raw& r = raws(i);
        if (r.time < bound) {
            ++n;
            lo = std::min(lo, r.thread);
            hi = std::max(hi, r.thread);
        } else {
            pending.push_back(i);
        }
    };
    for (const uint64_t i : m_pending)
        classify(i);
    for (size_t i = m_scanned; i < total; ++i)
        classify(i);
    const bool dense = n > 0 && size_t(hi - lo) + 1 <= 4 * n + 65536;
    std::vector<size_t> next(dense ? size_t(hi - lo) + 2 : 0, 0);
    const auto each = [&](auto f) {
        for (const uint64_t i : m_pending)
            if (raws(i).time < bound)
                f(raws(i));
        for (size_t i = m_scanned; i < total; ++i)
            if (raws(i).time < bound)
                f(raws(i));
    };
    settle.resize(n);
    if (dense) {
        each([&](const Raw& r) { ++next[r.thread - lo + 1]; });
        for (size_t k = 1; k < next.size(); ++k)
            next[k] += next[k - 1];
        each([&](const Raw& r) { settle[next[r.thread - lo]++] = r; });
    } else if (n > 0) {
        size_t at = 0;
        each([&](const Raw& r) { settle[at++] = r; });
        std::stable_sort(settle.begin(), settle.end(), [](const Raw& a, const Raw& b) { return a.thread < b.thread; });
    }
    std::vector<size_t>().swap(next);
    m_scanned = total;
    m_pending.swap(pending);
    sortEachThreadByTime(settle);
    Settled* walked = nullptr;
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
        const size_t local = walked->packed.size();
        walked->packed.push_back(packSegment(s, local, local, walked->checks, walked->farTimes, walked->infos));
        walked->cur = s;
        walked->any = true;
    }
    if (walked && m_spillOn)
        spillFull(*walked);
    settle.clear();
}

void ThreadStatesBuilder::spillFull(Settled& w)
{
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
        const size_t c = w.spilled.size();
        w.spilled.push_back(offset);
        // A live session's chunk mapped back in its place (the snapshots
        // read it there); a load's released, or one that cannot be mapped.
        std::shared_ptr<const void> view = m_releaseSettled ? m_spill->map(offset, kChunk * sizeof(PackedSegment)) : nullptr;
        if (view) {
            auto* at = static_cast<PackedSegment*>(const_cast<void*>(view.get())); // (read only: a full chunk is never written)
            w.packed.mapChunk(c, std::shared_ptr<PackedSegment[]>(std::move(view), at), &SpillFile::releasePages);
        } else {
            w.packed.takeChunk(c);
        }
    }
}

bool ThreadStatesBuilder::restoreSpilled(SegmentChunks& segs, const std::vector<uint64_t>& spilled,
                                         std::vector<std::shared_ptr<PackedSegment[]>>* pool)
{
    return readSpilled(segs, spilled, pool) || lose();
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
        ThreadCheckpoints entries; // (this thread's alone)
    };
    std::vector<Sealed> sealed(out.count());
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
            if (out.offsets[k + 1] - out.offsets[k] >= ThreadStates::kOverviewMinSegments)
                buildOverview(out, k, scratch, false, nullptr, nullptr, 0, &r.whole, &r.keys);
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
    for (size_t k = 0; k < out.count(); ++k) {
        Sealed& r = sealed[k];
        if (out.overviews[k].bins > 0) {
            out.overviews[k].offset = out.overviewKeys.size();
            out.overviewKeys.insert(out.overviewKeys.end(), r.keys.begin(), r.keys.end());
            pyramidThreads.push_back(uint32_t(k));
            totals.push_back(r.whole);
        }
        cp.appendThreadEntries(r.entries);
        r = Sealed{};
    }
    cp.endThreadEntries();
    out.moveSegmentsToFile(std::move(pyramidThreads), std::move(totals));
    m_spill.reset();
    return true;
}

void ThreadStatesBuilder::settle(uint64_t settleBefore)
{
    if (m_settleDeclined) {
        if (m_raw.size() >= m_runEvents)
            writeRun();
        return;
    }
    if (m_rewalk || settleBefore <= m_settledBefore)
        return;
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
        if (threads * m_settleEventsPerThread > m_raw.size()) {
            m_settleDeclined = true;
            if (m_raw.size() >= m_runEvents)
                writeRun();
            return;
        }
    }
    // From here on, an event earlier than the bound is lost (add()).
    m_settledBefore = settleBefore;
    m_released = true;
    // The walk before this one done, the events since handed over (the
    // first time, they are all in m_raw already) and a new walk begun,
    // on its own thread: it takes about a fifth of a load's time.
    ChunkedArray<Raw> spare = join();
    m_batch = std::move(m_inbox);
    m_inbox = std::move(spare);
    m_async = true;
    const auto walk = [this, bound = settleBefore] {
        settleUpTo(bound);
        releaseSettledRaw(0);
        m_batch.shrinkTo(0); // (its chunks kept for the next events)
    };
    try {
        m_walk = std::async(std::launch::async, walk);
    } catch (const std::system_error&) {
        walk(); // (no thread to be had: here, then)
    }
}

void ThreadStatesBuilder::writeRun()
{
    if (!m_spillOn || m_readBack || m_releaseSettled || m_async || m_raw.empty())
        return;
    // The run before written first (its events back in m_raw, before the
    // newer ones, if it could not be).
    ChunkedArray<Raw> spare = join();
    if (m_runsFailed)
        return; // (what is not in the file stays in memory)
    // The events handed to a writer of their own (as settle()'s walk is):
    // the decoding thread stores the next ones meanwhile.
    m_batch = std::move(m_raw);
    m_raw = std::move(spare);
    // What a snapshot before settled (by index into m_raw) is let go:
    // with runs, every seal walks all the events (sealRuns).
    m_settled.clear();
    m_pending = {};
    m_scanned = 0;
    m_settledBefore = 0;
    m_cleanBefore.clear();
    m_rewalk = false;
    const auto write = [this] {
        // Grouped by thread straight from the raw events.
        std::vector<Raw>& run = m_scratch; // (its memory kept from one run to the next)
        groupByThreadInto(std::as_const(m_batch), run);
        const size_t n = run.size();
        if (!m_runFile)
            m_runFile = std::make_unique<SpillFile>();
        // Encoded a frame at a time into a buffer of about 256 KB, appended
        // whenever it fills (the run's pieces follow one another in the
        // file: this writer alone appends to it).
        Run written;
        written.count = n;
        std::vector<uint8_t>& bytes = m_runBytes;
        bytes.clear();
        uint64_t fileBytes = 0;
        bool ok = m_runFile->open();
        const auto append = [&] {
            uint64_t at = 0;
            ok = ok && m_runFile->append(bytes.data(), bytes.size(), at);
            if (fileBytes == 0)
                written.offset = at;
            fileBytes += bytes.size();
            bytes.clear();
        };
        for (size_t at = 0; at < n && ok; at += kRunFrame) {
            const size_t before = bytes.size();
            encodeRunFrame(run.data() + at, std::min(kRunFrame, n - at), bytes);
            written.frameBytes.push_back(uint32_t(bytes.size() - before));
            if (bytes.size() >= kRunBuffer)
                append();
        }
        if (ok && !bytes.empty())
            append();
        run.clear();
        if (!ok) {
            m_runsFailed = true; // (join() puts the events back)
            return;
        }
        m_runFileBytes += fileBytes;
        m_runs.push_back(std::move(written));
        m_eventsInRuns += n;
        m_batch.shrinkTo(0); // (its chunks kept for the next run's events)
    };
    try {
        m_walk = std::async(std::launch::async, write);
    } catch (const std::system_error&) {
        write(); // (no thread to be had: here, then)
    }
}

namespace {

// The threads of `states` as a source of segments (`visit` around each
// read, if given: see ThreadCheckpoints::chooseSpacing).
ThreadCheckpoints::Source sourceOf(const ThreadStates& states, const ThreadCheckpoints::Visit& visit)
{
    ThreadCheckpoints::Source source;
    source.threads = states.count();
    source.segments = states.segmentCount();
    source.extent = [&states](size_t k) {
        // (A thread's first segment's time is its first check time; its
        // last segment is always in memory.)
        const SegmentView segs = states.of(k);
        ThreadCheckpoints::Extent e;
        if (!segs.empty()) {
            e.segments = segs.size();
            e.first = states.checkTimes[states.checkOffsets[k]];
            e.last = segs.timeAt(segs.size() - 1);
        }
        return e;
    };
    source.read = [&states, visit](size_t k, const std::function<void(const SegmentView&)>& use) {
        if (visit && !visit(k, true))
            return false;
        use(states.of(k));
        return !visit || visit(k, false);
    };
    return source;
}


// The segments of the threads that a load's final seal bins as the merge
// gives them (sealRuns): their pyramid and whole-run totals made, they
// wait in a temporary file of their own, not in memory, until the spacing
// of the checkpoints is chosen and their entries are made; the index then
// keeps none of them (ThreadStates::moveSegmentsToFile). 8 bytes a segment
// and its check times, far times and infos, written through a buffer of
// 1 MB. When the file cannot take the buffer, the buffer stays in memory
// and no more threads are taken (they stay where they are): nothing lost.
class DroppedSegments {
public:
    bool open() { return m_file.open(); }
    // Thread k of `states`, the last one there, whose segments are
    // [first, written) (offsets[k + 1] not pushed yet), taken out of
    // `states` (the caller lets the segments go). False if no more can be
    // taken: they stay.
    bool take(ThreadStates& states, size_t k, uint64_t first, uint64_t written)
    {
        if (m_failed)
            return false;
        const uint64_t checkFrom = states.checkOffsets[k];
        const auto from = [first](auto& v) {
            return std::lower_bound(v.begin(), v.end(), first, [](const auto& e, uint64_t at) { return e.first < at; });
        };
        const auto far = from(states.farTimes);
        const auto info = from(states.infos);
        Entry e;
        e.segments = uint32_t(written - first);
        e.checks = uint32_t(states.checkTimes.size() - checkFrom);
        e.far = uint32_t(states.farTimes.end() - far);
        e.infos = uint32_t(states.infos.end() - info);
        e.first = states.checkTimes[checkFrom];
        const PackedSegment& last = states.packed[written - 1];
        e.last = last.offset != PackedSegment::kFar
            ? states.checkTimes[checkFrom + (e.segments - 1) / ThreadStates::kCheckEvery] + last.offset
            : states.farTimes.back().second; // (the last far time is the last segment's)
        const size_t segmentBytes = e.segments * sizeof(PackedSegment);
        if (segmentBytes >= kDirect) {
            // (A long thread's segments written as they are, not copied
            // into the buffer first.)
            flush();
            if (m_failed || !m_file.append(&states.packed[first], segmentBytes, e.offset)) {
                m_failed = true;
                return false;
            }
            m_written += segmentBytes;
        } else {
            e.offset = m_written + m_buffer.size();
            put(&states.packed[first], segmentBytes);
        }
        put(states.checkTimes.data() + checkFrom, e.checks * sizeof(uint64_t));
        for (auto it = far; it != states.farTimes.end(); ++it)
            put(uint64_t(it->first - first), it->second);
        for (auto it = info; it != states.infos.end(); ++it)
            put(uint64_t(it->first - first), it->second);
        states.checkTimes.resize(checkFrom);
        states.farTimes.erase(far, states.farTimes.end());
        states.infos.erase(info, states.infos.end());
        m_threads.push_back(uint32_t(k));
        m_entries.push_back(e);
        if (m_buffer.size() >= kBuffer)
            flush();
        return true;
    }
    void flush()
    {
        uint64_t at = 0;
        if (m_failed || m_buffer.empty())
            return;
        if (!m_file.append(m_buffer.data(), m_buffer.size(), at)) {
            m_failed = true;
            return;
        }
        m_written += m_buffer.size();
        m_buffer.clear();
    }
    size_t count() const { return m_threads.size(); }
    // The place of thread k among those taken, or SIZE_MAX.
    size_t find(size_t k) const
    {
        const auto it = std::lower_bound(m_threads.begin(), m_threads.end(), uint32_t(k));
        return it != m_threads.end() && *it == k ? size_t(it - m_threads.begin()) : SIZE_MAX;
    }
    ThreadCheckpoints::Extent extent(size_t d) const
    {
        return {m_entries[d].segments, m_entries[d].first, m_entries[d].last};
    }
    uint64_t segments() const
    {
        uint64_t n = 0;
        for (const Entry& e : m_entries)
            n += e.segments;
        return n;
    }
    // Taken thread d read back into `one` as its only thread (whose
    // segments end at `end`).
    bool read(size_t d, uint64_t end, ThreadStates& one)
    {
        const Entry& e = m_entries[d];
        const size_t bytes = e.segments * sizeof(PackedSegment) + e.checks * sizeof(uint64_t)
            + (size_t(e.far) + e.infos) * 2 * sizeof(uint64_t);
        // (From the file, and from the buffer what is not written.)
        m_read.resize(bytes);
        const size_t inFile = size_t(std::min<uint64_t>(bytes, m_written - std::min(m_written, e.offset)));
        if (inFile > 0 && !m_file.read(e.offset, m_read.data(), inFile))
            return false;
        if (inFile < bytes)
            std::memcpy(m_read.data() + inFile, m_buffer.data() + (e.offset + inFile - m_written), bytes - inFile);
        const char* p = m_read.data();
        const auto get = [&p] {
            uint64_t v;
            std::memcpy(&v, p, sizeof(v));
            p += sizeof(v);
            return v;
        };
        one.ids.assign(1, m_threads[d]);
        one.offsets = {0, e.segments};
        one.checkOffsets = {0, e.checks};
        one.end = end;
        one.packed.allocate(std::max<size_t>(e.segments, 1) * sizeof(PackedSegment));
        std::memcpy(one.packed.bytes(), p, e.segments * sizeof(PackedSegment));
        p += e.segments * sizeof(PackedSegment);
        one.checkTimes.resize(e.checks);
        for (uint64_t& t : one.checkTimes)
            t = get();
        one.farTimes.resize(e.far);
        for (auto& [at, time] : one.farTimes) {
            at = get();
            time = get();
        }
        one.infos.resize(e.infos);
        for (auto& [at, info] : one.infos) {
            at = get();
            info = uint16_t(get());
        }
        return true;
    }

private:
    static constexpr size_t kBuffer = size_t(1) << 20;
    static constexpr size_t kDirect = size_t(64) << 10; // bytes of segments
    void put(const void* data, size_t bytes)
    {
        const auto* p = static_cast<const char*>(data);
        m_buffer.insert(m_buffer.end(), p, p + bytes);
    }
    void put(uint64_t a, uint64_t b)
    {
        const uint64_t pair[2] = {a, b};
        put(pair, sizeof(pair));
    }
    struct Entry {
        uint64_t offset = 0, first = 0, last = 0;
        uint32_t segments = 0, checks = 0, far = 0, infos = 0;
    };
    SpillFile m_file;
    std::vector<char> m_buffer, m_read;
    uint64_t m_written = 0; // bytes in the file
    bool m_failed = false;
    std::vector<uint32_t> m_threads; // ascending
    std::vector<Entry> m_entries;    // beside them
};

} // namespace

// The whole walk over the runs in the file and the raw events since,
// merged thread by thread: each thread's events from every run in log
// order, then by time (equal times in log order), as sealAll sorts them.
bool ThreadStatesBuilder::sealRuns(uint64_t end, bool final, const LoadObserver* observer)
{
    ThreadStates& out = m_part.threadStates;
    out = ThreadStates{};
    out.end = end;
    // The events since the last run, sorted as a run is (a copy: a
    // snapshot's seal leaves them for the next).
    std::vector<Raw> tail;
    groupByThreadInto(std::as_const(m_raw), tail);
    if (final) {
        m_raw = {};
        std::vector<Raw>().swap(m_scratch);
    }
    // Each run read through a buffer of its own (64 KB); the events since
    // the last run last.
    struct Reader {
        const SpillFile* file = nullptr;
        const Run* run = nullptr;
        uint64_t offset = 0, left = 0; // in the file, not read yet
        size_t frame = 0;               // the next to read
        std::vector<Raw> buffer;
        std::vector<uint8_t> bytes;
        size_t at = 0;
        bool done() const { return at == buffer.size() && left == 0; }
        const Raw& head() const { return buffer[at]; }
        bool fill()
        {
            const size_t n = size_t(std::min<uint64_t>(left, kRunFrame));
            buffer.resize(n);
            at = 0;
            if (n == 0)
                return true;
            const size_t size = run->frameBytes[frame++];
            bytes.resize(size);
            if (!file->read(offset, bytes.data(), size) || !decodeRunFrame(bytes.data(), bytes.data() + size, n, buffer.data()))
                return false;
            offset += size;
            left -= n;
            return true;
        }
        bool advance() { return ++at < buffer.size() || left == 0 || fill(); }
    };
    std::vector<Reader> readers(m_runs.size() + 1);
    for (size_t r = 0; r < m_runs.size(); ++r) {
        readers[r].file = m_runFile.get();
        readers[r].run = &m_runs[r];
        readers[r].offset = m_runs[r].offset;
        readers[r].left = m_runs[r].count;
        if (!readers[r].fill())
            return lose();
    }
    readers.back().buffer = std::move(tail);
    // The readers by the thread at their head, lowest first (then the
    // earlier run).
    const auto later = [&](size_t a, size_t b) {
        const uint32_t ta = readers[a].head().thread, tb = readers[b].head().thread;
        return ta != tb ? ta > tb : a > b;
    };
    std::vector<size_t> heap;
    for (size_t r = 0; r < readers.size(); ++r)
        if (!readers[r].done())
            heap.push_back(r);
    std::make_heap(heap.begin(), heap.end(), later);

    // Segments are never more than events: room for as many, of which
    // only the pages written are ever touched.
    const uint64_t total = m_eventsInRuns + readers.back().buffer.size();
    PackedSegments& packed = out.packed;
    packed.allocate(std::max<uint64_t>(total, 1) * sizeof(PackedSegment));
    PackedSegment* dest = static_cast<PackedSegment*>(packed.bytes());
    size_t written = 0;
    std::vector<Raw> events;
    std::vector<size_t> from;
    const auto byTime = [](const Raw& a, const Raw& b) { return a.time < b.time; };
    // A load's final seal (whose index keeps no segments of a thread with a
    // pyramid) bins each such thread as the merge gives it, and its
    // segments wait in a file for the checkpoint entries: the seal never
    // holds them all (DroppedSegments).
    DroppedSegments dropped;
    const bool binAsMerged = final && m_dropPyramidSegments && dropped.open();
    std::vector<uint32_t> pyramidThreads;
    KeptTotals totals;
    OverviewScratch scratch;
    while (!heap.empty()) {
        if ((out.ids.size() & 0xFFF) == 0 && isCancelled(observer))
            return false;
        const uint32_t id = readers[heap.front()].head().thread;
        from.clear();
        while (!heap.empty() && readers[heap.front()].head().thread == id) {
            std::pop_heap(heap.begin(), heap.end(), later);
            from.push_back(heap.back());
            heap.pop_back();
        }
        std::sort(from.begin(), from.end()); // (log order)
        events.clear();
        for (const size_t r : from) {
            Reader& reader = readers[r];
            while (!reader.done() && reader.head().thread == id) {
                events.push_back(reader.head());
                if (!reader.advance())
                    return lose();
            }
            if (!reader.done()) {
                heap.push_back(r);
                std::push_heap(heap.begin(), heap.end(), later);
            }
        }
        if (!std::is_sorted(events.begin(), events.end(), byTime))
            std::stable_sort(events.begin(), events.end(), byTime);
        const size_t first = written;
        out.ids.push_back(id);
        out.offsets.push_back(first);
        out.checkOffsets.push_back(out.checkTimes.size());
        ThreadSegment cur{};
        bool any = false;
        for (const Raw& raw : events) {
            ThreadSegment s;
            if (!walkStep(raw, cur, any, s))
                continue;
            cur = s;
            any = true;
            dest[written] = packSegment(s, written - first, written, out.checkTimes, out.farTimes, out.infos);
            ++written;
        }
        if (binAsMerged && written - first >= ThreadStates::kOverviewMinSegments) {
            const size_t k = out.ids.size() - 1;
            out.overviews.resize(k + 1);
            out.offsets.push_back(written); // (for of(k), until the next thread's)
            out.checkOffsets.push_back(out.checkTimes.size());
            ThreadTotals whole;
            buildOverview(out, k, scratch, false, nullptr, nullptr, 0, &whole);
            out.offsets.pop_back();
            out.checkOffsets.pop_back();
            pyramidThreads.push_back(uint32_t(k));
            totals.push_back(whole);
            if (dropped.take(out, k, first, written))
                written = first;
        }
    }
    out.offsets.push_back(written);
    out.checkOffsets.push_back(out.checkTimes.size());
    packed.shrinkTo(written);
    if (final) {
        m_runs.clear();
        m_runFile.reset();
    }
    if (binAsMerged) {
        out.overviews.resize(out.count());
        dropped.flush();
        ThreadCheckpoints::Source source;
        source.threads = out.count();
        source.segments = written + dropped.segments();
        const ThreadCheckpoints::Source inMemory = sourceOf(out, {}); // (the threads not binned)
        source.extent = [&](size_t k) {
            const size_t d = dropped.find(k);
            return d != SIZE_MAX ? dropped.extent(d) : inMemory.extent(k);
        };
        ThreadStates one;
        bool cancelled = false;
        source.read = [&](size_t k, const std::function<void(const SegmentView&)>& use) {
            if ((k & 0xFFF) == 0 && isCancelled(observer)) {
                cancelled = true;
                return false;
            }
            const size_t d = dropped.find(k);
            if (d == SIZE_MAX)
                return inMemory.read(k, use);
            if (!dropped.read(d, out.end, one))
                return false;
            use(one.of(0));
            return true;
        };
        if (!m_part.threadCheckpoints.makeThreadEntries(source, true))
            return cancelled ? false : lose();
        m_binnedAsMerged = dropped.count();
        out.moveSegmentsToFile(std::move(pyramidThreads), std::move(totals));
        return true;
    }
    if (!buildOverviews(out, observer))
        return false;
    if (final)
        fillThreadEntries();
    else
        m_part.threadCheckpoints.entryOffsets.clear(); // (made at the final seal, as sealIncremental's)
    return true;
}

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
    for (size_t i = 0; i < m_inbox.size(); ++i)
        m_raw.push_back(std::as_const(m_inbox)[i]);
    m_inbox.shrinkTo(0);
    m_async = false; // (a settle() after hands the events over again)
}

void ThreadStatesBuilder::releaseSettledRaw(size_t upcoming)
{
    // The settled events' raw copies go: the pending ones move to the
    // front (their indices ascend, so none is written over before it is
    // moved), and the array keeps its chunks for the events to come (no
    // memory given back and faulted in again at every settle).
    // (From settle()'s batch too, past m_raw's end: appended.)
    const size_t ownSize = m_raw.size();
    size_t kept = 0;
    for (const uint64_t i : m_pending) {
        const Raw r = i < ownSize ? std::as_const(m_raw)[i] : std::as_const(m_batch)[i - ownSize];
        if (kept < m_raw.size())
            m_raw[kept] = r;
        else
            m_raw.push_back(r);
        ++kept;
    }
    m_raw.shrinkTo(kept);
    m_raw.releaseFrom(kept + upcoming); // (what an unusually late bound left)
    for (size_t i = 0; i < m_pending.size(); ++i)
        m_pending[i] = i;
    m_scanned = m_raw.size();
}

bool ThreadStatesBuilder::sealIncremental(uint64_t end, uint64_t settleBefore, const LoadObserver* observer,
                                          bool final)
{
    if (m_rewalk) {
        if (m_released)
            return false; // (lostEvents(): the raw events to walk again are gone)
        m_settled.clear();
        m_pending = {};
        m_scanned = 0;
        m_settledBefore = 0;
        m_rewalk = false;
        m_cleanBefore.clear();
    }
    m_settledBefore = std::max(m_settledBefore, settleBefore);
    settleUpTo(m_settledBefore);
    if (m_releaseSettled && !final) {
        releaseSettledRaw(std::min<size_t>(m_raw.size(), size_t(1) << 19)); // (room for as many as came since the last seal, up to 8 MB)
        m_released = true;
    }
    if (final) { // (the settles' scratch: up to 2^18 events each in a load, 2^19 in a live session)
        std::vector<Raw>().swap(m_scratch);
        std::vector<uint64_t>().swap(m_pendingNext);
    }
    if (isCancelled(observer))
        return false;
    std::vector<Raw> tail;
    tail.reserve(m_pending.size());
    for (const uint64_t i : m_pending)
        tail.push_back(std::as_const(m_raw)[i]);
    std::vector<Raw> scratch;
    groupByThread(tail, scratch);
    if (isCancelled(observer))
        return false;
    if (final) {
        // Everything is settled: the raw events go.
        m_raw = {};
        m_pending = {};
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
    out.chunked.reserve(m_settled.size());
    std::vector<std::vector<uint64_t>> spilled; // by thread number, the final seal's
    bool mapped = false;                        // a snapshot holds mapped chunks
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
        ThreadSegment cur{};
        bool any = false;
        // The settled segments are shared, not copied (the chunks a
        // snapshot holds are copied before the builder writes them again);
        // the final seal hands them over.
        SegmentChunks& segs = out.chunked.emplace_back();
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
                } else {
                    mapped = mapped || segs.mappedBytes() > 0;
                }
            }
            out.checkTimes.insert(out.checkTimes.end(), w.checks.begin(), w.checks.end());
            for (const auto& [local, time] : w.farTimes)
                out.farTimes.emplace_back(written + local, time);
            for (const auto& [local, info] : w.infos)
                out.infos.emplace_back(written + local, info);
            written += segs.size();
            cur = w.cur;
            any = w.any;
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
            segs.push_back(packSegment(s, written - first, written, out.checkTimes, out.farTimes, out.infos));
            ++written;
            cur = s;
            any = true;
        }
    }
    out.offsets.push_back(written);
    out.checkOffsets.push_back(out.checkTimes.size());
    out.checkTimes.shrink_to_fit(); // (grown by doubling: each snapshot's own)
    if (isCancelled(observer))
        return false;
    if (!spilled.empty())
        return sealSpilled(spilled, observer);
    // (A load's final seal shapes the pyramids as a load that kept every
    // event does: exactly. A live session's keeps growing its own: its
    // last update stays as quick as the others.)
    // (A snapshot's pyramids read the mapped chunks of a thread again from
    // their first bin that changed, often half the thread: its pages are
    // let go after, so that the process does not hold them all.)
    const auto letGo = [&](size_t k) {
        const SegmentChunks& segs = out.chunked[k];
        for (size_t c = 0; c < segs.chunkCount(); ++c)
            if (segs.isMapped(c)) // (never a chunk read back into memory: that would be lost)
                SpillFile::releasePages(segs.chunk(c), SegmentChunks::kChunk * sizeof(PackedSegment));
    };
    if (!buildOverviews(out, observer, final && m_released && !m_releaseSettled ? nullptr : &previous,
                        mapped ? std::function<void(size_t)>(letGo) : std::function<void(size_t)>()))
        return false;
    if (final)
        fillThreadEntries();
    else
        m_part.threadCheckpoints.entryOffsets.clear(); // (made at the final seal)
    return true;
}

uint64_t ThreadCheckpoints::count() const
{
    size_t n = global.size();
    for (const auto& v : caps)
        n = std::max(n, v.size());
    return n;
}

ThreadSegment ThreadCheckpoints::entry(uint64_t e) const
{
    const PackedSegment& p = entrySegments[e];
    ThreadSegment s{};
    if (p.offset != PackedSegment::kFar) {
        s.time = time(entryChecks[e] - 1u) + p.offset;
    } else {
        const auto it = std::lower_bound(entryFarTimes.begin(), entryFarTimes.end(), std::pair<uint64_t, uint64_t>(e, 0));
        s.time = it != entryFarTimes.end() && it->first == e ? it->second : 0;
    }
    s.cap = p.cap;
    s.stop = p.stop;
    s.state = ThreadState(p.bits & 7);
    s.cause = ThreadCause((p.bits >> 3) & 7);
    if (p.bits & (1u << 6)) {
        const auto it = std::lower_bound(entryInfos.begin(), entryInfos.end(), std::pair<uint64_t, uint16_t>(e, 0));
        if (it != entryInfos.end() && it->first == e)
            s.info = it->second;
    }
    return s;
}

bool ThreadCheckpoints::segmentAt(size_t k, uint64_t j, ThreadSegment& out, uint64_t* check) const
{
    if (k + 1 >= entryOffsets.size())
        return false;
    const uint64_t e = firstEntryAfter(k, j);
    if (e == entryOffsets[k])
        return false;
    out = entry(e - 1);
    if (check)
        *check = entryChecks[e - 1];
    return true;
}

uint64_t ThreadCheckpoints::firstEntryAfter(size_t k, uint64_t j) const
{
    const uint16_t key = uint16_t(std::min<uint64_t>(j, UINT16_MAX));
    uint64_t lo = entryOffsets[k], hi = entryOffsets[k + 1];
    while (lo < hi) {
        const uint64_t mid = lo + (hi - lo) / 2;
        if (entryChecks[mid] <= key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

namespace {

// A segment that its thread's walk makes whatever state the thread was in.
bool synchronises(ThreadCause c)
{
    return c == ThreadCause::Created || c == ThreadCause::Run || c == ThreadCause::Stop;
}

} // namespace

template <class Note>
void ThreadCheckpoints::forEachEntry(const SegmentView& segs, uint64_t spacing, Note note)
{
    // Interval by interval of the thread's segments: the last one of an
    // interval is noted at the next checkpoint unless the interval holds a
    // segment that synchronises the walk and the next interval has
    // segments too (a read from that checkpoint walks this interval's
    // events again, see ThreadCheckpoints).
    const size_t n = segs.size();
    const int shift = std::countr_zero(spacing); // (a power of two)
    size_t i = 0;
    uint64_t t = n ? segs.timeAt(0) : 0;
    while (i < n) {
        const uint64_t interval = t >> shift;
        bool synced = false;
        size_t last = i;
        while (i < n && (t >> shift) == interval) {
            synced = synced || synchronises(ThreadCause((segs.packedAt(i).bits >> 3) & 7));
            last = i;
            if (++i < n)
                t = segs.timeAt(i);
        }
        const bool nextActive = i < n && (t >> shift) == interval + 1;
        if (!synced || !nextActive)
            note(interval + 1, last);
    }
}

void ThreadCheckpoints::addThread(const SegmentView& segs)
{
    forEachEntry(segs, spacing, [&](uint64_t j, size_t i) {
        const ThreadSegment s = segs[i];
        entrySegments.push_back(packFrom(s, time(j - 1), entryChecks.size(), entryFarTimes, entryInfos));
        entryChecks.push_back(uint16_t(j));
    });
    entryOffsets.push_back(entryChecks.size());
    mapFullEntries();
}

void ThreadCheckpoints::appendThreadEntries(const ThreadCheckpoints& one)
{
    const uint64_t base = entryChecks.size();
    for (size_t e = 0; e < one.entrySegments.size(); ++e) {
        entryChecks.push_back(one.entryChecks[e]);
        entrySegments.push_back(one.entrySegments[e]);
    }
    for (const auto& [e, time] : one.entryFarTimes)
        entryFarTimes.emplace_back(base + e, time);
    for (const auto& [e, info] : one.entryInfos)
        entryInfos.emplace_back(base + e, info);
    entryOffsets.push_back(entryChecks.size());
    mapFullEntries();
}

namespace {

// Each full chunk of `array` from `mapped` on written to `file` and mapped
// back in its place; when one cannot be, the file is let go (the rest stay).
template <class T, unsigned kShift>
void mapFullChunks(ChunkedArray<T, kShift>& array, size_t& mapped, std::shared_ptr<SpillFile>& file)
{
    constexpr size_t kChunk = ChunkedArray<T, kShift>::kChunk;
    constexpr size_t kBytes = kChunk * sizeof(T);
    while (file && (mapped + 1) * kChunk <= array.size()) {
        uint64_t offset = 0;
        std::shared_ptr<const void> view;
        if (file->open() && file->append(array.chunk(mapped), kBytes, offset))
            view = file->map(offset, kBytes);
        if (!view) {
            file.reset(); // (this chunk and the rest stay in memory)
            return;
        }
        auto* at = static_cast<T*>(const_cast<void*>(view.get())); // (read only: a full chunk is never written)
        array.mapChunk(mapped++, std::shared_ptr<T[]>(std::move(view), at), &SpillFile::releasePages);
    }
}

} // namespace

void ThreadCheckpoints::mapFullEntries()
{
    mapFullChunks(entrySegments, m_segmentsMapped, m_entriesFile);
    mapFullChunks(entryChecks, m_checksMapped, m_entriesFile);
}

void ThreadCheckpoints::makeThreadEntries(const ThreadStates& states, bool toFile)
{
    makeThreadEntries(sourceOf(states, {}), toFile);
}

bool ThreadCheckpoints::makeThreadEntries(const Source& source, bool toFile)
{
    if (!chooseSpacing(source))
        return false;
    beginThreadEntries(source.threads, toFile);
    const auto add = [this](const SegmentView& segs) { addThread(segs); };
    for (size_t k = 0; k < source.threads; ++k)
        if (!source.read(k, add))
            return false;
    endThreadEntries();
    return true;
}

bool ThreadCheckpoints::chooseSpacing(const ThreadStates& states, const Visit& visit)
{
    return chooseSpacing(sourceOf(states, visit));
}

bool ThreadCheckpoints::chooseSpacing(const Source& source)
{
    // The spacing: widened (every other checkpoint dropped) while the
    // entries and streams would take more than the budget and the log
    // between two checkpoints (the last crossing's offset, over their
    // number) stays under kMaxIntervalBytes.
    uint64_t logBytes = 0;
    for (const auto& v : caps)
        if (!v.empty())
            logBytes = std::max(logBytes, v.back().offset);
    if (!global.empty())
        logBytes = std::max(logBytes, global.back().offset);
    const double budget = std::max(kBudgetFloor, kBudgetPerSegment * double(source.segments));
    constexpr double kEntryBytes = sizeof(uint16_t) + sizeof(PackedSegment);
    for (;;) {
        uint64_t crossings = global.size();
        for (const auto& v : caps)
            crossings += v.size();
        // At most an entry per interval a thread's segments span (a pass
        // over the threads, not their segments): often enough.
        const int shift = std::countr_zero(spacing);
        uint64_t bound = 0;
        for (size_t k = 0; k < source.threads; ++k) {
            const Extent e = source.extent(k);
            if (e.segments > 0)
                bound += std::min<uint64_t>(e.segments, (e.last >> shift) - (e.first >> shift) + 1);
        }
        if (double(bound) * kEntryBytes + double(crossings) * sizeof(Crossing) <= budget)
            break;
        uint64_t entries = 0; // (counted until over the budget)
        const double over = (budget - double(crossings) * sizeof(Crossing)) / kEntryBytes;
        const auto count = [&](const SegmentView& segs) {
            forEachEntry(segs, spacing, [&](uint64_t, size_t) { ++entries; });
        };
        for (size_t k = 0; k < source.threads && double(entries) <= over; ++k)
            if (!source.read(k, count))
                return false;
        const double bytes = double(entries) * kEntryBytes + double(crossings) * sizeof(Crossing);
        // (Two checkpoints or fewer left: wider gains nothing, as a log of
        // many threads needs an entry per thread whatever the spacing.)
        if (bytes <= budget || logBytes / std::max<uint64_t>(1, this->count() / 2) > kMaxIntervalBytes
            || this->count() <= 2 || spacing >= (uint64_t(1) << 62))
            break;
        spacing *= 2;
        const auto thin = [](std::vector<Crossing>& v) {
            size_t n = 0;
            for (size_t j = 0; j < v.size(); j += 2)
                v[n++] = v[j];
            v.resize(n);
        };
        for (auto& v : caps)
            thin(v);
        thin(global);
    }
    return true;
}

void ThreadCheckpoints::beginThreadEntries(size_t threads, bool toFile)
{
    entryOffsets.assign(1, 0);
    entryChecks = {};
    entrySegments = {};
    m_entriesFile = toFile ? std::make_shared<SpillFile>() : nullptr;
    m_segmentsMapped = m_checksMapped = 0;
    entryFarTimes.clear();
    entryInfos.clear();
    entryOffsets.reserve(threads + 1);
}

void ThreadCheckpoints::endThreadEntries()
{
    m_entriesFile.reset(); // (the mapped chunks keep what they map)
    entryFarTimes.shrink_to_fit();
    entryInfos.shrink_to_fit();
    for (auto& v : caps)
        v.shrink_to_fit();
    global.shrink_to_fit();
}

size_t ThreadCheckpoints::memoryBytes() const
{
    size_t bytes = caps.capacity() * sizeof(caps[0]) + global.capacity() * sizeof(Crossing)
        + entryOffsets.capacity() * sizeof(uint64_t) + entryChecks.memoryBytes()
        + entrySegments.memoryBytes() + entryFarTimes.capacity() * sizeof(entryFarTimes[0])
        + entryInfos.capacity() * sizeof(entryInfos[0]);
    for (const auto& v : caps)
        bytes += v.capacity() * sizeof(Crossing);
    return bytes;
}

uint8_t ThreadStates::stateKey(const ThreadSegment& s)
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

size_t ThreadStates::find(uint32_t id) const
{
    const auto it = std::lower_bound(ids.begin(), ids.end(), id);
    return it != ids.end() && *it == id ? size_t(it - ids.begin()) : SIZE_MAX;
}

size_t ThreadStates::firstEndingAfter(const SegmentView& segs, uint64_t t)
{
    // Segment i ends where i + 1 starts: the last segment starting at or
    // before t (or the first, when t is before them all).
    size_t lo = 0, hi = segs.size();
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (segs.timeAt(mid) <= t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo == 0 ? 0 : lo - 1;
}

size_t ThreadStates::firstEndingAfterFrom(size_t number, size_t from, uint64_t t) const
{
    const SegmentView segs = of(number);
    const uint64_t* checks = checkTimes.data() + checkOffsets[number];
    const size_t nChecks = checkOffsets[number + 1] - checkOffsets[number];
    // The last checkpoint at or before t, from `from`'s on.
    const size_t c = firstAbove(checks, from / kCheckEvery + 1, nChecks, t) - 1;
    size_t i = std::max(from, c * kCheckEvery);
    // At most kCheckEvery segments to the one covering t.
    while (i + 1 < segs.size() && segs.timeAt(i + 1) <= t)
        ++i;
    return i;
}

size_t ThreadStates::memoryBytes() const
{
    return ids.capacity() * sizeof(uint32_t)
        + (offsets.capacity() + checkTimes.capacity() + checkOffsets.capacity()) * sizeof(uint64_t)
        + packed.capacityBytes() + chunkedBytes() + farTimes.capacity() * sizeof(farTimes[0]) + infos.capacity() * sizeof(infos[0])
        + overviews.capacity() * sizeof(BinPyramid) + overviewKeys.capacity()
        + summarised.capacity() * sizeof(uint32_t) + wholeRun.memoryBytes();
}

void PackedSegments::allocate(size_t bytes)
{
    m_block.reset();
    m_capacity = m_size = 0;
    if (!bytes)
        return;
    auto block = std::make_shared<Block>();
    block->data = std::malloc(bytes);
    if (!block->data)
        throw std::bad_alloc();
    m_block = std::move(block);
    m_capacity = bytes;
}

void PackedSegments::shrinkTo(size_t n)
{
    m_size = n;
    const size_t bytes = n * sizeof(PackedSegment);
    if (bytes == m_capacity || !m_block || m_block.use_count() > 1)
        return;
    if (bytes == 0) {
        m_block.reset();
        m_capacity = 0;
        return;
    }
    // A large block shrinks in place (mremap): no copy.
    if (void* smaller = std::realloc(m_block->data, bytes)) {
        m_block->data = smaller;
        m_capacity = bytes;
    }
}

SegmentView::SegmentView(const ThreadStates& states, size_t thread)
    : m_states(&states)
    , m_thread(thread)
    , m_base(states.offsets[thread])
    , m_n(size_t(states.offsets[thread + 1] - states.offsets[thread]))
    , m_checks(states.checkTimes.data() + states.checkOffsets[thread])
    , m_chunked(states.chunked.empty() ? nullptr : &states.chunked[thread])
{
}

uint64_t SegmentView::timeAt(size_t i) const
{
    const PackedSegment& p = packedAt(i);
    if (p.offset != PackedSegment::kFar) [[likely]]
        return m_checks[i / ThreadStates::kCheckEvery] + p.offset;
    const auto& far = m_states->farTimes;
    const auto it = std::lower_bound(far.begin(), far.end(), std::pair<uint64_t, uint64_t>(m_base + i, 0));
    return it != far.end() && it->first == m_base + i ? it->second : m_checks[i / ThreadStates::kCheckEvery];
}

ThreadSegment SegmentView::operator[](size_t i) const
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

const char* threadStateName(const ThreadSegment& s)
{
    switch (s.state) {
    case ThreadState::Runnable: return "runnable";
    case ThreadState::Running: return "running";
    case ThreadState::Finished: return "finished";
    case ThreadState::Unknown: return "unknown (its run ended without a stop event)";
    case ThreadState::Blocked: break;
    }
    if (stopClass(s.stop) == StopClass::ForeignCall)
        return "in a foreign call";
    switch (blockReason(s.stop)) {
    case BlockReason::MVar: return "blocked on an MVar";
    case BlockReason::MVarRead: return "blocked reading an MVar";
    case BlockReason::BlackHole: return "blocked on a black hole";
    case BlockReason::Read: return "blocked on read";
    case BlockReason::Write: return "blocked on write";
    case BlockReason::Delay: return "blocked on a delay";
    case BlockReason::Stm: return "blocked in STM";
    case BlockReason::DoProc: return "blocked on a process";
    case BlockReason::CCall: return "in a foreign call";
    case BlockReason::ThrowTo: return "blocked in throwTo";
    case BlockReason::Other: break;
    }
    return "blocked";
}

ThreadTotals threadTotals(const ThreadStates& states, size_t number, uint64_t t0, uint64_t t1)
{
    ThreadTotals f;
    const auto segs = states.of(number);
    if (segs.empty())
        return f;
    // Start at the last segment beginning before t0 (it may reach into the
    // range), so that every segment beginning at t0 counts its event, the
    // empty ones there too (several events at one time), which
    // firstEndingAfter(t0) passes over.
    const auto atOrAfter = std::lower_bound(segs.begin(), segs.end(), t0,
                                            [](const ThreadSegment& s, uint64_t v) { return s.time < v; });
    const size_t first = atOrAfter == segs.begin() ? 0 : size_t(atOrAfter - segs.begin()) - 1;
    // (Each segment decoded once: the next one gives this one's end.)
    ThreadSegment next = segs[first];
    for (size_t i = first; i < segs.size() && next.time < t1; ++i) {
        const ThreadSegment s = next;
        if (i + 1 < segs.size())
            next = segs[i + 1];
        const uint64_t end = i + 1 < segs.size() ? next.time : std::max(states.end, s.time);
        const uint64_t a = std::max(s.time, t0), b = std::min(end, t1);
        if (b > a) {
            f.time[size_t(s.state)] += b - a;
            if (s.state == ThreadState::Blocked)
                f.blocked[size_t(stopClass(s.stop) == StopClass::ForeignCall ? BlockReason::CCall : blockReason(s.stop))] += b - a;
        }
        if (s.time < t0)
            continue;
        switch (s.cause) {
        case ThreadCause::Run: ++f.runs; break;
        case ThreadCause::Migrate: ++f.migrations; break;
        case ThreadCause::Wakeup: ++f.wakeups; break;
        default: break;
        }
    }
    return f;
}

std::optional<ThreadTotals> ThreadStates::wholeRunOf(size_t k) const
{
    const auto it = std::lower_bound(summarised.begin(), summarised.end(), k);
    if (it == summarised.end() || *it != k)
        return std::nullopt;
    return wholeRun[size_t(it - summarised.begin())];
}

void KeptTotals::push_back(const ThreadTotals& t)
{
    Main m;
    m.time = t.time;
    m.runs = t.runs;
    m.migrations = t.migrations;
    m.wakeups = t.wakeups;
    const auto blockedFor = std::count_if(t.blocked.begin(), t.blocked.end(), [](uint64_t ns) { return ns > 0; });
    if (blockedFor == 1) {
        const auto r = size_t(std::find_if(t.blocked.begin(), t.blocked.end(), [](uint64_t ns) { return ns > 0; })
                              - t.blocked.begin());
        m.reason = t.blocked[r] == t.time[size_t(ThreadState::Blocked)] ? uint8_t(r) : kSeveral;
    } else if (blockedFor > 1) {
        m.reason = kSeveral;
    }
    if (m.reason == kSeveral)
        m_blocked.emplace_back(uint32_t(m_main.size()), t.blocked);
    m_main.push_back(m);
}

ThreadTotals KeptTotals::operator[](size_t i) const
{
    const Main& m = m_main[i];
    ThreadTotals t;
    t.time = m.time;
    t.runs = m.runs;
    t.migrations = m.migrations;
    t.wakeups = m.wakeups;
    if (m.reason == kSeveral) {
        const auto it = std::lower_bound(m_blocked.begin(), m_blocked.end(), uint32_t(i),
                                         [](const auto& e, uint32_t at) { return e.first < at; });
        t.blocked = it->second;
    } else if (m.reason != kNotBlocked) {
        t.blocked[m.reason] = m.time[size_t(ThreadState::Blocked)];
    }
    return t;
}

void KeptTotals::shrink_to_fit()
{
    m_main.shrink_to_fit();
    m_blocked.shrink_to_fit();
}

size_t KeptTotals::memoryBytes() const
{
    return m_main.capacity() * sizeof(Main) + m_blocked.capacity() * sizeof(m_blocked[0]);
}

void ThreadStates::moveSegmentsToFile()
{
    if (segmentsInFile)
        return;
    std::vector<uint32_t> pyramidThreads;
    KeptTotals totals;
    for (size_t k = 0; k < count(); ++k) {
        if (overviews.size() > k && overviews[k].bins > 0) {
            pyramidThreads.push_back(uint32_t(k));
            totals.push_back(threadTotals(*this, k, 0, UINT64_MAX));
        }
    }
    moveSegmentsToFile(std::move(pyramidThreads), std::move(totals));
}

void ThreadStates::moveSegmentsToFile(std::vector<uint32_t> pyramidThreads, KeptTotals totals)
{
    if (segmentsInFile)
        return;
    summarised = std::move(pyramidThreads);
    wholeRun = std::move(totals);
    size_t keptSegments = 0;
    for (size_t k = 0, s = 0; k < count(); ++k) {
        if (s < summarised.size() && summarised[s] == k)
            ++s;
        else
            keptSegments += offsets[k + 1] - offsets[k];
    }
    // The other threads' segments packed again, numbered afresh.
    PackedSegments kept;
    kept.allocate(std::max<size_t>(keptSegments, 1) * sizeof(PackedSegment));
    auto* dest = static_cast<PackedSegment*>(kept.bytes());
    std::vector<uint64_t> newOffsets(count() + 1, 0), newCheckOffsets(count() + 1, 0), newChecks;
    std::vector<std::pair<uint64_t, uint64_t>> newFar;
    std::vector<std::pair<uint64_t, uint16_t>> newInfos;
    uint64_t written = 0;
    size_t s = 0;
    for (size_t k = 0; k < count(); ++k) {
        newOffsets[k] = written;
        newCheckOffsets[k] = newChecks.size();
        if (s < summarised.size() && summarised[s] == k) {
            ++s;
            continue;
        }
        const SegmentView segs = of(k);
        for (size_t i = 0; i < segs.size(); ++i, ++written)
            dest[written] = packSegment(segs[i], i, written, newChecks, newFar, newInfos);
    }
    newOffsets[count()] = written;
    newCheckOffsets[count()] = newChecks.size();
    kept.shrinkTo(written);
    packed = std::move(kept);
    std::vector<SegmentChunks>().swap(chunked); // (a live session's: its snapshots keep theirs)
    offsets = std::move(newOffsets);
    checkOffsets = std::move(newCheckOffsets);
    checkTimes = std::move(newChecks);
    farTimes = std::move(newFar);
    infos = std::move(newInfos);
    summarised.shrink_to_fit();
    wholeRun.shrink_to_fit();
    segmentsInFile = true;
}

} // namespace hecscope
