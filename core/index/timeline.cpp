#include "core/index/timeline.h"

#include "core/index/varint.h"

#include "core/io/spillfile.h"

#include <algorithm>
#include <cmath>
#include <utility>

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

namespace {

std::atomic<uint64_t> g_nextTimelineId{1};

uint64_t newTimelineId()
{
    return g_nextTimelineId.fetch_add(1, std::memory_order_relaxed);
}

// Where decoding a block has got to: the next span's byte, the previous
// span's end, thread and stop reason.
struct DecodeState {
    uint64_t at = 0; // (an offset: a growing first chunk of bytes moves)
    uint64_t end = 0;
    uint32_t thread = 0;
    uint8_t stop = 0;
};

// The blocks this thread read last, decoded as far as was read.
struct DecodedBlock {
    uint64_t id = 0;
    size_t block = 0;
    size_t decoded = 0;
    DecodeState state;
    std::array<Span, CapTimeline::kBlock> spans;
};
constexpr size_t kCachedBlocks = 4;
thread_local std::array<DecodedBlock, kCachedBlocks> t_decoded;
thread_local size_t t_nextDecoded = 0;

// A span's first byte: its kind, and which fields follow.
constexpr uint8_t kKindMask = 0x7;
constexpr uint8_t kContinued = 0x8;
constexpr uint8_t kHasGap = 0x10;
constexpr uint8_t kHasThread = 0x20;
// The stop reason: none, the previous span's (most runs of a program end
// alike), or in the next byte.
constexpr uint8_t kStopMask = 0xC0;
constexpr uint8_t kStopNone = 0x00;
constexpr uint8_t kStopSame = 0x40;
constexpr uint8_t kStopByte = 0x80;

// Spans start at or after the previous one's end; a gap is stored zigzagged
// all the same, so a timeline given an overlap keeps it.

// The next span of a block from `p`.
[[gnu::always_inline]] inline Span decodeSpan(const uint8_t*& p, DecodeState& st)
{
    const uint8_t flags = *p++;
    switch (flags & kStopMask) {
    case kStopNone: st.stop = 0; break;
    case kStopSame: break;
    default: st.stop = *p++; break;
    }
    uint64_t begin = st.end;
    if (flags & kHasGap)
        begin = uint64_t(int64_t(st.end) + unzigzag(getVarint(p)));
    const uint32_t length = uint32_t(getVarint(p));
    if (flags & kHasThread)
        st.thread = uint32_t(getVarint(p));
    st.end = begin + length;
    return Span(begin, length, SpanKind(flags & kKindMask), st.thread, st.stop, flags & kContinued);
}

// A whole block's spans, from its first byte and its first span's start.
void decodeBlock(const uint8_t* p, uint64_t start, Span* out)
{
    DecodeState st;
    st.end = start;
    for (size_t k = 0; k < CapTimeline::kBlock; ++k)
        out[k] = decodeSpan(p, st);
}

} // namespace

CapTimeline::CapTimeline()
    : m_id(newTimelineId())
{
}

CapTimeline::CapTimeline(const CapTimeline& o)
    : m_bytes(o.m_bytes)
    , m_blockOffsets(o.m_blockOffsets)
    , m_encoded(o.m_encoded)
    , m_tail(o.m_tail)
    , m_blockTotals(o.m_blockTotals)
    , m_blockStarts(o.m_blockStarts)
    , m_blockThreads(o.m_blockThreads)
    , m_total(o.m_total)
    , m_id(newTimelineId())
{
}

CapTimeline& CapTimeline::operator=(const CapTimeline& o)
{
    if (this != &o)
        *this = CapTimeline(o);
    return *this;
}

CapTimeline::CapTimeline(CapTimeline&& o) noexcept
    : m_bytes(std::move(o.m_bytes))
    , m_blockOffsets(std::move(o.m_blockOffsets))
    , m_encoded(std::exchange(o.m_encoded, 0))
    , m_tail(std::move(o.m_tail))
    , m_blockTotals(std::move(o.m_blockTotals))
    , m_blockStarts(std::move(o.m_blockStarts))
    , m_blockThreads(std::move(o.m_blockThreads))
    , m_total(std::exchange(o.m_total, {}))
    , m_id(std::exchange(o.m_id, newTimelineId()))
{
    o.m_tail.clear();
}

