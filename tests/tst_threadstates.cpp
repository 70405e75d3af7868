// Every thread's states over time and the figures drawn from them, checked
// on real logs against an independent walk (threadwalk.h) and on logs
// written by the project's encoder, whose expected answers follow from how
// they were built: threads older than the log or running at its end,
// migrations, wake-ups, runs ended without a stop, every stop status (and
// GHC 7.8.1/7.8.2's numbering), identical times and blocks out of time
// order; and the merge that puts each thread's events of a settle in time
// order.
#include "testsupport.h"
#include "threadtestsupport.h"
#include "threadwalk.h"

#include "core/format/encoder.h"
#include "core/format/eventtags.h"
#include "core/index/logindex.h"
#include "core/index/threadstatesbuild.h"
#include "core/threads/threadstats.h"

#include <QDir>
#include <QFileInfo>
#include <QTest>

#include <algorithm>
#include <optional>
#include <random>

using namespace hecscope;
using namespace hecscope::test;

namespace {

struct Seg {
    uint64_t time;
    ThreadState state;
    ThreadCause cause;
    uint16_t cap = 0; // checked for Run and Migrate segments
    uint8_t stop = 0; // checked for Stop segments
};

// The segments of thread `id`, as built.
void compareStates(const LogIndex& ix, uint32_t id, const std::vector<Seg>& want)
{
    const size_t k = ix.threadStates.find(id);
    QVERIFY2(k != SIZE_MAX, qPrintable(QStringLiteral("thread %1 has no states").arg(id)));
    const auto segs = ix.threadStates.of(k);
    QCOMPARE(segs.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i) {
        const QString where = QStringLiteral("thread %1 segment %2").arg(id).arg(i);
        QVERIFY2(segs[i].time == want[i].time, qPrintable(where + QStringLiteral(" time %1").arg(segs[i].time)));
        QVERIFY2(segs[i].state == want[i].state, qPrintable(where + QStringLiteral(" is ") + stateName(segs[i].state)));
        QVERIFY2(segs[i].cause == want[i].cause, qPrintable(where + QStringLiteral(" cause")));
        if (want[i].cause == ThreadCause::Run || want[i].cause == ThreadCause::Migrate)
            QVERIFY2(segs[i].cap == want[i].cap, qPrintable(where + QStringLiteral(" cap %1").arg(segs[i].cap)));
        if (want[i].cause == ThreadCause::Stop)
            QVERIFY2(segs[i].stop == want[i].stop, qPrintable(where + QStringLiteral(" stop %1").arg(segs[i].stop)));
    }
}

uint64_t timeIn(const ThreadFigures& f, ThreadState s)
{
    return f.time[size_t(s)];
}

std::vector<uint32_t> idsOf(const std::vector<ThreadFigures>& all)
{
    std::vector<uint32_t> ids;
    for (const ThreadFigures& f : all)
        ids.push_back(f.id);
    return ids;
}

} // namespace

class TestThreadStates : public QObject {
    Q_OBJECT
private slots:
    void realLogsAgreeWithAWalk_data();
    void realLogsAgreeWithAWalk();

    void threadCreatedBeforeTheLog();
    void threadRunningAtTheEnd();
    void migrationWhileRunnableOrBlocked();
    void wakeupsAndRunnable();
    void runEndedWithoutStop();
    void stopStatuses();
    void stopStatusesOfGhc782();
    void identicalTimestampsKeepLogOrder();
    void blocksOutOfTimeOrder();
    void longGapsAndManySegments();
    void eachThreadSortedAsAStableSort();
};

void TestThreadStates::realLogsAgreeWithAWalk_data()
{
    QTest::addColumn<QString>("log");
    const QStringList logs = testdataLogs() + conformanceLogs(QStringLiteral("ghc-events"))
        + conformanceLogs(QStringLiteral("legacy"));
    for (const QString& log : logs)
        QTest::newRow(qPrintable(QFileInfo(log).dir().dirName() + QLatin1Char('/') + QFileInfo(log).fileName())) << log;
}

