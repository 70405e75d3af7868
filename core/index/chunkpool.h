#pragma once

#include <cstddef>

// Built with AddressSanitizer (GCC says so one way, clang another): the
// memory kept is poisoned until it is taken again.
#if defined(__SANITIZE_ADDRESS__)
#define HECSCOPE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HECSCOPE_ASAN 1
#endif
#endif

namespace hecscope {

// Memory for ChunkedArray's large chunks (128 KiB and more), kept when a
// chunk is freed, for the next chunk of its size, instead of handed back
// at once. A chunk that large is a mapping of its own (app/main.cpp fixes
// glibc's mmap threshold at 128 KiB): handed back, the next one is mapped
// afresh and each of its pages faulted in. The thread states' raw events
// pass through such chunks, freed as soon as they are walked: on the big
// log 192 MB of them, a page fault every 4 KiB, about a tenth of a load's
// CPU time. Kept here: at most kMostKept bytes, shared by every array and
// thread (a lock per chunk: one per 16 Ki events). releaseAll() hands them
// back when a load ends, so that an open log does not keep them.
class ChunkPool {
public:
    static constexpr size_t kLeast = size_t(128) << 10;
    static constexpr size_t kMostKept = size_t(4) << 20;
    // `bytes` of memory (a kept piece of that size, else new), aligned as
    // operator new aligns.
    static void* take(size_t bytes);
    // Memory take(bytes) gave, kept (if there is room) or freed.
    static void give(void* memory, size_t bytes);
    // Every kept piece freed.
    static void releaseAll();
    static size_t keptBytes();
};

} // namespace hecscope