CapTimeline& CapTimeline::operator=(CapTimeline&& o) noexcept
{
    if (this != &o) {
        m_bytes = std::move(o.m_bytes);
        m_blockOffsets = std::move(o.m_blockOffsets);
        m_encoded = std::exchange(o.m_encoded, 0);
        m_tail = std::move(o.m_tail);
        o.m_tail.clear();
        m_blockTotals = std::move(o.m_blockTotals);
        m_blockStarts = std::move(o.m_blockStarts);
        m_blockThreads = std::move(o.m_blockThreads);
        m_total = std::exchange(o.m_total, {});
        m_id = std::exchange(o.m_id, newTimelineId());
    }
    return *this;
}

void CapTimeline::append(const Span& s)
{
    if (size() % kBlock == 0) {
        m_blockTotals.push_back(m_total);
        m_blockStarts.push_back(s.start());
        m_blockThreads.push_back(0);
    }
    m_tail.push_back(s);
    if (s.kind() == SpanKind::Running)
        m_blockThreads.back() |= uint64_t(1) << (s.thread() % 64);
    m_total.time[size_t(s.kind())] += s.length();
    if (s.kind() == SpanKind::Running && !s.continued())
        ++m_total.runs;
    if (m_tail.size() == kBlock)
        encodeTail();
}

void CapTimeline::encodeTail()
{
    std::array<uint8_t, kBlock * kMaxSpanBytes> buffer;
    uint8_t* p = buffer.data();
    uint64_t end = m_tail.front().start();
    uint32_t thread = 0;
    uint8_t stop = 0;
    for (const Span& s : m_tail) {
        uint8_t* head = p++;
        uint8_t flags = uint8_t(s.kind()) | (s.continued() ? kContinued : 0);
        if (s.stop() == 0) {
            flags |= kStopNone;
        } else if (s.stop() == stop) {
            flags |= kStopSame;
        } else {
            flags |= kStopByte;
            *p++ = s.stop();
        }
        stop = s.stop();
        if (s.start() != end) {
            flags |= kHasGap;
            p = putVarint(p, zigzag(int64_t(s.start() - end)));
        }
        p = putVarint(p, s.length());
        if (s.thread() != thread) {
            flags |= kHasThread;
            p = putVarint(p, s.thread());
            thread = s.thread();
        }
        *head = flags;
        end = s.end();
    }
    const size_t length = size_t(p - buffer.data());
    // A block never crosses a chunk's end: it is read in place.
    constexpr size_t chunk = decltype(m_bytes)::kChunk;
    uint64_t at = m_bytes.size();
    if (at / chunk != (at + length - 1) / chunk) {
        m_bytes.grow(chunk - at % chunk);
        at = m_bytes.size();
    }
    if (m_rewrite) // old blocks about to be written over are read first
        while (m_rewrite->nextBlock < m_rewrite->offsets.size() && m_rewrite->offsets[m_rewrite->nextBlock] < at + length)
            readAhead(*m_rewrite);
    std::copy(buffer.data(), p, m_bytes.grow(length));
    m_blockOffsets.push_back(at);
    m_encoded += kBlock;
    m_tail.clear();
    // A rewrite's chunks wholly behind this block hold only new blocks (the
    // old ones there were read first, above): to the file, if it has one.
    const bool newChunk = m_blockOffsets.size() < 2 || m_blockOffsets[m_blockOffsets.size() - 2] / chunk != at / chunk;
    if (m_rewrite && m_rewrite->spill && newChunk && at / chunk >= 2
        && !spillChunksBefore(*m_rewrite->spill, at / chunk - 1))
        m_rewrite->spill = nullptr;
}

const Span* CapTimeline::blockSpans(size_t b, size_t upto) const
{
    if (b * kBlock >= m_encoded)
        return m_tail.data();
    DecodedBlock* found = nullptr;
    for (DecodedBlock& d : t_decoded)
        if (d.id == m_id && d.block == b) {
            found = &d;
            break;
        }
    if (!found) {
        found = &t_decoded[t_nextDecoded++ % kCachedBlocks];
        found->id = m_id;
        found->block = b;
        found->decoded = 0;
        found->state = DecodeState{m_blockOffsets[b], m_blockStarts[b], 0, 0};
    }
    DecodedBlock& d = *found;
    if (d.decoded < upto) {
        // (The state in locals: stores to the spans may alias the block's
        // own state, which would be read back from memory at every span.)
        const uint8_t* const from = &m_bytes[d.state.at];
        const uint8_t* p = from;
        DecodeState st = d.state;
        Span* const out = d.spans.data();
        for (size_t k = d.decoded; k < upto; ++k)
            out[k] = decodeSpan(p, st);
        st.at += uint64_t(p - from);
        d.state = st;
        d.decoded = upto;
    }
    return d.spans.data();
}

