#pragma once

#include "core/index/userspanspart.h"
#include "core/time/viewrange.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace hecscope {

struct LogIndex;

// Pairs the log's user messages into spans by `rules`, per thread (the
// thread that was running on the message's capability): START pushes, STOP
// ends the innermost open span of that name on that thread (spans opened
// inside it and not yet stopped stay open, keeping it as their parent). A
// STOP without a START and a START still open at the end of the log (drawn
// to the end, flagged OpenAtEnd) are issues. namesByTotal orders names by
// their stopped spans' total. Null once `cancelled` says so.
std::shared_ptr<const UserSpans> pairUserSpans(const LogIndex& ix, const SpanRules& rules,
                                               const std::function<bool()>& cancelled = {});

// The figures of one span name: spans of it that start in the range, their
// whole durations. Percentiles are nearest-rank (p95: the smallest duration
// at or above 95 % of the others). A span never stopped has no duration (the
// end of the log is not its end): it is left out of every figure but `open`.
struct SpanNameFigures {
    uint32_t name = 0;
    // Of the stopped spans: how many, and their durations (ns; all 0 when
    // count is 0).
    uint64_t count = 0, total = 0, self = 0, mean = 0, p50 = 0, p95 = 0, max = 0;
    uint64_t open = 0; // spans never stopped (START without STOP), apart from the above
};

// One entry per name with spans starting in `range` (every name for the
// whole log), by total time, longest first. Empty once cancelled.
std::vector<SpanNameFigures> spanFigures(const UserSpans& spans, std::optional<ViewRange> range,
                                         const std::function<bool()>& cancelled = {});

// The figures as a text table (name, count, total, self, mean, p50, p95,
// max; "+N never stopped" after a name's row), at most `maxRows` names (0:
// all), as `hecscope spans` prints it.
std::string spanFiguresText(const UserSpans& spans, const std::vector<SpanNameFigures>& figures, size_t maxRows = 0);

// Indices of the spans of `name` starting in `range`, by start.
std::vector<uint32_t> spansOfName(const UserSpans& spans, uint32_t name, std::optional<ViewRange> range);

} // namespace hecscope
