#pragma once

#include "core/index/logindex.h"
#include "core/io/bytesource.h"
#include "core/profile/profile.h"
#include "core/time/viewrange.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace hecscope {

// The figures of one run that can be compared with another run's: the
// same figures the single-run views print (`info --json`, `threads`,
// `spans`, `sparks`, `heap`, `profile`), as tables of named rows. Two
// runs' tables are matched row by row by key (compare/comparison.h).

// A figure's value: integral (ns, bytes, counts) or real (ratios).
struct FigureValue {
    double value = 0;
    bool real = false;
};

struct FigureTable {
    std::string group;   // "run", "generations", "capabilities", "threads", "spans", "sparks", "heap", "cost_centres"
    std::string keyName; // what a row's key is: "figure", "generation", "cap", "label", "name", "band", "cost_centre"
    std::vector<std::string> columns; // figure names; a unit suffix (_ns, _bytes) says how to print them
    struct Row {
        std::string key;
        std::vector<std::optional<FigureValue>> values; // per column; none: the run has no such figure
    };
    std::vector<Row> rows;
};

// The threads row of the threads without a label.
inline constexpr const char* kUnlabelledThreads = "(threads without a label)";

// What a run is: which of its figures exist, and what to tell the user
// about them (a truncated log, a report that has no timeline, ...).
struct RunFigures {
    std::string file;
    std::string kind; // "eventlog", "heap profile (.hp)", "cost-centre report (.prof)", ...
    std::string rts;  // the RTS that wrote it ("GHC-9.0.2 rts_thr_l"), when the log says
    bool truncated = false;
    bool error = false;          // the input is corrupt or unreadable (what came before is counted)
    std::vector<std::string> problems; // the input's diagnostics, each naming the offset or line
    std::vector<FigureTable> tables;
    std::optional<CostCentreProfile> profile; // time samples or the report, for the folded stacks
    std::vector<uint64_t> pauses;             // every collection's pause (ns) in the range, ascending

    const FigureTable* table(std::string_view group) const;
};

// The figures of an eventlog or .hp file loaded into `ix` (`source`: its
// bytes, from which thread segments and spark events of a range are read
// back). `range`: a stretch of the run, else the whole run (heap bands are
// the whole run's: their figures are computed per census over the run).
// Empty tables are left out. `cancelled`: stop early (the result is then
// incomplete and to be thrown away).
RunFigures runFigures(const LogIndex& ix, ByteSource& source, const std::string& file, std::optional<ViewRange> range,
                      const std::function<bool()>& cancelled = {});

// A heap band's label as runs are matched by: a .hp file's name without
// the cost-centre stack's number the RTS puts before it ("(317)history/main"
// -> "history/main"); the numbers differ from run to run and an eventlog's
// names have none.
std::string heapBandLabel(const std::string& name, bool hpFile);

// A run's heap profile as curves, to draw two runs on one scale: census
// times (s from the run's start), the total bytes and the `bands` largest
// bands' bytes per census (by label as heapBandLabel gives it).
struct HeapCurves {
    std::vector<double> seconds, total;
    std::vector<std::pair<std::string, std::vector<double>>> bands;
};
HeapCurves heapCurves(const LogIndex& ix, size_t bands);

// The figures of a cost-centre report (.prof, -pj): its cost centres only.
RunFigures reportFigures(const CostCentreProfile& profile, const std::string& file, const std::string& kind);

// The figures of `path` when it is a cost-centre report (.prof, -pj), read
// by its content; none when it is an eventlog or a .hp file (or nothing
// readable, which loading it as an eventlog then says).
std::optional<RunFigures> reportFiguresOf(const std::string& path, ByteSource& source);

// The cost-centre table of a profile (time ticks, or allocation for a
// report made with -P / -pj): per cost centre (key "Module.label"), self
// and inclusive as `profile --csv` prints them.
FigureTable costCentreTable(const CostCentreProfile& profile, ProfileMetric metric);

} // namespace hecscope
