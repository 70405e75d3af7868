#pragma once

#include "core/detail/threaddetail.h"
#include "core/index/logindex.h"
#include "core/io/bytesource.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace hecscope {

// Detail read back from the file. The index keeps summaries and marks
// (where each stretch of detail begins in the file, and the state reading
// on from there needs); a view that needs the detail of a range asks for
// it here, a worker reads it, and it is kept in a cache with a memory
// budget (least recently used first out).

// A unit of a capability's instants (CapInstantMarks::kUnitInstants of
// them, the last unit fewer) as read back, or why it could not be.
struct InstantUnit {
    CapInstants instants; // file order
    std::string error;    // "" when read; else the problem and its byte offset
};

// Reads unit `unit` of capability `cap`'s instants from `source`, the file
// `index` was made from. Checks what it reads against the index's marks: a
// file that was changed, truncated or replaced since gives an error, never
// other instants.
InstantUnit readInstantUnit(ByteSource& source, const LogIndex& index, uint16_t cap, uint64_t unit);

// Which unit: the capability, the unit and how many instants it held
// when asked for (the last unit of a growing log grows: a fuller one is
// another unit).
struct InstantUnitKey {
    uint16_t cap = 0;
    uint64_t unit = 0;
    uint64_t count = 0;
    auto operator<=>(const InstantUnitKey&) const = default;
};

// A window of thread segments: [from, to) ns, of the threads with ids
// `threads` (ascending).
struct ThreadWindowKey {
    uint64_t from = 0, to = 0;
    std::vector<uint32_t> threads;
    bool operator<(const ThreadWindowKey& o) const
    {
        return std::tie(from, to, threads) < std::tie(o.from, o.to, o.threads);
    }
    bool operator==(const ThreadWindowKey&) const = default;
};

// The detail of one open log: its source and the cache of what was read.
// Thread-safe: views find and ask on the UI thread, workers load.
class DetailStore {
public:
    static constexpr size_t kDefaultBudget = size_t(64) << 20;
    explicit DetailStore(std::shared_ptr<ByteSource> source, size_t budgetBytes = kDefaultBudget);

    // The unit if it is cached (then the most recently used), else null.
    std::shared_ptr<const InstantUnit> find(const InstantUnitKey& key);
    // Notes that a view wants the unit: true if it is neither cached nor
    // asked for already (the caller then has it loaded, off the UI thread).
    bool ask(const InstantUnitKey& key);
    // Reads the unit (or finds it) and caches it. Any thread.
    std::shared_ptr<const InstantUnit> load(const LogIndex& index, const InstantUnitKey& key);
    // Forgets that `key` was asked for (its load was cancelled).
    void forget(const InstantUnitKey& key);
    // A view begins painting: the units it finds and those read until the
    // next call are what it shows, and stay cached however far over the
    // budget (else a view needing more than the budget would read its
    // units forever, each evicting another it needs).
    void beginView();

    // Grows by one whenever a unit is added: what views compare to know
    // that they may draw more now.
    uint64_t generation() const;

    // Windows of threads' segments (readThreadSegments), for the thread
    // rows zoomed in past their bins: of the threads that need them only
    // (a thread whose bins are coarse has few segments in a view, but a
    // window of every thread over a wide view holds each of the log's
    // scheduler events in it). At most kThreadWindows are kept (the least
    // recently used go first, never the current view's).
    static constexpr size_t kThreadWindows = 4;
    // A cached window holding [t0, t1) and every thread of `need` (ids),
    // then the most recently used; else null.
    std::shared_ptr<const ThreadDetail> findThreads(uint64_t t0, uint64_t t1, const std::vector<uint32_t>& need);
    // Notes that a view wants the window: true if no window holds it and
    // it is not asked for already (the caller has it loaded).
    bool askThreads(const ThreadWindowKey& key);
    // Reads the window (or finds it) and caches it, unless cancelled. Any thread.
    std::shared_ptr<const ThreadDetail> loadThreads(const LogIndex& index, const ThreadWindowKey& key,
                                                    const std::function<bool()>& cancelled = {});
    // Grows by one whenever a window is added.
    uint64_t threadGeneration() const;
    // A window is read only when the stretch of the file it decodes
    // (threadDetailBytes) is at most this; wider views draw the rows from
    // their finest bins. (Its threads have few segments there, but the
    // read decodes every event of the stretch to find them.)
    static constexpr uint64_t kDefaultThreadWindowBytes = uint64_t(32) << 20;
    uint64_t maxThreadWindowBytes() const { return m_maxThreadWindowBytes; }
    void setMaxThreadWindowBytes(uint64_t bytes) { m_maxThreadWindowBytes = bytes; } // (tests)
    size_t cachedBytes() const;
    size_t budget() const { return m_budget; }
    const std::shared_ptr<ByteSource>& source() const { return m_source; }

private:
    struct Entry {
        std::shared_ptr<const InstantUnit> unit;
        size_t bytes = 0;
        std::list<InstantUnitKey>::iterator lru;
        uint64_t view = 0; // the last view that found or read it
    };
    void insertLocked(const InstantUnitKey& key, std::shared_ptr<const InstantUnit> unit);

    std::shared_ptr<ByteSource> m_source;
    size_t m_budget;
    mutable std::mutex m_mutex;
    std::map<InstantUnitKey, Entry> m_units;
    std::list<InstantUnitKey> m_lru; // most recently used first
    std::set<InstantUnitKey> m_asked;
    size_t m_bytes = 0;
    uint64_t m_generation = 0;
    uint64_t m_view = 0;
    struct ThreadWindow {
        std::shared_ptr<const ThreadDetail> detail;
        size_t bytes = 0;
        uint64_t view = 0;
    };
    std::list<ThreadWindow> m_threadWindows; // most recently used first
    std::set<ThreadWindowKey> m_threadsAsked;
    uint64_t m_threadGeneration = 0;
    std::atomic<uint64_t> m_maxThreadWindowBytes{kDefaultThreadWindowBytes};
};

// The instants of one capability with times in [t0, t1), in time order,
// gathered from the store's units: what a view draws.
struct ViewInstants {
    CapInstants instants;
    std::string error;                 // a unit that could not be read
    std::vector<InstantUnitKey> missing; // units not cached yet (then `instants` is incomplete)
};
// `wait`: load missing units now, on this thread (exports, the command line).
ViewInstants viewInstants(DetailStore& store, const LogIndex& index, uint16_t cap, uint64_t t0, uint64_t t1,
                          bool wait);

} // namespace hecscope
