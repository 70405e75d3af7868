#pragma once

#include "core/index/loadobserver.h"
#include "core/index/logindex.h"
#include "core/io/bytesource.h"

#include <cstdint>
#include <memory>

namespace hecscope {

// Decodes `source` (of `totalBytes`, 0 if unknown) once, from the start, and
// builds its index. A cancelled load returns what was indexed so far with
// `cancelled` set (possibly no index, or one not prepared for drawing).
// Never throws on bad input: diagnostics are in index.scan.
struct LoadResult {
    std::unique_ptr<LogIndex> index;
    bool cancelled = false;
    double decodeSeconds = 0; // whole pass: decoding and indexing
    double finishSeconds = 0; // grouping collections and the like, after the pass
    // The most thread events that waited in memory for a capability that
    // fell silent (IndexBuilder::threadEventsMostWaiting), and those the
    // load wrote to runs in a temporary file instead.
    uint64_t threadEventsMostWaiting = 0;
    uint64_t threadEventsMostPacked = 0; // (IndexBuilder::threadEventsMostPacked)
    uint64_t threadEventsInRuns = 0;
};
// Reads an eventlog, or a .hp heap profile (recognised by its first line).
// The calling thread decodes; one reader thread reads the next chunk
// meanwhile and is joined before returning.
LoadResult loadIndex(ByteSource& source, uint64_t totalBytes = 0, LoadObserver* observer = nullptr);
// What a test keeps in memory that the index otherwise reads back from the
// file, to compare the two (IndexBuilder::keepThreadSegments).
struct KeepInMemory {
    bool threadSegments = false;
    // Every thread event as it came, to the end (else they are walked for
    // good every kSettleEvery of them: IndexBuilder::settleThreadEventsEvery).
    bool rawThreadEvents = false;
    size_t settleEvery = size_t(1) << 18;
    size_t settleMinEventsPerThread = 256; // (IndexBuilder::settleThreadEventsEvery)
    static constexpr size_t kNeverSettle = SIZE_MAX; // (as settleMinEventsPerThread: every event to runs)
    size_t threadEventRun = size_t(1) << 20; // (the same)
    // The capabilities' encoded spans all in memory (else moved to a
    // temporary file as the load goes and mapped back: IndexBuilder::keepSpansInMemory).
    bool spans = false;
    size_t settleSlice = 0; // (IndexBuilder::settleThreadEventsEvery; 0: its default)
};
LoadResult loadIndex(ByteSource& source, uint64_t totalBytes, LoadObserver* observer, KeepInMemory keep);

} // namespace hecscope
