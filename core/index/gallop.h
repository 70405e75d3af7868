#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace hecscope {

// The first index in [from, end) of the non-decreasing `values` whose value
// is greater than t (end if none), searched outwards from `from` in doubling
// steps: walking a row pixel by pixel, the answer is usually near.
inline size_t firstAbove(const uint64_t* values, size_t from, size_t end, uint64_t t)
{
    if (from >= end || values[from] > t)
        return from;
    size_t lo = from, step = 1;
    while (lo + step < end && values[lo + step] <= t) {
        lo += step;
        step *= 2;
    }
    return size_t(std::upper_bound(values + lo, values + std::min(lo + step + 1, end), t) - values);
}

} // namespace hecscope
