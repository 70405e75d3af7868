#pragma once

#include "core/index/packediterator.h"
#include "core/time/timestamp.h"

#include <array>
#include <cstddef>
#include <iterator>
#include <optional>
#include <span>
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

// The dense threads as the index keeps them (ThreadsPart::threads): about
// 25 bytes a thread where a ThreadInfo takes 136 (a synthesized 1 GB log
// has 470,000 threads). Entry `id` is thread `id` (a gap: not seen): a
// byte saying whether it was seen, its four times as LEB128 varints of
// their difference from the time before (the entry before's creation,
// then its own), its run time and creating capability, a mask of its
// nineteen counters that are not 0 and those counters. Every 16th entry's
// place is kept; the labels (few threads have one) are kept apart.
// Read by value: an entry decodes up to 15 before it; iterating decodes
// each once. Made from ThreadsBuilder's table at each seal (assign).
class ThreadTable {
public:
    void assign(std::span<const ThreadInfo> dense);
    size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    size_t seenCount() const { return m_seen; } // (entries not gaps)
    ThreadInfo operator[](size_t id) const;
    ThreadInfo at(size_t id) const; // (throws std::out_of_range past the end)
    // Thread id's label, without decoding its entry.
    ThreadLabel labelOf(size_t id) const;
    // The labelled threads: (id, label), ids ascending.
    const std::vector<std::pair<uint32_t, ThreadLabel>>& labels() const { return m_labels; }
    size_t memoryBytes() const;
    bool operator==(const ThreadTable&) const = default;

    // Forward, each entry decoded once.
    using iterator = PackedIterator<ThreadTable, ThreadInfo>;
    iterator begin() const { return iterator(this, 0); }
    iterator end() const { return iterator(this, m_size); }

private:
    friend iterator;
    struct Cursor {
        const uint8_t* at = nullptr; // the next entry's bytes
        uint64_t ref = 0;            // the time its creation is counted from
    };
    void seek(Cursor& c, size_t id, ThreadInfo& out) const;
    void next(Cursor& c, size_t id, ThreadInfo& out) const;
    static constexpr size_t kGroup = 16;
    void decode(const uint8_t*& p, uint64_t& ref, size_t id, ThreadInfo& out) const;
    std::vector<uint8_t> m_bytes;
    std::vector<uint64_t> m_groupStarts;
    size_t m_size = 0, m_seen = 0;
    std::vector<std::pair<uint32_t, ThreadLabel>> m_labels; // (id, label), ids ascending
};

// What ThreadsBuilder makes. Ids are dense in practice, so most threads
// live in a table indexed by id; stray far ids go to a map.
struct ThreadsPart {
    ThreadTable threads;                         // by id up to the largest; entries with seen == false are gaps
    std::map<uint32_t, ThreadInfo> largeThreads; // ids far beyond the others (or >= 2^24)
    // The labels' texts (ThreadLabel points into it): appended to by the
    // builder only, shared by the copies, never changed.
    std::shared_ptr<std::deque<std::string>> labelTexts = std::make_shared<std::deque<std::string>>();

    size_t threadCount() const;
    std::optional<ThreadInfo> thread(uint32_t id) const;
    ThreadLabel labelOf(uint32_t id) const;
    size_t partBytes() const // (LogIndex::memoryBytes)
    {
        return threads.memoryBytes() + largeThreads.size() * (sizeof(ThreadInfo) + 48)
            + labelTexts->size() * sizeof(std::string);
    }
};

} // namespace hecscope
