#pragma once

#include "core/index/chunkpool.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <new>
#include <type_traits>
#include <vector>

namespace hecscope {

class SpillFile;

// What a capability is doing during a span. Idle is the absence of a span.
// A capability's GC_START..GC_END is split by its collection (the leader's
// GC_START..GC_END, which +RTS -s counts as GC elapsed): `GcSync` before
// the collection began (stopped, waiting for the other capabilities to
// stop), then its phases inside the collection when the log has
// GC_WORK/GC_IDLE/GC_DONE (else, and before the first one, `Gc`), and
// `GcParked` after the collection ended (its OS thread had not yet run
// again to write GC_END). Only the phases inside count as collecting.
enum class SpanKind : uint8_t { Running, Gc, GcSync, GcWork, GcIdle, GcDone, GcParked };
constexpr size_t kSpanKinds = 7;
// Drawn in a HEC row's GC lane: stopped for a collection, in it or not.
constexpr bool isGc(SpanKind k) { return k != SpanKind::Running; }
// Inside its collection.
constexpr bool isCollecting(SpanKind k)
{
    return k == SpanKind::Gc || k == SpanKind::GcWork || k == SpanKind::GcIdle || k == SpanKind::GcDone;
}

// How a Running span ended: a standard STOP_THREAD status (0-20,
// eventlog-format.md 2.2) or one of these.
constexpr uint8_t kStopClosedByOther = 254; // RUN_THREAD or GC_START without STOP_THREAD
constexpr uint8_t kStopAtEnd = 255;         // still running when the log ends

// One span of a capability's timeline in 16 bytes. Starts are kept to 48 bits
// (78 hours of nanoseconds); a span longer than 2^32-1 ns is stored as
// several, the later ones marked `continued`.
class Span {
public:
    static constexpr uint64_t kMaxStart = (uint64_t(1) << 48) - 1;
    static constexpr uint64_t kMaxLength = UINT32_MAX;

    Span() = default;
    Span(uint64_t start, uint32_t length, SpanKind kind, uint32_t thread, uint8_t stop,
         bool continued = false)
        : m_word(start | uint64_t(stop) << 48 | uint64_t(kind) << 56
                 | uint64_t(continued) << 60)
        , m_length(length)
        , m_thread(thread)
    {
    }
    uint64_t start() const { return m_word & kMaxStart; }
    uint64_t end() const { return start() + m_length; }
    uint32_t length() const { return m_length; }
    SpanKind kind() const { return SpanKind((m_word >> 56) & 0xF); }
    uint8_t stop() const { return uint8_t(m_word >> 48); }
    bool continued() const { return (m_word >> 60) & 1; }
    uint32_t thread() const { return m_thread; } // Running spans only

private:
    uint64_t m_word = 0;
    uint32_t m_length = 0;
    uint32_t m_thread = 0;
};
static_assert(sizeof(Span) == 16);

// Time per kind and the number of thread runs (Running spans that are not
// continuations) in some set of spans.
struct SpanTotals {
    std::array<uint64_t, kSpanKinds> time{};
    uint64_t runs = 0;

