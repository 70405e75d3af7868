#include "threadwalk.h"

#include "core/format/decoder.h"
#include "core/format/eventtags.h"

#include <algorithm>

namespace hecscope::test {

bool isThreadEventTag(uint16_t t)
{
    switch (t) {
    case tag::CreateThread:
    case tag::RunThread:
    case tag::StopThread:
    case tag::ThreadRunnable:
    case tag::MigrateThread:
    case tag::ThreadWakeup: return true;
    default: return false;
    }
}

namespace {

struct ThreadEvent {
    uint64_t time;
    uint16_t tag;
    uint16_t cap; // of the block it came in
    uint32_t thread;
    uint64_t status; // STOP_THREAD: raw status; MIGRATE/WAKEUP: the other capability
};

class WalkSink final : public EventSink {
public:
    explicit WalkSink(Walk& walk)
        : m_walk(walk)
    {
    }
    void onHeader(const std::shared_ptr<const LogFormat>& format) override
    {
        bool marker = false, hack = false;
        for (const EventTypeDecl& d : format->declarations()) {
            marker |= d.tag == 58;
            hack |= d.tag == 59;
        }
        m_walk.shiftedStopCodes = marker && !hack;
    }
    void onEvent(const Event& e) override
    {
        if (e.tag == tag::BlockMarker)
            return;
        m_walk.end = std::max(m_walk.end, e.time);
        if (!e.known)
            return; // its fields were not decoded
        if (isThreadEventTag(e.tag)) {
            events.push_back({e.time, e.tag, e.cap, uint32_t(e.n[0]), e.n[1]});
            m_walk.threadEventsWithoutCap += e.cap == kNoCap;
        }
        switch (e.tag) {
        case tag::ThreadLabel: labels[uint32_t(e.n[0])] = std::string(e.s[0]); break;
        case tag::UserMsg:
        case tag::UserMarker:
        case tag::LogMsg:
        case tag::UserBinaryMsg: {
            const auto it = m_running.find(e.cap);
            m_walk.messages.push_back({e.time, e.cap != kNoCap && it != m_running.end() ? it->second : 0});
            break;
        }
        default: break;
        }
        // The thread on each capability, in that capability's own order.
        if (e.cap != kNoCap && e.tag == tag::RunThread)
            m_running[e.cap] = uint32_t(e.n[0]);
        if (e.cap != kNoCap && e.tag == tag::StopThread && m_running[e.cap] == uint32_t(e.n[0]))
            m_running[e.cap] = 0;
    }

