#pragma once

#include "core/format/event.h"
#include "core/index/threadruns.h"
#include "core/index/threadspart.h"

#include <cstddef>
#include <cstdint>

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

private:
    ThreadInfo& thread(uint64_t id)
    {
        auto& threads = m_part.threads;
        if (id < threads.size() && threads[id].seen) [[likely]]
            return threads[id];
        return newThread(id);
    }
    ThreadInfo& newThread(uint64_t id);

    ThreadsPart& m_part;
    size_t m_threadsSeen = 0;
};

} // namespace hecscope
