#include "core/order/timeorder.h"

#include "core/format/recorddecoder.h"

#include <algorithm>
#include <map>
#include <optional>

namespace hecscope {
namespace {

constexpr size_t kScanChunk = 1 << 20;
constexpr uint64_t kCheckpointSpacing = 64 * 1024; // bytes between checkpoints
// Cursor buffers must hold any record (at most 65535 + 12 bytes). They stay
// below malloc's mmap threshold (128 KiB) so that the many short-lived cursors
// of a sliced visit reuse heap memory instead of faulting in fresh pages.
constexpr size_t kCursorBuffer = 96 * 1024;

// Reads the records of one run (a list of pieces in file order) through a
// private buffer. The current event points into that buffer and stays valid
// until the next advance().
class RunCursor {
public:
    // `eventsBefore`, if given, holds the run's events before each piece,
    // so that ordinal() can say where the current event stands in the run.
    RunCursor(ByteSource& source, const LogScan& scan, const std::vector<const Piece*>& pieces,
              const std::vector<uint64_t>* eventsBefore = nullptr)
        : m_source(source), m_scan(scan), m_pieces(pieces), m_eventsBefore(eventsBefore)
        , m_buffer(new uint8_t[kCursorBuffer])
    {
        m_pos = m_pieces.front()->begin;
    }

    const Event& event() const { return m_event; }
    // Position of the current event in its run (valid with eventsBefore).
    uint64_t ordinal() const { return m_next - 1; }

    // Positions the cursor on the run's first event with time >= `time`.
    bool seek(uint64_t time)
    {
        while (m_piece < m_pieces.size() && m_pieces[m_piece]->lastTime < time)
            ++m_piece;
        if (m_piece == m_pieces.size())
            return false;
        const Piece& p = *m_pieces[m_piece];
        m_pos = p.begin;
        m_next = m_eventsBefore ? (*m_eventsBefore)[m_piece] : 0;
        const Checkpoint* cps = m_scan.checkpoints.data() + p.firstCheckpoint;
        const Checkpoint* last = std::lower_bound(
            cps, cps + p.checkpointCount, time,
            [](const Checkpoint& c, uint64_t t) { return c.time < t; });
        if (last != cps) {
            m_pos = (last - 1)->offset;
            m_next += (last - 1)->ordinal;
        }
        while (advance())
            if (m_event.time >= time)
                return true;
        return false;
    }

    bool advance()
    {
        while (m_pos >= m_pieces[m_piece]->end) {
            if (++m_piece == m_pieces.size())
                return false;
            m_pos = m_pieces[m_piece]->begin;
            if (m_eventsBefore)
                m_next = (*m_eventsBefore)[m_piece];
        }
        const uint64_t pieceEnd = m_pieces[m_piece]->end;
        for (int attempt = 0; attempt < 2; ++attempt) {
            const size_t at = size_t(m_pos - m_bufferStart);
            if (m_pos >= m_bufferStart && m_pos < m_bufferStart + m_bufferLength) {
                const RecordResult r = decodeRecord(*m_scan.format, m_buffer.get() + at,
                                                    m_bufferLength - at, m_event);
                if (r.status == RecordStatus::Ok) {
                    m_event.offset = m_pos;
                    m_event.cap = m_pieces[m_piece]->cap;
                    m_pos += r.size;
                    ++m_next;
                    return true;
                }
            }
            refill(pieceEnd);
        }
        m_piece = m_pieces.size() - 1; // the file changed under us: end this run
        m_pos = pieceEnd;
        return false;
    }

private:
    void refill(uint64_t pieceEnd)
    {
        const size_t want = size_t(std::min<uint64_t>(kCursorBuffer, pieceEnd - m_pos));
        m_bufferStart = m_pos;
        m_bufferLength = m_source.read(m_pos, m_buffer.get(), want);
    }

