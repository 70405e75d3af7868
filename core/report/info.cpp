#include "core/report/info.h"

#include "core/text/units.h"

#include <algorithm>
#include <cinttypes>
#include <cstdarg>
#include <cstdio>

namespace hecscope {
namespace {

std::string format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
std::string format(const char* fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    va_list again;
    va_copy(again, args);
    const int n = std::vsnprintf(nullptr, 0, fmt, args);
    va_end(args);
    std::string out(size_t(std::max(n, 0)), '\0');
    std::vsnprintf(out.data(), out.size() + 1, fmt, again);
    va_end(again);
    return out;
}

// A non-negative figure as an integer, saturating (hostile logs can make a
// rate exceed what 64 bits hold; converting such a double is undefined).
uint64_t saturated(double v)
{
    if (!(v > 0))
        return 0;
    return v >= 18446744073709549568.0 ? UINT64_MAX : uint64_t(v);
}

// Report columns are aligned by bytes: ASCII units.
std::string duration(uint64_t ns)
{
    return formatDuration(ns, UnitStyle::Ascii);
}

const Capset* processCapset(const LogIndex& ix)
{
    for (const Capset& c : ix.capsets)
        if (c.type == 2 || !c.rtsIdentifier.empty() || !c.args.empty())
            return &c;
    return nullptr;
}

std::string joined(const std::vector<std::string>& words)
{
    std::string s;
    for (const std::string& w : words) {
        if (!s.empty())
            s += ' ';
        s += w;
    }
    return s;
}

} // namespace

std::string jsonLine(std::string_view json)
{
    std::string out;
    out.reserve(json.size());
    bool inString = false, escaped = false;
    for (const char c : json) {
        if (inString) {
            out += c;
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
            out += c;
        } else if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
            out += c;
        }
    }
    out += '\n';
    return out;
}

std::string jsonString(std::string_view s)
{
    std::string out = "\"";
    for (size_t i = 0; i < s.size();) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += char(c);
            ++i;
        } else if (c < 0x20) {
            out += format("\\u%04x", c);
            ++i;
        } else if (c < 0x80) {
            out += char(c);
            ++i;
        } else {
            // Copy a well-formed UTF-8 sequence, else write U+FFFD.
            const size_t len = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xC2 && c <= 0xDF ? 2 : 0;
            bool ok = len > 0 && i + len <= s.size();
            for (size_t k = 1; ok && k < len; ++k)
                ok = (static_cast<unsigned char>(s[i + k]) & 0xC0) == 0x80;
            if (ok && len == 3) {
                const unsigned char c1 = static_cast<unsigned char>(s[i + 1]);
                ok = !(c == 0xE0 && c1 < 0xA0) && !(c == 0xED && c1 >= 0xA0);
            }
            if (ok && len == 4) {
                const unsigned char c1 = static_cast<unsigned char>(s[i + 1]);
                ok = !(c == 0xF0 && c1 < 0x90) && !(c == 0xF4 && c1 >= 0x90);
            }
            if (ok) {
                out.append(s.substr(i, len));
                i += len;
            } else {
                out += "\\ufffd";
                ++i;
            }
        }
    }
    return out + '"';
}

