#include "core/report/rtssummary.h"

#include "core/text/units.h"

#include <algorithm>
#include <cstdio>

namespace hecscope {
namespace {

std::string printf(const char* format, auto... args)
{
    char buffer[512];
    std::snprintf(buffer, sizeof buffer, format, args...);
    return buffer;
}

double seconds(uint64_t ns)
{
    return double(ns) / 1e9;
}

} // namespace

std::string rtsSummaryText(const LogIndex& ix, const RangeStats& st, bool wholeRun)
{
    std::string out;
    if (!wholeRun)
        out += "Range " + formatDuration(st.from) + " – " + formatDuration(st.to) + " (+RTS -s figures of this range)\n\n";
    out += printf("%16s bytes allocated in the heap\n", formatGrouped(st.allocatedBytes).c_str());
    out += printf("%16s bytes copied during GC\n", formatGrouped(st.copiedBytes).c_str());
    if (st.residencySamples > 0)
        out += printf("%16s bytes maximum residency (%llu sample(s))\n", formatGrouped(st.maxResidencyBytes).c_str(),
                      (unsigned long long)st.residencySamples);
    else if (!wholeRun) // -s prints neither without such a collection; a range says why
        out += printf("%16s bytes maximum residency (no collection of the oldest generation in range)\n", "-");
    if (st.residencySamples > 0 || wholeRun)
        out += printf("%16s bytes maximum slop\n", formatGrouped(st.maxSlopBytes).c_str());
    else
        out += printf("%16s bytes maximum slop (no collection of the oldest generation in range)\n", "-");
    out += printf("%16s MiB total memory in use (- MB lost due to fragmentation)\n\n", "-");
    out += "                                     Tot time (elapsed)  Avg pause  Max pause\n";
    // Every generation, as -s prints them (those without a collection too).
    std::vector<GenerationStats> gens = st.generations;
    for (int g = 0; g <= st.oldestGeneration; ++g)
        if (std::none_of(gens.begin(), gens.end(), [g](const GenerationStats& x) { return x.generation == g; }))
            gens.push_back(GenerationStats{g, 0, 0, 0, 0, 0});
    std::sort(gens.begin(), gens.end(), [](const GenerationStats& a, const GenerationStats& b) {
        return (a.generation < 0) != (b.generation < 0) ? b.generation < 0 : a.generation < b.generation;
    });
    for (const GenerationStats& g : gens) {
        const double avg = g.collections ? seconds(g.elapsed) / double(g.collections) : 0.0;
        if (g.generation < 0)
            out += printf("  (no GC_STATS_GHC) %5llu colls              %6.3fs     %3.4fs    %3.4fs\n",
                          (unsigned long long)g.collections, seconds(g.elapsed), avg, seconds(g.maxPause));
        else
            out += printf("  Gen %2d     %5llu colls, %5llu par   %6s  %6.3fs     %3.4fs    %3.4fs\n", g.generation,
                          (unsigned long long)g.collections, (unsigned long long)g.parallel, "-", seconds(g.elapsed),
                          avg, seconds(g.maxPause));
    }
    if (st.nonmoving) {
        // The syncs: one per collection of the oldest generation, as -s counts them.
        const auto major = std::find_if(gens.begin(), gens.end(),
                                        [&](const GenerationStats& g) { return g.generation == st.oldestGeneration; });
        const uint64_t n = major == gens.end() ? 0 : major->collections;
        out += printf("  Gen %2d     %5llu syncs,                      %6.3fs     %3.4fs    %3.4fs\n",
                      st.oldestGeneration, (unsigned long long)n, seconds(st.nonmovingSyncNs),
                      n ? seconds(st.nonmovingSyncNs) / double(n) : 0.0, seconds(st.nonmovingSyncMaxNs));
        out += printf("  Gen %2d      concurrent,             %6s  %6s     %6s    %6s\n", st.oldestGeneration, "-", "-",
                      "-", "-");
    }
    out += "\n";
    if (st.workBalance > 0)
        out += printf("  Parallel GC work balance: %.2f%% (serial 0%%, perfect 100%%)\n\n", st.workBalance * 100);
    out += printf("  TASKS: - (- bound, - peak workers (- total), using -N%zu)\n\n", ix.caps.size());
    out += printf("  SPARKS: %llu (%llu converted, %llu overflowed, %llu dud, %llu GC'd, %llu fizzled)\n\n",
                  (unsigned long long)st.sparks.total(), (unsigned long long)st.sparks.converted,
                  (unsigned long long)st.sparks.overflowed, (unsigned long long)st.sparks.dud,
                  (unsigned long long)st.sparks.gcd, (unsigned long long)st.sparks.fizzled);
    // INIT and EXIT have no events of their own: they are in MUT here.
    out += printf("  MUT     time  %7s   (%7.3fs elapsed, INIT and EXIT included)\n", "-", seconds(st.mutatorNs));
    out += printf("  GC      time  %7s   (%7.3fs elapsed)\n", "-", seconds(st.gcNs));
    out += printf("  Total   time  %7s   (%7.3fs elapsed)\n\n", "-", seconds(st.totalNs));
    out += "  Alloc rate    - bytes per MUT second\n\n"; // per CPU second in -s
    out += printf("  Productivity     -  of total user, %.1f%% of total elapsed (INIT and EXIT as MUT)\n\n",
                  st.productivity * 100);
    out += "-: not in the eventlog: CPU times (and so the allocation rate per MUT second), memory in use, TASKS,\n"
           "   where INIT and EXIT end and begin (they are counted in MUT), the non-moving collector's\n"
           "   concurrent time as -s measures it (its mark and sweep phases: "
        + formatDuration(st.nonmovingConcurrentNs) + ").\n";
    return out;
}

} // namespace hecscope
