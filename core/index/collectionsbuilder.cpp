#include "core/index/collectionsbuilder.h"

#include "core/format/eventtags.h"

#include <algorithm>
#include <numeric>

namespace hecscope {
namespace {

// Collections between two looks at the observer: a few microseconds' work.
constexpr size_t kCancelStride = 4096;

// `v` sorted by start, equal ones in the order they are: when it is not
// already, by sorting their numbers and then moving each collection once
// to its place (std::stable_sort's buffer would be a copy of them all: 200
// MB on a log of 1.8 million collections).
void sortByStart(std::vector<Collection>& v)
{
    const auto byStart = [](const Collection& a, const Collection& b) { return a.start < b.start; };
    if (std::is_sorted(v.begin(), v.end(), byStart))
        return;
    std::vector<uint32_t> order(v.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return v[a].start < v[b].start; });
    // Place j takes the collection at order[j]: each cycle of that
    // permutation followed once.
    std::vector<bool> placed(v.size(), false);
    for (size_t i = 0; i < v.size(); ++i) {
        if (placed[i])
            continue;
        Collection first = v[i];
        size_t j = i;
        for (;;) {
            placed[j] = true;
            const size_t k = order[j];
            if (k == i) {
                v[j] = first;
                break;
            }
            v[j] = v[k];
            j = k;
        }
    }
}

} // namespace

void CollectionsBuilder::consume(const Event& e)
{
    switch (e.tag) {
    case tag::RequestSeqGc:
    case tag::RequestParGc: m_requests.push_back({e.time, e.cap, e.tag == tag::RequestParGc}); break;
    case tag::GcGlobalSync: m_syncs.push_back({e.time, e.cap}); break;
    case tag::GcStatsGhc: {
        const bool balanced = e.layout >= 58;
        Collection col;
        col.hasStats = true;
        col.generation = int(e.n[1]);
        col.copied = e.n[2];
        col.slop = e.n[3];
        col.fragmentation = e.n[4];
        col.parThreads = uint32_t(e.n[5]);
        col.parMaxCopied = e.n[6];
        col.parTotCopied = e.n[7];
        col.parBalancedCopied = balanced ? e.n[8] : 0;
        col.hasBalanced = balanced;
        col.leaderCap = e.cap;
        col.start = col.end = col.leaderStart = col.leaderEnd = e.time;
        m_stats.push_back(col);
        break;
    }
    default: break;
    }
}

CollectionsBuilder::SpansByCap CollectionsBuilder::byCap(std::span<const GcSpan> closed, std::span<const GcSpan> open)
{
    // Their numbers, not a copy (a log may have millions). Each
    // capability's come in time order, nearly: counted into place, then
    // sorted within each capability.
    const size_t spanCount = closed.size() + open.size();
    const auto spanAt = [&](uint32_t i) -> const GcSpan& { return i < closed.size() ? closed[i] : open[i - closed.size()]; };
    SpansByCap by;
    std::vector<uint32_t>& spans = by.spans;
    std::vector<size_t>& capStart = by.capStart;
    spans.resize(spanCount);
    uint16_t maxCap = 0;
    for (uint32_t i = 0; i < spanCount; ++i)
        maxCap = std::max(maxCap, spanAt(i).cap);
    capStart.assign(size_t(maxCap) + 2, 0);
    for (uint32_t i = 0; i < spanCount; ++i)
        ++capStart[size_t(spanAt(i).cap) + 1];
    for (size_t c = 1; c < capStart.size(); ++c)
        capStart[c] += capStart[c - 1];
    std::vector<size_t> next(capStart.begin(), capStart.end() - 1);
    for (uint32_t i = 0; i < spanCount; ++i)
        spans[next[spanAt(i).cap]++] = i;
    for (size_t c = 0; c + 1 < capStart.size(); ++c)
        std::stable_sort(spans.begin() + ptrdiff_t(capStart[c]), spans.begin() + ptrdiff_t(capStart[c + 1]),
                         [&](uint32_t a, uint32_t b) { return spanAt(a).start < spanAt(b).start; });
    return by;
}

bool CollectionsBuilder::lead(std::vector<Collection>& out, const SpansByCap& by, std::span<const GcSpan> closed,
                              std::span<const GcSpan> open, std::vector<char>& used, const LoadObserver* observer)
{
    const auto spanAt = [&](uint32_t i) -> const GcSpan& { return i < closed.size() ? closed[i] : open[i - closed.size()]; };
    const std::vector<uint32_t>& spans = by.spans;
    const std::vector<size_t>& capStart = by.capStart;
    used.assign(spans.size(), 0);
    for (size_t i = 0; i < out.size(); ++i) {
        if (i % kCancelStride == kCancelStride - 1 && isCancelled(observer))
            return false;
        Collection& col = out[i];
        const uint64_t time = col.start;
        // The leader's span: the last of its capability starting at or
        // before the record (GHC stamps GC_END just before writing it).
        if (size_t(col.leaderCap) + 1 >= capStart.size())
            continue;
        const auto lo = spans.begin() + ptrdiff_t(capStart[col.leaderCap]);
        const auto hi = spans.begin() + ptrdiff_t(capStart[size_t(col.leaderCap) + 1]);
        const auto it = std::upper_bound(lo, hi, time, [&](uint64_t t, uint32_t g) { return t < spanAt(g).start; });
        if (it != lo) {
            const size_t k = size_t(it - spans.begin()) - 1;
            if (!used[k]) {
                used[k] = 1;
                const GcSpan& g = spanAt(spans[k]);
                col.start = col.leaderStart = g.start;
                col.end = col.leaderEnd = g.end;
                col.caps = 1;
            }
        }
    }
    return true;
}

