#include "core/threads/threadstats.h"

#include "core/index/logindex.h"

#include <algorithm>

namespace hecscope {

BlockReason blockReasonOf(const ThreadSegment& s)
{
    return stopClass(s.stop) == StopClass::ForeignCall ? BlockReason::CCall : blockReason(s.stop);
}

ThreadFigures threadFigures(const LogIndex& ix, size_t number, std::optional<ViewRange> range)
{
    const ThreadStates& states = ix.threadStates;
    ThreadFigures f;
    f.number = number;
    f.id = states.ids[number];
    if (const ThreadInfo* info = ix.thread(f.id)) {
        f.label = info->label;
        f.created = info->created;
        f.finished = info->finished;
    }
    const auto segs = states.of(number);
    if (segs.empty())
        return f;
    const uint64_t t0 = range ? range->start : 0;
    const uint64_t t1 = range ? range->end : UINT64_MAX;
    // Start at the last segment beginning before t0 (it may reach into the
    // range), so that every segment beginning at t0 counts its event, the
    // empty ones there too (several events at one time), which
    // firstEndingAfter(t0) passes over.
    const auto atOrAfter = std::lower_bound(segs.begin(), segs.end(), t0,
                                            [](const ThreadSegment& s, uint64_t v) { return s.time < v; });
    const size_t first = atOrAfter == segs.begin() ? 0 : size_t(atOrAfter - segs.begin()) - 1;
    for (size_t i = first; i < segs.size() && segs[i].time < t1; ++i) {
        const ThreadSegment& s = segs[i];
        const uint64_t a = std::max(s.time, t0), b = std::min(states.segmentEnd(segs, i), t1);
        if (b > a) {
            f.time[size_t(s.state)] += b - a;
            if (s.state == ThreadState::Blocked)
                f.blocked[size_t(blockReasonOf(s))] += b - a;
        }
        if (s.time < t0)
            continue;
        switch (s.cause) {
        case ThreadCause::Run: ++f.runs; break;
        case ThreadCause::Migrate: ++f.migrations; break;
        case ThreadCause::Wakeup: ++f.wakeups; break;
        default: break;
        }
    }
    return f;
}

std::vector<ThreadFigures> allThreadFigures(const LogIndex& ix, std::optional<ViewRange> range,
                                            const std::function<bool()>& cancelled)
{
    const ThreadStates& states = ix.threadStates;
    std::vector<ThreadFigures> out;
    out.reserve(states.count());
    for (size_t k = 0; k < states.count(); ++k) {
        if ((k & 0x3FF) == 0 && cancelled && cancelled())
            return {};
        if (range) {
            const auto segs = states.of(k);
            // A thread finished before the range is not in it.
            const uint64_t lastEnd = segs.empty()                              ? 0
                : segs.back().state == ThreadState::Finished ? segs.back().time
                                                             : states.segmentEnd(segs, segs.size() - 1);
            if (segs.empty() || segs.front().time >= range->end || lastEnd <= range->start)
                continue;
        }
        out.push_back(threadFigures(ix, k, range));
    }
    return out;
}

} // namespace hecscope
