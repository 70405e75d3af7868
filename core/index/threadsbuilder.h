#pragma once

#include "core/format/event.h"
#include "core/format/eventtags.h"
#include "core/index/threadruns.h"
#include "core/index/threadspart.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace hecscope {

// Builds ThreadsPart from CREATE_THREAD, THREAD_RUNNABLE, MIGRATE_THREAD,
// THREAD_WAKEUP and THREAD_LABEL, and from the runs SchedulerBuilder
// reports through ThreadRuns. Thread ids are dense in practice (GHC counts
// up from 1); an id far beyond those seen so far (or beyond 2^24) goes to
// a map, so that one stray id cannot make the table huge. Nothing
// provisional: runs are taken back through ThreadRuns::restore.
// Decoding thread only.
class ThreadsBuilder final : public ThreadRuns {
public:
    // IndexBuilders: the tags it consumes, and of those the start-up records.
    static constexpr uint16_t kTags[]{tag::CreateThread, tag::ThreadRunnable, tag::MigrateThread, tag::ThreadWakeup,
                                      tag::ThreadLabel};
    static constexpr uint16_t kStartupTags[]{tag::ThreadLabel};
    explicit ThreadsBuilder(ThreadsPart& part)
        : m_part(part)
    {
    }

    void consume(const Event& e);

    void runStarted(uint64_t thread, uint64_t time) override;
    void stopped(uint64_t thread, uint64_t standardCode, uint64_t time) override;
    void ran(uint64_t thread, uint64_t start, uint64_t end) override;
    Mark mark(uint64_t thread) override;
    void restore(uint64_t thread, Mark m) override;
    // What waits counted into the threads (before the part is read: a
    // seal).
    void flush();
    // The part's table made from the builder's (ThreadTable: packed), at
    // a seal, after flush(). `final`: the builder's own is let go.
    void publish(bool final);
    // From how many threads in the table the events wait (see below);
    // 0: always (tests compare the two ways).
    void setDeferFrom(size_t threads) { m_deferFrom = threads; }

private:
    ThreadInfo& thread(uint64_t id)
    {
        // (Whether the table holds the thread, from bits that stay in the
        // cache: asking for an entry, defer() reads nothing of it.)
        if (id < m_seen.size() * 64 && (m_seen[id >> 6] >> (id & 63) & 1)) [[likely]]
            return m_table[id];
        return newThread(id);
    }
    ThreadInfo& newThread(uint64_t id);
    // A log of many threads run in turn (hundreds of thousands) missed the
    // cache on the thread's entry at every event of it. So, once the table
    // has m_deferFrom threads, each event only asks for the entry at first
    // and is counted kPending events later, in the order they came, when
    // the entry has come; mark() and restore() (the only reads) and a seal
    // (flush) count what waits first.
    enum class RunOp : uint8_t { Start, Stop, Ran, Created, Runnable, Migrated, Woken, Labelled };
    struct Pending {
        uint64_t id;
        uint64_t a; // Start: time; Stop: code; Ran: start; Created: time; Labelled: the text
        uint64_t b; // Stop: time; Ran: end; Created: capability
        RunOp op;
    };
    template <RunOp op>
    void defer(uint64_t id, uint64_t a, uint64_t b);
    template <RunOp op>
    static void applyTo(ThreadInfo& th, uint64_t a, uint64_t b);
    void apply(const Pending& p);
    static constexpr size_t kPending = 32;
    size_t m_deferFrom = 8192; // threads in the table (1.1 MB)
    std::array<Pending, kPending> m_pending{};
    size_t m_pendingNext = 0; // where the next goes (the oldest, when full)
    size_t m_pendingCount = 0;

    ThreadsPart& m_part;
    // The dense threads as they are counted (the part gets them packed at
    // each seal: publish).
    std::vector<ThreadInfo> m_table;
    size_t m_threadsSeen = 0;
    std::vector<uint64_t> m_seen; // bit id: m_table[id].seen
};

} // namespace hecscope
