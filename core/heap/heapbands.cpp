#include "core/heap/heapbands.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <numeric>
#include <unordered_map>

namespace hecscope {

const char* bandOrderName(BandOrder o)
{
    switch (o) {
    case BandOrder::Size: return "size";
    case BandOrder::StdDev: return "stddev";
    case BandOrder::Name: return "name";
    case BandOrder::Number: return "number";
    case BandOrder::Growth: return "growth";
    }
    return "size";
}

std::optional<BandOrder> bandOrderFromName(std::string_view name)
{
    for (BandOrder o : kBandOrders)
        if (name == bandOrderName(o))
            return o;
    return std::nullopt;
}

bool naturalLess(std::string_view a, std::string_view b)
{
    auto isDigit = [](char c) { return c >= '0' && c <= '9'; };
    size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (isDigit(a[i]) && isDigit(b[j])) {
            size_t ie = i, je = j;
            while (ie < a.size() && a[ie] == '0')
                ++ie;
            while (je < b.size() && b[je] == '0')
                ++je;
            size_t ae = ie, be = je;
            while (ae < a.size() && isDigit(a[ae]))
                ++ae;
            while (be < b.size() && isDigit(b[be]))
                ++be;
            // Without leading zeros, the longer run is the larger number.
            if (ae - ie != be - je)
                return ae - ie < be - je;
            const int c = a.substr(ie, ae - ie).compare(b.substr(je, be - je));
            if (c != 0)
                return c < 0;
            i = ae;
            j = be;
            continue;
        }
        if (a[i] != b[j])
            return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[j]);
        ++i;
        ++j;
    }
    return a.size() - i < b.size() - j;
}

std::optional<size_t> HeapBands::censusAtOrBefore(uint64_t t) const
{
    const auto it = std::upper_bound(times.begin(), times.end(), t);
    if (it == times.begin())
        return std::nullopt;
    return size_t(it - times.begin()) - 1;
}

std::pair<size_t, size_t> HeapBands::censusesIn(uint64_t t0, uint64_t t1) const
{
    const size_t a = size_t(std::lower_bound(times.begin(), times.end(), t0) - times.begin());
    const size_t b = size_t(std::lower_bound(times.begin() + a, times.end(), t1) - times.begin());
    return {a, b};
}

namespace {

// -hi labels are info-table addresses ("0x4f6a10", or without the 0x).
std::optional<uint64_t> parseAddress(std::string_view s)
{
    if (s.starts_with("0x") || s.starts_with("0X"))
        s.remove_prefix(2);
    uint64_t v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v, 16);
    if (ec != std::errc() || end != s.data() + s.size() || s.empty())
        return std::nullopt;
    return v;
}

constexpr uint32_t kBreakdownInfoTable = 8;

} // namespace