size_t CapTimeline::copyBlock(size_t b, Span* out) const
{
    if (b * kBlock >= m_encoded) {
        std::copy(m_tail.begin(), m_tail.end(), out);
        return m_tail.size();
    }
    decodeBlock(&m_bytes[m_blockOffsets[b]], m_blockStarts[b], out);
    return kBlock;
}

Span CapTimeline::operator[](size_t i) const
{
    if (i >= m_encoded)
        return m_tail[i - m_encoded];
    return blockSpans(i / kBlock, i % kBlock + 1)[i % kBlock];
}

void CapTimeline::popBack()
{
    if (m_tail.empty()) { // the last encoded block becomes the tail again
        const size_t b = m_blockOffsets.size() - 1;
        m_tail.resize(kBlock);
        decodeBlock(&std::as_const(m_bytes)[m_blockOffsets[b]], m_blockStarts[b], m_tail.data());
        m_bytes.shrinkTo(m_blockOffsets[b]);
        m_blockOffsets.pop_back();
        m_encoded -= kBlock;
        m_id = newTimelineId();
    }
    const Span s = m_tail.back();
    m_total.time[size_t(s.kind())] -= s.length();
    if (s.kind() == SpanKind::Running && !s.continued())
        --m_total.runs;
    m_tail.pop_back();
    // A block's thread mask may keep a bit the removed span set: that only
    // costs a block visit, never a wrong answer.
    if (size() % kBlock == 0) {
        m_blockTotals.pop_back();
        m_blockStarts.pop_back();
        m_blockThreads.pop_back();
    }
}

void CapTimeline::beginRewrite(size_t first, Rewrite& r)
{
    const size_t firstBlock = first / kBlock;
    std::vector<Span> keep; // the spans of first's block before it
    if (first < m_encoded) {
        std::array<Span, kBlock> spans;
        copyBlock(firstBlock, spans.data());
        keep.assign(spans.begin(), spans.begin() + (first - firstBlock * kBlock));
        r.ahead.assign(spans.begin() + (first - firstBlock * kBlock), spans.end());
        r.offsets = m_blockOffsets; // (one per encoded block; the tail has a start too)
        r.starts.assign(m_blockStarts.begin(), m_blockStarts.begin() + ptrdiff_t(r.offsets.size()));
        r.nextBlock = firstBlock + 1;
        r.tail = std::move(m_tail);
        const uint64_t from = m_blockOffsets[firstBlock];
        if (m_bytes.size() <= decltype(m_bytes)::kChunk) {
            // The first chunk grows by copying what it holds: read it all now.
            for (; r.nextBlock < r.offsets.size(); ++r.nextBlock) {
                copyBlock(r.nextBlock, spans.data());
                r.ahead.insert(r.ahead.end(), spans.begin(), spans.end());
            }
            m_bytes.shrinkTo(from);
        } else {
            m_bytes.truncateKeeping(from);
        }
        m_blockOffsets.resize(firstBlock);
        m_encoded = firstBlock * kBlock;
        m_id = newTimelineId();
    } else {
        r.tail.assign(m_tail.begin() + (first - m_encoded), m_tail.end());
        keep.assign(m_tail.begin(), m_tail.begin() + (first - m_encoded));
    }
    m_tail.clear();
    m_total = m_blockTotals[firstBlock];
    m_blockTotals.resize(firstBlock);
    m_blockStarts.resize(firstBlock);
    // A kept block's thread mask may keep bits of the dropped spans: that
    // only costs a block visit, never a wrong answer (as popBack).
    m_blockThreads.resize(firstBlock);
    for (const Span& s : keep)
        append(s);
}

void CapTimeline::readAhead(Rewrite& r) const
{
    std::array<Span, kBlock> old;
    decodeBlock(&m_bytes.rawAt(r.offsets[r.nextBlock]), r.starts[r.nextBlock], old.data());
    r.ahead.insert(r.ahead.end(), old.begin(), old.end());
    ++r.nextBlock;
}

bool CapTimeline::nextOld(Rewrite& r, Span& s)
{
    if (r.ahead.empty() && r.nextBlock < r.offsets.size())
        readAhead(r);
    if (!r.ahead.empty()) {
        s = r.ahead.front();
        r.ahead.pop_front();
        return true;
    }
    if (r.nextTail < r.tail.size()) {
        s = r.tail[r.nextTail++];
        return true;
    }
    return false;
}

