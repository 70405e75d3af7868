#include "core/index/threadstatesbuild.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <functional>
#include <new>
#include <optional>
#include <system_error>
#include <unordered_map>
#include <utility>

namespace hecscope::threadbuild {

// The threads' bin pyramids (ThreadStates::overviews), made at each seal.

namespace {

// Where a thread's bins are: from its first segment, at most 65536 level-0
// bins of about eight segments each (a bin is never drawn wider than a
// pixel: finer bins would only put off reading the segments back from the
// file, zoomed in, for a byte per four segments more). A growing log's (`growing`) are a power
// of two ns wide, so that a thread keeps its bins until its extent doubles
// (and then halves them); a whole log's are as narrow as that allows.
BinPyramid overviewShape(uint64_t start, uint64_t extent, size_t segments, bool growing)
{
    BinPyramid ov;
    ov.start = start;
    extent = std::max<uint64_t>(extent, 1);
    const uint64_t want = std::clamp<uint64_t>(segments / 8, 1, uint64_t(1) << 16);
    ov.binWidth = std::max<uint64_t>(1, (extent + want - 1) / want);
    if (growing)
        ov.binWidth = std::bit_ceil(ov.binWidth);
    ov.bins = uint32_t((extent + ov.binWidth - 1) / ov.binWidth);
    ov.levels = BinPyramid::levelsFor(ov.bins);
    return ov;
}

} // namespace

void buildOverview(ThreadStates& out, size_t k, OverviewScratch& scratch, bool growing, const BinPyramid* reused,
                   const uint8_t* reusedKeys, uint64_t cleanBefore, ThreadTotals* totals, std::vector<uint8_t>* keysOut,
                   ThreadIntervals* intervals, uint64_t intervalWidth)
{
    std::vector<uint8_t>& keys = keysOut ? *keysOut : out.overviewKeys;
    const SegmentView segs = out.of(k);
    const size_t n = segs.size();
    BinPyramid& ov = out.overviews[k];
    const uint64_t start = segs.timeAt(0);
    ov = overviewShape(start, out.segmentEnd(segs, n - 1) - start, n, growing);
    ov.offset = keys.size();
    // The level-0 bins binned again: from a bin that starts a bin of every
    // level, so that each coarser bin from there has all its halves.
    // When the thread's extent has doubled since, its bins have too: the
    // last pyramid's level `shift` is this one's level 0.
    uint64_t from = 0;
    int shift = 0;
    if (reused && reused->start == ov.start && reused->binWidth && ov.binWidth >= reused->binWidth
        && cleanBefore > ov.start) {
        shift = std::countr_zero(ov.binWidth / reused->binWidth);
        if ((reused->binWidth << shift) == ov.binWidth && shift < reused->levels) {
            // (Up to the last pyramid's top level: at most one level fewer
            // than a new pyramid would have.)
            ov.levels = uint8_t(std::min<int>(ov.levels, reused->levels - shift));
            const uint64_t cleanBins
                = std::min<uint64_t>((cleanBefore - ov.start) / ov.binWidth, reused->levelBins(shift));
            from = (cleanBins >> (ov.levels - 1)) << (ov.levels - 1);
        }
    }
    if (from == 0)
        reused = nullptr;
    if (totals && from != 0)
        totals = nullptr; // (not asked for: see above)
    if (intervals && (from != 0 || intervalWidth == 0))
        intervals = nullptr;
    std::optional<IntervalTotalsAdder> adder;
    if (intervals)
        adder.emplace(out, k, intervalWidth, *intervals);
    // The segments from the one covering bin `from`, read in order.
    const uint64_t fromTime = ov.start + from * ov.binWidth;
    const size_t first = from ? ThreadStates::firstEndingAfter(segs, fromTime) : 0;
    const auto& stateKeys = ThreadStates::stateKeys();
    // Each level-0 bin's times, as the segments reach past it, give its
    // key and go into its level-1 bin, which, once both its halves are in
    // (or the last has come), gives its key and goes into level 2, and so
    // on: a bin of each level at a time, not a level-0 bin's times for the
    // whole thread (7.8 MB for 65,536 bins) summed level by level after.
    // Integer sums: the same keys whichever way round they are added.
    const int levels = ov.levels;
    keys.resize(ov.offset + ov.totalBins());
    uint8_t* const keyAt = keys.data() + ov.offset;
    std::array<uint64_t, 33> levelAt{}; // first entry of each level
    for (int level = 1; level <= levels; ++level)
        levelAt[size_t(level)] = levelAt[size_t(level - 1)] + ov.levelBins(level - 1);
    if (reused) {
        // (The reused bins: those before `from` at each level.)
        for (int level = 0; level < levels; ++level) {
            const uint8_t* old = reusedKeys + reused->levelOffset(level + shift);
            std::copy(old, old + (from >> level), keyAt + levelAt[size_t(level)]);
        }
    }
    std::array<BinTime, 32>& sums = scratch.levels; // sums[l]: level l's bin being filled
    std::array<uint64_t, 32> next{};                // the index of that bin at level l
    std::array<uint8_t, 32> halves{};               // of its halves, how many are in
    for (int level = 0; level < levels; ++level) {
        sums[size_t(level)] = {};
        next[size_t(level)] = from >> level;
    }
    const auto keyOfTimes = [](const BinTime& times) {
        const auto best = std::max_element(times.begin(), times.end());
        return *best ? uint8_t(best - times.begin()) : ThreadStates::kNoKey;
    };
    // Bin `next[level]` of `level` is complete.
    const auto close = [&](int level) {
        for (;;) {
            BinTime& bin = sums[size_t(level)];
            keyAt[levelAt[size_t(level)] + next[size_t(level)]++] = keyOfTimes(bin);
            if (level + 1 >= levels) {
                bin = {};
                return;
            }
            // (One loop: `bin = {}` after it cost a `rep stos` per bin.)
            BinTime& up = sums[size_t(level) + 1];
            for (size_t key = 0; key < kKeys; ++key) {
                up[key] += bin[key];
                bin[key] = 0;
            }
            if (++halves[size_t(level) + 1] < 2)
                return;
            halves[size_t(level) + 1] = 0;
            ++level;
        }
    };
    // The segments are in time order: the bins are walked along with them
    // (no division per segment).
    BinTime& bin0 = sums[0];
    const uint64_t limit = uint64_t(ov.bins) * ov.binWidth;
    uint64_t binStart = from * ov.binWidth;
    for (SegmentCursor at(segs, first); !at.done();) {
        const PackedSegment p = at.packed();
        const uint64_t time = at.time();
        at.next();
        const uint8_t key = ThreadStates::storedKey(stateKeys, p);
        const uint64_t end = at.done() ? std::max(out.end, time) : at.time();
        if (totals && !adder) { // (else from the intervals' at the end)
            const uint8_t bits = p.bits;
            const auto state = ThreadState(bits & 7);
            if (end > time) {
                totals->time[size_t(state)] += end - time;
                if (state == ThreadState::Blocked)
                    totals->blocked[key - 3] += end - time; // (a blocked key is 3 + its reason)
            }
            switch (ThreadCause((bits >> 3) & 7)) {
            case ThreadCause::Run: ++totals->runs; break;
            case ThreadCause::Migrate: ++totals->migrations; break;
            case ThreadCause::Wakeup: ++totals->wakeups; break;
            default: break;
            }
        }
        if (adder)
            adder->add(p, key, time, end);
        if (key == ThreadStates::kNoKey)
            continue;
        uint64_t a = std::max(time - ov.start, from * ov.binWidth);
        const uint64_t b = std::min(end - ov.start, limit);
        while (a < b) {
            while (binStart + ov.binWidth <= a) {
                close(0);
                binStart += ov.binWidth;
            }
            const uint64_t binEnd = std::min(b, binStart + ov.binWidth);
            bin0[key] += binEnd - a;
            a = binEnd;
        }
    }
    if (totals && adder)
        *totals = adder->whole(out.end);
    // The bins no segment reached, then the last bin of each level with
    // one half only.
    while (next[0] < ov.bins)
        close(0);
    for (int level = 1; level < levels; ++level)
        if (halves[size_t(level)] != 0) {
            halves[size_t(level)] = 0;
            close(level);
        }
}

bool buildOverviews(ThreadStates& out, const LoadObserver* observer, const PreviousOverviews* previous)
{
    out.overviews.assign(out.ids.size(), {});
    OverviewScratch scratch;
    size_t j = 0;
    for (size_t k = 0; k < out.ids.size(); ++k) {
        if ((k & 0xFF) == 0 && isCancelled(observer))
            return false;
        if (out.offsets[k + 1] - out.offsets[k] < ThreadStates::kOverviewMinSegments)
            continue;
        if (previous && previous->cleanBefore.size() == previous->ids.size()) {
            while (j < previous->ids.size() && previous->ids[j] < out.ids[k])
                ++j;
            if (j < previous->ids.size() && previous->ids[j] == out.ids[k] && previous->overviews[j].bins > 0) {
                const BinPyramid& old = previous->overviews[j];
                buildOverview(out, k, scratch, true, &old, previous->keys.data() + old.offset, previous->cleanBefore[j]);
                continue;
            }
        }
        buildOverview(out, k, scratch, previous != nullptr);
    }
    return true;
}

} // namespace hecscope::threadbuild
