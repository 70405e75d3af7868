#include "core/index/threadstatesbuilder.h"

#include "core/format/eventtags.h"

#include <algorithm>
#include <bit>
#include <array>
#include <unordered_map>

namespace hecscope {

void ThreadStatesBuilder::add(uint64_t time, uint64_t thread, ThreadCause cause, uint16_t cap, uint8_t stop,
                              uint32_t info)
{
    if (time > Span::kMaxStart || thread > UINT32_MAX)
        return; // as the capability timelines: not representable
    Raw r{};
    r.time = time;
    r.cap = cap;
    r.thread = uint32_t(thread);
    r.info = info < (1u << 20) ? info : 0;
    r.cause = uint32_t(cause);
    r.stop = stop;
    m_raw.push_back(r);
}

void ThreadStatesBuilder::consume(const Event& e)
{
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

} // namespace

bool ThreadStatesBuilder::seal(uint64_t end, bool final, const LoadObserver* observer)
{
    ThreadStates& out = m_part.threadStates;
    out = ThreadStates{};
    out.end = end;
    const size_t n = m_raw.size();
    // Number the threads by ascending id: a table when ids are dense (they
    // count up from 1), a hash map for stray far ids.
    uint32_t maxId = 0;
    for (size_t i = 0; i < n; ++i)
        maxId = std::max(maxId, m_raw[i].thread);
    std::vector<uint32_t> numberOf; // by id (dense case)
    std::unordered_map<uint32_t, uint32_t> numberOfSparse;
    const bool dense = maxId < (1u << 26) && maxId <= 4 * n + 65536;
    if (dense) {
        numberOf.assign(size_t(maxId) + 1, 0);
        for (size_t i = 0; i < n; ++i)
            numberOf[m_raw[i].thread] = 1;
        for (uint32_t id = 0; id <= maxId; ++id)
            if (numberOf[id]) {
                numberOf[id] = uint32_t(out.ids.size());
                out.ids.push_back(id);
            } else {
                numberOf[id] = UINT32_MAX;
            }
    } else {
        for (size_t i = 0; i < n; ++i)
            numberOfSparse.emplace(m_raw[i].thread, 0);
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
        ++out.offsets[number(m_raw[i].thread) + 1];
    for (size_t k = 1; k < out.offsets.size(); ++k)
        out.offsets[k] += out.offsets[k - 1];
    // The raw events sorted by thread go straight into the segments'
    // storage (both are 16 bytes), and each thread's segments are then
    // written over its raw events (never more segments than events), so
    // the index never holds a third copy.
    static_assert(sizeof(Raw) == sizeof(ThreadSegment));
    auto& storage = out.segments;
    storage.resize(n); // not touched yet: pages come as they are written
    {
        std::vector<uint64_t> next(out.offsets.begin(), out.offsets.end() - 1);
        constexpr size_t kChunk = decltype(m_raw)::kChunk;
        for (size_t i = 0; i < n; ++i) {
            storage[next[number(m_raw[i].thread)]++] = std::bit_cast<ThreadSegment>(m_raw[i]);
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
    size_t written = 0;
    const auto rawTime = [](const ThreadSegment& s) { return std::bit_cast<Raw>(s).time; };
    for (size_t k = 0; k < out.ids.size(); ++k) {
        if ((k & 0xFFF) == 0 && isCancelled(observer))
            return false;
        offsets[k] = written;
        const auto first = storage.begin() + ptrdiff_t(out.offsets[k]);
        const auto last = storage.begin() + ptrdiff_t(out.offsets[k + 1]);
        const auto byTime = [&](const ThreadSegment& a, const ThreadSegment& b) { return rawTime(a) < rawTime(b); };
        if (!std::is_sorted(first, last, byTime))
            std::stable_sort(first, last, byTime);
        bool any = false;
        ThreadSegment cur{};
        for (auto at = first; at != last; ++at) {
            const Raw raw = std::bit_cast<Raw>(*at);
            const Raw* it = &raw;
            ThreadSegment s{};
            s.time = it->time;
            s.cause = ThreadCause(it->cause);
            s.cap = uint16_t(it->cap);
            switch (s.cause) {
            case ThreadCause::Created: s.state = ThreadState::Runnable; break;
            case ThreadCause::Run: s.state = ThreadState::Running; break;
            case ThreadCause::Stop:
                s.stop = uint8_t(it->stop);
                s.info = uint16_t(it->info < 65536 ? it->info : 0);
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
                    continue; // it had stopped after all (a stop stamped later than the next run)
                s.state = ThreadState::Unknown;
                break;
            }
            if (s.state == ThreadState::Blocked && s.cause != ThreadCause::Stop) {
                s.stop = cur.stop;
                s.info = cur.info;
            }
            storage[written++] = s; // at or before `at`, already read
            cur = s;
            any = true;
        }
    }
    storage.resize(written); // no shrink: that would copy every segment
    offsets.back() = written;
    out.offsets = std::move(offsets);
    out.sampleTimes.resize((out.segments.size() + ThreadStates::kSampleEvery - 1) / ThreadStates::kSampleEvery);
    for (size_t k = 0; k < out.sampleTimes.size(); ++k)
        out.sampleTimes[k] = out.segments[k * ThreadStates::kSampleEvery].time;
    // Overviews: time per state key in each bin of level 0, then pairs
    // summed level by level; each bin keeps its dominant key.
    constexpr size_t kKeys = 3 + kBlockReasons;
    out.overviews.assign(out.ids.size(), {});
    std::vector<std::array<uint64_t, kKeys>> binTime, coarser;
    for (size_t k = 0; k < out.ids.size(); ++k) {
        const auto segs = out.of(k);
        if (segs.size() < ThreadStates::kOverviewMinSegments)
            continue;
        if ((k & 0xFF) == 0 && isCancelled(observer))
            return false;
        BinPyramid& ov = out.overviews[k];
        ov.start = segs.front().time;
        const uint64_t extent = std::max<uint64_t>(out.segmentEnd(segs, segs.size() - 1) - ov.start, 1);
        ov.bins = uint32_t(std::min<size_t>(size_t(1) << 16, segs.size() / 4));
        ov.binWidth = std::max<uint64_t>(1, (extent + ov.bins - 1) / ov.bins);
        ov.bins = uint32_t(std::min<uint64_t>(ov.bins, (extent + ov.binWidth - 1) / ov.binWidth));
        ov.levels = BinPyramid::levelsFor(ov.bins);
        ov.offset = out.overviewKeys.size();
        binTime.assign(ov.bins, {});
        for (size_t i = 0; i < segs.size(); ++i) {
            const uint8_t key = ThreadStates::stateKey(segs[i]);
            if (key == ThreadStates::kNoKey)
                continue;
            uint64_t a = segs[i].time - ov.start;
            const uint64_t b = std::min(out.segmentEnd(segs, i) - ov.start, uint64_t(ov.bins) * ov.binWidth);
            while (a < b) {
                const uint64_t bin = a / ov.binWidth;
                const uint64_t binEnd = std::min(b, (bin + 1) * ov.binWidth);
                binTime[bin][key] += binEnd - a;
                a = binEnd;
            }
        }
        for (int level = 0; level < ov.levels; ++level) {
            if (level > 0) {
                coarser.assign(ov.levelBins(level), {});
                for (size_t bin = 0; bin < binTime.size(); ++bin)
                    for (size_t key = 0; key < kKeys; ++key)
                        coarser[bin / 2][key] += binTime[bin][key];
                binTime.swap(coarser);
            }
            for (const auto& times : binTime) {
                const auto best = std::max_element(times.begin(), times.end());
                out.overviewKeys.push_back(*best ? uint8_t(best - times.begin()) : ThreadStates::kNoKey);
            }
        }
    }
    return true;
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

size_t ThreadStates::firstEndingAfter(std::span<const ThreadSegment> segs, uint64_t t)
{
    // Segment i ends where i + 1 starts: the first segment whose successor
    // starts after t.
    const auto it = std::upper_bound(segs.begin(), segs.end(), t,
                                     [](uint64_t v, const ThreadSegment& s) { return v < s.time; });
    return it == segs.begin() ? 0 : size_t(it - segs.begin()) - 1;
}

size_t ThreadStates::firstEndingAfterFrom(size_t number, size_t from, uint64_t t) const
{
    const size_t base = offsets[number], last = offsets[number + 1];
    size_t g = base + from; // global index of the first candidate
    // Samples after g whose time is <= t: the answer is at or after them.
    size_t s = (g + kSampleEvery - 1) / kSampleEvery;
    const size_t sEnd = (last + kSampleEvery - 1) / kSampleEvery;
    s = std::min(s, sEnd);
    // Galloping: the answer is usually near.
    size_t step = 1, lo = s;
    while (lo + step < sEnd && sampleTimes[lo + step] <= t) {
        lo += step;
        step *= 2;
    }
    const auto it = std::upper_bound(sampleTimes.begin() + ptrdiff_t(lo), sampleTimes.begin() + ptrdiff_t(std::min(lo + step + 1, sEnd)), t);
    if (it != sampleTimes.begin() + ptrdiff_t(s)) {
        const size_t sample = size_t(it - sampleTimes.begin()) - 1; // the last sample with time <= t
        g = std::max(g, std::min(sample * kSampleEvery, last));
    }
    // At most kSampleEvery segments to the one covering t.
    while (g + 1 < last && segments[g + 1].time <= t)
        ++g;
    return g - base;
}

size_t ThreadStates::memoryBytes() const
{
    return ids.capacity() * sizeof(uint32_t) + (offsets.capacity() + sampleTimes.capacity()) * sizeof(uint64_t)
        + overviews.capacity() * sizeof(BinPyramid) + overviewKeys.capacity()
        + segments.capacity() * sizeof(ThreadSegment);
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

} // namespace hecscope