// Every thread's segments, its figures over the whole log and over a few
// ranges, and each message's thread, as the walk finds them; the runs and
// run time of ThreadInfo (from the capability timelines) agree.
void TestThreadStates::realLogsAgreeWithAWalk()
{
    QFETCH(QString, log);
    const std::vector<uint8_t> bytes = readFile(log);
    QVERIFY(!bytes.empty());
    const auto ix = load(bytes);
    const Walk w = walkThreads(bytes);
    QCOMPARE(ix->lastTime, w.end);
    compareWithWalk(*ix, w);
    if (QTest::currentTestFailed())
        return;
    compareFiguresWithWalk(*ix, w, std::nullopt);
    if (QTest::currentTestFailed())
        return;

    // Ranges: the middle third, a tiny one, and ones beginning and ending
    // exactly at a run (counted in the first, not in the second).
    const uint64_t end = std::max<uint64_t>(w.end, 3);
    std::vector<ViewRange> ranges{{end / 3, 2 * end / 3}, {end / 2, end / 2 + 100}, {0, 1}, {end - 1, end + 1000}};
    for (const auto& [id, t] : w.threads)
        if (t.runs.size() > 2) {
            const uint64_t at = t.runs[t.runs.size() / 2];
            ranges.push_back({at, at + end / 10 + 1});
            if (at > 0)
                ranges.push_back({at > end / 10 ? at - end / 10 : 0, at});
            break;
        }
    for (const ViewRange& r : ranges) {
        compareFiguresWithWalk(*ix, w, r);
        if (QTest::currentTestFailed())
            return;
    }

    // Each message knows the thread running on its capability.
    QCOMPARE(ix->messages.size(), w.messages.size());
    for (size_t i = 0; i < w.messages.size(); ++i) {
        QCOMPARE(ix->messages[i].time, w.messages[i].time);
        QVERIFY2(ix->messages[i].thread == w.messages[i].thread,
                 qPrintable(QStringLiteral("message %1 at %2 ns: thread %3, the walk %4")
                                .arg(i)
                                .arg(w.messages[i].time)
                                .arg(ix->messages[i].thread)
                                .arg(w.messages[i].thread)));
    }

    // ThreadInfo's runs and run time come from the capability timelines,
    // which end a run at the capability's next STOP_THREAD, RUN_THREAD or
    // GC_START and move an event stamped before the capability's previous
    // one to that time; the walk ends it at the thread's next event. They
    // agree where every thread event has a capability and each capability's
    // events come in time order (so far every log here: none has an event
    // out of order or a thread event outside a capability's block).
    bool ordered = w.threadEventsWithoutCap == 0;
    for (const Capability& c : ix->caps)
        ordered &= c.outOfOrder == 0;
    size_t disagree = 0;
    for (const auto& [id, t] : w.threads) {
        const std::optional<ThreadInfo> info = ix->thread(id);
        QVERIFY(info);
        const WalkFigures f = w.figures(t, 0, UINT64_MAX);
        const uint64_t runTime = f.time[size_t(ThreadState::Running)];
        if (info->runs != f.runs || info->runTime != runTime) {
            ++disagree;
            if (ordered)
                QFAIL(qPrintable(QStringLiteral("thread %1: ThreadInfo %2 runs, %3 ns; the walk %4 runs, %5 ns")
                                     .arg(id)
                                     .arg(info->runs)
                                     .arg(info->runTime)
                                     .arg(f.runs)
                                     .arg(runTime)));
        }
    }
    if (disagree)
        qInfo(
            "%zu threads' ThreadInfo run figures differ from their states (%llu thread events without a "
            "capability; events out of order on a capability)",
            disagree, static_cast<unsigned long long>(w.threadEventsWithoutCap));

    // The log that was made for this has the content the test is about.
    if (QFileInfo(log).fileName() == QLatin1String("threads-N2.eventlog")) {
        QVERIFY(w.threads.size() > 500);
        uint64_t migrations = 0, wakeups = 0, blocked = 0, labels = 0;
        for (const auto& [id, t] : w.threads) {
            migrations += t.migrations.size();
            wakeups += t.wakeups.size();
            labels += !t.label.empty();
            blocked += w.figures(t, 0, UINT64_MAX).time[size_t(ThreadState::Blocked)] > 0;
        }
        QVERIFY(migrations > 0 && wakeups > 0 && blocked > 100 && labels > 10);
    }
}

