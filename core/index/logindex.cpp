#include "core/index/logindex.h"

#include "core/index/sampletree.h"

#include <atomic>

namespace hecscope {
namespace {

// Process-wide; relaxed is enough: only uniqueness matters, not order.
uint64_t nextSerial()
{
    static std::atomic<uint64_t> counter{0};
    return counter.fetch_add(1, std::memory_order_relaxed) + 1;
}

} // namespace

LogIndex::LogIndex()
    : serial(nextSerial())
{
}

LogIndex::LogIndex(const LogIndex& o)
    : SchedulerPart(o)
    , ThreadsPart(o)
    , ThreadStatesPart(o)
    , CollectionsPart(o)
    , HeapPart(o)
    , HeapProfilePart(o)
    , InstantsPart(o)
    , TimeProfilePart(o)
    , MessagesPart(o)
    , ProcessPart(o)
    , ConcurrentGcPart(o)
    , UserSpansPart(o)
    , scan(o.scan)
    , tagCounts(o.tagCounts)
    , firstTime(o.firstTime)
    , lastTime(o.lastTime)
    , eventsWithoutCap(o.eventsWithoutCap)
    , dropped(o.dropped)
    , serial(nextSerial())
{
}

size_t LogIndex::memoryBytes() const
{
    size_t bytes = sizeof(LogIndex) + scan.pieces.capacity() * sizeof(Piece)
        + scan.checkpoints.capacity() * sizeof(Checkpoint) + scan.blocks.capacity() * sizeof(LogScan::Block)
        + scan.startupRecords.capacity() * sizeof(scan.startupRecords[0]) + tagCounts.capacity() * sizeof(uint64_t)
        + threads.capacity() * sizeof(ThreadInfo) + labelTexts->size() * sizeof(std::string)
        + collections.capacity() * sizeof(Collection)
        + messages.capacity() * sizeof(Message)
        + text.capacity() + heapProfile.samples.capacity() * sizeof(HeapProfileData::Entry)
        + timeProfile.samples.capacity() * sizeof(TimeProfileData::Sample)
        + (heapAllocated.capacity() + heapSize.capacity() + heapLive.capacity()
           + blocksSize.capacity())
            * sizeof(Sample)
        + (messagesByTime.capacity() + collectionsByStart.capacity()) * sizeof(uint32_t)
        + (heap.size.capacity() + heap.blocks.capacity() + heap.live.capacity() + heap.allocated.capacity())
            * sizeof(SeriesPoint)
        + threadStates.memoryBytes() + threadCheckpoints.memoryBytes() + (userSpans ? userSpans->memoryBytes() : 0)
        + (timeProfile.tree ? timeProfile.tree->memoryBytes() : 0);
    for (const auto& stack : timeProfile.stacks)
        bytes += sizeof(stack) + stack.capacity() * sizeof(uint32_t);
    for (const CapInstantMarks& c : instants)
        bytes += sizeof(CapInstantMarks) + c.memoryBytes();
    for (const CapInstants& c : keptInstants)
        bytes += sizeof(CapInstants) + c.memoryBytes();
    for (const Capability& c : caps)
        bytes += sizeof(Capability) + c.timeline.memoryBytes() + c.sparks.capacity() * sizeof(SparkCounters);
    return bytes;
}

} // namespace hecscope