    uint64_t running() const { return time[size_t(SpanKind::Running)]; }
    // Collecting: the phases inside the capabilities' collections.
    uint64_t gc() const;
    // Stopped for a collection that had not begun yet (waiting for sync).
    uint64_t gcSync() const { return time[size_t(SpanKind::GcSync)]; }
    // Parked after a collection had ended, until the capability's GC_END.
    uint64_t parked() const { return time[size_t(SpanKind::GcParked)]; }
    // Every kind drawn in the GC lane: gc() + gcSync() + parked().
    uint64_t stopped() const { return gc() + gcSync() + parked(); }
    SpanTotals& operator+=(const SpanTotals& o);
    SpanTotals& operator-=(const SpanTotals& o);
};

// What to draw for a stretch of a timeline at a given resolution: an exact
// span, or an honest aggregate of the several spans that fall inside one
// pixel (their time per kind, their count).
struct LodItem {
    uint64_t start = 0;
    uint64_t end = 0;
    bool aggregate = false;
    SpanKind kind = SpanKind::Running; // exact: the span's; aggregate: the kind with most time
    uint8_t stop = 0;                  // exact Running spans
    uint32_t thread = 0;               // exact Running spans
    uint32_t count = 1;                // spans summarised
    SpanTotals totals;                 // aggregate: time per kind inside it
};

// Append-only storage in fixed chunks: growing never copies, so a large
// index never needs twice its size while it is being built. Copies share
// the chunks (a live session's snapshot costs a pointer per chunk): a chunk
// that a copy holds is copied before an element a copy may read is written
// again. The array copied from appends to such a chunk in place (a copy
// reads only its own size's elements); a copy's own writes to a shared
// chunk always copy it (else two arrays would append to one chunk).
template <class T, unsigned kShift = 14>
class ChunkedArray {
public:
    static constexpr size_t kChunk = size_t(1) << kShift;
    // The first chunk starts small and grows by a quarter (a copy each
    // time): what a short array costs beyond its elements stays small (a
    // live session holds one for each of the many threads some programs
    // make).
    static constexpr size_t kFirst = std::min<size_t>(16, kChunk);
    static constexpr size_t grownCapacity(size_t capacity)
    {
        return std::min(kChunk, (capacity + capacity / 4 + 15) & ~size_t(15));
    }
    ChunkedArray() = default;
    // Chunks released by releaseBefore stay released.
    ChunkedArray(const ChunkedArray& o)
        : m_chunks(o.m_chunks), m_size(o.m_size), m_firstCapacity(o.m_firstCapacity), m_mapped(o.m_mapped)
        , m_mappedCount(o.m_mappedCount), m_mappedCapacity(o.m_mappedCapacity), m_release(o.m_release)
        , m_shared(m_chunks.size())
        , m_sharedSize(SIZE_MAX)
    {
        o.m_shared = o.m_chunks.size();
        o.m_sharedSize = o.m_sharedSize == SIZE_MAX ? SIZE_MAX : std::max(o.m_sharedSize, o.m_size);
    }
    ChunkedArray& operator=(const ChunkedArray& o)
    {
        if (this != &o)
            *this = ChunkedArray(o);
        return *this;
    }
    ChunkedArray(ChunkedArray&&) noexcept = default;
    ChunkedArray& operator=(ChunkedArray&&) noexcept = default;
    ~ChunkedArray() { releaseCopied(); }
    // The mapped pages of the chunks copied since (see mapChunk) let go
    // now: adjacent ones in one call.
    void releaseCopied()
    {
        if (!m_releasing)
            return;
        std::vector<Releasing>& pages = m_releasing->pages;
        std::sort(pages.begin(), pages.end(),
                  [](const Releasing& a, const Releasing& b) { return a.pages.get() < b.pages.get(); });
        constexpr uintptr_t kPage = 4096;
        const auto at = [](const Releasing& r) { return reinterpret_cast<uintptr_t>(r.pages.get()); };
        for (size_t i = 0; i < pages.size();) {
            const uintptr_t from = at(pages[i]);
            uintptr_t to = from + pages[i].bytes;
            size_t j = i + 1;
            // (Merged only where no page lies between them that neither
            // touches: a page of some other memory is never included.)
            while (j < pages.size() && at(pages[j]) / kPage <= (to + kPage - 1) / kPage) {
                to = std::max(to, at(pages[j]) + pages[j].bytes);
                ++j;
            }
            m_release(reinterpret_cast<const void*>(from), size_t(to - from));
            i = j;
        }
        m_releasing.reset();
    }
    void push_back(const T& v)
    {
        // Most pushes: into a chunk of this array's own with room. (Inline,
        // the rest apart in a call: arrays pushed to per event.)
        if (hasOwnRoom()) [[likely]] {
            m_chunks[m_size >> kShift][m_size & (kChunk - 1)] = v;
            ++m_size;
            return;
        }
        pushToNewPlace(v);
    }
    // Appends an element left for the caller to write before the array is
    // pushed to, copied or written again (the pointer is good until then).
    // For an element made of words in registers, stored there without a
    // round trip through the stack.
    T* appendSlot()
    {
        if (hasOwnRoom()) [[likely]] {
            T* at = &m_chunks[m_size >> kShift][m_size & (kChunk - 1)];
            ++m_size;
            return at;
        }
        pushToNewPlace(T{});
        return &m_chunks[(m_size - 1) >> kShift][(m_size - 1) & (kChunk - 1)];
    }
    const T& operator[](size_t i) const { return m_chunks[i >> kShift][i & (kChunk - 1)]; }
    T& operator[](size_t i) { return writable(i >> kShift, i)[i & (kChunk - 1)]; }
    size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    const T& back() const { return (*this)[m_size - 1]; }
    void pop_back() // keeps the chunk for the next push
    {
        --m_size;
        guardMapped();
    }
    // Drops the elements from `n` on but keeps them readable through rawAt()
    // until a push overwrites them: the chunks holding them are made this
    // array's own first (a copy of the array keeps its own). Only for an
    // array past its first chunk (that one grows by copying its size).
    void truncateKeeping(size_t n)
    {
        for (size_t c = std::min(m_shared, m_chunks.size()); c-- > (n >> kShift);)
            writable(c, 0);
        m_size = n;
        guardMapped();
    }
    const T& rawAt(size_t i) const { return m_chunks[i >> kShift][i & (kChunk - 1)]; }
    // Appends n elements that lie in one chunk (n <= kChunk - size() % kChunk)
    // and returns them to be written.
    T* grow(size_t n)
    {
        if (n == 0)
            return nullptr;
        const size_t c = m_size >> kShift;
        if (c == m_chunks.size()) {
            const size_t capacity = m_chunks.empty() ? std::max(kFirst, n) : kChunk;
            m_chunks.push_back(newChunk(capacity));
            if (m_chunks.size() == 1)
                m_firstCapacity = capacity;
        } else if (c == 0 && m_size + n > m_firstCapacity) {
            growFirstChunk(std::min(kChunk, std::max(grownCapacity(m_firstCapacity), m_size + n)));
        }
        T* at = writable(c, m_size) + (m_size & (kChunk - 1));
        m_size += n;
        return at;
    }
    // Drops the elements from `n` on (the chunks stay for later pushes).
    void shrinkTo(size_t n)
    {
        m_size = std::min(m_size, n);
        guardMapped();
    }
    // Frees the chunks that neither hold an element nor will hold one of
    // the first `n` (the size at most n reaches before they are needed).
    void releaseFrom(size_t n)
    {
        n = std::max(n, m_size);
        while (m_chunks.size() > 1 && (m_chunks.size() - 1) * kChunk >= n) {
            unmark(m_chunks.size() - 1);
            m_chunks.pop_back();
        }
        m_shared = std::min(m_shared, m_chunks.size());
    }
    // Frees the chunks wholly before index i (which must not be read again).
    void releaseBefore(size_t i)
    {
        for (size_t c = 0; c < m_chunks.size() && (c + 1) * kChunk <= i; ++c) {
            unmark(c);
            m_chunks[c].reset();
        }
    }
    // Chunk c replaced by `pages`: read-only memory holding the same
    // elements (pages of a file: SpillFile::map), `length` of them (a full
    // chunk's, or those of the last chunk, which then holds no more until it
    // is copied). Never written in place (a write or a push copies it
    // first); not counted by memoryBytes() but by mappedBytes() (its
    // elements). Copies of the array share it. `release(pages, bytes)`, if
    // given, lets the pages go from the process once the chunk is copied
    // for a write (SpillFile::releasePages).
    void mapChunk(size_t c, std::shared_ptr<T[]> pages, void (*release)(const void*, size_t) = nullptr,
                  size_t length = kChunk)
    {
        unmark(c);
        m_release = release;
        m_chunks[c] = std::move(pages);
        if (m_mapped.size() <= c)
            m_mapped.resize(c + 1, 0);
        m_mapped[c] = uint32_t(length);
        m_mappedCount += length;
        m_mappedCapacity += capacityOf(c);
        guardMapped();
    }
    // Elements appended that the caller wrote to a file, whose mapping
    // `pages` holds chunk c's first `length` (the last chunk, or the next
    // one: c * kChunk <= size() <= c * kChunk + length), which it replaces
    // as mapChunk does: size() becomes c * kChunk + length. No element is
    // written in memory, so copies of the array (which read only their own
    // size's) are not disturbed.
    void appendMapped(size_t c, std::shared_ptr<T[]> pages, size_t length,
                      void (*release)(const void*, size_t) = nullptr)
    {
        if (c == m_chunks.size())
            m_chunks.emplace_back();
        if (c == 0) {
            unmark(0); // (before its capacity changes)
            m_firstCapacity = std::max(m_firstCapacity, length);
        }
        m_size = c * kChunk + length;
        mapChunk(c, std::move(pages), release, length);
    }
    bool isMapped(size_t c) const { return c < m_mapped.size() && m_mapped[c] != 0; }
    // The elements of chunk c that are mapped (0: it is not).
    size_t mappedLength(size_t c) const { return c < m_mapped.size() ? m_mapped[c] : 0; }
    size_t mappedBytes() const { return m_mappedCount * sizeof(T); }
    size_t chunkCount() const { return m_chunks.size(); }
    // Chunk c's elements (full for one wholly before size(): to be moved
    // elsewhere and released; read in place by SegmentCursor); or null if
    // it is released.
    const T* chunk(size_t c) const { return c < m_chunks.size() ? m_chunks[c].get() : nullptr; }
    // Chunk c, released (releaseBefore), made anew for the caller to fill
    // with what it held: kChunk elements, in `buffer` (one takeChunk gave)
    // if given.
    T* restoreChunk(size_t c, std::shared_ptr<T[]> buffer = nullptr)
    {
        unmark(c);
        m_chunks[c] = buffer ? std::move(buffer) : newChunk(kChunk);
        return m_chunks[c].get();
    }
    // f(chunk, owner, mapped, capacity) for each chunk that holds elements, in order: for a
    // reader that keeps them apart from any array, as a copy of the array
    // would (it reads only this array's size's elements, and the owner
    // keeps them: the array copied from must then have been copied).
    template <class F>
    void forEachChunk(F f) const
    {
        for (size_t c = 0; c * kChunk < m_size; ++c)
            f(static_cast<const T*>(m_chunks[c].get()), m_chunks[c], isMapped(c), capacityOf(c));
    }
    // Full chunk c released, its memory handed to the caller to reuse
    // (null if a copy of the array holds it too).
    std::shared_ptr<T[]> takeChunk(size_t c)
    {
        const bool mapped = isMapped(c);
        unmark(c);
        std::shared_ptr<T[]> chunk = std::move(m_chunks[c]);
        return chunk.use_count() == 1 && !mapped ? chunk : nullptr;
    }
    // The chunks' elements in memory (not the mapped ones: mappedBytes).
    size_t memoryBytes() const
    {
        return m_chunks.empty() ? 0 : ((m_chunks.size() - 1) * kChunk + m_firstCapacity - m_mappedCapacity) * sizeof(T);
    }
    // The array's own tables of its chunks: next to nothing for a long
    // array, as much again as its elements for a short one (each of a live
    // session's many threads' segments: ThreadStates::chunkedBytes).
    size_t tableBytes() const
    {
        return m_chunks.capacity() * sizeof(m_chunks[0]) + m_mapped.capacity() * sizeof(m_mapped[0]);
    }

private:
    // The next element goes into a chunk of this array's own with room.
    bool hasOwnRoom() const
    {
        const size_t c = m_size >> kShift;
        return c < m_chunks.size() && (c >= m_shared || (m_size >= m_sharedSize && !isMapped(c)))
            && (c > 0 || m_size < m_firstCapacity);
    }
    // push_back's other cases: a new chunk, the first one grown, or a
    // chunk copied first.
    [[gnu::noinline]] void pushToNewPlace(const T& v)
    {
        if ((m_size >> kShift) == m_chunks.size()) {
            const size_t capacity = m_chunks.empty() ? kFirst : kChunk;
            m_chunks.push_back(newChunk(capacity));
            if (m_chunks.size() == 1)
                m_firstCapacity = capacity;
        } else if (m_size == m_firstCapacity && m_size < kChunk) {
            growFirstChunk(grownCapacity(m_firstCapacity));
        }
        writable(m_size >> kShift, m_size)[m_size & (kChunk - 1)] = v;
        ++m_size;
    }
    size_t capacityOf(size_t c) const { return c == 0 ? m_firstCapacity : kChunk; }
    // A chunk of `capacity` elements, made as new T[capacity] makes them.
    // A full one of ChunkPool's sizes: its memory from the pool and back.
    static std::shared_ptr<T[]> newChunk(size_t capacity)
    {
        if constexpr (kPooled) {
            if (capacity == kChunk) {
                T* chunk = static_cast<T*>(ChunkPool::take(kChunk * sizeof(T)));
                std::uninitialized_default_construct_n(chunk, kChunk);
                return std::shared_ptr<T[]>(chunk, [](T* at) { ChunkPool::give(at, kChunk * sizeof(T)); });
            }
        }
        return std::shared_ptr<T[]>(new T[capacity]);
    }
    static constexpr bool kPooled = kChunk * sizeof(T) >= ChunkPool::kLeast && std::is_trivially_destructible_v<T>
        && alignof(T) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__;
    // The chunk the next push goes into, if mapped (partly filled, or cut
    // back into): a push then takes pushToNewPlace, whose writable() copies
    // it, as hasOwnRoom() asks isMapped() only below m_shared. Only that
    // chunk: marking full ones would make truncateKeeping() copy every
    // mapped chunk it reaches into memory.
    void guardMapped()
    {
        const size_t c = m_size >> kShift;
        if (isMapped(c))
            m_shared = std::max(m_shared, c + 1);
    }
    void unmark(size_t c)
    {
        if (isMapped(c)) {
            m_mappedCount -= m_mapped[c];
            m_mappedCapacity -= capacityOf(c);
            m_mapped[c] = 0;
        }
    }
    // The first chunk made `capacity` long, its elements copied (a copy of
    // the array keeps the old one).
    void growFirstChunk(size_t capacity)
    {
        std::shared_ptr<T[]> grown = newChunk(capacity);
        std::copy(m_chunks[0].get(), m_chunks[0].get() + m_size, grown.get());
        if (isMapped(0)) {
            releaseLater(m_chunks[0], m_mapped[0] * sizeof(T));
            unmark(0); // (before its capacity changes)
        }
        m_chunks[0] = std::move(grown);
        m_firstCapacity = capacity;
    }
    // Chunk c, to write elements from `index` on in it: copied first if it
    // is mapped, or a copy of the array may hold it and read them.
    T* writable(size_t c, size_t index)
    {
        std::shared_ptr<T[]>& chunk = m_chunks[c];
        if (isMapped(c)) [[unlikely]] {
            const size_t length = m_mapped[c];
            std::shared_ptr<T[]> own = newChunk(capacityOf(c));
            std::copy(chunk.get(), chunk.get() + length, own.get());
            releaseLater(std::move(chunk), length * sizeof(T));
            chunk = std::move(own);
            unmark(c);
        }
        if (c < m_shared && index < m_sharedSize) [[unlikely]] {
            if (chunk.use_count() > 1) {
                const size_t capacity = c == 0 ? m_firstCapacity : kChunk;
                const size_t used = std::min(capacity, m_size - std::min(m_size, c * kChunk));
                std::shared_ptr<T[]> own = newChunk(capacity);
                std::copy(chunk.get(), chunk.get() + used, own.get());
                chunk = std::move(own);
            } else {
                // The copies let go (on other threads): their reads of it
                // happened before.
                std::atomic_thread_fence(std::memory_order_acquire);
            }
            if (c + 1 == m_shared)
                --m_shared; // (earlier chunks are full: never written again but by operator[])
        }
        return chunk.get();
    }

