#include "core/index/schedulerbuilder.h"

#include "core/format/eventtags.h"

#include <algorithm>

namespace hecscope {

SchedulerBuilder::SchedulerBuilder(SchedulerPart& part, ThreadRuns& threads, const uint64_t& eventsSoFar)
    : m_part(part)
    , m_threads(threads)
    , m_events(eventsSoFar)
{
}

void SchedulerBuilder::addCapabilities(uint16_t upTo)
{
    m_part.caps.resize(size_t(upTo) + 1);
    m_state.resize(size_t(upTo) + 1);
    m_held.resize(size_t(upTo) + 1);
}

void SchedulerBuilder::open(uint16_t c, SpanKind kind, uint64_t t, uint32_t threadId)
{
    CapState& s = m_state[c];
    s.open = true;
    s.kind = kind;
    s.start = t;
    s.thread = threadId;
}

void SchedulerBuilder::close(uint16_t c, uint64_t t, uint8_t stop)
{
    CapState& s = m_state[c];
    if (!s.open)
        return;
    s.open = false;
    appendSpan(c, s.kind, s.thread, s.start, t, stop);
}

void SchedulerBuilder::appendSpan(uint16_t c, SpanKind kind, uint32_t threadId, uint64_t start, uint64_t t,
                                  uint8_t stop)
{
    uint64_t end = std::max(t, start);
    if (kind == SpanKind::Running)
        m_threads.ran(threadId, start, end);
    else if (end == start)
        return; // an empty GC phase is not worth a span
    if (start > Span::kMaxStart || end > Span::kMaxStart) {
        ++m_part.unrepresentableSpans;
        return;
    }
    // Runs over 2^32 ns are stored as several spans. Real logs need a few
    // per hour of running; a damaged timestamp could ask for 65536 per
    // capability, so beyond a budget long spans are clipped (and counted).
    const uint64_t pieces = (end - start) / Span::kMaxLength;
    if (pieces > 0 && m_continuations + pieces > 1'000'000 + 2 * m_events) {
        ++m_part.clippedSpans;
        end = start + Span::kMaxLength;
    } else {
        m_continuations += pieces;
    }
    bool continued = false;
    do {
        const uint64_t length = std::min<uint64_t>(end - start, Span::kMaxLength);
        const bool last = start + length == end;
        put(c, Span(start, uint32_t(length), kind, threadId, last ? stop : kStopClosedByOther, continued));
        start += length;
        continued = true;
    } while (start < end);
}

// Events that shape a capability's timeline, in the capability's own order.
void SchedulerBuilder::consumeCapEvent(const Event& e)
{
    const uint16_t c = e.cap;
    Capability& capability = cap(c);
    CapState& s = m_state[c];
    ++capability.events;
    capability.firstEvent = std::min(capability.firstEvent, e.time);
    capability.lastEvent = std::max(capability.lastEvent, e.time);
    // Spans must not overlap: a timeline event earlier than the previous
    // one on its capability is placed at the previous time. (Only timeline
    // events: GHC stamps GC_END before writing the GC_GLOBAL_SYNC and
    // GC_STATS_GHC that precede it in the buffer.)
    uint64_t t = e.time;
    switch (e.tag) {
    case tag::RunThread:
    case tag::StopThread:
    case tag::GcStart:
    case tag::GcWork:
    case tag::GcIdle:
    case tag::GcDone:
    case tag::GcEnd:
        if (t < s.last) {
            ++capability.outOfOrder;
            t = s.last;
        }
        s.last = t;
        break;
    default:
        break;
    }

    if (e.tag != tag::GcGlobalSync)
        s.statsMayFollow = false;

    switch (e.tag) {
    case tag::MigrateThread:
    case tag::ThreadWakeup:
        m_part.capsNamed = std::max(m_part.capsNamed, uint32_t(uint16_t(e.n[1])) + 1);
        break;
    default:
        break;
    }

    switch (e.tag) {
    case tag::RunThread:
        if (s.open)
            close(c, t, kStopClosedByOther);
        m_threads.runStarted(e.n[0], t);
        open(c, SpanKind::Running, t, uint32_t(e.n[0]));
        break;
    case tag::StopThread: {
        const uint64_t code = standardStopCode(e.n[1], m_encoding);
        if (s.open && s.kind == SpanKind::Running)
            close(c, t, uint8_t(std::min<uint64_t>(code, 253)));
        m_threads.stopped(e.n[0], code, t);
        break;
    }
    case tag::GcStart:
        if (s.inGc)
            break;
        if (s.open)
            close(c, t, kStopClosedByOther);
        s.inGc = true;
        s.gcStart = t;
        open(c, SpanKind::Gc, t);
        break;
    case tag::GcWork:
    case tag::GcIdle:
    case tag::GcDone: {
        const SpanKind phase = e.tag == tag::GcWork ? SpanKind::GcWork
            : e.tag == tag::GcIdle                  ? SpanKind::GcIdle
                                                    : SpanKind::GcDone;
        if (!s.inGc) { // the log began inside a collection
            if (s.open)
                close(c, t, kStopClosedByOther);
            s.inGc = true;
            s.gcStart = t;
        } else if (s.open) {
            close(c, t, 0); // (GC_START..first phase stays `Gc`: seal() finds the sync wait in it)
        }
        open(c, phase, t);
        break;
    }
    case tag::GcEnd:
        if (!s.inGc)
            break;
        close(c, t, 0);
        s.inGc = false;
        s.statsMayFollow = true;
        s.lastGcStart = s.gcStart;
        m_gcSpans.push_back({s.gcStart, t, c});
        break;
    case tag::SparkCounters:
        capability.sparks.push_back({e.time, e.n[0], e.n[1], e.n[2], e.n[3], e.n[4], e.n[5], e.n[6]});
        break;
    case tag::SparkCreate:
    case tag::SparkDud:
    case tag::SparkOverflow:
    case tag::SparkRun:
    case tag::SparkSteal:
    case tag::SparkFizzle:
    case tag::SparkGc:
        ++capability.sparkEvents[e.tag - tag::SparkCreate];
        break;
    default:
        break;
    }
}

void SchedulerBuilder::consume(const Event& e)
{
    if (e.tag == tag::CapCreate)
        cap(uint16_t(e.n[0])).created = e.time;
    else if (e.tag == tag::CapDelete)
        cap(uint16_t(e.n[0])).deleted = e.time;
}

std::vector<GcSpan> SchedulerBuilder::openGcSpans(uint64_t end) const
{
    std::vector<GcSpan> open;
    for (size_t c = 0; c < m_state.size(); ++c)
        if (m_state[c].inGc)
            open.push_back({m_state[c].gcStart, std::max(end, m_state[c].gcStart), uint16_t(c)});
    return open;
}

void SchedulerBuilder::endOpenSpans(uint64_t end)
{
    const std::vector<GcSpan> openGcs = openGcSpans(end);
    for (size_t c = 0; c < m_state.size(); ++c)
        if (m_state[c].open)
            close(uint16_t(c), std::max(end, m_state[c].start), kStopAtEnd);
    m_gcSpans.insert(m_gcSpans.end(), openGcs.begin(), openGcs.end());
    for (CapState& s : m_state)
        s.inGc = false;
}

uint64_t SchedulerBuilder::placedBefore(uint64_t settled) const
{
    uint64_t before = settled;
    for (const CapState& s : m_state) {
        if (s.inGc)
            before = std::min(before, s.gcStart);
        if (s.statsMayFollow)
            before = std::min(before, s.lastGcStart);
    }
    return before;
}

void SchedulerBuilder::seal(uint64_t end, bool final, const CollectionList& collections,
                            uint64_t settled)
{
    unseal();
    // Spans ending before `before` are placed: by then every capability's
    // events are in, none is in a GC span begun earlier, and none may still
    // write the GC_STATS_GHC of a span begun earlier.
    const uint64_t before = final ? UINT64_MAX : placedBefore(settled);
    if (final)
        endOpenSpans(end);
    std::vector<GcLeader> leaders;
    for (const Collection& col : collections)
        if (col.hasStats && col.leaderCap != UINT16_MAX)
            leaders.push_back({col.leaderStart, col.leaderEnd, col.leaderCap});
    placeInCollections(std::move(leaders), before);
    if (final)
        return; // (nothing held: every GC span is closed and placed)
    // What is held and what is open, provisionally, in that order.
    m_direct = true;
    for (size_t c = 0; c < m_state.size(); ++c) {
        CapState& s = m_state[c];
        if (!s.open && m_held[c].empty())
            continue;
        CapTimeline& tl = m_part.caps[c].timeline;
        const size_t spansBefore = tl.size();
        for (const Span& h : m_held[c])
            tl.append(h);
        const ThreadRuns::Mark runs
            = s.open && s.kind == SpanKind::Running ? m_threads.mark(s.thread) : ThreadRuns::Mark{};
        m_provisional.push_back({uint16_t(c), s.open, spansBefore, s.thread, m_part.unrepresentableSpans,
                                 m_part.clippedSpans, m_continuations, runs});
        if (s.open)
            appendSpan(uint16_t(c), s.kind, s.thread, s.start, std::max(end, s.start), kStopAtEnd);
    }
    m_direct = false;
}

void SchedulerBuilder::placeHeld(const std::vector<GcLeader>& leaders, uint64_t settled)
{
    if (m_heldCount == 0)
        return;
    placeInCollections(leaders, placedBefore(settled));
    // (A capability that fell silent holds every placement back.)
    if (m_heldCount > kHeldMost || m_gcSpans.size() > kHoldGcSpansMost)
        releaseHeld();
}

void SchedulerBuilder::releaseHeld()
{
    if (m_gcSpans.size() > kHoldGcSpansMost)
        m_holdingOff = true;
    for (size_t c = 0; c < m_held.size(); ++c) {
        CapTimeline& tl = m_part.caps[c].timeline;
        for (const Span& h : m_held[c])
            tl.append(h);
        std::vector<Span>().swap(m_held[c]);
    }
    m_heldCount = 0;
}

// GC span pieces: a capability's spans, cut by `cuts` (by start; only
// non-running spans within a cut are split).
namespace {

struct Cut {
    uint64_t start, end; // the capability's GC span
    uint64_t from, to;   // its collection
};

class Cutter {
public:
    explicit Cutter(const std::vector<Cut>& cuts)
        : m_cuts(cuts)
    {
    }
    template <class Put>
    void operator()(const Span& s, const Put& put)
    {
        while (m_at < m_cuts.size() && m_cuts[m_at].end <= s.start())
            ++m_at;
        if (s.kind() == SpanKind::Running || m_at == m_cuts.size() || s.end() <= m_cuts[m_at].start) {
            put(s);
            return;
        }
        const Cut& cut = m_cuts[m_at];
        const auto piece = [&](uint64_t a, uint64_t b, SpanKind kind) {
            if (b > a)
                put(Span(a, uint32_t(b - a), kind, 0, s.stop()));
        };
        piece(s.start(), std::min(s.end(), cut.from), SpanKind::GcSync);
        piece(std::max(s.start(), cut.from), std::min(s.end(), cut.to), s.kind());
        piece(std::max(s.start(), cut.to), s.end(), SpanKind::GcParked);
    }

private:
    const std::vector<Cut>& m_cuts;
    size_t m_at = 0;
};

} // namespace

// A capability's GC_START..GC_END covers its collection (the leader's
// GC_START..GC_END) and, on either side, time it only waited: before the
// collection began (until every capability had stopped) and after it
// ended (until the OS ran the capability's thread again: with more
// capabilities than cores, often until the next collection is requested).
// A leader's own span is its collection. Another span's collection is the
// one CollectionsBuilder gives it: the last whose leader started by the
// span's end, if its leader span reaches the span. Only collections with a
// GC_STATS_GHC record have a leader here: without (older GHCs, a log cut
// inside a collection) spans are left whole. Held spans (see heldSpans)
// are split as they go into the timeline, up to the first GC span whose
// collection is not known yet; spans in the timeline already are split by
// rewriting it from the first one split, per capability.
void SchedulerBuilder::placeInCollections(std::vector<GcLeader> leaders, uint64_t before)
{
    m_placed.resize(m_gcSpans.size(), 0);
    std::stable_sort(leaders.begin(), leaders.end(),
                     [](const GcLeader& a, const GcLeader& b) { return a.start < b.start; });
    const auto leads = [&](const GcSpan& g) {
        auto it = std::lower_bound(leaders.begin(), leaders.end(), g.start,
                                   [](const GcLeader& l, uint64_t t) { return l.start < t; });
        for (; it != leaders.end() && it->start == g.start; ++it)
            if (it->cap == g.cap && it->end == g.end)
                return true;
        return false;
    };
    std::vector<std::vector<Cut>> cuts(m_part.caps.size());
    // Per capability, the first GC span not placed yet (its spans and all
    // after them stay held).
    std::vector<uint64_t> holdFrom(m_part.caps.size(), UINT64_MAX);
    for (size_t c = 0; c < m_state.size() && c < holdFrom.size(); ++c)
        if (m_state[c].inGc)
            holdFrom[c] = m_state[c].gcStart;
    for (size_t i = 0; i < m_gcSpans.size(); ++i) {
        const GcSpan& g = m_gcSpans[i];
        if (m_placed[i])
            continue;
        if (g.end >= before) {
            if (g.cap < holdFrom.size())
                holdFrom[g.cap] = std::min(holdFrom[g.cap], g.start);
            continue;
        }
        if (leads(g)) {
            m_placed[i] = 1;
            continue;
        }
        const auto it = std::upper_bound(leaders.begin(), leaders.end(), g.end,
                                         [](uint64_t t, const GcLeader& l) { return t < l.start; });
        if (it == leaders.begin() || (it - 1)->end < g.start)
            continue; // (whole; looked at again by the next placement)
        m_placed[i] = 1;
        const GcLeader& l = *(it - 1);
        if ((l.start > g.start || l.end < g.end) && g.cap < cuts.size())
            cuts[g.cap].push_back({g.start, g.end, l.start, l.end});
    }
    for (size_t c = 0; c < cuts.size(); ++c) {
        std::vector<Cut>& cs = cuts[c];
        std::vector<Span>& held = m_held[c];
        if (cs.empty() && held.empty())
            continue;
        std::sort(cs.begin(), cs.end(), [](const Cut& a, const Cut& b) { return a.start < b.start; });
        CapTimeline& tl = m_part.caps[c].timeline;
        // Spans in the timeline already (a GC span's that went in whole,
        // held too long or not placed before): rewritten from the first
        // one split.
        const uint64_t heldFrom = held.empty() ? UINT64_MAX : held.front().start();
        if (!cs.empty() && cs.front().start < heldFrom) {
            Cutter cut(cs);
            tl.rewriteFrom(tl.firstEndingAfter(cs.front().start), cut, m_spillFailed ? nullptr : m_spill.get());
        }
        // The held spans up to the first GC span still to be placed.
        size_t n = 0;
        if (!held.empty()) {
            Cutter cut(cs);
            const auto put = [&tl](const Span& s) { tl.append(s); };
            while (n < held.size() && held[n].start() < holdFrom[c])
                cut(held[n++], put);
            held.erase(held.begin(), held.begin() + ptrdiff_t(n));
            m_heldCount -= n;
            if (held.capacity() > 4096 && held.capacity() > 4 * held.size())
                held.shrink_to_fit(); // (a capability that held many once)
        }
    }
}

void SchedulerBuilder::spillSpans()
{
    if (m_spillFailed)
        return;
    if (!m_spill)
        m_spill = std::make_unique<SpillFile>();
    for (Capability& c : m_part.caps) {
        if (!c.timeline.spillTo(*m_spill)) {
            m_spillFailed = true;
            return;
        }
    }
    // The pages read since (the spans a seal rewrote, which it copied into
    // memory and this moved out again; queries) let go from the process.
    m_spill->releaseAllPages();
}

void SchedulerBuilder::unseal()
{
    for (const Provisional& p : m_provisional) {
        CapTimeline& tl = m_part.caps[p.cap].timeline;
        while (tl.size() > p.spansBefore)
            tl.popBack();
        if (p.open && m_state[p.cap].kind == SpanKind::Running)
            m_threads.restore(p.thread, p.runs);
    }
    if (!m_provisional.empty()) {
        m_part.unrepresentableSpans = m_provisional.front().unrepresentableBefore;
        m_part.clippedSpans = m_provisional.front().clippedBefore;
        m_continuations = m_provisional.front().continuationsBefore;
    }
    m_provisional.clear();
}

} // namespace hecscope
