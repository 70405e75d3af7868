#pragma once

#include "core/format/decoder.h"
#include "core/heap/heapbands.h"
#include "core/index/series.h"
#include "core/index/timeline.h"
#include "core/order/timeorder.h"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace hecscope {


// Why a thread stopped, grouped as ThreadScope and the RTS name them.
enum class StopClass : uint8_t {
    HeapOverflow, StackOverflow, Yield, Blocked, Finished, ForeignCall, Other
};

// Blocking reasons (STOP_THREAD codes >= 7, and 4 for GHC 6.12/7.0).
enum class BlockReason : uint8_t {
    MVar, MVarRead, BlackHole, Read, Write, Delay, Stm, DoProc, CCall, ThrowTo, Other
};
constexpr size_t kBlockReasons = 11;

// What a thread did over the whole log.
struct ThreadInfo {
    uint32_t id = 0;
    uint64_t created = kNoTime;
    uint64_t finished = kNoTime;
    uint64_t firstRun = kNoTime;
    uint64_t lastStop = kNoTime;
    uint64_t runTime = 0; // ns in Running spans
    uint32_t runs = 0;
    uint32_t runnable = 0;   // THREAD_RUNNABLE
    uint32_t wakeups = 0;    // THREAD_WAKEUP naming it
    uint32_t migrations = 0; // MIGRATE_THREAD
    uint32_t yields = 0;
    uint32_t heapOverflows = 0;
    uint32_t stackOverflows = 0;
    uint32_t foreignCalls = 0;
    std::array<uint32_t, kBlockReasons> blocked{};
    uint16_t createdOn = UINT16_MAX; // capability
    bool seen = false;
    std::string label;
};

// One garbage collection, from the capabilities' GC_START/GC_END spans
// grouped by overlap, with the request, global sync and GC_STATS_GHC that
// belong to it.
struct Collection {
    uint64_t start = 0; // earliest GC_START
    uint64_t end = 0;   // latest GC_END
    // The collection as its leader saw it (the capability that wrote
    // GC_GLOBAL_SYNC, else GC_STATS_GHC): the pause +RTS -s and ThreadScope
    // report. [start, end] when no leader is known.
    uint64_t leaderStart = 0, leaderEnd = 0;
    uint16_t leaderCap = UINT16_MAX;
    uint64_t request = kNoTime;
    uint64_t sync = kNoTime; // GC_GLOBAL_SYNC
    bool parallelRequest = false;
    uint16_t requestCap = UINT16_MAX;
    uint16_t caps = 0; // capabilities that took part
    bool hasStats = false;
    int generation = -1;
    uint64_t copied = 0, slop = 0, fragmentation = 0;
    uint32_t parThreads = 0;
    uint64_t parMaxCopied = 0, parTotCopied = 0, parBalancedCopied = 0;
    bool hasBalanced = false;

    uint64_t pause() const { return leaderEnd - leaderStart; }
    // As GHC counts it: more than one GC thread (GC_STATS_GHC).
    bool parallel() const { return parThreads > 1; }
};

// A heap figure. HEAP_ALLOCATED is written by each capability for its own
// allocation, so `cap` matters when summing.
struct Sample {
    uint64_t time = 0;
    uint64_t value = 0;
    uint32_t capset = 0;
    uint16_t cap = UINT16_MAX;
};

struct SparkCounters {
    uint64_t time = 0;
    uint64_t created = 0, dud = 0, overflowed = 0, converted = 0, gcd = 0, fizzled = 0, remaining = 0;
};

// Individual spark events (-lf): kind is the tag (SPARK_CREATE ... SPARK_GC).
struct SparkEvent {
    uint64_t time = 0;
    uint32_t other = 0; // SPARK_STEAL: the victim capability
    uint16_t cap = 0;
    uint16_t tag = 0;
};

struct Capability {
    CapTimeline timeline;
    std::vector<SparkCounters> sparks;
    uint64_t created = kNoTime, deleted = kNoTime;
    uint64_t firstEvent = kNoTime, lastEvent = 0;
    uint64_t events = 0;
    uint64_t sparkEvents[7] = {}; // SPARK_CREATE .. SPARK_GC
    uint64_t outOfOrder = 0; // events earlier than the capability's previous one
};

// Text kept for markers, messages, labels, ...: one arena, 12-byte refs.
struct TextRef {
    uint64_t offset = 0;
    uint32_t length = 0;
};

struct Message {
    enum Kind : uint8_t { Marker, User, Log, Binary };
    uint64_t time = 0;
    uint16_t cap = UINT16_MAX;
    Kind kind = User;
    TextRef text;
};

struct Capset {
    uint32_t id = 0;
    uint16_t type = 0;
    std::vector<uint16_t> caps;
    uint64_t created = kNoTime, deleted = kNoTime;
    std::string rtsIdentifier;
    std::vector<std::string> args, env;
    uint64_t pid = 0, ppid = 0;
    bool hasPid = false, hasPpid = false;
    uint64_t wallSeconds = 0, wallNanoseconds = 0, wallAt = kNoTime;
};

struct HeapInfo {
    uint64_t time = 0;
    uint32_t capset = 0;
    uint32_t generations = 0;
    uint64_t maxHeap = 0, allocArea = 0, mblockSize = 0, blockSize = 0;
};

struct MemReturn {
    uint64_t time = 0;
    uint32_t capset = 0, current = 0, needed = 0, returned = 0;
};

