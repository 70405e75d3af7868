#pragma once

#include "core/index/logindex.h"
#include "core/stats/stats.h"

#include "core/io/bytesource.h"
#include "ui/jobs/jobrunner.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <memory>

namespace hecscope {

// Loads and indexes one file on a worker thread. Signals arrive on the
// thread that owns the job (the UI thread), in stages: progress while
// decoding, then the index (enough for the timeline), then the whole-run
// statistics. cancel() takes effect within one 1 MiB chunk (about a
// millisecond) and never blocks; a cancelled job emits nothing more.
// Errors and truncation are diagnostics inside the index, with everything
// decoded before them.
class LoadJob : public QObject {
    Q_OBJECT
public:
    explicit LoadJob(QString path, QObject* parent = nullptr);
    // Cancels and waits for the worker (a few milliseconds at most: every
    // stage, the finish of a load included, checks for cancellation).
    ~LoadJob() override;
    // Before start: no whole-run statistics after the index
    // (statisticsReady never comes), for a run whose figures are taken
    // elsewhere (the Compare pane's B).
    void setStatistics(bool on) { m_statistics = on; }
    void start();
    void cancel();
    // Its job is running, or queued on the pool and not cancelled (a job
    // cancelled before a worker took it never runs).
    bool isRunning() const { return !m_runner.isIdle(); }
    // The open file the index was read from, once indexReady came: the
    // event list reads its pages from it (a replaced or grown file cannot
    // change what the index describes).
    std::shared_ptr<ByteSource> source() const { return m_source; }
    // The open file, from the first partialIndex on (before indexReady).
    std::shared_ptr<ByteSource> partialSource() const { return m_partialSource; }
    // Bytes the worker has decoded so far (where it stopped, once done).
    quint64 bytesRead() const { return m_bytesRead; }

signals:
    // The file is an eventlog (its header decoded) or a .hp file: what is
    // on screen can make way for it. A file that fails before this was
    // never a log at all.
    void accepted();
    void progressChanged(quint64 bytesRead, quint64 bytesTotal);
    // Progressive open: the index of what was read so far (a snapshot), a
    // few times early in a long load; indexReady follows with the whole.
    void partialIndex(std::shared_ptr<const hecscope::LogIndex> index);
    void indexReady(std::shared_ptr<const hecscope::LogIndex> index);
    void statisticsReady(const hecscope::RangeStats& stats);
    void failed(const QString& message); // the file could not be opened at all
    void profileReportFound();           // the file is a .prof / -pj report, not an eventlog: nothing was loaded

private:
    struct Loaded {
        std::shared_ptr<const LogIndex> index;
        std::shared_ptr<ByteSource> source;
        QString error;
    };
    Loaded run(const JobContext& ctx);

    QString m_path;
    bool m_statistics = true; // (set before start: the worker reads it after)
    std::atomic<quint64> m_bytesRead{0};
    std::shared_ptr<ByteSource> m_source;
    std::shared_ptr<ByteSource> m_partialSource;
    JobRunner m_runner; // last member: destroyed (and waited for) first
};

} // namespace hecscope

Q_DECLARE_METATYPE(std::shared_ptr<const hecscope::LogIndex>)
