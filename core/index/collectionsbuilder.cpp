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

// Overlapping spans are one collection; requests, syncs and GC_STATS_GHC
// are matched to collections by time.
bool CollectionsBuilder::build(std::span<const GcSpan> closed, std::span<const GcSpan> open,
                               const LoadObserver* observer)
{
    std::vector<GcSpan> spans(closed.begin(), closed.end());
    spans.insert(spans.end(), open.begin(), open.end());
    std::sort(spans.begin(), spans.end(), [](const GcSpan& a, const GcSpan& b) { return a.start < b.start; });
    auto& out = m_part.collections;
    out.clear();
    std::vector<uint16_t> capsIn;  // of the current collection (few: no per-capability table)
    std::vector<size_t> firstSpan; // per collection: its first span in `spans`
    for (size_t k = 0; k < spans.size(); ++k) {
        if (k % kCancelStride == kCancelStride - 1 && isCancelled(observer))
            return false;
        const GcSpan& g = spans[k];
        if (out.empty() || g.start > out.back().end) {
            out.push_back(Collection{});
            out.back().start = g.start;
            out.back().end = g.end;
            firstSpan.push_back(k);
            capsIn.clear();
        }
        Collection& col = out.back();
        col.end = std::max(col.end, g.end);
        if (std::find(capsIn.begin(), capsIn.end(), g.cap) == capsIn.end()) {
            capsIn.push_back(g.cap);
            ++col.caps;
        }
    }
    // Requests: the last one at or before the start, after the previous end.
    size_t r = 0, sy = 0, st = 0;
    std::sort(m_requests.begin(), m_requests.end(), [](const Request& a, const Request& b) { return a.time < b.time; });
    std::sort(m_syncs.begin(), m_syncs.end(), [](const Sync& a, const Sync& b) { return a.time < b.time; });
    std::stable_sort(m_stats.begin(), m_stats.end(), [](const Stats& a, const Stats& b) { return a.time < b.time; });
    uint64_t previousEnd = 0;
    for (size_t i = 0; i < out.size(); ++i) {
        if (i % kCancelStride == kCancelStride - 1 && isCancelled(observer))
            return false;
        Collection& col = out[i];
        while (r < m_requests.size() && m_requests[r].time <= col.start) {
            if (m_requests[r].time >= previousEnd) {
                col.request = m_requests[r].time;
                col.requestCap = m_requests[r].cap;
                col.parallelRequest = m_requests[r].parallel;
            }
            ++r;
        }
        while (sy < m_syncs.size() && m_syncs[sy].time < col.start)
            ++sy;
        uint16_t leader = col.caps == 1 ? spans[firstSpan[i]].cap : UINT16_MAX;
        if (sy < m_syncs.size() && m_syncs[sy].time <= col.end) {
            col.sync = m_syncs[sy].time;
            leader = m_syncs[sy].cap;
        }
        // GC_STATS_GHC is written by the leader just before or after its
        // GC_END: the first record from the start on, before the next one.
        const uint64_t nextStart = i + 1 < out.size() ? out[i + 1].start : kNoTime;
        while (st < m_stats.size() && m_stats[st].time < col.start)
            ++st;
        if (st < m_stats.size() && m_stats[st].time < nextStart) {
            const Stats& s = m_stats[st++];
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
            if (leader == UINT16_MAX)
                leader = s.cap;
        }
        // The leader's own GC_START..GC_END is the pause +RTS -s and
        // ThreadScope report; without a known leader, the whole collection.
        col.leaderCap = leader;
        col.leaderStart = col.start;
        col.leaderEnd = col.end;
        const size_t spansEnd = i + 1 < out.size() ? firstSpan[i + 1] : spans.size();
        for (size_t k = firstSpan[i]; k < spansEnd; ++k) {
            if (spans[k].cap == leader) {
                col.leaderStart = spans[k].start;
                col.leaderEnd = spans[k].end;
                break;
            }
        }
        previousEnd = col.end;
    }
    return true;
}

} // namespace hecscope
