#pragma once

#include <cmath>
#include <cstdint>

namespace hecscope {

// Where a summary of one thread's row lives: bins of equal time from
// `start`, level 0 `binWidth` ns wide, each further level merging pairs of
// the one below (twice as wide, half as many), stored level after level
// from `offset` in an array of per-bin entries. A row drawn at some ns per
// pixel reads the widest level whose bins are no wider than a pixel, so a
// pixel costs one or two bins however many events it covers.
struct BinPyramid {
    uint64_t start = 0, binWidth = 0; // ns, level 0
    uint64_t offset = 0;              // first entry of level 0
    uint32_t bins = 0;                // at level 0; 0: no summary
    uint8_t levels = 0;

    uint64_t levelBins(int level) const { return (uint64_t(bins) + (uint64_t(1) << level) - 1) >> level; }
    uint64_t levelWidth(int level) const { return binWidth << level; }
    // First entry of `level`, relative to `offset`.
    uint64_t levelOffset(int level) const
    {
        uint64_t at = 0;
        for (int l = 0; l < level; ++l)
            at += levelBins(l);
        return at;
    }
    uint64_t totalBins() const { return levelOffset(levels); }
    // The level to draw at `nsPerPixel`, or -1 when bins are wider than a
    // pixel (or there is no summary): then read the events themselves.
    int levelFor(double nsPerPixel) const
    {
        if (!bins || nsPerPixel < double(binWidth))
            return -1;
        int level = int(std::floor(std::log2(nsPerPixel / double(binWidth))));
        return level < 0 ? -1 : (level >= levels ? levels - 1 : level);
    }
    // Levels for `bins` at level 0: down to a few bins.
    static uint8_t levelsFor(uint32_t bins)
    {
        uint8_t levels = 1;
        while ((uint64_t(bins) >> levels) >= 16 && levels < 32)
            ++levels;
        return levels;
    }
};

} // namespace hecscope
