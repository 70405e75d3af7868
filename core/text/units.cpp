#include "core/text/units.h"

#include <cmath>
#include <cstdio>

namespace hecscope {

std::string formatDuration(uint64_t ns, UnitStyle style)
{
    const char* micro = style == UnitStyle::Ascii ? "us" : "µs";
    char buf[64];
    if (ns < 1000)
        std::snprintf(buf, sizeof buf, "%llu ns", static_cast<unsigned long long>(ns));
    else if (ns < 1000000)
        std::snprintf(buf, sizeof buf, "%.3g %s", double(ns) / 1e3, micro);
    else if (ns < 1000000000)
        std::snprintf(buf, sizeof buf, "%.3g ms", double(ns) / 1e6);
    else
        std::snprintf(buf, sizeof buf, "%.3f s", double(ns) / 1e9);
    return buf;
}

std::string formatBytes(double bytes, const char* suffix)
{
    const double a = std::abs(bytes);
    const char* unit = "B";
    double v = bytes;
    if (a >= 1e9) {
        v = bytes / 1e9;
        unit = "GB";
    } else if (a >= 1e6) {
        v = bytes / 1e6;
        unit = "MB";
    } else if (a >= 1e3) {
        v = bytes / 1e3;
        unit = "KB";
    }
    if (a < 0.5)
        v = 0;
    const int decimals = std::abs(v) >= 100 || unit[0] == 'B' ? 0 : std::abs(v) >= 10 ? 1 : 2;
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f %s%s", decimals, v, unit, suffix);
    return buf;
}

std::string formatGrouped(uint64_t v)
{
    const std::string digits = std::to_string(v);
    std::string out;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0)
            out += ',';
        out += digits[i];
    }
    return out;
}

std::string formatPercent(uint64_t part, uint64_t whole)
{
    if (whole == 0)
        return "-";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f%%", 100.0 * double(part) / double(whole));
    return buf;
}

} // namespace hecscope
