#include "ui/jobs/jobrunner.h"

#include <QCoreApplication>
#include <QMetaObject>

namespace hecscope {

void JobContext::post(std::function<void()> f) const
{
    QObject* runner = m_runner.data();
    if (!runner || isCancelled())
        return;
    // Posted events of a destroyed object are discarded; the runner waits
    // for its jobs before it is destroyed, so `runner` is alive here.
    QMetaObject::invokeMethod(
        runner,
        [state = m_state, f = std::move(f)] {
            if (!state->cancelled.load(std::memory_order_acquire))
                f();
        },
        Qt::QueuedConnection);
}

JobRunner::JobRunner(int maxThreads, QObject* parent)
    : QObject(parent)
    , m_current(std::make_shared<JobContext::State>())
{
    m_pool.setMaxThreadCount(maxThreads);
}

JobRunner::~JobRunner()
{
    m_current->cancelled = true;
    m_pool.waitForDone();
}

void JobRunner::cancel()
{
    m_current->cancelled.store(true, std::memory_order_release);
    m_current = std::make_shared<JobContext::State>();
    m_running = 0; // the old generation's bookkeeping posts are dropped
}

void JobRunner::waitForDone()
{
    m_pool.waitForDone();
    QCoreApplication::sendPostedEvents(this);
}

JobContext JobRunner::context() const
{
    JobContext ctx;
    ctx.m_state = m_current;
    ctx.m_runner = const_cast<JobRunner*>(this);
    return ctx;
}

} // namespace hecscope
