#include "core/index/indexdispatcher.h"

#include "core/format/eventtags.h"

#include <algorithm>
#include <future>
#include <system_error>

namespace hecscope {

IndexDispatcher::IndexDispatcher(LogIndex& index)
    : m_ix(index)
    , m_threads(index)
    , m_threadStates(index)
    , m_scheduler(index, m_threads, m_events)
    , m_collections(index)
    , m_heap(index)
    , m_heapProfile(index)
    , m_timeProfile(index)
    , m_messages(index)
    , m_instants(index)
    , m_process(index)
    , m_concurrent(index)
{
    m_ix.tagCounts.assign(65536, 0);
}

void IndexDispatcher::onHeader(const std::shared_ptr<const LogFormat>& format)
{
    m_scheduler.setEncoding(format->stopEncoding());
    m_threadStates.setEncoding(format->stopEncoding());
}

void IndexDispatcher::onEvent(const Event& e)
{
    ++m_ix.tagCounts[e.tag];
    ++m_events;
    if (e.tag == tag::BlockMarker)
        return;
    m_ix.firstTime = std::min(m_ix.firstTime, e.time);
    m_ix.lastTime = std::max(m_ix.lastTime, e.time);
    // An event whose declared size does not fit any layout of ours was
    // skipped by the decoder: its fields are not there to read.
    if (!e.known)
        return;
    // Every event with a capability shapes that capability's facts (and
    // its timeline, for RUN/STOP_THREAD and GC_*), before any other builder
    // sees it.
    if (e.cap != kNoCap)
        m_scheduler.consumeCapEvent(e);
    else
        ++m_ix.eventsWithoutCap;
    if (m_events >= m_nextSpanSpill) [[unlikely]] {
        m_scheduler.spillSpans();
        m_nextSpanSpill = m_events + kSpillSpansEvery;
    }
    switch (e.tag) {
    case tag::CreateThread:
    case tag::RunThread:
    case tag::StopThread:
    case tag::ThreadRunnable:
    case tag::MigrateThread:
    case tag::ThreadWakeup:
        m_threadStates.consume(e);
        if (m_settleEvery && ++m_sinceSettle >= m_settleEvery) {
            m_threadStates.settle(settleBound());
            m_sinceSettle = 0;
        }
        break;
    default: break;
    }
    switch (e.tag) {
    case tag::CreateThread:
    case tag::ThreadRunnable:
    case tag::MigrateThread:
    case tag::ThreadWakeup:
    case tag::ThreadLabel: m_threads.consume(e); break;
    default: break;
    }
    switch (e.tag) {
    case tag::SparkCreate:
    case tag::SparkRun:
    case tag::SparkFizzle:
    case tag::SparkSteal:
    case tag::CreateThread:
    case tag::ThreadWakeup:
    case tag::MigrateThread:
    case tag::RequestSeqGc:
    case tag::RequestParGc: m_instants.consume(e, m_scheduler.runningThread(e.cap), m_scheduler.inGc(e.cap)); break;
    default: break;
    }
    switch (e.tag) {
    case tag::RequestSeqGc:
    case tag::RequestParGc:
    case tag::GcGlobalSync:
    case tag::GcStatsGhc: m_collections.consume(e); break;
    case tag::HeapAllocated:
    case tag::HeapSize:
    case tag::HeapLive:
    case tag::BlocksSize:
    case tag::HeapInfoGhc:
    case tag::MemReturn: m_heap.consume(e); break;
    case tag::CapCreate:
    case tag::CapDelete: m_scheduler.consumeCapFact(e); break;
    case tag::CapsetCreate:
    case tag::CapsetDelete:
    case tag::CapsetAssignCap:
    case tag::CapsetRemoveCap:
    case tag::RtsIdentifier:
    case tag::ProgramArgs:
    case tag::ProgramEnv:
    case tag::OsProcessPid:
    case tag::OsProcessPpid:
    case tag::WallClockTime:
    case tag::TaskCreate: m_process.consume(e); break;
    case tag::UserMarker:
    case tag::UserMsg:
    case tag::LogMsg:
    case tag::UserBinaryMsg: m_messages.consume(e, m_scheduler.runningThread(e.cap)); break;
    case tag::HeapProfBegin:
    case tag::HeapProfCostCentre:
    case tag::HeapProfSampleBegin:
    case tag::HeapBioProfSampleBegin:
    case tag::HeapProfSampleCostCentre:
    case tag::HeapProfSampleString:
    case tag::HeapProfSampleEnd:
    case tag::Ipe: m_heapProfile.consume(e); break;
    case tag::ProfBegin:
    case tag::ProfSampleCostCentre:
    case tag::TickyCounterDef:
    case tag::TickyCounterSample:
    case tag::TickyCounterBeginSample: m_timeProfile.consume(e); break;
    case tag::ConcMarkBegin:
    case tag::ConcSyncBegin:
    case tag::ConcSweepBegin:
    case tag::ConcMarkEnd:
    case tag::ConcSyncEnd:
    case tag::ConcSweepEnd:
    case tag::ConcUpdRemSetFlush:
    case tag::NonmovingHeapCensus: m_concurrent.consume(e); break;
    default: break;
    }
}

// Every capability's events are in up to its newest one; one that the
// log names but whose events have not come holds everything back.
uint64_t IndexDispatcher::settleBound() const
{
    uint64_t settleBefore = m_ix.caps.empty() ? 0 : UINT64_MAX;
    for (size_t c = 0; c < std::max<size_t>(m_ix.caps.size(), m_ix.capsNamed); ++c) {
        const bool known = c < m_ix.caps.size();
        if (known && m_ix.caps[c].events > 0)
            settleBefore = std::min(settleBefore, m_ix.caps[c].lastEvent);
        else if (c < m_ix.capsNamed || (known && m_ix.caps[c].created != kNoTime))
            settleBefore = 0;
    }
    return settleBefore;
}

bool IndexDispatcher::seal(bool final, const LoadObserver* observer)
{
    const uint64_t settleBefore = settleBound();
    // A load's final seal: the thread states (their own part of the
    // index, from their own builder) on a thread of their own beside the
    // collections and timelines (on the 1.1 GB log these take 0.8 s).
    // (Waited for however this returns: the future's destructor.)
    std::future<bool> threads;
    if (final) {
        try {
            threads = std::async(std::launch::async,
                                 [&] { return m_threadStates.seal(m_ix.lastTime, true, observer, settleBefore); });
        } catch (const std::system_error&) {
            // (No thread to be had: sealed after the rest, on this one.)
        }
    }
    // The collections first: sealing the timelines splits each
    // capability's GC spans by its collection.
    m_scheduler.unseal();
    const std::vector<GcSpan> open = m_scheduler.openGcSpans(m_ix.lastTime);
    if (isCancelled(observer) || !m_collections.build(m_scheduler.gcSpans(), open, observer))
        return false;
    m_scheduler.seal(m_ix.lastTime, final, m_ix.collections, settleBefore);
    m_threads.flush(); // (the seal ran the open runs to the end)
    m_scheduler.spillSpans();
    const bool threadsSealed = threads.valid() ? threads.get()
                                               : !isCancelled(observer)
            && m_threadStates.seal(m_ix.lastTime, final, observer, settleBefore);
    if (isCancelled(observer) || !threadsSealed)
        return false;
    if (final) {
        // Vectors that grew by doubling keep up to half their capacity
        // unused: on a 4 GB log the far segment times alone held 2 GB.
        ThreadStates& ts = m_ix.threadStates;
        if (!m_keepThreadSegments)
            ts.moveSegmentsToFile();
        for (auto* v : {&ts.offsets, &ts.checkTimes, &ts.checkOffsets})
            v->shrink_to_fit();
        ts.ids.shrink_to_fit();
        ts.farTimes.shrink_to_fit();
        ts.infos.shrink_to_fit();
        ts.overviews.shrink_to_fit();
        ts.overviewKeys.shrink_to_fit();
        // (A log of many threads: 136 bytes a thread; the table has no unused tail.)
        m_ix.threads.shrink_to_fit();
        m_ix.collections.shrink_to_fit();
    }
    return true;
}

void IndexDispatcher::unseal()
{
    m_scheduler.unseal();
}

} // namespace hecscope