HeapBands computeHeapBands(const HeapProfileData& hp, const std::vector<Ipe>& ipes, const std::function<bool()>& cancelled)
{
    HeapBands b;
    const size_t nc = hp.censuses.size();
    auto timeOf = [&](const Census& c) { return c.bioTime != kNoTime ? c.bioTime : c.time; };
    b.order.resize(nc);
    std::iota(b.order.begin(), b.order.end(), 0u);
    std::stable_sort(b.order.begin(), b.order.end(),
                     [&](uint32_t x, uint32_t y) { return timeOf(hp.censuses[x]) < timeOf(hp.censuses[y]); });
    b.times.resize(nc);
    b.totals.resize(nc);
    for (size_t p = 0; p < nc; ++p) {
        const Census& c = hp.censuses[b.order[p]];
        b.times[p] = timeOf(c);
        b.totals[p] = c.total;
        b.peakTotal = std::max(b.peakTotal, c.total);
    }

    const size_t nl = hp.labels.size();
    b.names = hp.labels;
    if (hp.breakdown == kBreakdownInfoTable && !ipes.empty()) {
        std::unordered_map<uint64_t, const Ipe*> byAddress;
        for (const Ipe& ipe : ipes)
            byAddress[ipe.address] = &ipe;
        for (std::string& name : b.names) {
            const auto address = parseAddress(name);
            if (!address)
                continue;
            const auto it = byAddress.find(*address);
            if (it == byAddress.end())
                continue;
            const Ipe& ipe = *it->second;
            name = ipe.name + " (" + ipe.type + ") " + ipe.module + ' ' + ipe.srcloc;
        }
    }

    // Two passes over the samples (one-pass variance loses every digit of
    // a constant band of gigabytes). First: peaks, trapezoid integrals (the
    // weight of census p is half the time to its neighbours), sparklines,
    // sums, and the covariance with time, centred on the mean time so that
    // absent censuses (0 bytes) add nothing to it.
    b.stats.assign(nl, {});
    std::vector<double> sum(nl), sumTB(nl), sumDev2(nl);
    std::vector<uint32_t> present(nl);
    const double n = double(nc);
    double tMean = 0;
    for (size_t p = 0; p < nc; ++p)
        tMean += double(b.times[p] - b.times[0]) * 1e-9;
    tMean = nc ? tMean / n : 0;
    double varT = 0;
    for (size_t p = 0; p < nc; ++p) {
        const double d = double(b.times[p] - b.times[0]) * 1e-9 - tMean;
        varT += d * d;
    }
    varT = nc ? varT / n : 0;
    for (size_t p = 0; p < nc; ++p) {
        // Censuses between two looks at `cancelled`: well under a millisecond.
        if (p % 1024 == 1023 && cancelled && cancelled())
            return {};
        const double w = 0.5e-9 * double((p + 1 < nc ? b.times[p + 1] : b.times[p]) - (p > 0 ? b.times[p - 1] : b.times[p]));
        const double t = double(b.times[p] - b.times[0]) * 1e-9 - tMean;
        // The sparkline buckets this census covers (several when there are
        // fewer censuses than points, so that none is left empty).
        const size_t bucket = p * kSparkPoints / nc;
        const size_t bucketEnd = std::max(bucket + 1, (p + 1) * kSparkPoints / nc);
        const Census& c = hp.censuses[b.order[p]];
        for (uint64_t i = c.firstSample; i < c.firstSample + c.count; ++i) {
            const HeapProfileData::Entry& e = hp.samples[i];
            BandStats& s = b.stats[e.label];
            const double v = double(e.bytes);
            if (e.bytes > s.peak) {
                s.peak = e.bytes;
                s.peakTime = b.times[p];
            }
            s.byteSeconds += v * w;
            sum[e.label] += v;
            sumTB[e.label] += t * v;
            ++present[e.label];
            for (size_t k = bucket; k < bucketEnd; ++k)
                s.spark[k] = std::max(s.spark[k], e.bytes);
        }
    }
    for (size_t l = 0; l < nl && nc > 0; ++l)
        b.stats[l].mean = sum[l] / n;
    // Second: squared deviations from the mean; each census without the
    // band deviates by the mean.
    for (const HeapProfileData::Entry& e : hp.samples) {
        const double d = double(e.bytes) - b.stats[e.label].mean;
        sumDev2[e.label] += d * d;
    }
    for (size_t l = 0; l < nl && nc > 0; ++l) {
        BandStats& s = b.stats[l];
        const double varB = (sumDev2[l] + (n - present[l]) * s.mean * s.mean) / n;
        s.stddev = std::sqrt(varB);
        const double cov = sumTB[l] / n;
        if (varT > 0) {
            s.slope = varB > 0 ? cov / varT : 0;
            if (varB > 0)
                s.r2 = std::clamp(cov * cov / (varT * varB), 0.0, 1.0);
        }
    }
    std::vector<uint32_t> bySize(nl);
    std::iota(bySize.begin(), bySize.end(), 0u);
    std::stable_sort(bySize.begin(), bySize.end(), [&](uint32_t x, uint32_t y) {
        const BandStats &a = b.stats[x], &c = b.stats[y];
        if (a.byteSeconds != c.byteSeconds)
            return a.byteSeconds > c.byteSeconds;
        return a.peak > c.peak; // one census: no time to integrate over
    });
    b.sizeRank.resize(nl);
    for (size_t r = 0; r < nl; ++r)
        b.sizeRank[bySize[r]] = uint32_t(r);
    return b;
}

