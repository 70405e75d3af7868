// `hecscope profile`: a cost-centre profile (eventlog samples, .prof or -pj
// report) as folded stacks, CSV or a summary; the ticky counters as a table.
#include "app/cli.h"
#include "app/commands.h"

#include "core/index/logindex.h"
#include "core/load/loader.h"
#include "core/profile/profileviews.h"
#include "core/profile/profreport.h"
#include "core/text/units.h"
#include "core/timeprofile/sampleprofile.h"
#include "core/timeprofile/ticky.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>

namespace hecscope::cli {
namespace {

const char* const kProfileUsage =
    "Usage: hecscope profile FILE [--folded | --csv] [--range START:END] [--cap N]\n"
    "             [--alloc] [--hide-rts] [--ticky]\n"
    "\n"
    "Prints the cost-centre profile of FILE: an eventlog with cost-centre\n"
    "samples (a profiled program run with +RTS -p -l), a .prof report\n"
    "(+RTS -p, or -P for tick and byte counts) or a -pj JSON report. Without\n"
    "--folded or --csv, a summary: the cost centres with the most inclusive\n"
    "and self cost.\n"
    "\n"
    "Options:\n"
    "  --folded   one line per distinct stack: frames outermost first joined\n"
    "             by ';', a space, the count (samples for an eventlog, ticks\n"
    "             for a report; bytes with --alloc): flamegraph.pl, inferno\n"
    "             and speedscope read it\n"
    "  --csv      label,module,src_loc,self,inclusive: one row per cost centre\n"
    "  --range START:END  eventlog only: samples in this time range (1.5s,\n"
    "             200ms, 3us, 12ns; START or END may be empty)\n"
    "  --cap N    eventlog only: samples of capability N\n"
    "  --alloc    report only: bytes allocated instead of time\n"
    "  --hide-rts leave out the RTS's own frames (GC, IDLE, SYSTEM, ...)\n"
    "  --ticky    eventlog only: the ticky-ticky counters of the last dump\n"
    "             (with --csv: id,name,arity,kinds,entries,allocs,allocd)\n"
    "  -h, --help show this help\n"
    "\n"
    "Exit status: 0 success; 1 unreadable, cut or malformed input (what was\n"
    "read before the problem is still printed, the problem named with its\n"
    "line or byte offset on stderr), or counts asked of a report that has only\n"
    "percentages; 2 usage error.\n";

struct Args {
    std::string path;
    bool folded = false, csv = false, alloc = false, hideRts = false, ticky = false;
    std::string rangeText;
    int cap = -1;
};

int usageError(const std::string& why)
{
    return cli::usageError("profile", why);
}

std::optional<int> parse(int argc, char** argv, Args& a)
{
    CommandLine cl("profile", {{"folded"}, {"csv"}, {"alloc"}, {"hide-rts"}, {"ticky"}, {"range", "START:END"}, {"cap", "N"}});
    if (const auto status = cl.parse(argc, argv, kProfileUsage))
        return status;
    a.path = cl.positional().front();
    a.folded = cl.isSet("folded");
    a.csv = cl.isSet("csv");
    a.alloc = cl.isSet("alloc");
    a.hideRts = cl.isSet("hide-rts");
    a.ticky = cl.isSet("ticky");
    a.rangeText = cl.value("range");
    if (const auto status = cl.capability(a.cap))
        return status;
    if (a.folded && a.csv)
        return cl.usageError("--folded and --csv exclude each other");
    return std::nullopt;
}

std::string summary(const CostCentreProfile& p, ProfileMetric m)
{
    std::string out;
    const uint64_t total = p.total(m);
    out += "total: " + formatProfileValue(p, m, total);
    if (p.header.totalTicks)
        out += " (report: " + formatGrouped(p.header.totalTicks) + " ticks)";
    out += '\n';
    for (const std::string& w : p.warnings)
        out += "note: " + w + '\n';
    std::vector<CostCentreTotal> totals = costCentreTotals(p);
    std::erase_if(totals, [&](const CostCentreTotal& t) { return t.incl[int(m)] == 0; });
    char line[640];
    for (int pass = 0; pass < 2; ++pass) {
        const bool self = pass == 1;
        std::sort(totals.begin(), totals.end(), [&](const CostCentreTotal& a, const CostCentreTotal& b) {
            const uint64_t va = self ? a.self[int(m)] : a.incl[int(m)], vb = self ? b.self[int(m)] : b.incl[int(m)];
            return va != vb ? va > vb : p.costCentres[a.cc].label < p.costCentres[b.cc].label;
        });
        out += self ? "\nMost self cost:\n" : "\nMost inclusive cost:\n";
        std::snprintf(line, sizeof line, "  %-32s %-24s %16s %7s %16s %7s\n", "COST CENTRE", "MODULE", "self", "%",
                      "inclusive", "%");
        out += line;
        for (size_t k = 0; k < totals.size() && k < 20; ++k) {
            const CostCentreTotal& t = totals[k];
            const ProfileCostCentre& c = p.costCentres[t.cc];
            const bool percent = p.unit[int(m)] == ProfileUnit::PercentTenths;
            std::snprintf(line, sizeof line, "  %-32s %-24s %16s %7s %16s %7s\n", c.label.substr(0, 32).c_str(),
                          c.module.substr(0, 24).c_str(), formatProfileValue(p, m, t.self[int(m)]).c_str(),
                          percent ? "" : formatPercent(t.self[int(m)], total).c_str(),
                          formatProfileValue(p, m, t.incl[int(m)]).c_str(),
                          percent ? "" : formatPercent(t.incl[int(m)], total).c_str());
            out += line;
        }
    }
    return out;
}

int tickyTableText(const LogIndex& ix, bool csv)
{
    const std::vector<TickyDump> dumps = tickyDumps(ix);
    if (ix.tickyCounters.empty() && dumps.empty()) {
        std::fprintf(stderr, "hecscope profile: the log has no ticky-ticky counters (build with -ticky, run with +RTS -lT)\n");
        return 1;
    }
    const std::vector<TickyRow> rows = tickyTable(ix, dumps.empty() ? 0 : dumps.size() - 1);
    std::string out;
    if (csv) {
        out = "id,name,arity,kinds,entries,allocs,allocd\n";
        for (const TickyRow& r : rows)
            out += std::to_string(r.id) + ',' + csvField(r.name) + ',' + std::to_string(r.arity) + ','
                + csvField(r.kinds) + ',' + std::to_string(r.entries) + ',' + std::to_string(r.allocs) + ','
                + std::to_string(r.allocd) + '\n';
    } else {
        out = std::to_string(rows.size()) + " counters, " + std::to_string(dumps.size()) + " dumps"
            + (dumps.empty() ? std::string() : ", the last at " + formatDuration(dumps.back().time, UnitStyle::Ascii)) + "\n";
        char line[640];
        std::snprintf(line, sizeof line, "%14s %14s %14s %5s  %-8s %s\n", "entries", "allocs", "allocd", "arity",
                      "kinds", "name");
        out += line;
        for (const TickyRow& r : rows) {
            std::snprintf(line, sizeof line, "%14llu %14llu %14llu %5u  %-8s %s\n", (unsigned long long)r.entries,
                          (unsigned long long)r.allocs, (unsigned long long)r.allocd, unsigned(r.arity),
                          r.kinds.c_str(), r.name.c_str());
            out += line;
        }
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}

} // namespace

int profile(int argc, char** argv)
{
    Args a;
    if (const auto status = parse(argc, argv, a))
        return *status;
    auto source = openOrComplain(a.path);
    if (!source)
        return 1;
    uint8_t magic[4] = {};
    const bool eventlog = a.path == "-" || (source->read(0, magic, 4) == 4 && std::memcmp(magic, "hdrb", 4) == 0);
    int status = 0;
    std::optional<CostCentreProfile> profile;
    if (eventlog) {
        if (a.alloc)
            return usageError("an eventlog's samples count time only; --alloc needs a .prof (-P) or -pj report");
        std::unique_ptr<LogIndex> ix = loadIndex(*source).index;
        for (const Diagnostic& d : ix->scan.diagnostics)
            std::fprintf(stderr, "hecscope: %s: %s: %s\n", a.path.c_str(), d.isError() ? "error" : "warning",
                         d.message().c_str());
        status = ix->scan.hasError || !ix->scan.ioError.empty() ? 1 : 0;
        if (a.ticky)
            return std::max(status, tickyTableText(*ix, a.csv));
        if (a.cap >= int(ix->caps.size()))
            return usageError("--cap " + std::to_string(a.cap) + ": the log's capabilities are 0 to "
                              + std::to_string(int(ix->caps.size()) - 1));
        SampleFilter filter;
        filter.cap = a.cap;
        filter.hideRts = a.hideRts;
        if (!a.rangeText.empty()) {
            const auto r = parseTimeRange(a.rangeText, ix->lastTime + 1); // an open end takes the last instant too
            if (!r)
                return usageError("bad --range '" + a.rangeText + "' (START:END with START < END)");
            filter.t0 = r->first;
            filter.t1 = r->second;
        }
        if (ix->timeProfile.samples.empty())
            std::fprintf(stderr, "hecscope: %s: no cost-centre samples in this log (a profiled build run with +RTS -p -l writes them)\n",
                         a.path.c_str());
        profile = sampleProfile(*ix, filter);
    } else {
        if (!a.rangeText.empty() || a.cap >= 0 || a.ticky)
            return usageError("--range, --cap and --ticky apply to eventlogs; a report covers the whole run");
        ProfReportFile file = readProfReportFile(a.path);
        if (!file.profile) {
            std::fprintf(stderr, "hecscope: %s: %s\n", a.path.c_str(), file.error.c_str());
            return 1;
        }
        CostCentreProfile& report = *file.profile;
        if (report.error) {
            std::fprintf(stderr, "hecscope: %s: error: %s\n", a.path.c_str(),
                         problemText(report, "printed").c_str());
            status = 1;
        }
        profile = a.hideRts ? withoutRtsFrames(report) : std::move(report);
    }
    const ProfileMetric metric = a.alloc ? ProfileMetric::Alloc : ProfileMetric::Time;
    if ((a.folded || a.csv) && profile->percentOnly()) {
        std::fprintf(stderr,
                     "hecscope: %s: this report was written without -P: only percentages are available, not tick or "
                     "byte counts (rerun with +RTS -P or -pj)\n",
                     a.path.c_str());
        return 1;
    }
    const std::string out = a.folded ? foldedText(*profile, metric)
        : a.csv                      ? costCentresCsv(*profile, metric)
                                     : summary(*profile, metric);
    std::fwrite(out.data(), 1, out.size(), stdout);
    return status;
}

} // namespace hecscope::cli