// A thread that existed before the log began (its first event a
// RUN_THREAD): nothing before its first event, its figures start there.
void TestThreadStates::threadCreatedBeforeTheLog()
{
    LogBuilder b;
    b.block(0, {run(100, 7), stop(150, 7, 3), run(200, 7), stop(260, 7, 7)});
    b.block(1, {ev(tag::CreateThread, 50, {8}), run(60, 8), stop(70, 8, 5), marker(400, "end")});
    const auto ix = load(b.bytes());
    QCOMPARE(ix->threadStates.end, uint64_t(400));
    compareStates(*ix, 7, {{100, ThreadState::Running, ThreadCause::Run, 0}, {150, ThreadState::Runnable, ThreadCause::Stop, 0, 3}, {200, ThreadState::Running, ThreadCause::Run, 0}, {260, ThreadState::Blocked, ThreadCause::Stop, 0, 7}});
    const ThreadFigures f = figuresOf(*ix, 7);
    QCOMPARE(f.running(), uint64_t(50 + 60));
    QCOMPARE(f.runnable(), uint64_t(50));
    QCOMPARE(f.blockedTotal(), uint64_t(400 - 260));
    QCOMPARE(f.blocked[size_t(BlockReason::MVar)], uint64_t(400 - 260));
    QCOMPARE(f.runs, 2u);
    QCOMPARE(f.created, kNoTime);
    QCOMPARE(f.finished, kNoTime);
    uint64_t life = 0;
    for (uint64_t t : f.time)
        life += t;
    QCOMPARE(life, uint64_t(400 - 100));

    const ThreadFigures g = figuresOf(*ix, 8);
    QCOMPARE(g.created, uint64_t(50));
    QCOMPARE(g.finished, uint64_t(70));
    QCOMPARE(g.runnable(), uint64_t(10));
    QCOMPARE(g.running(), uint64_t(10));
    QCOMPARE(timeIn(g, ThreadState::Finished), uint64_t(400 - 70));

    // Before its first event the thread is not in a range at all; a range
    // starting at a run counts it, one ending there does not.
    QCOMPARE(idsOf(allThreadFigures(*ix, ViewRange{0, 100})), std::vector<uint32_t>{8});
    QCOMPARE(idsOf(allThreadFigures(*ix, ViewRange{0, 101})), (std::vector<uint32_t>{7, 8}));
    const ThreadFigures part = figuresOf(*ix, 7, ViewRange{100, 200});
    QCOMPARE(part.runs, 1u);
    QCOMPARE(part.running(), uint64_t(50));
    QCOMPARE(part.runnable(), uint64_t(50));
    const ThreadFigures atRun = figuresOf(*ix, 7, ViewRange{200, 201});
    QCOMPARE(atRun.runs, 1u);
    QCOMPARE(atRun.running(), uint64_t(1));
    QCOMPARE(figuresOf(*ix, 7, ViewRange{0, 120}).running(), uint64_t(20));
}

// A thread still running when the log ends runs until its last event.
void TestThreadStates::threadRunningAtTheEnd()
{
    LogBuilder b;
    b.block(0, {ev(tag::CreateThread, 10, {3}), run(20, 3)});
    b.block(1, {run(30, 4), stop(40, 4, 3), marker(500, "end")});
    const auto ix = load(b.bytes());
    compareStates(*ix, 3, {{10, ThreadState::Runnable, ThreadCause::Created}, {20, ThreadState::Running, ThreadCause::Run, 0}});
    const size_t k = ix->threadStates.find(3);
    const auto segs = ix->threadStates.of(k);
    QCOMPARE(ix->threadStates.segmentEnd(segs, segs.size() - 1), uint64_t(500));
    const ThreadFigures f = figuresOf(*ix, 3);
    QCOMPARE(f.running(), uint64_t(480));
    QCOMPARE(f.runnable(), uint64_t(10));
    QCOMPARE(ix->thread(3)->runTime, uint64_t(480)); // the capability timeline says the same
    QCOMPARE(figuresOf(*ix, 4).runnable(), uint64_t(460));
    const ThreadFigures part = figuresOf(*ix, 3, ViewRange{100, 200});
    QCOMPARE(part.running(), uint64_t(100));
    QCOMPARE(part.runs, 0u);
}

