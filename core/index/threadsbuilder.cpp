#include "core/index/threadsbuilder.h"

#include "core/format/eventtags.h"

#include <algorithm>

namespace hecscope {
namespace {

constexpr uint32_t kMaxDenseThread = 1u << 24; // larger ids go to a map

} // namespace

ThreadInfo& ThreadsBuilder::newThread(uint64_t id)
{
    auto& threads = m_table;
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
    if (id < threads.size()) {
        if (m_seen.size() <= (id >> 6))
            m_seen.resize(std::max<size_t>((id >> 6) + 1, m_seen.size() * 3 / 2));
        m_seen[id >> 6] |= uint64_t(1) << (id & 63);
    }
    return t;
}

template <ThreadsBuilder::RunOp op>
void ThreadsBuilder::applyTo(ThreadInfo& th, uint64_t a, uint64_t b)
{
    if constexpr (op == RunOp::Start) {
        ++th.runs;
        th.firstRun = std::min(th.firstRun, a);
    } else if constexpr (op == RunOp::Stop) {
        switch (stopClass(uint8_t(std::min<uint64_t>(a, 253)))) {
        case StopClass::HeapOverflow: ++th.heapOverflows; break;
        case StopClass::StackOverflow: ++th.stackOverflows; break;
        case StopClass::Yield: ++th.yields; break;
        case StopClass::ForeignCall: ++th.foreignCalls; break;
        case StopClass::Finished: th.finished = b; break;
        case StopClass::Blocked: ++th.blocked[size_t(blockReason(uint8_t(a)))]; break;
        case StopClass::Other: break;
        }
    } else if constexpr (op == RunOp::Ran) {
        th.runTime += b - a;
        th.lastStop = b;
    } else if constexpr (op == RunOp::Created) {
        th.created = std::min(th.created, a);
        th.createdOn = uint16_t(b);
    } else if constexpr (op == RunOp::Runnable) {
        ++th.runnable;
    } else if constexpr (op == RunOp::Migrated) {
        ++th.migrations;
    } else if constexpr (op == RunOp::Woken) {
        ++th.wakeups;
    } else {
        static_assert(op == RunOp::Labelled);
        th.label.m_text = reinterpret_cast<const std::string*>(a);
    }
}

void ThreadsBuilder::apply(const Pending& p)
{
    ThreadInfo& th = thread(p.id);
    switch (p.op) {
    case RunOp::Start: applyTo<RunOp::Start>(th, p.a, p.b); break;
    case RunOp::Stop: applyTo<RunOp::Stop>(th, p.a, p.b); break;
    case RunOp::Ran: applyTo<RunOp::Ran>(th, p.a, p.b); break;
    case RunOp::Created: applyTo<RunOp::Created>(th, p.a, p.b); break;
    case RunOp::Runnable: applyTo<RunOp::Runnable>(th, p.a, p.b); break;
    case RunOp::Migrated: applyTo<RunOp::Migrated>(th, p.a, p.b); break;
    case RunOp::Woken: applyTo<RunOp::Woken>(th, p.a, p.b); break;
    case RunOp::Labelled: applyTo<RunOp::Labelled>(th, p.a, p.b); break;
    }
}

template <ThreadsBuilder::RunOp op>
void ThreadsBuilder::defer(uint64_t id, uint64_t a, uint64_t b)
{
    // (A table that stays in the cache is written at once: waiting costs
    // more than it saves. It only grows, so nothing waits then.)
    if (m_table.size() < m_deferFrom) [[likely]] {
        applyTo<op>(thread(id), a, b);
        return;
    }
    const char* entry = reinterpret_cast<const char*>(&thread(id));
    __builtin_prefetch(entry, 1);
    __builtin_prefetch(entry + 64, 1);
    __builtin_prefetch(entry + sizeof(ThreadInfo) - 1, 1);
    Pending& slot = m_pending[m_pendingNext];
    if (m_pendingCount == kPending)
        apply(slot);
    else
        ++m_pendingCount;
    slot = {id, a, b, op};
    m_pendingNext = (m_pendingNext + 1) % kPending;
}

void ThreadsBuilder::flush()
{
    for (size_t i = 0; i < m_pendingCount; ++i)
        apply(m_pending[(m_pendingNext + kPending - m_pendingCount + i) % kPending]);
    m_pendingCount = 0;
}

void ThreadsBuilder::publish(bool final)
{
    m_part.threads.assign(m_table);
    if (final) {
        // (Not `= {}`: that assigns an empty initializer list, which
        // keeps the memory.)
        std::vector<ThreadInfo>().swap(m_table);
        std::vector<uint64_t>().swap(m_seen);
    }
}

void ThreadsBuilder::consume(const Event& e)
{
    const uint64_t id = e.n[0];
    switch (e.tag) {
    case tag::CreateThread: defer<RunOp::Created>(id, e.time, e.cap); break;
    case tag::ThreadRunnable: defer<RunOp::Runnable>(id, 0, 0); break;
    case tag::MigrateThread: defer<RunOp::Migrated>(id, 0, 0); break;
    case tag::ThreadWakeup: defer<RunOp::Woken>(id, 0, 0); break;
    case tag::ThreadLabel:
        m_part.labelTexts->emplace_back(e.s[0]);
        defer<RunOp::Labelled>(id, reinterpret_cast<uintptr_t>(&m_part.labelTexts->back()), 0);
        break;
    default: break;
    }
}

void ThreadsBuilder::runStarted(uint64_t id, uint64_t time)
{
    defer<RunOp::Start>(id, time, 0);
}

void ThreadsBuilder::stopped(uint64_t id, uint64_t code, uint64_t time)
{
    defer<RunOp::Stop>(id, code, time);
}

void ThreadsBuilder::ran(uint64_t id, uint64_t start, uint64_t end)
{
    defer<RunOp::Ran>(id, start, end);
}

ThreadRuns::Mark ThreadsBuilder::mark(uint64_t id)
{
    flush();
    const ThreadInfo& th = thread(id);
    return {th.runTime, th.lastStop};
}

void ThreadsBuilder::restore(uint64_t id, Mark m)
{
    flush();
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

} // namespace hecscope
