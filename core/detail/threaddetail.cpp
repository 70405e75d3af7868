#include "core/detail/threaddetail.h"

#include "core/detail/recordwalk.h"
#include "core/format/eventtags.h"
#include "core/threads/threadstats.h"
#include "core/format/recorddecoder.h"
#include "core/index/threadstatesbuilder.h"

#include <algorithm>

namespace hecscope {
namespace {

bool isThreadEvent(uint16_t t)
{
    switch (t) {
    case tag::CreateThread:
    case tag::RunThread:
    case tag::StopThread:
    case tag::ThreadRunnable:
    case tag::MigrateThread:
    case tag::ThreadWakeup: return true;
    default: return false;
    }
}

using Crossing = ThreadCheckpoints::Crossing;

// One stream of records (a capability's, or those outside any block) read
// from its crossing of the start checkpoint on.
struct Stream {
    uint16_t cap = kNoCap;
    const std::vector<Crossing>* crossings = nullptr;
    uint64_t start = 0;   // offset of its first thread event at or after the start checkpoint
    size_t startPiece = 0;
    uint64_t next = 0;    // the next checkpoint whose crossing is checked
    bool begun = false;
    bool done = false;
};

// Hands the thread events read to the walk, checking them against the
// checkpoints' crossings on the way.
class Reader {
public:
    Reader(const ThreadCheckpoints& cp, ThreadStatesBuilder& walk)
        : m_cp(cp)
        , m_walk(walk)
    {
    }
    // `e` with its offset and capability. False (and `error` set) when it
    // is not what the index says is there.
    bool record(const Event& e, Stream& s)
    {
        if (!s.begun) {
            s.begun = true;
            const Crossing& c = (*s.crossings)[s.next - 1];
            if (e.offset != s.start || !e.known || !isThreadEvent(e.tag) || e.time != c.time) {
                error = changedAt(s.start, "not the thread event the index holds");
                return false;
            }
        }
        if (e.tag == tag::BlockMarker || !e.known || !isThreadEvent(e.tag))
            return true;
        const std::vector<Crossing>& cross = *s.crossings;
        if (e.time <= Span::kMaxStart) {
            // The first thread event at or after a checkpoint is where the
            // index says, with the same thread running before it.
            while (s.next < cross.size() && e.time >= m_cp.time(s.next)) {
                const Crossing& c = cross[s.next];
                if (c.offset != e.offset || c.time != e.time || c.running != m_walk.running(e.cap)) {
                    error = changedAt(e.offset, "another thread event than the index holds");
                    return false;
                }
                ++s.next;
            }
        }
        if (s.next < cross.size() && e.offset > cross[s.next].offset) {
            error = changedAt(cross[s.next].offset, "no thread event where the index holds one");
            return false;
        }
        m_walk.consume(e);
        ++events;
        return true;
    }
    std::string error;
    uint64_t events = 0;

private:
    const ThreadCheckpoints& m_cp;
    ThreadStatesBuilder& m_walk;
};

// Unordered logs (no pieces): the whole log, through the decoder.
class WholeLogSink final : public EventSink {
public:
    WholeLogSink(Reader& reader, std::vector<Stream>& streams, size_t globalSlot)
        : m_reader(reader)
        , m_streams(streams)
        , m_global(globalSlot)
    {
    }
    void onEvent(const Event& e) override
    {
        if (failed)
            return;
        const size_t slot = e.cap == kNoCap ? m_global : e.cap;
        if (slot >= m_streams.size() || !m_streams[slot].crossings || e.offset < m_streams[slot].start)
            return;
        if (!m_reader.record(e, m_streams[slot]))
            failed = true;
    }
    bool failed = false;

private:
    Reader& m_reader;
    std::vector<Stream>& m_streams;
    size_t m_global;
};

} // namespace

ThreadDetail readThreadSegments(ByteSource& source, const LogIndex& index, uint64_t t0, uint64_t t1,
                                const std::vector<uint32_t>* threads,
                                const std::function<bool()>& cancelled)
{
    ThreadDetail out;
    out.from = t0;
    out.to = t1;
    if (t1 <= t0)
        return out;
    if (!index.scan.format) {
        out.error = "The log has no thread events to read";
        return out;
    }
    const ThreadCheckpoints& cp = index.threadCheckpoints;
    const ThreadStates& all = index.threadStates;
    const bool ordered = !index.scan.pieces.empty();
    // The checkpoint to start from (a provisional index's threads have no
    // entries, nor has an unordered log a place to start but its first
    // byte: then the log's beginning).
    // Reading from checkpoint j decodes from checkpoint j - 1 on (see
    // ThreadCheckpoints).
    const uint64_t j = cp.hasThreadEntries() && ordered ? cp.before(t0) : 0;
    const uint64_t from = j > 0 ? j - 1 : 0;
    ThreadStatesPart part;
    ThreadStatesBuilder walk(part);
    walk.setEncoding(index.scan.format->stopEncoding());
    walk.readBack(cp.time(from), t0, t1);
    std::vector<uint32_t> wanted;
    if (threads) {
        wanted = *threads;
        std::sort(wanted.begin(), wanted.end());
        wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
        walk.onlyThreads(wanted);
        out.everyThread = false;
        out.threads = wanted;
    }
    // Each thread's walk starts in its last entry's segment: one at j is
    // its state there (its events before j ignored); an earlier one its
    // state at j - 1 unless its events from there on synchronise its walk.
    if (j > 0) {
        const auto seed = [&](size_t k) {
            ThreadSegment s;
            uint64_t check = 0;
            if (cp.segmentAt(k, j, s, &check))
                walk.seedThread(all.ids[k], s, check == j ? cp.time(j) : 0);
        };
        if (threads) {
            for (const uint32_t id : wanted)
                if (const size_t k = all.find(id); k != SIZE_MAX)
                    seed(k);
        } else {
            for (size_t k = 0; k < all.count(); ++k)
                seed(k);
        }
    }
    // Each stream from its first thread event at or after the checkpoint,
    // with the thread running there: slot c for capability c, the last
    // for records outside any capability's block.
    std::vector<Stream> streams(cp.caps.size() + 1);
    uint64_t readFrom = UINT64_MAX; // the first record read
    const size_t globalSlot = cp.caps.size();
    const auto slotOf = [&](uint16_t cap) { return cap == kNoCap ? globalSlot : size_t(cap); };
    for (size_t slot = 0; slot < streams.size(); ++slot) {
        Stream& s = streams[slot];
        s.cap = slot == globalSlot ? kNoCap : uint16_t(slot);
        const std::vector<Crossing>* cross = cp.stream(s.cap);
        if (!cross || cross->size() <= from)
            continue; // every thread event of it is before the checkpoint
        s.crossings = cross;
        s.start = (*cross)[from].offset;
        s.next = from + 1;
        readFrom = std::min(readFrom, s.start);
        walk.seedRunning(s.cap, (*cross)[from].running);
    }
    Reader reader(cp, walk);
    std::vector<uint8_t> buffer;
    if (!ordered) {
        WholeLogSink sink(reader, streams, globalSlot);
        StreamDecoder decoder(sink);
        buffer.resize(size_t(1) << 20);
        for (;;) {
            const size_t n = source.read(out.bytesRead, buffer.data(), buffer.size());
            if (n == 0)
                break;
            out.bytesRead += n;
            if (!decoder.feed({buffer.data(), n}) || sink.failed)
                break;
            if (cancelled && cancelled()) {
                out.error = "Reading thread states was cancelled";
                return out;
            }
        }
        if (!reader.error.empty()) {
            out.error = reader.error;
            return out;
        }
    } else {
        const std::vector<Piece>& pieces = index.scan.pieces;
        // Where each stream starts: the piece holding its first record.
        size_t first = pieces.size();
        size_t active = 0;
        for (Stream& s : streams) {
            if (!s.crossings)
                continue;
            const auto it = std::upper_bound(pieces.begin(), pieces.end(), s.start,
                                             [](uint64_t o, const Piece& p) { return o < p.begin; });
            if (it == pieces.begin() || (it - 1)->cap != s.cap || s.start >= (it - 1)->end) {
                out.error = changedAt(s.start, "no record of " + (s.cap == kNoCap ? std::string("the global block")
                                                                               : "capability " + std::to_string(s.cap))
                                                   + " there");
                return out;
            }
            s.startPiece = size_t(it - pieces.begin()) - 1;
            first = std::min(first, s.startPiece);
            ++active;
        }
        // A stream is read until every record of it still to come has a
        // time at or after t1: per piece, the earliest first time of the
        // stream's later pieces (a stream steps back in time between pieces).
        std::vector<uint64_t> laterMin(pieces.size() - std::min(first, pieces.size()));
        {
            std::vector<uint64_t> minOf(streams.size(), UINT64_MAX);
            for (size_t p = pieces.size(); p-- > first;) {
                const size_t slot = slotOf(pieces[p].cap);
                if (slot >= streams.size())
                    continue;
                laterMin[p - first] = minOf[slot];
                minOf[slot] = std::min(minOf[slot], pieces[p].firstTime);
            }
        }
        const LogFormat& format = *index.scan.format;
        for (size_t p = first; p < pieces.size() && active > 0; ++p) {
            const Piece& piece = pieces[p];
            const size_t slot = slotOf(piece.cap);
            if (slot >= streams.size())
                continue;
            Stream& s = streams[slot];
            if (!s.crossings || s.done || p < s.startPiece)
                continue;
            if (cancelled && (p & 63) == 0 && cancelled()) {
                out.error = "Reading thread states was cancelled";
                return out;
            }
            const uint64_t later = laterMin[p - first];
            if (piece.firstTime >= t1 && later >= t1) {
                s.done = true;
                --active;
                continue;
            }
            uint64_t pos = p == s.startPiece ? s.start : piece.begin;
            uint64_t last = piece.firstTime; // the piece's times never decrease
            bool stopped = false;
            // (64 KB reads: a stream may end early.)
            out.error = walkRecords(
                source, format, pos, piece.end, piece.cap, buffer, size_t(64) << 10,
                [&](const Event& e, std::string& error) {
                    if (e.time < last || e.time > piece.lastTime) {
                        error = changedAt(e.offset, "a time out of the index's order");
                        return WalkOn::Stop;
                    }
                    last = e.time;
                    if (!reader.record(e, s)) {
                        error = reader.error;
                        return WalkOn::Stop;
                    }
                    // The rest of the stream is later.
                    return e.time >= t1 && later >= t1 ? WalkOn::Stop : WalkOn::Next;
                },
                stopped, &out.bytesRead);
            if (!out.error.empty())
                return out;
            if (stopped) {
                s.done = true;
                --active;
            }
        }
    }
    out.events = reader.events;
    if (!walk.seal(std::min(t1, index.lastTime), true, nullptr)) {
        out.error = "Reading thread states was cancelled";
        return out;
    }
    out.states = std::move(part.threadStates);

    // What was walked agrees with the checkpoints inside the range: a
    // thread's entry at a checkpoint after j and up to t1 is its segment
    // in force there.
    if (cp.hasThreadEntries() && ordered) {
        const ThreadStates& got = out.states;
        const uint64_t lastCheck = cp.before(t1);
        for (size_t g = 0; g < got.count(); ++g) {
            const size_t k = all.find(got.ids[g]);
            if (k == SIZE_MAX)
                continue;
            const SegmentView segs = got.of(g);
            const uint64_t last = cp.entryOffsets[k + 1];
            for (uint64_t e = cp.firstEntryAfter(k, j); e < last && cp.entryChecks[e] <= lastCheck; ++e) {
                const uint64_t at = cp.time(cp.entryChecks[e]);
                size_t i = ThreadStates::firstEndingAfter(segs, at - 1); // the last starting before `at`
                const bool found = !segs.empty() && segs.timeAt(i) < at;
                if (!found || !(segs[i] == cp.entry(e))) {
                    out.error = changedAt(readFrom, "thread " + std::to_string(got.ids[g]) + " is not in the state the index holds at "
                                              + std::to_string(at) + " ns, in the records read from here on");
                    out.states = ThreadStates{};
                    return out;
                }
            }
        }
    }
    return out;
}

uint64_t threadDetailBytes(const LogIndex& index, uint64_t t0, uint64_t t1)
{
    if (t1 <= t0)
        return 0;
    const ThreadCheckpoints& cp = index.threadCheckpoints;
    if (index.scan.pieces.empty() || !cp.hasThreadEntries())
        return index.scan.bytes;
    // As readThreadSegments: from checkpoint j - 1 on.
    const uint64_t j = cp.before(t0), from = j > 0 ? j - 1 : 0;
    const uint64_t to = cp.before(t1 - 1) + 1; // the first checkpoint at or after t1
    uint64_t lo = UINT64_MAX, hi = 0;
    bool ends = false; // some stream has a thread event at or after t1
    const auto visit = [&](const std::vector<Crossing>& s) {
        if (s.size() <= from)
            return;
        lo = std::min(lo, s[from].offset);
        if (to < s.size()) {
            hi = std::max(hi, s[to].offset);
            ends = true;
        }
    };
    for (const std::vector<Crossing>& s : cp.caps)
        visit(s);
    visit(cp.global);
    if (lo == UINT64_MAX)
        return 0;
    // (No stream goes on past t1: the read goes to the log's end.)
    return (ends ? hi : index.scan.bytes) - std::min(lo, ends ? hi : index.scan.bytes);
}

std::vector<ThreadFigures> threadFiguresIn(ByteSource* source, const LogIndex& ix, std::optional<ViewRange> range,
                                           const std::function<bool()>& cancelled, std::string* error, uint64_t most)
{
    if (!range || !ix.threadStates.segmentsInFile || ix.threadStates.summarised.empty())
        return allThreadFigures(ix, range, cancelled);
    if (!source) {
        if (error)
            *error = "The log's thread states of a range are read from its file, which is not open";
        return {};
    }
    const ThreadStates& states = ix.threadStates;
    // The threads in memory over the whole range; those in the file only
    // a stretch of at most `most` bytes of the file at a time (times in
    // each state and events add up over the stretches, and a thread is in
    // the range when it is in one of them), so that what is read back at
    // once does not grow with the range.
    std::vector<ThreadFigures> inMemory; // by number
    for (size_t k = 0; k < states.count(); ++k) {
        if ((k & 0x3FF) == 0 && cancelled && cancelled())
            return {};
        if (!states.inFileOnly(k))
            if (std::optional<ThreadFigures> f = threadFiguresInRange(ix, k, *range))
                inMemory.push_back(std::move(*f));
    }
    const std::vector<uint32_t>& summarised = states.summarised; // numbers, ascending
    std::vector<uint32_t> inFile; // their ids
    for (const uint32_t k : summarised)
        inFile.push_back(states.ids[k]);
    // Summarised thread i's figures so far: sums[slot[i]].
    std::vector<ThreadFigures> sums;
    std::vector<uint32_t> slot(summarised.size(), UINT32_MAX);
    // A thread that finished in a stretch before is in none of the later
    // ones, but the range counts its time after it finished: added here.
    std::vector<uint64_t> finishedAt(summarised.size(), kNoTime);
    // What a stretch [a, b) gives summarised thread i: whether it is in
    // the stretch (threadInRange), when it finished if in it, its totals.
    const auto take = [&](size_t i, uint64_t a, uint64_t b, bool inStretch, uint64_t finished, const ThreadTotals& t) {
        if (!inStretch) {
            // (To the stretch's end, as a read of the whole range counts it.)
            if (const uint64_t end = std::min(b, ix.lastTime); slot[i] != UINT32_MAX && finishedAt[i] <= a && end > a)
                sums[slot[i]].time[size_t(ThreadState::Finished)] += end - a;
            return;
        }
        if (finished != kNoTime)
            finishedAt[i] = finished;
        if (slot[i] == UINT32_MAX) { // (its label and times once)
            slot[i] = uint32_t(sums.size());
            sums.push_back(threadFigures(ix, summarised[i], ViewRange{a, b}));
        }
        addTotals(sums[slot[i]], t);
    };
    // The intervals wholly inside the range from the index's totals of
    // each (ThreadStates::Intervals), where it has every thread's in it:
    // what a read of that interval would give. (A thread read back for
    // [a, b) is in it when its first segment starts before b and it ends
    // after a: at its finishing, before b, or where the read ends.)
    const ThreadStates::Intervals& kept = states.intervals;
    const uint64_t width = kept.first.size() == summarised.size() ? kept.width : 0;
    std::vector<ThreadTotals> fromIndex(summarised.size());
    std::vector<uint8_t> inInterval(summarised.size());
    const auto fromIntervals = [&](uint64_t a) {
        const uint64_t j = a / width, b = a + width;
        for (size_t i = 0; i < summarised.size(); ++i) {
            const uint64_t finished = kept.finished[i];
            const uint64_t lastEnd = finished < b ? finished : std::min(b, ix.lastTime);
            inInterval[i] = kept.firstTime[i] < b && lastEnd > a;
            if (!inInterval[i])
                continue;
            const std::optional<ThreadTotals> t = kept.at(i, j);
            if (!t)
                return false; // (not kept: read back)
            fromIndex[i] = *t;
        }
        for (size_t i = 0; i < summarised.size(); ++i)
            take(i, a, b, inInterval[i], kept.finished[i] < b ? kept.finished[i] : kNoTime, fromIndex[i]);
        return true;
    };
    const ThreadCheckpoints& cp = ix.threadCheckpoints;
    size_t stretches = 0;
    for (uint64_t a = range->start; a < range->end;) {
        if ((++stretches & 0x3F) == 0 && cancelled && cancelled())
            return {};
        // (Up to the log's last event: past it, one stretch to the end.)
        const bool intervals = width && a < ix.lastTime;
        if (intervals && a % width == 0 && range->end - a >= width && fromIntervals(a)) {
            a += width;
            continue;
        }
        // The stretch: to the latest checkpoint within `most` bytes (at
        // least the next one), or the range's end; with intervals kept, at
        // most to the next interval's start.
        uint64_t b = range->end;
        if (intervals)
            b = std::min(b, (a / width + 1) * width);
        if (threadDetailBytes(ix, a, b) > most) {
            uint64_t lo = cp.before(a) + 1, hi = cp.before(b - 1);
            while (lo < hi) {
                const uint64_t mid = hi - (hi - lo) / 2;
                if (threadDetailBytes(ix, a, cp.time(mid)) <= most)
                    lo = mid;
                else
                    hi = mid - 1;
            }
            b = std::min(b, std::max(a + 1, cp.time(lo)));
        }
        // (From a ns before the stretch: a read keeps a thread's segments
        // from the one in force at its start, the last starting at or
        // before it, but the figures count the event of every segment
        // starting at a, several there if several events came at once, as
        // threadTotals does; so the first kept is the last before a.)
        const ThreadDetail detail = readThreadSegments(*source, ix, a > 0 ? a - 1 : a, b, &inFile, cancelled);
        if (!detail.error.empty()) {
            if (error)
                *error = detail.error;
            return {};
        }
        const ViewRange stretch{a, b};
        for (size_t i = 0; i < summarised.size(); ++i) {
            const size_t g = detail.states.find(states.ids[summarised[i]]);
            if (g == SIZE_MAX || !threadInRange(detail.states, g, stretch)) {
                take(i, a, b, false, kNoTime, {});
                continue;
            }
            const SegmentView segs = detail.states.of(g);
            take(i, a, b, true, segs.back().state == ThreadState::Finished ? segs.back().time : kNoTime,
                 threadTotals(detail.states, g, a, b));
        }
        a = b;
    }
    // Both by number, as allThreadFigures gives them.
    std::vector<ThreadFigures> out;
    out.reserve(inMemory.size() + sums.size());
    size_t m = 0;
    for (size_t i = 0; i < summarised.size(); ++i) {
        if (slot[i] == UINT32_MAX)
            continue;
        for (; m < inMemory.size() && inMemory[m].number < summarised[i]; ++m)
            out.push_back(std::move(inMemory[m]));
        out.push_back(std::move(sums[slot[i]]));
    }
    for (; m < inMemory.size(); ++m)
        out.push_back(std::move(inMemory[m]));
    return out;
}

} // namespace hecscope