// MIGRATE_THREAD moves a runnable thread to another capability's queue: it
// stays runnable; a blocked one stays blocked for the same reason.
void TestThreadStates::migrationWhileRunnableOrBlocked()
{
    LogBuilder b;
    b.block(0, {ev(tag::CreateThread, 10, {5}), run(20, 5), stop(30, 5, 3), ev(tag::MigrateThread, 35, {5, 1}), run(40, 6), stop(42, 6, 11), ev(tag::MigrateThread, 44, {6, 1})});
    b.block(1, {run(50, 5), ev(tag::ThreadWakeup, 60, {6, 1}), stop(70, 5, 5)});
    const auto ix = load(b.bytes());
    compareStates(*ix, 5, {{10, ThreadState::Runnable, ThreadCause::Created}, {20, ThreadState::Running, ThreadCause::Run, 0}, {30, ThreadState::Runnable, ThreadCause::Stop, 0, 3}, {35, ThreadState::Runnable, ThreadCause::Migrate, 1}, {50, ThreadState::Running, ThreadCause::Run, 1}, {70, ThreadState::Finished, ThreadCause::Stop, 0, 5}});
    compareStates(*ix, 6, {{40, ThreadState::Running, ThreadCause::Run, 0}, {42, ThreadState::Blocked, ThreadCause::Stop, 0, 11}, {44, ThreadState::Blocked, ThreadCause::Migrate, 1}, {60, ThreadState::Runnable, ThreadCause::Wakeup}});
    const ThreadFigures f = figuresOf(*ix, 5);
    QCOMPARE(f.runnable(), uint64_t(10 + 5 + 15));
    QCOMPARE(f.running(), uint64_t(10 + 20));
    QCOMPARE(f.migrations, 1u);
    QCOMPARE(f.runs, 2u);
    const ThreadFigures g = figuresOf(*ix, 6);
    QCOMPARE(g.blocked[size_t(BlockReason::Delay)], uint64_t(60 - 42));
    QCOMPARE(g.blockedTotal(), uint64_t(60 - 42));
    QCOMPARE(g.runnable(), uint64_t(70 - 60));
    QCOMPARE(g.migrations, 1u);
    QCOMPARE(g.wakeups, 1u);

    const ThreadFigures around = figuresOf(*ix, 5, ViewRange{32, 40});
    QCOMPARE(around.runnable(), uint64_t(8));
    QCOMPARE(around.migrations, 1u);
    QCOMPARE(around.runs, 0u);
    const ThreadFigures after = figuresOf(*ix, 5, ViewRange{36, 60});
    QCOMPARE(after.runnable(), uint64_t(14));
    QCOMPARE(after.running(), uint64_t(10));
    QCOMPARE(after.migrations, 0u);
    QCOMPARE(after.runs, 1u);
}

// THREAD_WAKEUP and THREAD_RUNNABLE make a blocked thread runnable and
// leave a running one running; a wake-up can be a thread's first event.
void TestThreadStates::wakeupsAndRunnable()
{
    LogBuilder b;
    b.block(0, {run(10, 1), ev(tag::ThreadWakeup, 15, {1, 0}), ev(tag::ThreadRunnable, 17, {1}), stop(20, 1, 12), ev(tag::ThreadRunnable, 30, {1}), run(40, 1), stop(50, 1, 8, 2), ev(tag::ThreadWakeup, 55, {1, 0}), marker(60, "end")});
    b.block(1, {ev(tag::ThreadWakeup, 25, {2, 1})});
    const auto ix = load(b.bytes());
    compareStates(*ix, 1, {{10, ThreadState::Running, ThreadCause::Run, 0}, {15, ThreadState::Running, ThreadCause::Wakeup}, {17, ThreadState::Running, ThreadCause::Runnable}, {20, ThreadState::Blocked, ThreadCause::Stop, 0, 12}, {30, ThreadState::Runnable, ThreadCause::Runnable}, {40, ThreadState::Running, ThreadCause::Run, 0}, {50, ThreadState::Blocked, ThreadCause::Stop, 0, 8}, {55, ThreadState::Runnable, ThreadCause::Wakeup}});
    const auto segs = ix->threadStates.of(ix->threadStates.find(1));
    QCOMPARE(segs[6].info, uint16_t(2)); // the black hole's owner
    QCOMPARE(std::string(threadStateName(segs[6])), std::string("blocked on a black hole"));
    const ThreadFigures f = figuresOf(*ix, 1);
    QCOMPARE(f.running(), uint64_t(10 + 10));
    QCOMPARE(f.blocked[size_t(BlockReason::Stm)], uint64_t(10));
    QCOMPARE(f.blocked[size_t(BlockReason::BlackHole)], uint64_t(5));
    QCOMPARE(f.blockedTotal(), uint64_t(15));
    QCOMPARE(f.runnable(), uint64_t(10 + 5));
    QCOMPARE(f.wakeups, 2u);
    QCOMPARE(f.runs, 2u);
    compareStates(*ix, 2, {{25, ThreadState::Runnable, ThreadCause::Wakeup}});
    QCOMPARE(figuresOf(*ix, 2).runnable(), uint64_t(35));
}