namespace {

// A .hp heap profile has no scheduler, GC or process facts: its header,
// censuses and bands.
std::string hpInfoText(const LogIndex& ix, const std::string& file)
{
    const HpHeader& h = *ix.hpFile;
    const HeapBands& bands = ix.heapBands;
    std::string o;
    o += format("File          %s (GHC heap profile, .hp)\n", file.c_str());
    o += format("Size          %s bytes, %s complete samples%s\n", formatGrouped(ix.scan.bytes).c_str(),
                formatGrouped(ix.scan.events).c_str(), ix.scan.truncated ? " (truncated)" : "");
    o += format("Job           %s\n", h.job.c_str());
    o += format("Date          %s\n", h.date.c_str());
    o += format("Units         samples in %s, values in %s\n", h.sampleUnit.c_str(), h.valueUnit.c_str());
    o += "\n";
    o += format("Censuses      %s over %s\n", formatGrouped(bands.times.size()).c_str(),
                duration(bands.empty() ? 0 : bands.times.back() - bands.times.front()).c_str());
    o += format("Bands         %s\n", formatGrouped(bands.stats.size()).c_str());
    o += format("Peak total    %s\n", formatBytes(bands.peakTotal).c_str());
    size_t marks = 0;
    for (const Message& m : ix.messages)
        marks += m.kind == Message::Marker;
    o += format("Marks         %zu\n", marks);
    if (!ix.scan.diagnostics.empty()) {
        o += "\nDiagnostics\n";
        for (const Diagnostic& d : ix.scan.diagnostics)
            o += "  " + d.message() + "\n";
    }
    return o;
}

} // namespace

