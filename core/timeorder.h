#pragma once

#include "core/bytesource.h"
#include "core/decoder.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace hecscope {

// A contiguous byte range of records with one capability whose timestamps
// never decrease. GHC writes per-capability blocks already in time order, so
// a log is a handful of such pieces per block.
struct Piece {
    uint64_t begin = 0; // offset of the first record
    uint64_t end = 0;   // offset just past the last record
    uint64_t firstTime = 0;
    uint64_t lastTime = 0;
    uint16_t cap = kNoCap;
};

// The result of one sequential pass over a log: its format, diagnostics and
// the pieces that let a second pass visit events in time order without
// holding them in memory.
struct LogScan {
    std::shared_ptr<const LogFormat> format; // null when the header failed
    std::vector<Diagnostic> diagnostics;
    std::vector<Piece> pieces;
    uint64_t events = 0;
    uint64_t bytes = 0; // bytes read
    bool hasError = false;
    bool truncated = false;
    std::string ioError;
};

// Decodes `source` from the start in large chunks. `observer`, if given, sees
// every event in file order too.
LogScan scanLog(ByteSource& source, EventSink* observer = nullptr);

// Delivers every event of a scanned log to `sink` ordered by timestamp, ties
// in file order (exactly a stable sort, as `ghc-events show` prints), by a
// k-way merge of the time-ordered runs the pieces form. Memory stays small
// and independent of the log's size unless the log is pathologically
// unordered, in which case it falls back to sorting event offsets.
void visitInTimeOrder(ByteSource& source, const LogScan& scan, EventSink& sink);

} // namespace hecscope
