// The one job runner: generations, cancellation, stale results dropped,
// posts from a worker, and a destructor that waits for its jobs; and the one
// worker pool the runners are queues on: its thread limit across runners, a
// runner's own limit, runners taking turns, threads ended when idle.
#include "ui/jobs/jobrunner.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTest>

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
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
    void poolLimitHoldsAcrossRunners();
    void runnerLimitHoldsOnABiggerPool();
    void destroyingARunnerWaitsForItsOwnJobsOnly();
    void destroyingARunnerDropsItsQueuedJobs();
    void cancelledQueuedJobsAreNotWaitedFor();
    void runnersTakeTurns();
    void idleThreadsEnd();
    void poolThreadsRunNicerThanTheWindow();

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

namespace {

// Jobs block in wait() until the test opens it (a condition, not a sleep).
class Gate {
public:
    void open()
    {
        {
            const std::lock_guard lock(m_mutex);
            m_open = true;
        }
        m_changed.notify_all();
    }
    void wait()
    {
        std::unique_lock lock(m_mutex);
        m_changed.wait(lock, [this] { return m_open; });
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_changed;
    bool m_open = false;
};

// How many jobs run at once, and the most there ever were.
struct Concurrency {
    std::atomic<int> now{0}, peak{0}, done{0};
    void enter()
    {
        const int n = ++now;
        int p = peak.load();
        while (n > p && !peak.compare_exchange_weak(p, n)) {
        }
    }
    void leave()
    {
        --now;
        ++done;
    }
};

} // namespace

void TestJobRunner::poolLimitHoldsAcrossRunners()
{
    WorkerPool pool(3);
    Gate gate;
    Concurrency c;
    const auto job = [&](const JobContext&) {
        c.enter();
        gate.wait();
        c.leave();
        return 0;
    };
    JobRunner a(pool, 2), b(pool, 2), d(pool, 2);
    const auto opened = qScopeGuard([&] { gate.open(); }); // before the runners wait for their jobs
    for (JobRunner* r : {&a, &b, &d}) {
        r->run(job, [](int) {});
        r->run(job, [](int) {});
    }
    QVERIFY(waitFor([&] { return c.now.load() >= 3; }));
    // Six jobs may run as far as their runners go; the pool started three
    // threads, and the other three jobs wait for them.
    QCOMPARE(pool.threadCount(), 3);
    QCOMPARE(c.now.load(), 3);
    QCOMPARE(c.done.load(), 0);
    gate.open();
    QVERIFY(waitFor([&] { return c.done.load() == 6; }));
    QCOMPARE(c.peak.load(), 3);
}

void TestJobRunner::runnerLimitHoldsOnABiggerPool()
{
    WorkerPool pool(4);
    Gate gate;
    Concurrency c;
    JobRunner limited(pool, 2), other(pool, 1);
    const auto opened = qScopeGuard([&] { gate.open(); });
    for (int i = 0; i < 5; ++i)
        limited.run(
            [&](const JobContext&) {
                c.enter();
                gate.wait();
                c.leave();
                return 0;
            },
            [](int) {});
    QVERIFY(waitFor([&] { return c.now.load() >= 2; }));
    QCOMPARE(pool.threadCount(), 2); // none started for the three it may not run yet
    QCOMPARE(c.now.load(), 2);
    // The pool has room for another runner's job meanwhile.
    bool otherDone = false;
    other.start([](const JobContext&) { return 1; }, [&](int) { otherDone = true; });
    QVERIFY(waitFor([&] { return otherDone; }));
    QCOMPARE(c.now.load(), 2);
    gate.open();
    QVERIFY(waitFor([&] { return c.done.load() == 5; }));
    QCOMPARE(c.peak.load(), 2);
}

void TestJobRunner::destroyingARunnerWaitsForItsOwnJobsOnly()
{
    WorkerPool pool(2);
    Gate gate;
    std::atomic<bool> keepStarted{false}, keepFinished{false}, started{false}, finished{false}, queuedRan{false};
    JobRunner keep(pool, 1);
    const auto opened = qScopeGuard([&] { gate.open(); });
    keep.start(
        [&](const JobContext&) {
            keepStarted = true;
            gate.wait();
            keepFinished = true;
            return 0;
        },
        [](int) {});
    QVERIFY(waitFor([&] { return keepStarted.load(); }));
    {
        JobRunner gone(pool, 1);
        gone.start(
            [&](const JobContext& ctx) {
                started = true;
                while (!ctx.isCancelled())
                    std::this_thread::yield();
                finished = true;
                return 0;
            },
            [](int) {});
        gone.run(
            [&](const JobContext&) { // queued behind the first (a limit of one)
                queuedRan = true;
                return 0;
            },
            [](int) {});
        QVERIFY(waitFor([&] { return started.load(); }));
    }
    QVERIFY(finished);      // its running job ended before the destructor returned
    QVERIFY(!queuedRan);    // its queued one was dropped
    QVERIFY(!keepFinished); // the other runner's job still runs: not waited for
    gate.open();
    keep.waitForDone();
    QVERIFY(keepFinished);
}

// A runner destroyed while its jobs wait behind other runners' (the only
// thread is taken) returns at once: its queued jobs are dropped, never run.
void TestJobRunner::destroyingARunnerDropsItsQueuedJobs()
{
    WorkerPool pool(1);
    Gate gate;
    std::atomic<bool> blocking{false}, queuedRan{false};
    JobRunner blocker(pool, 1);
    const auto opened = qScopeGuard([&] { gate.open(); });
    blocker.start(
        [&](const JobContext&) {
            blocking = true;
            gate.wait();
            return 0;
        },
        [](int) {});
    QVERIFY(waitFor([&] { return blocking.load(); }));
    {
        JobRunner gone(pool, 2);
        for (int i = 0; i < 3; ++i)
            gone.run(
                [&](const JobContext&) {
                    queuedRan = true;
                    return 0;
                },
                [](int) {});
        QVERIFY(!gone.isIdle());
    } // would hang here if it waited for the blocker
    gate.open();
    blocker.waitForDone();
    QVERIFY(!queuedRan);
}

void TestJobRunner::cancelledQueuedJobsAreNotWaitedFor()
{
    WorkerPool pool(1);
    Gate gate;
    std::atomic<bool> blocking{false};
    std::atomic<int> ran{0};
    JobRunner blocker(pool, 1), runner(pool, 1);
    const auto opened = qScopeGuard([&] { gate.open(); });
    blocker.start(
        [&](const JobContext&) {
            blocking = true;
            gate.wait();
            return 0;
        },
        [](int) {});
    QVERIFY(waitFor([&] { return blocking.load(); }));
    bool applied = false;
    runner.start(
        [&](const JobContext&) {
            ++ran;
            return 0;
        },
        [&](int) { applied = true; });
    QVERIFY(!runner.isIdle());
    runner.cancel();
    QVERIFY(runner.isIdle()); // queued, cancelled: it will never run
    runner.waitForDone();     // returns while the only thread is still taken
    int value = 0;
    runner.start(
        [&](const JobContext&) {
            ++ran;
            return 5;
        },
        [&](int v) { value = v; });
    gate.open();
    QVERIFY(waitFor([&] { return value == 5; }));
    QCOMPARE(ran.load(), 1);
    QVERIFY(!applied);
}

// One thread, two runners with five jobs each queued behind a third
// runner's: the pool takes a job from each runner with work in turn.
void TestJobRunner::runnersTakeTurns()
{
    WorkerPool pool(1);
    Gate gate;
    std::atomic<bool> blocking{false};
    std::mutex orderMutex;
    std::string order;
    JobRunner blocker(pool, 1), a(pool, 3), b(pool, 3);
    const auto opened = qScopeGuard([&] { gate.open(); });
    blocker.start(
        [&](const JobContext&) {
            blocking = true;
            gate.wait();
            return 0;
        },
        [](int) {});
    QVERIFY(waitFor([&] { return blocking.load(); }));
    const auto job = [&](char name) {
        return [&, name](const JobContext&) {
            const std::lock_guard lock(orderMutex);
            order += name;
            return 0;
        };
    };
    for (int i = 0; i < 5; ++i)
        a.run(job('a'), [](int) {});
    for (int i = 0; i < 5; ++i)
        b.run(job('b'), [](int) {});
    gate.open();
    a.waitForDone();
    b.waitForDone();
    const std::lock_guard lock(orderMutex);
    QCOMPARE(QString::fromStdString(order), QStringLiteral("ababababab"));
}

void TestJobRunner::idleThreadsEnd()
{
    WorkerPool pool(2, std::chrono::milliseconds(1));
    JobRunner runner(pool, 2);
    int sum = 0;
    runner.run([](const JobContext&) { return 1; }, [&](int v) { sum += v; });
    runner.run([](const JobContext&) { return 2; }, [&](int v) { sum += v; });
    QVERIFY(waitFor([&] { return sum == 3; }));
    // None waits for work for ever; a new job starts one again.
    QVERIFY(waitFor([&] { return pool.threadCount() == 0; }));
    runner.run([](const JobContext&) { return 4; }, [&](int v) { sum += v; });
    QVERIFY(waitFor([&] { return sum == 7; }));
}

// A job, and a thread it starts, run kBackgroundNice steps nicer than the
// main thread (the UI's), so that the window's repaints come first when a
// load keeps every core busy; this thread's own value is unchanged.
void TestJobRunner::poolThreadsRunNicerThanTheWindow()
{
    errno = 0;
    const int main = getpriority(PRIO_PROCESS, 0);
    QCOMPARE(errno, 0);
    WorkerPool pool(1);
    JobRunner runner(pool, 1);
    std::pair<int, int> seen{-100, -100};
    bool done = false;
    runner.run(
        [](const JobContext&) {
            int inner = -100;
            std::thread([&inner] { inner = getpriority(PRIO_PROCESS, 0); }).join();
            return std::pair{getpriority(PRIO_PROCESS, 0), inner};
        },
        [&](std::pair<int, int> v) {
            seen = v;
            done = true;
        });
    QVERIFY(waitFor([&] { return done; }));
    const int want = std::min(19, main + WorkerPool::kBackgroundNice);
    QCOMPARE(seen.first, want);
    QCOMPARE(seen.second, want);
    QCOMPARE(getpriority(PRIO_PROCESS, 0), main);
}

QTEST_GUILESS_MAIN(TestJobRunner)
#include "tst_jobrunner.moc"