std::string infoText(const LogIndex& ix, const RangeStats& st, const std::string& file)
{
    if (ix.hpFile)
        return hpInfoText(ix, file);
    std::string o;
    const LogScan& scan = ix.scan;
    o += format("File          %s\n", file.c_str());
    o += format("Size          %s bytes, %s events%s\n", formatGrouped(scan.bytes).c_str(),
                formatGrouped(scan.events).c_str(), scan.truncated ? " (truncated)" : "");
    if (const Capset* p = processCapset(ix)) {
        if (!p->args.empty())
            o += format("Program       %s\n", joined(p->args).c_str());
        if (!p->rtsIdentifier.empty())
            o += format("RTS           %s\n", p->rtsIdentifier.c_str());
        if (p->hasPid)
            o += format("Process       pid %" PRIu64 ", parent %" PRIu64 "\n", p->pid, p->ppid);
    }
    o += format("Capabilities  %zu, threads %zu\n", st.caps.size(), ix.threadCount());
    o += "\n";
    o += format("Time          total %s, mutator %s, GC %s (any capability collecting: %s)\n",
                duration(st.totalNs).c_str(), duration(st.mutatorNs).c_str(), duration(st.gcNs).c_str(),
                duration(st.gcAnyCapNs).c_str());
    if (st.gcSyncCapNs + st.parkedCapNs > 0) {
        // Lines of at most ~100 characters: the Statistics pane shows them uncut.
        o += format("Stopped       outside their collections (summed over capabilities, not GC):\n"
                    "              %s waiting for a collection to begin, %s parked after one ended\n",
                    duration(st.gcSyncCapNs).c_str(), duration(st.parkedCapNs).c_str());
        // A capability writes GC_END only when its OS thread runs again:
        // an idle one's sleeps until the next collection wakes it, and with
        // more capabilities than cores it waits for a core.
        if (st.gcSyncCapNs + st.parkedCapNs > 2 * st.gcNs)
            o += "              (more than twice the GC time: a capability leaves a collection only when\n"
                 "              its OS thread runs again; an idle capability's sleeps until the next\n"
                 "              collection, and with more capabilities (-N) than cores they wait for a core)\n";
    }
    o += format("Productivity  %.1f%% of elapsed time\n", st.productivity * 100);
    o += format("GC            %s collections (%s parallel), %s copied\n", formatGrouped(st.collections).c_str(),
                formatGrouped(st.parallelCollections).c_str(), formatBytes(st.copiedBytes).c_str());
    o += format("Pauses        average %s, maximum %s\n", duration(st.avgPauseNs).c_str(),
                duration(st.maxPauseNs).c_str());
    if (st.nonmoving)
        o += format("Non-moving    %s syncs, %s in all (maximum %s); concurrent mark and sweep %s\n",
                    formatGrouped(st.nonmovingSyncs).c_str(), duration(st.nonmovingSyncNs).c_str(),
                    duration(st.nonmovingSyncMaxNs).c_str(), duration(st.nonmovingConcurrentNs).c_str());
    if (st.workBalance >= 0 || st.workBalanceThreadScope >= 0) {
        o += "Work balance  ";
        if (st.workBalance >= 0)
            o += format("%.1f%% by copied bytes (as +RTS -s)", st.workBalance * 100);
        if (st.workBalance >= 0 && st.workBalanceThreadScope >= 0)
            o += ", ";
        if (st.workBalanceThreadScope >= 0)
            o += format("%.1f%% by maximum copied (as ThreadScope)", st.workBalanceThreadScope * 100);
        o += " (serial 0%, perfect 100%)\n";
    }
    o += format("Allocation    %s, %s/s of mutator time\n", formatBytes(st.allocatedBytes).c_str(),
                formatBytes(saturated(st.allocationRate)).c_str());
    // A maximum over no sample is unknown, not 0 B.
    const auto maximum = [](uint64_t bytes, uint64_t samples) {
        return samples ? formatBytes(double(bytes)) : std::string("no sample in range");
    };
    o += format("Heap          maximum size %s, maximum live %s, maximum slop %s\n",
                maximum(st.maxHeapSizeBytes, st.heapSizeSamples).c_str(),
                maximum(st.maxLiveBytes, st.liveSamples).c_str(),
                st.residencySamples ? formatBytes(double(st.maxSlopBytes)).c_str()
                                    : "no collection of the oldest generation in range");
    o += format("Sparks        %s total: %s created, %s converted, %s overflowed, %s dud, %s GC'd, %s fizzled\n",
                formatGrouped(st.sparks.total()).c_str(), formatGrouped(st.sparks.created).c_str(),
                formatGrouped(st.sparks.converted).c_str(), formatGrouped(st.sparks.overflowed).c_str(),
                formatGrouped(st.sparks.dud).c_str(), formatGrouped(st.sparks.gcd).c_str(),
                formatGrouped(st.sparks.fizzled).c_str());

    if (!st.generations.empty()) {
        o += "\n  Gen   Collections  Parallel     Elapsed   Avg pause   Max pause      Copied\n";
        for (const GenerationStats& g : st.generations) {
            o += format("  %-4s  %11s  %8s  %10s  %10s  %10s  %10s\n",
                        g.generation < 0 ? "?" : std::to_string(g.generation).c_str(),
                        formatGrouped(g.collections).c_str(), formatGrouped(g.parallel).c_str(),
                        duration(g.elapsed).c_str(),
                        duration(g.collections ? g.elapsed / g.collections : 0).c_str(),
                        duration(g.maxPause).c_str(), formatBytes(g.copied).c_str());
        }
    }
    if (!st.caps.empty()) {
        o += "\n  Cap     Running        GC   GC wait    Parked      Idle        Runs  Sparks created  converted\n";
        for (const CapStats& c : st.caps)
            o += format("  %-4u  %9s  %8s  %8s  %8s  %8s  %10s  %14s  %9s\n", unsigned(c.cap),
                        formatPercent(c.running, st.totalNs).c_str(), formatPercent(c.gc, st.totalNs).c_str(),
                        formatPercent(c.gcSync, st.totalNs).c_str(), formatPercent(c.parked, st.totalNs).c_str(),
                        formatPercent(c.idle, st.totalNs).c_str(), formatGrouped(c.runs).c_str(),
                        formatGrouped(c.sparks.created).c_str(), formatGrouped(c.sparks.converted).c_str());
    }
    if (ix.clippedSpans > 0 || ix.unrepresentableSpans > 0)
        o += format("\nNote          %s runs cut to 4.3 s and %s spans after 78 hours left out of the timelines"
                    " (damaged timestamps)\n",
                    formatGrouped(ix.clippedSpans).c_str(), formatGrouped(ix.unrepresentableSpans).c_str());
    if (!scan.diagnostics.empty() || !scan.ioError.empty()) {
        o += "\nDiagnostics\n";
        for (const Diagnostic& d : scan.diagnostics)
            o += format("  %s: %s\n", d.isError() ? "error" : "warning", d.message().c_str());
        if (!scan.ioError.empty())
            o += format("  error: read error %s\n", scan.ioError.c_str());
    }
    return o;
}

