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
    : IndexParts(o)
    , serial(nextSerial())
{
}

RunPart::RunPart(const RunPart& o)
    : scan(o.scan)
    , firstTime(o.firstTime)
    , lastTime(o.lastTime)
    , eventsWithoutCap(o.eventsWithoutCap)
    , dropped(o.dropped)
{
    size_t n = o.tagCounts.size();
    while (n > kCountedTags && o.tagCounts[n - 1] == 0)
        --n;
    tagCounts.assign(o.tagCounts.begin(), o.tagCounts.begin() + ptrdiff_t(n));
}

RunPart& RunPart::operator=(const RunPart& o)
{
    if (this != &o)
        *this = RunPart(o);
    return *this;
}

size_t RunPart::partBytes() const
{
    return scan.pieces.capacity() * sizeof(Piece) + scan.checkpoints.capacity() * sizeof(Checkpoint)
        + scan.blocks.capacity() * sizeof(LogScan::Block) + scan.startupRecords.capacity() * sizeof(scan.startupRecords[0])
        + (tagCounts.capacity() + dropped.tagCounts.capacity()) * sizeof(uint64_t);
}

size_t TimeProfilePart::partBytes() const
{
    size_t bytes = timeProfile.samples.capacity() * sizeof(TimeProfileData::Sample)
        + (timeProfile.tree ? timeProfile.tree->memoryBytes() : 0);
    for (const auto& stack : timeProfile.stacks)
        bytes += sizeof(stack) + stack.capacity() * sizeof(uint32_t);
    return bytes;
}

} // namespace hecscope
