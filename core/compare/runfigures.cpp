#include "core/compare/runfigures.h"

#include "core/detail/threaddetail.h"
#include "core/heap/heapbands.h"
#include "core/load/hpfile.h"
#include "core/profile/profreport.h"
#include "core/profile/profileviews.h"
#include "core/timeprofile/sampleprofile.h"
#include "core/stats/sparksizes.h"
#include "core/stats/stats.h"
#include "core/threads/threadstats.h"
#include "core/threads/userspans.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>

namespace hecscope {
namespace {

using Values = std::vector<std::optional<FigureValue>>;

std::optional<FigureValue> whole(uint64_t v)
{
    return FigureValue{double(v), false};
}

std::optional<FigureValue> real(double v)
{
    return FigureValue{v, true};
}

// A table of one figure per row ("run").
struct Scalars {
    FigureTable t{"run", "figure", {"value"}, {}};
    void add(std::string key, std::optional<FigureValue> v) { t.rows.push_back({std::move(key), {v}}); }
};

// `key`, or `key #2`, `#3`, ... for the second and later rows of the same
// key (two threads with one label, two cost centres of one name in one module).
std::string uniqueKey(std::map<std::string, int>& seen, const std::string& key)
{
    const int n = ++seen[key];
    return n == 1 ? key : key + " #" + std::to_string(n);
}

// `wholeRun`: the log's event and thread counts too (of a stretch, the
// index has neither; the threads group has the stretch's threads).
void addRunTables(RunFigures& out, const LogIndex& ix, const RangeStats& st, bool wholeRun)
{
    Scalars s;
    // As `info --json` names them (README: its keys).
    if (wholeRun)
        s.add("events", whole(ix.scan.events));
    s.add("capabilities", whole(st.caps.size()));
    if (wholeRun)
        s.add("threads", whole(ix.threadCount()));
    s.add("time.total_ns", whole(st.totalNs));
    s.add("time.mutator_ns", whole(st.mutatorNs));
    s.add("time.gc_ns", whole(st.gcNs));
    s.add("time.gc_any_cap_ns", whole(st.gcAnyCapNs));
    s.add("time.gc_sync_cap_ns", whole(st.gcSyncCapNs));
    s.add("time.parked_cap_ns", whole(st.parkedCapNs));
    s.add("time.productivity", real(st.productivity));
    s.add("gc.collections", whole(st.collections));
    s.add("gc.parallel_collections", whole(st.parallelCollections));
    s.add("gc.copied_bytes", whole(st.copiedBytes));
    s.add("gc.max_pause_ns", whole(st.maxPauseNs));
    s.add("gc.avg_pause_ns", whole(st.avgPauseNs));
    s.add("gc.work_balance", st.workBalance < 0 ? std::nullopt : real(st.workBalance));
    s.add("gc.work_balance_threadscope",
          st.workBalanceThreadScope < 0 ? std::nullopt : real(st.workBalanceThreadScope));
    // +RTS -s: "maximum residency" (the oldest generation's collections)
    // and "maximum slop".
    s.add("gc.max_residency_bytes", st.residencySamples ? whole(st.maxResidencyBytes) : std::nullopt);
    s.add("heap.max_slop_bytes", whole(st.maxSlopBytes));
    if (st.nonmoving) {
        s.add("nonmoving.syncs", whole(st.nonmovingSyncs));
        s.add("nonmoving.sync_ns", whole(st.nonmovingSyncNs));
        s.add("nonmoving.max_sync_ns", whole(st.nonmovingSyncMaxNs));
        s.add("nonmoving.concurrent_ns", whole(st.nonmovingConcurrentNs));
    }
    s.add("heap.max_heap_size_bytes", whole(st.maxHeapSizeBytes));
    s.add("heap.max_live_bytes", whole(st.maxLiveBytes));
    s.add("heap.max_blocks_size_bytes", whole(st.maxBlocksSizeBytes));
    s.add("heap.allocated_bytes", whole(st.allocatedBytes));
    s.add("heap.allocation_rate_bytes_per_s", whole(uint64_t(std::max(0.0, std::min(st.allocationRate, 1.8e19)))));
    const SparkTotals& sp = st.sparks;
    s.add("sparks.total", whole(sp.total()));
    s.add("sparks.created", whole(sp.created));
    s.add("sparks.converted", whole(sp.converted));
    s.add("sparks.overflowed", whole(sp.overflowed));
    s.add("sparks.dud", whole(sp.dud));
    s.add("sparks.gcd", whole(sp.gcd));
    s.add("sparks.fizzled", whole(sp.fizzled));
    out.tables.push_back(std::move(s.t));

    FigureTable g{"generations", "generation",
                  {"collections", "parallel", "elapsed_ns", "max_pause_ns", "copied_bytes"}, {}};
    for (const GenerationStats& gen : st.generations)
        g.rows.push_back({gen.generation < 0 ? std::string("unknown") : "gen " + std::to_string(gen.generation),
                          {whole(gen.collections), whole(gen.parallel), whole(gen.elapsed), whole(gen.maxPause),
                           whole(gen.copied)}});
    if (!g.rows.empty())
        out.tables.push_back(std::move(g));

    FigureTable c{"capabilities", "cap",
                  {"running_ns", "gc_ns", "gc_sync_ns", "parked_ns", "idle_ns", "runs", "sparks_created",
                   "sparks_converted", "sparks_fizzled"},
                  {}};
    for (const CapStats& cap : st.caps)
        c.rows.push_back({"cap " + std::to_string(cap.cap),
                          {whole(cap.running), whole(cap.gc), whole(cap.gcSync), whole(cap.parked), whole(cap.idle),
                           whole(cap.runs), whole(cap.sparks.created), whole(cap.sparks.converted),
                           whole(cap.sparks.fizzled)}});
    if (!c.rows.empty())
        out.tables.push_back(std::move(c));
}

// Threads by label, those of one label added up (a pool's workers: how many
// and what they did together), and the threads without one in one row.
void addThreads(RunFigures& out, const std::vector<ThreadFigures>& all)
{
    FigureTable t{"threads", "label",
                  {"threads", "runs", "run_ns", "runnable_ns", "blocked_ns", "migrations", "wakeups"}, {}};
    for (size_t r = 0; r < kBlockReasons; ++r)
        t.columns.push_back(std::string("blocked_") + blockReasonName(BlockReason(r)) + "_ns");
    const auto values = [](const std::vector<const ThreadFigures*>& fs) {
        Values v(7 + kBlockReasons);
        uint64_t sums[7 + kBlockReasons] = {};
        for (const ThreadFigures* f : fs) {
            sums[0] += 1;
            sums[1] += f->runs;
            sums[2] += f->running();
            sums[3] += f->runnable();
            sums[4] += f->blockedTotal();
            sums[5] += f->migrations;
            sums[6] += f->wakeups;
            for (size_t r = 0; r < kBlockReasons; ++r)
                sums[7 + r] += f->blocked[r];
        }
        for (size_t k = 0; k < v.size(); ++k)
            v[k] = whole(sums[k]);
        return v;
    };
    std::vector<std::string> labels; // in the order of their first thread
    std::map<std::string, std::vector<const ThreadFigures*>> byLabel;
    for (const ThreadFigures& f : all) {
        const std::string label = f.label.empty() ? std::string(kUnlabelledThreads) : std::string(f.label);
        auto& threads = byLabel[label];
        if (threads.empty() && !f.label.empty())
            labels.push_back(label);
        threads.push_back(&f);
    }
    if (byLabel.count(kUnlabelledThreads))
        labels.push_back(kUnlabelledThreads);
    for (const std::string& label : labels)
        t.rows.push_back({label, values(byLabel[label])});
    if (!t.rows.empty())
        out.tables.push_back(std::move(t));
}

void addSpans(RunFigures& out, const LogIndex& ix, std::optional<ViewRange> range,
              const std::function<bool()>& cancelled)
{
    const std::shared_ptr<const UserSpans> spans = ix.userSpans ? ix.userSpans : pairUserSpans(ix, SpanRules{});
    if (!spans)
        return;
    FigureTable t{"spans", "name",
                  {"count", "total_ns", "self_ns", "mean_ns", "p50_ns", "p95_ns", "max_ns", "never_stopped"}, {}};
    for (const SpanNameFigures& f : spanFigures(*spans, range, cancelled)) {
        // No stopped span: no mean, percentile or maximum (as `spans --csv`).
        const auto stopped = [&](uint64_t v) { return f.count ? whole(v) : std::nullopt; };
        t.rows.push_back({spans->names[f.name],
                          {whole(f.count), whole(f.total), whole(f.self), stopped(f.mean), stopped(f.p50),
                           stopped(f.p95), stopped(f.max), whole(f.open)}});
    }
    if (!t.rows.empty())
        out.tables.push_back(std::move(t));
}

void addSparkSizes(RunFigures& out, const LogIndex& ix, ByteSource& source, std::optional<ViewRange> range)
{
    const SparkEvaluations evals = sparkEvaluations(ix, source);
    if (!evals.fineGrained)
        return;
    if (!evals.error.empty())
        out.problems.push_back("spark events: " + evals.error);
    const SparkSizes s = sparkSizes(evals, range);
    if (s.status != SparkSizesStatus::Ok)
        return;
    // As `sparks --json` names them.
    FigureTable t{"sparks", "figure", {"value"}, {}};
    const auto add = [&](const char* key, uint64_t v) { t.rows.push_back({key, {whole(v)}}); };
    add("count", s.count);
    add("stolen", s.stolen);
    add("total_ns", s.total);
    add("min_ns", s.min);
    add("p10_ns", s.p10);
    add("median_ns", s.median);
    add("mean_ns", s.mean);
    add("p90_ns", s.p90);
    add("p99_ns", s.p99);
    add("max_ns", s.max);
    out.tables.push_back(std::move(t));
}

// Every band of the heap profile, by label: its peak, its growth (the
// least-squares slope over the censuses), its byte-seconds and its share of
// all bands' byte-seconds.
} // namespace

std::string heapBandLabel(const std::string& name, bool hpFile)
{
    if (!hpFile || name.size() < 3 || name[0] != '(')
        return name;
    size_t i = 1;
    while (i < name.size() && name[i] >= '0' && name[i] <= '9')
        ++i;
    return i > 1 && i < name.size() && name[i] == ')' ? name.substr(i + 1) : name;
}

HeapCurves heapCurves(const LogIndex& ix, size_t count)
{
    HeapCurves out;
    const HeapBands& bands = ix.heapBands;
    if (bands.empty())
        return out;
    const BandSelection sel = selectBands(ix.heapProfile, bands, count);
    const uint64_t start = ix.firstTime == kNoTime || ix.hpFile ? 0 : ix.firstTime;
    for (size_t p = 0; p < bands.times.size(); ++p) {
        out.seconds.push_back(double(bands.times[p] - std::min(start, bands.times[p])) / 1e9);
        out.total.push_back(double(bands.totals[p]));
    }
    for (size_t k = 0; k < sel.labels.size(); ++k) {
        std::vector<double> bytes(sel.censuses());
        for (size_t p = 0; p < bytes.size(); ++p)
            bytes[p] = double(sel.row(p)[k]);
        out.bands.emplace_back(heapBandLabel(bands.names[sel.labels[k]], ix.hpFile.has_value()), std::move(bytes));
    }
    return out;
}

namespace {

void addHeapBands(RunFigures& out, const HeapBands& bands, bool hpFile)
{
    if (bands.empty())
        return;
    FigureTable t{"heap", "band", {"peak_bytes", "growth_bytes_per_s", "byte_seconds", "share"}, {}};
    double all = 0;
    for (const BandStats& s : bands.stats)
        all += s.byteSeconds;
    t.rows.push_back({"(total)", {whole(bands.peakTotal), std::nullopt, real(all), std::nullopt}});
    // Largest first (byte-seconds), as the Heap Profile pane ranks them.
    std::vector<size_t> order(bands.stats.size());
    for (size_t k = 0; k < order.size(); ++k)
        order[k] = k;
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t x, size_t y) { return bands.stats[x].byteSeconds > bands.stats[y].byteSeconds; });
    std::map<std::string, int> seen;
    for (size_t k : order) {
        const BandStats& s = bands.stats[k];
        t.rows.push_back({uniqueKey(seen, heapBandLabel(bands.names[k], hpFile)),
                          {whole(s.peak), real(s.slope), real(s.byteSeconds),
                           all > 0 ? real(s.byteSeconds / all) : std::nullopt}});
    }
    out.tables.push_back(std::move(t));
}

} // namespace

