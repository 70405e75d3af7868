#include "app/commands.h"
#include "app/cli.h"

#include "core/load/loader.h"
#include "core/load/hpfile.h"
#include "core/index/logindex.h"
#include "core/io/bytesource.h"
#include "core/stats/stats.h"
#include "core/report/dump.h"
#include "core/report/info.h"
#include "core/report/rtssummary.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>
#include <vector>

namespace hecscope::cli {
namespace {

const char* const kUsage =
    "Usage: hecscope [FILE | --connect SOURCE] [--record FILE] [--keep-minutes N]\n"
    "                [--compare B]\n"
    "       hecscope dump [--legacy] FILE\n"
    "       hecscope info [--json] FILE\n"
    "       hecscope bench FILE [--compare B]\n"
    "       hecscope heap FILE [--bands N] [--order ORDER] [--reverse] [--csv]\n"
    "       hecscope threads FILE [--csv] [--range START:END]\n"
    "       hecscope spans FILE [--csv] [--range START:END] [--start-prefix TEXT]\n"
    "                      [--stop-prefix TEXT] [--no-markers]\n"
    "       hecscope profile FILE [--folded | --csv] [--range START:END] [--cap N]\n"
    "                      [--alloc] [--hide-rts] [--ticky]\n"
    "       hecscope sparks FILE [--range START:END] [--cap N] [--json]\n"
    "       hecscope diff A B [--json | --csv | --folded] [--range START:END]\n"
    "                      [--only GROUPS] [--fail-if CHECK]...\n"
    "       hecscope watch SOURCE [--record FILE] [--until-end | --seconds N]\n"
    "                      [--keep-minutes N]\n"
    "       hecscope export FILE -o OUT.(png|svg|pdf) [--size WxH] [--range START:END]\n"
    "                       [--tracks LIST]\n"
    "       hecscope --help | --version\n"
    "\n"
    "Hecscope views GHC eventlogs (+RTS -l) and heap profiles (.hp).\n"
    "\n"
    "Commands:\n"
    "  (none)   open FILE (optional) in the viewer window; a named pipe, - (stdin)\n"
    "           or a file still being written is followed live, and so is\n"
    "           --connect unix:PATH | tcp:HOST:PORT (an eventlog socket);\n"
    "           --record FILE keeps the bytes received; --keep-minutes N keeps\n"
    "           only about the last N minutes in memory (older detail dropped);\n"
    "           --compare B compares FILE with the run B in the Compare pane\n"
    "  dump     print every event as `ghc-events show FILE` does\n"
    "  info     load and index FILE, print its statistics\n"
    "  bench    time loading FILE, typical queries and rendering\n"
    "  heap     print the heap-profile bands of FILE (an eventlog or a .hp file)\n"
    "  threads  print what every Haskell thread did (run, queued, blocked time)\n"
    "  spans    print the user spans (traceEvent \"START x\" / \"STOP x\") by name\n"
    "  profile  print a cost-centre profile (eventlog samples, .prof, -pj JSON):\n"
    "           folded stacks, CSV or a summary; ticky-ticky counters\n"
    "  sparks   print how long sparks took to evaluate (a +RTS -lf log): histogram\n"
    "  diff     compare two runs (eventlogs, .hp, .prof, -pj): every figure of\n"
    "           both, B-A and B/A; --fail-if fails a CI when figures got worse\n"
    "  watch    follow a live eventlog (growing file, pipe, -, unix:PATH,\n"
    "           tcp:HOST:PORT): one JSON line per update, then a summary\n"
    "  synthesize  write a big synthetic eventlog for benchmarks\n"
    "  export   draw the timeline of FILE into an image, without a display\n"
    "\n"
    "Run `hecscope COMMAND --help` for a command's options.\n";

const char* const kDumpUsage =
    "Usage: hecscope dump [--legacy] FILE\n"
    "\n"
    "Prints the eventlog FILE (or - for standard input) exactly as\n"
    "`ghc-events show FILE` does: the event types, then every event in time\n"
    "order (ties in file order), one per line.\n"
    "\n"
    "Options:\n"
    "  --legacy   print as ghc-events <= 0.17 did (no block lines, older texts)\n"
    "  -h, --help show this help\n"
    "\n"
    "Exit status: 0 success (a truncated log is a success, with a warning on\n"
    "stderr); 1 the file is unreadable, not an eventlog, or corrupt (what was\n"
    "decoded before the fault is still printed; the reason and byte offset go\n"
    "to stderr); 2 usage error.\n";

const char* const kInfoUsage =
    "Usage: hecscope info [--json | --rts-summary] FILE\n"
    "\n"
    "Loads and indexes the eventlog FILE (or - for standard input), then prints\n"
    "the process facts, whole-run statistics (time, productivity, collections\n"
    "per generation, pauses, allocation, heap, sparks), a table per capability\n"
    "and the diagnostics.\n"
    "\n"
    "Options:\n"
    "  --json     print one JSON object instead (keys listed in README.md)\n"
    "  --rts-summary\n"
    "             print the figures of +RTS -s that the eventlog determines, in\n"
    "             the layout of +RTS -s (\"-\" where the eventlog has no figure)\n"
    "  -h, --help show this help\n"
    "\n"
    "Exit status: 0 success (a truncated log is a success: everything before\n"
    "the cut is counted and `truncated` is true); 1 the file is unreadable, not\n"
    "an eventlog, or corrupt (the statistics of what was decoded are still\n"
    "printed); 2 usage error.\n";

bool writeAll(int fd, std::string_view text)
{
    while (!text.empty()) {
        const ssize_t n = ::write(fd, text.data(), text.size());
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        text.remove_prefix(size_t(n));
    }
    return true;
}

std::unique_ptr<ByteSource> openInput(const std::string& path, std::string& error)
{
    if (path != "-")
        return FileSource::open(path, error);
    std::vector<uint8_t> bytes;
    std::vector<uint8_t> chunk(1 << 20);
    for (;;) {
        const ssize_t n = ::read(STDIN_FILENO, chunk.data(), chunk.size());
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        bytes.insert(bytes.end(), chunk.begin(), chunk.begin() + n);
    }
    return std::make_unique<MemorySource>(std::move(bytes));
}

// openInput, saying why on stderr when the file cannot be opened.
} // namespace

std::optional<int> capabilityArg(const std::string& value)
{
    char* end = nullptr;
    const long cap = std::strtol(value.c_str(), &end, 10);
    if (value.empty() || *end || cap < 0 || cap > 65535)
        return std::nullopt;
    return int(cap);
}

std::unique_ptr<ByteSource> openOrComplain(const std::string& path)
{
    std::string error;
    auto source = openInput(path, error);
    if (!source)
        std::fprintf(stderr, "hecscope: cannot open %s\n", error.c_str());
    return source;
}

const char* usage()
{
    return kUsage;
}

int dump(int argc, char** argv)
{
    CommandLine cl("dump", {{"legacy"}});
    if (const auto status = cl.parse(argc, argv, kDumpUsage))
        return *status;
    const PrinterStyle style = cl.isSet("legacy") ? PrinterStyle::Legacy : PrinterStyle::Head;
    const std::string path = cl.positional().front();
    auto source = openOrComplain(path);
    if (!source)
        return 1;
    uint8_t head[8] = {};
    if (looksLikeHeapProfile({head, source->read(0, head, sizeof head)})) {
        std::fprintf(stderr, "hecscope dump: %s is a GHC heap profile (.hp), not an eventlog; "
                             "`hecscope heap %s` prints its bands\n",
                     path.c_str(), path.c_str());
        return 1;
    }
    bool outputOk = true;
    const LogScan scan = dumpLog(*source, [&](std::string_view text) {
        outputOk = writeAll(STDOUT_FILENO, text);
        return outputOk;
    }, style);
    for (const Diagnostic& d : scan.diagnostics)
        std::fprintf(stderr, "hecscope: %s: %s: %s\n", path.c_str(),
                     d.isError() ? "error" : "warning", d.message().c_str());
    if (!scan.ioError.empty()) {
        std::fprintf(stderr, "hecscope: %s: read error: %s\n", path.c_str(), scan.ioError.c_str());
        return 1;
    }
    if (!outputOk) {
        std::fprintf(stderr, "hecscope: cannot write the output\n");
        return 1;
    }
    return scan.hasError ? 1 : 0;
}

int info(int argc, char** argv)
{
    CommandLine cl("info", {{"json"}, {"rts-summary"}});
    if (const auto status = cl.parse(argc, argv, kInfoUsage))
        return *status;
    const bool json = cl.isSet("json"), rtsSummary = cl.isSet("rts-summary");
    const std::string path = cl.positional().front();
    if (json && rtsSummary)
        return cl.usageError("--json and --rts-summary exclude each other");
    auto source = openOrComplain(path);
    if (!source)
        return 1;
    const LoadResult loaded = loadIndex(*source);
    const LogIndex& ix = *loaded.index;
    const RangeStats stats = computeStats(ix);
    const std::string text = rtsSummary ? rtsSummaryText(ix, stats, true)
        : json                          ? infoJson(ix, stats, path)
                                        : infoText(ix, stats, path);
    const bool outputOk = writeAll(STDOUT_FILENO, text);
    for (const Diagnostic& d : ix.scan.diagnostics)
        std::fprintf(stderr, "hecscope: %s: %s: %s\n", path.c_str(),
                     d.isError() ? "error" : "warning", d.message().c_str());
    if (!ix.scan.ioError.empty()) {
        std::fprintf(stderr, "hecscope: %s: read error: %s\n", path.c_str(), ix.scan.ioError.c_str());
        return 1;
    }
    if (!outputOk) {
        std::fprintf(stderr, "hecscope: cannot write the output\n");
        return 1;
    }
    return ix.scan.hasError ? 1 : 0;
}

} // namespace hecscope::cli
