#include "ui/jobs/workerpool.h"

#include <algorithm>
#include <cerrno>

#include <sys/resource.h>
#include <unistd.h>

namespace hecscope {

WorkerPool::WorkerPool(int maxThreads, std::chrono::milliseconds idleTimeout)
    : m_maxThreads(size_t(std::max(1, maxThreads)))
    , m_idleTimeout(idleTimeout)
{
}

WorkerPool::~WorkerPool()
{
    {
        const std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_workReady.notify_all();
    for (std::thread& t : m_threads)
        t.join();
}

int WorkerPool::defaultThreads()
{
    return int(std::max(2u, std::thread::hardware_concurrency()));
}

WorkerPool& WorkerPool::shared()
{
    static WorkerPool pool(defaultThreads());
    return pool;
}

bool WorkerPool::isIdle() const
{
    std::lock_guard lock(m_mutex);
    return m_busy == 0 && m_ready.empty();
}

int WorkerPool::threadCount() const
{
    const std::lock_guard lock(m_mutex);
    return int(m_alive);
}

void WorkerPool::relist(Queue& q)
{
    if (!q.m_listed && q.runnable()) {
        m_ready.push_back(&q);
        q.m_listed = true;
    } else if (q.m_listed && !q.runnable()) {
        unlist(q);
    }
}

void WorkerPool::unlist(Queue& q)
{
    if (q.m_listed) {
        m_ready.erase(std::find(m_ready.begin(), m_ready.end(), &q));
        q.m_listed = false;
    }
}

// Enough threads for the tasks that may start now (within the limit), and
// as many waiting ones woken.
void WorkerPool::wakeOrStart()
{
    size_t startable = 0;
    for (const Queue* q : m_ready)
        startable += std::min(q->m_tasks.size(), q->m_limit - q->m_running);
    size_t free = m_alive - m_busy;
    if (startable > free && m_alive < m_maxThreads)
        reapEnded();
    for (; startable > free && m_alive < m_maxThreads; ++free) {
        m_threads.emplace_back([this] { workerLoop(); });
        ++m_alive;
    }
    for (size_t i = 0; i < std::min(startable, m_waiting); ++i)
        m_workReady.notify_one();
}

// Joins the threads that ended for want of work. Each gave up m_mutex
// before we could see its id, so the join waits for its return only.
void WorkerPool::reapEnded()
{
    std::erase_if(m_threads, [this](std::thread& t) {
        if (std::find(m_ended.begin(), m_ended.end(), t.get_id()) == m_ended.end())
            return false;
        t.join();
        return true;
    });
    m_ended.clear();
}

void WorkerPool::workerLoop()
{
    // This thread only (Linux: a thread's nice value is its own), from the
    // main thread's (a thread started by a pool thread inherits its value).
    // Raising it needs no privilege; should it fail, the thread runs as before.
    errno = 0;
    const int nice = getpriority(PRIO_PROCESS, id_t(getpid()));
    if (errno == 0)
        setpriority(PRIO_PROCESS, pid_t(gettid()), std::min(19, nice + kBackgroundNice));
    std::unique_lock lock(m_mutex);
    for (;;) {
        if (m_ready.empty()) {
            if (m_stopping)
                break;
            ++m_waiting;
            const bool work = m_workReady.wait_for(lock, m_idleTimeout, [this] { return m_stopping || !m_ready.empty(); });
            --m_waiting;
            if (!work)
                break; // idle for m_idleTimeout: end
            continue;
        }
        // The queue at the front gives one task and goes to the back: each
        // queue with work has its turn.
        Queue& q = *m_ready.front();
        m_ready.pop_front();
        q.m_listed = false;
        Task task = std::move(q.m_tasks.front());
        q.m_tasks.pop_front();
        ++q.m_running;
        ++m_busy;
        relist(q);
        lock.unlock();
        // A task cancelled while it waited in the queue does not run.
        if (!task.cancelled || !task.cancelled->load(std::memory_order_acquire))
            task.run();
        task = {}; // its captures go on this thread, before the queue may count as idle
        lock.lock();
        --m_busy;
        --q.m_running;
        relist(q);
        if (q.m_running == 0 && q.m_tasks.empty())
            q.m_idle.notify_all();
    }
    --m_alive;
    m_ended.push_back(std::this_thread::get_id());
}

WorkerPool::Queue::Queue(WorkerPool& pool, int limit)
    : m_pool(pool)
    , m_limit(size_t(std::max(1, limit)))
{
}

void WorkerPool::Queue::push(Task task)
{
    const std::lock_guard lock(m_pool.m_mutex);
    m_tasks.push_back(std::move(task));
    m_pool.relist(*this);
    m_pool.wakeOrStart();
}

bool WorkerPool::Queue::isIdle() const
{
    const std::lock_guard lock(m_pool.m_mutex);
    return m_running == 0 && std::all_of(m_tasks.begin(), m_tasks.end(), [](const Task& t) {
               return t.cancelled && t.cancelled->load(std::memory_order_acquire);
           });
}

void WorkerPool::Queue::waitUntilIdle()
{
    std::deque<Task> dropped; // destroyed last, outside the lock
    std::unique_lock lock(m_pool.m_mutex);
    for (auto it = m_tasks.begin(); it != m_tasks.end();) {
        if (it->cancelled && it->cancelled->load(std::memory_order_acquire)) {
            dropped.push_back(std::move(*it));
            it = m_tasks.erase(it);
        } else {
            ++it;
        }
    }
    m_pool.relist(*this);
    m_idle.wait(lock, [this] { return m_running == 0 && m_tasks.empty(); });
}

void WorkerPool::Queue::close()
{
    std::deque<Task> dropped; // destroyed last, outside the lock
    std::unique_lock lock(m_pool.m_mutex);
    dropped.swap(m_tasks);
    m_pool.unlist(*this);
    m_idle.wait(lock, [this] { return m_running == 0; });
}

} // namespace hecscope
