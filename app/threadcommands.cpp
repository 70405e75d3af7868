// `hecscope threads` and `hecscope spans`: the figures of the Threads and
// Spans panes as text or CSV.
#include "app/cli.h"
#include "app/commands.h"

#include "core/detail/threaddetail.h"
#include "core/index/logindex.h"
#include "core/load/loader.h"
#include "core/text/units.h"
#include "core/threads/threadstats.h"
#include "core/threads/userspans.h"

#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

namespace hecscope::cli {
namespace {

const char* const kThreadsUsage =
    "Usage: hecscope threads FILE [--csv] [--range START:END]\n"
    "\n"
    "Loads the eventlog FILE (or - for standard input) and prints what every\n"
    "Haskell thread did: its label, runs, time running, runnable (queued) and\n"
    "blocked, created and finished times, migrations and wake-ups, and the\n"
    "blocked time per reason, for the whole log or the time range given\n"
    "(times as 1.5s, 200ms, 3us, 12ns; START or END may be empty).\n"
    "\n"
    "Options:\n"
    "  --csv      one row per thread; columns listed in README.md:\n"
    "             thread,label,runs,run_ns,runnable_ns,blocked_ns,created_ns,\n"
    "             finished_ns,migrations,wakeups,unknown_ns,blocked_<reason>_ns...\n"
    "  --range START:END  only the part of each thread's life inside it\n"
    "  -h, --help show this help\n"
    "\n"
    "Exit status: 0 success; 1 unreadable, not an eventlog, or corrupt (the\n"
    "figures of what was decoded are still printed); 2 usage error.\n";

const char* const kSpansUsage =
    "Usage: hecscope spans FILE [--csv] [--range START:END]\n"
    "             [--start-prefix TEXT] [--stop-prefix TEXT] [--no-markers]\n"
    "\n"
    "Loads the eventlog FILE and pairs its user messages (traceEvent,\n"
    "traceEventIO, and traceMarker unless --no-markers) \"START name\" and\n"
    "\"STOP name\" per Haskell thread into spans (nesting allowed), then prints\n"
    "per name: count, total, self (total minus nested spans), mean, median,\n"
    "95th percentile and longest duration of the spans stopped, and how many\n"
    "never stopped (a START without a STOP has no duration: it is left out of\n"
    "the other figures). With --range, the spans that start inside it (their\n"
    "whole durations). A STOP without a START, and a START never stopped, are\n"
    "listed on stderr.\n"
    "\n"
    "Options:\n"
    "  --csv      name,count,total_ns,self_ns,mean_ns,p50_ns,p95_ns,max_ns,\n"
    "             never_stopped (mean to max empty for a name never stopped)\n"
    "  --range START:END  spans starting in this range (1.5s, 200ms, 3us, 12ns)\n"
    "  --start-prefix TEXT, --stop-prefix TEXT\n"
    "             the prefixes (default \"START \" and \"STOP \")\n"
    "  --no-markers  pair traceEvent messages only\n"
    "  -h, --help show this help\n"
    "\n"
    "Exit status as `hecscope threads`.\n";


std::string dur(uint64_t ns)
{
    return formatDuration(ns, UnitStyle::Ascii);
}

std::string timeOrDash(uint64_t ns)
{
    return ns == kNoTime ? std::string("-") : dur(ns);
}

struct Args {
    std::string path;
    bool csv = false;
    std::optional<ViewRange> range;
    std::string rangeText;
    SpanRules rules;
    std::unique_ptr<ByteSource> source; // the log (thread segments of a range are read back from it)
};

// Parses the common options; false after printing why (status set).
bool parse(int argc, char** argv, const char* command, const char* usage, bool spanOptions, Args& a, int& status)
{
    std::vector<CliOption> options{{"csv"}, {"range", "START:END"}};
    if (spanOptions)
        options.insert(options.end(), {{"start-prefix", "TEXT"}, {"stop-prefix", "TEXT"}, {"no-markers"}});
    CommandLine cl(command, options);
    if (const auto done = cl.parse(argc, argv, usage)) {
        status = *done;
        return false;
    }
    a.path = cl.positional().front();
    a.csv = cl.isSet("csv");
    a.rangeText = cl.value("range");
    if (spanOptions) {
        if (cl.isSet("start-prefix"))
            a.rules.start = cl.value("start-prefix");
        if (cl.isSet("stop-prefix"))
            a.rules.stop = cl.value("stop-prefix");
        a.rules.markers = !cl.isSet("no-markers");
        if (a.rules.start.empty() || a.rules.stop.empty() || a.rules.start == a.rules.stop) {
            status = cl.usageError("the start and stop prefixes must differ and not be empty");
            return false;
        }
    }
    return true;
}

// The range of --range, once the log's end is known; false after saying why.
bool resolveRange(Args& a, const LogIndex& ix, const char* command, int& status)
{
    if (a.rangeText.empty())
        return true;
    const auto r = parseTimeRange(a.rangeText, std::max<uint64_t>(ix.lastTime, 1));
    if (!r) {
        status = usageError(command, "bad --range '" + a.rangeText + "' (START:END with START < END)");
        return false;
    }
    a.range = ViewRange{r->first, r->second};
    return true;
}

int reportLoad(const LogIndex& ix, const std::string& path)
{
    for (const Diagnostic& d : ix.scan.diagnostics)
        std::fprintf(stderr, "hecscope: %s: %s: %s\n", path.c_str(), d.isError() ? "error" : "warning",
                     d.message().c_str());
    if (!ix.scan.ioError.empty()) {
        std::fprintf(stderr, "hecscope: %s: read error: %s\n", path.c_str(), ix.scan.ioError.c_str());
        return 1;
    }
    return ix.scan.hasError ? 1 : 0;
}

std::string threadName(const LogIndex& ix, uint32_t id)
{
    const ThreadLabel label = ix.labelOf(id);
    return !label.empty() ? label.str() + " (" + std::to_string(id) + ")" : "thread " + std::to_string(id);
}

// Parses the arguments, loads the log and resolves the range: the index,
// or null with the exit status set.
std::unique_ptr<LogIndex> start(int argc, char** argv, const char* command, const char* usage, bool spanOptions,
                                Args& a, int& status)
{
    if (!parse(argc, argv, command, usage, spanOptions, a, status))
        return nullptr;
    auto source = openOrComplain(a.path);
    if (!source) {
        status = 1;
        return nullptr;
    }
    std::unique_ptr<LogIndex> ix = loadIndex(*source).index;
    a.source = std::move(source);
    if (!resolveRange(a, *ix, command, status))
        return nullptr;
    return ix;
}

} // namespace

int threads(int argc, char** argv)
{
    Args a;
    int status = 0;
    const std::unique_ptr<LogIndex> index = start(argc, argv, "threads", kThreadsUsage, false, a, status);
    if (!index)
        return status;
    const LogIndex& ix = *index;
    std::string error;
    const std::vector<ThreadFigures> all = threadFiguresIn(a.source.get(), ix, a.range, {}, &error);
    if (!error.empty()) {
        std::fprintf(stderr, "hecscope threads: %s: %s\n", a.path.c_str(), error.c_str());
        return 1;
    }
    std::string out;
    char line[512];
    if (a.csv) {
        out += "thread,label,runs,run_ns,runnable_ns,blocked_ns,created_ns,finished_ns,migrations,wakeups,unknown_ns";
        for (size_t r = 0; r < kBlockReasons; ++r)
            out += std::string(",blocked_") + blockReasonName(BlockReason(r)) + "_ns";
        out += '\n';
        for (const ThreadFigures& f : all) {
            const auto opt = [](uint64_t t) { return t == kNoTime ? std::string() : std::to_string(t); };
            out += std::to_string(f.id) + ',' + csvField(f.label) + ',' + std::to_string(f.runs) + ','
                + std::to_string(f.running()) + ',' + std::to_string(f.runnable()) + ','
                + std::to_string(f.blockedTotal()) + ',' + opt(f.created) + ',' + opt(f.finished) + ','
                + std::to_string(f.migrations) + ',' + std::to_string(f.wakeups) + ','
                + std::to_string(f.time[size_t(ThreadState::Unknown)]);
            for (uint64_t b : f.blocked)
                out += ',' + std::to_string(b);
            out += '\n';
        }
    } else {
        std::snprintf(line, sizeof line, "%zu threads%s\n\n", all.size(),
                      a.range ? (" in " + dur(a.range->start) + " - " + dur(a.range->end)).c_str() : "");
        out += line;
        std::snprintf(line, sizeof line, "%8s  %-20s %7s %11s %11s %11s %11s %11s %6s %6s  %s\n", "thread", "label",
                      "runs", "running", "runnable", "blocked", "created", "finished", "migr", "wakes",
                      "blocked most on");
        out += line;
        for (const ThreadFigures& f : all) {
            size_t most = kBlockReasons;
            for (size_t r = 0; r < kBlockReasons; ++r)
                if (f.blocked[r] && (most == kBlockReasons || f.blocked[r] > f.blocked[most]))
                    most = r;
            std::snprintf(line, sizeof line, "%8u  %-20s %7u %11s %11s %11s %11s %11s %6u %6u  %s\n", f.id,
                          std::string(f.label.substr(0, 20)).c_str(), f.runs, dur(f.running()).c_str(),
                          dur(f.runnable()).c_str(), dur(f.blockedTotal()).c_str(), timeOrDash(f.created).c_str(),
                          timeOrDash(f.finished).c_str(), f.migrations, f.wakeups,
                          most == kBlockReasons ? "-" : blockReasonName(BlockReason(most)));
            out += line;
        }
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
    return reportLoad(ix, a.path);
}

int spans(int argc, char** argv)
{
    Args a;
    int status = 0;
    const std::unique_ptr<LogIndex> index = start(argc, argv, "spans", kSpansUsage, true, a, status);
    if (!index)
        return status;
    const LogIndex& ix = *index;
    const std::shared_ptr<const UserSpans> spans
        = a.rules == SpanRules{} && ix.userSpans ? ix.userSpans : pairUserSpans(ix, a.rules);
    const std::vector<SpanNameFigures> figures = spanFigures(*spans, a.range);
    std::string out;
    char line[512];
    if (a.csv) {
        out += "name,count,total_ns,self_ns,mean_ns,p50_ns,p95_ns,max_ns,never_stopped\n";
        for (const SpanNameFigures& f : figures) {
            // No stopped span: no mean, percentile or maximum.
            const auto figure = [&](uint64_t ns) { return f.count ? std::to_string(ns) : std::string(); };
            out += csvField(spans->names[f.name]) + ',' + std::to_string(f.count) + ',' + std::to_string(f.total)
                + ',' + std::to_string(f.self) + ',' + figure(f.mean) + ',' + figure(f.p50) + ','
                + figure(f.p95) + ',' + figure(f.max) + ',' + std::to_string(f.open) + '\n';
        }
    } else {
        uint64_t count = 0, open = 0;
        for (const SpanNameFigures& f : figures) {
            count += f.count;
            open += f.open;
        }
        std::snprintf(line, sizeof line, "%llu spans of %zu names%s%s\n\n", static_cast<unsigned long long>(count),
                      figures.size(),
                      a.range ? (" starting in " + dur(a.range->start) + " - " + dur(a.range->end)).c_str() : "",
                      open ? (", and " + std::to_string(open) + " never stopped (left out of the figures)").c_str() : "");
        out += line;
        out += spanFiguresText(*spans, figures);
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
    for (const SpanIssue& i : spans->issues)
        if (!a.range || (i.time >= a.range->start && i.time < a.range->end))
            std::fprintf(stderr, "hecscope: %s: warning: %s '%s' on %s at %s\n", a.path.c_str(),
                     i.kind == SpanIssue::StopWithoutStart ? "STOP without START" : "START never stopped (left out of the figures)",
                     spans->names[i.name].c_str(), i.thread ? threadName(ix, i.thread).c_str() : "no thread",
                     dur(i.time).c_str());
    return reportLoad(ix, a.path);
}

} // namespace hecscope::cli
