#pragma once

#include "core/index/loadobserver.h"
#include "core/index/logindex.h"

#include <cstdint>
#include <memory>
#include <span>

namespace hecscope {

// Builds a LogIndex from a log's bytes fed in order, in chunks of any size:
// the whole of a file, or a file that is still growing. publish() makes the
// index consistent for queries at any point; feeding more afterwards
// extends it without starting again. One thread at a time.
class IndexBuilder {
public:
    IndexBuilder();
    ~IndexBuilder();
    IndexBuilder(const IndexBuilder&) = delete;
    IndexBuilder& operator=(const IndexBuilder&) = delete;

    // Keep every instant in memory as well as its marks (before feeding):
    // what a test compares with the instants read back from the file.
    void keepInstants();
    // Keep every thread's segments in the final index, as a live session's
    // snapshots have them (ThreadStates::moveSegmentsToFile): what a test
    // compares with the segments read back from the file.
    void keepThreadSegments();
    // Keep the capabilities' encoded spans in memory: by default those
    // before each capability's newest 64 KB of them go to a temporary file
    // as they come and are mapped back from it (CapTimeline::spillTo).
    void keepSpansInMemory();
    // Walk the thread events for good every `n` of them and let them go
    // (a whole log's load; 0: keep them to the end). If a capability's
    // events then come earlier than what was settled, threadEventsLost()
    // is true after the final publish: read the log again without.
    // Declined (every event kept) when the first settle finds fewer than
    // `minEventsPerThread` per thread (ThreadStatesBuilder::settle).
    // `runEvents`: a log that declines settling (many short threads) moves
    // its raw thread events to a temporary file every that many of them
    // (ThreadStatesBuilder::setRunEvents). `slice`: about how many events
    // a settle copies and walks at a time (ThreadStatesBuilder::setSettleSlice;
    // 0: its default).
    void settleThreadEventsEvery(size_t n, size_t minEventsPerThread = 256, size_t runEvents = size_t(1) << 20,
                                 size_t slice = 0);
    // A live session's: each publish lets the thread events it walked for
    // good go; if events then come earlier than those, threadEventsLost()
    // is true after the publish (whose thread states are then not to be
    // shown): read the recording again into a builder without this.
    void releaseSettledThreadEvents();
    bool threadEventsLost() const;
    bool threadSettlingDeclined() const;
    // A thread event came earlier than those walked for good (a
    // capability's first block late in the file), and the runs in the
    // spill file that insure those were merged instead: nothing was lost
    // (ThreadStatesBuilder::insuranceClaimed).
    bool threadEventsMergedFromInsurance() const;
    // Bytes of settled thread segments moved to a temporary file so far
    // (ThreadStatesBuilder::setSpill).
    uint64_t threadSegmentsSpilled() const;
    // Raw thread events moved to a temporary file in sorted runs so far.
    uint64_t threadEventsInRuns() const;
    // ThreadStatesBuilder::mostEventsWaiting
    uint64_t threadEventsMostWaiting() const;
    // ThreadStatesBuilder::mostEventsPacked
    uint64_t threadEventsMostPacked() const;
    uint64_t threadRunBytes() const; // (their size in the run file)
    // (ThreadStatesBuilder::rawEventBytes: after a seal, for tests)
    size_t threadRawEventBytes() const;
    // (ThreadsBuilder::setDeferFrom: for tests)
    void deferThreadCountsFrom(size_t threads);
    // (ThreadStatesBuilder::threadsBinnedAsMerged)
    uint64_t threadsBinnedAsMerged() const;
    // False once decoding has ended (end-of-data marker or an error).
    bool feed(std::span<const uint8_t> bytes);
    // A live connection broke; the next one continues the stream with its
    // header stripped (StreamDecoder::breakConnection). Returns the length
    // of the stream to keep: bytes after it (an incomplete event, an
    // end-of-data marker) are forgotten.
    uint64_t breakConnection();
    // The next bytes fed are the log's from `offset` on: those in between
    // are not indexed (StreamDecoder::skipTo), and the index's byte offsets
    // stay the log's. False (nothing done) but between records.
    bool skipTo(uint64_t offset);
    // Events decoded so far.
    uint64_t eventsDecoded() const;
    // Bytes fed so far that are an incomplete record.
    uint64_t bytesPending() const;
    // Decoding stopped at corrupt input: feeding more is pointless.
    bool failed() const;
    // The header decoded: the input is an eventlog (whatever follows).
    bool headerRead() const;
    // With `endOfInput` the log is complete: truncation is diagnosed and
    // whatever is still open ends at the last event. Without it, open runs
    // and collections are shown up to the last event provisionally, and are
    // taken back when more bytes are fed.
    const LogIndex& publish(bool endOfInput);
    // The same, stopping early once `observer` says cancelled (then
    // returns false and the index is only fit to be thrown away).
    bool publish(bool endOfInput, const LoadObserver* observer);
    const LogIndex& index() const;
    // The index, after publish(true).
    std::unique_ptr<LogIndex> take();

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace hecscope
