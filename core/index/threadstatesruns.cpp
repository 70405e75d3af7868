#include "core/index/threadstatesbuilder.h"

#include "core/format/eventtags.h"
#include "core/index/gallop.h"
#include "core/index/threadstatesbuild.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstring>
#include <functional>
#include <future>
#include <new>
#include <system_error>
#include <unordered_map>
#include <utility>

namespace hecscope {

// ThreadStatesBuilder's runs: settled thread events written to the spill
// file in frames (writeRun), and a load's final seal that merges them thread
// by thread (sealRuns).

using namespace threadbuild;

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
    forgetSettled();
    const auto write = [this] {
        // Grouped by thread straight from the raw events.
        std::vector<Raw>& run = m_scratch; // (its memory kept from one run to the next)
        groupByThreadInto(std::as_const(m_batch), run);
        const size_t n = run.size();
        const bool ok = appendRun(run, m_runs);
        run.clear();
        if (!ok) {
            m_runsFailed = true; // (join() puts the events back)
            return;
        }
        m_eventsInRuns += n;
        // Its chunks, and the scratch's memory, kept for the next run's
        // events: a run's worth. (The first run after a load claims its
        // insurance holds every event that waited for the stuck bound,
        // kStuckRuns runs' worth; kept, they were 130 MB of a 1.17 GB log's
        // peak RSS to the end of its load.)
        m_batch.shrinkTo(0);
        m_batch.releaseFrom(m_runEvents);
        if (run.capacity() > m_runEvents)
            std::vector<Raw>().swap(run);
    };
    runApart(write);
}

void ThreadStatesBuilder::waitingToRuns()
{
    if (m_waiting.empty() || !m_spillOn || m_runsFailed)
        return; // (drain() unpacks them)
    ChunkedArray<Raw> before = std::move(m_raw);
    m_raw = {};
    std::vector<Raw> piece;
    piece.reserve(std::min(m_runEvents, before.size() + m_waiting.size()));
    const auto flush = [&] {
        if (!m_runsFailed && !piece.empty()) {
            std::vector<Raw>& run = m_scratch;
            groupByThreadInto(std::as_const(piece), run);
            if (appendRun(run, m_runs))
                m_eventsInRuns += run.size();
            else
                m_runsFailed = true;
            run.clear();
            if (!m_runsFailed)
                piece.clear();
        }
        for (const Raw& r : piece)
            m_raw.push_back(r); // (what is not in the file stays in memory)
        piece.clear();
    };
    const auto take = [&](const Raw& r) {
        piece.push_back(r);
        if (piece.size() >= m_runEvents)
            flush();
    };
    for (size_t i = 0; i < before.size(); ++i)
        take(std::as_const(before)[i]);
    before = {};
    m_waiting.forEach(take);
    m_waiting.clear();
    flush();
    if (m_scratch.capacity() > m_runEvents)
        std::vector<Raw>().swap(m_scratch);
}

bool ThreadStatesBuilder::appendRun(const std::vector<Raw>& run, std::vector<Run>& into)
{
    const size_t n = run.size();
    if (!m_runFile)
        m_runFile = std::make_unique<SpillFile>();
    // Encoded a frame at a time into a buffer of about 256 KB, appended
    // whenever it fills (the run's pieces follow one another in the file:
    // one writer at a time appends to it).
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
        written.frameThreads.push_back(run[at].thread);
        if (bytes.size() >= kRunBuffer)
            append();
    }
    if (ok && !bytes.empty())
        append();
    if (!ok)
        return false;
    m_runFileBytes += fileBytes;
    into.push_back(std::move(written));
    return true;
}