const FigureTable* RunFigures::table(std::string_view group) const
{
    for (const FigureTable& t : tables)
        if (t.group == group)
            return &t;
    return nullptr;
}

FigureTable costCentreTable(const CostCentreProfile& p, ProfileMetric metric)
{
    const int m = int(metric);
    // (An eventlog's samples are the profiling timer's ticks, as a .prof's.)
    const char* unit = metric == ProfileMetric::Alloc ? "_bytes" : "_ticks";
    FigureTable t{"cost_centres", "cost_centre", {std::string("self") + unit, std::string("inclusive") + unit}, {}};
    std::vector<CostCentreTotal> totals = costCentreTotals(p);
    std::erase_if(totals, [&](const CostCentreTotal& c) { return c.incl[m] == 0 && c.self[m] == 0 && c.entries == 0; });
    // As `profile --csv`: by inclusive cost, then label.
    std::sort(totals.begin(), totals.end(), [&](const CostCentreTotal& x, const CostCentreTotal& y) {
        if (x.incl[m] != y.incl[m])
            return x.incl[m] > y.incl[m];
        return p.costCentres[x.cc].label < p.costCentres[y.cc].label;
    });
    std::map<std::string, int> seen;
    for (const CostCentreTotal& c : totals) {
        const ProfileCostCentre& cc = p.costCentres[c.cc];
        const std::string name = cc.module.empty() ? cc.label : cc.module + '.' + cc.label;
        t.rows.push_back({uniqueKey(seen, name), {whole(c.self[m]), whole(c.incl[m])}});
    }
    return t;
}

