#include "core/stats/sparksizes.h"

#include "core/detail/sparkdetail.h"
#include "core/format/eventtags.h"
#include "core/index/logindex.h"
#include "core/text/units.h"

#include <algorithm>
#include <bit>
#include <span>
#include <unordered_map>

namespace hecscope {

namespace {

struct Run {
    uint64_t start, end; // ns
    uint8_t stop;
};

// The Running span of capability `cap` at time `t`: the one covering it,
// or the one that ends exactly at it (the event written as the thread
// stops). UINT32_MAX when no thread is running there.
uint32_t threadAt(const CapTimeline& tl, uint64_t t)
{
    const size_t i = tl.firstEndingAfter(t);
    if (i < tl.size() && tl[i].start() <= t && tl[i].kind() == SpanKind::Running)
        return tl[i].thread();
    if (i > 0 && tl[i - 1].end() == t && tl[i - 1].kind() == SpanKind::Running)
        return tl[i - 1].thread();
    return UINT32_MAX;
}

// Measures the evaluations of one thread, `evals` (its own, by start),
// over `runs` (its Running spans on every capability, by start); `after`:
// the start of the thread's next evaluation past these (UINT64_MAX: none).
void measure(std::span<SparkEvaluation* const> evals, const std::vector<Run>& runs, uint64_t after)
{
    // Runs do not overlap, so their ends are in order too. j: the first run
    // that ends at or after the current evaluation's start (one that ends
    // exactly at it adds nothing but may say the thread finished there).
    size_t j = 0;
    for (size_t e = 0; e < evals.size(); ++e) {
        SparkEvaluation& ev = *evals[e];
        const uint64_t until = e + 1 < evals.size() ? evals[e + 1]->start : after;
        while (j < runs.size() && runs[j].end < ev.start)
            ++j;
        uint64_t ran = 0;
        size_t k = j;
        for (; k < runs.size() && runs[k].start < until; ++k)
            ran += std::min(runs[k].end, until) - std::max(runs[k].start, ev.start);
        ev.duration = ran;
        if (until != UINT64_MAX)
            ev.end = SparkEnd::NextSpark;
        else if (k > j && stopClass(runs[k - 1].stop) == StopClass::Finished)
            ev.end = SparkEnd::ThreadFinished;
        else
            ev.end = SparkEnd::Cut;
    }
}

constexpr uint32_t kRuns = sparkTagBit(tag::SparkRun) | sparkTagBit(tag::SparkSteal);

bool isRun(const SparkEvent& s)
{
    return s.tag == tag::SparkRun || s.tag == tag::SparkSteal;
}

uint32_t threadOf(const LogIndex& index, const SparkEvent& s)
{
    return s.cap < index.caps.size() ? threadAt(index.caps[s.cap].timeline, s.time) : UINT32_MAX;
}

} // namespace

SparkEvaluations sparkEvaluations(const LogIndex& index, ByteSource& source, std::optional<ViewRange> range,
                                  const std::function<bool()>& cancelled)
{
    SparkEvaluations out;
    out.range = range;
    for (const Capability& c : index.caps) {
        for (const uint64_t n : c.sparkEvents)
            out.fineGrained |= n > 0;
        out.logSparkRuns += c.sparkEvents[tag::SparkRun - tag::SparkCreate] + c.sparkEvents[tag::SparkSteal - tag::SparkCreate];
        if (!c.sparks.empty()) {
            const SparkCounters& last = c.sparks.back();
            out.countersSparks += last.created + last.dud + last.overflowed;
            out.countersConverted += last.converted;
        }
    }
    if (out.logSparkRuns == 0) // no spark ran (a log without -lf: most logs): nothing to read
        return out;
    const uint64_t t0 = range ? range->start : 0, t1 = range ? range->end : UINT64_MAX;
    SparkEventsRead read = readSparkEvents(source, index, t0, t1, cancelled, kRuns);
    if (read.cancelled)
        return {};
    if (!read.error.empty()) {
        out.error = std::move(read.error);
        return out;
    }

    // The evaluations' starts, each given the thread running at it.
    std::unordered_map<uint32_t, std::vector<SparkEvaluation*>> byThread;
    std::vector<SparkEvaluation>& evals = out.evaluations;
    for (const SparkEvent& s : read.events) {
        if (!isRun(s))
            continue;
        const uint32_t thread = threadOf(index, s);
        if (thread == UINT32_MAX) {
            ++out.unattributed;
            continue;
        }
        SparkEvaluation ev;
        ev.start = s.time;
        ev.thread = thread;
        ev.cap = s.cap;
        ev.stolen = s.tag == tag::SparkSteal;
        evals.push_back(ev);
    }
    read = {};
    // One order by time (the capability breaks ties, so the order never
    // depends on the file's).
    std::sort(evals.begin(), evals.end(), [](const SparkEvaluation& a, const SparkEvaluation& b) {
        return a.start != b.start ? a.start < b.start : a.cap < b.cap;
    });
    for (SparkEvaluation& ev : evals)
        byThread[ev.thread].push_back(&ev);
    if (evals.empty())
        return out;
    if (cancelled && cancelled())
        return {};

    // The spark threads' runs from the range on: one sweep over every
    // capability's timeline.
    std::unordered_map<uint32_t, std::vector<Run>> runs;
    runs.reserve(byThread.size());
    for (const auto& [thread, list] : byThread)
        runs[thread];
    for (const Capability& c : index.caps) {
        const CapTimeline& tl = c.timeline;
        for (size_t i = t0 > 0 ? tl.firstEndingAfter(t0 - 1) : 0; i < tl.size(); ++i) {
            const Span& s = tl[i];
            if (s.kind() != SpanKind::Running)
                continue;
            if (auto it = runs.find(s.thread()); it != runs.end())
                it->second.push_back({s.start(), s.end(), s.stop()});
            if ((i & 0xFFFFF) == 0xFFFFF && cancelled && cancelled())
                return {};
        }
    }
    for (auto& [thread, r] : runs) // a thread runs on one capability at a time: by start is by time
        std::sort(r.begin(), r.end(), [](const Run& a, const Run& b) { return a.start < b.start; });

    // Each thread's next spark past the range ends its last evaluation in
    // it: read on, in windows growing twice as long, until every thread's
    // is found or its last run is passed (a spark is picked while running).
    std::unordered_map<uint32_t, uint64_t> after;
    if (range) {
        std::unordered_map<uint32_t, uint64_t> lastRunEnd; // of the threads still looked for
        for (const auto& [thread, list] : byThread)
            lastRunEnd[thread] = runs[thread].empty() ? 0 : runs[thread].back().end;
        uint64_t a = t1, w = std::max<uint64_t>(t1 - t0, 1'000'000);
        while (!lastRunEnd.empty()) {
            // Skip to the first time one of them runs again.
            uint64_t limit = 0, next = UINT64_MAX;
            for (const auto& [thread, e] : lastRunEnd) {
                limit = std::max(limit, e);
                const std::vector<Run>& r = runs[thread];
                const auto it = std::lower_bound(r.begin(), r.end(), a, [](const Run& x, uint64_t t) { return x.end < t; });
                if (it != r.end())
                    next = std::min(next, it->start);
            }
            if (a > limit || next == UINT64_MAX)
                break;
            a = std::max(a, next);
            const uint64_t b = std::min(a + std::min(w, UINT64_MAX - a), limit + 1);
            read = readSparkEvents(source, index, a, b, cancelled, kRuns);
            if (read.cancelled)
                return {};
            if (!read.error.empty()) {
                SparkEvaluations failed = std::move(out);
                failed.evaluations.clear();
                failed.unattributed = 0;
                failed.error = std::move(read.error);
                return failed;
            }
            for (const SparkEvent& s : read.events)
                if (isRun(s))
                    if (auto it = lastRunEnd.find(threadOf(index, s)); it != lastRunEnd.end()) {
                        after[it->first] = s.time;
                        lastRunEnd.erase(it);
                    }
            a = b;
            w = w > UINT64_MAX / 2 ? UINT64_MAX : w * 2;
        }
    }
    for (auto& [thread, list] : byThread) {
        const auto it = after.find(thread);
        measure(list, runs[thread], it == after.end() ? UINT64_MAX : it->second);
    }
    return out;
}

SparkSizes sparkSizes(const SparkEvaluations& evals, std::optional<ViewRange> range, int cap)
{
    SparkSizes out;
    if (!evals.error.empty()) {
        out.status = SparkSizesStatus::Unreadable;
        return out;
    }
    if (!evals.fineGrained)
        return out;
    out.status = SparkSizesStatus::NoSparkRan;
    const auto& all = evals.evaluations;
    auto first = all.begin(), last = all.end();
    if (range) {
        const auto byStart = [](const SparkEvaluation& e, uint64_t t) { return e.start < t; };
        first = std::lower_bound(all.begin(), all.end(), range->start, byStart);
        last = std::lower_bound(first, all.end(), range->end, byStart);
    }
    std::vector<uint64_t> durations;
    durations.reserve(size_t(last - first));
    for (auto it = first; it != last; ++it) {
        if (cap >= 0 && it->cap != cap)
            continue;
        durations.push_back(it->duration);
        out.stolen += it->stolen;
        out.cut += it->end == SparkEnd::Cut;
        out.total += it->duration;
    }
    if (durations.empty())
        return out;
    out.status = SparkSizesStatus::Ok;
    out.count = durations.size();
    std::sort(durations.begin(), durations.end());
    out.min = durations.front();
    out.max = durations.back();
    out.mean = out.total / out.count;
    const auto rank = [&](unsigned percent) {
        const size_t r = (durations.size() * percent + 99) / 100; // ceil(n p / 100), >= 1
        return durations[std::max<size_t>(r, 1) - 1];
    };
    out.p10 = rank(10);
    out.median = rank(50);
    out.p90 = rank(90);
    out.p99 = rank(99);

    const auto binOf = [](uint64_t d) { return d < 2 ? 0 : int(std::bit_width(d)) - 1; };
    const int lo = binOf(out.min), hi = binOf(out.max);
    for (int k = lo; k <= hi; ++k)
        out.bins.push_back({k, k == 0 ? 0 : uint64_t(1) << k, k >= 63 ? UINT64_MAX : uint64_t(1) << (k + 1), 0, 0});
    for (uint64_t d : durations) {
        SparkSizeBin& b = out.bins[size_t(binOf(d) - lo)];
        ++b.count;
        b.total += d;
    }
    return out;
}

std::string sparkSizesMessage(const SparkSizes& s, const SparkEvaluations& evals)
{
    switch (s.status) {
    case SparkSizesStatus::Ok:
        return {};
    case SparkSizesStatus::NoFineGrainedEvents:
        if (evals.countersSparks > 0)
            return "No fine-grained spark events: this log has only the spark counters (" + formatGrouped(evals.countersSparks)
                + " sparks, " + formatGrouped(evals.countersConverted)
                + " converted). Run the program with +RTS -lf to see how long each spark took.";
        return "No fine-grained spark events in this log: run the program with +RTS -lf to see how long each spark took.";
    case SparkSizesStatus::Unreadable:
        return "Cannot read the spark events: " + evals.error;
    case SparkSizesStatus::NoSparkRan:
        if (evals.evaluations.empty() && (!evals.range || evals.logSparkRuns == 0))
            return "No spark ran in this log: sparks were created but none was evaluated by a spark thread "
                   "(they fizzled, were duds, or were collected).";
        return "No spark ran in this range.";
    }
    return {};
}

} // namespace hecscope
