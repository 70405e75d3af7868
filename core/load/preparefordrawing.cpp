#include "core/load/preparefordrawing.h"

#include "core/index/logindex.h"
#include "core/index/sampletree.h"
#include "core/threads/userspans.h"

#include <algorithm>
#include <memory>
#include <vector>

namespace hecscope {
namespace {

std::vector<uint32_t> orderBy(size_t n, auto time)
{
    std::vector<uint32_t> order(n);
    for (size_t i = 0; i < n; ++i)
        order[i] = uint32_t(i);
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return time(a) < time(b); });
    return order;
}

} // namespace

void prepareForDrawing(LogIndex& ix)
{
    prepareForDrawing(ix, nullptr);
}

bool prepareForDrawing(LogIndex& ix, const LoadObserver* observer)
{
    ix.messagesByTime = orderBy(ix.messages.size(), [&](uint32_t i) { return ix.messages[i].time; });
    for (CapInstants& c : ix.keptInstants)
        c.sortByTime();
    if (isCancelled(observer))
        return false;
    auto& samples = ix.timeProfile.samples; // several capabilities' blocks: not in time order
    std::stable_sort(samples.begin(), samples.end(), [](const TimeProfileData::Sample& a, const TimeProfileData::Sample& b) {
        return a.time < b.time || (a.time == b.time && a.cap < b.cap);
    });
    ix.timeProfile.tree = buildSampleTree(ix.timeProfile, ix.costCentres);
    if (isCancelled(observer))
        return false;
    ix.userSpans = pairUserSpans(ix, SpanRules{}, [observer] { return isCancelled(observer); });
    if (!ix.userSpans)
        return false;
    ix.heap = heapSeries(ix);
    if (isCancelled(observer))
        return false;
    ix.heapBands = computeHeapBands(ix.heapProfile, ix.ipes, [observer] { return isCancelled(observer); });
    if (isCancelled(observer))
        return false;
    ix.defaultBands = std::make_shared<const BandSelection>(selectBands(ix.heapProfile, ix.heapBands));
    return true;
}

} // namespace hecscope
