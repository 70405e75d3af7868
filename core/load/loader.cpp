#include "core/load/loader.h"

#include "core/load/hpfile.h"
#include "core/load/hpfilereader.h"
#include "core/load/indexbuilder.h"
#include "core/load/readahead.h"

#include "core/index/chunkpool.h"

#include <chrono>
#include <string_view>

namespace hecscope {
namespace {

using Clock = std::chrono::steady_clock;
constexpr size_t kChunk = 1 << 20;

double secondsBetween(Clock::time_point a, Clock::time_point b)
{
    return std::chrono::duration<double>(b - a).count();
}

// A .hp file, streamed: no more than a chunk and a partial line of its
// text is held at a time.
void loadHeapProfile(ReadAhead& reader, std::span<const uint8_t> first, uint64_t totalBytes,
                     LoadObserver* observer, LoadResult& result)
{
    HpFileReader hp;
    uint64_t pos = 0;
    for (std::span<const uint8_t> chunk = first; !chunk.empty(); chunk = reader.next()) {
        hp.feed({reinterpret_cast<const char*>(chunk.data()), chunk.size()});
        pos += chunk.size();
        if (observer) {
            observer->progress(pos, totalBytes);
            if (observer->cancelled()) {
                result.cancelled = true;
                return;
            }
        }
    }
    const auto t0 = Clock::now();
    result.index = hp.finish(observer);
    result.cancelled = !result.index;
    result.finishSeconds = secondsBetween(t0, Clock::now());
}

} // namespace

LoadResult loadIndex(ByteSource& source, uint64_t totalBytes, LoadObserver* observer)
{
    return loadIndex(source, totalBytes, observer, {});
}

LoadResult loadIndex(ByteSource& source, uint64_t totalBytes, LoadObserver* observer, KeepInMemory keep)
{
    LoadResult result;
    const auto t0 = Clock::now();
    bool heapProfile = false;
    // (Destroyed after the builder: the chunks its arrays kept for reuse go
    // back then, not held by an open log.)
    const struct ReleaseKeptChunks {
        ~ReleaseKeptChunks() { ChunkPool::releaseAll(); }
    } releaseKeptChunks;
    IndexBuilder builder;
    if (keep.threadSegments)
        builder.keepThreadSegments();
    if (keep.spans)
        builder.keepSpansInMemory();
    if (!keep.rawThreadEvents)
        builder.settleThreadEventsEvery(keep.settleEvery, keep.settleMinEventsPerThread, keep.threadEventRun,
                                        keep.settleSlice);
    {
        ReadAhead reader(source, kChunk); // joined at the end of this scope
        const std::span<const uint8_t> first = reader.next();
        heapProfile = looksLikeHeapProfile(first);
        if (heapProfile) {
            if (observer)
                observer->accepted();
            loadHeapProfile(reader, first, totalBytes, observer, result);
        } else {
            uint64_t pos = 0;
            bool accepted = false;
            // Progressive open: snapshots at 0.08 s, 0.32 s, 1.28 s of
            // loading (at most kPartials), each only if making it should
            // take under a twentieth of the time so far (the last one's
            // cost, grown with the bytes read since: a first seal of
            // thread states walks everything), so that they cost the whole
            // load little.
            const bool partials = observer && observer->wantsPartials();
            constexpr int kPartials = 3;
            int partialCount = 0;
            double nextPartial = 0.08, partialCost = 0;
            uint64_t partialBytes = 0;
            for (std::span<const uint8_t> chunk = first; !chunk.empty(); chunk = reader.next()) {
                pos += chunk.size();
                // After DATA_END the decoder only counts what follows
                // (reported as trailing data), so read on to the end; after
                // an error, stop.
                const bool more = builder.feed(chunk);
                if (!accepted && builder.headerRead() && observer) {
                    accepted = true;
                    observer->accepted();
                }
                if (!more && builder.failed())
                    break;
                if (partials && more && accepted && partialCount < kPartials) {
                    const double now = secondsBetween(t0, Clock::now());
                    const double expected = partialBytes ? partialCost * double(pos) / double(partialBytes) : 0;
                    if (now >= nextPartial && expected < now / 20) {
                        const auto p0 = Clock::now();
                        if (!builder.publish(false, observer)) {
                            if (builder.threadEventsLost() && !observer->cancelled())
                                break; // (read again below)
                            result.cancelled = true;
                            break;
                        }
                        observer->partial(std::make_shared<const LogIndex>(builder.index()));
                        partialCost = secondsBetween(p0, Clock::now());
                        partialBytes = pos;
                        ++partialCount;
                        nextPartial = now * 4;
                    }
                }
                if (observer) {
                    observer->progress(pos, totalBytes);
                    if (observer->cancelled()) {
                        result.cancelled = true;
                        break;
                    }
                }
            }
        }
    }
    const auto t1 = Clock::now();
    if (heapProfile) {
        if (result.index)
            result.index->scan.ioError = source.error();
        result.decodeSeconds = secondsBetween(t0, t1); // finishSeconds: set above
        return result;
    }
    // The finish stage also gives way to a cancel: the index is then
    // returned as far as it got, not prepared for drawing.
    // (Thread events lost already: what a seal would make is thrown away.)
    if (!builder.threadEventsLost() && !builder.publish(true, observer))
        result.cancelled = !builder.threadEventsLost() || isCancelled(observer);
    if (!result.cancelled && builder.threadEventsLost()) {
        // A capability's thread events came earlier than those walked for
        // good (its first block late in the file: the RTS writes the only
        // block of a capability idle from the start when the program
        // ends). Once more, settling declined: the events go to runs in
        // the spill file, which the final seal merges whatever their order,
        // so that memory does not grow with them. If a run cannot be read
        // back, a last time keeping every event in memory.
        if (keep.settleMinEventsPerThread == KeepInMemory::kNeverSettle)
            keep.rawThreadEvents = true;
        else
            keep.settleMinEventsPerThread = KeepInMemory::kNeverSettle;
        return loadIndex(source, totalBytes, observer, keep);
    }
    const auto t2 = Clock::now();
    result.threadEventsMostWaiting = builder.threadEventsMostWaiting();
    result.threadEventsMostPacked = builder.threadEventsMostPacked();
    result.threadEventsInRuns = builder.threadEventsInRuns();
    result.index = builder.take();
    result.index->scan.ioError = source.error();
    result.decodeSeconds = secondsBetween(t0, t1);
    result.finishSeconds = secondsBetween(t1, t2);
    return result;
}

} // namespace hecscope
