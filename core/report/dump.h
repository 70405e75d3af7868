#pragma once

#include "core/io/bytesource.h"
#include "core/order/timeorder.h"
#include "core/text/printer.h"

#include <functional>
#include <string_view>

namespace hecscope {

// Receives the text in large chunks, in order; returns false to stop (e.g. a
// closed pipe). Called on the thread that called dumpLog.
using TextWriter = std::function<bool(std::string_view)>;

// Writes the log as `ghc-events show` prints it: the event types, then every
// event stably ordered by time. One sequential pass finds the time-ordered
// pieces; then worker threads print consecutive time slices which are written
// in order. For logs as GHC writes them memory is independent of the log's
// size; orders no GHC writes (times falling at every event) cost 16 bytes
// per event for a sort. What was decoded before a
// fault is written; the returned scan carries the diagnostics. `threads` 0
// means one per core (at most 4). `source` must allow concurrent reads.
LogScan dumpLog(ByteSource& source, const TextWriter& write,
                PrinterStyle style = PrinterStyle::Head, unsigned threads = 0);

} // namespace hecscope