    std::vector<std::shared_ptr<T[]>> m_chunks;
    size_t m_size = 0;
    size_t m_firstCapacity = 0;
    std::vector<uint32_t> m_mapped; // [c]: the elements of chunk c mapped (mapChunk), 0 if it is not
    size_t m_mappedCount = 0;       // elements mapped
    size_t m_mappedCapacity = 0;    // the mapped chunks' capacities (elements)
    // The mapped pages of chunks copied for a write, let go together (each
    // release costs every core a TLB flush: a seal's GC splitting copied
    // 422 chunks of the big log's timelines, one at a time 50 ms of the
    // decoding thread's), the mappings held until then.
    void releaseLater(std::shared_ptr<T[]> pages, size_t bytes)
    {
        if (!m_release)
            return;
        if (!m_releasing)
            m_releasing = std::make_unique<Releases>();
        m_releasing->pages.push_back({std::move(pages), bytes});
        m_releasing->bytes += bytes;
        if (m_releasing->bytes >= kReleaseBatch)
            releaseCopied();
    }
    static constexpr size_t kReleaseBatch = size_t(2) << 20;
    struct Releasing {
        std::shared_ptr<T[]> pages;
        size_t bytes;
    };
    struct Releases {
        std::vector<Releasing> pages;
        size_t bytes = 0;
    };
    std::unique_ptr<Releases> m_releasing; // (a pointer: an array per thread in some parts)
    void (*m_release)(const void*, size_t) = nullptr;
    mutable size_t m_shared = 0; // chunks below this may be held by a copy
    // Elements below this may be read by a copy (the most any had; SIZE_MAX
    // in a copy: its writes to shared chunks copy them).
    mutable size_t m_sharedSize = 0;
};

// A capability's spans in time order, never overlapping, with running totals
// every kBlock spans: an implicit tree whose leaves are blocks of spans and
// whose node summaries are prefix sums, so that the totals of any time range
// cost two binary searches and at most 2 * kBlock span reads.
//
// Full blocks are kept encoded (about 5 bytes a span instead of 16: each
// span as a byte of its kind and which fields follow, its stop reason when
// it is not the previous span's, its gap after the previous span, its
// length, and its thread when it changed); the last, partial block is kept
// as spans. A read decodes its block as far as it needs into a small cache
// of the reading thread (the last few blocks read, resumed by later reads),
// so reads in time order and searches decode each span once.
class CapTimeline {
public:
    static constexpr size_t kBlock = 128;
    // Spans a search within a block decodes at a time.
    static constexpr size_t kScanStep = 16;

