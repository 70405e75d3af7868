#include "core/time/viewrange.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>

namespace hecscope {

namespace {

// double → uint64 without undefined behaviour for values out of range.
uint64_t toTimeClamped(double t)
{
    if (!(t > 0))
        return 0;
    if (t >= 18446744073709549568.0) // largest double below 2^64
        return UINT64_MAX;
    return uint64_t(t);
}

} // namespace

TimeMapping::TimeMapping(ViewRange range, double x0, double width)
    : m_range(range)
    , m_x0(x0)
    , m_width(std::max(1.0, width))
    , m_pxPerNs(m_width / double(std::max<uint64_t>(1, range.duration())))
{
}

uint64_t TimeMapping::toTime(double px) const
{
    return toTimeClamped(
        std::round(double(m_range.start) + (px - m_x0) / m_pxPerNs));
}

ViewRange fitInto(ViewRange range, ViewRange bounds)
{
    const uint64_t maxLen = std::max<uint64_t>(1, bounds.duration());
    uint64_t len = std::clamp<uint64_t>(range.end > range.start ? range.duration() : 1,
                                        std::min(kMinViewDuration, maxLen), maxLen);
    uint64_t start = std::clamp(range.start, bounds.start, bounds.end - len);
    return {start, start + len};
}

ViewRange zoomAround(ViewRange range, uint64_t anchor, double factor,
                     ViewRange bounds)
{
    anchor = std::clamp(anchor, range.start, range.end);
    const double before = double(anchor - range.start) * factor;
    const double after = double(range.end - anchor) * factor;
    const double len = std::max(before + after, double(kMinViewDuration));
    // Keep the anchor's relative position when the length is clamped.
    const double share = before + after > 0 ? before / (before + after) : 0.5;
    const double start = double(anchor) - len * share;
    ViewRange r{toTimeClamped(std::round(start)),
                toTimeClamped(std::round(start + len))};
    if (r.end <= r.start)
        r.end = r.start + 1;
    return fitInto(r, bounds);
}

ViewRange panBy(ViewRange range, double deltaNs, ViewRange bounds)
{
    const uint64_t len = range.duration();
    const double start = std::clamp(
        double(range.start) + deltaNs, double(bounds.start),
        std::max(double(bounds.start), double(bounds.end) - double(len)));
    const uint64_t s = toTimeClamped(std::round(start));
    return fitInto({s, s + len}, bounds);
}

Ticks rulerTicks(ViewRange range, double widthPx, double minSpacingPx)
{
    Ticks ticks;
    const double want = double(range.duration()) * minSpacingPx / std::max(1.0, widthPx);
    uint64_t step = 1;
    for (uint64_t decade = 1;; decade *= 10) {
        for (uint64_t m : {1, 2, 5}) {
            step = decade * m;
            if (double(step) >= want)
                goto found;
        }
        if (decade > UINT64_MAX / 100)
            break;
    }
found:
    ticks.step = step;
    uint64_t t = range.start / step * step;
    if (t < range.start)
        t += step;
    for (; t <= range.end && ticks.times.size() < 10000; t += step) {
        ticks.times.push_back(t);
        if (t > UINT64_MAX - step)
            break;
    }
    return ticks;
}

namespace {

struct Unit {
    uint64_t ns;
    const char* name;
    int digits; // decimals down to the nanosecond
};
constexpr Unit kUnits[] = {{1000000000, "s", 9}, {1000000, "ms", 6}, {1000, "µs", 3}, {1, "ns", 0}};
std::atomic<TimeUnit> g_timeUnit{TimeUnit::Automatic};

// The chosen unit, if one is.
const Unit* chosenUnit()
{
    switch (g_timeUnit.load(std::memory_order_relaxed)) {
    case TimeUnit::Seconds: return &kUnits[0];
    case TimeUnit::Milliseconds: return &kUnits[1];
    case TimeUnit::Microseconds: return &kUnits[2];
    case TimeUnit::Nanoseconds: return &kUnits[3];
    case TimeUnit::Automatic: break;
    }
    return nullptr;
}

// `t` in `unit` with `decimals` decimals, exactly (no floating point).
std::string inUnit(uint64_t t, const Unit& unit, int decimals)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%llu", static_cast<unsigned long long>(t / unit.ns));
    std::string out = buf;
    decimals = std::min(decimals, unit.digits);
    if (decimals > 0) {
        std::snprintf(buf, sizeof buf, "%0*llu", unit.digits, static_cast<unsigned long long>(t % unit.ns));
        out += '.';
        out.append(buf, size_t(decimals));
    }
    return out + ' ' + unit.name;
}

} // namespace

void setTimeUnit(TimeUnit unit)
{
    g_timeUnit.store(unit, std::memory_order_relaxed);
}

TimeUnit timeUnit()
{
    return g_timeUnit.load(std::memory_order_relaxed);
}

std::string formatTimestamp(uint64_t t)
{
    const Unit* unit = chosenUnit();
    if (!unit) {
        unit = &kUnits[3];
        for (const Unit& u : kUnits)
            if (t >= u.ns) {
                unit = &u;
                break;
            }
    }
    return inUnit(t, *unit, unit->digits);
}

std::string formatTime(uint64_t t, uint64_t step)
{
    if (t == 0)
        return "0";
    // The unit in which the step is at least 0.1: 100 ms steps read "1.4 s".
    const Unit* unit = chosenUnit();
    if (!unit) {
        unit = &kUnits[3];
        for (const Unit& u : kUnits)
            if (step * 10 >= u.ns) {
                unit = &u;
                break;
            }
    }
    // Decimals: enough to show the step in this unit.
    int decimals = 0;
    for (uint64_t s = unit->ns; s > step && decimals < 9; s /= 10)
        ++decimals;
    return inUnit(t, *unit, decimals);
}

std::string formatSeconds(uint64_t t, uint64_t step)
{
    if (chosenUnit())
        return formatTime(t, step);
    int decimals = 0;
    for (uint64_t s = 1000000000; s > step && decimals < 9; s /= 10)
        ++decimals;
    char buf[64];
    std::snprintf(buf, sizeof buf, "%llu", static_cast<unsigned long long>(t / 1000000000));
    std::string out = buf;
    if (decimals > 0) {
        std::snprintf(buf, sizeof buf, "%09llu", static_cast<unsigned long long>(t % 1000000000));
        out += '.';
        out.append(buf, size_t(decimals));
    }
    return out + " s";
}

} // namespace hecscope
