#include "core/text/units.h"

#include <charconv>
#include <cmath>
#include <utility>
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

std::optional<uint64_t> parseTime(std::string_view text)
{
    const auto space = [](char c) { return c == ' ' || c == '\t'; };
    while (!text.empty() && space(text.front()))
        text.remove_prefix(1);
    while (!text.empty() && space(text.back()))
        text.remove_suffix(1);
    double scale = 1e9;
    static const std::pair<std::string_view, double> units[] = {
        {"ns", 1}, {"us", 1e3}, {"\xC2\xB5s", 1e3}, {"ms", 1e6}, {"s", 1e9}};
    for (const auto& [suffix, factor] : units)
        if (text.ends_with(suffix)) {
            text.remove_suffix(suffix.size());
            scale = factor;
            break;
        }
    if (text.empty())
        return std::nullopt;
    double v = 0; // from_chars: the same in every locale
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size() || !(v >= 0) || v * scale > 1.8e19)
        return std::nullopt;
    return uint64_t(std::llround(v * scale));
}

std::string csvField(std::string_view s)
{
    if (s.find_first_of(",\"\n\r") == std::string_view::npos)
        return std::string(s);
    std::string q = "\"";
    for (char c : s) {
        if (c == '"')
            q += '"';
        q += c;
    }
    return q + '"';
}

std::optional<std::pair<uint64_t, uint64_t>> parseTimeRange(std::string_view text, uint64_t openEnd)
{
    const size_t colon = text.find(':');
    if (colon == std::string_view::npos)
        return std::nullopt;
    const auto blank = [](std::string_view t) { return t.find_first_not_of(' ') == std::string_view::npos; };
    const std::string_view from = text.substr(0, colon), to = text.substr(colon + 1);
    const auto start = blank(from) ? std::optional<uint64_t>(0) : parseTime(from);
    const auto end = blank(to) ? std::optional<uint64_t>(openEnd) : parseTime(to);
    if (!start || !end || *end <= *start)
        return std::nullopt;
    return std::pair{*start, *end};
}

} // namespace hecscope