size_t CapTimeline::firstStartingAt(uint64_t t) const
{
    const size_t n = size();
    // Blocks first (their starts are contiguous), then within one block.
    const size_t last = firstBlockStartingAt(0, m_blockStarts.size(), t);
    // Block `last` (if any) starts at or after t, the blocks before it
    // before t: the answer is in block last - 1, else the first of block
    // `last`.
    const size_t hi = std::min(n, last * kBlock);
    if (last == 0)
        return 0;
    // (Decoded in order as far as the answer, a few spans at a time: a
    // scan, not a binary search.)
    const size_t base = (last - 1) * kBlock;
    size_t k = base;
    while (k < hi) {
        const size_t upto = std::min(hi, k + kScanStep) - base;
        const Span* spans = blockSpans(last - 1, upto);
        for (; k < base + upto; ++k)
            if (spans[k - base].start() >= t)
                return k;
    }
    return k;
}

size_t CapTimeline::firstEndingAfter(uint64_t t) const
{
    // Spans never overlap: the one before the first starting at or after t
    // is the only one that can cover t.
    const size_t k = firstStartingAt(t);
    return k > 0 && (*this)[k - 1].end() > t ? k - 1 : k;
}

SpanTotals CapTimeline::totalsBeforeIndex(size_t i) const
{
    if (i >= size())
        return m_total;
    const size_t block = i / kBlock;
    SpanTotals t = m_blockTotals[block];
    const Span* spans = blockSpans(block, i % kBlock);
    for (size_t k = 0; k < i % kBlock; ++k) {
        const Span& s = spans[k];
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
        const Span last = (*this)[i - 1];
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

size_t CapTimeline::firstBlockStartingAt(size_t fromBlock, size_t blocks, uint64_t t) const
{
    size_t b = fromBlock, step = 1;
    while (b + step < blocks && m_blockStarts[b + step] < t) {
        b += step;
        step *= 2;
    }
    // The last block starting before t is in [b, b + step].
    const size_t hi = std::min(blocks, b + step + 1);
    return partitionPoint(b, hi, [&](size_t k) { return m_blockStarts[k] >= t; });
}

void CapTimeline::prefetchBlockAt(uint64_t t, size_t from) const
{
    // The last encoded block starting before t.
    const size_t blocks = m_blockOffsets.size();
    if (from / kBlock >= blocks)
        return;
    const size_t b = firstBlockStartingAt(from / kBlock, blocks, t);
    if (b == 0)
        return;
    // Within the block (it may be shorter) and its chunk (no block crosses
    // a chunk's end).
    const uint64_t begin = m_blockOffsets[b - 1];
    const uint64_t end = std::min<uint64_t>(b < blocks ? m_blockOffsets[b] : m_bytes.size(), begin + kPrefetchBytes);
    const uint8_t* at = &m_bytes[begin];
    for (uint64_t k = 0; k < end - begin; k += 64)
        __builtin_prefetch(at + k);
    // And its prefix sums (64 bytes, on up to two cache lines).
    const auto* totals = reinterpret_cast<const char*>(&m_blockTotals[b - 1]);
    __builtin_prefetch(totals);
    __builtin_prefetch(totals + sizeof(SpanTotals) - 1);
}

void CapTimeline::lod(uint64_t t0, uint64_t t1, uint32_t pixels, std::vector<LodItem>& out) const
{
    if (pixels == 0 || t1 <= t0)
        return;
    const double width = double(t1 - t0) / pixels;
    const size_t n = size();
    const size_t encodedBlocks = m_blockOffsets.size(), blocks = m_blockStarts.size();
    // A cursor that decodes the spans once, in order, straight from their
    // blocks: span k is `cur`, `before` the totals of spans [0, k) (so an
    // aggregate's totals are the difference of two of them, however many
    // spans it holds), `lastEnd` the end of span `lastIndex`. A pixel whose
    // spans reach past the current block jumps to the block its end is in
    // (the blocks' starts and prefix sums skip the ones between unread).
    size_t k = firstEndingAfter(t0);
    if (k >= n)
        return;
    size_t block = 0, blockEnd = 0;
    const uint8_t* p = nullptr;
    DecodeState st;
    Span cur;
    SpanTotals before;
    uint64_t lastEnd = 0;
    size_t lastIndex = SIZE_MAX;
    // (Inlined: as calls, the cursor's state would live in memory.)
    const auto decode = [&]() __attribute__((always_inline)) {
        cur = block < encodedBlocks ? decodeSpan(p, st) : m_tail[k - m_encoded];
    };
    // To the first span of block b (k at it, decoded).
    const auto enter = [&](size_t b) __attribute__((always_inline)) {
        block = b;
        k = b * kBlock;
        blockEnd = std::min(n, k + kBlock);
        before = m_blockTotals[b];
        if (b < encodedBlocks) {
            p = &m_bytes[m_blockOffsets[b]];
            st = DecodeState{0, m_blockStarts[b], 0, 0};
        }
        decode();
    };
    // Past span k (false at the end of the timeline).
    const auto step = [&]() __attribute__((always_inline)) {
        before.time[size_t(cur.kind())] += cur.length();
        if (cur.kind() == SpanKind::Running && !cur.continued())
            ++before.runs;
        lastEnd = cur.end();
        lastIndex = k;
        if (++k == n)
            return false;
        if (k == blockEnd)
            enter(block + 1);
        else
            decode();
        return true;
    };
    {
        const size_t first = k;
        enter(first / kBlock);
        while (k < first)
            step();
    }
    while (k < n) {
        const Span s = cur;
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
            step();
            continue;
        }
        const double b = std::floor(double(s.start() - t0) / width);
        // In doubles, the pixel's end can round past t1 - t0 (and past 2^64).
        const double edge = std::ceil((b + 1) * width);
        const uint64_t offset = edge >= double(t1 - t0) ? t1 - t0 : uint64_t(edge);
        const uint64_t bucketEnd = t0 + offset;
        if (s.end() > bucketEnd) { // crosses a pixel boundary: exact
            out.push_back(item);
            step();
            continue;
        }
        // Spans [i, j) lie wholly inside this pixel: j is the first from
        // i + 1 that starts at the pixel's end or later, or that crosses it
        // (only the last span starting inside can).
        const double ahead = std::ceil((b + 1 + kPrefetchPixels) * width); // (as edge: may pass t1 - t0)
        prefetchBlockAt(t0 + (ahead >= double(t1 - t0) ? t1 - t0 : uint64_t(ahead)), k);
        const size_t i = k;
        const SpanTotals atI = before;
        if (step()) {
            // Every span before the first block starting at or after the
            // pixel's end, but the last block's, lies inside the pixel.
            if (block + 1 < blocks && m_blockStarts[block + 1] < bucketEnd)
                enter(firstBlockStartingAt(block + 1, blocks, bucketEnd) - 1);
            while (cur.start() < bucketEnd && cur.end() <= bucketEnd && step()) {
            }
        }
        const size_t j = k;
        if (j - i > 1) {
            item.aggregate = true;
            item.end = lastIndex == j - 1 ? lastEnd : (*this)[j - 1].end();
            item.count = uint32_t(std::min<size_t>(j - i, UINT32_MAX));
            item.totals = before;
            item.totals -= atI;
            const auto& time = item.totals.time;
            item.kind = SpanKind(std::max_element(time.begin(), time.end()) - time.begin());
            item.stop = 0;
            item.thread = 0;
        }
        out.push_back(item);
    }
}

bool CapTimeline::spillChunksBefore(SpillFile& file, size_t end)
{
    constexpr size_t kChunk = decltype(m_bytes)::kChunk;
    const size_t full = m_bytes.size() / kChunk; // chunks wholly written
    for (size_t c = 0; c + 1 < full && c < end; ++c) {
        const uint8_t* chunk = m_bytes.chunk(c);
        if (!chunk || m_bytes.isMapped(c))
            continue;
        uint64_t offset = 0;
        if (!file.open() || !file.append(chunk, kChunk, offset))
            return false;
        std::shared_ptr<const void> view = file.map(offset, kChunk);
        if (!view)
            return false;
        auto* at = static_cast<uint8_t*>(const_cast<void*>(view.get())); // (never written: see mapChunk)
        m_bytes.mapChunk(c, std::shared_ptr<uint8_t[]>(std::move(view), at), &SpillFile::releasePages);
    }
    return true;
}

size_t CapTimeline::memoryBytes() const
{
    return m_bytes.memoryBytes() + m_tail.capacity() * sizeof(Span)
        + m_blockTotals.capacity() * sizeof(SpanTotals)
        + (m_blockOffsets.capacity() + m_blockStarts.capacity() + m_blockThreads.capacity()) * sizeof(uint64_t);
}

} // namespace hecscope
