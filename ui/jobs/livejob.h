#pragma once

#include "core/live/livesession.h"
#include "ui/jobs/loadjob.h" // the metatype of std::shared_ptr<const LogIndex>

#include <QObject>
#include <QString>

#include <memory>

Q_DECLARE_METATYPE(hecscope::LiveStatus)

namespace hecscope {

// A LiveSession for the window: its updates arrive on the UI thread as
// signals, the newest only (a snapshot not yet shown is replaced by a newer
// one, so a busy window never falls further behind). Destroying the job
// cancels the session and waits for its thread (a read waits at most 50 ms).
class LiveJob : public QObject {
    Q_OBJECT
public:
    explicit LiveJob(QObject* parent = nullptr);
    ~LiveJob() override;
    // False and `error` when the source or the recording cannot be opened.
    bool start(const SourceAddress& address, LiveOptions options, QString* error);
    void stop();
    void reconnect();
    bool sendControl(ControlCommand command, QString* error);
    // LiveOptions::keepNs from now on.
    void setKeep(uint64_t ns);
    bool saveReceived(const QString& path, QString* error) const;

    bool isRunning() const { return m_session && !isFinal(m_status.state); }
    bool isSocket() const { return m_session && m_session->isSocket(); }
    QString sourceText() const { return m_source; }
    QString recordPath() const;
    // The recording: the event list reads raw events from it.
    std::shared_ptr<ByteSource> recording() const { return m_session ? m_session->recording() : nullptr; }
    const LiveStatus& status() const { return m_status; }

signals:
    // `oldestNewBytesAt`: when the oldest bytes first in this index arrived
    // (steady clock, ns since its epoch), for the latency benchmark.
    void updated(std::shared_ptr<const hecscope::LogIndex> index, const hecscope::LiveStatus& status,
                 qint64 oldestNewBytesAt);

private:
    void deliver();
    std::unique_ptr<LiveSession> m_session; // its thread calls deliver() through the event loop
    LiveStatus m_status;
    QString m_source;
};

} // namespace hecscope
