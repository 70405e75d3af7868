#pragma once

#include "core/format/decoder.h"
#include "core/index/collectionsbuilder.h"
#include "core/index/concurrentgcbuilder.h"
#include "core/index/heapprofilebuilder.h"
#include "core/index/heapsamplesbuilder.h"
#include "core/index/instantsbuilder.h"
#include "core/index/loadobserver.h"
#include "core/index/logindex.h"
#include "core/index/messagesbuilder.h"
#include "core/index/processbuilder.h"
#include "core/index/schedulerbuilder.h"
#include "core/index/threadsbuilder.h"
#include "core/index/threadstatesbuilder.h"
#include "core/index/timeprofilebuilder.h"

#include <cstdint>
#include <memory>

namespace hecscope {

// The EventSink that builds a LogIndex: counts every event per tag, keeps
// the first and last time (ns), and routes each decoded event to the
// builders of the concerns that read its tag (one switch, in onEvent).
// Each builder fills one part of the index. seal() makes every part
// consistent (open spans and collections end at the last event); unless
// `final`, unseal() takes that back before more events come.
// Decoding thread only.
class IndexDispatcher final : public EventSink {
public:
    explicit IndexDispatcher(LogIndex& index);

    void onHeader(const std::shared_ptr<const LogFormat>& format) override;
    void onEvent(const Event& e) override;
    // False (and the index only fit to be thrown away) once `observer`
    // says cancelled.
    bool seal(bool final, const LoadObserver* observer = nullptr);
    void unseal();
    // Keep every instant in memory too (InstantsPart::keptInstants).
    void keepInstants() { m_instants.keepAll(); }
    // Every thread's segments stay in the final index (tests compare them).
    void keepThreadSegments()
    {
        m_keepThreadSegments = true;
        m_threadStates.setSpill(false);
    }
    // (IndexBuilder::keepSpansInMemory)
    void keepSpansInMemory() { m_scheduler.setSpill(false); }
    // Settle the thread events every `n` of them (0: never; see
    // ThreadStatesBuilder::settle): a whole log's load.
    void settleThreadEventsEvery(size_t n, size_t minEventsPerThread, size_t runEvents)
    {
        m_settleEvery = n;
        m_sinceSettle = 0;
        m_threadStates.setSettleEventsPerThread(minEventsPerThread);
        m_threadStates.setRunEvents(runEvents);
        m_threadStates.setSpill(n > 0 && !m_keepThreadSegments);
    }
    // A live session's (ThreadStatesBuilder::setReleaseSettled).
    void releaseSettledThreadEvents()
    {
        m_threadStates.setReleaseSettled(true);
        m_threadStates.setSpill(!m_keepThreadSegments);
    }
    uint64_t threadSegmentsSpilled() const { return m_threadStates.spilledBytes(); }
    bool threadSettlingDeclined() const { return m_threadStates.settleDeclined(); }
    bool threadEventsLost() const { return m_threadStates.lostEvents(); }
    uint64_t threadEventsInRuns() const { return m_threadStates.eventsInRuns(); }
    uint64_t threadRunBytes() const { return m_threadStates.runBytes(); }
    void deferThreadCountsFrom(size_t threads) { m_threads.setDeferFrom(threads); }
    uint64_t threadsBinnedAsMerged() const { return m_threadStates.threadsBinnedAsMerged(); }

private:
    LogIndex& m_ix;
    uint64_t m_events = 0; // every event so far, block markers included
    ThreadsBuilder m_threads;
    ThreadStatesBuilder m_threadStates;
    SchedulerBuilder m_scheduler;
    CollectionsBuilder m_collections;
    HeapSamplesBuilder m_heap;
    HeapProfileBuilder m_heapProfile;
    TimeProfileBuilder m_timeProfile;
    MessagesBuilder m_messages;
    InstantsBuilder m_instants;
    bool m_keepThreadSegments = false;
    // (Counted here, on the decoding thread: the builder's own arrays
    // are a settle's walk's while it runs.)
    size_t m_settleEvery = 0, m_sinceSettle = 0;
    static constexpr uint64_t kSpillSpansEvery = uint64_t(1) << 20; // events
    uint64_t m_nextSpanSpill = kSpillSpansEvery;
    uint64_t settleBound() const;
    ProcessBuilder m_process;
    ConcurrentGcBuilder m_concurrent;
};

} // namespace hecscope
