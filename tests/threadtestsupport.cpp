#include "threadtestsupport.h"

#include "core/format/eventtags.h"
#include "core/io/bytesource.h"
#include "core/load/loader.h"

#include <QRandomGenerator>
#include <QTest>

#include <algorithm>
#include <map>

namespace hecscope::test {

OwnedEvent ev(uint16_t tag, uint64_t t, std::initializer_list<uint64_t> n,
              std::initializer_list<std::string_view> s)
{
    return OwnedEvent(tag, t, n, s);
}
OwnedEvent run(uint64_t t, uint64_t thread)
{
    return ev(tag::RunThread, t, {thread});
}
OwnedEvent stop(uint64_t t, uint64_t thread, uint64_t status, uint64_t info)
{
    return ev(tag::StopThread, t, {thread, status, info});
}
OwnedEvent msg(uint64_t t, std::string_view text)
{
    return ev(tag::UserMsg, t, {}, {text});
}
OwnedEvent marker(uint64_t t, std::string_view text)
{
    return ev(tag::UserMarker, t, {}, {text});
}

std::unique_ptr<LogIndex> load(const std::vector<uint8_t>& bytes)
{
    MemorySource source(bytes);
    return loadIndex(source, bytes.size(), nullptr, KeepInMemory{true}).index; // (segments compared with a walk)
}

const char* stateName(ThreadState s)
{
    static const char* const names[] = {"runnable", "running", "blocked", "finished", "unknown"};
    return names[size_t(s)];
}

ThreadFigures figuresOf(const LogIndex& ix, uint32_t id, std::optional<ViewRange> range)
{
    const size_t k = ix.threadStates.find(id);
    return k == SIZE_MAX ? ThreadFigures{} : threadFigures(ix, k, range);
}

void compareCursorWithView(const ThreadStates& st)
{
    const auto& keys = ThreadStates::stateKeys();
    for (size_t k = 0; k < st.count(); ++k) {
        const SegmentView segs = st.of(k);
        const size_t n = segs.size();
        for (const size_t from : {size_t(0), size_t(1), n / 2, size_t(SegmentChunks::kChunk - 1), n ? n - 1 : 0, n}) {
            if (from > n)
                continue;
            size_t i = from;
            for (SegmentCursor at(segs, from); !at.done(); at.next(), ++i) {
                QCOMPARE(at.index(), i);
                const PackedSegment &a = at.packed(), &b = segs.packedAt(i);
                QVERIFY2(a.offset == b.offset && a.cap == b.cap && a.stop == b.stop && a.bits == b.bits
                             && at.time() == segs.timeAt(i)
                             && ThreadStates::storedKey(keys, a) == ThreadStates::stateKey(segs[i]),
                         qPrintable(QStringLiteral("thread %1, from %2, segment %3").arg(st.ids[k]).arg(from).arg(i)));
            }
            QCOMPARE(i, n);
        }
    }
}

void compareWithWalk(const LogIndex& ix, const Walk& w)
{
    const ThreadStates& st = ix.threadStates;
    QCOMPARE(st.count(), w.threads.size());
    QCOMPARE(st.end, w.end);
    size_t k = 0;
    for (const auto& [id, t] : w.threads) {
        QCOMPARE(st.ids[k], id);
        const auto segs = st.of(k);
        const QString thread = QStringLiteral("thread %1").arg(id);
        QVERIFY2(segs.size() == t.segments.size(),
                 qPrintable(thread + QStringLiteral(": %1 segments, the walk %2").arg(segs.size()).arg(t.segments.size())));
        for (size_t i = 0; i < segs.size(); ++i) {
            const WalkSegment& want = t.segments[i];
            const QString where = thread + QStringLiteral(" segment %1 at %2 ns: ").arg(i).arg(want.time);
            QVERIFY2(segs[i].time == want.time, qPrintable(where + QStringLiteral("time %1").arg(segs[i].time)));
            QVERIFY2(segs[i].state == want.state,
                     qPrintable(where + stateName(segs[i].state) + QStringLiteral(", the walk says ") + stateName(want.state)));
            QVERIFY2(segs[i].cause == want.cause, qPrintable(where + QStringLiteral("cause")));
            if (want.cause == ThreadCause::Run || want.cause == ThreadCause::Migrate)
                QVERIFY2(segs[i].cap == want.cap, qPrintable(where + QStringLiteral("cap")));
            if (want.state == ThreadState::Blocked)
                QVERIFY2(blockReasonOf(segs[i]) == want.reason,
                         qPrintable(where + QStringLiteral("blocked on ") + blockReasonName(blockReasonOf(segs[i]))
                                    + QStringLiteral(", the walk says ") + blockReasonName(want.reason)));
        }
        ++k;
    }
}

void compareFiguresWithWalk(const LogIndex& ix, const Walk& w, std::optional<ViewRange> range)
{
    const uint64_t a = range ? range->start : 0, b = range ? range->end : UINT64_MAX;
    const std::vector<ThreadFigures> got = allThreadFigures(ix, range);
    const QString in = range ? QStringLiteral(" in [%1, %2)").arg(a).arg(b) : QString();
    size_t k = 0;
    for (const auto& [id, t] : w.threads) {
        if (range && !w.liveIn(t, a, b))
            continue;
        QVERIFY2(k < got.size(), qPrintable(QStringLiteral("thread %1 missing").arg(id) + in));
        const ThreadFigures& f = got[k++];
        QVERIFY2(f.id == id, qPrintable(QStringLiteral("thread %1 where the walk has %2").arg(f.id).arg(id) + in));
        const WalkFigures want = w.figures(t, a, b);
        const QString who = QStringLiteral("thread %1").arg(id) + in + QStringLiteral(": ");
        for (size_t s = 0; s < kThreadStates; ++s)
            QVERIFY2(f.time[s] == want.time[s], qPrintable(who + stateName(ThreadState(s)) + QStringLiteral(" %1 ns, the walk %2").arg(f.time[s]).arg(want.time[s])));
        for (size_t r = 0; r < kBlockReasons; ++r)
            QVERIFY2(f.blocked[r] == want.blocked[r],
                     qPrintable(who + QStringLiteral("blocked on ") + blockReasonName(BlockReason(r))
                                + QStringLiteral(" %1 ns, the walk %2").arg(f.blocked[r]).arg(want.blocked[r])));
        QVERIFY2(f.runs == want.runs, qPrintable(who + QStringLiteral("runs %1, the walk %2").arg(f.runs).arg(want.runs)));
        QVERIFY2(f.migrations == want.migrations, qPrintable(who + QStringLiteral("migrations")));
        QVERIFY2(f.wakeups == want.wakeups, qPrintable(who + QStringLiteral("wake-ups")));
        if (!range) {
            QVERIFY2(f.label == t.label, qPrintable(who + QStringLiteral("label")));
            QVERIFY2(f.created == t.created, qPrintable(who + QStringLiteral("created")));
        }
        if (QTest::currentTestFailed())
            return;
    }
    QCOMPARE(got.size(), k);
}

KnownLog knownDurationsLog()
{
    KnownLog k;
    EventlogWriter w(EventlogWriter::allDeclarations());
    w.beginBlock(0, 100);
    const auto put = [&](OwnedEvent&& e) { w.write(e.event); };
    put(run(100, 1));
    uint64_t t = 1000;
    for (uint64_t d : kJob) {
        k.jobStarts.push_back(t);
        put(msg(t, "START job"));
        put(msg(t + d, "STOP job"));
        t += d + 100;
    }
    for (int p = 0; p < 2; ++p) {
        put(msg(t, "START parent"));
        put(msg(t + 10, "START child"));
        put(msg(t + 40, "STOP child"));
        put(msg(t + 50, "START child"));
        put(msg(t + 70, "STOP child"));
        put(msg(t + 100, "STOP parent"));
        t += 200;
    }
    put(msg(t, "START once"));
    put(msg(t + 42, "STOP once"));
    t += 100;
    put(marker(t, "START mark"));
    put(marker(t + 5, "STOP mark"));
    t += 100;
    k.ghost = t;
    put(msg(t, "STOP ghost"));
    t += 10;
    k.tailStart = t;
    put(msg(t, "START tail"));
    put(stop(t + 50, 1, 3));
    k.end = t + 1000;
    put(marker(k.end, "end"));
    w.endBlock(k.end);
    w.writeDataEnd();
    k.bytes = w.takeBytes();
    return k;
}

GeneratedLog generatedSpansLog(uint32_t seed, int runsPerCap)
{
    struct Ev {
        uint16_t tag;
        uint64_t time;
        uint64_t thread;
        std::string text;
    };
    struct Open {
        uint64_t start;
        std::string name;
        int parent;
    };
    struct Span {
        uint64_t start, end;
        std::string name;
        uint32_t thread;
        uint16_t depth;
        int parent; // into `made`
        bool open;
    };
    QRandomGenerator rng(seed);
    const char* const names[] = {"parse", "load", "parse", "render", "io"};
    std::vector<Span> made;
    std::vector<WantIssue> issues;
    std::vector<std::vector<Ev>> perCap(3);
    std::map<uint32_t, std::vector<int>> stacks; // per thread: open spans (into `made`)
    uint64_t end = 0;
    for (uint16_t cap = 0; cap < 3; ++cap) {
        uint64_t t = 1000 + cap;
        const auto next = [&] { return t += 3 * (1 + rng.bounded(40u)); };
        for (int r = 0; r < runsPerCap; ++r) {
            const uint32_t thread = 10 * cap + 1 + rng.bounded(3u);
            perCap[cap].push_back({tag::RunThread, next(), thread, {}});
            std::vector<int>& stack = stacks[thread];
            for (int a = int(rng.bounded(5u)); a > 0; --a) {
                const uint32_t dice = rng.bounded(100u);
                const uint64_t at = next();
                if (dice < 45) {
                    const std::string name = names[rng.bounded(5u)];
                    made.push_back({at, 0, name, thread, uint16_t(stack.size()), stack.empty() ? -1 : stack.back(), true});
                    stack.push_back(int(made.size()) - 1);
                    perCap[cap].push_back({tag::UserMsg, at, 0, "START " + name});
                } else if (dice < 80 && !stack.empty()) {
                    // Mostly the innermost span; sometimes one further out,
                    // which stops the innermost open span of its name.
                    const size_t pick = dice < 70 ? stack.size() - 1 : rng.bounded(uint32_t(stack.size()));
                    const std::string name = made[size_t(stack[pick])].name;
                    size_t k = stack.size() - 1;
                    while (made[size_t(stack[k])].name != name)
                        --k;
                    Span& s = made[size_t(stack[k])];
                    s.end = at;
                    s.open = false;
                    stack.erase(stack.begin() + ptrdiff_t(k));
                    perCap[cap].push_back({tag::UserMsg, at, 0, "STOP " + name});
                } else if (dice < 90) {
                    issues.push_back({at, thread, "ghost", SpanIssue::StopWithoutStart});
                    perCap[cap].push_back({tag::UserMsg, at, 0, "STOP ghost"});
                } else {
                    perCap[cap].push_back({tag::UserMsg, at, 0, "progress"});
                }
            }
            perCap[cap].push_back({tag::StopThread, next(), thread, {}});
        }
        end = std::max(end, t);
    }
    for (Span& s : made)
        if (s.open) {
            s.end = end;
            issues.push_back({s.start, s.thread, s.name, SpanIssue::OpenAtEnd});
        }
    std::stable_sort(issues.begin(), issues.end(), [](const WantIssue& a, const WantIssue& b) { return a.time < b.time; });

    // The file: blocks of 1 to 12 events, capabilities taking turns.
    EventlogWriter w(EventlogWriter::allDeclarations());
    std::vector<size_t> pos(3, 0);
    for (bool more = true; more;) {
        more = false;
        for (uint16_t cap = 0; cap < 3; ++cap) {
            const std::vector<Ev>& evs = perCap[cap];
            if (pos[cap] == evs.size())
                continue;
            const size_t n = std::min<size_t>(evs.size() - pos[cap], 1 + rng.bounded(12u));
            w.beginBlock(cap, evs[pos[cap]].time);
            for (size_t i = pos[cap]; i < pos[cap] + n; ++i) {
                const Ev& e = evs[i];
                if (e.tag == tag::RunThread)
                    w.write(run(e.time, e.thread).event);
                else if (e.tag == tag::StopThread)
                    w.write(stop(e.time, e.thread, 3).event);
                else
                    w.write(msg(e.time, e.text).event);
            }
            w.endBlock(evs[pos[cap] + n - 1].time);
            pos[cap] += n;
            more |= pos[cap] < evs.size();
        }
    }
    w.writeDataEnd();

    GeneratedLog g;
    g.bytes = w.takeBytes();
    g.issues = std::move(issues);
    std::vector<size_t> order(made.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return made[a].start < made[b].start; });
    std::vector<int> rank(made.size());
    for (size_t i = 0; i < order.size(); ++i)
        rank[order[i]] = int(i);
    for (size_t i : order) {
        const Span& s = made[i];
        g.spans.push_back({s.name, s.start, s.end, s.thread, s.depth, s.parent < 0 ? -1 : rank[size_t(s.parent)],
                           uint8_t(s.open ? UserSpan::OpenAtEnd : 0)});
    }
    return g;
}

} // namespace hecscope::test
