#pragma once

#include "core/index/logindex.h"
#include "core/stats/stats.h"

#include <string>

namespace hecscope {

// The figures of `+RTS -s` that an eventlog determines, in the layout GHC
// prints them (rts/Stats.c, report_summary), so a user can diff it against
// the real report of the same run. Figures the eventlog does not carry
// (CPU times, TASKS, memory in use, INIT/EXIT elapsed) are printed as "-"
// and named in a closing note, never guessed. `stats` is the whole run or
// a range (the heading says which).
std::string rtsSummaryText(const LogIndex& index, const RangeStats& stats, bool wholeRun);

} // namespace hecscope
