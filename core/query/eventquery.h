#pragma once

#include "core/format/event.h"
#include "core/order/timeorder.h"
#include "core/text/printer.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hecscope {

struct LogIndex;

// The thread an event is about (CREATE/RUN/STOP_THREAD, THREAD_RUNNABLE,
// MIGRATE_THREAD, THREAD_WAKEUP, THREAD_LABEL, ...), if any.
std::optional<uint32_t> threadOf(const Event& e);
// The same, and for a user message or marker (which carry no thread) the
// thread that wrote it: the one running on its capability at its time, as
// the index's messages recorded it.
std::optional<uint32_t> threadOf(const Event& e, const LogIndex& index);

// One row of the event list: what the table shows of an event.
struct EventRow {
    uint64_t position = 0; // number in time order
    uint64_t time = 0;     // ns
    uint16_t cap = 0xFFFF; // kNoCap: the global buffer
    std::optional<uint32_t> thread;
    uint16_t tag = 0;
    std::string type;    // the header's description of the tag
    std::string details; // the event's text as `ghc-events show` prints it
};
// With `index`, a message's row names the thread that wrote it (see threadOf).
EventRow eventRow(const Event& e, uint64_t position, const EventPrinter& printer, const LogFormat& format,
                  const LogIndex* index = nullptr);

// Which events the list shows, and what a search finds. Empty parts match
// everything. `text` matches, case-insensitively, the event's printed text,
// its type's description, or the label of the thread it is about.
struct EventFilter {
    TagMask tags; // none set: every type
    std::optional<uint16_t> cap;
    std::optional<uint32_t> thread;
    // Several threads (the ones whose label matched), sorted; empty: no such
    // filter. An event passes when its thread is one of them.
    std::vector<uint32_t> threads;
    // Set when a thread filter was asked for that no thread matches: nothing passes.
    bool noThread = false;
    std::string text;

    bool empty() const { return tags.none() && !cap && !thread && threads.empty() && !noThread && text.empty(); }
    bool operator==(const EventFilter&) const = default;
    // Tags `matches` can accept, for TimeOrder::find to skip stretches; null
    // when every tag can match.
    const TagMask* tagHint() const { return tags.none() ? nullptr : &tags; }
};

// Matching with a reusable buffer; one per thread.
class EventMatcher {
public:
    EventMatcher(const EventFilter& filter, const LogIndex& index);
    bool operator()(const Event& e);

private:
    EventFilter m_filter;
    std::string m_lowerText;
    const LogIndex& m_index;
    EventPrinter m_printer;
    TextBuffer m_buffer;
    std::string m_scratch;
};

} // namespace hecscope
