#pragma once

#include "core/format/event.h"
#include "core/format/logformat.h"
#include "core/index/loadobserver.h"
#include "core/index/threadstatespart.h"
#include "core/index/timeline.h"

#include <cstdint>
#include <vector>

namespace hecscope {

// Builds ThreadStatesPart from CREATE_THREAD, RUN_THREAD, STOP_THREAD,
// THREAD_RUNNABLE, THREAD_WAKEUP and MIGRATE_THREAD. The events of one
// thread come from several capabilities' blocks, so in log order they are
// not in time order: they are kept as they come (16 bytes each) and
// seal() sorts them per thread and walks each thread's states. A
// provisional seal builds the segments from everything so far; the final
// one also frees the raw events. Decoding thread only.
class ThreadStatesBuilder {
public:
    explicit ThreadStatesBuilder(ThreadStatesPart& part)
        : m_part(part)
    {
    }
    void setEncoding(StopEncoding e) { m_encoding = e; }
    void consume(const Event& e);
    // Segments of every thread up to `end` (ns). False once cancelled.
    bool seal(uint64_t end, bool final, const LoadObserver* observer);

private:
    // One event as it came; events of a thread at equal times keep their
    // log order.
    struct Raw {
        uint64_t time : 48; // ns (as the capability timelines, 78 hours at most)
        uint64_t cap : 16;
        uint32_t thread;
        uint32_t info : 20; // a black hole's owner beyond 2^20 is kept as 0 (unknown)
        uint32_t cause : 4;
        uint32_t stop : 8;
    };
    static_assert(sizeof(Raw) == 16);
    void add(uint64_t time, uint64_t thread, ThreadCause cause, uint16_t cap, uint8_t stop = 0, uint32_t info = 0);

    ThreadStatesPart& m_part;
    StopEncoding m_encoding = StopEncoding::Standard;
    ChunkedArray<Raw> m_raw;
    std::vector<uint64_t> m_running; // per capability: thread + 1 running there, 0 if none
};

} // namespace hecscope
