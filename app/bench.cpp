// `hecscope bench FILE`: the load, the index's size, queries and (in
// guibench.cpp) the drawing, timed; `bench A --compare B` is comparebench.cpp.
#include "app/cli.h"
#include "app/commands.h"

#include "core/load/loader.h"
#include "core/detail/threaddetail.h"
#include "core/format/eventtags.h"
#include "core/heap/heapbands.h"
#include "core/index/logindex.h"
#include "core/profile/profreport.h"
#include "core/stats/sparksizes.h"
#include "core/stats/stats.h"

#include <QApplication>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cxxabi.h>
#include <random>
#include <typeinfo>
#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace hecscope::cli {
namespace {

const char* const kBenchUsage =
    "Usage: hecscope bench FILE [--compare B]\n"
    "\n"
    "Times a decode-only pass over FILE, then loading it into the index, then\n"
    "typical queries, and prints `key: value` lines: decode_s, index_s (load_s\n"
    "minus decode_s), load_s (open to fully indexed), peak_rss_mb,\n"
    "thread_events_waiting_max (the most thread events that waited in memory\n"
    "for a capability that fell silent), thread_events_packed_max (of those,\n"
    "the most kept packed, about 5 bytes each, not 16), thread_events_to_runs\n"
    "(those the load wrote to runs in a temporary file instead), and query\n"
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

double seconds(std::chrono::steady_clock::time_point since)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

double msSince(std::chrono::steady_clock::time_point t)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

} // namespace

void benchSparkSizes(const LogIndex& ix, ByteSource& source)
{
    auto start = std::chrono::steady_clock::now();
    const SparkEvaluations evals = sparkEvaluations(ix, source);
    if (!evals.fineGrained)
        return;
    const double measureMs = msSince(start);
    start = std::chrono::steady_clock::now();
    const SparkSizes whole = sparkSizes(evals, std::nullopt);
    const double wholeMs = msSince(start);
    // Ten ranges of a tenth of the run, each on all capabilities and on cap
    // 0, as the pane computes a selection: its spark events read back from
    // the file, measured and binned.
    double rangeMax = 0;
    const uint64_t end = std::max<uint64_t>(ix.lastTime, 10);
    for (uint64_t i = 0; i < 10; ++i)
        for (int cap : {-1, 0}) {
            start = std::chrono::steady_clock::now();
            const ViewRange range{end / 10 * i, end / 10 * (i + 1)};
            (void)sparkSizes(sparkEvaluations(ix, source, range), range, cap);
            rangeMax = std::max(rangeMax, msSince(start));
        }
    std::printf("spark_evaluations: %zu\n", evals.evaluations.size());
    std::printf("spark_measure_ms: %.3f\n", measureMs);
    std::printf("spark_sizes_whole_ms: %.3f\n", wholeMs);
    std::printf("spark_sizes_range_max_ms: %.3f\n", rangeMax);
    (void)whole;
    std::fflush(stdout);
}

