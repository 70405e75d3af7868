#include "core/series.h"

#include "core/logindex.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

namespace hecscope {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

Series sortedSeries(const std::vector<Sample>& samples)
{
    Series s;
    s.reserve(samples.size());
    for (const Sample& x : samples)
        s.push_back({x.time, double(x.value)});
    std::stable_sort(s.begin(), s.end(), [](const SeriesPoint& a, const SeriesPoint& b) { return a.time < b.time; });
    return s;
}

// Start time (ns, as double) of column c of [t0, t1) in `pixels` columns.
double columnStart(uint64_t t0, uint64_t t1, uint32_t pixels, uint32_t c)
{
    return double(t0) + double(t1 - t0) * double(c) / double(pixels);
}

// Value of the cumulative series at time t, linear between samples.
double interpolate(const Series& s, double t)
{
    auto it = std::upper_bound(s.begin(), s.end(), t, [](double v, const SeriesPoint& p) { return v < double(p.time); });
    if (it == s.begin())
        return s.front().value;
    if (it == s.end())
        return s.back().value;
    const SeriesPoint& b = *it;
    const SeriesPoint& a = *(it - 1);
    if (b.time == a.time)
        return b.value;
    return a.value + (b.value - a.value) * (t - double(a.time)) / double(b.time - a.time);
}

} // namespace

HeapSeries heapSeries(const LogIndex& index)
{
    HeapSeries h;
    h.size = sortedSeries(index.heapSize);
    h.blocks = sortedSeries(index.blocksSize);
    h.live = sortedSeries(index.heapLive);
    // Allocation: every capability's latest cumulative figure, summed.
    std::vector<Sample> alloc = index.heapAllocated;
    std::stable_sort(alloc.begin(), alloc.end(), [](const Sample& a, const Sample& b) { return a.time < b.time; });
    std::unordered_map<uint32_t, uint64_t> latest; // (capset << 16 | cap) -> bytes
    double total = 0;
    h.allocated.reserve(alloc.size());
    for (const Sample& x : alloc) {
        uint64_t& last = latest[x.capset << 16 | x.cap];
        total += double(x.value) - double(last);
        last = x.value;
        if (!h.allocated.empty() && h.allocated.back().time == x.time)
            h.allocated.back().value = total;
        else
            h.allocated.push_back({x.time, total});
    }
    return h;
}

std::vector<double> columnMaxima(const Series& s, uint64_t t0, uint64_t t1, uint32_t pixels)
{
    std::vector<double> out(pixels, kNaN);
    if (s.empty() || pixels == 0 || t1 <= t0)
        return out;
    const uint64_t last = s.back().time;
    // First sample at or after t0; the one before it holds at t0.
    size_t i = size_t(std::lower_bound(s.begin(), s.end(), t0, [](const SeriesPoint& p, uint64_t t) { return p.time < t; }) - s.begin());
    double held = i > 0 ? s[i - 1].value : kNaN;
    for (uint32_t c = 0; c < pixels; ++c) {
        const double end = columnStart(t0, t1, pixels, c + 1);
        double best = held;
        while (i < s.size() && double(s[i].time) < end) {
            best = std::isnan(best) ? s[i].value : std::max(best, s[i].value);
            held = s[i].value;
            ++i;
        }
        // After the last sample the figure is unknown: nothing is drawn.
        out[c] = columnStart(t0, t1, pixels, c) > double(last) ? kNaN : best;
    }
    return out;
}

std::vector<double> columnRates(const Series& s, uint64_t t0, uint64_t t1, uint32_t pixels)
{
    std::vector<double> out(pixels, kNaN);
    if (s.size() < 2 || pixels == 0 || t1 <= t0)
        return out;
    const double first = double(s.front().time), last = double(s.back().time);
    for (uint32_t c = 0; c < pixels; ++c) {
        double a = columnStart(t0, t1, pixels, c), b = columnStart(t0, t1, pixels, c + 1);
        if (b <= first || a >= last)
            continue;
        a = std::max(a, first);
        b = std::min(b, last);
        if (b <= a)
            continue;
        out[c] = (interpolate(s, b) - interpolate(s, a)) / (b - a) * 1e9;
    }
    return out;
}

} // namespace hecscope
