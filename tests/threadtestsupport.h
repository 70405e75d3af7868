#pragma once

#include "threadwalk.h"

#include "core/format/encoder.h"
#include "core/index/logindex.h"
#include "core/threads/threadstats.h"
#include "core/threads/userspans.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// Helpers shared by the suites on threads and user spans (tst_threadstates,
// tst_userspans, tst_threadsincremental, tst_threadcli): events written by
// the project's encoder, the states checked against the walk (threadwalk.h),
// and two logs of spans built together with their answer.
namespace hecscope::test {

OwnedEvent ev(uint16_t tag, uint64_t t, std::initializer_list<uint64_t> n = {},
              std::initializer_list<std::string_view> s = {});
OwnedEvent run(uint64_t t, uint64_t thread);
OwnedEvent stop(uint64_t t, uint64_t thread, uint64_t status, uint64_t info = 0);
OwnedEvent msg(uint64_t t, std::string_view text);
OwnedEvent marker(uint64_t t, std::string_view text);

std::unique_ptr<LogIndex> load(const std::vector<uint8_t>& bytes);

const char* stateName(ThreadState s);
ThreadFigures figuresOf(const LogIndex& ix, uint32_t id, std::optional<ViewRange> range = std::nullopt);

// Every segment of every thread against the walk.
void compareWithWalk(const LogIndex& ix, const Walk& w);
// Each thread's segments read by SegmentCursor from several starts (the
// first, the second, the middle, at a chunk's end, the last, past the end)
// against SegmentView's random access: each segment as stored, its time
// and its key (ThreadStates::storedKey against stateKey).
void compareCursorWithView(const ThreadStates& st);
// allThreadFigures over `range` (nullopt: the whole log) against the walk.
void compareFiguresWithWalk(const LogIndex& ix, const Walk& w, std::optional<ViewRange> range);

struct WantSpan {
    std::string name;
    uint64_t start, end;
    uint32_t thread;
    uint16_t depth = 0;
    int parent = -1; // index into the wanted list
    uint8_t flags = 0;
};

struct WantIssue {
    uint64_t time;
    uint32_t thread;
    std::string name;
    SpanIssue::Kind kind;
};

// Spans of known durations on thread 1 (capability 0): "job" 20 times with
// the durations kJob, one after another; two "parent" spans of 100 ns each
// holding a "child" of 30 and one of 20; "once" of 42 ns; a marker span
// "mark" of 5 ns; a STOP "ghost" never started; "tail" started and never
// stopped, 1000 ns before the log ends.
inline constexpr uint64_t kJob[20] = {7, 3, 110, 12, 1, 19, 5, 16, 9, 2, 14, 18, 4, 11, 8, 17, 6, 13, 15, 10};

struct KnownLog {
    std::vector<uint8_t> bytes;
    std::vector<uint64_t> jobStarts;
    uint64_t ghost = 0, tailStart = 0, end = 0;
};

KnownLog knownDurationsLog();

// A bigger log of spans, built with its answer: three capabilities, each
// running its own three threads in turn; during each run a thread starts
// spans (names reused, so some nest in themselves), stops one (mostly the
// innermost; a STOP ends the innermost open span of its name, so spans
// opened inside an outer one it stops stay open and outlive their
// parent), or stops a name it never started. Times are distinct across
// capabilities (t ≡ cap mod 3) and blocks of the three interleave in the
// file, so log order is not time order.
struct GeneratedLog {
    std::vector<uint8_t> bytes;
    std::vector<WantSpan> spans;   // by start
    std::vector<WantIssue> issues; // by time
};

GeneratedLog generatedSpansLog(uint32_t seed, int runsPerCap);

} // namespace hecscope::test