int bench(int argc, char** argv)
{
    using Clock = std::chrono::steady_clock;
    // (--window-part single|compare: one window's part of `--compare`, run
    // by the bench itself as a child process.)
    CommandLine cl("bench", {{"compare", "B"}, {"window-part", "PART"}});
    if (const auto status = cl.parse(argc, argv, kBenchUsage))
        return *status;
    const std::string path = cl.positional().front();
    if (cl.isSet("window-part") && !cl.isSet("compare"))
        return cl.usageError("--window-part goes with --compare");
    // The bench opens a window: keep it away from the user's recent files
    // and window layout.
    const std::unique_ptr<QApplication> app = drawingApplication("Hecscope bench");
    // `bench A --compare B`: what comparing costs (comparebench.cpp).
    if (cl.isSet("compare"))
        return benchCompare(path, cl.value("compare"), cl.value("window-part"));
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
    // What a silent capability made wait in memory (16 bytes an event, or
    // about 5 packed): the peak memory of a load depends on it.
    std::printf("thread_events_waiting_max: %llu\n", (unsigned long long)loaded.threadEventsMostWaiting);
    std::printf("thread_events_packed_max: %llu\n", (unsigned long long)loaded.threadEventsMostPacked);
    std::printf("thread_events_to_runs: %llu\n", (unsigned long long)loaded.threadEventsInRuns);
    std::printf("peak_rss_mb: %.1f\n", double(usage.ru_maxrss) / 1024.0);
    std::printf("index_mb: %.1f\n", double(ix.memoryBytes()) / (1 << 20));
    {
        printIndexParts(ix, "");
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
    const char* only = std::getenv("HECSCOPE_BENCH_ONLY");
    if (only && std::string_view(only) == "index")
        return 0;
    // Only the load and the drawing (the renderer's sweeps and cold jumps).
    if (only && std::string_view(only) == "draw") {
        std::fflush(stdout);
        benchGui(std::shared_ptr<const LogIndex>(std::move(loaded.index)), path, true);
        return 0;
    }

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
    if (only && std::string_view(only) == "detail")
        return 0;

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

// Where the index's bytes are, by part: index_parts_mb, index_by_part_kb
// and thread_states_mb, each key after `prefix`.
void printIndexParts(const LogIndex& ix, const char* prefix)
{
    // Where the index's bytes are, by part (MB).
    size_t spans = 0, instants = 0;
    for (const Capability& c : ix.caps)
        spans += c.timeline.memoryBytes();
    for (const CapInstantMarks& c : ix.instants)
        instants += c.memoryBytes();
    const auto mb = [](size_t b) { return double(b) / (1 << 20); };
    std::printf("%sindex_parts_mb: cap_spans %.1f, thread_states %.1f, thread_checkpoints %.2f, instants %.1f, scan %.1f, "
                "messages %.1f, samples %.1f, spans %.1f\n", prefix,
                mb(spans), mb(ix.threadStates.memoryBytes()), mb(ix.threadCheckpoints.memoryBytes()), mb(instants),
                mb(ix.scan.pieces.capacity() * sizeof(Piece) + ix.scan.checkpoints.capacity() * sizeof(Checkpoint)
                   + ix.scan.blocks.capacity() * sizeof(LogScan::Block)),
                mb(ix.messages.capacity() * sizeof(Message) + ix.text.capacity()),
                mb(ix.timeProfile.samples.capacity() * sizeof(TimeProfileData::Sample)
                   + ix.heapProfile.samples.capacity() * sizeof(HeapProfileData::Entry)),
                mb(ix.userSpans ? ix.userSpans->memoryBytes() : 0));
    // Every part's own count (LogIndex::memoryBytes is their sum).
    std::string byPart;
    ix.forEachPart([&](const auto& part) {
        int status = 0;
        char* name = abi::__cxa_demangle(typeid(part).name(), nullptr, nullptr, &status);
        std::string shown = status == 0 && name ? name : typeid(part).name();
        std::free(name);
        if (shown.starts_with("hecscope::"))
            shown.erase(0, 10);
        if (shown.ends_with("Part"))
            shown.resize(shown.size() - 4);
        byPart += (byPart.empty() ? "" : ", ") + shown + " " + std::to_string(part.partBytes() >> 10);
    });
    std::printf("%sindex_by_part_kb: %s\n", prefix, byPart.c_str());
    const ThreadStates& ts = ix.threadStates;
    std::printf("%sthread_states_mb: packed %.1f, chunked %.1f (pending %.1f), checks %.1f, far %.1f, infos %.1f, "
                "overviews %.1f (%zu threads, %zu segments)\n", prefix,
                mb(ts.packed.capacityBytes()), mb(ts.chunkedBytes()),
                mb(ts.tail.capacity() * sizeof(PackedSegment) + ts.tailOffsets.capacity() * sizeof(uint64_t)),
                mb((ts.offsets.capacity() + ts.checkTimes.capacity() + ts.checkOffsets.capacity()) * sizeof(uint64_t)),
                mb(ts.farTimes.capacity() * sizeof(ts.farTimes[0])), mb(ts.infos.capacity() * sizeof(ts.infos[0])),
                mb(ts.overviews.capacity() * sizeof(BinPyramid) + ts.overviewKeys.capacity()), ts.count(),
                size_t(ts.offsets.empty() ? 0 : ts.offsets.back()));
}

double percentile(std::vector<double> v, double q)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, size_t(std::ceil(q * double(v.size())) - 1))];
}

} // namespace hecscope::cli