// A RUN_THREAD of another thread on a capability whose thread never
// stopped: from then on that thread's state is unknown, until its next
// event. The same thread run again, or a run on another capability,
// replaces nothing.
void TestThreadStates::runEndedWithoutStop()
{
    LogBuilder b;
    b.block(0, {run(10, 1), run(20, 2), stop(30, 2, 3), stop(40, 1, 5), marker(50, "end")});
    b.block(1, {run(12, 3), run(14, 3), stop(16, 3, 3)});
    const auto ix = load(b.bytes());
    compareStates(*ix, 1, {{10, ThreadState::Running, ThreadCause::Run, 0}, {20, ThreadState::Unknown, ThreadCause::Replaced}, {40, ThreadState::Finished, ThreadCause::Stop, 0, 5}});
    compareStates(*ix, 2, {{20, ThreadState::Running, ThreadCause::Run, 0}, {30, ThreadState::Runnable, ThreadCause::Stop, 0, 3}});
    compareStates(*ix, 3, {{12, ThreadState::Running, ThreadCause::Run, 1}, {14, ThreadState::Running, ThreadCause::Run, 1}, {16, ThreadState::Runnable, ThreadCause::Stop, 0, 3}});
    const ThreadFigures f = figuresOf(*ix, 1);
    QCOMPARE(f.running(), uint64_t(10));
    QCOMPARE(timeIn(f, ThreadState::Unknown), uint64_t(20));
    QCOMPARE(timeIn(f, ThreadState::Finished), uint64_t(10));
    QCOMPARE(f.runs, 1u);
    QCOMPARE(ix->thread(1)->runTime, uint64_t(10)); // the capability timeline closed it there too
    const ThreadFigures g = figuresOf(*ix, 3);
    QCOMPARE(g.running(), uint64_t(4));
    QCOMPARE(g.runs, 2u);
}

// Each STOP_THREAD status (eventlog-format.md §2.2) leaves the thread in
// the state it names, blocked for the reason it names.
void TestThreadStates::stopStatuses()
{
    struct Case {
        uint64_t status;
        ThreadState state;
        BlockReason reason;
    };
    const Case cases[] = {
        {0, ThreadState::Runnable, {}},
        {1, ThreadState::Runnable, {}},
        {2, ThreadState::Runnable, {}},
        {3, ThreadState::Runnable, {}},
        {4, ThreadState::Blocked, BlockReason::Other},
        {5, ThreadState::Finished, {}},
        {6, ThreadState::Blocked, BlockReason::CCall},
        {7, ThreadState::Blocked, BlockReason::MVar},
        {8, ThreadState::Blocked, BlockReason::BlackHole},
        {9, ThreadState::Blocked, BlockReason::Read},
        {10, ThreadState::Blocked, BlockReason::Write},
        {11, ThreadState::Blocked, BlockReason::Delay},
        {12, ThreadState::Blocked, BlockReason::Stm},
        {13, ThreadState::Blocked, BlockReason::DoProc},
        {14, ThreadState::Blocked, BlockReason::Other},
        {15, ThreadState::Blocked, BlockReason::Other},
        {16, ThreadState::Blocked, BlockReason::CCall},
        {17, ThreadState::Blocked, BlockReason::CCall},
        {18, ThreadState::Blocked, BlockReason::ThrowTo},
        {19, ThreadState::Runnable, {}},
        {20, ThreadState::Blocked, BlockReason::MVarRead},
        {21, ThreadState::Runnable, {}},
        {300, ThreadState::Runnable, {}},
    };
    EventlogWriter w(EventlogWriter::allDeclarations());
    w.beginBlock(0, 0);
    uint64_t t = 0;
    for (const Case& c : cases) {
        w.write(run(t, 100 + c.status).event);
        w.write(stop(t + 10, 100 + c.status, c.status).event);
        t += 20;
    }
    const uint64_t end = t + 1000;
    w.write(marker(end, "end").event);
    w.endBlock(end);
    w.writeDataEnd();
    const auto ix = load(w.takeBytes());
    t = 0;
    for (const Case& c : cases) {
        const QString where = QStringLiteral("status %1").arg(c.status);
        const auto segs = ix->threadStates.of(ix->threadStates.find(uint32_t(100 + c.status)));
        QCOMPARE(segs.size(), size_t(2));
        QVERIFY2(segs[1].state == c.state, qPrintable(where + QStringLiteral(": ") + stateName(segs[1].state)));
        const ThreadFigures f = figuresOf(*ix, uint32_t(100 + c.status));
        QCOMPARE(f.running(), uint64_t(10));
        QCOMPARE(f.time[size_t(c.state)], end - (t + 10));
        if (c.state == ThreadState::Blocked)
            QVERIFY2(f.blocked[size_t(c.reason)] == end - (t + 10), qPrintable(where));
        t += 20;
    }
    const auto foreign = ix->threadStates.of(ix->threadStates.find(106));
    QCOMPARE(std::string(threadStateName(foreign[1])), std::string("in a foreign call"));
}

