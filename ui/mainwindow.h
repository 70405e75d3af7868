#pragma once

#include "core/logindex.h"
#include "core/stats.h"

#include <QMainWindow>

#include <memory>
#include <vector>

class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QCustomPlot;

namespace hecscope {

class LoadJob;

// The application window. Until the timeline lands (issue #4) it shows the
// loaded index as `hecscope info` prints it, and how busy the capabilities
// were over time (running and GC), read from the index.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;
    void openFile(const QString& path);

private:
    void chooseFile();
    void cancelLoad();
    void showIndex(std::shared_ptr<const LogIndex> index);
    void showStatistics(const RangeStats& stats);
    void showFailure(const QString& message);
    void plotActivity();

    QLabel* m_title;
    QPlainTextEdit* m_text;
    QProgressBar* m_progress;
    QPushButton* m_cancel;
    QCustomPlot* m_plot;
    QString m_path;
    std::unique_ptr<LoadJob> m_job;
    std::vector<std::unique_ptr<LoadJob>> m_retired; // cancelled, finishing on their own
    std::shared_ptr<const LogIndex> m_index;
};

} // namespace hecscope
