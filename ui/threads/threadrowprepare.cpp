#include "ui/threads/threadrows.h"

#include "core/index/gallop.h"
#include "core/threads/threadstats.h"
#include "core/threads/userspans.h"
#include "core/detail/detailstore.h"

#include <algorithm>
#include <array>
#include <cmath>

// Preparing a thread row for one (view, width): the level-of-detail walk
// over its segments and spans, or their bin pyramids when zoomed out.
namespace hecscope {

using namespace threadrow;

namespace {

constexpr int kSamplesPerPixel = 8; // segments read per pixel before skipping to the next
constexpr int kMarkGap = 5;         // pixels between marks of one kind

} // namespace

namespace {

// Pixel columns [first, last) of the view covered by [start, end): within
// [0, width] before they are made ints (a start billions of pixels past
// the view, as bins a few ns wide far off are, is no int).
std::pair<int, int> pixelsOf(const TimeMapping& m, int width, uint64_t start, uint64_t end)
{
    const double a = std::clamp(m.toPixel(start), 0.0, double(width));
    const double b = std::clamp(m.toPixel(end), 0.0, double(width));
    return {int(a), std::max(int(std::ceil(b)), int(a))};
}

// The time at each pixel column's left edge, and one more at the right.
std::vector<uint64_t> pixelEdges(const TimeMapping& m, int width)
{
    std::vector<uint64_t> edges(size_t(width) + 1);
    const double start = double(m.range().start), step = m.nsPerPixel();
    for (int px = 0; px <= width; ++px)
        edges[size_t(px)] = uint64_t(std::max(0.0, start + step * px));
    return edges;
}

// The bins [b0, b1) a pixel column covers.
std::pair<uint64_t, uint64_t> binsOf(const std::vector<uint64_t>& edges, int px, uint64_t start, uint64_t binWidth,
                                     uint64_t bins)
{
    const uint64_t t0 = std::max(edges[size_t(px)], start), t1 = std::max(edges[size_t(px) + 1], start);
    const uint64_t b0 = std::min<uint64_t>((t0 - start) / binWidth, bins);
    return {b0, std::clamp<uint64_t>((t1 - start + binWidth - 1) / binWidth, b0 + 1, bins)};
}

// Zoomed out past a bin per pixel: each pixel shows the commonest state of
// its bins; marks for creation and the end only.
void prepareFromOverview(const LogIndex& ix, uint32_t number, int level, const TimeMapping& m, int width,
                         const std::vector<uint64_t>& edges, PreparedThreadRow& row)
{
    const ThreadStates& states = ix.threadStates;
    const auto segs = states.of(number);
    const BinPyramid& ov = states.overviews[number];
    const uint8_t* keys = states.overviewKeys.data() + ov.offset + ov.levelOffset(level);
    const uint64_t binWidth = ov.levelWidth(level), bins = ov.levelBins(level);
    const auto [p0, p1] = pixelsOf(m, width, ov.start, ov.start + bins * binWidth);
    for (int px = p0; px < p1; ++px) {
        const auto [b0, b1] = binsOf(edges, px, ov.start, binWidth, bins);
        uint8_t colour = keys[b0]; // keys and colours share their numbering
        // (Bins of one key, as most are, need no vote.)
        if (b1 - b0 > 1 && std::any_of(keys + b0 + 1, keys + b1, [&](uint8_t k) { return k != colour; })) {
            std::array<uint16_t, kThreadColours> votes{};
            for (uint64_t b = b0; b < b1; ++b)
                if (keys[b] != ThreadStates::kNoKey)
                    ++votes[keys[b]];
            const auto best = std::max_element(votes.begin(), votes.end());
            colour = *best ? uint8_t(best - votes.begin()) : ThreadStates::kNoKey;
        }
        if (colour == ThreadStates::kNoKey)
            continue;
        if (!row.items.empty() && row.items.back().colour == colour && row.items.back().x1 == float(px))
            row.items.back().x1 = float(px + 1);
        else
            row.items.push_back({float(px), float(px + 1), colour, 0, UINT32_MAX});
    }
    const ViewRange view = m.range();
    const auto inView = [&](uint64_t t) { return t != kNoTime && t >= view.start && t < view.end; };
    if (segs.empty()) { // in the file only: the thread's creation and end as the index has them
        const std::optional<ThreadInfo> info = ix.thread(states.ids[number]);
        if (info && inView(info->created))
            row.marks.push_back({float(m.toPixel(info->created)), uint8_t(ThreadCause::Created), UINT32_MAX});
        if (info && inView(info->finished))
            row.finishedAt = float(m.toPixel(info->finished));
        return;
    }
    if (segs.front().cause == ThreadCause::Created && inView(segs.front().time))
        row.marks.push_back({float(m.toPixel(segs.front().time)), uint8_t(ThreadCause::Created), 0});
    if (segs.back().state == ThreadState::Finished && inView(segs.back().time))
        row.finishedAt = float(m.toPixel(segs.back().time));
}

// The same for span bars: per level, the name of a span in the pixel's bins.
void spansFromOverview(const UserSpans& spans, const BinPyramid& ov, int pyramidLevel, const TimeMapping& m, int width,
                       const std::vector<uint64_t>& edges, PreparedThreadRow& row)
{
    const uint32_t* names = spans.overviewNames.data() + ov.offset + ov.levelOffset(pyramidLevel) * UserSpans::kLevels;
    const uint64_t binWidth = ov.levelWidth(pyramidLevel), bins = ov.levelBins(pyramidLevel);
    const auto [p0, p1] = pixelsOf(m, width, ov.start, ov.start + bins * binWidth);
    for (size_t level = 0; level < UserSpans::kLevels; ++level)
        for (int px = p0; px < p1; ++px) {
            const auto [b0, b1] = binsOf(edges, px, ov.start, binWidth, bins);
            uint32_t name = 0;
            for (uint64_t b = b0; b < b1 && !name; ++b)
                name = names[b * UserSpans::kLevels + level];
            if (!name)
                continue;
            SpanBar* before = row.spans.empty() ? nullptr : &row.spans.back();
            if (before && before->depth == level && before->x1 == float(px) && before->name == name - 1)
                before->x1 = float(px + 1);
            else
                row.spans.push_back({float(px), float(px + 1), uint16_t(level), UINT32_MAX, name - 1});
        }
}

} // namespace

bool threadRowNeedsDetail(const LogIndex& ix, uint32_t number, ViewRange view, int width)
{
    const ThreadStates& states = ix.threadStates;
    if (number >= states.count() || !states.inFileOnly(number))
        return false;
    const TimeMapping m(view, 0, std::max(width, 1));
    return states.overviews[number].levelFor(m.nsPerPixel()) < 0;
}

RowsDetail threadDetailFor(const LogIndex& ix, DetailStore* store, bool wait, const std::vector<uint32_t>& numbers,
                           ViewRange view, int width, std::vector<ThreadWindowKey>* wanted,
                           const std::vector<uint32_t>* nearby)
{
    if (!store)
        return {};
    const ThreadStates& states = ix.threadStates;
    std::vector<uint32_t> need; // ids
    for (const uint32_t k : numbers)
        if (threadRowNeedsDetail(ix, k, view, width))
            need.push_back(states.ids[k]);
    if (need.empty())
        return {};
    std::sort(need.begin(), need.end());
    need.erase(std::unique(need.begin(), need.end()), need.end());
    if (auto found = store->findThreads(view.start, view.end, need))
        return {found};
    // Half a view more on each side: panning a little reads nothing
    // (the view alone when that is too much of the file).
    const uint64_t margin = view.duration() / 2;
    ThreadWindowKey key;
    key.from = view.start > margin ? view.start - margin : 0;
    key.to = std::max(view.end, std::min(view.end + margin, ix.lastTime));
    const uint64_t most = store->maxThreadWindowBytes();
    if (threadDetailBytes(ix, key.from, key.to) > most) {
        key.from = view.start;
        key.to = std::max(view.start + 1, view.end);
        if (threadDetailBytes(ix, key.from, key.to) > most)
            return {nullptr, true};
    }
    // The rows shown that need it, those near them (the other track's
    // too: both ask for the same window), and those not shown with bins in
    // the window that would (scrolling reads nothing more) unless they are
    // too many.
    const double nsPerPixel = TimeMapping(view, 0, std::max(width, 1)).nsPerPixel();
    key.threads = need;
    if (nearby)
        for (const uint32_t k : *nearby)
            if (threadRowNeedsDetail(ix, k, view, width))
                key.threads.push_back(states.ids[k]);
    std::vector<uint32_t> alive; // ids
    for (size_t i = 0; i < states.summarised.size() && alive.size() <= kMostWindowThreads; ++i) {
        const uint32_t k = states.summarised[i];
        const BinPyramid& ov = states.overviews[k];
        if (ov.levelFor(nsPerPixel) < 0 && ov.start < key.to && ov.start + ov.levelBins(0) * ov.binWidth > key.from)
            alive.push_back(states.ids[k]);
    }
    if (alive.size() <= kMostWindowThreads)
        key.threads.insert(key.threads.end(), alive.begin(), alive.end());
    std::sort(key.threads.begin(), key.threads.end());
    key.threads.erase(std::unique(key.threads.begin(), key.threads.end()), key.threads.end());
    if (wait)
        return {store->loadThreads(ix, key)};
    if (wanted)
        wanted->push_back(std::move(key));
    return {};
}

PreparedThreadRow prepareThreadRow(const LogIndex& ix, const UserSpans* spans, uint32_t number, ViewRange view,
                                   int width, const RowsDetail& rowsDetail)
{
    const std::shared_ptr<const ThreadDetail>& detail = rowsDetail.window;
    PreparedThreadRow row;
    row.number = number;
    if (number >= ix.threadStates.count())
        return row;
    width = std::max(width, 1);
    const TimeMapping m(view, 0, width);

    const double nsPerPixel = m.nsPerPixel();
    const ThreadStates& index = ix.threadStates;
    int overviewLevel = index.overviews.empty() ? -1 : index.overviews[number].levelFor(nsPerPixel);
    // A thread whose segments are in the file only, zoomed in past its
    // bins: the segments read back for the view, or until they are, its
    // finest bins.
    static const ThreadStates kNone;
    const ThreadStates* from = &index;
    size_t inStates = number;
    if (overviewLevel < 0 && index.inFileOnly(number)) {
        if (detail && detail->error.empty() && detail->from <= view.start && view.end <= detail->to
            && detail->holds(index.ids[number])) {
            row.detail = detail;
            inStates = detail->states.find(index.ids[number]);
            from = inStates == SIZE_MAX ? &kNone : &detail->states;
        } else {
            overviewLevel = 0;
            row.coarse = !detail && rowsDetail.tooWide;
            row.pending = !detail && !rowsDetail.tooWide;
            if (detail)
                row.error = QString::fromStdString(detail->error);
        }
    }
    const ThreadStates& states = *from;
    const SegmentView segs = inStates == SIZE_MAX ? SegmentView() : states.of(inStates);
    row.detailNumber = inStates;
    std::vector<uint64_t> edges; // made when an overview is read
    if (overviewLevel >= 0) {
        edges = pixelEdges(m, width);
        prepareFromOverview(ix, number, overviewLevel, m, width, edges, row);
    } else {
    // Segments: exact where one covers a pixel boundary, else the dominant
    // state of the pixel's segments (reading at most kSamplesPerPixel of
    // them before skipping to the next pixel).
    std::array<uint64_t, kThreadColours> pixelTime{};
    int pixel = INT32_MIN;
    int pixelSamples = 0;
    const auto flushPixel = [&] {
        if (pixel == INT32_MIN)
            return;
        const auto best = std::max_element(pixelTime.begin(), pixelTime.end());
        if (*best > 0)
        {
            const uint8_t colour = uint8_t(best - pixelTime.begin());
            // Runs of pixels of one dominant state are one item.
            if (!row.items.empty() && row.items.back().segment == UINT32_MAX && row.items.back().colour == colour
                && row.items.back().x1 == float(pixel))
                row.items.back().x1 = float(pixel + 1);
            else
                row.items.push_back({float(pixel), float(pixel + 1), colour, 0, UINT32_MAX});
        }
        pixelTime.fill(0);
        pixel = INT32_MIN;
        pixelSamples = 0;
    };
    int lastMark[3] = {INT32_MIN, INT32_MIN, INT32_MIN};
    for (size_t i = segs.empty() ? 0 : ThreadStates::firstEndingAfter(segs, view.start);
         i < segs.size() && segs[i].time < view.end; ++i) {
        const ThreadSegment& s = segs[i];
        const uint64_t end = states.segmentEnd(segs, i);
        const double x0 = m.toPixel(std::max(s.time, view.start));
        const double x1 = m.toPixel(std::min(end, view.end));
        // Marks, one per pixel and kind.
        if (s.time >= view.start) {
            const int k = s.cause == ThreadCause::Created ? 0 : s.cause == ThreadCause::Wakeup ? 1
                : s.cause == ThreadCause::Migrate                                           ? 2
                                                                                            : -1;
            // Marks closer than kMarkGap pixels to the last of their kind
            // would only cover each other.
            if (k >= 0 && (lastMark[k] == INT32_MIN || int(x0) - lastMark[k] >= kMarkGap)) {
                lastMark[k] = int(x0);
                row.marks.push_back({float(x0), uint8_t(s.cause), uint32_t(i)});
            }
        }
        if (s.state == ThreadState::Finished) {
            flushPixel();
            if (s.time >= view.start)
                row.finishedAt = float(x0);
            continue;
        }
        if (end <= s.time && end != states.end)
            continue; // zero length
        const uint8_t colour = threadColourOf(s);
        if (int(x0) == int(x1) && x1 - x0 < 1) {
            // Inside one pixel.
            if (int(x0) != pixel) {
                flushPixel();
                pixel = int(x0);
            }
            pixelTime[colour] += std::max<uint64_t>(end - std::max(s.time, view.start), 1);
            if (++pixelSamples >= kSamplesPerPixel) {
                // Skip to the segment covering the next pixel's start.
                const size_t j = states.firstEndingAfterFrom(inStates, i, m.toTime(pixel + 1));
                if (j > i + 1)
                    i = j - 1;
                flushPixel();
            }
            continue;
        }
        flushPixel();
        row.items.push_back({float(x0), float(std::max(x1, x0 + 1)), colour, s.cap, uint32_t(i)});
    }
    flushPixel();

    }

    // Span bars of this thread, one level at a time. A span inside one
    // pixel stands for every span of its level that ends in that pixel:
    // the running maximum of ends finds the next one to read.
    if (spans) {
        const uint32_t id = index.ids[number];
        const auto t = std::lower_bound(spans->threadIds.begin(), spans->threadIds.end(), id);
        if (t != spans->threadIds.end() && *t == id) {
            const size_t thread = size_t(t - spans->threadIds.begin());
            const BinPyramid& sov = spans->threadOverviews[thread];
            if (const int pyramidLevel = sov.levelFor(nsPerPixel); pyramidLevel >= 0) {
                if (edges.empty())
                    edges = pixelEdges(m, width);
                spansFromOverview(*spans, sov, pyramidLevel, m, width, edges, row);
            }
            else
            for (size_t level = 0; level < UserSpans::kLevels; ++level) {
                const size_t g0 = spans->levelOffsets[thread * UserSpans::kLevels + level];
                const size_t g1 = spans->levelOffsets[thread * UserSpans::kLevels + level + 1];
                const uint64_t* maxEnd = spans->levelMaxEnd.data();
                // The first span with an end after `t`, from g (galloping).
                const auto firstEndingAfter = [&](size_t g, uint64_t time) { return firstAbove(maxEnd, g, g1, time); };
                int lastPixel = INT32_MIN;
                for (size_t g = firstEndingAfter(g0, view.start); g < g1;) {
                    const UserSpans::Extent& s = spans->levelExtents[g];
                    if (s.start >= view.end)
                        break;
                    const double x0 = m.toPixel(std::max(s.start, view.start));
                    const double x1 = m.toPixel(std::min(s.end, view.end));
                    if (x1 - x0 >= 1) {
                        row.spans.push_back({float(x0), float(x1), uint16_t(level), s.span, s.name});
                        lastPixel = int(x1);
                        ++g;
                        continue;
                    }
                    const int px = int(x0);
                    if (px != lastPixel) {
                        // Adjacent one-pixel bars of one name make one bar.
                        SpanBar* before = row.spans.empty() ? nullptr : &row.spans.back();
                        if (before && before->depth == level && before->x1 == float(px) && before->name == s.name
                            && before->x1 - before->x0 >= 1) {
                            before->x1 = float(px + 1);
                            before->span = UINT32_MAX;
                        } else {
                            row.spans.push_back({float(px), float(px + 1), uint16_t(level), s.span, s.name});
                        }
                        lastPixel = px;
                    } else if (!row.spans.empty() && row.spans.back().span != s.span) {
                        row.spans.back().span = UINT32_MAX; // several spans in this pixel
                    }
                    g = firstEndingAfter(g + 1, m.toTime(px + 1));
                }
            }
        }
    }

    // Pixels: a pixel shows the last item or bar drawn over it.
    row.strip = QImage(width, 1 + kSpanLevels, QImage::Format_ARGB32_Premultiplied);
    row.strip.fill(Qt::transparent);
    const auto fill = [&](int line, float x0, float x1, QRgb rgb) {
        QRgb* px = reinterpret_cast<QRgb*>(row.strip.scanLine(line));
        const int a = std::clamp(int(x0), 0, width - 1);
        const int b = std::clamp(std::max(int(std::ceil(x1)), a + 1), a + 1, width);
        std::fill(px + a, px + b, rgb);
    };
    QRgb stateRgb[kThreadColours];
    for (int c = 0; c < kThreadColours; ++c)
        stateRgb[c] = threadColour(c).rgba();
    for (const ThreadRowItem& item : row.items)
        fill(0, item.x0, item.x1, stateRgb[item.colour]);
    if (spans) {
        std::vector<std::pair<uint32_t, QRgb>> colours[kSpanLevels]; // per level: (name, colour), made on first use
        for (const SpanBar& b : row.spans) {
            const uint32_t name = b.name;
            auto& list = colours[b.depth];
            auto it = std::find_if(list.begin(), list.end(), [&](const auto& e) { return e.first == name; });
            if (it == list.end())
                it = list.insert(list.end(), {name, spanColour(name).darker(100 + 15 * b.depth).rgba()});
            fill(1 + b.depth, b.x0, b.x1, it->second);
        }
    }
    return row;
}

} // namespace hecscope