// GHC 7.8.1/7.8.2 (USER_MARKER declared, HACK_BUG_T9003 not) numbered the
// blocking statuses from 8 on differently (eventlog-format.md §2.2).
void TestThreadStates::stopStatusesOfGhc782()
{
    std::vector<EventTypeDecl> decls = EventlogWriter::allDeclarations();
    std::erase_if(decls, [](const EventTypeDecl& d) { return d.tag == tag::HackBugT9003; });
    struct Case {
        uint64_t raw;
        ThreadState state;
        BlockReason reason;
    };
    const Case cases[] = {{7, ThreadState::Blocked, BlockReason::MVar}, {8, ThreadState::Blocked, BlockReason::MVarRead}, {9, ThreadState::Blocked, BlockReason::BlackHole}, {10, ThreadState::Blocked, BlockReason::Read}, {12, ThreadState::Blocked, BlockReason::Delay}, {13, ThreadState::Blocked, BlockReason::Stm}, {17, ThreadState::Blocked, BlockReason::CCall}, {19, ThreadState::Blocked, BlockReason::ThrowTo}, {20, ThreadState::Runnable, {}}, {5, ThreadState::Finished, {}}};
    EventlogWriter w(decls);
    w.beginBlock(0, 0);
    uint64_t t = 0;
    for (const Case& c : cases) {
        w.write(run(t, c.raw).event);
        w.write(stop(t + 10, c.raw, c.raw).event);
        t += 20;
    }
    w.write(marker(t + 100, "end").event);
    w.endBlock(t + 100);
    w.writeDataEnd();
    const auto ix = load(w.takeBytes());
    for (const Case& c : cases) {
        const ThreadFigures f = figuresOf(*ix, uint32_t(c.raw));
        const auto segs = ix->threadStates.of(ix->threadStates.find(uint32_t(c.raw)));
        QVERIFY2(segs[1].state == c.state, qPrintable(QStringLiteral("raw %1: %2").arg(c.raw).arg(stateName(segs[1].state))));
        if (c.state == ThreadState::Blocked)
            QVERIFY2(f.blocked[size_t(c.reason)] == f.blockedTotal() && f.blockedTotal() > 0,
                     qPrintable(QStringLiteral("raw %1 blocked on %2").arg(c.raw).arg(blockReasonName(blockReasonOf(segs[1])))));
    }
}

