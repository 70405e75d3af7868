#pragma once

#include <cstdint>

namespace hecscope {

// What the scheduler tells the thread table about runs: the narrow link
// between SchedulerBuilder (which sees RUN_THREAD/STOP_THREAD on its
// capability) and ThreadsBuilder (which owns ThreadInfo). Ids are the raw
// event fields; times are ns. Calls come in event order, on the decoding
// thread.
class ThreadRuns {
public:
    // Run-time accounting of one thread, saved before a provisional span
    // and restored when it is taken back.
    struct Mark {
        uint64_t runTime = 0, lastStop = 0;
    };
    virtual void runStarted(uint64_t thread, uint64_t time) = 0;
    virtual void stopped(uint64_t thread, uint64_t standardCode, uint64_t time) = 0;
    virtual void ran(uint64_t thread, uint64_t start, uint64_t end) = 0;
    virtual Mark mark(uint64_t thread) = 0;
    virtual void restore(uint64_t thread, Mark m) = 0;

protected:
    ~ThreadRuns() = default;
};

} // namespace hecscope
