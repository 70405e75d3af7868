// `hecscope diff A B`: two runs' figures side by side, B − A and B / A, and
// regression checks for a CI (--fail-if).
#include "app/cli.h"
#include "app/commands.h"

#include "core/compare/comparison.h"
#include "core/compare/runfigures.h"
#include "core/load/loader.h"
#include "core/text/units.h"

#include <cstdio>
#include <future>
#include <set>
#include <string>
#include <vector>

namespace hecscope::cli {
namespace {

const char* const kDiffUsage =
    "Usage: hecscope diff A B [--json | --csv | --folded] [--range START:END]\n"
    "                     [--only GROUP[,GROUP...]] [--fail-if CHECK]...\n"
    "\n"
    "Compares two runs: each of A and B an eventlog, a heap profile (.hp) or a\n"
    "cost-centre report (.prof, -pj JSON). Prints every figure either run has,\n"
    "as A, B, the difference B-A and the ratio B/A; a figure only one run has\n"
    "is printed with the other side empty, and what cannot be compared is said\n"
    "in notes. The figures are those the single-run commands print, in groups:\n"
    "  run           `info --json`'s statistics (time, productivity, GC,\n"
    "                pauses, copied, maximum residency, heap, sparks) named by\n"
    "                their JSON keys, e.g. time.total_ns, gc.max_pause_ns;\n"
    "                and the pauses' gc.pause_p50_ns, _p90_ns, _p99_ns\n"
    "  generations   collections and pauses per generation\n"
    "  capabilities  per capability (matched by number)\n"
    "  threads       `threads` figures by thread label; the threads without a\n"
    "                label added up in one row\n"
    "  spans         `spans` figures by span name\n"
    "  sparks        `sparks` spark-size figures (+RTS -lf logs)\n"
    "  heap          heap-profile bands by label: peak, growth (bytes/s),\n"
    "                byte-seconds and share of all bands\n"
    "  cost_centres  `profile --csv`'s self and inclusive figures by\n"
    "                Module.label (eventlog samples, or a report's ticks and,\n"
    "                with -P or -pj, bytes)\n"
    "\n"
    "Options:\n"
    "  --json         one JSON object: a, b (file, kind, rts, truncated, error),\n"
    "                 range, notes, figures (group, key, figure, a, b, difference,\n"
    "                 ratio; null where there is none), checks\n"
    "  --csv          group,key,figure,a,b,difference,ratio\n"
    "  --folded       differential folded stacks of the two cost-centre profiles\n"
    "                 (`frames A B` per stack; flamegraph.pl's difffolded format:\n"
    "                 `flamegraph.pl` draws it as a differential flame graph)\n"
    "  --range START:END\n"
    "                 the same stretch of each run (times from each run's start,\n"
    "                 e.g. 1s:2.5s; an empty END is each run's end); heap bands\n"
    "                 and .prof reports are always whole runs\n"
    "  --only GROUPS  print only these groups (comma-separated)\n"
    "  --fail-if CHECK\n"
    "                 exit with status 3 when a figure changed by more than a\n"
    "                 threshold. CHECK is GROUP/KEY[/FIGURE]:THRESHOLD, each of\n"
    "                 GROUP, KEY and FIGURE a glob (* and ?). THRESHOLD: +10%\n"
    "                 (grew by more than 10% of A), -5% (fell by more than 5%),\n"
    "                 10% (either way), or an amount in the figure's unit:\n"
    "                 +2ms for a duration (_ns), +1MB for bytes, else a number.\n"
    "                 A check that matches no figure both runs have fails too.\n"
    "                 Examples: run/time.total_ns:+10%  run/gc.max_pause_ns:+5ms\n"
    "                 spans/*/p95_ns:+20%  run/time.productivity:-0.05\n"
    "  -h, --help     show this help\n"
    "\n"
    "Exit status: 0 success; 1 an input is unreadable or corrupt (what was\n"
    "read of it is still compared; a truncated log is a success); 2 usage\n"
    "error; 3 a --fail-if check failed (each failure is said on stderr).\n";

int usageError(const std::string& why)
{
    return cli::usageError("diff", why);
}

struct Loaded {
    RunFigures figures;
    std::optional<ViewRange> range;
    bool opened = false;
    std::string rangeError;
};

// One run, loaded and its figures computed (on a thread of its own).
Loaded loadRun(const std::string& path, const std::string& rangeText)
{
    Loaded out;
    auto source = openOrComplain(path);
    if (!source)
        return out;
    out.opened = true;
    // Not a report: loaded as an eventlog or .hp, whose reader says what is
    // wrong with it and where.
    if (path != "-")
        if (std::optional<RunFigures> report = reportFiguresOf(path, *source)) {
            out.figures = std::move(*report);
            return out;
        }
    const LoadResult loaded = loadIndex(*source);
    const LogIndex& ix = *loaded.index;
    if (!rangeText.empty()) {
        const auto r = parseTimeRange(rangeText, std::max<uint64_t>(ix.lastTime, 1));
        if (!r) {
            out.rangeError = "bad --range '" + rangeText + "' (START:END with START < END) for " + path;
            return out;
        }
        out.range = ViewRange{r->first, r->second};
    }
    out.figures = runFigures(ix, *source, path, out.range);
    return out;
}

} // namespace

int diff(int argc, char** argv)
{
    CommandLine cl("diff", {{"json"}, {"csv"}, {"folded"}, {"range", "START:END"}, {"only", "GROUPS"}, {"fail-if", "CHECK"}},
                   {2, 2, "give two files, A and B", "more than two files given"});
    if (const auto status = cl.parse(argc, argv, kDiffUsage))
        return *status;
    const std::vector<std::string>& paths = cl.positional();
    const std::vector<std::string> checkTexts = cl.values("fail-if");
    const std::string rangeText = cl.value("range"), only = cl.value("only");
    if (int(cl.isSet("json")) + int(cl.isSet("csv")) + int(cl.isSet("folded")) > 1)
        return usageError("--json, --csv and --folded exclude each other");
    enum class Output { Text, Json, Csv, Folded };
    const Output output = cl.isSet("json") ? Output::Json
        : cl.isSet("csv")                   ? Output::Csv
        : cl.isSet("folded")                ? Output::Folded
                                            : Output::Text;
    if (paths[0] == "-" && paths[1] == "-")
        return usageError("only one of A and B can be - (standard input)");
    std::vector<FigureCheck> checks;
    for (const std::string& t : checkTexts) {
        std::string error;
        const auto check = parseFigureCheck(t, error);
        if (!check)
            return usageError("--fail-if " + error);
        checks.push_back(*check);
    }
    std::set<std::string> groups;
    for (size_t from = 0; !only.empty() && from <= only.size();) {
        const size_t comma = std::min(only.find(',', from), only.size());
        groups.insert(only.substr(from, comma - from));
        from = comma + 1;
    }

    // Both runs at once: each load uses a second core only part of the time.
    auto futureB = std::async(std::launch::async, [&] { return loadRun(paths[1], rangeText); });
    Loaded a = loadRun(paths[0], rangeText);
    Loaded b = futureB.get();
    if (!a.opened || !b.opened)
        return 1;
    for (const Loaded* l : {&a, &b})
        if (!l->rangeError.empty())
            return usageError(l->rangeError);
    int status = a.figures.error || b.figures.error ? 1 : 0;
    for (const Loaded* l : {&a, &b})
        for (const std::string& p : l->figures.problems)
            std::fprintf(stderr, "hecscope: %s: %s\n", l->figures.file.c_str(), p.c_str());

    if (output == Output::Folded) {
        if (!a.figures.profile || !b.figures.profile) {
            std::fprintf(stderr, "hecscope diff: --folded needs a cost-centre profile in both runs (%s has none: "
                                 "a profiled build run with +RTS -p -l, or a .prof / -pj report)\n",
                         (!a.figures.profile ? a : b).figures.file.c_str());
            return 1;
        }
        const std::string out = differentialFolded(*a.figures.profile, *b.figures.profile);
        std::fwrite(out.data(), 1, out.size(), stdout);
        return status;
    }

    Comparison c = compareRuns(a.figures, b.figures);
    if (!groups.empty()) {
        std::set<std::string> known;
        for (const ComparedFigure& f : c.figures)
            known.insert(f.group);
        for (const std::string& g : groups)
            if (!known.count(g))
                c.notes.push_back("--only " + g + ": neither run has such figures");
        std::erase_if(c.figures, [&](const ComparedFigure& f) { return !groups.count(f.group); });
    }
    // (On the figures printed: a check names what is shown.)
    std::vector<CheckOutcome> outcomes;
    for (const FigureCheck& check : checks)
        outcomes.push_back(evaluateCheck(check, c));
    std::string scope = rangeText.empty() ? std::string("whole runs") : "--range " + rangeText + " of each run";
    if (a.range && b.range && (a.range->start != b.range->start || a.range->end != b.range->end))
        scope += " (A " + formatDuration(a.range->start, UnitStyle::Ascii) + " - "
            + formatDuration(a.range->end, UnitStyle::Ascii) + ", B " + formatDuration(b.range->start, UnitStyle::Ascii)
            + " - " + formatDuration(b.range->end, UnitStyle::Ascii) + ")";
    const std::string out = output == Output::Json ? comparisonJson(a.figures, b.figures, c, a.range, b.range, outcomes)
        : output == Output::Csv                    ? comparisonCsv(c)
                                                   : comparisonText(a.figures, b.figures, c, scope);
    if (std::fwrite(out.data(), 1, out.size(), stdout) != out.size()) {
        std::fprintf(stderr, "hecscope diff: cannot write the output\n");
        return 1;
    }
    std::fflush(stdout);
    bool failed = false;
    for (const CheckOutcome& o : outcomes) {
        const std::string text = checkText(o, c);
        std::fputs(text.c_str(), stderr);
        failed = failed || !o.passed();
    }
    if (status == 0 && failed)
        status = 3;
    return status;
}

} // namespace hecscope::cli
