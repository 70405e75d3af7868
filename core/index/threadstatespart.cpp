#include "core/index/threadstatespart.h"

#include "core/format/eventtags.h"
#include "core/index/gallop.h"
#include "core/index/threadstatesbuild.h"
#include "core/index/varint.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <functional>
#include <new>
#include <system_error>
#include <unordered_map>
#include <utility>

#include <stdlib.h>
#include <sys/mman.h>

namespace hecscope {

// ThreadStates: the packed segments and their views, totals and the move of
// the segments to a file.

using namespace threadbuild;

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
        + summarised.capacity() * sizeof(uint32_t) + wholeRun.memoryBytes() + followedBytes() + intervals.memoryBytes();
}

// A block of more than a huge page (2 MB) starts on one and asks for them
// (transparent huge pages, where the system gives them on request): the
// segments read back for a jump into a dense stretch are written into a
// fresh block of several MB, and a fault for each of its 4 KB pages took a
// quarter of the read (render_cold_p95_ms on the big log 30 -> 20 ms).
static void* allocateSegmentBlock(size_t bytes)
{
#ifdef MADV_HUGEPAGE
    constexpr size_t kHugePage = size_t(2) << 20;
    if (bytes >= kHugePage) {
        void* p = nullptr;
        if (posix_memalign(&p, kHugePage, bytes) != 0)
            return nullptr;
        ::madvise(p, (bytes + 4095) & ~size_t(4095), MADV_HUGEPAGE); // (a hint: nothing lost if refused)
        return p;
    }
#endif
    return std::malloc(bytes);
}

void PackedSegments::allocate(size_t bytes)
{
    m_block.reset();
    m_capacity = m_size = 0;
    if (!bytes)
        return;
    auto block = std::make_shared<Block>();
    block->data = allocateSegmentBlock(bytes);
    if (!block->data)
        throw std::bad_alloc();
    m_block = std::move(block);
    m_capacity = bytes;
}

void PackedSegments::append(const PackedSegments& other)
{
    if (other.m_size == 0)
        return;
    const size_t bytes = (m_size + other.m_size) * sizeof(PackedSegment);
    if (!m_block) {
        allocate(bytes);
    } else if (bytes > m_capacity) {
        void* grown = std::realloc(m_block->data, bytes);
        if (!grown)
            throw std::bad_alloc();
        m_block->data = grown;
        m_capacity = bytes;
    }
    std::memcpy(static_cast<PackedSegment*>(m_block->data) + m_size, other.m_block->data,
                other.m_size * sizeof(PackedSegment));
    m_size += other.m_size;
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
    , m_settled(m_chunked ? m_chunked->size() : 0)
    , m_tail(m_chunked && !states.tailOffsets.empty() ? states.tail.data() + states.tailOffsets[thread] : nullptr)
{
    if (!states.sharedFirst.empty()) {
        static const PackedSegment* const kNoChunk = nullptr; // (none shared: not null, never read)
        m_shared = states.sharedChunks.empty() ? &kNoChunk : states.sharedChunks.data() + states.sharedFirst[thread];
        m_tail = states.tail.data() + states.tailOffsets[thread];
        m_settled = m_n - size_t(states.tailOffsets[thread + 1] - states.tailOffsets[thread]);
    }
}

SegmentCursor::SegmentCursor(const SegmentView& segs, size_t from) : m_segs(&segs), m_i(from), m_n(segs.size())
{
    refill();
}

void SegmentCursor::refill()
{
    if (m_i >= m_n)
        return;
    // The segments from m_i that lie one after another: to the end of
    // their chunk, or of the settled ones (then the tail's), or all.
    const SegmentView& v = *m_segs;
    constexpr size_t kChunk = SegmentChunks::kChunk;
    if ((v.m_chunked || v.m_shared) && m_i < v.m_settled) {
        m_p = (v.m_shared ? v.m_shared[m_i / kChunk] : v.m_chunked->chunk(m_i / kChunk)) + m_i % kChunk;
        m_runEnd = std::min(v.m_settled, (m_i / kChunk + 1) * kChunk);
    } else if (v.m_chunked || v.m_shared) {
        m_p = v.m_tail + (m_i - v.m_settled);
        m_runEnd = m_n;
    } else {
        m_p = &v.m_states->packed[v.m_base + m_i];
        m_runEnd = m_n;
    }
    readTime();
}

const std::array<uint8_t, 8 * 256>& ThreadStates::stateKeys()
{
    static const std::array<uint8_t, 8 * 256> keys = [] {
        std::array<uint8_t, 8 * 256> k{};
        for (size_t state = 0; state < 8; ++state)
            for (size_t stop = 0; stop < 256; ++stop) {
                ThreadSegment s{};
                s.state = ThreadState(state);
                s.stop = uint8_t(stop);
                k[state << 8 | stop] = stateKey(s);
            }
        return k;
    }();
    return keys;
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
        addSegmentTime(f, s, std::max(s.time, t0), std::min(end, t1));
        if (s.time >= t0)
            countSegmentEvent(f, s);
    }
    return f;
}

