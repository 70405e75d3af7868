#pragma once

#include "ui/jobs/workerpool.h"

#include <QObject>
#include <QSocketNotifier>

#include <atomic>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>

namespace hecscope {

class JobRunner;

// What a job sees of its runner, from its worker thread: whether it is
// still wanted, and a way to send something back to the runner's thread.
// Copyable and thread-safe.
class JobContext {
public:
    // True once a newer generation started (JobRunner::start or cancel),
    // or the runner is being destroyed. Jobs poll it between steps.
    bool isCancelled() const { return m_state->cancelled.load(std::memory_order_acquire); }
    // Runs `f` on the runner's thread, unless the job's generation is stale
    // (or the runner gone) by the time it gets there.
    void post(std::function<void()> f) const;

private:
    friend class JobRunner;
    struct State {
        std::atomic<bool> cancelled{false};
    };
    std::shared_ptr<State> m_state;
    JobRunner* m_runner = nullptr; // outlives its jobs: its destructor waits for them
};

// The one way Hecscope runs background work (Hotspot's JobTracker): a
// runner is a queue on the WorkerPool (the application's, or one of a
// test's), running at most `maxThreads` of its jobs at once; a job's result
// comes back to the runner's thread (the UI thread) and is applied only if
// the job's generation is still current. start() begins a new generation
// (the jobs of the previous one see isCancelled() and their results are
// dropped); run() adds a job to the current one (pages of a list). The
// destructor cancels its jobs, drops those still queued and waits for its
// running ones (not the rest of the pool's), so no job outlives what it
// captured.
class JobRunner : public QObject {
    Q_OBJECT
public:
    explicit JobRunner(int maxThreads = 1, QObject* parent = nullptr);
    JobRunner(WorkerPool& pool, int maxThreads, QObject* parent = nullptr);
    ~JobRunner() override;

    // A new generation with this job. `work(const JobContext&)` returns the
    // result, `apply(result)` takes it on this runner's thread.
    template <class Work, class Apply>
    void start(Work work, Apply apply)
    {
        cancel();
        run(std::move(work), std::move(apply));
    }
    // Another job of the current generation.
    template <class Work, class Apply>
    void run(Work work, Apply apply)
    {
        const JobContext ctx = context();
        ++m_running;
        // A job cancelled while it waited in the queue does not run (the pool checks).
        submit(ctx, [this, ctx, work = std::move(work), apply = std::move(apply)]() mutable {
            std::shared_ptr<decltype(work(ctx))> result;
            try {
                result = std::make_shared<decltype(work(ctx))>(work(ctx));
            } catch (const std::exception& e) {
                // Nothing may escape a worker thread: the job failed, its
                // result is dropped (an out-of-memory is the likely cause).
                jobFailed(ctx, e.what());
                return;
            } catch (...) {
                jobFailed(ctx, "unknown exception");
                return;
            }
            ctx.post([this, apply = std::move(apply), result]() mutable {
                --m_running;
                apply(std::move(*result));
            });
        });
    }
    // Ends the current generation: its jobs see isCancelled(), their
    // results and posts are dropped.
    void cancel();
    // Jobs started and not yet back on this thread (or dropped).
    bool isBusy() const { return m_running > 0 && !m_current->cancelled; }
    // Blocks until every job of this runner has finished; its cancelled
    // jobs still queued are dropped, not waited for (tests and shutdown
    // only; never from a job: the pool is bounded).
    void waitForDone();
    // No job of this runner is running, and none queued will run.
    bool isIdle() const { return m_queue.isIdle(); }
    JobContext context() const;

private:
    friend class JobContext;
    // Our queue on the pool (a std::mutex, what TSan sees; Qt's thread
    // pool hands tasks over behind a futex it cannot see).
    void submit(const JobContext& ctx, std::function<void()> task);
    void jobFailed(const JobContext& ctx, const char* what);
    WorkerPool::Queue m_queue;

    // Posts go through a queue of our own, under a std::mutex, and a byte
    // on a pipe wakes this thread's event loop (a QSocketNotifier) to run
    // drain(): no Qt object crosses threads, so every hand-over is visible
    // to ThreadSanitizer (Qt's own event queue is not instrumented).
    void enqueue(std::shared_ptr<JobContext::State> state, std::function<void()> f);
    void drain();
    int m_wake[2] = {-1, -1}; // pipe: workers write, this thread reads
    QSocketNotifier* m_wakeNotifier = nullptr;
    std::mutex m_postMutex;
    std::deque<std::pair<std::shared_ptr<JobContext::State>, std::function<void()>>> m_posted;
    bool m_drainScheduled = false; // under m_postMutex

    std::shared_ptr<JobContext::State> m_current;
    int m_running = 0; // this thread only
};

} // namespace hecscope
