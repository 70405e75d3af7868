// `hecscope heap`: the heap-profile bands of a log or .hp file, and
// `hecscope synthesize`: big logs for benchmarks, written by the encoder.

#include "app/cli.h"
#include "app/commands.h"
#include "core/heap/heapbands.h"
#include "core/load/loader.h"
#include "core/synth/synthetic.h"
#include "core/text/units.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

namespace hecscope::cli {
namespace {

const char* const kHeapUsage =
    "Usage: hecscope heap FILE [--bands N] [--order ORDER] [--reverse] [--csv]\n"
    "\n"
    "Prints the heap-profile bands of FILE (an eventlog written with +RTS -l\n"
    "and one of -hT -hc -hm -hd -hy -hr -hb -hi -he, or a .hp heap profile).\n"
    "The top N bands by size (byte-seconds) are shown, the rest summed into\n"
    "OTHER, in the chosen order.\n"
    "\n"
    "Options:\n"
    "  --bands N      bands shown before OTHER (default 15; 0 = every band, no OTHER)\n"
    "  --order ORDER  size (default), stddev, name, number (names with numbers\n"
    "                 compared by value) or growth (least-squares slope)\n"
    "  --reverse      reverse the order\n"
    "  --csv          print `time_ns,band,bytes`, one row per census and band\n"
    "                 (bands containing , or \" are quoted as in RFC 4180);\n"
    "                 otherwise a table of each band's figures\n"
    "  -h, --help     show this help\n"
    "\n"
    "Exit status: 0 success (a truncated log or .hp file is a success: the\n"
    "complete censuses are printed and a warning goes to stderr); 1 the file is\n"
    "unreadable or corrupt (what was read before the fault is printed) or has\n"
    "no heap profile; 2 usage error.\n";

const char* const kSynthesizeUsage =
    "Usage: hecscope synthesize heap OUT [CENSUSES [LABELS]]\n"
    "       hecscope synthesize scheduler OUT [MEGABYTES]\n"
    "       hecscope synthesize threads OUT [THREADS [RUNS]]\n"
    "       hecscope synthesize spans OUT [SPANS]\n"
    "       hecscope synthesize profile OUT [SAMPLES [CCS [MAXDEPTH]]]\n"
    "       hecscope synthesize prof OUT [MEGABYTES]\n"
    "\n"
    "Writes a synthetic eventlog with the project's encoder, for benchmarks:\n"
    "a -hT style heap profile (default 10000 censuses x 2000 bands), a\n"
    "scheduler-heavy log of about MEGABYTES (default 256), the lives of THREADS\n"
    "labelled Haskell threads of RUNS runs each (default 100000 x 10), or SPANS\n"
    "nested traceEvent START/STOP spans written by 64 threads (default 1000000),\n"
    "or a cost-centre time profile (+RTS -p -l) of SAMPLES samples on 4\n"
    "capabilities over CCS cost centres in 100 modules, stacks up to MAXDEPTH\n"
    "deep (default 1000000 5000 50).\n"
    "`prof` writes no eventlog but a .prof report in GHC 9.0.2's +RTS -P layout\n"
    "of about MEGABYTES (default 10): the call tree of such a profile's samples\n"
    "(as ticks, with entries and bytes made up per node), grown until the text\n"
    "is that long.\n";


bool parseCount(const char* text, size_t& out)
{
    const char* end = text + std::strlen(text);
    const auto [p, ec] = std::from_chars(text, end, out);
    return ec == std::errc() && p == end;
}

std::string human(double bytes)
{
    const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    double v = std::abs(bytes) < 0.5 ? 0 : bytes;
    const bool negative = v < 0;
    v = negative ? -v : v;
    while (v >= 1024 && u < 4) {
        v /= 1024;
        ++u;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, u ? "%s%.1f %s" : "%s%.0f %s", negative ? "-" : "", v, units[u]);
    return buf;
}

} // namespace

int heap(int argc, char** argv)
{
    CommandLine cl("heap", {{"bands", "N"}, {"order", "ORDER"}, {"reverse"}, {"csv"}});
    if (const auto status = cl.parse(argc, argv, kHeapUsage))
        return *status;
    const std::string path = cl.positional().front();
    size_t n = kDefaultBands;
    if (cl.isSet("bands") && !parseCount(cl.value("bands").c_str(), n))
        return cl.usageError("--bands needs a number (0 = every band)");
    const auto order = cl.isSet("order") ? bandOrderFromName(cl.value("order")) : std::optional<BandOrder>(BandOrder::Size);
    if (!order)
        return cl.usageError("--order needs one of size, stddev, name, number, growth");
    const bool reversed = cl.isSet("reverse"), csv = cl.isSet("csv");
    auto source = openOrComplain(path);
    if (!source)
        return 1;
    const LoadResult loaded = loadIndex(*source);
    const LogIndex& ix = *loaded.index;
    for (const Diagnostic& d : ix.scan.diagnostics)
        std::fprintf(stderr, "hecscope: %s: %s: %s\n", path.c_str(), d.isError() ? "error" : "warning",
                     d.message().c_str());
    const HeapBands& bands = ix.heapBands;
    const HeapProfileData& hp = ix.heapProfile;
    const int failed = ix.scan.hasError || !ix.scan.ioError.empty() ? 1 : 0;
    if (bands.empty()) {
        std::fprintf(stderr,
                     "hecscope heap: %s has no heap-profile censuses (profile with +RTS -l -hT, "
                     "or -hc etc. with -prof)\n",
                     path.c_str());
        return 1;
    }
    const BandSelection sel = selectBands(hp, bands, n, *order, reversed);
    std::string out;
    out.reserve(1 << 20);
    auto flush = [&] {
        if (std::fwrite(out.data(), 1, out.size(), stdout) != out.size())
            return false;
        out.clear();
        return true;
    };
    auto columnName = [&](size_t k) {
        return k < sel.labels.size() ? bands.names[sel.labels[k]] : std::string("OTHER");
    };
    if (csv) {
        out += "time_ns,band,bytes\n";
        std::vector<std::string> names(sel.columns());
        for (size_t k = 0; k < names.size(); ++k)
            names[k] = csvField(columnName(k));
        for (size_t p = 0; p < bands.times.size(); ++p) {
            const uint64_t* row = sel.row(p);
            const std::string time = std::to_string(bands.times[p]);
            for (size_t k = 0; k < names.size(); ++k) {
                out += time;
                out += ',';
                out += names[k];
                out += ',';
                out += std::to_string(row[k]);
                out += '\n';
            }
            if (out.size() > (1 << 20) && !flush())
                return 1;
        }
    } else {
        char line[512];
        std::snprintf(line, sizeof line, "censuses: %zu, bands: %zu, shown: %zu%s, order: %s%s\n",
                      bands.times.size(), bands.stats.size(), sel.labels.size(),
                      sel.other ? (" + OTHER (" + std::to_string(sel.otherCount) + " bands)").c_str() : "",
                      bandOrderName(*order), reversed ? " reversed" : "");
        out += line;
        std::snprintf(line, sizeof line, "%-12s %-12s %-12s %-14s %-6s %s\n", "peak", "byte-seconds", "stddev",
                      "slope/s", "R2", "band");
        out += line;
        for (size_t k = 0; k < sel.labels.size(); ++k) {
            const BandStats& s = bands.stats[sel.labels[k]];
            // The figures into the buffer; the name (a whole cost-centre
            // stack can be long) after it.
            std::snprintf(line, sizeof line, "%-12s %-12.4g %-12s %-14s %-6.3f ", human(double(s.peak)).c_str(),
                          s.byteSeconds, human(s.stddev).c_str(), human(s.slope).c_str(), s.r2);
            out += line;
            out += bands.names[sel.labels[k]];
            out += '\n';
        }
        if (sel.other) {
            std::snprintf(line, sizeof line, "%-12s %-12s %-12s %-14s %-6s OTHER\n",
                          human(double(sel.columnPeak.back())).c_str(), "", "", "", "");
            out += line;
        }
    }
    if (!flush() || std::fflush(stdout) != 0) {
        std::fprintf(stderr, "hecscope: cannot write the output\n");
        return 1;
    }
    return failed;
}

int synthesize(int argc, char** argv)
{
    CommandLine cl("synthesize", {}, {2, 5, "give a KIND and OUT", "too many arguments"});
    if (const auto status = cl.parse(argc, argv, kSynthesizeUsage))
        return *status;
    const std::vector<std::string>& args = cl.positional();
    const std::string& kind = args[0];
    const std::string& out = args[1];
    argc = int(args.size());
    size_t a = 0, b = 0, c = 0;
    const int most = kind == "profile" ? 5 : 4;
    if ((argc > 2 && !parseCount(args[2].c_str(), a)) || (argc > 3 && !parseCount(args[3].c_str(), b))
        || (argc > 4 && !parseCount(args[4].c_str(), c)) || argc > most)
        return cl.usageError("bad arguments");
    std::vector<uint8_t> bytes;
    if (kind == "prof" && argc <= 3) {
        const std::string text = synthesizeProfReport((argc > 2 ? a : 10) << 20);
        bytes.assign(text.begin(), text.end());
    } else if (kind == "prof") {
        return cl.usageError("bad arguments");
    } else if (kind == "heap")
        bytes = synthesizeHeapProfileLog(argc > 2 ? a : 10000, argc > 3 ? b : 2000);
    else if (kind == "scheduler")
        bytes = synthesizeSchedulerLog((argc > 2 ? a : 256) << 20);
    else if (kind == "threads")
        bytes = synthesizeThreadsLog(argc > 2 ? a : 100000, argc > 3 ? b : 10);
    else if (kind == "profile")
        bytes = synthesizeProfileLog(argc > 2 ? a : 1000000, argc > 3 ? b : 5000, argc > 4 ? c : 50);
    else if (kind == "spans" && argc <= 3)
        bytes = synthesizeSpansLog(argc > 2 ? a : 1000000);
    else if (kind == "spans")
        return cl.usageError("bad arguments");
    else
        return cl.usageError("unknown kind " + kind);
    FILE* f = std::fopen(out.c_str(), "wb");
    if (!f || std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size() || std::fclose(f) != 0) {
        std::fprintf(stderr, "hecscope synthesize: cannot write %s: %s\n", out.c_str(), std::strerror(errno));
        return 1;
    }
    std::printf("%s: %zu bytes\n", out.c_str(), bytes.size());
    return 0;
}

} // namespace hecscope::cli