    ByteSource& m_source;
    const LogScan& m_scan;
    const std::vector<const Piece*>& m_pieces;
    const std::vector<uint64_t>* m_eventsBefore;
    size_t m_piece = 0;
    uint64_t m_pos = 0;
    uint64_t m_next = 0; // ordinal of the next event advance() delivers
    std::unique_ptr<uint8_t[]> m_buffer; // uninitialised
    uint64_t m_bufferStart = 0;
    size_t m_bufferLength = 0;
    Event m_event;
};

// `to` is exclusive, except that kUnbounded includes every time up to and
// including UINT64_MAX (damaged logs can carry any timestamp).
bool pastEnd(uint64_t time, uint64_t to)
{
    return time >= to && to != TimeOrder::kUnbounded;
}

// Growing time windows for searches that stop early: the end of a window of
// `width` from `from` (saturating to kUnbounded), and the next width.
uint64_t windowEnd(uint64_t from, uint64_t width)
{
    return width >= TimeOrder::kUnbounded - from ? TimeOrder::kUnbounded : from + width;
}

uint64_t widen(uint64_t width)
{
    return width < (uint64_t(1) << 62) ? width * 4 : width;
}

bool before(const Event& a, const Event& b)
{
    return a.time < b.time || (a.time == b.time && a.offset < b.offset);
}

// Groups pieces into runs (RunPacker): file-ordered chains of pieces whose
// times never decrease across piece boundaries.
std::vector<std::vector<const Piece*>> formRuns(const std::vector<Piece>& pieces)
{
    std::vector<std::vector<const Piece*>> runs;
    RunPacker packer;
    for (const Piece& p : pieces) {
        const size_t run = packer.place(p.firstTime, p.lastTime);
        if (run == runs.size())
            runs.emplace_back();
        runs[run].push_back(&p);
    }
    return runs;
}

// The fallback for logs too unordered to merge: decode the log again,
// keeping 16 bytes per event (time; offset and capability packed), sort, then
// read each record back. Offsets up to 2^48 bytes.
class PositionCollector final : public EventSink {
public:
    struct Entry {
        uint64_t time;
        uint64_t place; // offset << 16 | capability
    };
    explicit PositionCollector(std::vector<Entry>& entries) : m_entries(entries) {}
    void onEvent(const Event& e) override
    {
        m_entries.push_back({e.time, e.offset << 16 | e.cap});
    }

private:
    std::vector<Entry>& m_entries;
};

// Counts events earlier than a time (for unordered logs, whose sorted visit
// delivers them first).
class PositionCounter final : public EventSink {
public:
    PositionCounter(uint64_t t, uint64_t& n) : m_t(t), m_n(n) {}
    void onEvent(const Event& e) override { m_n += e.time < m_t; }

private:
    uint64_t m_t;
    uint64_t& m_n;
};

void visitBySorting(ByteSource& source, const LogScan& scan, EventSink& sink)
{
    using Entry = PositionCollector::Entry;
    std::vector<Entry> entries;
    entries.reserve(size_t(scan.events));
    {
        PositionCollector collector(entries);
        StreamDecoder decoder(collector);
        std::vector<uint8_t> chunk(kScanChunk);
        for (uint64_t pos = 0; pos < scan.bytes && decoder.eventCount() < scan.events;) {
            const size_t want = size_t(std::min<uint64_t>(chunk.size(), scan.bytes - pos));
            const size_t got = source.read(pos, chunk.data(), want);
            if (got == 0 || !decoder.feed({chunk.data(), got}))
                break;
            pos += got;
        }
        if (entries.size() > scan.events) // the file changed since the scan
            entries.resize(size_t(scan.events));
    }
    // (time, offset) is unique, so this order is exactly the stable one.
    std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
        return a.time < b.time || (a.time == b.time && a.place < b.place);
    });
    std::vector<uint8_t> record(kCursorBuffer);
    constexpr size_t kFirstRead = 64; // most records fit; longer ones are read again
    Event e;
    for (const Entry& en : entries) {
        const uint64_t offset = en.place >> 16;
        size_t got = source.read(offset, record.data(), kFirstRead);
        RecordResult r = decodeRecord(*scan.format, record.data(), got, e);
        if (r.status == RecordStatus::NeedMore && r.size <= record.size()) {
            got = source.read(offset, record.data(), r.size);
            r = decodeRecord(*scan.format, record.data(), got, e);
        }
        if (r.status != RecordStatus::Ok)
            continue;
        e.offset = offset;
        e.cap = uint16_t(en.place & 0xFFFF);
        sink.onEvent(e);
    }
}

} // namespace

void PieceCollector::onHeader(const std::shared_ptr<const LogFormat>& format)
{
    if (m_observer)
        m_observer->onHeader(format);
}