ThreadIntervals threadIntervals(const ThreadStates& states, size_t number, uint64_t width)
{
    ThreadIntervals out;
    IntervalTotalsAdder adder(states, number, width, out);
    if (out.totals.empty())
        return out;
    const auto& keys = ThreadStates::stateKeys();
    const SegmentView segs = states.of(number);
    for (SegmentCursor at(segs, 0); !at.done();) {
        const PackedSegment p = at.packed();
        const uint64_t time = at.time();
        at.next();
        adder.add(p, ThreadStates::storedKey(keys, p), time, at.done() ? std::max(states.end, time) : at.time());
    }
    return out;
}

uint64_t ThreadStates::Intervals::widthFor(uint64_t end, size_t threads)
{
    if (threads == 0 || threads > kMaxThreads)
        return 0;
    uint64_t width = 1;
    while (width < (uint64_t(1) << 62) && (end / width >= kMaxIntervals || (end / width + 1) * threads > kMaxEntries))
        width *= 2;
    return width;
}

void ThreadStates::Intervals::append(uint64_t firstInterval, uint64_t firstSegmentTime, uint64_t finishedAt,
                                     const std::vector<ThreadTotals>& each)
{
    if (offsets.empty())
        offsets.push_back(0);
    first.push_back(firstInterval);
    firstTime.push_back(firstSegmentTime);
    finished.push_back(finishedAt);
    for (const ThreadTotals& t : each)
        totals.push_back(t);
    offsets.push_back(totals.size());
}

std::optional<ThreadTotals> ThreadStates::Intervals::at(size_t i, uint64_t j) const
{
    if (i + 1 >= offsets.size() || j < first[i] || j - first[i] >= offsets[i + 1] - offsets[i])
        return std::nullopt;
    return totals[size_t(offsets[i] + (j - first[i]))];
}

size_t ThreadStates::Intervals::memoryBytes() const
{
    return (first.capacity() + firstTime.capacity() + finished.capacity() + offsets.capacity()) * sizeof(uint64_t)
        + totals.memoryBytes();
}

void addSegmentTime(ThreadTotals& t, const ThreadSegment& s, uint64_t a, uint64_t b)
{
    if (b <= a)
        return;
    t.time[size_t(s.state)] += b - a;
    if (s.state == ThreadState::Blocked)
        t.blocked[size_t(stopClass(s.stop) == StopClass::ForeignCall ? BlockReason::CCall : blockReason(s.stop))] += b - a;
}

void countSegmentEvent(ThreadTotals& t, const ThreadSegment& s)
{
    switch (s.cause) {
    case ThreadCause::Run: ++t.runs; break;
    case ThreadCause::Migrate: ++t.migrations; break;
    case ThreadCause::Wakeup: ++t.wakeups; break;
    default: break;
    }
}

std::optional<ThreadTotals> ThreadStates::wholeRunOf(size_t k) const
{
    if (const auto it = std::lower_bound(summarised.begin(), summarised.end(), k); it != summarised.end() && *it == k)
        return wholeRun[size_t(it - summarised.begin())];
    if (const auto it = std::lower_bound(followed.begin(), followed.end(), k); it != followed.end() && *it == k)
        return followedTotals[size_t(it - followed.begin())];
    return std::nullopt;
}

