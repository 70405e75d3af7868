#pragma once

#include "core/index/logindex.h"
#include "core/stats/stats.h"

#include <string>

namespace hecscope {

// `hecscope info`: process facts, whole-run statistics, per-capability and
// per-generation tables and diagnostics, for people...
std::string infoText(const LogIndex& index, const RangeStats& stats, const std::string& file);
// ... and as one JSON object for scripts (keys documented in README).
std::string infoJson(const LogIndex& index, const RangeStats& stats, const std::string& file);

// JSON string literal for `s` (quotes included); invalid UTF-8 bytes become
// U+FFFD.
std::string jsonString(std::string_view s);

// `json` on one line: the whitespace between its tokens left out (the keys
// keep their order), ending with a newline. For JSON Lines (`watch`).
std::string jsonLine(std::string_view json);

} // namespace hecscope
