#include "core/format/decoder.h"

#include "core/format/eventtags.h"
#include "core/format/headerparser.h"
#include "core/format/recorddecoder.h"

#include <algorithm>

namespace hecscope {
namespace {

constexpr size_t kHeaderStep = 64 * 1024;

} // namespace

StreamDecoder::StreamDecoder(EventSink& sink)
    : m_sink(sink)
{
}

bool StreamDecoder::hasError() const
{
    return std::any_of(m_diagnostics.begin(), m_diagnostics.end(),
                       [](const Diagnostic& d) { return d.isError(); });
}

bool StreamDecoder::truncated() const
{
    return std::any_of(m_diagnostics.begin(), m_diagnostics.end(),
                       [](const Diagnostic& d) { return d.isTruncation(); });
}

void StreamDecoder::fail(DiagnosticKind kind, std::string detail)
{
    m_state = State::Failed;
    m_diagnostics.push_back(Diagnostic{kind, m_base, m_events, std::move(detail)});
}

bool StreamDecoder::feed(std::span<const uint8_t> bytes)
{
    const uint8_t* p = bytes.data();
    size_t n = bytes.size();
    while (n > 0) {
        if (m_state == State::Ended || m_state == State::Failed) {
            m_ignored += n;
            return false;
        }
        if (m_state == State::Header || !m_pending.empty()) {
            // Top up the pending bytes only as far as the next decision needs,
            // so that the rest can be decoded in place. Header attempts resume
            // at the first incomplete declaration; large steps make them few.
            size_t want = m_pendingNeeded > m_pending.size() ? m_pendingNeeded - m_pending.size() : 1;
            if (m_state == State::Header)
                want = std::max(want, kHeaderStep);
            const size_t take = std::min(want, n);
            m_pending.insert(m_pending.end(), p, p + take);
            p += take;
            n -= take;
            if (m_pending.size() < m_pendingNeeded)
                continue;
            if (m_state == State::Header) {
                parseHeader();
            } else {
                const size_t used = decodeRecords(m_pending.data(), m_pending.size());
                m_pending.erase(m_pending.begin(), m_pending.begin() + ptrdiff_t(used));
            }
            continue;
        }
        const size_t used = decodeRecords(p, n);
        p += used;
        n -= used;
        if (n > 0 && m_state == State::Events) {
            m_pending.assign(p, p + n);
            n = 0;
        }
    }
    return m_state == State::Header || m_state == State::Events;
}

uint64_t StreamDecoder::breakConnection()
{
    if (m_state == State::Ended && m_sawDataEnd && !m_finished) {
        m_base -= 2;
        m_sawDataEnd = false;
        m_state = State::Events;
    }
    if (m_state == State::Events) {
        m_pending.clear();
        m_pendingNeeded = 0;
        m_ignored = 0;
        m_blockCap = kNoCap;
        m_blockRemaining = 0;
    }
    return m_base;
}

bool StreamDecoder::skipTo(uint64_t offset)
{
    if (m_state != State::Events || !m_pending.empty() || offset < m_base)
        return false;
    const uint64_t gap = offset - m_base;
    m_base = offset;
    // (The global block's bytes are counted too: its span ends with them.)
    m_blockRemaining -= int64_t(gap);
    if (m_blockRemaining <= 0)
        m_blockCap = kNoCap;
    return true;
}

void StreamDecoder::parseHeader()
{
    HeaderParse h = hecscope::parseHeader(m_pending.data(), m_pending.size(), &m_headerResume);
    if (h.status == HeaderParse::NeedMore) {
        m_pendingNeeded = h.needed;
        return;
    }
    if (h.status == HeaderParse::Failed) {
        m_state = State::Failed;
        m_diagnostics.push_back(h.error);
        return;
    }
    m_format = std::make_shared<const LogFormat>(std::move(h.declarations));
    m_sink.onHeader(m_format);
    m_state = State::Events;
    m_base = h.consumed;
    m_pendingNeeded = 0;
    std::vector<uint8_t> rest(m_pending.begin() + ptrdiff_t(h.consumed), m_pending.end());
    m_pending.clear();
    if (!rest.empty())
        feed(rest);
}

size_t StreamDecoder::decodeRecords(const uint8_t* p, size_t n)
{
    const LogFormat& format = *m_format;
    size_t pos = 0;
    while (m_state == State::Events) {
        const RecordResult r = decodeRecord(format, p + pos, n - pos, m_event);
        if (r.status == RecordStatus::Ok) {
            if (!deliver(r.size))
                break;
            pos += r.size;
            continue;
        }
        if (r.status == RecordStatus::NeedMore) {
            m_pendingNeeded = r.size;
            break;
        }
        if (r.status == RecordStatus::DataEnd) {
            m_sawDataEnd = true;
            m_state = State::Ended;
            m_base += 2;
            pos += 2;
            break;
        }
        handle(r.status, p + pos);
        break;
    }
    return pos;
}

namespace {

// "event type 1 (Run thread) at 2190000000 ns": the record a time fault names.
std::string describe(const LogFormat& format, const Event& e)
{
    return "event type " + std::to_string(e.tag) + " (" + format.description(e.tag) + ") at "
        + std::to_string(e.time) + " ns";
}

} // namespace

bool StreamDecoder::timeFits(const Event& e)
{
    if (e.tag == tag::BlockMarker && e.known) {
        if (e.n[1] >= e.time)
            return true;
        fail(DiagnosticKind::BadEventTime,
             "block marker of cap " + std::to_string(e.n[2]) + " ends (end time " + std::to_string(e.n[1])
                 + " ns) before it starts (" + std::to_string(e.time) + " ns)");
        return false;
    }
    const auto block = [&] {
        return " (" + (m_blockCap == kNoCap ? std::string("the global block") : "its block: cap " + std::to_string(m_blockCap))
            + ", " + std::to_string(m_blockStart) + " to " + std::to_string(m_blockEnd) + " ns, marker at byte "
            + std::to_string(m_blockOffset) + ")";
    };
    if (e.time > m_blockEnd) {
        fail(DiagnosticKind::BadEventTime,
             describe(*m_format, e) + ", after its block's end time" + block());
        return false;
    }
    const bool stampedEarlier = e.tag == tag::GcStart || e.tag == tag::GcEnd || e.tag == tag::CreateMachine;
    if (e.time < m_blockLatest && !stampedEarlier) {
        fail(DiagnosticKind::BadEventTime,
             describe(*m_format, e)
                 + (e.time < m_blockStart ? ", before its block's start time"
                                          : ", earlier than the event before it in its block ("
                                                + std::to_string(m_blockLatest) + " ns)")
                 + block());
        return false;
    }
    m_blockLatest = std::max(m_blockLatest, e.time);
    return true;
}

bool StreamDecoder::deliver(uint32_t size)
{
    Event& e = m_event;
    e.offset = m_base;
    if (e.tag == tag::BlockMarker && e.known) {
        if (!timeFits(e))
            return false;
        m_blockStart = e.time;
        m_blockEnd = e.n[1];
        m_blockLatest = e.time;
        m_blockOffset = m_base;
        m_blockCap = uint16_t(e.n[2]);
        m_blockRemaining = int64_t(e.n[0]) - int64_t(size);
        e.cap = m_blockCap;
    } else {
        // Inside a block (outside one no span is declared): the common
        // case, in order and within the span, without a call.
        if (m_blockRemaining > 0) {
            if (e.time >= m_blockLatest && e.time <= m_blockEnd)
                m_blockLatest = e.time;
            else if (!timeFits(e))
                return false;
        }
        e.cap = m_blockCap;
        m_blockRemaining -= size;
        if (m_blockRemaining <= 0)
            m_blockCap = kNoCap;
    }
    m_base += size;
    ++m_events;
    m_sink.onEvent(e);
    return true;
}

void StreamDecoder::handle(RecordStatus status, const uint8_t* record)
{
    switch (status) {
    case RecordStatus::UndeclaredTag:
        fail(DiagnosticKind::UndeclaredEventType,
             std::to_string((unsigned(record[0]) << 8) | record[1]));
        return;
    case RecordStatus::ShortPayload:
        fail(DiagnosticKind::ShortPayload,
             "event type " + std::to_string(m_event.tag) + " (" + m_format->description(m_event.tag)
                 + ") has a payload of " + std::to_string(m_event.payload.size())
                 + " bytes, too short for its fields");
        return;
    case RecordStatus::BadBlockSize:
        fail(DiagnosticKind::BadBlockSize, std::to_string(m_event.n[0]));
        return;
    default:
        return;
    }
}

void StreamDecoder::finish()
{
    if (m_finished)
        return;
    m_finished = true;
    switch (m_state) {
    case State::Header:
        if (m_pending.empty()) {
            m_diagnostics.push_back(
                Diagnostic{DiagnosticKind::NotAnEventlog, 0, 0, "the file is empty"});
        } else {
            // Bytes that cannot begin a header are not an eventlog, however
            // few; otherwise the header was cut short.
            const HeaderParse h = hecscope::parseHeader(m_pending.data(), m_pending.size());
            m_diagnostics.push_back(h.status == HeaderParse::Failed
                    ? h.error
                    : Diagnostic{DiagnosticKind::TruncatedHeader, m_pending.size(), 0, {}});
        }
        m_state = State::Failed;
        break;
    case State::Events:
        if (!m_pending.empty())
            m_diagnostics.push_back(Diagnostic{
                DiagnosticKind::TruncatedEvent, m_base, m_events,
                std::to_string(m_pending.size()) + " bytes of an incomplete record"});
        else
            m_diagnostics.push_back(Diagnostic{DiagnosticKind::MissingDataEnd, m_base, m_events, {}});
        m_state = State::Ended;
        break;
    case State::Ended:
        if (m_ignored > 0 && m_sawDataEnd)
            m_diagnostics.push_back(Diagnostic{DiagnosticKind::TrailingData, m_base, m_events,
                                               std::to_string(m_ignored) + " bytes"});
        break;
    case State::Failed:
        break;
    }
}

} // namespace hecscope