RunFigures runFigures(const LogIndex& ix, ByteSource& source, const std::string& file, std::optional<ViewRange> range,
                      const std::function<bool()>& cancelled)
{
    RunFigures out;
    out.file = file;
    out.kind = ix.hpFile ? "heap profile (.hp)" : "eventlog";
    out.truncated = ix.scan.truncated;
    for (const Capset& c : ix.capsets)
        if (!c.rtsIdentifier.empty()) {
            out.rts = c.rtsIdentifier;
            break;
        }
    out.error = ix.scan.hasError || !ix.scan.ioError.empty();
    for (const Diagnostic& d : ix.scan.diagnostics)
        out.problems.push_back(d.message());
    if (!ix.scan.ioError.empty())
        out.problems.push_back("read error " + ix.scan.ioError);
    if (!ix.hpFile) {
        const RangeStats st = range ? computeStats(ix, range->start, range->end) : computeStats(ix);
        addRunTables(out, ix, st, !range);
        // The pauses' distribution: its percentiles beside the -s figures
        // (nearest rank), and the pauses themselves for a histogram.
        for (const Collection& c : ix.collections)
            if (!range || (c.leaderStart >= range->start && c.leaderStart < range->end))
                out.pauses.push_back(c.pause());
        std::sort(out.pauses.begin(), out.pauses.end());
        if (!out.pauses.empty()) {
            FigureTable& run = out.tables.front();
            const auto rank = [&](double q) {
                return out.pauses[std::min(out.pauses.size() - 1, size_t(std::ceil(q * double(out.pauses.size()))) - (q > 0 ? 1 : 0))];
            };
            run.rows.push_back({"gc.pause_p50_ns", {whole(rank(0.5))}});
            run.rows.push_back({"gc.pause_p90_ns", {whole(rank(0.9))}});
            run.rows.push_back({"gc.pause_p99_ns", {whole(rank(0.99))}});
        }
        std::string error;
        const std::vector<ThreadFigures> threads = threadFiguresIn(&source, ix, range, cancelled, &error);
        if (!error.empty())
            out.problems.push_back("threads: " + error);
        addThreads(out, threads);
        addSpans(out, ix, range, cancelled);
        addSparkSizes(out, ix, source, range);
    }
    addHeapBands(out, ix.heapBands, ix.hpFile.has_value());
    if (!ix.timeProfile.samples.empty()) {
        SampleFilter filter;
        if (range) {
            filter.t0 = range->start;
            filter.t1 = range->end;
        }
        out.profile = sampleProfile(ix, filter, cancelled);
        if (out.profile)
            out.tables.push_back(costCentreTable(*out.profile, ProfileMetric::Time));
    }
    return out;
}