std::optional<size_t> BandSelection::columnOf(uint32_t label) const
{
    const auto it = std::find(labels.begin(), labels.end(), label);
    if (it != labels.end())
        return size_t(it - labels.begin());
    if (other)
        return labels.size();
    return std::nullopt;
}

BandSelection selectBands(const HeapProfileData& hp, const HeapBands& bands, size_t n, BandOrder order, bool reversed)
{
    BandSelection sel;
    sel.n = n;
    sel.order = order;
    sel.reversed = reversed;
    const size_t nl = bands.stats.size();
    // Bands that never have bytes are not shown (GHC writes some: the -hb
    // DRAG band of 0 bytes in every census, zeros in .hp files).
    std::vector<uint32_t> chosen;
    chosen.reserve(nl);
    for (uint32_t l = 0; l < nl; ++l)
        if (bands.stats[l].peak > 0)
            chosen.push_back(l);
    std::sort(chosen.begin(), chosen.end(), [&](uint32_t x, uint32_t y) { return bands.sizeRank[x] < bands.sizeRank[y]; });
    if (n > 0 && chosen.size() > n) {
        sel.otherCount = uint32_t(chosen.size() - n);
        chosen.resize(n);
        sel.other = true;
    }
    auto byKey = [&](auto key) {
        std::stable_sort(chosen.begin(), chosen.end(), [&](uint32_t x, uint32_t y) { return key(x) > key(y); });
    };
    switch (order) {
    case BandOrder::Size: break; // already
    case BandOrder::StdDev: byKey([&](uint32_t l) { return bands.stats[l].stddev; }); break;
    case BandOrder::Growth: byKey([&](uint32_t l) { return bands.stats[l].slope; }); break;
    case BandOrder::Name:
        std::stable_sort(chosen.begin(), chosen.end(), [&](uint32_t x, uint32_t y) { return bands.names[x] < bands.names[y]; });
        break;
    case BandOrder::Number:
        std::stable_sort(chosen.begin(), chosen.end(),
                         [&](uint32_t x, uint32_t y) { return naturalLess(bands.names[x], bands.names[y]); });
        break;
    }
    if (reversed)
        std::reverse(chosen.begin(), chosen.end());
    sel.labels = std::move(chosen);

    const size_t cols = sel.columns();
    const size_t nc = bands.times.size();
    if (cols == 0)
        return sel;
    const uint32_t kOther = uint32_t(sel.labels.size());
    std::vector<uint32_t> columnOf(nl, sel.other ? kOther : UINT32_MAX);
    for (size_t k = 0; k < sel.labels.size(); ++k)
        columnOf[sel.labels[k]] = uint32_t(k);
    sel.values.assign(nc * cols, 0);
    sel.columnPeak.assign(cols, 0);
    for (size_t p = 0; p < nc; ++p) {
        const Census& c = hp.censuses[bands.order[p]];
        uint64_t* row = sel.values.data() + p * cols;
        for (uint64_t i = c.firstSample; i < c.firstSample + c.count; ++i) {
            const HeapProfileData::Entry& e = hp.samples[i];
            const uint32_t k = columnOf[e.label];
            if (k != UINT32_MAX)
                row[k] += e.bytes;
        }
        for (size_t k = 0; k < cols; ++k)
            sel.columnPeak[k] = std::max(sel.columnPeak[k], row[k]);
    }
    return sel;
}

std::vector<uint64_t> bytesAtCensus(const HeapProfileData& hp, const HeapBands& bands, size_t pos)
{
    std::vector<uint64_t> bytes(bands.stats.size());
    if (pos >= bands.order.size())
        return bytes;
    const Census& c = hp.censuses[bands.order[pos]];
    for (uint64_t i = c.firstSample; i < c.firstSample + c.count; ++i)
        bytes[hp.samples[i].label] += hp.samples[i].bytes;
    return bytes;
}

