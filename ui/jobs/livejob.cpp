#include "ui/jobs/livejob.h"

#include "ui/jobs/workerpool.h"

#include <QMetaObject>

namespace hecscope {

LiveJob::LiveJob(QObject* parent)
    : QObject(parent)
{
}

LiveJob::~LiveJob()
{
    m_session.reset(); // joins its thread: no call of deliver() after this
}

bool LiveJob::start(const SourceAddress& address, LiveOptions options, QString* error)
{
    std::string why;
    std::unique_ptr<LiveSource> source = openLiveSource(address, why);
    if (!source) {
        *error = QString::fromStdString(why);
        return false;
    }
    m_source = QString::fromStdString(address.text());
    options.niceIncrement = WorkerPool::kBackgroundNice; // below the window, as its jobs are
    // Posted to this object's thread; queued calls still pending when the
    // job is destroyed are dropped with it.
    m_session = std::make_unique<LiveSession>(std::move(source), std::move(options), [this] {
        QMetaObject::invokeMethod(this, &LiveJob::deliver, Qt::QueuedConnection);
    });
    if (!m_session->start(why)) {
        m_session.reset();
        *error = QString::fromStdString(why);
        return false;
    }
    return true;
}

void LiveJob::deliver()
{
    if (!m_session)
        return;
    std::optional<LiveUpdate> u = m_session->takeUpdate();
    if (!u)
        return; // an earlier call took it
    m_status = u->status;
    emit updated(std::move(u->index), m_status,
                 qint64(std::chrono::duration_cast<std::chrono::nanoseconds>(u->oldestNewBytesAt.time_since_epoch()).count()));
}

void LiveJob::stop()
{
    if (m_session)
        m_session->stop();
}

void LiveJob::reconnect()
{
    if (m_session)
        m_session->reconnect();
}

bool LiveJob::sendControl(ControlCommand command, QString* error)
{
    std::string why = "no session";
    if (m_session && m_session->sendControl(command, why))
        return true;
    *error = QString::fromStdString(why);
    return false;
}

bool LiveJob::saveReceived(const QString& path, QString* error) const
{
    std::string why = "no session";
    if (m_session && m_session->saveReceived(path.toStdString(), why))
        return true;
    *error = QString::fromStdString(why);
    return false;
}

void LiveJob::setKeep(uint64_t ns)
{
    if (m_session)
        m_session->setKeep(ns);
}

QString LiveJob::recordPath() const
{
    return m_session ? QString::fromStdString(m_session->recordPath()) : QString();
}

} // namespace hecscope
