#include "core/threads/threadstats.h"

#include "core/index/logindex.h"

#include <algorithm>

namespace hecscope {

BlockReason blockReasonOf(const ThreadSegment& s)
{
    return stopClass(s.stop) == StopClass::ForeignCall ? BlockReason::CCall : blockReason(s.stop);
}

namespace {

// Where thread `number`'s segments of `range` are: the index's, or the
// detail read back (its own numbering); null when neither has them.
std::pair<const ThreadStates*, size_t> segmentsOf(const LogIndex& ix, size_t number, const ThreadStates* detail)
{
    const ThreadStates& states = ix.threadStates;
    if (!states.inFileOnly(number))
        return {&states, number};
    if (!detail)
        return {nullptr, 0};
    const size_t g = detail->find(states.ids[number]);
    return g == SIZE_MAX ? std::pair<const ThreadStates*, size_t>{nullptr, 0} : std::pair{detail, g};
}

} // namespace

ThreadFigures threadFigures(const LogIndex& ix, size_t number, std::optional<ViewRange> range,
                            const ThreadStates* detail)
{
    const ThreadStates& states = ix.threadStates;
    ThreadFigures f;
    f.number = number;
    f.id = states.ids[number];
    if (const std::optional<ThreadInfo> info = ix.thread(f.id)) {
        f.label = info->label;
        f.created = info->created;
        f.finished = info->finished;
    }
    ThreadTotals totals;
    if (const std::optional<ThreadTotals> whole = states.wholeRunOf(number); whole && !range)
        totals = *whole;
    else if (const auto [from, k] = segmentsOf(ix, number, detail); from)
        totals = threadTotals(*from, k, range ? range->start : 0, range ? range->end : UINT64_MAX);
    f.time = totals.time;
    f.blocked = totals.blocked;
    f.runs = totals.runs;
    f.migrations = totals.migrations;
    f.wakeups = totals.wakeups;
    return f;
}

bool threadInRange(const ThreadStates& states, size_t k, ViewRange range)
{
    const auto segs = states.of(k);
    // A thread finished before the range is not in it.
    const uint64_t lastEnd = segs.empty()                              ? 0
        : segs.back().state == ThreadState::Finished ? segs.back().time
                                                     : states.segmentEnd(segs, segs.size() - 1);
    return !segs.empty() && segs.front().time < range.end && lastEnd > range.start;
}

std::optional<ThreadFigures> threadFiguresInRange(const LogIndex& ix, size_t number, ViewRange range,
                                                  const ThreadStates* detail)
{
    const auto [from, k] = segmentsOf(ix, number, detail);
    if (!from || !threadInRange(*from, k, range))
        return std::nullopt;
    return threadFigures(ix, number, range, detail);
}

std::vector<ThreadFigures> allThreadFigures(const LogIndex& ix, std::optional<ViewRange> range,
                                            const std::function<bool()>& cancelled, const ThreadStates* detail)
{
    const ThreadStates& states = ix.threadStates;
    std::vector<ThreadFigures> out;
    out.reserve(states.count());
    for (size_t k = 0; k < states.count(); ++k) {
        if ((k & 0x3FF) == 0 && cancelled && cancelled())
            return {};
        if (!range)
            out.push_back(threadFigures(ix, k, range, detail));
        else if (std::optional<ThreadFigures> f = threadFiguresInRange(ix, k, *range, detail))
            out.push_back(std::move(*f));
    }
    return out;
}

} // namespace hecscope
