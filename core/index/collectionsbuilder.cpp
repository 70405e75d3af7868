#include "core/index/collectionsbuilder.h"

#include "core/format/eventtags.h"

#include <algorithm>

namespace hecscope {
namespace {

// Collections between two looks at the observer: a few microseconds' work.
constexpr size_t kCancelStride = 4096;

} // namespace

void CollectionsBuilder::consume(const Event& e)
{
    switch (e.tag) {
    case tag::RequestSeqGc:
    case tag::RequestParGc: m_requests.push_back({e.time, e.cap, e.tag == tag::RequestParGc}); break;
    case tag::GcGlobalSync: m_syncs.push_back({e.time, e.cap}); break;
    case tag::GcStatsGhc: {
        Stats st{e.time, {}, e.layout >= 58, e.cap};
        std::copy(e.n, e.n + 9, st.n);
        m_stats.push_back(st);
        break;
    }
    default: break;
    }
}

namespace {

Collection fromStats(const auto& s)
{
    Collection col;
    col.hasStats = true;
    col.generation = int(s.n[1]);
    col.copied = s.n[2];
    col.slop = s.n[3];
    col.fragmentation = s.n[4];
    col.parThreads = uint32_t(s.n[5]);
    col.parMaxCopied = s.n[6];
    col.parTotCopied = s.n[7];
    col.parBalancedCopied = s.balanced ? s.n[8] : 0;
    col.hasBalanced = s.balanced;
    return col;
}

} // namespace

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
    std::vector<GcSpan> spans(closed.begin(), closed.end());
    spans.insert(spans.end(), open.begin(), open.end());
    std::sort(spans.begin(), spans.end(), [](const GcSpan& a, const GcSpan& b) {
        return a.cap != b.cap ? a.cap < b.cap : a.start < b.start;
    });
    std::stable_sort(m_stats.begin(), m_stats.end(), [](const Stats& a, const Stats& b) { return a.time < b.time; });
    std::sort(m_requests.begin(), m_requests.end(), [](const Request& a, const Request& b) { return a.time < b.time; });
    std::sort(m_syncs.begin(), m_syncs.end(), [](const Sync& a, const Sync& b) { return a.time < b.time; });
    // (Built here, then packed into the part: CollectionList.)
    std::vector<Collection> out;
    out.reserve(m_stats.size());
    std::vector<char> used(spans.size(), 0);
    // The spans of one capability: [first, last) in `spans`.
    const auto capRange = [&](uint16_t cap) {
        const auto lo = std::lower_bound(spans.begin(), spans.end(), cap,
                                         [](const GcSpan& g, uint16_t c) { return g.cap < c; });
        const auto hi = std::upper_bound(lo, spans.end(), cap, [](uint16_t c, const GcSpan& g) { return c < g.cap; });
        return std::pair{size_t(lo - spans.begin()), size_t(hi - spans.begin())};
    };
    for (size_t i = 0; i < m_stats.size(); ++i) {
        if (i % kCancelStride == kCancelStride - 1 && isCancelled(observer))
            return false;
        const Stats& s = m_stats[i];
        Collection col = fromStats(s);
        col.leaderCap = s.cap;
        col.start = col.end = col.leaderStart = col.leaderEnd = s.time;
        // The leader's span: the last of its capability starting at or
        // before the record (GHC stamps GC_END just before writing it).
        const auto [lo, hi] = capRange(s.cap);
        const auto it = std::upper_bound(spans.begin() + ptrdiff_t(lo), spans.begin() + ptrdiff_t(hi), s.time,
                                         [](uint64_t t, const GcSpan& g) { return t < g.start; });
        if (it != spans.begin() + ptrdiff_t(lo)) {
            const size_t k = size_t(it - spans.begin()) - 1;
            if (!used[k]) {
                used[k] = 1;
                col.start = col.leaderStart = spans[k].start;
                col.end = col.leaderEnd = spans[k].end;
                col.caps = 1;
            }
        }
        out.push_back(col);
    }
    // The collections led so far, by leader start, for the other spans.
    std::vector<uint32_t> byLeader(out.size());
    for (uint32_t i = 0; i < byLeader.size(); ++i)
        byLeader[i] = i;
    std::sort(byLeader.begin(), byLeader.end(),
              [&](uint32_t a, uint32_t b) { return out[a].leaderStart < out[b].leaderStart; });
    std::vector<uint16_t> lastCapOf(out.size(), UINT16_MAX); // spans come per capability
    std::vector<GcSpan> unclaimed;
    for (size_t k = 0; k < spans.size(); ++k) {
        if (used[k])
            continue;
        const GcSpan& g = spans[k];
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
    std::stable_sort(out.begin(), out.end(), [](const Collection& a, const Collection& b) { return a.start < b.start; });
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
