// The one job runner: generations, cancellation, stale results dropped,
// posts from a worker, and a destructor that waits for its jobs.
#include "ui/jobs/jobrunner.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>

#include <atomic>
#include <thread>
#include <vector>

using namespace hecscope;

class TestJobRunner : public QObject {
    Q_OBJECT
private slots:
    void resultArrivesOnTheRunnersThread();
    void newerGenerationDropsOlderResults();
    void cancelledJobSeesIt();
    void postsArriveInOrderAndStopWhenStale();
    void runAddsToTheGeneration();
    void destructorWaitsAndDropsResults();
    void queuedStaleJobsDoNotRun();
    void failingJobIsDroppedNotFatal();

private:
    // Processes events until `done` (a guard against a hang, not a timing
    // assertion).
    template <class F>
    static bool waitFor(F done)
    {
        QElapsedTimer t;
        t.start();
        while (!done() && t.elapsed() < 20000)
            QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
        return done();
    }
};

void TestJobRunner::resultArrivesOnTheRunnersThread()
{
    JobRunner runner;
    std::thread::id worker, applied;
    int value = 0;
    runner.start(
        [&](const JobContext&) {
            worker = std::this_thread::get_id();
            return 42;
        },
        [&](int v) {
            applied = std::this_thread::get_id();
            value = v;
        });
    QVERIFY(runner.isBusy());
    QVERIFY(waitFor([&] { return value == 42; }));
    QCOMPARE(applied, std::this_thread::get_id());
    QVERIFY(worker != applied);
    QVERIFY(!runner.isBusy());
}

void TestJobRunner::newerGenerationDropsOlderResults()
{
    JobRunner runner;
    std::vector<int> applied;
    std::atomic<bool> release{false};
    runner.start(
        [&](const JobContext&) {
            while (!release)
                std::this_thread::yield();
            return 1;
        },
        [&](int v) { applied.push_back(v); });
    runner.start([](const JobContext&) { return 2; }, [&](int v) { applied.push_back(v); });
    release = true;
    runner.waitForDone();
    QVERIFY(waitFor([&] { return !runner.isBusy(); }));
    QCOMPARE(applied, std::vector<int>{2});
}

void TestJobRunner::cancelledJobSeesIt()
{
    JobRunner runner;
    std::atomic<bool> started{false}, sawCancel{false};
    bool applied = false;
    runner.start(
        [&](const JobContext& ctx) {
            started = true;
            while (!ctx.isCancelled())
                std::this_thread::yield();
            sawCancel = true;
            return 0;
        },
        [&](int) { applied = true; });
    QVERIFY(waitFor([&] { return started.load(); }));
    runner.cancel();
    runner.waitForDone();
    QVERIFY(sawCancel);
    QVERIFY(!applied);
    QVERIFY(!runner.isBusy());
}

void TestJobRunner::postsArriveInOrderAndStopWhenStale()
{
    JobRunner runner;
    std::vector<int> seen;
    std::atomic<bool> go{false};
    runner.start(
        [&](const JobContext& ctx) {
            for (int i = 0; i < 100; ++i)
                ctx.post([&seen, i] { seen.push_back(i); });
            while (!go)
                std::this_thread::yield();
            ctx.post([&seen] { seen.push_back(-1); }); // after the cancel: dropped
            return 0;
        },
        [](int) {});
    QVERIFY(waitFor([&] { return seen.size() == 100; }));
    for (int i = 0; i < 100; ++i)
        QCOMPARE(seen[size_t(i)], i);
    runner.cancel();
    go = true;
    runner.waitForDone();
    QCOMPARE(seen.size(), size_t(100));
}

void TestJobRunner::runAddsToTheGeneration()
{
    JobRunner runner(3);
    int sum = 0;
    runner.start([](const JobContext&) { return 1; }, [&](int v) { sum += v; });
    for (int i = 0; i < 10; ++i)
        runner.run([](const JobContext&) { return 10; }, [&](int v) { sum += v; });
    QVERIFY(waitFor([&] { return sum == 101; }));
    QVERIFY(!runner.isBusy());
}

void TestJobRunner::destructorWaitsAndDropsResults()
{
    std::atomic<bool> started{false}, finished{false};
    bool applied = false;
    {
        JobRunner runner;
        runner.start(
            [&](const JobContext& ctx) {
                started = true;
                while (!ctx.isCancelled())
                    std::this_thread::yield();
                finished = true;
                return 0;
            },
            [&](int) { applied = true; });
        QVERIFY(waitFor([&] { return started.load(); }));
    }
    QVERIFY(finished); // the job ended before the runner was gone
    QCoreApplication::processEvents();
    QVERIFY(!applied);
}

// A drag starts a job per mouse move: those still waiting when a newer one
// starts are skipped, so the latest result is not held up behind them.
void TestJobRunner::queuedStaleJobsDoNotRun()
{
    JobRunner runner(1);
    std::atomic<int> ran{0};
    std::atomic<bool> release{false}, busy{false};
    int applied = -1;
    runner.start(
        [&](const JobContext&) {
            busy = true;
            while (!release)
                std::this_thread::yield();
            return -1;
        },
        [&](int v) { applied = v; });
    QVERIFY(waitFor([&] { return busy.load(); })); // the one worker is taken
    for (int i = 0; i < 30; ++i)
        runner.start(
            [&, i](const JobContext&) {
                ++ran;
                return i;
            },
            [&](int v) { applied = v; });
    release = true;
    runner.waitForDone();
    QCOMPARE(ran.load(), 1); // only the latest of the queued ones
    QCOMPARE(applied, 29);
}

// An exception in a job (say, out of memory) drops its result; the runner
// and the application go on.
void TestJobRunner::failingJobIsDroppedNotFatal()
{
    JobRunner runner;
    bool applied = false;
    runner.start([](const JobContext&) -> int { throw std::bad_alloc(); }, [&](int) { applied = true; });
    runner.waitForDone();
    QVERIFY(!applied);
    QVERIFY(!runner.isBusy());
    int value = 0;
    runner.start([](const JobContext&) { return 7; }, [&](int v) { value = v; });
    runner.waitForDone();
    QCOMPARE(value, 7);
}

QTEST_GUILESS_MAIN(TestJobRunner)
#include "tst_jobrunner.moc"
