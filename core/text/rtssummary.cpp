#include "core/text/rtssummary.h"

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
    out += printf("%16s bytes maximum slop\n", formatGrouped(st.maxSlopBytes).c_str());
    out += printf("%16s MiB total memory in use (- MB lost due to fragmentation)\n\n", "-");
    out += "                                     Tot time (elapsed)  Avg pause  Max pause\n";
    for (const GenerationStats& g : st.generations) {
        const double avg = g.collections ? seconds(g.elapsed) / double(g.collections) : 0.0;
        if (g.generation < 0)
            out += printf("  (no GC_STATS_GHC) %5llu colls              %6.3fs     %3.4fs    %3.4fs\n",
                          (unsigned long long)g.collections, seconds(g.elapsed), avg, seconds(g.maxPause));
        else
            out += printf("  Gen %2d     %5llu colls, %5llu par   %6s  %6.3fs     %3.4fs    %3.4fs\n", g.generation,
                          (unsigned long long)g.collections, (unsigned long long)g.parallel, "-", seconds(g.elapsed),
                          avg, seconds(g.maxPause));
    }
    out += "\n";
    if (st.workBalance > 0)
        out += printf("  Parallel GC work balance: %.2f%% (serial 0%%, perfect 100%%)\n\n", st.workBalance * 100);
    out += printf("  TASKS: - (- bound, - peak workers (- total), using -N%zu)\n\n", ix.caps.size());
    out += printf("  SPARKS: %llu (%llu converted, %llu overflowed, %llu dud, %llu GC'd, %llu fizzled)\n\n",
                  (unsigned long long)st.sparks.total(), (unsigned long long)st.sparks.converted,
                  (unsigned long long)st.sparks.overflowed, (unsigned long long)st.sparks.dud,
                  (unsigned long long)st.sparks.gcd, (unsigned long long)st.sparks.fizzled);
    out += printf("  MUT     time  %7s   (%7.3fs elapsed)\n", "-", seconds(st.mutatorNs));
    out += printf("  GC      time  %7s   (%7.3fs elapsed)\n", "-", seconds(st.gcNs));
    out += printf("  Total   time  %7s   (%7.3fs elapsed)\n\n", "-", seconds(st.totalNs));
    out += printf("  Alloc rate    %s bytes per MUT second\n\n",
                  formatGrouped(uint64_t(std::max(0.0, st.allocationRate))).c_str());
    out += printf("  Productivity     -  of total user, %.1f%% of total elapsed\n\n", st.productivity * 100);
    out += "-: not in the eventlog (CPU times, memory in use, TASKS; INIT and EXIT are counted in MUT).\n";
    return out;
}

} // namespace hecscope
