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
    : JobRunner(WorkerPool::shared(), maxThreads, parent)
{
}

JobRunner::JobRunner(WorkerPool& pool, int maxThreads, QObject* parent)
    : QObject(parent)
    , m_queue(pool, maxThreads)
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
    m_queue.close(); // its queued jobs dropped, its running ones waited for
    delete m_wakeNotifier;
    ::close(m_wake[0]);
    ::close(m_wake[1]);
}

void JobRunner::jobFailed(const JobContext& ctx, const char* what)
{
    std::fprintf(stderr, "hecscope: a background job failed: %s\n", what);
    ctx.post([this] { --m_running; });
}

void JobRunner::submit(const JobContext& ctx, std::function<void()> task)
{
    // The flag inside the job's state, kept alive by it.
    m_queue.push({std::move(task), std::shared_ptr<const std::atomic<bool>>(ctx.m_state, &ctx.m_state->cancelled)});
}

void JobRunner::cancel()
{
    m_current->cancelled.store(true, std::memory_order_release);
    m_current = std::make_shared<JobContext::State>();
    m_running = 0; // the old generation's bookkeeping posts are dropped
}

void JobRunner::waitForDone()
{
    m_queue.waitUntilIdle();
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
