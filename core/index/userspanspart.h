#pragma once

#include "core/index/binpyramid.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace hecscope {

// How user messages make spans: `traceEvent "START x"` / `"STOP x"` (the
// ghc-events-analyze convention) with these prefixes; `traceMarker`
// messages count too unless `markers` is off.
struct SpanRules {
    std::string start = "START ";
    std::string stop = "STOP ";
    bool markers = true;
    bool operator==(const SpanRules&) const = default;
};

// One span of user work on one thread, [start, end) in ns.
struct UserSpan {
    enum Flag : uint8_t { OpenAtEnd = 1, FromMarker = 2 };
    uint64_t start = 0, end = 0;
    uint64_t self = 0;              // ns: its time minus its children's (clipped to it)
    uint32_t name = 0;              // into UserSpans::names
    uint32_t thread = 0;            // the Haskell thread id (0: no thread was running)
    uint32_t parent = UINT32_MAX;   // the span it is nested in
    uint16_t depth = 0;             // 0: outermost on its thread
    uint8_t flags = 0;
    uint64_t duration() const { return end - start; }
};

// A START nobody stopped or a STOP nobody started: listed, never dropped.
struct SpanIssue {
    enum Kind : uint8_t { StopWithoutStart, OpenAtEnd };
    uint64_t time = 0; // ns: of the STOP; of the START for OpenAtEnd
    uint32_t thread = 0;
    uint32_t name = 0;
    Kind kind = StopWithoutStart;
};

// Every span of a log, paired per thread by `rules`.
struct UserSpans {
    SpanRules rules;
    std::vector<std::string> names;
    std::vector<UserSpan> spans;      // by start (an outer span before its children)
    std::vector<SpanIssue> issues;    // by time
    std::vector<uint32_t> byName;     // span indices grouped by name, by start within a name
    std::vector<uint32_t> nameOffsets; // names.size() + 1 entries into byName
    std::vector<uint32_t> threadIds;   // threads with spans, ascending
    std::vector<uint32_t> byThread;    // span indices grouped by thread, by start
    std::vector<uint32_t> threadOffsets;
    // What drawing reads, copied out of `spans` so the tracks walk memory
    // in order: per thread and level (depth 0, 1, and 2 or deeper), the
    // spans by start with the running maximum of their ends (monotone, so
    // a row can skip every span ending inside a pixel with one search);
    // and per name (byName order) each span's start and end.
    static constexpr size_t kLevels = 3;
    struct Extent {
        uint64_t start, end;
        uint32_t name;
        uint32_t span; // index into spans
    };
    std::vector<uint32_t> levelOffsets; // threadIds.size() * kLevels + 1 entries into levelExtents
    std::vector<Extent> levelExtents;
    std::vector<uint64_t> levelMaxEnd;  // aligned with levelExtents, per (thread, level)
    // A thread with many spans, summarised: per bin and level, the
    // name + 1 of a span there (0: none), kLevels entries per bin. A row
    // zoomed out past a bin per pixel reads bins, not spans.
    std::vector<BinPyramid> threadOverviews; // per threadIds entry
    std::vector<uint32_t> overviewNames;
    std::vector<std::pair<uint64_t, uint64_t>> nameExtents; // aligned with byName: start, end
    std::vector<uint64_t> nameMaxEnd; // aligned with byName: running maximum of ends within a name
    std::vector<uint64_t> nameMaxDuration; // per name: its longest span
    std::vector<uint32_t> namesByTotal;    // names with spans, the most total time (of stopped spans) first
    uint16_t maxDepth = 0;

    // Spans of thread `id` (indices into spans, by start); empty if none.
    std::pair<const uint32_t*, const uint32_t*> ofThread(uint32_t id) const;
    size_t memoryBytes() const;
};

// What prepareForDrawing pairs with the default rules.
struct UserSpansPart {
    std::shared_ptr<const UserSpans> userSpans;

    size_t partBytes() const { return userSpans ? userSpans->memoryBytes() : 0; } // (LogIndex::memoryBytes)
};

} // namespace hecscope