std::vector<double> byteSecondsIn(const HeapProfileData& hp, const HeapBands& bands, uint64_t t0, uint64_t t1)
{
    std::vector<double> result(bands.stats.size());
    const size_t nc = bands.times.size();
    if (nc < 2 || t1 <= t0)
        return result;
    // Weight of each census: the integral over the range of its share of
    // the linear interpolation, on the intervals to each side.
    auto [first, last] = bands.censusesIn(t0, t1);
    const size_t from = first > 0 ? first - 1 : 0;
    const size_t to = std::min(nc, last + 1);
    std::vector<double> weight(to - from);
    for (size_t p = from; p + 1 < to; ++p) {
        const double a = double(bands.times[p]), b = double(bands.times[p + 1]);
        const double lo = std::max(a, double(t0)), hi = std::min(b, double(t1));
        if (hi <= lo || b <= a)
            continue;
        // ∫ (b - t) / (b - a) dt and ∫ (t - a) / (b - a) dt over [lo, hi]
        const double left = ((b - lo) * (b - lo) - (b - hi) * (b - hi)) / (2 * (b - a));
        const double right = ((hi - a) * (hi - a) - (lo - a) * (lo - a)) / (2 * (b - a));
        weight[p - from] += left * 1e-9;
        weight[p + 1 - from] += right * 1e-9;
    }
    for (size_t p = from; p < to; ++p) {
        const double w = weight[p - from];
        if (w <= 0)
            continue;
        const Census& c = hp.censuses[bands.order[p]];
        for (uint64_t i = c.firstSample; i < c.firstSample + c.count; ++i)
            result[hp.samples[i].label] += w * double(hp.samples[i].bytes);
    }
    return result;
}

BandTrends bandTrendsIn(const HeapProfileData& hp, const HeapBands& bands, uint64_t t0, uint64_t t1)
{
    BandTrends out;
    out.labels.resize(bands.stats.size());
    const auto range = bands.censusesIn(t0, t1);
    const size_t first = range.first, last = range.second; // (not a structured binding: lambdas below use them)
    out.censuses = last - first;
    if (out.censuses < 2)
        return out;
    // As computeHeapBands: times centred on their mean so that a census
    // without the label adds nothing to the covariance; two passes, so the
    // variance of a constant band of gigabytes keeps its digits.
    const double n = double(out.censuses);
    auto seconds = [&](size_t p) { return double(bands.times[p] - bands.times[first]) * 1e-9; };
    double tMean = 0;
    for (size_t p = first; p < last; ++p)
        tMean += seconds(p);
    tMean /= n;
    double varT = 0;
    for (size_t p = first; p < last; ++p)
        varT += (seconds(p) - tMean) * (seconds(p) - tMean);
    varT /= n;
    const size_t nl = bands.stats.size();
    std::vector<double> sum(nl), sumTB(nl), sumDev2(nl);
    std::vector<uint32_t> present(nl);
    auto forSamples = [&](size_t p, auto f) {
        const Census& c = hp.censuses[bands.order[p]];
        for (uint64_t i = c.firstSample; i < c.firstSample + c.count; ++i)
            f(hp.samples[i]);
    };
    for (size_t p = first; p < last; ++p) {
        const double t = seconds(p) - tMean;
        forSamples(p, [&](const HeapProfileData::Entry& e) {
            sum[e.label] += double(e.bytes);
            sumTB[e.label] += t * double(e.bytes);
            ++present[e.label];
        });
    }
    for (size_t p = first; p < last; ++p)
        forSamples(p, [&](const HeapProfileData::Entry& e) {
            const double d = double(e.bytes) - sum[e.label] / n;
            sumDev2[e.label] += d * d;
        });
    forSamples(first, [&](const HeapProfileData::Entry& e) { out.labels[e.label].growth -= int64_t(e.bytes); });
    forSamples(last - 1, [&](const HeapProfileData::Entry& e) { out.labels[e.label].growth += int64_t(e.bytes); });
    for (size_t l = 0; l < nl; ++l) {
        const double mean = sum[l] / n;
        const double varB = (sumDev2[l] + (n - present[l]) * mean * mean) / n;
        const double cov = sumTB[l] / n;
        BandTrend& trend = out.labels[l];
        if (varT > 0 && varB > 0) {
            trend.slope = cov / varT;
            trend.r2 = std::clamp(cov * cov / (varT * varB), 0.0, 1.0);
        }
    }
    return out;
}

} // namespace hecscope
