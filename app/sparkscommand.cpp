// `hecscope sparks`: the Spark Sizes pane's histogram as text or JSON.
#include "app/cli.h"
#include "app/commands.h"

#include "core/index/logindex.h"
#include "core/load/loader.h"
#include "core/stats/sparksizes.h"
#include "core/text/units.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

namespace hecscope::cli {
namespace {

const char* const kSparksUsage =
    "Usage: hecscope sparks FILE [--range START:END] [--cap N] [--json]\n"
    "\n"
    "Loads the eventlog FILE (or - for standard input) and prints how long its\n"
    "sparks took to evaluate: the histogram of the Spark Sizes pane, in log2\n"
    "bins of nanoseconds, with count, total, mean and percentiles. A spark's\n"
    "evaluation time is the time the spark thread that took it (its SPARK_RUN\n"
    "or SPARK_STEAL event) ran until it took its next spark or finished, as\n"
    "ThreadScope measures it. Needs a log written with +RTS -lf; for other logs\n"
    "it says so.\n"
    "\n"
    "Options:\n"
    "  --range START:END  the sparks that start in this range (1.5s, 200ms, 3us,\n"
    "             12ns; START or END may be empty)\n"
    "  --cap N    the sparks that start on capability N\n"
    "  --json     one JSON object: status (ok, no_fine_grained_events,\n"
    "             no_spark_ran, unreadable), message, count, stolen, cut,\n"
    "             unattributed, total_ns, min_ns, p10_ns, median_ns, mean_ns,\n"
    "             p90_ns, p99_ns, max_ns, and bins [{log2, lo_ns, hi_ns, count,\n"
    "             total_ns}]\n"
    "  -h, --help show this help\n"
    "\n"
    "Exit status: 0 success (also when the log has no spark to measure: the\n"
    "message says why); 1 unreadable, not an eventlog, or corrupt (what was\n"
    "decoded is still measured), or changed while read; 2 usage error.\n";

struct Args {
    std::string path, rangeText;
    int cap = -1;
    bool json = false;
};

int usageError(const std::string& why)
{
    return cli::usageError("sparks", why);
}

std::optional<int> parse(int argc, char** argv, Args& a)
{
    CommandLine cl("sparks", {{"json"}, {"range", "START:END"}, {"cap", "N"}});
    if (const auto status = cl.parse(argc, argv, kSparksUsage))
        return status;
    a.path = cl.positional().front();
    a.json = cl.isSet("json");
    a.rangeText = cl.value("range");
    if (const auto status = cl.capability(a.cap))
        return status;
    return std::nullopt;
}

std::string dur(uint64_t ns)
{
    return formatDuration(ns, UnitStyle::Ascii);
}

std::string jsonString(const std::string& s)
{
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\')
            out += '\\';
        out += c;
    }
    return out + '"';
}

const char* statusName(SparkSizesStatus s)
{
    switch (s) {
    case SparkSizesStatus::Ok: return "ok";
    case SparkSizesStatus::NoFineGrainedEvents: return "no_fine_grained_events";
    case SparkSizesStatus::NoSparkRan: return "no_spark_ran";
    case SparkSizesStatus::Unreadable: return "unreadable";
    }
    return "";
}

void printJson(const SparkSizes& s, const SparkEvaluations& evals, const std::optional<ViewRange>& range, int cap)
{
    const auto u = [](uint64_t v) { return std::to_string(v); };
    std::string out = "{\n  \"status\": \"" + std::string(statusName(s.status)) + "\",\n";
    out += "  \"message\": " + jsonString(sparkSizesMessage(s, evals)) + ",\n";
    out += range ? "  \"range\": {\"start_ns\": " + u(range->start) + ", \"end_ns\": " + u(range->end) + "},\n"
                 : std::string("  \"range\": null,\n");
    out += "  \"cap\": " + (cap >= 0 ? std::to_string(cap) : std::string("null")) + ",\n";
    out += "  \"count\": " + u(s.count) + ", \"stolen\": " + u(s.stolen) + ", \"cut\": " + u(s.cut)
        + ", \"unattributed\": " + u(evals.unattributed) + ",\n";
    out += "  \"total_ns\": " + u(s.total) + ", \"min_ns\": " + u(s.min) + ", \"p10_ns\": " + u(s.p10)
        + ", \"median_ns\": " + u(s.median) + ", \"mean_ns\": " + u(s.mean) + ", \"p90_ns\": " + u(s.p90)
        + ", \"p99_ns\": " + u(s.p99) + ", \"max_ns\": " + u(s.max) + ",\n";
    out += "  \"bins\": [";
    for (size_t i = 0; i < s.bins.size(); ++i) {
        const SparkSizeBin& b = s.bins[i];
        out += (i ? ",\n    " : "\n    ") + std::string("{\"log2\": ") + std::to_string(b.log2) + ", \"lo_ns\": " + u(b.lo)
            + ", \"hi_ns\": " + u(b.hi) + ", \"count\": " + u(b.count) + ", \"total_ns\": " + u(b.total) + "}";
    }
    out += s.bins.empty() ? "]\n}\n" : "\n  ]\n}\n";
    std::fputs(out.c_str(), stdout);
}

void printText(const SparkSizes& s, const SparkEvaluations& evals, const std::optional<ViewRange>& range, int cap)
{
    std::string scope = range ? "range " + dur(range->start) + " - " + dur(range->end) : std::string("whole run");
    scope += cap >= 0 ? ", capability " + std::to_string(cap) : std::string(", all capabilities");
    std::printf("spark sizes: %s\n", scope.c_str());
    if (s.status != SparkSizesStatus::Ok) {
        std::printf("%s\n", sparkSizesMessage(s, evals).c_str());
        return;
    }
    std::printf("sparks evaluated: %s (%s stolen)\n", formatGrouped(s.count).c_str(), formatGrouped(s.stolen).c_str());
    std::printf("total: %s\n", dur(s.total).c_str());
    std::printf("min %s  p10 %s  median %s  mean %s  p90 %s  p99 %s  max %s\n", dur(s.min).c_str(), dur(s.p10).c_str(),
                dur(s.median).c_str(), dur(s.mean).c_str(), dur(s.p90).c_str(), dur(s.p99).c_str(), dur(s.max).c_str());
    if (s.cut)
        std::printf("cut by the end of the log: %s (their times are lower bounds)\n", formatGrouped(s.cut).c_str());
    if (evals.unattributed)
        std::printf("spark events with no running thread (not measured): %s\n", formatGrouped(evals.unattributed).c_str());
    std::printf("\n%10s %10s %10s %7s %10s %7s  sparks\n", "from", "to", "sparks", "share", "total", "share");
    uint64_t most = 1;
    for (const SparkSizeBin& b : s.bins)
        most = std::max(most, b.count);
    for (const SparkSizeBin& b : s.bins) {
        const std::string bar(size_t((b.count * 40 + most - 1) / most), '#');
        std::printf("%10s %10s %10s %7s %10s %7s  %s\n", dur(b.lo).c_str(), dur(b.hi).c_str(), formatGrouped(b.count).c_str(),
                    formatPercent(b.count, s.count).c_str(), dur(b.total).c_str(), formatPercent(b.total, s.total).c_str(),
                    bar.c_str());
    }
}

} // namespace

