#include "core/index/series.h"

#include "core/index/logindex.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

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
// `from`: no sample before it is after t (a search's hint; it becomes the
// first sample after t, for the next t, which must not be smaller).
double interpolate(const Series& s, double t, size_t& from)
{
    const auto after = [](double v, const SeriesPoint& p) { return v < double(p.time); };
    // Galloping from `from`: most calls are for the next pixel column.
    size_t lo = std::min(from, s.size()), step = 1;
    while (lo + step < s.size() && !after(t, s[lo + step])) {
        lo += step;
        step *= 2;
    }
    const auto it = std::upper_bound(s.begin() + ptrdiff_t(lo), s.begin() + ptrdiff_t(std::min(s.size(), lo + step + 1)), t, after);
    from = size_t(it - s.begin());
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
    // Allocation: each capability reports its own cumulative figure, at
    // its own times (at collections, microseconds apart). Summing the
    // latest figures would put a capability's whole growth since its last
    // report into the instant between two reports; instead each
    // capability's figure is read as growing linearly from its previous
    // report (from 0 at start-up), and the total at every report time is
    // the sum over capabilities.
    std::map<uint32_t, Series> perCap; // (capset << 16 | cap) -> its reports in time order
    for (const Sample& x : index.heapAllocated)
        perCap[x.capset << 16 | x.cap].push_back({x.time, double(x.value)});
    std::vector<uint64_t> times;
    for (auto& [key, series] : perCap) {
        std::stable_sort(series.begin(), series.end(), [](const SeriesPoint& a, const SeriesPoint& b) { return a.time < b.time; });
        for (const SeriesPoint& p : series)
            times.push_back(p.time);
    }
    if (!times.empty())
        times.push_back(0); // start-up: nothing allocated yet
    std::sort(times.begin(), times.end());
    times.erase(std::unique(times.begin(), times.end()), times.end());
    std::vector<size_t> next(perCap.size(), 0); // per capability: first report after the time
    h.allocated.reserve(times.size());
    for (uint64_t t : times) {
        double total = 0;
        size_t k = 0;
        for (const auto& [key, series] : perCap) {
            size_t& i = next[k++];
            while (i < series.size() && series[i].time <= t)
                ++i;
            if (i == series.size()) {
                total += series.back().value; // no report since: holds
            } else {
                const SeriesPoint before = i > 0 ? series[i - 1] : SeriesPoint{0, 0.0};
                const SeriesPoint& after = series[i];
                const double span = double(after.time - before.time);
                total += span > 0 ? before.value + (after.value - before.value) * double(t - before.time) / span : after.value;
            }
        }
        h.allocated.push_back({t, total});
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
    size_t from = 0; // (the columns' edges only grow)
    for (uint32_t c = 0; c < pixels; ++c) {
        double a = columnStart(t0, t1, pixels, c), b = columnStart(t0, t1, pixels, c + 1);
        if (b <= first || a >= last)
            continue;
        a = std::max(a, first);
        b = std::min(b, last);
        if (b <= a)
            continue;
        const double atA = interpolate(s, a, from);
        out[c] = (interpolate(s, b, from) - atA) / (b - a) * 1e9;
    }
    return out;
}

} // namespace hecscope
