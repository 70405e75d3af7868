#include "core/index/chunkpool.h"

#include <mutex>
#include <new>
#include <vector>

#if defined(__SANITIZE_ADDRESS__)
#define HECSCOPE_KEPT_POISONED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HECSCOPE_KEPT_POISONED 1
#endif
#endif
#ifdef HECSCOPE_KEPT_POISONED
#include <sanitizer/asan_interface.h>
#endif

namespace hecscope {
namespace {

// Under AddressSanitizer, memory kept is poisoned until it is taken again:
// a read or write through a chunk let go is still reported.
void poison(void* memory, size_t bytes)
{
#ifdef HECSCOPE_KEPT_POISONED
    ASAN_POISON_MEMORY_REGION(memory, bytes);
#else
    (void)memory;
    (void)bytes;
#endif
}

void unpoison(void* memory, size_t bytes)
{
#ifdef HECSCOPE_KEPT_POISONED
    ASAN_UNPOISON_MEMORY_REGION(memory, bytes);
#else
    (void)memory;
    (void)bytes;
#endif
}

struct Kept {
    void* memory;
    size_t bytes;
};

struct Pool {
    std::mutex lock;
    std::vector<Kept> kept; // (few: kMostKept / kLeast at most)
    size_t bytes = 0;
};

Pool& pool()
{
    static Pool* const p = new Pool; // (never destroyed: chunks may be freed by static destructors)
    return *p;
}

} // namespace

void* ChunkPool::take(size_t bytes)
{
    Pool& p = pool();
    {
        std::lock_guard<std::mutex> held(p.lock);
        for (size_t i = p.kept.size(); i-- > 0;) {
            if (p.kept[i].bytes == bytes) {
                void* memory = p.kept[i].memory;
                p.kept[i] = p.kept.back();
                p.kept.pop_back();
                p.bytes -= bytes;
                unpoison(memory, bytes);
                return memory;
            }
        }
    }
    return ::operator new(bytes);
}

void ChunkPool::give(void* memory, size_t bytes)
{
    Pool& p = pool();
    {
        std::lock_guard<std::mutex> held(p.lock);
        if (p.bytes + bytes <= kMostKept) {
            p.kept.reserve(kMostKept / kLeast); // (no allocation later, under the lock)
            p.kept.push_back({memory, bytes});
            p.bytes += bytes;
            poison(memory, bytes);
            return;
        }
    }
    ::operator delete(memory);
}

void ChunkPool::releaseAll()
{
    Pool& p = pool();
    std::vector<Kept> kept;
    {
        std::lock_guard<std::mutex> held(p.lock);
        kept.swap(p.kept);
        p.bytes = 0;
    }
    for (const Kept& k : kept) {
        unpoison(k.memory, k.bytes);
        ::operator delete(k.memory);
    }
}

size_t ChunkPool::keptBytes()
{
    Pool& p = pool();
    std::lock_guard<std::mutex> held(p.lock);
    return p.bytes;
}

} // namespace hecscope