std::optional<RunFigures> reportFiguresOf(const std::string& path, ByteSource& source)
{
    uint8_t head[8] = {};
    const size_t got = source.read(0, head, sizeof head);
    if ((got >= 4 && std::memcmp(head, "hdrb", 4) == 0) || looksLikeHeapProfile({head, got}))
        return std::nullopt;
    ProfReportFile file = readProfReportFile(path);
    if (!file.profile)
        return std::nullopt;
    const bool json = got > 0 && head[0] == '{';
    return reportFigures(*file.profile, path, json ? "cost-centre report (-pj JSON)" : "cost-centre report (.prof)");
}

RunFigures reportFigures(const CostCentreProfile& profile, const std::string& file, const std::string& kind)
{
    RunFigures out;
    out.file = file;
    out.kind = kind;
    if (profile.error) {
        out.error = true;
        out.problems.push_back(problemText(profile, "compared"));
    }
    out.profile = profile;
    if (!profile.percentOnly()) {
        out.tables.push_back(costCentreTable(profile, ProfileMetric::Time));
        if (profile.hasMetric[int(ProfileMetric::Alloc)]) {
            FigureTable alloc = costCentreTable(profile, ProfileMetric::Alloc);
            FigureTable& time = out.tables.back();
            // One table: time and allocation columns side by side.
            std::map<std::string, size_t> at;
            for (size_t r = 0; r < time.rows.size(); ++r)
                at[time.rows[r].key] = r;
            time.columns.insert(time.columns.end(), alloc.columns.begin(), alloc.columns.end());
            for (FigureTable::Row& row : time.rows)
                row.values.resize(4);
            for (FigureTable::Row& row : alloc.rows) {
                auto it = at.find(row.key);
                if (it == at.end()) {
                    time.rows.push_back({row.key, {std::nullopt, std::nullopt, row.values[0], row.values[1]}});
                } else {
                    time.rows[it->second].values[2] = row.values[0];
                    time.rows[it->second].values[3] = row.values[1];
                }
            }
        }
    } else {
        out.problems.push_back("the report was written without -P: only percentages, no tick or byte counts to compare");
    }
    return out;
}

} // namespace hecscope