    CapTimeline();
    CapTimeline(const CapTimeline& o);
    CapTimeline& operator=(const CapTimeline& o);
    CapTimeline(CapTimeline&& o) noexcept;
    CapTimeline& operator=(CapTimeline&& o) noexcept;

    // `s` must start at or after the previous span's end.
    void append(const Span& s);
    // Removes the last span (what a provisional publish added).
    void popBack();
    // Replaces the spans from index `first` on by what `f(span, put)`
    // emits for each of them, in order (each emitted span starts at or
    // after the previous one's end). One pass over the spans in place:
    // beyond the timeline it holds only the old spans that the new ones
    // have overtaken (as many as their encoding grew by, in blocks).
    // With `spill`, the chunks it has rewritten go to that file as it goes
    // (spillTo): a rewrite of spans that were mapped from it does not hold
    // them all in memory at once.
    template <class F>
    void rewriteFrom(size_t first, F&& f, SpillFile* spill = nullptr);

    size_t size() const { return m_encoded + m_tail.size(); }
    Span operator[](size_t i) const;
    uint64_t endTime() const { return size() == 0 ? 0 : (*this)[size() - 1].end(); }

    // First span that ends after `t` (or starts at or after it): the one
    // covering t, if any, else the next.
    size_t firstEndingAfter(uint64_t t) const;
    // First span that starts at or after `t`.
    size_t firstStartingAt(uint64_t t) const;