// Several events of one thread at one time keep the order of the log,
// within a block and across blocks of two capabilities.
void TestThreadStates::identicalTimestampsKeepLogOrder()
{
    LogBuilder b;
    b.block(0, {ev(tag::CreateThread, 10, {9}), run(10, 9), stop(10, 9, 3), run(10, 9), stop(10, 9, 7), ev(tag::ThreadWakeup, 10, {9, 0}), run(10, 9), stop(20, 9, 5), run(30, 4), stop(40, 4, 3), ev(tag::MigrateThread, 40, {4, 1})});
    b.block(1, {run(40, 4), stop(45, 4, 5)});
    const auto ix = load(b.bytes());
    compareStates(*ix, 9, {{10, ThreadState::Runnable, ThreadCause::Created}, {10, ThreadState::Running, ThreadCause::Run, 0}, {10, ThreadState::Runnable, ThreadCause::Stop, 0, 3}, {10, ThreadState::Running, ThreadCause::Run, 0}, {10, ThreadState::Blocked, ThreadCause::Stop, 0, 7}, {10, ThreadState::Runnable, ThreadCause::Wakeup}, {10, ThreadState::Running, ThreadCause::Run, 0}, {20, ThreadState::Finished, ThreadCause::Stop, 0, 5}});
    const ThreadFigures f = figuresOf(*ix, 9);
    QCOMPARE(f.running(), uint64_t(10));
    QCOMPARE(f.runs, 3u);
    QCOMPARE(f.wakeups, 1u);
    QCOMPARE(f.blockedTotal() + f.runnable(), uint64_t(0));
    // A range beginning at that time counts every event there; one ending
    // there counts none of them.
    const ThreadFigures from = figuresOf(*ix, 9, ViewRange{10, 11});
    QCOMPARE(from.runs, 3u);
    QCOMPARE(from.wakeups, 1u);
    QCOMPARE(from.running(), uint64_t(1));
    const ThreadFigures before = figuresOf(*ix, 9, ViewRange{0, 10});
    QCOMPARE(before.runs + before.wakeups, 0u);
    compareStates(*ix, 4, {{30, ThreadState::Running, ThreadCause::Run, 0}, {40, ThreadState::Runnable, ThreadCause::Stop, 0, 3}, {40, ThreadState::Runnable, ThreadCause::Migrate, 1}, {40, ThreadState::Running, ThreadCause::Run, 1}, {45, ThreadState::Finished, ThreadCause::Stop, 0, 5}});
    QCOMPARE(figuresOf(*ix, 4).running(), uint64_t(15));
}

// A later block of the file may hold earlier times: each thread's events
// are put back in time order, those at one time in log order.
void TestThreadStates::blocksOutOfTimeOrder()
{
    LogBuilder b;
    b.block(1, {run(100, 2), stop(120, 2, 3)});
    b.block(0, {ev(tag::CreateThread, 10, {2}), run(20, 2), stop(30, 2, 3), run(30, 2), stop(30, 2, 7), ev(tag::ThreadWakeup, 30, {2, 0}), ev(tag::MigrateThread, 40, {2, 1})});
    const auto ix = load(b.bytes());
    compareStates(*ix, 2, {{10, ThreadState::Runnable, ThreadCause::Created}, {20, ThreadState::Running, ThreadCause::Run, 0}, {30, ThreadState::Runnable, ThreadCause::Stop, 0, 3}, {30, ThreadState::Running, ThreadCause::Run, 0}, {30, ThreadState::Blocked, ThreadCause::Stop, 0, 7}, {30, ThreadState::Runnable, ThreadCause::Wakeup}, {40, ThreadState::Runnable, ThreadCause::Migrate, 1}, {100, ThreadState::Running, ThreadCause::Run, 1}, {120, ThreadState::Runnable, ThreadCause::Stop, 0, 3}});
    const ThreadFigures f = figuresOf(*ix, 2);
    QCOMPARE(f.running(), uint64_t(30));
    QCOMPARE(f.runnable(), uint64_t(10 + 70));
    QCOMPARE(f.runs, 3u);
    QCOMPARE(f.wakeups, 1u);
}

