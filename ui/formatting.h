#pragma once

#include <QString>

#include <cstdint>
#include <string>

namespace hecscope {

// The one way widgets write quantities: core/text/units.h's formatters as
// QStrings, so a figure reads the same in the timeline, panes and reports.
QString durationText(uint64_t ns);                               // "12.4 µs"
// A point in time (ns from the start), exact, in View ▸ Time Format's unit.
QString timeText(uint64_t ns);                                   // "366.501234 ms"
QString bytesText(double bytes, const QString& suffix = {});     // "12.5 MB", "3.1 MB/s"
QString countText(uint64_t n);                                   // "1,234,567" in the user's locale
QString percentText(uint64_t part, uint64_t whole);              // "12.3 %", "–" when whole is 0

// core's text (UTF-8) as a QString.
inline QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

} // namespace hecscope