    // Totals of spans [0, i).
    SpanTotals totalsBeforeIndex(size_t i) const;
    // Totals of the spans clipped to [t0, t1).
    SpanTotals totalsIn(uint64_t t0, uint64_t t1) const;
    // Totals of the spans clipped to [0, t): totalsIn(a, b) is
    // totalsBefore(b) - totalsBefore(a), so a row of adjacent ranges costs
    // one call per edge.
    SpanTotals totalsBefore(uint64_t t) const;
    const SpanTotals& totals() const { return m_total; }

    // Items covering [t0, t1) drawn `pixels` wide, in time order: exact spans
    // where a span is alone in its pixel or crosses a pixel boundary, one
    // aggregate per pixel for the spans wholly inside it. At most 3 items
    // per pixel.
    void lod(uint64_t t0, uint64_t t1, uint32_t pixels, std::vector<LodItem>& out) const;

    // Calls f(index, span) for every Running span of `thread`, in time
    // order. Blocks whose thread mask lacks the thread's bit are skipped.
    template <class F>
    void forEachRunOf(uint32_t thread, F f) const
    {
        const uint64_t bit = uint64_t(1) << (thread % 64);
        std::array<Span, kBlock> block;
        for (size_t b = 0; b < m_blockThreads.size(); ++b) {
            if (!(m_blockThreads[b] & bit))
                continue;
            const size_t n = copyBlock(b, block.data());
            for (size_t k = 0; k < n; ++k) {
                const Span& s = block[k];
                if (s.kind() == SpanKind::Running && s.thread() == thread)
                    f(b * kBlock + k, s);
            }
        }
    }

