#include "app/commands.h"

#include "core/detail/threaddetail.h"

#include "core/io/bytesource.h"
#include "core/load/loader.h"
#include "core/report/dump.h"
#include "core/report/info.h"
#include "core/report/rtssummary.h"
#include "core/format/eventtags.h"
#include "core/heap/heapbands.h"
#include "core/load/hpfile.h"
#include "core/index/logindex.h"
#include "core/profile/profreport.h"
#include "core/stats/stats.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>
#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
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

const char* const kBenchUsage =
    "Usage: hecscope bench FILE [--compare B]\n"
    "\n"
    "Times a decode-only pass over FILE, then loading it into the index, then\n"
    "typical queries, and prints `key: value` lines: decode_s, index_s (load_s\n"
    "minus decode_s), load_s (open to fully indexed), peak_rss_mb, and query\n"
    "times in milliseconds (lod_*: one track at 2000 pixels; stats_*: range\n"
    "statistics), each the maximum and mean over several views, and\n"
    "cancel_latency_ms: from a cancel request half way through a load to\n"
    "its return; nth_events_ms: 100 events from the middle of the log in\n"
    "time order; find_first_marker_ms: the search for the first user marker;\n"
    "render_p50_ms, render_p95_ms, render_max_ms: full repaints of the timeline\n"
    "at 1600x1000 over zoom levels from the whole log down to 1 us (render_views\n"
    "of them); ui_max_stall_ms: the longest the window's event loop was kept\n"
    "from running while it opened FILE (-1 if the load did not finish).\n"
    "With a heap profile: heap_bands_ms (computing every band's figures, as\n"
    "done after loading), heap_select_max_ms (the slowest change of band count\n"
    "15/5/50 and ordering), heap_select_all_ms (--bands 0: every band),\n"
    "heap_range_rank_ms (bands ranked over the whole run as a selection),\n"
    "heap_at_cursor_ms (every band's bytes at one census), and\n"
    "heap_render_* repaints of the heap-profile track alone (heap_render_all_bands_max_ms:\n"
    "with every band, whole run), heap_change_max_ms\n"
    "(a change in the Heap Profile pane until the timeline has repainted).\n"
    "With cost-centre samples: profile_whole_ms (the whole run's call tree),\n"
    "profile_range_ms (p95 over 20 ranges of a tenth of the run; _p50, _max),\n"
    "flame_layout_ms (the whole run's flame-graph layout), and flame_repaint_*\n"
    "(about 50 repaints at 1600x1000 with the root and a few deep frames as\n"
    "the focus, flame and icicle), profile_pane_ms / _ui_ms / _bottom_up_ms\n"
    "(the Profile pane until its flame graph and call tree are shown, what that\n"
    "cost the UI thread, until its bottom-up tree follows; profile_pane_range_*\n"
    "the same for a selection of a tenth of the run).\n"
    "FILE may also be a .prof or -pj report (found by its content): then\n"
    "report_bytes, report_open_ms (reading the file and parsing it, the median\n"
    "of 5; report_open_max_ms the slowest), report_nodes, report_bottom_up_ms\n"
    "(the bottom-up view), report_flame_layout_ms (the flame-graph layout of\n"
    "the root), the flame_* figures above for the report's tree, and\n"
    "report_window_ms / _ui_ms (File > Open of the report in the window until\n"
    "its flame graph and call tree are shown; the UI thread's share).\n"
    "With fine-grained spark events (+RTS -lf): spark_evaluations, spark_measure_ms\n"
    "(every spark's evaluation time, once per log), spark_sizes_whole_ms (the\n"
    "histogram of the run) and spark_sizes_range_max_ms (of a tenth of the run).\n"
    "With --compare B: what comparing FILE with B costs, each the best of three\n"
    "runs of this program as a child process: compare_info_a_s, compare_info_b_s\n"
    "(`info` of each), compare_diff_s (`diff FILE B`), compare_diff_per_info\n"
    "(diff over the slower info), and the peak RSS of each\n"
    "(compare_*_peak_rss_mb); then the window, each part a process of its own:\n"
    "window_load_s (FILE alone), compare_first_tracks_a_s, compare_timeline_b_s\n"
    "(B's timeline under A's), compare_window_loaded_s (both runs' figures shown),\n"
    "compare_window_per_single, compare_render_p50/p95/max_ms (repaints of the two\n"
    "stacked timelines over a zoom sweep), window_a/b_peak_rss_mb (each run alone),\n"
    "compare_window_loaded_peak_rss_mb (both runs loaded, before the sweep),\n"
    "compare_window_rss_per_two_windows (that over the two single windows') and\n"
    "compare_window_after_sweep_peak_rss_mb (with the detail the sweep read back).\n";

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

