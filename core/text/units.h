#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace hecscope {

// The one way core writes quantities for people (the `info` report, `heap`
// table, messages); ui/formatting.h wraps these for widgets so every figure
// reads the same everywhere.

// Terminal reports align columns by bytes, so they ask for "us" instead of "µs".
enum class UnitStyle { Unicode, Ascii };

// A duration (ns), three significant figures: "830 ns", "12.4 µs", "3.5 ms", "1.530 s".
std::string formatDuration(uint64_t ns, UnitStyle style = UnitStyle::Unicode);
// Bytes in decimal units (as the charts' MB axes), three significant figures:
// "512 B", "1.50 KB", "12.5 MB", "3.21 GB". `suffix` makes rates and integrals
// ("/s", "·s"). Negative values (slopes) keep their sign.
std::string formatBytes(double bytes, const char* suffix = "");
// An integer with thousands separators: "1,234,567".
std::string formatGrouped(uint64_t v);
// part / whole as "12.3%"; "-" when whole is 0.
std::string formatPercent(uint64_t part, uint64_t whole);

// A CSV field: as it is, or quoted (quotes doubled) when it holds a comma,
// a quote or a line break.
std::string csvField(std::string_view s);

// A time or duration typed by a person: "1.5s", "200ms", "3us", "3µs",
// "12ns", "0.25" (seconds) → ns; nullopt when it is not one.
std::optional<uint64_t> parseTime(std::string_view text);
// A command line's --range "START:END" (times as parseTime reads them; an
// empty START is 0, an empty END is `openEnd`) as [start, end) in ns; empty
// unless both parse and START < END.
std::optional<std::pair<uint64_t, uint64_t>> parseTimeRange(std::string_view text, uint64_t openEnd);

} // namespace hecscope
