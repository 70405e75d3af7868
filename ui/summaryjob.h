#pragma once

#include "core/diagnostic.h"

#include <QObject>
#include <QString>
#include <QVector>

#include <atomic>
#include <memory>
#include <thread>

namespace hecscope {

// What the placeholder window shows of a log: counts, and events per time
// bucket for the activity chart.
struct LogSummary {
    QString path;
    quint64 bytes = 0;
    quint64 events = 0;
    quint64 startNs = 0;
    quint64 endNs = 0;
    int capabilities = 0;
    quint64 bucketWidthNs = 1;
    QVector<double> bucketCounts; // events per bucket; bucket i starts at i * bucketWidthNs
    std::vector<Diagnostic> diagnostics;
};

// Decodes one file on a worker thread, reporting progress; cancellable.
// Signals arrive on the thread that owns the job (the UI thread).
class SummaryJob : public QObject {
    Q_OBJECT
public:
    explicit SummaryJob(QString path, QObject* parent = nullptr);
    ~SummaryJob() override;
    void start();
    void cancel();

signals:
    void progressChanged(int permille);
    void finished(const hecscope::LogSummary& summary);
    void failed(const QString& message);

private:
    void run();

    QString m_path;
    std::atomic<bool> m_cancel{false};
    std::thread m_thread;
};

} // namespace hecscope
