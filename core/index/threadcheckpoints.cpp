#include "core/index/threadstatespart.h"

#include "core/format/eventtags.h"
#include "core/index/gallop.h"
#include "core/index/threadstatesbuild.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <functional>
#include <new>
#include <system_error>
#include <type_traits>
#include <unordered_map>
#include <utility>

namespace hecscope {

// ThreadCheckpoints: each thread's state at evenly spaced checkpoints.

using namespace threadbuild;

ThreadCheckpoints::Source threadbuild::sourceOf(const ThreadStates& states, const ThreadCheckpoints::Visit& visit)
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
    const int shift = std::countr_zero(spacing); // (a power of two)
    SegmentCursor at(segs, 0);
    while (!at.done()) {
        const uint64_t interval = at.time() >> shift;
        bool synced = false;
        size_t last = at.index();
        while (!at.done() && (at.time() >> shift) == interval) {
            synced = synced || synchronises(ThreadCause((at.packed().bits >> 3) & 7));
            last = at.index();
            at.next();
        }
        const bool nextActive = !at.done() && (at.time() >> shift) == interval + 1;
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
    // (Each chunk filled goes to this one's file at once, and the pages
    // of `one`'s chunks mapped from its file are let go once read: many
    // threads' entries at a time take no memory for them all.)
    const auto letGo = [](const auto& array, size_t c) {
        if (array.isMapped(c))
            SpillFile::releasePages(array.chunk(c), array.mappedLength(c) * sizeof(*array.chunk(c)));
    };
    for (size_t e = 0; e < one.entrySegments.size(); ++e) {
        entryChecks.push_back(one.entryChecks[e]);
        entrySegments.push_back(one.entrySegments[e]);
        if ((e + 1) % EntrySegments::kChunk == 0) {
            letGo(one.entrySegments, e / EntrySegments::kChunk);
            mapFullEntries();
        }
        if ((e + 1) % EntryChecks::kChunk == 0)
            letGo(one.entryChecks, e / EntryChecks::kChunk);
    }
    for (const auto& [e, time] : one.entryFarTimes)
        entryFarTimes.emplace_back(base + e, time);
    for (const auto& [e, info] : one.entryInfos)
        entryInfos.emplace_back(base + e, info);
    for (size_t k = 1; k < one.entryOffsets.size(); ++k)
        entryOffsets.push_back(base + one.entryOffsets[k]);
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

} // namespace hecscope