namespace {

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
        const size_t segmentBytes = e.segments * sizeof(PackedSegment);
        const size_t rest = e.checks * sizeof(uint64_t) + (size_t(e.far) + e.infos) * 2 * sizeof(uint64_t);
        // The segments straight into their place (a long thread's are most
        // of the log's: not through a buffer of their size as well), the
        // rest through m_read.
        one.packed.allocate(std::max<size_t>(e.segments, 1) * sizeof(PackedSegment));
        m_read.resize(rest);
        if (!readAt(e.offset, one.packed.bytes(), segmentBytes) || !readAt(e.offset + segmentBytes, m_read.data(), rest))
            return false;
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
    // `bytes` taken at `offset`: from the file, and from the buffer what
    // is not written yet.
    bool readAt(uint64_t offset, void* into, size_t bytes) const
    {
        auto* to = static_cast<char*>(into);
        const size_t inFile = size_t(std::min<uint64_t>(bytes, m_written - std::min(m_written, offset)));
        if (inFile > 0 && !m_file.read(offset, to, inFile))
            return false;
        if (inFile < bytes)
            std::memcpy(to + inFile, m_buffer.data() + (offset + inFile - m_written), bytes - inFile);
        return true;
    }
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

namespace {

// Thread `from`'s threads appended to `into`'s (both as a merge of runs
// leaves them: segments in `packed`, offsets ending with the count), and
// let go from `from` as they are.
void appendThreads(ThreadStates& into, ThreadStates& from)
{
    const uint64_t segments = into.offsets.back(), checks = into.checkTimes.size(), keys = into.overviewKeys.size();
    into.ids.insert(into.ids.end(), from.ids.begin(), from.ids.end());
    std::vector<uint32_t>().swap(from.ids);
    into.offsets.pop_back();
    for (const uint64_t o : from.offsets)
        into.offsets.push_back(o + segments);
    std::vector<uint64_t>().swap(from.offsets);
    into.checkOffsets.pop_back();
    for (const uint64_t o : from.checkOffsets)
        into.checkOffsets.push_back(o + checks);
    std::vector<uint64_t>().swap(from.checkOffsets);
    into.checkTimes.insert(into.checkTimes.end(), from.checkTimes.begin(), from.checkTimes.end());
    std::vector<uint64_t>().swap(from.checkTimes);
    for (const auto& [at, time] : from.farTimes)
        into.farTimes.emplace_back(at + segments, time);
    std::vector<std::pair<uint64_t, uint64_t>>().swap(from.farTimes);
    for (const auto& [at, info] : from.infos)
        into.infos.emplace_back(at + segments, info);
    std::vector<std::pair<uint64_t, uint16_t>>().swap(from.infos);
    for (BinPyramid ov : from.overviews) {
        if (ov.bins)
            ov.offset += keys;
        into.overviews.push_back(ov);
    }
    std::vector<BinPyramid>().swap(from.overviews);
    into.overviewKeys.insert(into.overviewKeys.end(), from.overviewKeys.begin(), from.overviewKeys.end());
    std::vector<uint8_t>().swap(from.overviewKeys);
    into.packed.append(from.packed);
    from.packed.allocate(0);
}

} // namespace

// The whole walk over the runs in the file and the raw events since,
// merged thread by thread: each thread's events from every run in log
// order, then by time (equal times in log order), as sealAll sorts them.
// A load's final seal merges the threads below a middle id and those from
// it on at once, on two threads of ours (on the synthesized 1 GB log the
// merge took 3 s of a 4 s seal), and puts the two together in order.
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
    // What a merge of the threads [lo, hi) makes. A load's final seal
    // (whose index keeps no segments of a thread with a pyramid) bins each
    // such thread as the merge gives it, and its segments wait in a file
    // for the checkpoint entries: the seal never holds them all
    // (DroppedSegments; `binAsMerged`).
    enum class Merged { Done, Cancelled, Lost };
    struct Part {
        ThreadStates states;
        DroppedSegments dropped;
        bool binAsMerged = false;
        std::vector<uint32_t> pyramidThreads; // (by number in `states`)
        KeptTotals totals;
        Merged result = Merged::Done;
    };
    const uint64_t total = m_eventsInRuns + tail.size();
    constexpr uint64_t kAll = uint64_t(1) << 32; // (every thread id is below)
    std::atomic<bool> stop = false;
    const auto merge = [&](uint64_t lo, uint64_t hi, Part& part, bool checkCancel) {
        ThreadStates& states = part.states;
        states.end = end;
        const auto fail = [&](Merged why) {
            part.result = why;
            stop = true;
        };
        std::vector<Reader> readers(m_runs.size() + 1);
        for (size_t r = 0; r < m_runs.size(); ++r) {
            // From the frame holding the range's first thread: the last
            // one beginning before it (its threads before it skipped).
            const Run& run = m_runs[r];
            Reader& reader = readers[r];
            size_t f = size_t(std::lower_bound(run.frameThreads.begin(), run.frameThreads.end(), lo) - run.frameThreads.begin());
            f = f > 0 ? f - 1 : 0;
            reader.file = m_runFile.get();
            reader.run = &run;
            reader.offset = run.offset;
            for (size_t i = 0; i < f; ++i)
                reader.offset += run.frameBytes[i];
            reader.frame = f;
            reader.left = run.count - uint64_t(f) * kRunFrame;
            if (!reader.fill())
                return fail(Merged::Lost);
            while (!reader.done() && reader.head().thread < lo)
                if (!reader.advance())
                    return fail(Merged::Lost);
        }
        const auto byThread = [](const Raw& r, uint64_t id) { return r.thread < id; };
        if (lo == 0 && hi == kAll)
            readers.back().buffer = std::move(tail); // (the only merge)
        else
            readers.back().buffer.assign(std::lower_bound(tail.begin(), tail.end(), lo, byThread),
                                         std::lower_bound(tail.begin(), tail.end(), hi, byThread));
        const auto inRange = [&](const Reader& reader) { return !reader.done() && reader.head().thread < hi; };
        // The readers by the thread at their head, lowest first (then the
        // earlier run).
        const auto later = [&](size_t a, size_t b) {
            const uint32_t ta = readers[a].head().thread, tb = readers[b].head().thread;
            return ta != tb ? ta > tb : a > b;
        };
        std::vector<size_t> heap;
        for (size_t r = 0; r < readers.size(); ++r)
            if (inRange(readers[r]))
                heap.push_back(r);
        std::make_heap(heap.begin(), heap.end(), later);

        // Segments are never more than events: room for as many, of which
        // only the pages written are ever touched.
        states.packed.allocate(std::max<uint64_t>(total, 1) * sizeof(PackedSegment));
        PackedSegment* dest = static_cast<PackedSegment*>(states.packed.bytes());
        size_t written = 0;
        std::vector<size_t> from;
        OverviewScratch scratch;
        while (!heap.empty()) {
            if ((states.ids.size() & 0xFFF) == 0 && (stop || (checkCancel && isCancelled(observer))))
                return fail(Merged::Cancelled);
            const uint32_t id = readers[heap.front()].head().thread;
            from.clear();
            while (!heap.empty() && readers[heap.front()].head().thread == id) {
                std::pop_heap(heap.begin(), heap.end(), later);
                from.push_back(heap.back());
                heap.pop_back();
            }
            std::sort(from.begin(), from.end()); // (log order)
            const size_t first = written;
            states.ids.push_back(id);
            states.offsets.push_back(first);
            states.checkOffsets.push_back(states.checkTimes.size());
            ThreadSegment cur{};
            bool any = false;
            // The thread's events from each run (each run's in time order)
            // merged by time, equal times the earlier run's first: the
            // order a stable sort of them all in log order gives, without
            // ever holding them all (16 bytes each; one thread may have
            // most of the log's).
            bool lost = false;
            while (!from.empty() && !lost) {
                size_t pick = 0;
                for (size_t j = 1; j < from.size(); ++j)
                    if (readers[from[j]].head().time < readers[from[pick]].head().time)
                        pick = j;
                Reader& reader = readers[from[pick]];
                // (From the chosen run: its events up to the next run's
                // earliest, at once.)
                uint64_t until = UINT64_MAX;
                for (size_t j = 0; j < from.size(); ++j)
                    if (j != pick)
                        until = std::min(until, readers[from[j]].head().time + (j < pick ? 0 : 1));
                do {
                    ThreadSegment s;
                    if (walkStep(reader.head(), cur, any, s)) {
                        cur = s;
                        any = true;
                        dest[written] = packSegment(s, written - first, written, states.checkTimes, states.farTimes,
                                                    states.infos);
                        ++written;
                    }
                    if (!reader.advance()) {
                        lost = true;
                        break;
                    }
                } while (!reader.done() && reader.head().thread == id && reader.head().time < until);
                if (!lost && (reader.done() || reader.head().thread != id)) {
                    if (inRange(reader)) {
                        heap.push_back(from[pick]);
                        std::push_heap(heap.begin(), heap.end(), later);
                    }
                    from.erase(from.begin() + ptrdiff_t(pick));
                }
            }
            if (lost)
                return fail(Merged::Lost);
            if (part.binAsMerged && written - first >= ThreadStates::kOverviewMinSegments) {
                const size_t k = states.ids.size() - 1;
                states.overviews.resize(k + 1);
                states.offsets.push_back(written); // (for of(k), until the next thread's)
                states.checkOffsets.push_back(states.checkTimes.size());
                ThreadTotals whole;
                buildOverview(states, k, scratch, false, nullptr, nullptr, 0, &whole);
                states.offsets.pop_back();
                states.checkOffsets.pop_back();
                part.pyramidThreads.push_back(uint32_t(k));
                part.totals.push_back(whole);
                if (part.dropped.take(states, k, first, written))
                    written = first;
            }
        }
        states.offsets.push_back(written);
        states.checkOffsets.push_back(states.checkTimes.size());
        states.packed.shrinkTo(written);
        if (part.binAsMerged) {
            states.overviews.resize(states.count());
            part.dropped.flush();
        }
    };

