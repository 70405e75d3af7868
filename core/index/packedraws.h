#pragma once

#include "core/index/varint.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace hecscope {

// ThreadStatesBuilder's raw events (time, cap, thread, info, cause, stop)
// kept in log order in 3.5 bytes each on the big logs (`generate.sh big`),
// where the Raw takes 16: the events that wait while the settle bound is
// stuck (a capability silent for half a second of a busy log holds back
// millions of the other's).
// A byte of the cause and of flags, then as varints the step of the time
// from the event before (zigzagged: blocks of different capabilities
// interleave), and only where they are not the event before's the thread
// (its step, zigzagged), the capability and the info; the stop code as a
// byte where it is not 0. Read only from the start (forEach), in chunks of
// kChunkBytes, each encoded from scratch.
template <class Raw>
class PackedRaws {
public:
    // (Under the mmap threshold that main() sets, 128 KB: a chunk let go
    // is taken again by the next from the heap, not unmapped, and the
    // next's pages faulted in afresh. At 256 KB, the walk after the big
    // logs' stuck bounds spent a quarter of its time in faults and munmap.)
    static constexpr size_t kChunkBytes = size_t(64) << 10;
    void push_back(const Raw& r)
    {
        if (m_chunks.empty() || kChunkBytes - m_chunks.back().bytes < kMaxEventBytes) {
            m_chunks.push_back({std::make_unique_for_overwrite<uint8_t[]>(kChunkBytes), 0, 0});
            m_last = {};
        }
        Chunk& c = m_chunks.back();
        uint8_t* p = c.data.get() + c.bytes;
        const bool threadDiffers = r.thread != m_last.thread, capDiffers = r.cap != m_last.cap;
        *p++ = uint8_t(r.cause) | uint8_t(threadDiffers) << 4 | uint8_t(capDiffers) << 5 | uint8_t(r.stop != 0) << 6
            | uint8_t(r.info != 0) << 7;
        p = putVarint(p, zigzag(int64_t(r.time) - int64_t(m_last.time)));
        if (threadDiffers)
            p = putVarint(p, zigzag(int64_t(r.thread) - int64_t(m_last.thread)));
        if (capDiffers)
            p = putVarint(p, r.cap);
        if (r.stop != 0)
            *p++ = uint8_t(r.stop);
        if (r.info != 0)
            p = putVarint(p, r.info);
        m_last = {uint64_t(r.time), uint32_t(r.thread), uint16_t(r.cap)};
        c.bytes = size_t(p - c.data.get());
        ++c.count;
        ++m_size;
    }
    // f(const Raw&) for each event, in the order pushed.
    template <class F>
    void forEach(F f) const
    {
        for (const Chunk& c : m_chunks) {
            const uint8_t* p = c.data.get();
            Raw r{};
            uint64_t time = 0;
            uint32_t thread = 0;
            uint16_t cap = 0;
            for (size_t i = 0; i < c.count; ++i) {
                const uint8_t head = *p++;
                time += uint64_t(unzigzag(getVarint(p)));
                if (head & 0x10)
                    thread += uint32_t(unzigzag(getVarint(p)));
                if (head & 0x20)
                    cap = uint16_t(getVarint(p));
                r.time = time;
                r.thread = thread;
                r.cap = cap;
                r.cause = head & 0x0F;
                r.stop = (head & 0x40) ? *p++ : 0;
                r.info = (head & 0x80) ? uint32_t(getVarint(p)) : 0;
                f(std::as_const(r));
            }
        }
    }
    // The same, each chunk's memory given back once read; empty after.
    template <class F>
    void consumeEach(F f)
    {
        for (Chunk& c : m_chunks) {
            PackedRaws one;
            one.m_chunks.push_back(std::move(c));
            one.forEach(f);
        }
        clear();
    }
    size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    void clear()
    {
        m_chunks.clear();
        m_size = 0;
    }
    size_t memoryBytes() const { return m_chunks.size() * kChunkBytes + m_chunks.capacity() * sizeof(Chunk); }

private:
    static constexpr size_t kMaxEventBytes = 1 + 10 + 10 + 3 + 1 + 5; // flags, time, thread, cap, stop, info
    struct Chunk {
        std::unique_ptr<uint8_t[]> data;
        size_t bytes;
        size_t count;
    };
    struct Last {
        uint64_t time = 0;
        uint32_t thread = 0;
        uint16_t cap = 0;
    };
    std::vector<Chunk> m_chunks;
    Last m_last;
    size_t m_size = 0;
};

} // namespace hecscope
