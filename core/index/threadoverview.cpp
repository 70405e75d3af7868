#include "core/index/threadstatesbuild.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <functional>
#include <new>
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
                   const uint8_t* reusedKeys, uint64_t cleanBefore, ThreadTotals* totals, std::vector<uint8_t>* keysOut)
{
    std::vector<uint8_t>& keys = keysOut ? *keysOut : out.overviewKeys;
    const SegmentView segs = out.of(k);
    const size_t base = out.offsets[k], n = segs.size();
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
    // The segments from the one covering bin `from`, decoded in order
    // (one ahead: its time ends the one before): times from the
    // checkpoints (far ones from farTimes, in index order as well).
    const uint64_t fromTime = ov.start + from * ov.binWidth;
    const size_t first = from ? ThreadStates::firstEndingAfter(segs, fromTime) : 0;
    const uint64_t* checks = out.checkTimes.data() + out.checkOffsets[k];
    auto far = std::lower_bound(out.farTimes.begin(), out.farTimes.end(), std::pair<uint64_t, uint64_t>(base + first, 0));
    const auto timeOf = [&](size_t i) {
        const PackedSegment& p = segs.packedAt(i);
        if (p.offset != PackedSegment::kFar) [[likely]]
            return checks[i / ThreadStates::kCheckEvery] + p.offset;
        while (far != out.farTimes.end() && far->first < base + i)
            ++far;
        return far != out.farTimes.end() && far->first == base + i ? far->second : checks[i / ThreadStates::kCheckEvery];
    };
    const auto keyOf = [&](size_t i) {
        const PackedSegment& p = segs.packedAt(i);
        ThreadSegment s{};
        s.state = ThreadState(p.bits & 7);
        s.stop = p.stop;
        return ThreadStates::stateKey(s);
    };
    BinTimes& binTime = scratch.binTime;
    binTime.assign(ov.bins - from, {});
    // The segments are in time order: the bins are walked along with them
    // (no division per segment).
    const uint64_t limit = uint64_t(ov.bins) * ov.binWidth;
    size_t at = 0;
    uint64_t binStart = from * ov.binWidth;
    uint64_t next = first < n ? timeOf(first) : 0;
    for (size_t i = first; i < n; ++i) {
        const uint64_t time = next;
        if (i + 1 < n)
            next = timeOf(i + 1);
        const uint8_t key = keyOf(i);
        const uint64_t end = i + 1 < n ? next : std::max(out.end, time);
        if (totals) {
            const uint8_t bits = segs.packedAt(i).bits;
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
        if (key == ThreadStates::kNoKey)
            continue;
        uint64_t a = std::max(time - ov.start, from * ov.binWidth);
        const uint64_t b = std::min(end - ov.start, limit);
        while (a < b) {
            while (binStart + ov.binWidth <= a) {
                ++at;
                binStart += ov.binWidth;
            }
            const uint64_t binEnd = std::min(b, binStart + ov.binWidth);
            binTime[at][key] += binEnd - a;
            a = binEnd;
        }
    }
    // Level by level: the reused keys, then the bins binned again (each
    // coarser level summed in place over the finer one).
    size_t count = binTime.size();
    for (int level = 0; level < ov.levels; ++level) {
        if (level > 0) {
            for (size_t bin = 0; bin < (count + 1) / 2; ++bin) {
                auto& sum = binTime[bin];
                sum = binTime[2 * bin];
                if (2 * bin + 1 < count)
                    for (size_t key = 0; key < kKeys; ++key)
                        sum[key] += binTime[2 * bin + 1][key];
            }
            count = (count + 1) / 2;
        }
        const uint64_t kept = from >> level;
        if (reused) {
            const uint8_t* old = reusedKeys + reused->levelOffset(level + shift);
            keys.insert(keys.end(), old, old + kept);
        }
        for (size_t bin = 0; bin < count; ++bin) {
            const auto& times2 = binTime[bin];
            const auto best = std::max_element(times2.begin(), times2.end());
            keys.push_back(*best ? uint8_t(best - times2.begin()) : ThreadStates::kNoKey);
        }
    }
}

bool buildOverviews(ThreadStates& out, const LoadObserver* observer, const PreviousOverviews* previous,
                    const std::function<void(size_t)>& done)
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
                if (done)
                    done(k);
                continue;
            }
        }
        buildOverview(out, k, scratch, previous != nullptr);
        if (done)
            done(k);
    }
    return true;
}

} // namespace hecscope::threadbuild
