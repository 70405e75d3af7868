#pragma once

#include <QMainWindow>

#include <memory>

class QLabel;
class QProgressBar;
class QPushButton;
class QCustomPlot;

namespace hecscope {

class SummaryJob;
struct LogSummary;

// The application window. Until the timeline lands (issue #4) it shows what
// the decoder found in a log and its event rate over time.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;
    void openFile(const QString& path);

private:
    void chooseFile();
    void showSummary(const LogSummary& summary);
    void showFailure(const QString& message);

    QLabel* m_summary;
    QProgressBar* m_progress;
    QPushButton* m_cancel;
    QCustomPlot* m_plot;
    std::unique_ptr<SummaryJob> m_job;
};

} // namespace hecscope