void PieceCollector::onEvent(const Event& e)
{
    if (m_observer)
        m_observer->onEvent(e);
    if (e.tag == tag::BlockMarker && e.known) {
        m_scan.blocks.push_back({e.offset, e.n[1], e.offset + e.n[0], uint16_t(e.n[2])});
        m_marker = {e.offset, e.recordSize};
        m_markerNoted = false;
    } else if (e.tag < m_startupTags.size() && m_startupTags[e.tag]) {
        if (!m_markerNoted && m_marker.second)
            m_scan.startupRecords.push_back(m_marker);
        m_markerNoted = true;
        m_scan.startupRecords.push_back({e.offset, e.recordSize});
    }
    if (!m_scan.ordered)
        return;
    auto& pieces = m_scan.pieces;
    // (A piece is one stretch of bytes: a decoder told to skip some, as a
    // live session keeping its latest stretch does, starts another.)
    if (pieces.empty() || pieces.back().cap != e.cap || e.time < pieces.back().lastTime
        || pieces.back().end != e.offset) {
        if (!pieces.empty()) {
            m_packer.place(pieces.back().firstTime, pieces.back().lastTime);
            // Too many runs to merge, or pieces so short (GHC's blocks hold
            // kilobytes) that they would cost more than sorting: give up.
            if (m_packer.runs() > TimeOrder::kMaxRuns
                || (pieces.size() > 4096 && pieces.size() * 512 > e.offset)) {
                giveUpOrder();
                return;
            }
        }
        pieces.push_back(Piece{e.offset, e.offset, e.time, e.time, e.cap,
                               uint32_t(m_scan.checkpoints.size()), 0, 0});
        m_nextCheckpoint = e.offset;
    }
    Piece& p = pieces.back();
    if (e.offset >= m_nextCheckpoint) {
        m_scan.checkpoints.push_back({e.time, e.offset, p.events, {}});
        ++p.checkpointCount;
        m_nextCheckpoint = e.offset + kCheckpointSpacing;
    }
    m_scan.checkpoints.back().tags.set(tagBit(e.tag));
    p.end = e.offset + e.recordSize;
    p.lastTime = e.time;
    ++p.events;
}

void PieceCollector::giveUpOrder()
{
    m_scan.ordered = false;
    std::vector<Piece>().swap(m_scan.pieces);
    std::vector<Checkpoint>().swap(m_scan.checkpoints);
}

size_t RunPacker::place(uint64_t firstTime, uint64_t lastTime)
{
    size_t run;
    auto it = m_ends.upper_bound(firstTime);
    if (it != m_ends.begin()) {
        --it;
        run = it->second;
        m_ends.erase(it);
    } else {
        run = m_runs++;
    }
    m_ends.emplace(lastTime, run);
    return run;
}

LogScan scanLog(ByteSource& source, EventSink* observer)
{
    LogScan scan;
    PieceCollector collector(scan, observer);
    StreamDecoder decoder(collector);
    std::vector<uint8_t> chunk(kScanChunk);
    for (;;) {
        const size_t got = source.read(scan.bytes, chunk.data(), chunk.size());
        if (got == 0)
            break;
        scan.bytes += got;
        // After DATA_END the decoder only counts what follows (reported as
        // trailing data), so read on to the end; after an error, stop.
        if (!decoder.feed({chunk.data(), got}) && decoder.state() == StreamDecoder::State::Failed)
            break;
    }
    decoder.finish();
    scan.format = decoder.format();
    scan.diagnostics = decoder.diagnostics();
    scan.events = decoder.eventCount();
    scan.hasError = decoder.hasError();
    scan.truncated = decoder.truncated();
    scan.ioError = source.error();
    return scan;
}

TimeOrder::TimeOrder(const LogScan& scan)
    : m_scan(scan)
{
    if (scan.ordered)
        m_runs = formRuns(scan.pieces);
    for (const auto& run : m_runs) {
        std::vector<uint64_t> before;
        before.reserve(run.size());
        uint64_t n = 0;
        for (const Piece* p : run) {
            before.push_back(n);
            n += p->events;
        }
        m_runEventsBefore.push_back(std::move(before));
    }
}

TimeOrder::~TimeOrder() = default;

bool TimeOrder::supportsRanges() const
{
    return m_scan.ordered;
}