    // Moves the encoded blocks' full chunks (64 KB; all but the newest
    // full one, which popBack and a rewrite of recent spans may still
    // touch) to `file` and maps them back in their place: read as before,
    // not counted by memoryBytes() but by mappedBytes() (pages of a file
    // that the system reads in when touched and may drop). A chunk written
    // again later (a rewrite reaching that far back) is copied into memory
    // first. False, and nothing more moved, once the file cannot be written
    // or mapped (what it holds stays in memory).
    bool spillTo(SpillFile& file) { return spillChunksBefore(file, SIZE_MAX); }
    size_t mappedBytes() const { return m_bytes.mappedBytes(); }
    size_t memoryBytes() const;

    // The most bytes one span takes encoded.
    static constexpr size_t kMaxSpanBytes = 2 + 10 + 5 + 5;

private:
    struct Rewrite;
    // spillTo, for the chunks before chunk `end` only.
    bool spillChunksBefore(SpillFile& file, size_t end);
    // First block in [fromBlock, blocks) whose first span starts at or after
    // `t` (or `blocks`), galloping from fromBlock; blocks before fromBlock
    // must start before t.
    size_t firstBlockStartingAt(size_t fromBlock, size_t blocks, uint64_t t) const;
    // Asks the processor for the first bytes of the encoded block holding
    // time t (from index `from`'s block on), which lod reads a few pixels on:
    // each pixel's block is far from the last one's, a cache miss.
    void prefetchBlockAt(uint64_t t, size_t from) const;
    static constexpr int kPrefetchPixels = 2;
    static constexpr size_t kPrefetchBytes = 512;
    // Block b's spans (or the tail's), decoded at least up to `upto`: valid
    // until this thread reads a few more blocks.
    const Span* blockSpans(size_t b, size_t upto) const;
    // Copies block b's spans to `out`; returns how many.
    size_t copyBlock(size_t b, Span* out) const;
    // Encodes the full tail block after the encoded ones.
    void encodeTail();
    // Starts a rewrite: drops the spans from `first` on, keeping them
    // readable by nextOld().
    void beginRewrite(size_t first, Rewrite& r);
    // Decodes the rewrite's next old block into its spans read ahead.
    void readAhead(Rewrite& r) const;
    bool nextOld(Rewrite& r, Span& s);