int printUsage(bool toStderr)
{
    std::fputs(kUsage, toStderr ? stderr : stdout);
    return toStderr ? 2 : 0;
}

int dump(int argc, char** argv)
{
    PrinterStyle style = PrinterStyle::Head;
    std::string path;
    for (int i = 0; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "-h" || arg == "--help") {
            std::fputs(kDumpUsage, stdout);
            return 0;
        }
        if (arg == "--legacy") {
            style = PrinterStyle::Legacy;
        } else if (arg.size() > 1 && arg[0] == '-') {
            std::fprintf(stderr, "hecscope dump: unknown option %s\n\n%s", arg.c_str(), kDumpUsage);
            return 2;
        } else if (path.empty()) {
            path = arg;
        } else {
            std::fprintf(stderr, "hecscope dump: more than one FILE given\n\n%s", kDumpUsage);
            return 2;
        }
    }
    if (path.empty()) {
        std::fprintf(stderr, "hecscope dump: no FILE given\n\n%s", kDumpUsage);
        return 2;
    }
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

namespace {

// Parses `[--json] FILE` style arguments shared by info and bench.
bool parseFileArgs(int argc, char** argv, const char* command, const char* usage,
                   bool* json, std::string& path, int& status)
{
    for (int i = 0; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "-h" || arg == "--help") {
            std::fputs(usage, stdout);
            status = 0;
            return false;
        }
        if (json && arg == "--json") {
            *json = true;
        } else if (arg.size() > 1 && arg[0] == '-') {
            std::fprintf(stderr, "hecscope %s: unknown option %s\n\n%s", command, arg.c_str(), usage);
            status = 2;
            return false;
        } else if (path.empty()) {
            path = arg;
        } else {
            std::fprintf(stderr, "hecscope %s: more than one FILE given\n\n%s", command, usage);
            status = 2;
            return false;
        }
    }
    if (path.empty()) {
        std::fprintf(stderr, "hecscope %s: no FILE given\n\n%s", command, usage);
        status = 2;
        return false;
    }
    return true;
}

double seconds(std::chrono::steady_clock::time_point since)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

} // namespace