void TimeOrder::visit(ByteSource& source, EventSink& sink, uint64_t from, uint64_t to) const
{
    // [kUnbounded, kUnbounded) is not empty: it holds the events stamped
    // UINT64_MAX, which no other range can reach from below.
    if (!m_scan.format || m_scan.events == 0 || (from >= to && from != kUnbounded))
        return;
    if (!supportsRanges()) {
        // One sorted pass over the whole log, keeping the range.
        class Range final : public EventSink {
        public:
            Range(EventSink& out, uint64_t from, uint64_t to) : m_out(out), m_from(from), m_to(to) {}
            void onEvent(const Event& e) override
            {
                if (e.time >= m_from && !pastEnd(e.time, m_to))
                    m_out.onEvent(e);
            }

        private:
            EventSink& m_out;
            uint64_t m_from, m_to;
        } range(sink, from, to);
        visitBySorting(source, m_scan, range);
        return;
    }
    if (m_runs.empty())
        return;
    std::vector<std::unique_ptr<RunCursor>> cursors;
    for (const auto& run : m_runs) {
        if (run.back()->lastTime < from || pastEnd(run.front()->firstTime, to))
            continue;
        auto c = std::make_unique<RunCursor>(source, m_scan, run);
        if (c->seek(from) && !pastEnd(c->event().time, to))
            cursors.push_back(std::move(c));
    }
    // Min-heap on (time, offset) of the runs not being read. The current run
    // keeps delivering while its next event precedes the heap's smallest, so
    // the common case costs one comparison per event.
    auto greater = [](const std::unique_ptr<RunCursor>& a, const std::unique_ptr<RunCursor>& b) {
        return before(b->event(), a->event());
    };
    std::make_heap(cursors.begin(), cursors.end(), greater);
    auto popSmallest = [&] {
        std::pop_heap(cursors.begin(), cursors.end(), greater);
        auto c = std::move(cursors.back());
        cursors.pop_back();
        return c;
    };
    if (cursors.empty())
        return;
    std::unique_ptr<RunCursor> current = popSmallest();
    for (;;) {
        sink.onEvent(current->event());
        if (!current->advance() || pastEnd(current->event().time, to)) {
            if (cursors.empty())
                return;
            current = popSmallest();
        } else if (!cursors.empty() && before(cursors.front()->event(), current->event())) {
            cursors.push_back(std::move(current));
            std::push_heap(cursors.begin(), cursors.end(), greater);
            current = popSmallest();
        }
    }
}

uint64_t TimeOrder::countBefore(ByteSource& source, uint64_t t) const
{
    if (!m_scan.format || t == 0)
        return 0;
    if (!supportsRanges()) {
        uint64_t n = 0;
        PositionCounter counter(t, n);
        visitBySorting(source, m_scan, counter);
        return n;
    }
    uint64_t n = 0;
    for (size_t r = 0; r < m_runs.size(); ++r) {
        const auto& run = m_runs[r];
        const uint64_t runEvents = m_runEventsBefore[r].back() + run.back()->events;
        if (run.back()->lastTime < t) {
            n += runEvents;
            continue;
        }
        if (run.front()->firstTime >= t)
            continue;
        RunCursor c(source, m_scan, run, &m_runEventsBefore[r]);
        n += c.seek(t) ? c.ordinal() : runEvents;
    }
    return n;
}

uint64_t TimeOrder::visitRange(ByteSource& source, EventSink& sink, uint64_t first, uint64_t count) const
{
    if (count == 0 || first >= m_scan.events)
        return 0;
    // The time of event `first`: the largest t with countBefore(t) <= first.
    // (Unordered logs: one sorted pass from the start, skipping `first`.)
    uint64_t lo = 0, hi = 0;
    if (supportsRanges()) { // the answer lies between the earliest and latest times
        lo = UINT64_MAX;
        for (const Piece& p : m_scan.pieces) {
            lo = std::min(lo, p.firstTime);
            hi = std::max(hi, p.lastTime);
        }
        lo = std::min(lo, hi);
    }
    while (lo < hi) {
        const uint64_t mid = lo + (hi - lo) / 2 + 1;
        if (countBefore(source, mid) <= first)
            lo = mid;
        else
            hi = mid - 1;
    }
    uint64_t skip = first - countBefore(source, lo);
    uint64_t delivered = 0;
    class Window final : public EventSink {
    public:
        Window(EventSink& out, uint64_t& skip, uint64_t& delivered, uint64_t count)
            : m_out(out), m_skip(skip), m_delivered(delivered), m_count(count) {}
        void onEvent(const Event& e) override
        {
            if (m_skip > 0) {
                --m_skip;
            } else if (m_delivered < m_count) {
                m_out.onEvent(e);
                ++m_delivered;
            }
        }
        bool full() const { return m_delivered >= m_count; }

    private:
        EventSink& m_out;
        uint64_t& m_skip;
        uint64_t& m_delivered;
        uint64_t m_count;
    } window(sink, skip, delivered, count);
    // Visit in growing time windows from `lo` until enough were delivered
    // (unordered logs: one sorted pass).
    uint64_t from = lo;
    uint64_t width = supportsRanges() ? 1 : kUnbounded;
    while (!window.full()) {
        const uint64_t to = windowEnd(from, width);
        visit(source, window, from, to);
        if (to == kUnbounded)
            break;
        from = to;
        width = widen(width);
    }
    return delivered;
}

