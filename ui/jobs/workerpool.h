#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace hecscope {

// The threads every background job runs on (Hotspot's one ThreadWeaver
// queue): at most `maxThreads` at once across all JobRunners, started on
// demand and ended after `idleTimeout` without work, so an idle window has
// none busy (they block, they never spin). Each runner is a Queue on it: its
// tasks run in order, at most its own limit of them at once, and the pool
// takes one task at a time from the queues with work, in turn, so one
// runner's long queue does not starve another. A task never waits for
// another task of the pool (with a bounded pool that could hang).
// std::thread, std::mutex and std::condition_variable: ThreadSanitizer sees
// every hand-over. Its threads run at a lower scheduling priority than the
// UI thread (kBackgroundNice; the threads a job starts inherit it), so a
// load that keeps every core busy does not keep a repaint waiting for one.
class WorkerPool {
public:
    // How much nicer than the process a pool thread is (Linux: per thread,
    // and inherited by the threads it starts). Five steps: a thread of the
    // UI's priority gets three times its share of a core.
    static constexpr int kBackgroundNice = 5;

    explicit WorkerPool(int maxThreads, std::chrono::milliseconds idleTimeout = std::chrono::seconds(30));
    // Ends the threads; every Queue on it must be closed already.
    ~WorkerPool();
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    // The application's pool: max(2, std::thread::hardware_concurrency())
    // threads.
    static WorkerPool& shared();
    static int defaultThreads();

    int maxThreads() const { return int(m_maxThreads); }
    // Threads alive now (busy or waiting for work).
    int threadCount() const;
    // No task runs and none waits for a thread: every task handed to the
    // pool so far has ended (a test waits for it before it checks that
    // nothing more changes).
    bool isIdle() const;

    // A task and the flag that says it is no longer wanted: a task whose flag
    // is set when it is dropped from a queue (close, dropCancelled) never runs.
    struct Task {
        std::function<void()> run;
        std::shared_ptr<const std::atomic<bool>> cancelled;
    };

    // One runner's tasks. Used from its owner's thread; the pool's threads
    // take its tasks. Not movable: the pool keeps its address while it has work.
    class Queue {
    public:
        Queue(WorkerPool& pool, int limit);
        ~Queue() { close(); }
        Queue(const Queue&) = delete;
        Queue& operator=(const Queue&) = delete;

        void push(Task task);
        // Drops the queued tasks whose flag is set, then blocks until no task
        // is queued or running. Never call it from a task of the same pool.
        void waitUntilIdle();
        // True when no task runs and every queued one is cancelled (none will run).
        bool isIdle() const;
        // Drops every queued task and blocks until the running ones end; the
        // pool does not touch the queue after this. Idempotent.
        void close();

    private:
        friend class WorkerPool;
        bool runnable() const { return !m_tasks.empty() && m_running < m_limit; }
        WorkerPool& m_pool;
        const size_t m_limit;
        // Under m_pool.m_mutex:
        std::deque<Task> m_tasks;
        size_t m_running = 0;
        bool m_listed = false; // in m_pool.m_ready
        std::condition_variable m_idle;
    };

private:
    // Under m_mutex.
    void relist(Queue& q);
    void unlist(Queue& q);
    void wakeOrStart();
    void reapEnded();
    void workerLoop();

    mutable std::mutex m_mutex;
    std::condition_variable m_workReady;
    std::deque<Queue*> m_ready; // queues with a task that may start now, in turn
    std::vector<std::thread> m_threads;
    std::vector<std::thread::id> m_ended; // returned from workerLoop, not yet joined
    size_t m_alive = 0;                   // threads in workerLoop
    size_t m_busy = 0;                    // of them, running a task
    size_t m_waiting = 0;                 // of them, blocked waiting for work
    bool m_stopping = false;
    const size_t m_maxThreads;
    const std::chrono::milliseconds m_idleTimeout;
};

} // namespace hecscope
