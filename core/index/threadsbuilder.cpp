#include "core/index/threadsbuilder.h"

#include "core/format/eventtags.h"

#include <algorithm>

namespace hecscope {
namespace {

constexpr uint32_t kMaxDenseThread = 1u << 24; // larger ids go to a map

} // namespace

ThreadInfo& ThreadsBuilder::newThread(uint64_t id)
{
    auto& threads = m_part.threads;
    // An id first met far away stays in the map even once the table grows
    // past it.
    if (!m_part.largeThreads.empty() && id <= UINT32_MAX) {
        const auto it = m_part.largeThreads.find(uint32_t(id));
        if (it != m_part.largeThreads.end())
            return it->second;
    }
    const bool dense = id < kMaxDenseThread && id < 2 * m_threadsSeen + 65536;
    if (dense && id >= threads.size()) {
        // Room grows by half, the size only to the id: a copy (a
        // snapshot) takes no unused tail, and the final seal shrinks the
        // room to the size.
        if (id >= threads.capacity())
            threads.reserve(std::min<size_t>(kMaxDenseThread, std::max<size_t>(size_t(id) + 1, threads.capacity() * 3 / 2)));
        threads.resize(size_t(id) + 1);
    }
    ThreadInfo& t = id < threads.size() ? threads[id]
                                        : m_part.largeThreads[uint32_t(std::min<uint64_t>(id, UINT32_MAX))];
    if (!t.seen) {
        t.id = uint32_t(std::min<uint64_t>(id, UINT32_MAX));
        t.seen = true;
        ++m_threadsSeen;
    }
    return t;
}

void ThreadsBuilder::consume(const Event& e)
{
    const uint64_t id = e.n[0];
    switch (e.tag) {
    case tag::CreateThread: {
        ThreadInfo& th = thread(id);
        th.created = std::min(th.created, e.time);
        th.createdOn = e.cap;
        break;
    }
    case tag::ThreadRunnable: ++thread(id).runnable; break;
    case tag::MigrateThread: ++thread(id).migrations; break;
    case tag::ThreadWakeup: ++thread(id).wakeups; break;
    case tag::ThreadLabel:
        m_part.labelTexts->emplace_back(e.s[0]);
        thread(id).label.m_text = &m_part.labelTexts->back();
        break;
    default: break;
    }
}

void ThreadsBuilder::runStarted(uint64_t id, uint64_t time)
{
    ThreadInfo& th = thread(id);
    ++th.runs;
    th.firstRun = std::min(th.firstRun, time);
}

void ThreadsBuilder::stopped(uint64_t id, uint64_t code, uint64_t time)
{
    ThreadInfo& th = thread(id);
    switch (stopClass(uint8_t(std::min<uint64_t>(code, 253)))) {
    case StopClass::HeapOverflow: ++th.heapOverflows; break;
    case StopClass::StackOverflow: ++th.stackOverflows; break;
    case StopClass::Yield: ++th.yields; break;
    case StopClass::ForeignCall: ++th.foreignCalls; break;
    case StopClass::Finished: th.finished = time; break;
    case StopClass::Blocked: ++th.blocked[size_t(blockReason(uint8_t(code)))]; break;
    case StopClass::Other: break;
    }
}

void ThreadsBuilder::ran(uint64_t id, uint64_t start, uint64_t end)
{
    ThreadInfo& th = thread(id);
    th.runTime += end - start;
    th.lastStop = end;
}

ThreadRuns::Mark ThreadsBuilder::mark(uint64_t id)
{
    const ThreadInfo& th = thread(id);
    return {th.runTime, th.lastStop};
}

void ThreadsBuilder::restore(uint64_t id, Mark m)
{
    ThreadInfo& th = thread(id);
    th.runTime = m.runTime;
    th.lastStop = m.lastStop;
}

StopClass stopClass(uint8_t code)
{
    switch (code) {
    case 1: return StopClass::HeapOverflow;
    case 2: return StopClass::StackOverflow;
    case 3: return StopClass::Yield;
    case 4: return StopClass::Blocked;
    case 5: return StopClass::Finished;
    case 6: return StopClass::ForeignCall;
    default: return code >= 7 && code <= 20 && code != 19 ? StopClass::Blocked : StopClass::Other;
    }
}

BlockReason blockReason(uint8_t code)
{
    switch (code) {
    case 7: return BlockReason::MVar;
    case 8: return BlockReason::BlackHole;
    case 9: return BlockReason::Read;
    case 10: return BlockReason::Write;
    case 11: return BlockReason::Delay;
    case 12: return BlockReason::Stm;
    case 13: return BlockReason::DoProc;
    case 16:
    case 17: return BlockReason::CCall;
    case 18: return BlockReason::ThrowTo;
    case 20: return BlockReason::MVarRead;
    default: return BlockReason::Other;
    }
}

const char* blockReasonName(BlockReason r)
{
    static const char* const names[kBlockReasons] = {
        "mvar", "mvar_read", "black_hole", "read", "write", "delay", "stm", "do_proc",
        "foreign_call", "throw_to", "other"};
    return names[size_t(r)];
}

size_t ThreadsPart::threadCount() const
{
    return size_t(std::count_if(threads.begin(), threads.end(), [](const ThreadInfo& t) { return t.seen; }))
        + largeThreads.size();
}

const ThreadInfo* ThreadsPart::thread(uint32_t id) const
{
    if (id < threads.size() && threads[id].seen)
        return &threads[id];
    const auto it = largeThreads.find(id);
    return it == largeThreads.end() ? nullptr : &it->second;
}

} // namespace hecscope
