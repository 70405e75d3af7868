#pragma once

#include "core/format/diagnostic.h"
#include "core/format/event.h"
#include "core/format/headerparser.h"
#include "core/format/logformat.h"
#include "core/format/recorddecoder.h"

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace hecscope {

// Receives what a StreamDecoder decodes, in file order, on the feeding thread.
class EventSink {
public:
    virtual ~EventSink() = default;
    virtual void onHeader(const std::shared_ptr<const LogFormat>& format) { (void)format; }
    // `event` and the bytes it points to are valid only during the call.
    virtual void onEvent(const Event& event) = 0;
};

// Incremental eventlog decoder. Bytes may be fed in chunks of any size, ending
// anywhere (inside the header or an event); every complete event is delivered
// as soon as its last byte arrives, with its capability assigned from the
// enclosing block (eventlog-format.md 1.7). Only an incomplete record's bytes
// are copied; everything else is decoded in place.
//
// Never throws. Bad input ends decoding with an error Diagnostic naming the
// byte offset; everything delivered before stays valid. finish() reports a
// truncated tail as a warning. Not thread-safe: one feeding thread.
//
// Times are checked against the block that holds the record (its bytes, as
// the marker's block_size counts them): GHC stamps the marker with the time
// the buffer began and its end_time when it was flushed, and posts in
// between in time order. A record stamped after its block's end, or earlier
// than its block's start or the latest time before it in the block, is
// damage (a garbage time would otherwise become the run's end): decoding
// ends there with BadEventTime, before that record. Except: GHC posts
// GC_START / GC_END with times its statistics took earlier
// (traceEventGc*AtT), so they may step back (even before a block begun
// meanwhile), and Eden's CREATE_MACHINE carries the machine's own start
// time; these must still not pass the block's end. A marker whose end_time
// is before its own time is damage too. Records outside any block (before
// the first marker, after a block's bytes: GHC 6.12's STARTUP, Mercury's
// start-up events) declare no span and are not checked.
class StreamDecoder {
public:
    enum class State : uint8_t { Header, Events, Ended, Failed };

    explicit StreamDecoder(EventSink& sink);

    // Returns false once decoding has stopped (DATA_END or an error); later
    // bytes are only counted.
    bool feed(std::span<const uint8_t> bytes);
    // The input is complete: reports a truncated header, event or missing
    // DATA_END, and data after DATA_END.
    void finish();

    // A live connection broke and the next one continues the same stream
    // (its header already stripped): forgets an incomplete record, an
    // end-of-data marker and the current block, and returns the stream
    // offset at which the continuation's bytes are taken. Only in the
    // Events state, or Ended by DATA_END before finish().
    uint64_t breakConnection();

    // Goes on at stream offset `offset` (at or past the next record's):
    // the bytes fed next are the record there. The bytes in between are
    // taken as read (a block's own count included) but not delivered: a
    // live session that keeps only the latest stretch of its recording
    // reads the header, a few records and then that stretch. False (and
    // nothing done) but between records in the Events state.
    bool skipTo(uint64_t offset);

    State state() const { return m_state; }
    const std::shared_ptr<const LogFormat>& format() const { return m_format; }
    const std::vector<Diagnostic>& diagnostics() const { return m_diagnostics; }
    uint64_t eventCount() const { return m_events; }
    // Stream offset just past the last complete record (or header).
    uint64_t decodedBytes() const { return m_base; }
    bool sawDataEnd() const { return m_sawDataEnd; }
    bool hasError() const;
    bool truncated() const;

private:
    void parseHeader();
    // Decodes complete records from [p, p+n); returns bytes consumed.
    size_t decodeRecords(const uint8_t* p, size_t n);
    // Records the error that stops decoding at `record`.
    void handle(RecordStatus status, const uint8_t* record);
    // Delivers the decoded record of `size` bytes; false (and decoding
    // failed) when its time contradicts its block.
    bool deliver(uint32_t size);
    // Whether a marker, or a record inside a block, fits its block (see
    // above); fails decoding if not.
    bool timeFits(const Event& e);
    void fail(DiagnosticKind kind, std::string detail);

    EventSink& m_sink;
    State m_state = State::Header;
    std::shared_ptr<const LogFormat> m_format;
    std::vector<uint8_t> m_pending; // bytes of an incomplete header or record
    size_t m_pendingNeeded = 4;     // m_pending must reach this size to progress
    HeaderResume m_headerResume;    // where the last incomplete header parse stopped
    uint64_t m_base = 0;            // stream offset of m_pending[0] / next record
    uint64_t m_events = 0;
    uint64_t m_ignored = 0; // bytes fed after decoding stopped
    bool m_sawDataEnd = false;
    bool m_finished = false;
    // Block ownership (1.7): capability of the current block and its bytes left.
    uint16_t m_blockCap = kNoCap;
    int64_t m_blockRemaining = 0;
    // The current block's span (its marker's time and end_time), where its
    // marker is, and the latest time in it so far.
    uint64_t m_blockStart = 0;
    uint64_t m_blockEnd = 0;
    uint64_t m_blockOffset = 0;
    uint64_t m_blockLatest = 0;
    Event m_event;
    std::vector<Diagnostic> m_diagnostics;
};

} // namespace hecscope
