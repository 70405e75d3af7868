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
    CapTimeline& tl = m_part.caps[c].timeline;
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
        tl.append(Span(start, uint32_t(length), kind, threadId, last ? stop : kStopClosedByOther,
                       continued));
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
            if (s.kind == SpanKind::Gc)
                s.kind = SpanKind::GcSync;
            close(c, t, 0);
        }
        open(c, phase, t);
        break;
    }
    case tag::GcEnd:
        if (!s.inGc)
            break;
        close(c, t, 0);
        s.inGc = false;
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
        m_part.sparkEvents.push_back({e.time, e.tag == tag::SparkSteal ? uint32_t(e.n[0]) : 0u, c, e.tag});
        break;
    default:
        break;
    }
}

void SchedulerBuilder::consumeCapFact(const Event& e)
{
    if (e.tag == tag::CapCreate)
        cap(uint16_t(e.n[0])).created = e.time;
    else if (e.tag == tag::CapDelete)
        cap(uint16_t(e.n[0])).deleted = e.time;
}

std::vector<GcSpan> SchedulerBuilder::seal(uint64_t end, bool final)
{
    unseal();
    std::vector<GcSpan> openGcs;
    for (size_t c = 0; c < m_state.size(); ++c) {
        CapState& s = m_state[c];
        if (s.inGc)
            openGcs.push_back({s.gcStart, std::max(end, s.gcStart), uint16_t(c)});
        if (!s.open)
            continue;
        if (final) {
            close(uint16_t(c), std::max(end, s.start), kStopAtEnd);
            continue;
        }
        const ThreadRuns::Mark runs = s.kind == SpanKind::Running ? m_threads.mark(s.thread) : ThreadRuns::Mark{};
        m_provisional.push_back({uint16_t(c), m_part.caps[c].timeline.size(), s.thread,
                                 m_part.unrepresentableSpans, m_part.clippedSpans, m_continuations, runs});
        appendSpan(uint16_t(c), s.kind, s.thread, s.start, std::max(end, s.start), kStopAtEnd);
    }
    if (final) {
        m_gcSpans.insert(m_gcSpans.end(), openGcs.begin(), openGcs.end());
        openGcs.clear();
        for (CapState& s : m_state)
            s.inGc = false;
    }
    return openGcs;
}

void SchedulerBuilder::unseal()
{
    for (const Provisional& p : m_provisional) {
        CapTimeline& tl = m_part.caps[p.cap].timeline;
        while (tl.size() > p.spansBefore)
            tl.popBack();
        if (m_state[p.cap].kind == SpanKind::Running)
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
