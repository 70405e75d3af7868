#include "core/query/eventquery.h"

#include "core/format/eventtags.h"
#include "core/index/logindex.h"

#include <algorithm>
#include <cctype>

namespace hecscope {

namespace {

void toLower(std::string& s)
{
    for (char& c : s)
        c = char(std::tolower(static_cast<unsigned char>(c)));
}

// Case-insensitive: `lowerNeedle` is already lower case.
bool containsLower(std::string_view hay, const std::string& lowerNeedle, std::string& scratch)
{
    scratch.assign(hay);
    toLower(scratch);
    return scratch.find(lowerNeedle) != std::string::npos;
}

} // namespace

std::optional<uint32_t> threadOf(const Event& e)
{
    if (!e.known)
        return std::nullopt;
    switch (e.tag) {
    case tag::CreateThread:
    case tag::RunThread:
    case tag::StopThread:
    case tag::ThreadRunnable:
    case tag::MigrateThread:
    case tag::ThreadWakeup:
    case tag::CreateSparkThread:
    case tag::ThreadLabel:
    case tag::AssignThreadToProcess:
        return uint32_t(e.n[0]);
    default:
        return std::nullopt;
    }
}

std::optional<uint32_t> threadOf(const Event& e, const LogIndex& index)
{
    if (!e.known || e.cap == kNoCap
        || (e.tag != tag::UserMsg && e.tag != tag::UserMarker && e.tag != tag::UserBinaryMsg))
        return threadOf(e);
    // The messages part noted the running thread when it indexed the
    // message: find it by time and capability.
    const auto& order = index.messagesByTime;
    auto it = std::partition_point(order.begin(), order.end(),
                                   [&](uint32_t i) { return index.messages[i].time < e.time; });
    for (; it != order.end() && index.messages[*it].time == e.time; ++it) {
        const Message& m = index.messages[*it];
        if (m.cap == e.cap)
            return m.thread ? std::optional<uint32_t>(m.thread) : std::nullopt;
    }
    return std::nullopt;
}

EventRow eventRow(const Event& e, uint64_t position, const EventPrinter& printer, const LogFormat& format,
                  const LogIndex* index)
{
    EventRow row;
    row.position = position;
    row.time = e.time;
    row.cap = e.cap;
    row.thread = index ? threadOf(e, *index) : threadOf(e);
    row.tag = e.tag;
    row.type = format.description(e.tag);
    TextBuffer text;
    printer.printText(e, text);
    // Block markers print with a trailing blank line in ghc-events' dump.
    std::string_view details = text.text();
    while (!details.empty() && (details.back() == '\n' || details.back() == '\r'))
        details.remove_suffix(1);
    row.details.assign(details);
    return row;
}

EventMatcher::EventMatcher(const EventFilter& filter, const LogIndex& index)
    : m_filter(filter)
    , m_lowerText(filter.text)
    , m_index(index)
    , m_printer(*index.scan.format)
{
    toLower(m_lowerText);
}

bool EventMatcher::operator()(const Event& e)
{
    if (m_filter.tags.any() && !m_filter.tags.test(tagBit(e.tag)))
        return false;
    if (m_filter.cap && e.cap != *m_filter.cap)
        return false;
    if (m_filter.noThread)
        return false;
    const std::optional<uint32_t> thread = threadOf(e, m_index);
    if (m_filter.thread && thread != m_filter.thread)
        return false;
    if (!m_filter.threads.empty()
        && (!thread || !std::binary_search(m_filter.threads.begin(), m_filter.threads.end(), *thread)))
        return false;
    if (m_lowerText.empty())
        return true;
    m_buffer.clear();
    m_printer.printText(e, m_buffer);
    if (containsLower(m_buffer.text(), m_lowerText, m_scratch))
        return true;
    if (containsLower(m_index.scan.format->description(e.tag), m_lowerText, m_scratch))
        return true;
    if (thread) {
        const ThreadLabel label = m_index.labelOf(*thread);
        if (!label.empty() && containsLower(label, m_lowerText, m_scratch))
            return true;
    }
    return false;
}

} // namespace hecscope
