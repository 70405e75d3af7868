#include "app/cli.h"
#include "app/commands.h"

#include "core/live/livesession.h"
#include "core/report/info.h"
#include "core/stats/stats.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <string_view>

namespace hecscope::cli {
namespace {

const char* const kWatchUsage =
    "Usage: hecscope watch SOURCE [--record FILE] [--until-end | --seconds N]\n"
    "                      [--no-reconnect] [--interval MS] [--keep-minutes N]\n"
    "\n"
    "Follows a live eventlog and prints JSON Lines: one object per update,\n"
    "then one with the final index, the object `hecscope info --json` prints\n"
    "for the recorded bytes (on one line).\n"
    "A GHC heap profile (prog.hp, +RTS -h without -l) is followed the same\n"
    "way: each update holds its complete censuses, and it ends once the file\n"
    "stops growing and no process has it open for writing (the program has\n"
    "finished writing it).\n"
    "\n"
    "SOURCE is a file that may still be growing (followed until its\n"
    "end-of-data marker, or until it stops growing and no process has it open\n"
    "for writing), a named pipe (e.g. +RTS -l -ol/path/to/fifo), - for\n"
    "standard input, unix:/path/to.sock or tcp:HOST:PORT (an eventlog socket,\n"
    "as ghc-eventlog-socket serves it; waited for while it is not there).\n"
    "\n"
    "Options:\n"
    "  --record FILE  keep the bytes received in FILE (a normal eventlog;\n"
    "                 later connections' headers are stripped)\n"
    "  --until-end    stop when the source ends (the default)\n"
    "  --seconds N    stop following after N seconds (at the latest)\n"
    "  --no-reconnect a socket's disconnect ends the watch (by default the\n"
    "                 next connection is appended to the same timeline)\n"
    "  --interval MS  the least time between updates (default 250)\n"
    "  --keep-minutes N  keep only about the last N minutes of the log in the\n"
    "                 index (N may be a fraction): memory stays bounded; the\n"
    "                 final summary is of that stretch, with the whole run's\n"
    "                 event count under \"dropped\"; the recording keeps all\n"
    "  -h, --help     show this help\n"
    "\n"
    "An update line has: update (1, 2, ...), state, events (of a .hp file:\n"
    "its complete censuses), censuses (heap-profile censuses), bytes,\n"
    "capabilities, newest_ns (the newest event), merged_ns (every capability's\n"
    "events are in up to here), pending_ns (newest_ns - merged_ns),\n"
    "pending_bytes (an incomplete record or census), rate_bytes_s, connections,\n"
    "dropped_events and dropped_before_ns (with --keep-minutes: events left\n"
    "out of the index, and the time before which they were), message.\n"
    "\n"
    "Exit status: 0 the source ended or the time was up; 1 it failed or the\n"
    "bytes are not an eventlog (everything before is still summarised);\n"
    "2 usage error.\n";

std::string updateLine(const LiveStatus& s)
{
    char rate[32];
    std::snprintf(rate, sizeof rate, "%.0f", s.bytesPerSecond);
    return "{\"update\":" + std::to_string(s.sequence) + ",\"state\":\"" + liveStateName(s.state)
        + "\",\"events\":" + std::to_string(s.events) + ",\"censuses\":" + std::to_string(s.censuses)
        + ",\"bytes\":" + std::to_string(s.bytes)
        + ",\"capabilities\":" + std::to_string(s.capabilities) + ",\"newest_ns\":" + std::to_string(s.newestTime)
        + ",\"merged_ns\":" + std::to_string(s.mergedTime)
        + ",\"pending_ns\":" + std::to_string(s.newestTime - std::min(s.newestTime, s.mergedTime))
        + ",\"pending_bytes\":" + std::to_string(s.pendingBytes) + ",\"rate_bytes_s\":" + rate
        + ",\"connections\":" + std::to_string(s.connections) + ",\"dropped_events\":" + std::to_string(s.droppedEvents)
        + ",\"dropped_before_ns\":" + std::to_string(s.droppedBefore) + ",\"message\":" + jsonString(s.message) + "}\n";
}

} // namespace

int watch(int argc, char** argv)
{
    CommandLine cl("watch", {{"record", "FILE"}, {"until-end"}, {"seconds", "N"}, {"no-reconnect"}, {"interval", "MS"}, {"keep-minutes", "N"}},
                   {1, 1, "no SOURCE given", "more than one SOURCE given"});
    if (const auto status = cl.parse(argc, argv, kWatchUsage))
        return *status;
    const std::string sourceText = cl.positional().front();
    LiveOptions options;
    options.autoReconnect = !cl.isSet("no-reconnect");
    options.recordPath = cl.value("record");
    double seconds = 0;
    for (const char* name : {"seconds", "interval", "keep-minutes"}) {
        if (!cl.isSet(name))
            continue;
        const std::string v = cl.value(name);
        char* end = nullptr;
        const double n = std::strtod(v.c_str(), &end);
        if (v.empty() || *end || !(n > 0))
            return cl.usageError("--" + std::string(name) + " needs a positive number, not \"" + v + "\"");
        if (name == std::string_view("seconds"))
            seconds = n;
        else if (name == std::string_view("keep-minutes"))
            options.keepNs = uint64_t(n * 60e9);
        else
            options.publishIntervalMs = int(std::max(1.0, n));
    }
    // --until-end (the default) and --seconds: the one given last counts.
    if (cl.lastOf({"until-end", "seconds"}) == "until-end")
        seconds = 0;
    std::string error;
    const std::optional<SourceAddress> address = parseSourceAddress(sourceText, error);
    if (!address)
        return cl.usageError(error);
    std::unique_ptr<LiveSource> source = openLiveSource(*address, error);
    if (!source) {
        std::fprintf(stderr, "hecscope watch: %s\n", error.c_str());
        return 1;
    }
    std::mutex mutex;
    std::condition_variable cv;
    bool ready = false;
    LiveSession session(std::move(source), options, [&] {
        std::lock_guard lock(mutex);
        ready = true;
        cv.notify_one();
    });
    if (!session.start(error)) {
        std::fprintf(stderr, "hecscope watch: %s\n", error.c_str());
        return 1;
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds > 0 ? seconds : 1e9);
    bool stopped = false;
    for (;;) {
        {
            std::unique_lock lock(mutex);
            if (!stopped)
                cv.wait_until(lock, std::chrono::time_point_cast<std::chrono::steady_clock::duration>(deadline), [&] { return ready; });
            else
                cv.wait(lock, [&] { return ready; });
            ready = false;
        }
        if (!stopped && std::chrono::steady_clock::now() >= deadline) {
            session.stop();
            stopped = true;
        }
        std::optional<LiveUpdate> update = session.takeUpdate();
        if (!update)
            continue;
        const LiveStatus& s = update->status;
        std::fputs(updateLine(s).c_str(), stdout);
        std::fflush(stdout);
        if (!stopped && !options.autoReconnect && s.state == LiveState::Disconnected) {
            session.stop();
            stopped = true;
        }
        if (!isFinal(s.state))
            continue;
        session.wait();
        const LogIndex& ix = *update->index;
        const std::string file = options.recordPath.empty() ? address->text() : options.recordPath;
        std::fputs(jsonLine(infoJson(ix, computeStats(ix), file)).c_str(), stdout);
        for (const Diagnostic& d : ix.scan.diagnostics)
            std::fprintf(stderr, "hecscope: %s: %s: %s\n", file.c_str(), d.isError() ? "error" : "warning", d.message().c_str());
        if (s.state == LiveState::Failed)
            std::fprintf(stderr, "hecscope watch: %s\n", s.message.c_str());
        return s.state == LiveState::Failed || ix.scan.hasError ? 1 : 0;
    }
}

} // namespace hecscope::cli
