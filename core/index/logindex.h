#pragma once

#include "core/format/decoder.h"
#include "core/index/collectionspart.h"
#include "core/index/concurrentgcpart.h"
#include "core/index/heappart.h"
#include "core/index/heapprofilepart.h"
#include "core/index/instantspart.h"
#include "core/index/messagespart.h"
#include "core/index/processpart.h"
#include "core/index/schedulerpart.h"
#include "core/index/threadspart.h"
#include "core/index/threadstatespart.h"
#include "core/index/tickypart.h"
#include "core/index/timeprofilepart.h"
#include "core/index/userspanspart.h"
#include "core/order/timeorder.h"
#include "core/time/timestamp.h"

#include <cstdint>
#include <vector>

namespace hecscope {

// What the decoder found and counted over the whole log (LogIndex's own
// part, made by the load itself rather than a builder).
struct RunPart {
    RunPart() = default;
    // A copy (a snapshot's) keeps the counts up to the last tag counted,
    // and at least kCountedTags: not 512 KB of 65,536 counts, nearly all 0.
    RunPart(const RunPart& o);
    RunPart& operator=(const RunPart& o);
    RunPart(RunPart&&) noexcept = default;
    RunPart& operator=(RunPart&&) noexcept = default;
    // Every tag GHC defines is below this: tagCounts[t] is in a copy too.
    static constexpr size_t kCountedTags = 256;
    LogScan scan;
    // Events per tag: 65,536 entries as a builder counts them; in a copy,
    // at least kCountedTags (any tag past the end: none).
    std::vector<uint64_t> tagCounts;
    uint64_t firstTime = kNoTime, lastTime = 0; // ns
    uint64_t eventsWithoutCap = 0;
    // A live session that keeps only its latest stretch indexes the log
    // from a block at `fromByte` on (and the start-up records before it
    // that say what the program is: capabilities, process, cost centres,
    // labels). What it left out, so that whole-run totals are these plus
    // the index's own. Nothing dropped: all zero, tagCounts empty.
    struct Dropped {
        uint64_t fromByte = 0; // the stretch's first byte
        uint64_t before = 0;   // ns: the stretch starts with the first block ending at or after this
        uint64_t events = 0;
        std::vector<uint64_t> tagCounts; // per tag
    } dropped;

    size_t partBytes() const; // (LogIndex::memoryBytes)
};

// The parts an index is made of, each a base: a part lists its fields and
// says the bytes it holds (`partBytes`), and the index copies and counts
// them all without naming one (so a new part is one more name in the list
// below, next to its builder in IndexBuilders).
template <class... Parts>
struct IndexParts : Parts... {
    size_t partsBytes() const { return (Parts::partBytes() + ... + size_t(0)); }
    // `f(part)` for each part, in the order listed (bench's breakdown).
    template <class F>
    void forEachPart(F&& f) const
    {
        (f(static_cast<const Parts&>(*this)), ...);
    }
};

// Everything the viewer and the statistics read, built in one pass over the
// log and immutable afterwards. It is the aggregate of the builders' parts
// (one builder per concern fills one part, see IndexDispatcher): timelines
// per capability, threads, collections, heap figures, heap and time
// profiles, instants on capabilities, messages, process facts and
// non-moving GC phases. Inheriting
// keeps every field reachable as `index.field`; code that needs one concern
// can include just that part's header. Raw events stay in the file; `scan`
// locates them in time order.
struct LogIndex : IndexParts<RunPart,
                             SchedulerPart,
                             ThreadsPart,
                             ThreadStatesPart,
                             CollectionsPart,
                             HeapPart,
                             HeapProfilePart,
                             InstantsPart,
                             TimeProfilePart,
                             TickyPart,
                             MessagesPart,
                             ProcessPart,
                             ConcurrentGcPart,
                             UserSpansPart> {
    LogIndex(); // takes the next serial
    // A snapshot: the same contents under a new serial (a live session
    // publishes copies while its builder goes on extending the original).
    LogIndex(const LogIndex& other);
    LogIndex& operator=(const LogIndex&) = delete;
    LogIndex(LogIndex&&) = default;
    LogIndex& operator=(LogIndex&&) = default;

    // Unique per LogIndex instance in this process (a process-wide atomic
    // counter, from 1), never reused: lets views tell which index they were
    // made for without comparing pointers (an address can be reused after
    // the old index is freed). Moving carries the serial along with the
    // contents; a copy gets a serial of its own.
    uint64_t serial = 0;

    // Bytes held by the index (capacity, not just size).
    size_t memoryBytes() const { return sizeof(LogIndex) + partsBytes(); }
};

} // namespace hecscope

