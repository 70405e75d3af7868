#pragma once

#include "core/heap/heapprofile.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hecscope {

// How bands are ordered for display: by size (time-integrated bytes), by
// standard deviation, by name, by name with digit runs compared as numbers
// ("natural": (9)CAF before (10)CAF), or by growth (least-squares slope).
enum class BandOrder : uint8_t { Size,
                                 StdDev,
                                 Name,
                                 Number,
                                 Growth };
constexpr BandOrder kBandOrders[] = {BandOrder::Size, BandOrder::StdDev, BandOrder::Name, BandOrder::Number,
                                     BandOrder::Growth};
const char* bandOrderName(BandOrder o); // "size", "stddev", "name", "number", "growth"
std::optional<BandOrder> bandOrderFromName(std::string_view name);
// Name order with digit runs compared by value.
bool naturalLess(std::string_view a, std::string_view b);

constexpr size_t kSparkPoints = 48;

// Whole-run figures of one band (one label of the profile). Every census
// counts; a census without the band is 0 bytes for it.
struct BandStats {
    uint64_t peak = 0;
    uint64_t peakTime = 0;                      // ns, the first census at the peak
    double byteSeconds = 0;                     // integral over time: trapezoids between censuses
    double mean = 0;                            // bytes, over censuses
    double stddev = 0;                          // bytes, over censuses
    double slope = 0;                           // bytes per second, least squares over censuses
    double r2 = 0;                              // of that fit; 0 when bytes or times are constant
    std::array<uint64_t, kSparkPoints> spark{}; // maxima over equal shares of the censuses
};

// The bands of a heap profile, computed once per index: census times in
// time order and every band's whole-run figures. Biographical censuses
// (-hb) are placed at their census time, not at the time they were written.
struct HeapBands {
    std::vector<uint32_t> order;    // census indices in time order
    std::vector<uint64_t> times;    // ns, per position in `order`
    std::vector<uint64_t> totals;   // bytes, per position in `order`
    std::vector<BandStats> stats;   // per label
    std::vector<std::string> names; // per label, for display (-hi: the info table)
    std::vector<uint32_t> sizeRank; // per label: 0 = largest byte·seconds
    uint64_t peakTotal = 0;

    bool empty() const { return times.empty(); }
    // Position of the last census at or before `t`, or none before the first.
    std::optional<size_t> censusAtOrBefore(uint64_t t) const;
    // Census positions [first, last) with times in [t0, t1).
    std::pair<size_t, size_t> censusesIn(uint64_t t0, uint64_t t1) const;
};

// `ipes` names -hi bands (labels are info-table addresses). Once `cancelled`
// says so (asked every few thousand censuses) the result is empty.
HeapBands computeHeapBands(const HeapProfileData& hp, const std::vector<Ipe>& ipes = {},
                           const std::function<bool()>& cancelled = {});

// The bands shown: the top `n` by size (0 = all) and, when any are left
// out, an OTHER column holding the rest; ordered by `order` (largest,
// greatest, first-named or fastest-growing first; `reversed` flips that).
// OTHER is always the last column. Values are bytes per census position
// and column; every row sums to its census total.
struct BandSelection {
    std::vector<uint32_t> labels; // per column before OTHER
    bool other = false;
    uint32_t otherCount = 0; // labels grouped in OTHER
    size_t n = 0;
    BandOrder order = BandOrder::Size;
    bool reversed = false;
    std::vector<uint64_t> values; // census position * columns() + column
    std::vector<uint64_t> columnPeak;

    size_t columns() const { return labels.size() + (other ? 1 : 0); }
    size_t censuses() const { return columns() ? values.size() / columns() : 0; }
    const uint64_t* row(size_t census) const { return values.data() + census * columns(); }
    // The column holding `label` (OTHER when grouped), or none.
    std::optional<size_t> columnOf(uint32_t label) const;
};
constexpr size_t kDefaultBands = 15;
BandSelection selectBands(const HeapProfileData& hp, const HeapBands& bands, size_t n = kDefaultBands,
                          BandOrder order = BandOrder::Size, bool reversed = false);

// Bytes of every label (indexed by label) at census position `pos`.
std::vector<uint64_t> bytesAtCensus(const HeapProfileData& hp, const HeapBands& bands, size_t pos);

// Residency of every label within [t0, t1]: byte·seconds of the trapezoids
// between censuses clipped to the range (so a range between two censuses
// gets the interpolated bytes times its length).
std::vector<double> byteSecondsIn(const HeapProfileData& hp, const HeapBands& bands, uint64_t t0, uint64_t t1);

// How every label changed over the censuses with times in [t0, t1) (ns):
// the least-squares slope and its R² as BandStats has them for the whole
// run (a census without the label is 0 bytes), and the growth from the
// first of those censuses to the last. Fewer than two censuses: all zero.
struct BandTrend {
    double slope = 0;  // bytes per second
    double r2 = 0;     // 0 when bytes or times are constant
    int64_t growth = 0; // bytes: last census minus first
};
struct BandTrends {
    std::vector<BandTrend> labels; // indexed by label
    size_t censuses = 0;           // censuses in the range
};
BandTrends bandTrendsIn(const HeapProfileData& hp, const HeapBands& bands, uint64_t t0, uint64_t t1);

} // namespace hecscope