std::string infoJson(const LogIndex& ix, const RangeStats& st, const std::string& file)
{
    const LogScan& scan = ix.scan;
    std::string o = "{\n";
    auto key = [&](const char* k) { o += "  "; o += jsonString(k); o += ": "; };
    auto num = [](uint64_t v) { return std::to_string(v); };
    auto real = [](double v) { return format("%.6g", v); };

    key("file"); o += jsonString(file) + ",\n";
    key("bytes"); o += num(scan.bytes) + ",\n";
    key("events"); o += num(scan.events) + ",\n";
    if (ix.dropped.fromByte > 0) {
        // A live session's latest stretch: what came before it.
        key("dropped");
        o += "{\"from_byte\": " + num(ix.dropped.fromByte) + ", \"before_ns\": " + num(ix.dropped.before)
            + ", \"events\": " + num(ix.dropped.events) + ", \"whole_run_events\": "
            + num(ix.dropped.events + scan.events) + "},\n";
    }
    key("truncated"); o += scan.truncated ? "true" : "false"; o += ",\n";
    key("error"); o += scan.hasError || !scan.ioError.empty() ? "true" : "false"; o += ",\n";
    key("hp_file");
    if (ix.hpFile)
        o += "{\"job\": " + jsonString(ix.hpFile->job) + ", \"date\": " + jsonString(ix.hpFile->date)
            + ", \"sample_unit\": " + jsonString(ix.hpFile->sampleUnit) + ", \"value_unit\": "
            + jsonString(ix.hpFile->valueUnit) + "},\n";
    else
        o += "null,\n";
    key("diagnostics"); o += "[";
    bool first = true;
    for (const Diagnostic& d : scan.diagnostics) {
        o += first ? "" : ", ";
        o += jsonString(d.message());
        first = false;
    }
    if (!scan.ioError.empty())
        o += (first ? "" : ", ") + jsonString("read error " + scan.ioError);
    o += "],\n";
    key("capabilities"); o += num(st.caps.size()) + ",\n";
    key("threads"); o += num(ix.threadCount()) + ",\n";

    key("process"); o += "{";
    if (const Capset* p = processCapset(ix)) {
        o += "\"rts\": " + jsonString(p->rtsIdentifier) + ", \"args\": [";
        for (size_t i = 0; i < p->args.size(); ++i)
            o += (i ? ", " : "") + jsonString(p->args[i]);
        o += "]";
        if (p->hasPid)
            o += ", \"pid\": " + num(p->pid);
        if (p->hasPpid)
            o += ", \"ppid\": " + num(p->ppid);
        if (p->wallAt != kNoTime)
            o += ", \"wall_clock_s\": " + num(p->wallSeconds);
    }
    o += "},\n";

    key("time");
    o += "{\"start_ns\": " + num(st.from) + ", \"end_ns\": " + num(st.to) + ", \"total_ns\": "
        + num(st.totalNs) + ", \"mutator_ns\": " + num(st.mutatorNs) + ", \"gc_ns\": " + num(st.gcNs)
        + ", \"gc_any_cap_ns\": " + num(st.gcAnyCapNs) + ", \"gc_sync_cap_ns\": " + num(st.gcSyncCapNs)
        + ", \"parked_cap_ns\": " + num(st.parkedCapNs) + ", \"productivity\": " + real(st.productivity)
        + "},\n";

    key("gc");
    o += "{\"collections\": " + num(st.collections) + ", \"parallel_collections\": "
        + num(st.parallelCollections) + ", \"copied_bytes\": " + num(st.copiedBytes)
        + ", \"max_pause_ns\": " + num(st.maxPauseNs) + ", \"avg_pause_ns\": " + num(st.avgPauseNs)
        + ", \"work_balance\": " + (st.workBalance < 0 ? std::string("null") : real(st.workBalance))
        + ", \"work_balance_threadscope\": "
        + (st.workBalanceThreadScope < 0 ? std::string("null") : real(st.workBalanceThreadScope))
        + ",\n         \"generations\": [";
    for (size_t i = 0; i < st.generations.size(); ++i) {
        const GenerationStats& g = st.generations[i];
        o += i ? ",\n           " : "\n           ";
        o += "{\"generation\": " + (g.generation < 0 ? std::string("null") : std::to_string(g.generation))
            + ", \"collections\": " + num(g.collections) + ", \"parallel\": " + num(g.parallel)
            + ", \"elapsed_ns\": " + num(g.elapsed) + ", \"max_pause_ns\": " + num(g.maxPause)
            + ", \"copied_bytes\": " + num(g.copied) + "}";
    }
    o += "]},\n";

    key("nonmoving");
    o += !st.nonmoving ? std::string("null,\n")
                       : "{\"syncs\": " + num(st.nonmovingSyncs) + ", \"sync_ns\": " + num(st.nonmovingSyncNs)
            + ", \"max_sync_ns\": " + num(st.nonmovingSyncMaxNs) + ", \"concurrent_ns\": "
            + num(st.nonmovingConcurrentNs) + "},\n";

    key("heap");
    o += "{\"max_heap_size_bytes\": " + num(st.maxHeapSizeBytes) + ", \"max_live_bytes\": "
        + num(st.maxLiveBytes) + ", \"max_blocks_size_bytes\": " + num(st.maxBlocksSizeBytes)
        + ", \"max_slop_bytes\": " + num(st.maxSlopBytes)
        + ", \"allocated_bytes\": " + num(st.allocatedBytes) + ", \"allocation_rate_bytes_per_s\": "
        + num(saturated(st.allocationRate)) + "},\n";

    auto sparks = [&](const SparkTotals& s) {
        return "{\"total\": " + num(s.total()) + ", \"created\": " + num(s.created) + ", \"converted\": " + num(s.converted)
            + ", \"overflowed\": " + num(s.overflowed) + ", \"dud\": " + num(s.dud)
            + ", \"gcd\": " + num(s.gcd) + ", \"fizzled\": " + num(s.fizzled) + "}";
    };
    key("sparks"); o += sparks(st.sparks) + ",\n";

    key("per_capability"); o += "[";
    for (size_t i = 0; i < st.caps.size(); ++i) {
        const CapStats& c = st.caps[i];
        o += i ? ",\n    " : "\n    ";
        o += "{\"cap\": " + num(c.cap) + ", \"running_ns\": " + num(c.running) + ", \"gc_ns\": "
            + num(c.gc) + ", \"gc_sync_ns\": " + num(c.gcSync) + ", \"parked_ns\": " + num(c.parked)
            + ", \"idle_ns\": " + num(c.idle) + ", \"runs\": " + num(c.runs)
            + ", \"sparks\": " + sparks(c.sparks) + "}";
    }
    o += "],\n";

    const HeapProfileData& hp = ix.heapProfile;
    key("heap_profile");
    o += "{\"censuses\": " + num(hp.censuses.size()) + ", \"breakdown\": " + num(hp.breakdown)
        + ", \"labels\": " + num(hp.labels.size()) + ", \"samples\": " + num(hp.samples.size())
        + ", \"repeated_labels\": " + num(hp.repeatedLabels) + "},\n";
    key("time_profile");
    o += "{\"tick_interval_ns\": " + num(ix.timeProfile.tickInterval) + ", \"samples\": "
        + num(ix.timeProfile.samples.size()) + "},\n";
    size_t markers = 0;
    for (const Message& m : ix.messages)
        markers += m.kind == Message::Marker;
    key("messages");
    o += "{\"markers\": " + num(markers) + ", \"other\": " + num(ix.messages.size() - markers) + "}\n";
    o += "}\n";
    return o;
}

} // namespace hecscope
