#include "core/index/chunkpool.h"

#include <mutex>
#include <new>
#include <vector>

#ifdef HECSCOPE_ASAN
#include <sanitizer/asan_interface.h>
#else
#define ASAN_POISON_MEMORY_REGION(memory, bytes) ((void)(memory), (void)(bytes))
#define ASAN_UNPOISON_MEMORY_REGION(memory, bytes) ((void)(memory), (void)(bytes))
#endif

namespace hecscope {
namespace {

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
                ASAN_UNPOISON_MEMORY_REGION(memory, bytes); // (a use of a chunk let go is reported until then)
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
            ASAN_POISON_MEMORY_REGION(memory, bytes);
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
        ASAN_UNPOISON_MEMORY_REGION(k.memory, k.bytes);
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