// Segments are stored 8 bytes each, their times as offsets from every
// 16th segment's: waits longer than 2^32 ns (the offset's range) and more
// than 16 segments must come back exact, with a black hole's owner, and
// searches from any segment must find the one covering a time.
void TestThreadStates::longGapsAndManySegments()
{
    LogBuilder b;
    std::vector<OwnedEvent> events;
    std::vector<uint64_t> runs; // RUN_THREAD times of thread 1
    uint64_t t = 1000;
    for (int i = 0; i < 40; ++i) {
        runs.push_back(t);
        // Every 7th wait is 10 s: far beyond a 32-bit offset.
        const uint64_t wait = i % 7 == 3 ? 10'000'000'000ULL : 1000 + uint64_t(i) * 13;
        b.block(0, {run(t, 1), stop(t + 500, 1, 8, 9)});
        t += 500 + wait;
    }
    b.block(0, {run(t, 1), stop(t + 100, 1, 5), marker(t + 200, "end")});
    const auto ix = load(b.bytes());
    const size_t k = ix->threadStates.find(1);
    QVERIFY(k != SIZE_MAX);
    const SegmentView segs = ix->threadStates.of(k);
    QCOMPARE(segs.size(), size_t(2 * 40 + 2));
    for (size_t i = 0; i < 40; ++i) {
        QCOMPARE(segs[2 * i].time, runs[i]);
        QCOMPARE(segs[2 * i].state, ThreadState::Running);
        QCOMPARE(segs[2 * i + 1].time, runs[i] + 500);
        QCOMPARE(segs[2 * i + 1].state, ThreadState::Blocked);
        QCOMPARE(segs[2 * i + 1].info, uint16_t(9)); // the black hole's owner
    }
    QCOMPARE(segs.back().state, ThreadState::Finished);
    QVERIFY(!ix->threadStates.farTimes.empty());
    compareCursorWithView(ix->threadStates); // (far times read in order)
    // Searches from every segment agree with a plain walk.
    for (size_t from = 0; from < segs.size(); from += 5)
        for (size_t i = from; i < segs.size(); ++i) {
            const uint64_t at = segs[i].time + 1;
            size_t want = from;
            while (want + 1 < segs.size() && segs[want + 1].time <= at)
                ++want;
            QCOMPARE(ix->threadStates.firstEndingAfterFrom(k, from, at), want);
            QCOMPARE(ThreadStates::firstEndingAfter(segs, at), want);
        }
    // The whole-log figures add up: 41 runs of 500 or 100 ns.
    const ThreadFigures f = figuresOf(*ix, 1);
    QCOMPARE(f.running(), uint64_t(40 * 500 + 100));
    QCOMPARE(f.runs, 41u);
    QCOMPARE(f.blocked[size_t(BlockReason::BlackHole)], t - runs.front() - 40 * 500); // from the first run to the last
}

// A settle's events, grouped by thread, come per thread as a few
// stretches in time order; sortEachThreadByTime merges those. Against a
// stable sort by time of each thread's events (ties in the order given):
// stretches of every count up to 40 (odd and even, and one event each,
// descending), ties within and across stretches, one thread and none.
void TestThreadStates::eachThreadSortedAsAStableSort()
{
    struct Ev {
        uint32_t thread;
        uint64_t time;
        uint32_t seq; // the order given
    };
    std::mt19937 random(26);
    for (int round = 0; round < 200; ++round) {
        std::vector<Ev> evs;
        const int threads = round == 0 ? 0 : int(random() % 6) + 1;
        for (int t = 0; t < threads; ++t) {
            const uint32_t thread = uint32_t(t * 3 + 1);
            const int stretches = round < 40 ? round + 1 : int(random() % 12) + 1;
            for (int k = 0; k < stretches; ++k) {
                const size_t len = round == 1 ? 1 : random() % 20 + 1; // (round 1: descending, one a stretch)
                // Each stretch starts at or below the last one's end: a new stretch.
                uint64_t time = round == 1 ? uint64_t(1000 - k) : random() % 50;
                for (size_t i = 0; i < len; ++i) {
                    evs.push_back({thread, time, uint32_t(evs.size())});
                    time += random() % 3; // (0: a tie within the stretch)
                }
            }
        }
        std::vector<Ev> want = evs;
        for (auto first = want.begin(); first != want.end();) {
            const auto last = std::find_if(first, want.end(), [&](const Ev& e) { return e.thread != first->thread; });
            std::stable_sort(first, last, [](const Ev& a, const Ev& b) { return a.time < b.time; });
            first = last;
        }
        threadbuild::sortEachThreadByTime(evs);
        QCOMPARE(evs.size(), want.size());
        for (size_t i = 0; i < evs.size(); ++i)
            QVERIFY2(evs[i].thread == want[i].thread && evs[i].time == want[i].time && evs[i].seq == want[i].seq,
                     qPrintable(QStringLiteral("round %1, event %2: seq %3, want %4")
                                    .arg(round)
                                    .arg(i)
                                    .arg(evs[i].seq)
                                    .arg(want[i].seq)));
    }
}

QTEST_GUILESS_MAIN(TestThreadStates)
#include "tst_threadstates.moc"
