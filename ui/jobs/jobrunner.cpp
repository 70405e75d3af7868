#include "ui/jobs/jobrunner.h"

#include <QMetaObject>

#include <cstdio>

#include <utility>

namespace hecscope {

void JobContext::post(std::function<void()> f) const
{
    if (!m_runner || isCancelled())
        return;
    m_runner->enqueue(m_state, std::move(f));
}

void JobRunner::enqueue(std::shared_ptr<JobContext::State> state, std::function<void()> f)
{
    bool schedule = false;
    {
        const std::lock_guard lock(m_postMutex);
        m_posted.emplace_back(std::move(state), std::move(f));
        schedule = !std::exchange(m_drainScheduled, true);
    }
    // A queued call of a destroyed object is discarded; the runner waits
    // for its jobs before it is destroyed, so it is alive here.
    if (schedule)
        QMetaObject::invokeMethod(this, "drain", Qt::QueuedConnection);
}

void JobRunner::drain()
{
    std::deque<std::pair<std::shared_ptr<JobContext::State>, std::function<void()>>> posted;
    {
        const std::lock_guard lock(m_postMutex);
        posted.swap(m_posted);
        m_drainScheduled = false;
    }
    for (auto& [state, f] : posted)
        if (!state->cancelled.load(std::memory_order_acquire))
            f();
}

JobRunner::JobRunner(int maxThreads, QObject* parent)
    : QObject(parent)
    , m_maxThreads(size_t(std::max(1, maxThreads)))
    , m_current(std::make_shared<JobContext::State>())
{
}

JobRunner::~JobRunner()
{
    m_current->cancelled = true;
    {
        const std::lock_guard lock(m_taskMutex);
        m_stopping = true; // the workers finish what is queued (cancelled jobs return early)
    }
    m_taskReady.notify_all();
    for (std::thread& t : m_threads)
        t.join();
}

void JobRunner::jobFailed(const JobContext& ctx, const char* what)
{
    std::fprintf(stderr, "hecscope: a background job failed: %s\n", what);
    ctx.post([this] { --m_running; });
}

void JobRunner::submit(std::function<void()> task)
{
    {
        const std::lock_guard lock(m_taskMutex);
        m_tasks.push_back(std::move(task));
        if (m_threads.size() < m_maxThreads && m_tasks.size() + m_active > m_threads.size())
            m_threads.emplace_back([this] { workerLoop(); });
    }
    m_taskReady.notify_one();
}

void JobRunner::workerLoop()
{
    std::unique_lock lock(m_taskMutex);
    for (;;) {
        m_taskReady.wait(lock, [this] { return m_stopping || !m_tasks.empty(); });
        if (m_tasks.empty())
            return; // stopping, nothing left
        std::function<void()> task = std::move(m_tasks.front());
        m_tasks.pop_front();
        ++m_active;
        lock.unlock();
        task();
        task = nullptr; // its captures go on this thread, before the idle check
        lock.lock();
        --m_active;
        if (m_active == 0 && m_tasks.empty())
            m_idle.notify_all();
    }
}

void JobRunner::cancel()
{
    m_current->cancelled.store(true, std::memory_order_release);
    m_current = std::make_shared<JobContext::State>();
    m_running = 0; // the old generation's bookkeeping posts are dropped
}

void JobRunner::waitForDone()
{
    {
        std::unique_lock lock(m_taskMutex);
        m_idle.wait(lock, [this] { return m_active == 0 && m_tasks.empty(); });
    }
    drain();
}

JobContext JobRunner::context() const
{
    JobContext ctx;
    ctx.m_state = m_current;
    ctx.m_runner = const_cast<JobRunner*>(this);
    return ctx;
}

} // namespace hecscope