namespace {

// A thread's entry: its reason byte, kThreadStates times, three counts.
constexpr int kVarints = int(kThreadStates) + 3;

} // namespace

void KeptTotals::push_back(const ThreadTotals& t)
{
    uint8_t reason = kNotBlocked;
    const auto blockedFor = std::count_if(t.blocked.begin(), t.blocked.end(), [](uint64_t ns) { return ns > 0; });
    if (blockedFor == 1) {
        const auto r = size_t(std::find_if(t.blocked.begin(), t.blocked.end(), [](uint64_t ns) { return ns > 0; })
                              - t.blocked.begin());
        reason = t.blocked[r] == t.time[size_t(ThreadState::Blocked)] ? uint8_t(r) : kSeveral;
    } else if (blockedFor > 1) {
        reason = kSeveral;
    }
    if (reason == kSeveral)
        m_blocked.emplace_back(uint32_t(m_size), t.blocked);
    if (m_size % kGroup == 0)
        m_groupStarts.push_back(m_bytes.size());
    m_bytes.push_back(reason);
    for (const uint64_t ns : t.time)
        putVarint(m_bytes, ns);
    putVarint(m_bytes, t.runs);
    putVarint(m_bytes, t.migrations);
    putVarint(m_bytes, t.wakeups);
    ++m_size;
}

ThreadTotals KeptTotals::operator[](size_t i) const
{
    const uint8_t* p = m_bytes.data() + m_groupStarts[i / kGroup];
    for (size_t skip = i % kGroup; skip > 0; --skip) {
        ++p; // (the reason)
        for (int v = 0; v < kVarints; ++v)
            while (*p++ & 0x80) {
            }
    }
    const uint8_t reason = *p++;
    ThreadTotals t;
    for (uint64_t& ns : t.time)
        ns = getVarint(p);
    t.runs = uint32_t(getVarint(p));
    t.migrations = uint32_t(getVarint(p));
    t.wakeups = uint32_t(getVarint(p));
    if (reason == kSeveral) {
        const auto it = std::lower_bound(m_blocked.begin(), m_blocked.end(), uint32_t(i),
                                         [](const auto& e, uint32_t at) { return e.first < at; });
        t.blocked = it->second;
    } else if (reason != kNotBlocked) {
        t.blocked[reason] = t.time[size_t(ThreadState::Blocked)];
    }
    return t;
}

void KeptTotals::shrink_to_fit()
{
    m_bytes.shrink_to_fit();
    m_groupStarts.shrink_to_fit();
    m_blocked.shrink_to_fit();
}

size_t KeptTotals::memoryBytes() const
{
    return m_bytes.capacity() + m_groupStarts.capacity() * sizeof(uint64_t) + m_blocked.capacity() * sizeof(m_blocked[0]);
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
    Intervals kept;
    kept.width = Intervals::widthFor(end, pyramidThreads.size());
    for (size_t i = 0; i < pyramidThreads.size() && kept.width; ++i) {
        const ThreadIntervals t = threadIntervals(*this, pyramidThreads[i], kept.width);
        kept.append(t.first, t.firstTime, t.finished, t.totals);
    }
    moveSegmentsToFile(std::move(pyramidThreads), std::move(totals));
    intervals = std::move(kept);
}

void ThreadStates::moveSegmentsToFile(std::vector<uint32_t> pyramidThreads, KeptTotals totals)
{
    if (segmentsInFile)
        return;
    summarised = std::move(pyramidThreads);
    wholeRun = std::move(totals);
    intervals = {}; // (the caller's, of these threads, after)
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
    std::vector<const PackedSegment*>().swap(sharedChunks);
    std::vector<uint32_t>().swap(sharedFirst);
    std::vector<std::shared_ptr<const void>>().swap(sharedOwners);
    sharedInMemory = sharedMapped = 0;
    std::vector<PackedSegment>().swap(tail);
    std::vector<uint64_t>().swap(tailOffsets);
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
