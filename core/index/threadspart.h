#pragma once

#include "core/time/timestamp.h"

#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace hecscope {

// Why a thread stopped, grouped as ThreadScope and the RTS name them.
enum class StopClass : uint8_t {
    HeapOverflow,
    StackOverflow,
    Yield,
    Blocked,
    Finished,
    ForeignCall,
    Other
};

// Blocking reasons (STOP_THREAD codes >= 7, and 4 for GHC 6.12/7.0).
enum class BlockReason : uint8_t {
    MVar,
    MVarRead,
    BlackHole,
    Read,
    Write,
    Delay,
    Stm,
    DoProc,
    CCall,
    ThrowTo,
    Other
};
constexpr size_t kBlockReasons = 11;

StopClass stopClass(uint8_t standardCode);
BlockReason blockReason(uint8_t standardCode); // for StopClass::Blocked
const char* blockReasonName(BlockReason r);

// A thread's label (its last THREAD_LABEL): a pointer into the pool of its
// ThreadsPart, which every copy of the part shares (8 bytes a thread where
// a std::string took 32; most threads have none).
class ThreadLabel {
public:
    bool empty() const { return !m_text || m_text->empty(); }
    size_t size() const { return m_text ? m_text->size() : 0; }
    const std::string& str() const
    {
        static const std::string none;
        return m_text ? *m_text : none;
    }
    operator const std::string&() const { return str(); }
    operator std::string_view() const { return str(); }
    bool operator==(const ThreadLabel& o) const { return str() == o.str(); }
    bool operator==(std::string_view text) const { return str() == text; }

private:
    friend class ThreadsBuilder;
    const std::string* m_text = nullptr;
};

// What a thread did over the whole log. Times in ns. (Ordered by size:
// 136 bytes; a log may have millions.)
struct ThreadInfo {
    uint64_t created = kNoTime;
    uint64_t finished = kNoTime;
    uint64_t firstRun = kNoTime;
    uint64_t lastStop = kNoTime;
    uint64_t runTime = 0; // ns in Running spans
    ThreadLabel label;
    uint32_t id = 0;
    uint32_t runs = 0;
    uint32_t runnable = 0;   // THREAD_RUNNABLE
    uint32_t wakeups = 0;    // THREAD_WAKEUP naming it
    uint32_t migrations = 0; // MIGRATE_THREAD
    uint32_t yields = 0;
    uint32_t heapOverflows = 0;
    uint32_t stackOverflows = 0;
    uint32_t foreignCalls = 0;
    std::array<uint32_t, kBlockReasons> blocked{};
    uint16_t createdOn = UINT16_MAX; // capability
    bool seen = false;
};

// What ThreadsBuilder makes. Ids are dense in practice, so most threads
// live in a table indexed by id; stray far ids go to a map.
struct ThreadsPart {
    std::vector<ThreadInfo> threads;             // by id up to the largest; entries with seen == false are gaps
    std::map<uint32_t, ThreadInfo> largeThreads; // ids far beyond the others (or >= 2^24)
    // The labels' texts (ThreadLabel points into it): appended to by the
    // builder only, shared by the copies, never changed.
    std::shared_ptr<std::deque<std::string>> labelTexts = std::make_shared<std::deque<std::string>>();

    size_t threadCount() const;
    const ThreadInfo* thread(uint32_t id) const;
    size_t partBytes() const // (LogIndex::memoryBytes)
    {
        return threads.capacity() * sizeof(ThreadInfo) + labelTexts->size() * sizeof(std::string);
    }
};

} // namespace hecscope