int sparks(int argc, char** argv)
{
    Args a;
    if (const auto status = parse(argc, argv, a))
        return *status;
    auto source = openOrComplain(a.path);
    if (!source)
        return 1;
    const LoadResult loaded = loadIndex(*source);
    const LogIndex& ix = *loaded.index;
    for (const Diagnostic& d : ix.scan.diagnostics)
        std::fprintf(stderr, "hecscope sparks: %s: %s\n", a.path.c_str(), d.message().c_str());
    std::optional<ViewRange> range;
    if (!a.rangeText.empty()) {
        const auto r = parseTimeRange(a.rangeText, std::max<uint64_t>(ix.lastTime, 1));
        if (!r)
            return usageError("bad --range '" + a.rangeText + "' (START:END, e.g. 1.5s:2s, START < END)");
        range = ViewRange{r->first, r->second};
    }
    if (a.cap >= 0 && size_t(a.cap) >= ix.caps.size())
        return usageError("--cap " + std::to_string(a.cap) + ": the log has " + std::to_string(ix.caps.size()) + " capabilities");
    // The whole run's evaluations, read back from the file: the count of
    // spark events with no thread is the whole log's.
    const SparkEvaluations evals = sparkEvaluations(ix, *source);
    const SparkSizes s = sparkSizes(evals, range, a.cap);
    if (a.json)
        printJson(s, evals, range, a.cap);
    else
        printText(s, evals, range, a.cap);
    if (!evals.error.empty())
        std::fprintf(stderr, "hecscope sparks: %s: %s\n", a.path.c_str(), evals.error.c_str());
    return ix.scan.hasError || !evals.error.empty() ? 1 : 0;
}

} // namespace hecscope::cli
