#include "core/synth/synthetic.h"
#include "core/synth/synthrandom.h"

#include "core/format/encoder.h"
#include "core/format/eventtags.h"

#include <algorithm>
#include <array>
#include <functional>
#include <queue>
#include <string>
#include <utility>

namespace hecscope {
namespace {

using synth::kBlockBytes;
using synth::Rng;

// ---- Thread and span logs: a small scheduler simulation ----

// One event as the simulation posts it, before it is sorted into the time
// order of its capability's stream.
struct Rec {
    uint64_t time;
    uint32_t thread;
    uint32_t arg;  // STOP: status; MIGRATE: new cap; WAKEUP: other cap; LABEL, USER_MSG: string index
    uint32_t info; // STOP: info
    uint16_t tag;
};

// STOP_THREAD statuses, standard encoding (eventlog-format.md 2.2).
enum Status : uint32_t {
    HeapOverflow = 1,
    StackOverflow = 2,
    ThreadYielding = 3,
    ThreadFinished = 5,
    ForeignCall = 6,
    BlockedOnMVar = 7,
    BlockedOnBlackHole = 8,
    BlockedOnRead = 9,
    BlockedOnDelay = 11,
    BlockedOnSTM = 12,
    BlockedOnMsgThrowTo = 18,
    BlockedOnMVarRead = 20,
};

// How runs end (except a thread's last, ThreadFinished): share in percent,
// how long the thread then waits before it can run again (ns), and whether
// another capability wakes it (THREAD_WAKEUP) or it is put back on its run
// queue (THREAD_RUNNABLE).
struct StopKind {
    uint32_t status;
    uint32_t percent;
    uint64_t minWait, maxWait;
    bool wakeup;
};
constexpr std::array<StopKind, 11> kStops{{
    {ThreadYielding, 30, 100, 1'000, false},
    {HeapOverflow, 12, 200, 2'000, false},
    {StackOverflow, 2, 200, 2'000, false},
    {ForeignCall, 6, 5'000, 500'000, false},
    {BlockedOnMVar, 20, 2'000, 300'000, true},
    {BlockedOnMVarRead, 5, 2'000, 300'000, true},
    {BlockedOnBlackHole, 6, 1'000, 50'000, true},
    {BlockedOnRead, 4, 50'000, 5'000'000, true},
    {BlockedOnDelay, 7, 100'000, 20'000'000, true},
    {BlockedOnSTM, 5, 5'000, 500'000, true},
    {BlockedOnMsgThrowTo, 3, 2'000, 100'000, true},
}};
constexpr uint32_t stopPercents()
{
    uint32_t sum = 0;
    for (const StopKind& k : kStops)
        sum += k.percent;
    return sum;
}
static_assert(stopPercents() == 100);

// A value in [lo, hi]: an octave of the range chosen uniformly, then a value
// in it, so that short waits are common and long ones possible.
uint64_t spread(Rng& rng, uint64_t lo, uint64_t hi)
{
    uint32_t octaves = 0;
    while ((lo << (octaves + 1)) <= hi)
        ++octaves;
    const uint64_t base = lo << rng.below(octaves + 1);
    return std::min(hi, base + rng.next() % base);
}

// How long a run lasts: mostly a few microseconds, sometimes tens, rarely
// hundreds (about 10 us on average).
uint64_t runLength(Rng& rng)
{
    const uint32_t p = rng.below(100);
    if (p < 85)
        return 1'000 + rng.below(7'000);
    if (p < 99)
        return 8'000 + rng.below(42'000);
    return 100'000 + rng.below(300'000);
}

// Threads waiting to run, earliest first (ties by thread id, so that the
// order does not depend on the heap's implementation).
using ReadyQueue = std::priority_queue<std::pair<uint64_t, uint32_t>, std::vector<std::pair<uint64_t, uint32_t>>,
                                       std::greater<>>;

// Capabilities' event streams and when each is free to start another run.
// Runs are handed out in the order their threads become ready and start no
// earlier than the end of the capability's previous run, so runs on one
// capability never overlap; the other events (wakeups, migrations, labels)
// are posted at their own times, and every stream is sorted before writing.
class Scheduler {
public:
    Scheduler(int caps, Rng& rng)
        : m_caps(caps), m_rng(rng), m_streams(size_t(caps)), m_free(size_t(caps), 1000)
    {
    }

    void post(uint16_t cap, uint64_t time, uint16_t tag, uint32_t thread = 0, uint32_t arg = 0, uint32_t info = 0)
    {
        m_streams[cap].push_back(Rec{time, thread, arg, info, tag});
    }

    // The capability a thread ready at `ready` on `cap` runs on next: its own,
    // or now and then another one, and the least busy when its own is busy
    // for much longer (MIGRATE_THREAD posted on the old capability).
    uint16_t place(uint32_t thread, uint16_t cap, uint64_t ready)
    {
        if (m_caps < 2)
            return cap;
        uint16_t to = cap;
        if (m_rng.below(100) < 3) {
            to = uint16_t((cap + 1 + m_rng.below(uint32_t(m_caps - 1))) % uint32_t(m_caps));
        } else if (m_free[cap] > ready + 100'000) {
            const uint16_t least = uint16_t(std::min_element(m_free.begin(), m_free.end()) - m_free.begin());
            if (m_free[least] + 50'000 < m_free[cap])
                to = least;
        }
        if (to != cap)
            post(cap, ready + 20, tag::MigrateThread, thread, to);
        return to;
    }

    // Starts a run of a thread ready at `ready` on `cap`.
    uint64_t run(uint32_t thread, uint16_t cap, uint64_t ready)
    {
        const uint64_t start = std::max(ready + 200 + m_rng.below(800), m_free[cap]);
        post(cap, start, tag::RunThread, thread);
        return start;
    }

    // Ends the run at `at`: ThreadFinished if `finished`, else a status of
    // the mix, followed by the wakeup or runnable event when the thread can
    // run again; returns that time. `owner`: the black hole's owner, if the
    // thread blocks on one.
    uint64_t stop(uint32_t thread, uint16_t cap, uint64_t at, bool finished, uint32_t owner)
    {
        m_free[cap] = at + 100 + m_rng.below(500);
        if (finished) {
            post(cap, at, tag::StopThread, thread, ThreadFinished, 0);
            return 0;
        }
        uint32_t p = m_rng.below(100);
        const StopKind* k = kStops.data();
        while (p >= k->percent) {
            p -= k->percent;
            ++k;
        }
        uint32_t info = 0;
        if (k->status == BlockedOnBlackHole)
            info = owner;
        else if (k->status == StackOverflow)
            info = 32768 * (1 + m_rng.below(16)); // the stack's size
        post(cap, at, tag::StopThread, thread, k->status, info);
        const uint64_t ready = at + spread(m_rng, k->minWait, k->maxWait);
        if (k->wakeup)
            post(uint16_t(m_rng.below(uint32_t(m_caps))), ready, tag::ThreadWakeup, thread, cap);
        else
            post(cap, ready, tag::ThreadRunnable, thread);
        return ready;
    }

    // A stop-the-world collection once every capability has finished its
    // runs, no earlier than `at`.
    void collect(uint64_t at)
    {
        const uint64_t start = std::max(at, *std::max_element(m_free.begin(), m_free.end()));
        const uint64_t end = start + 200'000 + m_rng.below(1'800'000);
        post(0, start, m_caps > 1 ? tag::RequestParGc : tag::RequestSeqGc);
        for (int c = 0; c < m_caps; ++c) {
            post(uint16_t(c), start + 100, tag::GcStart);
            post(uint16_t(c), start + 150, tag::GcWork);
            post(uint16_t(c), end - 100, tag::GcDone);
            post(uint16_t(c), end, tag::GcEnd);
            m_free[size_t(c)] = end + 100 + m_rng.below(500);
        }
    }

    // The log: CAP_CREATE in a global block, then ~2 MiB blocks of each
    // capability's stream in time order, the capabilities taking turns.
    std::vector<uint8_t> write(const std::vector<std::string>& strings)
    {
        EventlogWriter w(EventlogWriter::allDeclarations());
        w.beginBlock(kNoCap, 0);
        for (int c = 0; c < m_caps; ++c) {
            OwnedEvent create(tag::CapCreate, 10 + uint64_t(c), {uint64_t(c)});
            w.write(create.event);
        }
        w.endBlock(10 + uint64_t(m_caps));
        for (std::vector<Rec>& s : m_streams)
            std::stable_sort(s.begin(), s.end(), [](const Rec& a, const Rec& b) { return a.time < b.time; });
        constexpr size_t kRoom = 256; // more than any record written here
        std::vector<size_t> next(size_t(m_caps), 0);
        for (bool more = true; more;) {
            more = false;
            for (int c = 0; c < m_caps; ++c) {
                const std::vector<Rec>& s = m_streams[size_t(c)];
                size_t& i = next[size_t(c)];
                if (i == s.size())
                    continue;
                const size_t blockStart = w.bytes().size();
                w.beginBlock(uint16_t(c), s[i].time);
                uint64_t last = s[i].time;
                while (i < s.size() && w.bytes().size() - blockStart + kRoom < kBlockBytes) {
                    const Rec& r = s[i++];
                    Event e{};
                    e.known = true;
                    e.tag = r.tag;
                    e.time = r.time;
                    e.n[0] = r.thread;
                    e.n[1] = r.arg;
                    e.n[2] = r.info;
                    if (r.tag == tag::ThreadLabel || r.tag == tag::UserMsg)
                        e.s[0] = strings[r.arg];
                    w.write(e);
                    last = r.time;
                }
                w.endBlock(last);
                more = more || i < s.size();
            }
        }
        w.writeDataEnd();
        return w.takeBytes();
    }

private:
    int m_caps;
    Rng& m_rng;
    std::vector<std::vector<Rec>> m_streams;
    std::vector<uint64_t> m_free;
};

// A stop-the-world collection every this many runs.
size_t collectionInterval(size_t runs)
{
    return std::max<size_t>(1000, runs / 20);
}

} // namespace

std::vector<uint8_t> synthesizeSchedulerLog(size_t targetBytes, int caps, uint64_t seed)
{
    EventlogWriter w(EventlogWriter::allDeclarations());
    Rng rng{seed * 0x9E3779B97F4A7C15ULL + 1};
    std::vector<uint64_t> capTime(size_t(caps), 1000);
    uint64_t globalTime = 0;
    uint32_t nextThread = 1;
    uint64_t allocated = 0;

    w.beginBlock(kNoCap, 0);
    for (int c = 0; c < caps; ++c) {
        OwnedEvent create(tag::CapCreate, 10 + uint64_t(c), {uint64_t(c)});
        w.write(create.event);
    }
    w.endBlock(10 + uint64_t(caps));

    while (w.bytes().size() < targetBytes) {
        // Each capability flushes one block in turn, as the RTS does.
        for (int c = 0; c < caps && w.bytes().size() < targetBytes; ++c) {
            uint64_t& t = capTime[size_t(c)];
            const size_t blockStart = w.bytes().size();
            w.beginBlock(uint16_t(c), t);
            while (w.bytes().size() - blockStart < kBlockBytes) {
                const uint32_t thread = 1 + rng.below(nextThread);
                t += 200 + rng.below(3000);
                const uint32_t pick = rng.below(100);
                if (pick < 2) {
                    OwnedEvent e(tag::CreateThread, t, {++nextThread});
                    w.write(e.event);
                } else if (pick < 4) {
                    OwnedEvent req(tag::RequestSeqGc, t);
                    OwnedEvent start(tag::GcStart, t + 100);
                    OwnedEvent work(tag::GcWork, t + 150);
                    OwnedEvent done(tag::GcDone, t + 4000);
                    OwnedEvent end(tag::GcEnd, t + 4100);
                    for (const OwnedEvent* e : {&req, &start, &work, &done, &end})
                        w.write(e->event);
                    t += 4100;
                } else if (pick < 10) {
                    OwnedEvent e(tag::SparkCreate, t);
                    w.write(e.event);
                } else {
                    OwnedEvent run(tag::RunThread, t, {thread});
                    t += 500 + rng.below(20000);
                    const uint64_t status = pick < 60 ? 3 : (pick < 85 ? 7 : 1);
                    OwnedEvent stop(tag::StopThread, t, {thread, status, 0});
                    OwnedEvent wake(tag::ThreadWakeup, t + 50, {thread, uint64_t(rng.below(uint32_t(caps)))});
                    OwnedEvent runnable(tag::ThreadRunnable, t + 60, {thread});
                    w.write(run.event);
                    w.write(stop.event);
                    w.write(status == 7 ? wake.event : runnable.event);
                }
            }
            t += 60; // past the last wake-up or runnable: the block's end
            w.endBlock(t);
        }
        // A global block with heap figures.
        globalTime = std::max(globalTime, capTime[0]);
        w.beginBlock(kNoCap, globalTime);
        allocated += 1 << 20;
        OwnedEvent alloc(tag::HeapAllocated, globalTime, {0, allocated});
        OwnedEvent size(tag::HeapSize, globalTime, {0, 64u << 20});
        OwnedEvent live(tag::HeapLive, globalTime, {0, 20u << 20});
        w.write(alloc.event);
        w.write(size.event);
        w.write(live.event);
        w.endBlock(globalTime);
    }
    w.writeDataEnd();
    return w.takeBytes();
}

std::vector<uint8_t> synthesizeHeapProfileLog(size_t censuses, size_t labels, uint64_t seed)
{
    EventlogWriter w(EventlogWriter::allDeclarations());
    Rng rng{seed * 0x9E3779B97F4A7C15ULL + 7};
    constexpr uint64_t kInterval = 100'000'000; // 100 ms
    constexpr uint32_t kHT = 7;
    w.beginBlock(kNoCap, 0);
    OwnedEvent cap(tag::CapCreate, 0, {0});
    OwnedEvent begin(tag::HeapProfBegin, 1, {0, kInterval, kHT}, {"", "", "", "", "", "", ""});
    w.write(cap.event);
    w.write(begin.event);
    w.endBlock(1);
    std::vector<std::string> names(labels);
    std::vector<uint32_t> shape(labels), scale(labels);
    for (size_t l = 0; l < labels; ++l) {
        names[l] = "ghc-prim:GHC.Types.Band" + std::to_string(l);
        shape[l] = rng.below(4);
        scale[l] = 16 + rng.below(1u << (4 + l % 16));
    }
    for (size_t c = 0; c < censuses; ++c) {
        const uint64_t t = 1'000'000 + c * kInterval;
        w.beginBlock(kNoCap, t);
        OwnedEvent sb(tag::HeapProfSampleBegin, t, {c});
        w.write(sb.event);
        uint64_t total = 0;
        for (size_t l = 0; l < labels; ++l) {
            uint64_t bytes = 0;
            switch (shape[l]) {
            case 0: bytes = scale[l] * (1 + c / 8); break;                          // leak
            case 1: bytes = scale[l] * 64; break;                                   // steady
            case 2: bytes = scale[l] * (64 + 48 * ((c / 50) % 2 ? 1 : -1)); break;  // oscillating
            default: bytes = rng.below(10) < 3 ? 0 : scale[l] * rng.below(128); break; // comes and goes
            }
            bytes = bytes / 8 * 8;
            if (bytes == 0)
                continue;
            total += bytes;
            OwnedEvent e(tag::HeapProfSampleString, t, {0, bytes}, {names[l]});
            w.write(e.event);
        }
        OwnedEvent se(tag::HeapProfSampleEnd, t, {c});
        OwnedEvent size(tag::HeapSize, t, {0, total * 2});
        OwnedEvent live(tag::HeapLive, t, {0, total});
        w.write(se.event);
        w.write(size.event);
        w.write(live.event);
        w.endBlock(t);
    }
    w.writeDataEnd();
    return w.takeBytes();
}

std::vector<uint8_t> synthesizeThreadsLog(size_t threads, size_t runsPerThread, int caps, uint64_t seed)
{
    caps = std::clamp(caps, 1, 256);
    Rng rng{seed * 0x9E3779B97F4A7C15ULL + 3};
    Scheduler sched(caps, rng);
    std::vector<std::string> labels;
    // A thread is created every `gap` ns on average, which keeps the
    // capabilities about 65% busy with runs of ~10.8 us (with the gaps).
    const uint64_t gap = std::max<uint64_t>(1000, runsPerThread * 10'800 * 100 / (uint64_t(caps) * 65));
    struct Thread {
        uint16_t cap = 0;
        uint32_t runs = 0;
    };
    std::vector<Thread> state(threads);
    ReadyQueue ready;
    for (size_t i = 0; i < threads; ++i) {
        const uint32_t id = uint32_t(i + 1);
        const uint64_t t = 1000 + i * gap + rng.next() % (gap / 2);
        const uint16_t cap = uint16_t(rng.below(uint32_t(caps)));
        state[i].cap = cap;
        sched.post(cap, t, tag::CreateThread, id);
        const uint32_t kind = rng.below(10); // 0: no label, 1-2: conn, 3-9: worker
        if (kind != 0) {
            labels.push_back((kind < 3 ? "conn-" : "worker-") + std::to_string(id));
            sched.post(cap, t + 15, tag::ThreadLabel, id, uint32_t(labels.size() - 1));
        }
        if (runsPerThread > 0)
            ready.push({t + 100 + rng.below(2000), id});
    }
    const size_t gcEvery = collectionInterval(threads * runsPerThread);
    size_t runs = 0;
    while (!ready.empty()) {
        const auto [at, id] = ready.top();
        ready.pop();
        Thread& th = state[id - 1];
        if (th.runs > 0)
            th.cap = sched.place(id, th.cap, at);
        const uint64_t start = sched.run(id, th.cap, at);
        const bool last = ++th.runs == runsPerThread;
        const uint32_t owner = id > 1 ? id - 1 - rng.below(std::min<uint32_t>(id - 1, 64)) : 0;
        const uint64_t stop = start + runLength(rng);
        const uint64_t again = sched.stop(id, th.cap, stop, last, owner);
        if (!last)
            ready.push({again, id});
        if (++runs % gcEvery == 0)
            sched.collect(stop);
    }
    return sched.write(labels);
}

std::vector<uint8_t> synthesizeSpansLog(size_t spans, size_t threads, int caps, uint64_t seed)
{
    caps = std::clamp(caps, 1, 256);
    threads = std::max<size_t>(threads, 1);
    Rng rng{seed * 0x9E3779B97F4A7C15ULL + 5};
    Scheduler sched(caps, rng);
    // Span names by depth: 10 outer ones, 20 inner ones, and at depth 2 and
    // more half of the time one of 20 numbered calls.
    static const char* const kOuter[] = {"request", "handler", "session", "batch", "job",
                                         "tick", "poll", "flush", "sync", "rpc"};
    static const char* const kInner[] = {"parse", "validate", "auth", "render", "serialize",
                                         "compress", "decode", "encode", "route", "cache-lookup",
                                         "cache-store", "lock", "queue-wait", "retry", "fetch",
                                         "resolve", "transform", "aggregate", "index", "commit"};
    std::vector<std::string> names(std::begin(kOuter), std::end(kOuter));
    names.insert(names.end(), std::begin(kInner), std::end(kInner));
    for (int i = 0; i < 10; ++i)
        names.push_back("db-query-" + std::to_string(i));
    for (int i = 0; i < 10; ++i)
        names.push_back("http-call-" + std::to_string(i));
    // strings[2k] = "START " + names[k], strings[2k+1] = "STOP " + names[k],
    // then the thread labels.
    std::vector<std::string> strings;
    for (const std::string& n : names) {
        strings.push_back("START " + n);
        strings.push_back("STOP " + n);
    }
    auto pickName = [&](size_t depth) -> uint32_t {
        if (depth == 0)
            return rng.below(10);
        if (depth == 1 || rng.below(2) == 0)
            return 10 + rng.below(20);
        return 30 + rng.below(20);
    };
    struct Thread {
        uint16_t cap = 0;
        bool ran = false;
        std::vector<uint32_t> open; // names of the open spans, innermost last
    };
    std::vector<Thread> state(threads);
    ReadyQueue ready;
    for (size_t i = 0; i < threads; ++i) {
        const uint32_t id = uint32_t(i + 1);
        const uint64_t t = 1000 + i * 500;
        const uint16_t cap = uint16_t(i % size_t(caps));
        state[i].cap = cap;
        sched.post(cap, t, tag::CreateThread, id);
        strings.push_back("worker-" + std::to_string(id));
        sched.post(cap, t + 15, tag::ThreadLabel, id, uint32_t(strings.size() - 1));
        ready.push({t + 100 + rng.below(2000), id});
    }
    constexpr size_t kMaxDepth = 4;
    size_t startsLeft = spans;
    const size_t gcEvery = collectionInterval(spans * 2 / 3 + threads);
    size_t runs = 0;
    while (!ready.empty()) {
        const auto [at, id] = ready.top();
        ready.pop();
        Thread& th = state[id - 1];
        if (th.ran)
            th.cap = sched.place(id, th.cap, at);
        th.ran = true;
        uint64_t t = sched.run(id, th.cap, at);
        // Up to 6 messages a run: open a span or close the innermost.
        for (uint32_t slots = 1 + rng.below(6); slots > 0; --slots) {
            const bool canOpen = startsLeft > 0 && th.open.size() < kMaxDepth;
            const bool canClose = !th.open.empty();
            if (!canOpen && !canClose)
                break;
            t += 300 + rng.below(3000);
            if (canClose && (!canOpen || rng.below(100) < 45)) {
                sched.post(th.cap, t, tag::UserMsg, id, 2 * th.open.back() + 1);
                th.open.pop_back();
            } else {
                const uint32_t name = pickName(th.open.size());
                sched.post(th.cap, t, tag::UserMsg, id, 2 * name);
                th.open.push_back(name);
                --startsLeft;
            }
        }
        const bool finished = startsLeft == 0 && th.open.empty();
        const uint64_t stop = t + 300 + rng.below(5000);
        // A black hole's owner: a thread created by then.
        const uint32_t owner = 1 + rng.below(uint32_t(std::min<uint64_t>(threads, (stop - 1000) / 500 + 1)));
        const uint64_t again = sched.stop(id, th.cap, stop, finished, owner == id ? 0 : owner);
        if (!finished)
            ready.push({again, id});
        if (++runs % gcEvery == 0)
            sched.collect(stop);
    }
    return sched.write(strings);
}

} // namespace hecscope
