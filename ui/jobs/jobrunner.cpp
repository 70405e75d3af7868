#include "ui/jobs/jobrunner.h"

#include <QMetaObject>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

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
    // The runner waits for its jobs before it closes the pipe.
    if (schedule) {
        const char byte = 1;
        while (::write(m_wake[1], &byte, 1) < 0 && errno == EINTR) {
        }
    }
}

void JobRunner::drain()
{
    std::deque<std::pair<std::shared_ptr<JobContext::State>, std::function<void()>>> posted;
    {
        const std::lock_guard lock(m_postMutex);
        if (m_drainScheduled) { // one wake byte is in the pipe: take it
            char byte;
            while (::read(m_wake[0], &byte, 1) < 0 && errno == EINTR) {
            }
        }
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
    // A failed pipe is fatal: without it no result would ever arrive.
    if (::pipe2(m_wake, O_CLOEXEC) != 0)
        qFatal("hecscope: cannot create the job runner's pipe: %s", std::strerror(errno));
    m_wakeNotifier = new QSocketNotifier(m_wake[0], QSocketNotifier::Read, this);
    connect(m_wakeNotifier, &QSocketNotifier::activated, this, &JobRunner::drain);
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
    delete m_wakeNotifier;
    ::close(m_wake[0]);
    ::close(m_wake[1]);
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
