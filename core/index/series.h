#pragma once

#include <cstdint>
#include <vector>

namespace hecscope {

struct LogIndex;

// A figure sampled over time (heap size, live bytes, ...), in time order.
// Between samples the figure holds its last value.
struct SeriesPoint {
    uint64_t time = 0; // ns
    double value = 0;
};
using Series = std::vector<SeriesPoint>;

// The heap figures of a log as time series: HEAP_SIZE, BLOCKS_SIZE and
// HEAP_LIVE of every capset, and the total allocated by all capabilities so
// far (each capability reports its own cumulative HEAP_ALLOCATED; the total
// at a sample is the sum of every capability's latest figure).
struct HeapSeries {
    Series size, blocks, live, allocated;
    bool empty() const { return size.empty() && blocks.empty() && live.empty() && allocated.empty(); }
};
HeapSeries heapSeries(const LogIndex& index);

// One value per pixel column of [t0, t1) drawn `pixels` wide: the largest
// value the figure has inside the column (the value held from before it
// counts), so peaks survive any zoom. Columns before the first sample or
// after the last are NaN (nothing to draw). Exactly `pixels` values.
std::vector<double> columnMaxima(const Series& s, uint64_t t0, uint64_t t1, uint32_t pixels);

// The growth rate (per second) of a cumulative figure in each column,
// reading the figure as growing linearly between samples. NaN outside the
// samples' span.
std::vector<double> columnRates(const Series& cumulative, uint64_t t0, uint64_t t1, uint32_t pixels);

} // namespace hecscope
