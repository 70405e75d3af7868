#include "core/index/timeline.h"

#include <algorithm>
#include <cmath>

namespace hecscope {
namespace {

// First index in [lo, hi) where `pred` holds; `pred` is false then true.
template <class Pred>
size_t partitionPoint(size_t lo, size_t hi, Pred pred)
{
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (pred(mid))
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

} // namespace

uint64_t SpanTotals::gc() const
{
    uint64_t sum = 0;
    for (size_t k = 1; k < kSpanKinds; ++k)
        if (isCollecting(SpanKind(k)))
            sum += time[k];
    return sum;
}

SpanTotals& SpanTotals::operator+=(const SpanTotals& o)
{
    for (size_t k = 0; k < kSpanKinds; ++k)
        time[k] += o.time[k];
    runs += o.runs;
    return *this;
}

SpanTotals& SpanTotals::operator-=(const SpanTotals& o)
{
    for (size_t k = 0; k < kSpanKinds; ++k)
        time[k] -= o.time[k];
    runs -= o.runs;
    return *this;
}

void CapTimeline::append(const Span& s)
{
    if (m_spans.size() % kBlock == 0) {
        m_blockTotals.push_back(m_total);
        m_blockStarts.push_back(s.start());
        m_blockThreads.push_back(0);
    }
    m_spans.push_back(s);
    if (s.kind() == SpanKind::Running)
        m_blockThreads.back() |= uint64_t(1) << (s.thread() % 64);
    m_total.time[size_t(s.kind())] += s.length();
    if (s.kind() == SpanKind::Running && !s.continued())
        ++m_total.runs;
}

void CapTimeline::truncateKeeping(size_t first)
{
    m_total = totalsBeforeIndex(first);
    m_spans.truncateKeeping(first);
    // A kept block's thread mask may keep bits of the dropped spans: that
    // only costs a block visit, never a wrong answer (as popBack).
    const size_t blocks = (first + kBlock - 1) / kBlock;
    m_blockTotals.resize(blocks);
    m_blockStarts.resize(blocks);
    m_blockThreads.resize(blocks);
}

void CapTimeline::popBack()
{
    const Span& s = m_spans.back();
    m_total.time[size_t(s.kind())] -= s.length();
    if (s.kind() == SpanKind::Running && !s.continued())
        --m_total.runs;
    m_spans.pop_back();
    // A block's thread mask may keep a bit the removed span set: that only
    // costs a block visit, never a wrong answer.
    if (m_spans.size() % kBlock == 0) {
        m_blockTotals.pop_back();
        m_blockStarts.pop_back();
        m_blockThreads.pop_back();
    }
}

size_t CapTimeline::firstStartingAtFrom(size_t from, uint64_t t) const
{
    const size_t n = m_spans.size();
    if (from >= n)
        return n;
    // Blocks first (their starts are contiguous), galloping from `from`'s
    // block; then within one block.
    const size_t blocks = m_blockStarts.size();
    size_t b = from / kBlock, step = 1;
    while (b + step < blocks && m_blockStarts[b + step] < t) {
        b += step;
        step *= 2;
    }
    // The last block starting before t is in [b, b + step].
    const size_t hiBlock = std::min(blocks, b + step + 1);
    const size_t last = partitionPoint(b, hiBlock, [&](size_t k) { return m_blockStarts[k] >= t; });
    const size_t lo = std::max(from, last == 0 ? 0 : (last - 1) * kBlock);
    const size_t hi = std::min(n, std::max(lo, last * kBlock + 1));
    return partitionPoint(lo, hi, [&](size_t k) { return m_spans[k].start() >= t; });
}

size_t CapTimeline::firstEndingAfter(uint64_t t) const
{
    // Spans never overlap: the one before the first starting at or after t
    // is the only one that can cover t.
    const size_t k = firstStartingAt(t);
    return k > 0 && m_spans[k - 1].end() > t ? k - 1 : k;
}

size_t CapTimeline::firstStartingAt(uint64_t t) const
{
    return firstStartingAtFrom(0, t);
}

SpanTotals CapTimeline::totalsBeforeIndex(size_t i) const
{
    if (i >= m_spans.size())
        return m_total;
    const size_t block = i / kBlock;
    SpanTotals t = m_blockTotals[block];
    for (size_t k = block * kBlock; k < i; ++k) {
        const Span& s = m_spans[k];
        t.time[size_t(s.kind())] += s.length();
        if (s.kind() == SpanKind::Running && !s.continued())
            ++t.runs;
    }
    return t;
}

SpanTotals CapTimeline::totalsBefore(uint64_t t) const
{
    const size_t i = firstStartingAt(t);
    SpanTotals totals = totalsBeforeIndex(i);
    if (i > 0) {
        const Span& last = m_spans[i - 1];
        if (last.end() > t)
            totals.time[size_t(last.kind())] -= last.end() - t;
    }
    return totals;
}

SpanTotals CapTimeline::totalsIn(uint64_t t0, uint64_t t1) const
{
    if (t1 <= t0)
        return {};
    SpanTotals totals = totalsBefore(t1);
    totals -= totalsBefore(t0);
    return totals;
}

void CapTimeline::lod(uint64_t t0, uint64_t t1, uint32_t pixels, std::vector<LodItem>& out) const
{
    if (pixels == 0 || t1 <= t0)
        return;
    const double width = double(t1 - t0) / pixels;
    const size_t n = m_spans.size();
    size_t i = firstEndingAfter(t0);
    while (i < n) {
        const Span& s = m_spans[i];
        if (s.start() >= t1)
            break;
        LodItem item;
        item.start = s.start();
        item.end = s.end();
        item.kind = s.kind();
        item.stop = s.stop();
        item.thread = s.thread();
        if (s.start() < t0) { // crosses the left edge: exact
            out.push_back(item);
            ++i;
            continue;
        }
        const double b = std::floor(double(s.start() - t0) / width);
        // In doubles, the pixel's end can round past t1 - t0 (and past 2^64).
        const double edge = std::ceil((b + 1) * width);
        const uint64_t offset = edge >= double(t1 - t0) ? t1 - t0 : uint64_t(edge);
        const uint64_t bucketEnd = t0 + offset;
        if (s.end() > bucketEnd) { // crosses a pixel boundary: exact
            out.push_back(item);
            ++i;
            continue;
        }
        // Spans [i, j) lie wholly inside this pixel: j is the first from
        // i + 1 that starts at the pixel's end or later, or the one before
        // it when that one crosses the end.
        size_t j = firstStartingAtFrom(i + 1, bucketEnd);
        if (j > i + 1 && m_spans[j - 1].end() > bucketEnd)
            --j;
        if (j - i > 1) {
            item.aggregate = true;
            item.end = m_spans[j - 1].end();
            item.count = uint32_t(std::min<size_t>(j - i, UINT32_MAX));
            item.totals = totalsBeforeIndex(j);
            item.totals -= totalsBeforeIndex(i);
            const auto& time = item.totals.time;
            item.kind = SpanKind(std::max_element(time.begin(), time.end()) - time.begin());
            item.stop = 0;
            item.thread = 0;
        }
        out.push_back(item);
        i = j;
    }
}

size_t CapTimeline::memoryBytes() const
{
    return m_spans.memoryBytes() + m_blockTotals.capacity() * sizeof(SpanTotals)
        + (m_blockStarts.capacity() + m_blockThreads.capacity()) * sizeof(uint64_t);
}

} // namespace hecscope