    // The middle id: half the events below it, as the frames' first
    // threads tell (a load's final seal of two runs' events or more).
    std::array<Part, 2> parts; // (the second only when split)
    size_t partCount = 1;
    parts[0].binAsMerged = final && m_dropPyramidSegments && parts[0].dropped.open();
    uint64_t middle = 0;
    if (parts[0].binAsMerged && total >= 2 * uint64_t(m_runEvents)) {
        std::vector<std::pair<uint32_t, uint64_t>> weights; // (first thread, events)
        for (const Run& run : m_runs)
            for (size_t f = 0; f < run.frameThreads.size(); ++f)
                weights.emplace_back(run.frameThreads[f], std::min<uint64_t>(kRunFrame, run.count - f * kRunFrame));
        for (size_t i = 0; i < tail.size(); i += kRunFrame)
            weights.emplace_back(tail[i].thread, std::min<uint64_t>(kRunFrame, tail.size() - i));
        std::sort(weights.begin(), weights.end());
        uint64_t below = 0;
        for (const auto& [thread, events] : weights) {
            if (2 * (below + events) > total) {
                middle = thread;
                break;
            }
            below += events;
        }
        if (middle > weights.front().first) { // (else nothing below it)
            parts[1].binAsMerged = parts[1].dropped.open();
            partCount = parts[1].binAsMerged ? 2 : 1; // (else one merge)
        }
    }
    if (partCount == 1) {
        merge(0, kAll, parts[0], true);
    } else {
        std::future<void> upper;
        try {
            upper = std::async(std::launch::async, [&] { merge(middle, kAll, parts[1], false); });
        } catch (const std::system_error&) {
            // (No thread to be had: after the lower ones, on this one.)
        }
        merge(0, middle, parts[0], true);
        if (upper.valid())
            upper.get();
        else if (parts[0].result == Merged::Done)
            merge(middle, kAll, parts[1], true);
    }
    std::vector<Raw>().swap(tail);
    if (final) {
        m_runs.clear();
        m_runFile.reset();
    }
    for (size_t p = 0; p < partCount; ++p)
        if (parts[p].result == Merged::Lost)
            return lose();
    for (size_t p = 0; p < partCount; ++p)
        if (parts[p].result != Merged::Done)
            return false;
    out = std::move(parts[0].states);
    const size_t lowerCount = out.count();
    if (partCount > 1)
        appendThreads(out, parts[1].states);
    if (parts[0].binAsMerged) {
        const auto partOf = [&](size_t k) { return k < lowerCount ? std::pair<size_t, size_t>(0, k) : std::pair<size_t, size_t>(1, k - lowerCount); };
        ThreadCheckpoints::Source source;
        source.threads = out.count();
        source.segments = out.segmentCount();
        for (size_t p = 0; p < partCount; ++p)
            source.segments += parts[p].dropped.segments();
        const ThreadCheckpoints::Source inMemory = sourceOf(out, {}); // (the threads not binned)
        source.extent = [&](size_t k) {
            const auto [p, local] = partOf(k);
            const size_t d = parts[p].dropped.find(local);
            return d != SIZE_MAX ? parts[p].dropped.extent(d) : inMemory.extent(k);
        };
        // (Thread k's segments read into `buffer` if they are in a file.)
        const auto readThread = [&](size_t k, ThreadStates& buffer, const std::function<void(const SegmentView&)>& use) {
            const auto [p, local] = partOf(k);
            const size_t d = parts[p].dropped.find(local);
            if (d == SIZE_MAX)
                return inMemory.read(k, use);
            if (!parts[p].dropped.read(d, out.end, buffer))
                return false;
            use(buffer.of(0));
            return true;
        };
        ThreadStates one;
        bool cancelled = false;
        source.read = [&](size_t k, const std::function<void(const SegmentView&)>& use) {
            if ((k & 0xFFF) == 0 && isCancelled(observer)) {
                cancelled = true;
                return false;
            }
            return readThread(k, one, use);
        };
        ThreadCheckpoints& cp = m_part.threadCheckpoints;
        if (partCount == 1) {
            if (!cp.makeThreadEntries(source, true))
                return cancelled ? false : lose();
        } else {
            // The spacing chosen, the upper part's entries are made on a
            // thread of ours beside the lower part's (to a file of their
            // own, then appended after them), as makeThreadEntries makes
            // them all.
            if (!cp.chooseSpacing(source))
                return cancelled ? false : lose();
            ThreadCheckpoints upper;
            upper.spacing = cp.spacing;
            upper.beginThreadEntries(out.count() - lowerCount, true);
            std::atomic<bool> upperFailed = false;
            ThreadStates upperOne;
            const auto makeUpper = [&] {
                const auto add = [&](const SegmentView& segs) { upper.addThread(segs); };
                for (size_t k = lowerCount; k < out.count() && !stop; ++k) {
                    if (!readThread(k, upperOne, add)) {
                        upperFailed = true;
                        return;
                    }
                }
            };
            std::future<void> helper;
            try {
                helper = std::async(std::launch::async, makeUpper);
            } catch (const std::system_error&) {
                // (No thread to be had: after the lower ones, on this one.)
            }
            cp.beginThreadEntries(out.count(), true);
            const auto add = [&](const SegmentView& segs) { cp.addThread(segs); };
            bool ok = true;
            for (size_t k = 0; k < lowerCount && ok; ++k)
                ok = source.read(k, add);
            stop = !ok;
            if (helper.valid())
                helper.get();
            else if (ok)
                makeUpper();
            if (!ok)
                return cancelled ? false : lose();
            if (upperFailed)
                return lose();
            cp.appendThreadEntries(upper);
            cp.endThreadEntries();
        }
        std::vector<uint32_t> pyramidThreads = std::move(parts[0].pyramidThreads);
        KeptTotals totals = std::move(parts[0].totals);
        m_binnedAsMerged = parts[0].dropped.count();
        if (partCount > 1) {
            for (const uint32_t k : parts[1].pyramidThreads)
                pyramidThreads.push_back(uint32_t(k + lowerCount));
            for (size_t i = 0; i < parts[1].totals.size(); ++i)
                totals.push_back(parts[1].totals[i]);
            m_binnedAsMerged += parts[1].dropped.count();
        }
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

} // namespace hecscope
