#pragma once

#include "ui/jobs/jobrunner.h"
#include "ui/timeline/exportchoices.h"

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>

class QProgressBar;
class QStatusBar;

namespace hecscope {

// Writes the window's exports off the UI thread (JobRunner): the request
// (a band selection can take a while) and the drawing and writing on a
// worker, only the charts recorded on this thread in between (QCustomPlot
// is a widget). Progress and the outcome go to the status bar; a new
// export cancels one still running.
class ImageExporter : public QObject {
    Q_OBJECT
public:
    explicit ImageExporter(QStatusBar* bar, QObject* parent = nullptr);

    void start(std::shared_ptr<const LogIndex> index, const ExportChoices& choices, const RenderOptions& base);
    bool isBusy() const { return m_runner.isBusy(); }

signals:
    void exportFinished(const QString& path, const QString& error); // error empty: written

private:
    void finish(const QString& path, const QString& error);

    QPointer<QStatusBar> m_bar;
    QPointer<QProgressBar> m_progress;
    QElapsedTimer m_clock;
    JobRunner m_runner; // last: waited for first
};

} // namespace hecscope
