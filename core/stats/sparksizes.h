#pragma once

#include "core/time/viewrange.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace hecscope {

class ByteSource;
struct LogIndex;

// Spark sizes: how long each spark took to evaluate, as ThreadScope's
// spark-size histogram measures it (haskell/ThreadScope Events/ReadEvents.hs,
// `sparkProfile`/`sparkSummary`, over ghc-events'
// GHC.RTS.Events.Analysis.SparkThread `sparkThreadMachine`):
//
//   A SPARK_RUN (a spark from the capability's own pool) or SPARK_STEAL (one
//   taken from another's) is written by the spark thread running on that
//   capability as it picks the spark to evaluate: it starts the evaluation.
//   The evaluation ends when that same thread picks its next spark (its
//   next SPARK_RUN/SPARK_STEAL) or finishes (STOP_THREAD "thread finished":
//   its pool is empty). Its duration is the time the thread *ran* in
//   between: while it is stopped (yield, heap overflow, blocked, and so the
//   collections that follow) the spark is not being evaluated, wherever the
//   thread resumes. So a collection pauses an evaluation; it does not end it.
//
// Differences from ThreadScope, and why:
//  * ns, not µs rounded up; and short sparks are kept: ThreadScope drops
//    those with floor(log2 µs) <= 0 (under 2 µs) as "already well
//    visualized in other graphs". With ns bins nothing needs dropping, and
//    a count that equals the log's SPARK_RUN + SPARK_STEAL (the RTS's
//    "converted") is easier to trust.
//  * The thread is the one running on the capability at the event (its
//    timeline's Running span), not one tracked from CREATE_SPARK_THREAD: the
//    same in GHC's logs, and it also works for logs whose start is cut.
//  * A run closed by GC_START or another RUN_THREAD without a STOP_THREAD
//    (the index's rule) is a pause like a stop; ThreadScope's state machine
//    fails on such input and drops the rest of the histogram.
//  * An evaluation still open when the log ends (its thread running, or
//    stopped and never run again) counts up to the end of the log (where
//    the index ends open runs), marked `cut`: its duration is a lower
//    bound. ThreadScope counts it up to its thread's last stop only.
//  * A SPARK_RUN/SPARK_STEAL with no thread running on its capability at
//    that time (a damaged log) is counted in `unattributed`, not measured.
//  * Ranges are [start, end) on the spark's start (ThreadScope: both ends
//    included), so adjacent ranges add up.
// Times in ns. Built on a worker thread: the index is immutable.

// How an evaluation ended.
enum class SparkEnd : uint8_t {
    NextSpark,      // its thread picked another spark
    ThreadFinished, // its thread finished
    Cut             // the log ended first: `duration` is a lower bound
};

struct SparkEvaluation {
    uint64_t start = 0;    // ns: the SPARK_RUN / SPARK_STEAL
    uint64_t duration = 0; // ns its thread ran from `start` to the end
    uint32_t thread = 0;   // the spark thread
    uint16_t cap = 0;      // where it started
    bool stolen = false;   // SPARK_STEAL (else SPARK_RUN)
    SparkEnd end = SparkEnd::NextSpark;
};

// The evaluations that start in a range (or the whole log), by start time.
// Each is measured to its end, wherever that is: the thread's next spark
// may lie past the range (the file is read on until it is found).
struct SparkEvaluations {
    std::vector<SparkEvaluation> evaluations;
    std::optional<ViewRange> range; // the range read; absent: the whole log
    uint64_t unattributed = 0;      // SPARK_RUN/STEAL (in the range) with no running thread
    bool fineGrained = false;       // the log has individual spark events (+RTS -lf)
    uint64_t logSparkRuns = 0;      // SPARK_RUN + SPARK_STEAL events in the whole log (the index's counts)
    // From the SPARK_COUNTERS (all a log without -lf has): sparks offered
    // (created + dud + overflowed, as +RTS -s totals them) and converted.
    uint64_t countersSparks = 0, countersConverted = 0;
    // The spark events could not be read back from the file (changed or
    // cut since it was indexed: the byte is named); then no evaluations.
    std::string error;
};

// The evaluations starting in `range` (the whole log when absent), their
// spark events read back from `source`, the file `index` was made from
// (core/detail/sparkdetail.h). Empty (with the flags) once `cancelled` says so.
SparkEvaluations sparkEvaluations(const LogIndex& index, ByteSource& source, std::optional<ViewRange> range = std::nullopt,
                                  const std::function<bool()>& cancelled = {});

// Log-scale bins: bin k holds the durations d with floor(log2 d) == k, i.e.
// [2^k, 2^(k+1)) ns (ThreadScope's log2 bins, in ns); 0 and 1 ns go to bin 0.
struct SparkSizeBin {
    int log2 = 0;
    uint64_t lo = 0, hi = 0; // ns: [lo, hi)
    uint64_t count = 0;
    uint64_t total = 0; // ns: the durations' sum
};

enum class SparkSizesStatus {
    Ok,
    NoFineGrainedEvents, // no SPARK_* event at all: the log was not written with -lf
    NoSparkRan,          // fine-grained events, but no evaluation in the range (cap)
    Unreadable,          // the spark events could not be read back (SparkEvaluations::error)
};

// The histogram of the evaluations that start in `range` ([start, end);
// the whole log when absent) on capability `cap` (-1: all). Adjacent ranges
// add up: each evaluation belongs to the range of its start, whole.
// `evals` must cover `range` (read for it, or for the whole log).
struct SparkSizes {
    SparkSizesStatus status = SparkSizesStatus::NoFineGrainedEvents;
    std::vector<SparkSizeBin> bins; // from the lowest to the highest non-empty bin, none skipped
    uint64_t count = 0;
    uint64_t stolen = 0;
    uint64_t cut = 0;   // of them, cut by the end of the log
    uint64_t total = 0; // ns
    uint64_t min = 0, max = 0, mean = 0;
    // Nearest-rank percentiles: the smallest duration with at least p% of
    // the durations at or below it.
    uint64_t median = 0, p10 = 0, p90 = 0, p99 = 0;
};

SparkSizes sparkSizes(const SparkEvaluations& evals, std::optional<ViewRange> range, int cap = -1);

// Why there is no histogram, for people; empty for Ok.
std::string sparkSizesMessage(const SparkSizes& s, const SparkEvaluations& evals);

} // namespace hecscope