    ChunkedArray<uint8_t, 16> m_bytes;     // the encoded blocks (none crosses a chunk's end)
    std::vector<uint64_t> m_blockOffsets;  // [b]: where encoded block b starts in m_bytes
    size_t m_encoded = 0;                  // spans in encoded blocks (a multiple of kBlock)
    std::vector<Span> m_tail;              // the spans after them (fewer than kBlock)
    std::vector<SpanTotals> m_blockTotals; // [b]: totals of spans [0, b * kBlock)
    std::vector<uint64_t> m_blockStarts;   // [b]: start of span b * kBlock (searches stay in cache)
    std::vector<uint64_t> m_blockThreads;  // [b]: bit (thread % 64) set for each thread run in block b
    SpanTotals m_total;
    uint64_t m_id;                         // names the encoded blocks in the readers' caches
    Rewrite* m_rewrite = nullptr;          // during rewriteFrom
};

// The old spans of a rewrite, read while the new ones are written over them.
struct CapTimeline::Rewrite {
    std::vector<uint64_t> offsets; // the old encoded blocks not yet read: [nextBlock, size)
    std::vector<uint64_t> starts;
    size_t nextBlock = 0;
    std::deque<Span> ahead; // old spans read ahead of their turn
    std::vector<Span> tail; // the old tail
    size_t nextTail = 0;
    SpillFile* spill = nullptr; // where the rewritten chunks go (rewriteFrom)
};

template <class F>
void CapTimeline::rewriteFrom(size_t first, F&& f, SpillFile* spill)
{
    if (first >= size())
        return;
    Rewrite r;
    r.spill = spill;
    beginRewrite(first, r);
    m_rewrite = &r;
    const auto put = [this](const Span& out) { append(out); };
    Span s;
    while (nextOld(r, s))
        f(s, put);
    m_rewrite = nullptr;
    m_bytes.releaseCopied();
}

} // namespace hecscope
