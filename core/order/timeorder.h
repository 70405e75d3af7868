#pragma once

#include "core/io/bytesource.h"
#include "core/format/decoder.h"

#include <bitset>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <vector>

namespace hecscope {

// A record whose position lets a reader start mid-piece: every event before
// it in its piece has a time <= `time`.
// Event types, for skipping: bit t for tag t < 255, bit 255 for all others.
using TagMask = std::bitset<256>;
inline size_t tagBit(uint16_t tag) { return tag < 255 ? tag : 255; }

struct Checkpoint {
    uint64_t time = 0;    // ns
    uint64_t offset = 0;  // byte offset of the record
    uint64_t ordinal = 0; // events in its piece before it
    TagMask tags;         // tags of the events from here to the next checkpoint
};

// A contiguous byte range of records with one capability whose timestamps
// never decrease. GHC writes per-capability blocks already in time order, so
// a log is a handful of such pieces per block.
struct Piece {
    uint64_t begin = 0; // offset of the first record
    uint64_t end = 0;   // offset just past the last record
    uint64_t firstTime = 0;
    uint64_t lastTime = 0;
    uint16_t cap = kNoCap;
    uint32_t firstCheckpoint = 0; // index into LogScan::checkpoints
    uint32_t checkpointCount = 0;
    uint64_t events = 0;
};

// The result of one sequential pass over a log: its format, diagnostics and
// the pieces that let a second pass visit events in time order without
// holding them in memory.
struct LogScan {
    std::shared_ptr<const LogFormat> format; // null when the header failed
    std::vector<Diagnostic> diagnostics;
    // Empty when `ordered` is false: a pathologically unordered log (more
    // than TimeOrder's run limit) would need a piece per few events.
    std::vector<Piece> pieces;
    std::vector<Checkpoint> checkpoints; // about one per 64 KiB of each piece
    // Where each block begins (its marker record) and the time its events
    // end, in file order: a live session that keeps only its latest
    // stretch reads the log again from one of them.
    struct Block {
        uint64_t offset = 0;   // of its marker record
        uint64_t endTime = 0;  // ns
        uint64_t end = 0;      // offset just past its last record (the marker's block size)
        uint16_t cap = kNoCap; // whose events it holds (kNoCap: the global block)
    };
    std::vector<Block> blocks;
    // The records that say what the program is (the start-up tags given to
    // PieceCollector), each after its block's marker record, by offset and
    // size in file order: a live session keeping its latest stretch reads
    // them again.
    std::vector<std::pair<uint64_t, uint32_t>> startupRecords;
    bool ordered = true;
    uint64_t events = 0;
    uint64_t bytes = 0; // bytes read
    bool hasError = false;
    bool truncated = false;
    std::string ioError;
};

// Packs pieces, in file order, into runs: chains whose times never decrease
// from one piece to the next (any capabilities). Each piece joins the run
// ending latest at or before its first time (best fit), else starts a run.
// Few runs remain even though GHC stamps some events (GC_END) before ones
// it writes ahead of them, which steps a capability's time back a little.
class RunPacker {
public:
    // Returns the run the piece joined.
    size_t place(uint64_t firstTime, uint64_t lastTime);
    size_t runs() const { return m_runs; }

private:
    std::multimap<uint64_t, size_t> m_ends; // last time -> run
    size_t m_runs = 0;
};

// Records the pieces and checkpoints of a LogScan from events in file order,
// passing every event on to `observer` (if any), and the start-up records:
// those whose tag `startupTags` marks (indexed by tag; the index's builders
// say which: IndexDispatcher::startupTags). scanLog uses it (no start-up
// records); so does anything that decodes a log incrementally.
class PieceCollector final : public EventSink {
public:
    PieceCollector(LogScan& scan, EventSink* observer, std::span<const uint8_t> startupTags = {})
        : m_scan(scan)
        , m_observer(observer)
        , m_startupTags(startupTags)
    {
    }
    void onHeader(const std::shared_ptr<const LogFormat>& format) override;
    void onEvent(const Event& e) override;

private:
    void giveUpOrder();

    LogScan& m_scan;
    EventSink* m_observer;
    std::span<const uint8_t> m_startupTags;
    uint64_t m_nextCheckpoint = 0;
    RunPacker m_packer; // the completed pieces, to know when to give up order
    std::pair<uint64_t, uint32_t> m_marker{0, 0}; // the current block's marker record
    bool m_markerNoted = false;                    // already in startupRecords
};

// Decodes `source` from the start in large chunks. `observer`, if given, sees
// every event in file order too.
LogScan scanLog(ByteSource& source, EventSink* observer = nullptr);

// Reads a scanned log's events in timestamp order, ties in file order
// (exactly a stable sort, as `ghc-events show` prints), by a k-way merge of
// the time-ordered runs its pieces form. For logs as GHC writes them (a few
// runs per capability) memory stays small and independent of the log's
// size. Immutable after construction: several threads may visit different
// time ranges at once (the ByteSource must allow concurrent reads).
class TimeOrder {
public:
    // Beyond this many runs a log is pathologically unordered: the scan
    // drops its pieces and visits sort 16 bytes per event instead.
    static constexpr size_t kMaxRuns = 512;

    explicit TimeOrder(const LogScan& scan);
    ~TimeOrder();

    // False for pathologically unordered logs: only whole-log visits are
    // possible then, by re-decoding the log and sorting event positions.
    bool supportsRanges() const;
    static constexpr uint64_t kUnbounded = UINT64_MAX;
    // Delivers the events whose time is in [from, to); `to` = kUnbounded has
    // no upper limit (it includes events stamped UINT64_MAX).
    void visit(ByteSource& source, EventSink& sink, uint64_t from = 0,
               uint64_t to = kUnbounded) const;
    // The sparse event index: answers by position in time order without
    // holding events, reading at most a checkpoint's worth (64 KiB) of
    // records per run. Whole-log sorting is used for unordered logs.
    //
    // How many events come before time `t` (time < t).
    uint64_t countBefore(ByteSource& source, uint64_t t) const;
    // Delivers events number [first, first + count) in time order (ties in
    // file order). Returns how many were delivered.
    uint64_t visitRange(ByteSource& source, EventSink& sink, uint64_t first, uint64_t count) const;
    // Delivers, in time order from time `from`, events for which `match`
    // holds, at most `limit` of them, each with its number in time order;
    // returns how many. `tags`, if given, are the only event types `match`
    // can accept: stretches of the log without them are skipped unread.
    uint64_t find(ByteSource& source, uint64_t from, const std::function<bool(const Event&)>& match,
                  const std::function<void(const Event&, uint64_t position)>& sink,
                  uint64_t limit = UINT64_MAX, const TagMask* tags = nullptr) const;

    // Increasing times that cut the log into slices of about `sliceBytes`
    // bytes each; empty when one slice suffices, or when ties on one
    // timestamp would make some slice many times larger than that.
    std::vector<uint64_t> sliceBoundaries(uint64_t sliceBytes) const;

private:
    const LogScan& m_scan;
    std::vector<std::vector<const Piece*>> m_runs;
    std::vector<std::vector<uint64_t>> m_runEventsBefore; // per run: events before each piece
};

// Whole-log convenience: TimeOrder(scan).visit(source, sink).
void visitInTimeOrder(ByteSource& source, const LogScan& scan, EventSink& sink);

} // namespace hecscope