struct TimeProfileData {
    uint64_t tickInterval = 0;
    struct Sample {
        uint64_t time;
        uint64_t tick;
        uint32_t stack; // index into stacks
        uint16_t cap;
    };
    std::vector<Sample> samples;
    std::vector<std::vector<uint32_t>> stacks; // cost-centre ids, innermost first
};

struct TickyCounter {
    uint64_t id = 0;
    uint16_t arity = 0;
    std::string kinds, name;
};

struct TickySample {
    uint64_t time = 0;
    uint64_t id = 0, entries = 0, allocs = 0, allocd = 0;
};

// Non-moving collector phases (CONC_MARK/SYNC/SWEEP begin..end).
struct ConcurrentSpan {
    enum Kind : uint8_t { Mark, Sync, Sweep };
    uint64_t start = 0, end = 0;
    Kind kind = Mark;
    uint32_t markedObjects = 0; // CONC_MARK_END
};

// Everything the viewer and the statistics read, built in one pass over the
// log and immutable afterwards: timelines per capability, threads,
// collections, heap and spark samples, profiles, messages and process facts.
// Raw events stay in the file; `scan` locates them in time order.
struct LogIndex {
    LogScan scan;
    std::vector<Capability> caps;
    std::vector<ThreadInfo> threads; // by id; entries with seen == false are gaps
    std::map<uint32_t, ThreadInfo> largeThreads; // ids far beyond the others (or >= 2^24)
    std::vector<Collection> collections;
    std::vector<Sample> heapAllocated, heapSize, heapLive, blocksSize;
    std::vector<HeapInfo> heapInfo;
    std::vector<MemReturn> memReturns;
    std::vector<SparkEvent> sparkEvents;
    std::vector<Message> messages;
    std::string text; // message arena
    std::vector<Capset> capsets;
    std::map<uint32_t, CostCentre> costCentres;
    HeapProfileData heapProfile;
    TimeProfileData timeProfile;
    std::vector<Ipe> ipes;
    std::vector<TickyCounter> tickyCounters;
    std::vector<TickySample> tickySamples;
    std::vector<ConcurrentSpan> concurrent;
    std::vector<uint64_t> tagCounts; // events per tag (65536 entries)
    // For drawing, prepared when the index is published (on the loading
    // thread): messages and collections in time order, heap figures as series.
    std::vector<uint32_t> messagesByTime;    // indices into messages
    std::vector<uint32_t> collectionsByStart; // indices into collections
    HeapSeries heap;
    HeapBands heapBands; // the heap profile's censuses in time order and band figures
    std::shared_ptr<const BandSelection> defaultBands; // top 15 by size, for the first paint
    std::optional<HpHeader> hpFile; // read from a .hp heap profile, not an eventlog
    uint64_t firstTime = kNoTime, lastTime = 0;
    uint64_t eventsWithoutCap = 0;
    uint64_t unrepresentableSpans = 0; // starting after 78 hours: not in timelines
    uint64_t clippedSpans = 0;         // long runs cut to 2^32 ns (damaged timestamps)
    uint64_t tasks = 0;

    std::string_view textOf(TextRef r) const { return {text.data() + r.offset, r.length}; }
    size_t threadCount() const;
    const ThreadInfo* thread(uint32_t id) const;
    // Bytes held by the index (capacity, not just size).
    size_t memoryBytes() const;
};

// Progress and cancellation for long loads. Both may be called from the
// loading thread; implementations must be thread-safe.
class LoadObserver {
public:
    virtual ~LoadObserver() = default;
    virtual void progress(uint64_t bytesRead, uint64_t bytesTotal) { (void)bytesRead, (void)bytesTotal; }
    virtual bool cancelled() const { return false; }
};

// Builds a LogIndex from a log's bytes fed in order, in chunks of any size:
// the whole of a file, or a file that is still growing. publish() makes the
// index consistent for queries at any point; feeding more afterwards
// extends it without starting again.
class IndexBuilder {
public:
    IndexBuilder();
    ~IndexBuilder();
    IndexBuilder(const IndexBuilder&) = delete;
    IndexBuilder& operator=(const IndexBuilder&) = delete;

    // False once decoding has ended (end-of-data marker or an error).
    bool feed(std::span<const uint8_t> bytes);
    // Decoding stopped at corrupt input: feeding more is pointless.
    bool failed() const;
    // With `endOfInput` the log is complete: truncation is diagnosed and
    // whatever is still open ends at the last event. Without it, open runs
    // and collections are shown up to the last event provisionally, and are
    // taken back when more bytes are fed.
    const LogIndex& publish(bool endOfInput);
    const LogIndex& index() const;
    // The index, after publish(true).
    std::unique_ptr<LogIndex> take();

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

// Decodes `source` (of `totalBytes`, 0 if unknown) once, from the start, and
// builds its index. A cancelled load returns what was indexed so far with
// `cancelled` set. Never throws on bad input: diagnostics are in index.scan.
struct LoadResult {
    std::unique_ptr<LogIndex> index;
    bool cancelled = false;
    double decodeSeconds = 0; // whole pass: decoding and indexing
    double finishSeconds = 0; // grouping collections and the like, after the pass
};
// Sorts what the views draw and computes the heap bands (done by publish()).
void prepareForDrawing(LogIndex& ix);
// Reads an eventlog, or a .hp heap profile (recognised by its first line).
LoadResult loadIndex(ByteSource& source, uint64_t totalBytes = 0, LoadObserver* observer = nullptr);

StopClass stopClass(uint8_t standardCode);
BlockReason blockReason(uint8_t standardCode); // for StopClass::Blocked
const char* blockReasonName(BlockReason r);

} // namespace hecscope