int info(int argc, char** argv)
{
    bool json = false, rtsSummary = false;
    std::string path;
    int status = 0;
    // --rts-summary is info's own option; the rest as every FILE command.
    std::vector<char*> rest;
    for (int i = 0; i < argc; ++i) {
        if (std::string_view(argv[i]) == "--rts-summary")
            rtsSummary = true;
        else
            rest.push_back(argv[i]);
    }
    if (!parseFileArgs(int(rest.size()), rest.data(), "info", kInfoUsage, &json, path, status))
        return status;
    if (json && rtsSummary) {
        std::fprintf(stderr, "hecscope info: --json and --rts-summary exclude each other\n\n%s", kInfoUsage);
        return 2;
    }
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

int bench(int argc, char** argv)
{
    using Clock = std::chrono::steady_clock;
    std::string path;
    int status = 0;
    // `bench A --compare B`: what comparing costs (comparebench.cpp).
    for (int i = 0; i + 1 < argc; ++i)
        if (std::string_view(argv[i]) == "--compare") {
            std::vector<char*> rest(argv, argv + argc);
            rest.erase(rest.begin() + i, rest.begin() + i + 2);
            // (--window-part single|compare: one window's part, run by the
            // bench itself as a child process.)
            std::string part;
            for (size_t k = 0; k + 1 < rest.size(); ++k)
                if (std::string_view(rest[k]) == "--window-part") {
                    part = rest[k + 1];
                    rest.erase(rest.begin() + ptrdiff_t(k), rest.begin() + ptrdiff_t(k) + 2);
                    break;
                }
            if (!parseFileArgs(int(rest.size()), rest.data(), "bench", kBenchUsage, nullptr, path, status))
                return status;
            return benchCompare(path, argv[i + 1], part);
        }
    if (!parseFileArgs(argc, argv, "bench", kBenchUsage, nullptr, path, status))
        return status;
    auto source = openOrComplain(path);
    if (!source)
        return 1;
    // Only the window's progressive open and live session (they take the
    // longest to set up by hand).
    if (const char* only = std::getenv("HECSCOPE_BENCH_ONLY"); only && std::string_view(only) == "live") {
        benchProgressiveOpen(path);
        benchLive(path);
        return 0;
    }
    // A .prof or -pj report (by content) has figures of its own.
    if (path != "-") {
        std::string head(4096, '\0');
        head.resize(source->read(0, reinterpret_cast<uint8_t*>(head.data()), head.size()));
        if (!head.starts_with("hdrb") && looksLikeProfReport(head))
            return benchReport(path);
    }
    // Decode only: every event decoded and delivered to a sink that counts.
    class Counter final : public EventSink {
    public:
        void onEvent(const Event& e) override { sum += e.time; }
        uint64_t sum = 0;
    } counter;
    auto start = Clock::now();
    {
        StreamDecoder decoder(counter);
        std::vector<uint8_t> chunk(1 << 20);
        for (uint64_t pos = 0;;) {
            const size_t got = source->read(pos, chunk.data(), chunk.size());
            if (got == 0 || !decoder.feed({chunk.data(), got}))
                break;
            pos += got;
        }
        decoder.finish();
    }
    const double decodeS = seconds(start);

    start = Clock::now();
    LoadResult loaded = loadIndex(*source);
    const double loadS = seconds(start);
    struct rusage usage {};
    ::getrusage(RUSAGE_SELF, &usage);
    const LogIndex& ix = *loaded.index;

    std::printf("file: %s\n", path.c_str());
    std::printf("bytes: %llu\n", (unsigned long long)ix.scan.bytes);
    std::printf("events: %llu\n", (unsigned long long)ix.scan.events);
    std::printf("decode_s: %.3f\n", decodeS);
    std::printf("index_s: %.3f\n", std::max(0.0, loadS - decodeS));
    std::printf("load_s: %.3f\n", loadS);
    std::printf("load_pass_s: %.3f\n", loaded.decodeSeconds);
    std::printf("load_finish_s: %.3f\n", loaded.finishSeconds);
    std::printf("peak_rss_mb: %.1f\n", double(usage.ru_maxrss) / 1024.0);
    std::printf("index_mb: %.1f\n", double(ix.memoryBytes()) / (1 << 20));
    {
        // Where the index's bytes are, by part (MB).
        size_t spans = 0, instants = 0;
        for (const Capability& c : ix.caps)
            spans += c.timeline.memoryBytes();
        for (const CapInstantMarks& c : ix.instants)
            instants += c.memoryBytes();
        const auto mb = [](size_t b) { return double(b) / (1 << 20); };
        std::printf("index_parts_mb: cap_spans %.1f, thread_states %.1f, thread_checkpoints %.2f, instants %.1f, scan %.1f, "
                    "messages %.1f, samples %.1f, spans %.1f\n",
                    mb(spans), mb(ix.threadStates.memoryBytes()), mb(ix.threadCheckpoints.memoryBytes()), mb(instants),
                    mb(ix.scan.pieces.capacity() * sizeof(Piece) + ix.scan.checkpoints.capacity() * sizeof(Checkpoint)
                       + ix.scan.blocks.capacity() * sizeof(LogScan::Block)),
                    mb(ix.messages.capacity() * sizeof(Message) + ix.text.capacity()),
                    mb(ix.timeProfile.samples.capacity() * sizeof(TimeProfileData::Sample)
                       + ix.heapProfile.samples.capacity() * sizeof(HeapProfileData::Entry)),
                    mb(ix.userSpans ? ix.userSpans->memoryBytes() : 0));
        const ThreadStates& ts = ix.threadStates;
        std::printf("thread_states_mb: packed %.1f, chunked %.1f, checks %.1f, far %.1f, infos %.1f, overviews %.1f "
                    "(%zu threads, %zu segments)\n",
                    mb(ts.packed.capacityBytes()), mb(ts.chunkedBytes()),
                    mb((ts.offsets.capacity() + ts.checkTimes.capacity() + ts.checkOffsets.capacity()) * sizeof(uint64_t)),
                    mb(ts.farTimes.capacity() * sizeof(ts.farTimes[0])), mb(ts.infos.capacity() * sizeof(ts.infos[0])),
                    mb(ts.overviews.capacity() * sizeof(BinPyramid) + ts.overviewKeys.capacity()), ts.count(),
                    size_t(ts.offsets.empty() ? 0 : ts.offsets.back()));
        std::printf("index_bytes_per_byte: %.3f\n", ix.scan.bytes ? double(ix.memoryBytes()) / double(ix.scan.bytes) : 0.0);
        std::printf("index_bytes_per_event: %.2f\n", ix.scan.events ? double(ix.memoryBytes()) / double(ix.scan.events) : 0.0);
    }
    {
        const ThreadCheckpoints& cp = ix.threadCheckpoints;
        std::printf("thread_checkpoints: %llu every %llu ns, %zu thread entries (%zu far, %zu with info), %zu segments kept, %zu threads summarised\n",
                    (unsigned long long)cp.count(), (unsigned long long)cp.spacing, cp.entryChecks.size(),
                    cp.entryFarTimes.size(), cp.entryInfos.size(), ix.threadStates.segmentCount(),
                    ix.threadStates.summarised.size());
    }
    // Only the load and the index's size (for logs of several GB).
    if (const char* only = std::getenv("HECSCOPE_BENCH_ONLY"); only && std::string_view(only) == "index")
        return 0;

    {
        // Every thread's segments of a range read back from the file
        // (core/detail/threaddetail.h): median and maximum of 7 random
        // ranges of 1/1000, 1/100 and 1/2 of the run.
        const uint64_t first = ix.firstTime == kNoTime ? 0 : ix.firstTime, run = ix.lastTime - std::min(ix.lastTime, first);
        std::mt19937_64 rng(7);
        for (const auto& [name, fraction] : {std::pair{"1e-3", 1e-3}, std::pair{"1e-2", 1e-2}, std::pair{"half", 0.5}}) {
            const uint64_t width = std::max<uint64_t>(1, uint64_t(double(run) * fraction));
            std::vector<double> ms;
            uint64_t segments = 0, bytes = 0;
            std::string error;
            for (int i = 0; i < 7; ++i) {
                const uint64_t from = first + rng() % (run - std::min(run, width) + 1);
                const auto t = Clock::now();
                const ThreadDetail d = readThreadSegments(*source, ix, from, from + width);
                ms.push_back(seconds(t) * 1e3);
                segments += d.states.segmentCount();
                bytes += d.bytesRead;
                if (error.empty())
                    error = d.error;
            }
            std::sort(ms.begin(), ms.end());
            std::printf("thread_detail_ms_%s: %.2f\n", name, ms[ms.size() / 2]);
            std::printf("thread_detail_max_ms_%s: %.2f\n", name, ms.back());
            std::printf("thread_detail_%s: %llu segments, %.1f MB read per range%s%s\n", name,
                        (unsigned long long)(segments / ms.size()), double(bytes) / double(ms.size()) / (1 << 20),
                        error.empty() ? "" : "; error: ", error.c_str());
        }
    }

    // Views: the whole run, then random zooms from 1/10 down to 1/100000.
    const uint64_t end = ix.lastTime;
    std::mt19937_64 rng(42);
    std::vector<std::pair<uint64_t, uint64_t>> views{{0, end}};
    for (int i = 0; i < 30 && end > 0; ++i) {
        const double fraction = std::pow(10.0, -1.0 - double(i % 5));
        const uint64_t width = std::max<uint64_t>(1, uint64_t(double(end) * fraction));
        const uint64_t from = rng() % (end - std::min(end, width) + 1);
        views.emplace_back(from, from + width);
    }
    double lodMax = 0, lodSum = 0, statsMax = 0, statsSum = 0;
    size_t lodCount = 0, maxItems = 0;
    std::vector<LodItem> out;
    for (const auto& [from, to] : views) {
        for (const Capability& cap : ix.caps) {
            out.clear();
            start = Clock::now();
            cap.timeline.lod(from, to, 2000, out);
            const double ms = seconds(start) * 1e3;
            lodMax = std::max(lodMax, ms);
            lodSum += ms;
            ++lodCount;
            maxItems = std::max(maxItems, out.size());
        }
        start = Clock::now();
        const RangeStats st = computeStats(ix, from, to);
        const double ms = seconds(start) * 1e3;
        statsMax = std::max(statsMax, ms);
        statsSum += ms;
        (void)st;
    }
    // Cancellation: asked for half way through a load, how long until the
    // load returns.
    class HalfwayCancel final : public LoadObserver {
    public:
        void progress(uint64_t done, uint64_t total) override
        {
            if (!asked && done * 2 >= total) {
                asked = true;
                at = Clock::now();
            }
        }
        bool cancelled() const override { return asked; }
        bool asked = false;
        Clock::time_point at;
    } halfway;
    const LoadResult cancelled = loadIndex(*source, ix.scan.bytes, &halfway);
    const double cancelMs = halfway.asked ? seconds(halfway.at) * 1e3 : 0.0;

    // The sparse event index: the Nth events in the middle, and a search for
    // an event type the whole log may not contain (user markers).
    const TimeOrder order(ix.scan);
    class Count final : public EventSink {
    public:
        void onEvent(const Event&) override { ++n; }
        uint64_t n = 0;
    } window;
    start = Clock::now();
    order.visitRange(*source, window, ix.scan.events / 2, 100);
    const double nthMs = seconds(start) * 1e3;
    start = Clock::now();
    uint64_t markerAt = 0;
    TagMask markerTag;
    markerTag.set(tagBit(tag::UserMarker));
    const uint64_t markers = order.find(
        *source, 0, [](const Event& e) { return e.tag == tag::UserMarker; },
        [&](const Event&, uint64_t position) { markerAt = position; }, 1, &markerTag);
    const double findMs = seconds(start) * 1e3;

    std::printf("lod_views: %zu\n", lodCount);
    std::printf("lod_2000px_max_ms: %.3f\n", lodMax);
    std::printf("lod_2000px_mean_ms: %.3f\n", lodCount ? lodSum / double(lodCount) : 0.0);
    std::printf("lod_items_max: %zu\n", maxItems);
    std::printf("stats_views: %zu\n", views.size());
    std::printf("stats_range_max_ms: %.3f\n", statsMax);
    std::printf("stats_range_mean_ms: %.3f\n", views.empty() ? 0.0 : statsSum / double(views.size()));
    std::printf("cancel_latency_ms: %.3f\n", cancelMs);
    std::printf("nth_events_ms: %.3f\n", nthMs);
    std::printf("find_first_marker_ms: %.3f\n", findMs);
    std::printf("find_first_marker_found: %llu\n", (unsigned long long)markers);
    (void)markerAt;
    (void)cancelled;
    if (!ix.heapBands.empty()) {
        // The heap bands as computed after loading, then every change of
        // the band count and ordering the view offers.
        start = Clock::now();
        const HeapBands bands = computeHeapBands(ix.heapProfile, ix.ipes);
        const double bandsMs = seconds(start) * 1e3;
        double selectMax = 0;
        for (size_t n : {size_t(15), size_t(5), size_t(50)})
            for (BandOrder o : kBandOrders)
                for (bool reversed : {false, true}) {
                    start = Clock::now();
                    const BandSelection sel = selectBands(ix.heapProfile, bands, n, o, reversed);
                    selectMax = std::max(selectMax, seconds(start) * 1e3);
                }
        start = Clock::now();
        const BandSelection all = selectBands(ix.heapProfile, bands, 0);
        const double selectAllMs = seconds(start) * 1e3;
        std::printf("heap_censuses: %zu\n", bands.times.size());
        std::printf("heap_bands: %zu\n", bands.stats.size());
        std::printf("heap_bands_ms: %.3f\n", bandsMs);
        std::printf("heap_select_max_ms: %.3f\n", selectMax);
        std::printf("heap_select_all_ms: %.3f\n", selectAllMs);
        // Ranking every band by its residency in a selection (the whole run:
        // the most work) and the bytes at a cursor, as the Heap Bands pane does.
        start = Clock::now();
        const std::vector<double> ranked = byteSecondsIn(ix.heapProfile, bands, bands.times.front(), bands.times.back());
        std::printf("heap_range_rank_ms: %.3f\n", seconds(start) * 1e3);
        start = Clock::now();
        const std::vector<uint64_t> atCursor = bytesAtCensus(ix.heapProfile, bands, bands.times.size() / 2);
        std::printf("heap_at_cursor_ms: %.3f\n", seconds(start) * 1e3);
    }
    benchSparkSizes(ix, *source);
    std::fflush(stdout);
    const bool hasError = ix.scan.hasError;
    if (path != "-")
        benchGui(std::shared_ptr<const LogIndex>(std::move(loaded.index)), path);
    return hasError ? 1 : 0;
}

} // namespace hecscope::cli
