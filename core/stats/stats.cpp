#include "core/stats/stats.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

namespace hecscope {
namespace {

// Growth of a cumulative counter over [from, to]: the last value at or before
// `to` minus the last value before `from`, per key (capability, capset).
// Ranges are [from, to): adjacent ranges never count a sample twice. The
// whole run is [0, last event], so `closed` lets `to` itself in.
struct Bounds {
    uint64_t from, to;
    bool closed;
    bool beforeEnd(uint64_t t) const { return t < to || (closed && t == to); }
    bool contains(uint64_t t) const { return t >= from && beforeEnd(t); }
};

uint64_t cumulativeGrowth(const std::vector<Sample>& samples, Bounds range)
{
    struct Ends {
        uint64_t before = 0, atEnd = 0;
    };
    std::map<uint64_t, Ends> byKey;
    for (const Sample& s : samples) {
        Ends& e = byKey[uint64_t(s.cap) << 32 | s.capset];
        if (s.time < range.from)
            e.before = s.value;
        if (range.beforeEnd(s.time))
            e.atEnd = s.value;
    }
    uint64_t sum = 0;
    for (const auto& [key, e] : byKey)
        sum += e.atEnd >= e.before ? e.atEnd - e.before : 0;
    return sum;
}

// Largest value of a gauge in [from, to], summed over capsets at each time
// would need alignment; capsets are reported separately by GHC and programs
// have one heap capset, so the maximum over samples is taken.
// The largest value of the samples in the range, and how many there were.
uint64_t maxIn(const std::vector<Sample>& samples, Bounds range, uint64_t& count)
{
    uint64_t best = 0;
    count = 0;
    for (const Sample& s : samples)
        if (range.contains(s.time)) {
            best = std::max(best, s.value);
            ++count;
        }
    return best;
}

SparkTotals sparkGrowth(const std::vector<SparkCounters>& samples, Bounds range)
{
    const SparkCounters zero{};
    const SparkCounters* before = &zero;
    const SparkCounters* atEnd = &zero;
    for (const SparkCounters& s : samples) {
        if (s.time < range.from)
            before = &s;
        if (range.beforeEnd(s.time))
            atEnd = &s;
        else
            break;
    }
    auto d = [](uint64_t a, uint64_t b) { return a >= b ? a - b : 0; };
    SparkTotals t;
    t.created = d(atEnd->created, before->created);
    t.converted = d(atEnd->converted, before->converted);
    t.overflowed = d(atEnd->overflowed, before->overflowed);
    t.dud = d(atEnd->dud, before->dud);
    t.gcd = d(atEnd->gcd, before->gcd);
    t.fizzled = d(atEnd->fizzled, before->fizzled);
    return t;
}

} // namespace

SparkTotals& SparkTotals::operator+=(const SparkTotals& o)
{
    created += o.created;
    converted += o.converted;
    overflowed += o.overflowed;
    dud += o.dud;
    gcd += o.gcd;
    fizzled += o.fizzled;
    return *this;
}

namespace {

RangeStats computeStats(const LogIndex& ix, uint64_t from, uint64_t to, bool closed)
{
    RangeStats r;
    r.from = from;
    r.to = std::max(from, to);
    r.totalNs = r.to - r.from;

    // Collections are sorted by start; the capabilities' spans of
    // consecutive collections can overlap, so a few before the first one
    // starting in the range may still reach into it.
    const auto& cols = ix.collections;
    const size_t first = cols.firstStartingFrom(from);
    auto it = cols.at(first - std::min<size_t>(first, 16));
    std::map<int, GenerationStats> gens;
    uint64_t pauseSum = 0, balanced = 0, parTotal = 0, parTotAll = 0, parMaxAll = 0;
    uint32_t maxThreads = 1;
    bool anyBalanced = false;
    auto clipped = [&](uint64_t a, uint64_t b) {
        a = std::max(a, r.from);
        b = std::min(b, r.to);
        return b > a ? b - a : 0;
    };
    const Bounds range{r.from, r.to, closed};
    for (; it != cols.end() && range.beforeEnd(it->start); ++it) {
        const Collection& c = *it;
        r.gcAnyCapNs += c.leaderCap != UINT16_MAX ? clipped(c.leaderStart, c.leaderEnd) : clipped(c.start, c.end);
        r.gcNs += clipped(c.leaderStart, c.leaderEnd);
        if (c.start < from)
            continue; // counted with the range it started in
        ++r.collections;
        pauseSum += c.pause();
        r.maxPauseNs = std::max(r.maxPauseNs, c.pause());
        r.copiedBytes += c.copied;
        GenerationStats& g = gens[c.generation];
        g.generation = c.generation;
        ++g.collections;
        g.elapsed += c.pause();
        g.maxPause = std::max(g.maxPause, c.pause());
        g.copied += c.copied;
        parTotAll += c.parTotCopied;
        parMaxAll += c.parMaxCopied;
        maxThreads = std::max(maxThreads, c.parThreads);
        if (c.parallel()) {
            ++r.parallelCollections;
            ++g.parallel;
            if (c.hasBalanced) {
                anyBalanced = true;
                balanced += c.parBalancedCopied;
                parTotal += c.parTotCopied;
            }
        }
    }
    r.workBalanceThreadScope = workBalanceThreadScope(parTotAll, parMaxAll, maxThreads);
    r.gcNs = std::min(r.gcNs, r.totalNs);
    r.mutatorNs = r.totalNs - r.gcNs;
    r.productivity = r.totalNs > 0 ? double(r.mutatorNs) / double(r.totalNs) : 0;
    r.avgPauseNs = r.collections > 0 ? pauseSum / r.collections : 0;
    if (anyBalanced && parTotal > 0)
        r.workBalance = double(balanced) / double(parTotal);
    for (const auto& [gen, g] : gens)
        r.generations.push_back(g);
    // Residency: HEAP_LIVE is written by the collection's leader at its end.
    // Slop too: +RTS -s takes its maximum over these collections only.
    // The oldest generation: from HEAP_INFO_GHC, else the oldest collected.
    int oldest = -1;
    if (!ix.heapInfo.empty() && ix.heapInfo.front().generations > 0)
        oldest = int(ix.heapInfo.front().generations) - 1;
    else
        for (const Collection& c : cols)
            oldest = std::max(oldest, c.generation);
    r.oldestGeneration = oldest;
    for (auto c = std::partition_point(cols.begin(), cols.end(), [&](const Collection& x) { return x.start < from; });
         oldest >= 0 && c != cols.end() && range.beforeEnd(c->start); ++c) {
        if (c->generation != oldest)
            continue;
        ++r.residencySamples;
        r.maxSlopBytes = std::max(r.maxSlopBytes, c->slop);
        const auto live = std::partition_point(ix.heapLive.begin(), ix.heapLive.end(),
                                               [&](const Sample& s) { return s.time < c->leaderStart; });
        if (live != ix.heapLive.end() && live->time <= c->end + (c->end - c->start) + 1'000'000)
            r.maxResidencyBytes = std::max(r.maxResidencyBytes, live->value);
    }

    // The non-moving collector's stop-the-world syncs (CONC_SYNC_*).
    for (const ConcurrentSpan& s : ix.concurrent) {
        if (s.kind != ConcurrentSpan::Sync || s.end == kNoTime || !range.contains(s.start))
            continue;
        ++r.nonmovingSyncs;
        r.nonmovingSyncNs += s.end - s.start;
        r.nonmovingSyncMaxNs = std::max(r.nonmovingSyncMaxNs, s.end - s.start);
    }
    for (const ConcurrentSpan& s : ix.concurrent)
        if (s.end != kNoTime && range.contains(s.start) && s.kind != ConcurrentSpan::Sync)
            r.nonmovingConcurrentNs += s.end - s.start;
    r.nonmoving = !ix.concurrent.empty();

    r.allocatedBytes = cumulativeGrowth(ix.heapAllocated, range);
    r.allocationRate = r.mutatorNs > 0 ? double(r.allocatedBytes) * 1e9 / double(r.mutatorNs) : 0;
    r.maxHeapSizeBytes = maxIn(ix.heapSize, range, r.heapSizeSamples);
    r.maxLiveBytes = maxIn(ix.heapLive, range, r.liveSamples);
    r.maxBlocksSizeBytes = maxIn(ix.blocksSize, range, r.blocksSizeSamples);

    for (size_t c = 0; c < ix.caps.size(); ++c) {
        const Capability& cap = ix.caps[c];
        if (cap.events == 0)
            continue;
        CapStats cs;
        cs.cap = uint16_t(c);
        const SpanTotals t = cap.timeline.totalsIn(r.from, r.to);
        cs.running = t.running();
        cs.gc = t.gc();
        cs.gcSync = t.gcSync();
        cs.parked = t.parked();
        cs.idle = r.totalNs - std::min(r.totalNs, cs.running + t.stopped());
        r.gcSyncCapNs += cs.gcSync;
        r.parkedCapNs += cs.parked;
        cs.runs = t.runs;
        cs.sparks = sparkGrowth(cap.sparks, range);
        r.sparks += cs.sparks;
        r.caps.push_back(cs);
    }
    return r;
}

} // namespace

RangeStats computeStats(const LogIndex& ix, uint64_t from, uint64_t to)
{
    return computeStats(ix, from, to, false);
}

namespace {

// The counters at time t, interpolated linearly between samples (0 before
// the first, the last sample's after it), as doubles.
std::array<double, 6> sparkCountersAt(const std::vector<SparkCounters>& samples, double t)
{
    auto values = [](const SparkCounters& s) {
        return std::array<double, 6>{double(s.created), double(s.converted), double(s.overflowed),
                                     double(s.dud), double(s.gcd), double(s.fizzled)};
    };
    const auto after = std::upper_bound(samples.begin(), samples.end(), t,
                                        [](double x, const SparkCounters& s) { return x < double(s.time); });
    if (after == samples.end())
        return samples.empty() ? std::array<double, 6>{} : values(samples.back());
    const std::array<double, 6> hi = values(*after);
    std::array<double, 6> lo{};
    double t0 = 0;
    if (after != samples.begin()) {
        lo = values(*(after - 1));
        t0 = double((after - 1)->time);
    }
    const double span = double(after->time) - t0;
    const double f = span > 0 ? std::clamp((t - t0) / span, 0.0, 1.0) : 1.0;
    std::array<double, 6> out;
    for (size_t k = 0; k < 6; ++k)
        out[k] = lo[k] + (hi[k] - lo[k]) * f;
    return out;
}

} // namespace

std::vector<SparkTotals> sparkBuckets(const Capability& cap, uint64_t from, uint64_t width, size_t buckets)
{
    std::vector<SparkTotals> out(buckets);
    if (width == 0)
        return out;
    // Rounding each edge's cumulative value keeps the sum of the buckets
    // equal to the rounded growth between the ends.
    auto rounded = [&](double t) {
        const auto v = sparkCountersAt(cap.sparks, t);
        std::array<uint64_t, 6> r;
        for (size_t k = 0; k < 6; ++k) // counters are < 2^64: saturate what rounding could push over
            r[k] = v[k] >= 18446744073709549568.0 ? UINT64_MAX : uint64_t(v[k] + 0.5);
        return r;
    };
    std::array<uint64_t, 6> previous = rounded(double(from));
    for (size_t b = 0; b < buckets; ++b) {
        const std::array<uint64_t, 6> next = rounded(double(from) + double(width) * double(b + 1));
        auto d = [&](size_t k) { return next[k] >= previous[k] ? next[k] - previous[k] : 0; };
        out[b] = SparkTotals{d(0), d(1), d(2), d(3), d(4), d(5)};
        previous = next;
    }
    return out;
}

RangeStats computeStats(const LogIndex& ix)
{
    return computeStats(ix, 0, ix.firstTime == kNoTime ? 0 : ix.lastTime, true);
}

double workBalanceThreadScope(uint64_t totalCopied, uint64_t maxCopied, uint32_t threads)
{
    if (threads < 2 || maxCopied == 0)
        return -1;
    return (double(totalCopied) / double(maxCopied) - 1) / double(threads - 1);
}

} // namespace hecscope
