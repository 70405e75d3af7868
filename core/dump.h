#pragma once

#include "core/bytesource.h"
#include "core/printer.h"
#include "core/timeorder.h"

#include <functional>
#include <string_view>

namespace hecscope {

// Receives the text in large chunks; returns false to stop (e.g. a closed pipe).
using TextWriter = std::function<bool(std::string_view)>;

// Writes the log as `ghc-events show` prints it: the event types, then every
// event stably ordered by time. Two sequential passes over `source`, memory
// independent of the log's size. What was decoded before a fault is written;
// the returned scan carries the diagnostics.
LogScan dumpLog(ByteSource& source, const TextWriter& write, PrinterStyle style = PrinterStyle::Head);

} // namespace hecscope