uint64_t TimeOrder::find(ByteSource& source, uint64_t from, const std::function<bool(const Event&)>& match,
                         const std::function<void(const Event&, uint64_t)>& sink, uint64_t limit,
                         const TagMask* tags) const
{
    if (limit == 0)
        return 0;
    class Matcher final : public EventSink {
    public:
        Matcher(const std::function<bool(const Event&)>& match,
                const std::function<void(const Event&, uint64_t)>& sink, uint64_t position, uint64_t limit)
            : m_match(match), m_sink(sink), m_position(position), m_limit(limit) {}
        void onEvent(const Event& e) override
        {
            if (found < m_limit && m_match(e)) {
                m_sink(e, m_position);
                ++found;
            }
            ++m_position;
        }
        void skipTo(uint64_t position) { m_position = position; }
        uint64_t found = 0;

    private:
        const std::function<bool(const Event&)>& m_match;
        const std::function<void(const Event&, uint64_t)>& m_sink;
        uint64_t m_position;
        uint64_t m_limit;
    } matcher(match, sink, countBefore(source, from), limit);
    // The earliest time at or after `t` where a stretch holding one of
    // `tags` may have events (none: nothing left to find).
    auto nextCandidate = [&](uint64_t t) -> std::optional<uint64_t> {
        if (!tags || !supportsRanges())
            return t;
        std::optional<uint64_t> best;
        for (const Piece& p : m_scan.pieces) {
            if (p.lastTime < t)
                continue;
            const Checkpoint* cps = m_scan.checkpoints.data() + p.firstCheckpoint;
            for (uint32_t k = 0; k < p.checkpointCount; ++k) {
                const uint64_t end = k + 1 < p.checkpointCount ? cps[k + 1].time : p.lastTime;
                if (end < t || (best && cps[k].time >= *best) || (cps[k].tags & *tags).none())
                    continue;
                best = std::max(cps[k].time, t);
                break; // later stretches of this piece start later
            }
        }
        return best;
    };
    // Windows growing from `from`, so that "find next" stops soon after the
    // first match instead of reading the rest of the log; with `tags`, each
    // window starts where a matching stretch does.
    constexpr uint64_t kFirstWidth = uint64_t(1) << 20;
    uint64_t width = supportsRanges() ? kFirstWidth : kUnbounded;
    while (matcher.found < limit) {
        const std::optional<uint64_t> candidate = nextCandidate(from);
        if (!candidate)
            break;
        if (*candidate > from) {
            matcher.skipTo(countBefore(source, *candidate));
            from = *candidate;
            width = kFirstWidth;
        }
        const uint64_t to = windowEnd(from, width);
        visit(source, matcher, from, to);
        if (to == kUnbounded)
            break;
        from = to;
        width = widen(width);
    }
    return matcher.found;
}

std::vector<uint64_t> TimeOrder::sliceBoundaries(uint64_t sliceBytes) const
{
    if (!supportsRanges() || m_scan.bytes <= sliceBytes)
        return {};
    // Each checkpoint stands for about kCheckpointSpacing bytes of records.
    std::vector<uint64_t> times;
    times.reserve(m_scan.checkpoints.size());
    for (const Checkpoint& c : m_scan.checkpoints)
        times.push_back(c.time);
    std::sort(times.begin(), times.end());
    const size_t step = std::max<size_t>(1, size_t(sliceBytes / kCheckpointSpacing));
    std::vector<uint64_t> out;
    for (size_t i = step; i < times.size(); i += step)
        if (times[i] > 0 && times[i] != kUnbounded && (out.empty() || times[i] > out.back()))
            out.push_back(times[i]);
    // A slice is held in memory until it is its turn, so when many events
    // share a timestamp and one slice would hold far more than its share,
    // there is no good cut: the caller reads the log as one slice instead.
    const auto sliceStart = [&](size_t k) {
        return k == 0 ? times.begin() : std::lower_bound(times.begin(), times.end(), out[k - 1]);
    };
    for (size_t k = 0; k <= out.size(); ++k) {
        const auto end = k == out.size() ? times.end()
                                         : std::lower_bound(times.begin(), times.end(), out[k]);
        if (size_t(end - sliceStart(k)) > 8 * step)
            return {};
    }
    return out;
}

void visitInTimeOrder(ByteSource& source, const LogScan& scan, EventSink& sink)
{
    TimeOrder(scan).visit(source, sink);
}

} // namespace hecscope