    std::vector<ThreadEvent> events; // log order
    std::map<uint32_t, std::string> labels;

private:
    Walk& m_walk;
    std::map<uint16_t, uint32_t> m_running;
};

// eventlog-format.md §2.2: GHC 7.8.1/7.8.2 numbered blocking reasons from
// 8 on one higher, with BlockedOnMVarRead at 8.
uint64_t standardStatus(uint64_t raw, bool shifted)
{
    if (!shifted || raw < 8 || raw > 20)
        return raw;
    return raw == 8 ? 20 : raw - 1;
}

struct Meaning {
    ThreadState state;
    BlockReason reason;
};

// eventlog-format.md §2.2, standard numbering.
Meaning meaningOfStatus(uint64_t code)
{
    switch (code) {
    case 5: return {ThreadState::Finished, BlockReason::Other};
    case 6: return {ThreadState::Blocked, BlockReason::CCall}; // a safe foreign call
    case 4: return {ThreadState::Blocked, BlockReason::Other}; // GHC 6.12/7.0: no reason given
    case 7: return {ThreadState::Blocked, BlockReason::MVar};
    case 8: return {ThreadState::Blocked, BlockReason::BlackHole};
    case 9: return {ThreadState::Blocked, BlockReason::Read};
    case 10: return {ThreadState::Blocked, BlockReason::Write};
    case 11: return {ThreadState::Blocked, BlockReason::Delay};
    case 12: return {ThreadState::Blocked, BlockReason::Stm};
    case 13: return {ThreadState::Blocked, BlockReason::DoProc};
    case 14:
    case 15: return {ThreadState::Blocked, BlockReason::Other}; // GUM states
    case 16:
    case 17: return {ThreadState::Blocked, BlockReason::CCall};
    case 18: return {ThreadState::Blocked, BlockReason::ThrowTo};
    case 20: return {ThreadState::Blocked, BlockReason::MVarRead};
    default: return {ThreadState::Runnable, BlockReason::Other}; // 0-3, 19 (migrating), unknown
    }
}

} // namespace

uint64_t Walk::segmentEnd(const WalkThread& t, size_t i) const
{
    return i + 1 < t.segments.size() ? t.segments[i + 1].time : std::max(end, t.segments[i].time);
}

bool Walk::liveIn(const WalkThread& t, uint64_t a, uint64_t b) const
{
    if (t.segments.empty())
        return false;
    // Listed while it has not finished: a thread finished before the range is not in it.
    const WalkSegment& last = t.segments.back();
    const uint64_t until = last.state == ThreadState::Finished ? last.time : segmentEnd(t, t.segments.size() - 1);
    return t.segments.front().time < b && until > a;
}

WalkFigures Walk::figures(const WalkThread& t, uint64_t a, uint64_t b) const
{
    WalkFigures f;
    for (size_t i = 0; i < t.segments.size(); ++i) {
        const WalkSegment& s = t.segments[i];
        const uint64_t from = std::max(s.time, a), to = std::min(segmentEnd(t, i), b);
        if (to <= from)
            continue;
        f.time[size_t(s.state)] += to - from;
        if (s.state == ThreadState::Blocked)
            f.blocked[size_t(s.reason)] += to - from;
    }
    const auto inside = [&](const std::vector<uint64_t>& times) {
        return uint32_t(std::count_if(times.begin(), times.end(), [&](uint64_t x) { return x >= a && x < b; }));
    };
    f.runs = inside(t.runs);
    f.migrations = inside(t.migrations);
    f.wakeups = inside(t.wakeups);
    return f;
}

Walk walkThreads(const std::vector<uint8_t>& bytes)
{
    Walk walk;
    WalkSink sink(walk);
    StreamDecoder decoder(sink);
    decoder.feed(bytes);
    decoder.finish();

    std::vector<ThreadEvent> events = std::move(sink.events);
    std::stable_sort(events.begin(), events.end(),
                     [](const ThreadEvent& a, const ThreadEvent& b) { return a.time < b.time; });
    std::map<uint16_t, uint32_t> runningOn; // capability → thread running there
    for (const ThreadEvent& e : events) {
        WalkThread& t = walk.threads[e.thread];
        const bool first = t.segments.empty();
        const auto enter = [](WalkThread& th, const WalkSegment& s) {
            th.segments.push_back(s);
            th.state = s.state;
            th.reason = s.reason;
        };
        switch (e.tag) {
        case tag::CreateThread:
            t.created = std::min(t.created, e.time);
            enter(t, {e.time, ThreadState::Runnable, ThreadCause::Created, e.cap});
            break;
        case tag::RunThread:
            if (e.cap != kNoCap) {
                const auto it = runningOn.find(e.cap);
                if (it != runningOn.end() && it->second != e.thread) {
                    WalkThread& other = walk.threads[it->second];
                    if (other.state == ThreadState::Running && other.cap == e.cap)
                        enter(other, {e.time, ThreadState::Unknown, ThreadCause::Replaced, e.cap});
                }
                runningOn[e.cap] = e.thread;
            }
            t.cap = e.cap;
            t.runs.push_back(e.time);
            enter(t, {e.time, ThreadState::Running, ThreadCause::Run, e.cap});
            break;
        case tag::StopThread: {
            if (const auto it = runningOn.find(e.cap); it != runningOn.end() && it->second == e.thread)
                runningOn.erase(it);
            const Meaning m = meaningOfStatus(standardStatus(e.status, walk.shiftedStopCodes));
            if (m.state == ThreadState::Finished)
                t.finished = e.time;
            enter(t, {e.time, m.state, ThreadCause::Stop, e.cap, m.reason});
            break;
        }
        case tag::ThreadWakeup:
        case tag::ThreadRunnable: {
            const bool running = !first && t.state == ThreadState::Running;
            if (e.tag == tag::ThreadWakeup)
                t.wakeups.push_back(e.time);
            enter(t, {e.time, running ? ThreadState::Running : ThreadState::Runnable, e.tag == tag::ThreadWakeup ? ThreadCause::Wakeup : ThreadCause::Runnable, t.cap});
            break;
        }
        case tag::MigrateThread:
            t.migrations.push_back(e.time);
            if (t.state != ThreadState::Running)
                t.cap = uint16_t(e.status);
            enter(t, {e.time, first ? ThreadState::Runnable : t.state, ThreadCause::Migrate, uint16_t(e.status), first ? BlockReason::Other : t.reason});
            break;
        }
    }
    for (auto& [id, label] : sink.labels)
        if (const auto it = walk.threads.find(id); it != walk.threads.end())
            it->second.label = label;
    return walk;
}

} // namespace hecscope::test