std::vector<GcLeader> CollectionsBuilder::leaders(std::span<const GcSpan> closed, std::span<const GcSpan> open) const
{
    std::vector<Collection> out = m_stats.toVector();
    sortByStart(out);
    std::vector<char> used;
    lead(out, byCap(closed, open), closed, open, used, nullptr);
    std::vector<GcLeader> leaders;
    leaders.reserve(out.size());
    for (const Collection& col : out)
        leaders.push_back({col.leaderStart, col.leaderEnd, col.leaderCap});
    return leaders;
}

// One collection per GC_STATS_GHC record: the RTS writes exactly one for
// every collection it performs, from the capability that led it, so the
// index counts what +RTS -s counts, however the capabilities' GC spans of
// consecutive collections overlap. The leader's GC_START..GC_END around
// its record is the pause; other capabilities' spans join the collection
// whose leader span they overlap (else the one in progress when they end).
// Spans no record claims (a log without GC_STATS_GHC, older GHCs, or the
// collection a truncated log ends in) are grouped by overlap, as
// ThreadScope groups them. Requests and syncs are matched by time.
bool CollectionsBuilder::build(std::span<const GcSpan> closed, std::span<const GcSpan> open,
                               const LoadObserver* observer)
{
    const size_t spanCount = closed.size() + open.size();
    const auto spanAt = [&](uint32_t i) -> const GcSpan& { return i < closed.size() ? closed[i] : open[i - closed.size()]; };
    const SpansByCap by = byCap(closed, open);
    const std::vector<uint32_t>& spans = by.spans;
    std::sort(m_requests.begin(), m_requests.end(), [](const Request& a, const Request& b) { return a.time < b.time; });
    std::sort(m_syncs.begin(), m_syncs.end(), [](const Sync& a, const Sync& b) { return a.time < b.time; });
    // (Built here, then packed into the part: CollectionList.) One per
    // GC_STATS_GHC record, in time order.
    std::vector<Collection> out = m_stats.toVector();
    sortByStart(out);
    std::vector<char> used;
    if (!lead(out, by, closed, open, used, observer))
        return false;
    // The collections led so far, by leader start, for the other spans.
    std::vector<uint32_t> byLeader(out.size());
    for (uint32_t i = 0; i < byLeader.size(); ++i)
        byLeader[i] = i;
    std::sort(byLeader.begin(), byLeader.end(),
              [&](uint32_t a, uint32_t b) { return out[a].leaderStart < out[b].leaderStart; });
    std::vector<uint16_t> lastCapOf(out.size(), UINT16_MAX); // spans come per capability
    std::vector<GcSpan> unclaimed;
    for (size_t k = 0; k < spanCount; ++k) {
        if (used[k])
            continue;
        const GcSpan& g = spanAt(spans[k]);
        // The collection in progress when this span ends: the last one whose
        // leader started by then, if its leader span reaches this one.
        auto it = std::upper_bound(byLeader.begin(), byLeader.end(), g.end,
                                   [&](uint64_t t, uint32_t c) { return t < out[c].leaderStart; });
        if (it == byLeader.begin() || out[*(it - 1)].leaderEnd < g.start) {
            unclaimed.push_back(g);
            continue;
        }
        Collection& col = out[*(it - 1)];
        col.start = std::min(col.start, g.start);
        col.end = std::max(col.end, g.end);
        if (lastCapOf[size_t(&col - out.data())] != g.cap) {
            lastCapOf[size_t(&col - out.data())] = g.cap;
            ++col.caps;
        }
    }
    // Spans of collections without a record, grouped by overlap.
    std::sort(unclaimed.begin(), unclaimed.end(), [](const GcSpan& a, const GcSpan& b) { return a.start < b.start; });
    std::vector<uint16_t> capsIn;
    const size_t recorded = out.size();
    for (const GcSpan& g : unclaimed) {
        if (out.size() == recorded || g.start > out.back().end) {
            Collection col;
            col.start = g.start;
            col.end = g.end;
            col.leaderStart = g.start;
            col.leaderEnd = g.end;
            col.leaderCap = g.cap;
            out.push_back(col);
            capsIn.clear();
        }
        Collection& col = out.back();
        col.end = std::max(col.end, g.end);
        if (std::find(capsIn.begin(), capsIn.end(), g.cap) == capsIn.end()) {
            capsIn.push_back(g.cap);
            ++col.caps;
        }
        if (col.caps > 1) // no leader known: the whole collection is the pause
            col.leaderCap = UINT16_MAX, col.leaderStart = col.start, col.leaderEnd = col.end;
    }
    sortByStart(out);
    // Requests: the last one at or before the start, after the previous
    // collection's start. Syncs: the first from the start on, before its end.
    size_t r = 0, sy = 0;
    uint64_t previousStart = 0;
    for (size_t i = 0; i < out.size(); ++i) {
        if (i % kCancelStride == kCancelStride - 1 && isCancelled(observer))
            return false;
        Collection& col = out[i];
        while (r < m_requests.size() && m_requests[r].time <= col.start) {
            if (m_requests[r].time >= previousStart) {
                col.request = m_requests[r].time;
                col.requestCap = m_requests[r].cap;
                col.parallelRequest = m_requests[r].parallel;
            }
            ++r;
        }
        while (sy < m_syncs.size() && m_syncs[sy].time < col.start)
            ++sy;
        if (sy < m_syncs.size() && m_syncs[sy].time <= col.end)
            col.sync = m_syncs[sy].time;
        previousStart = col.start;
    }
    m_part.collections.assign(out);
    return true;
}

} // namespace hecscope
