#pragma once

#include "core/compare/comparison.h"
#include "core/compare/runfigures.h"
#include "core/index/logindex.h"
#include "core/io/bytesource.h"
#include "ui/jobs/jobrunner.h"
#include "ui/jobs/loadjob.h" // (the index's metatype, for runBReady)

#include <QColor>
#include <QWidget>

#include <memory>
#include <optional>

class QCheckBox;
class QComboBox;
class QCustomPlot;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;
class QToolButton;

namespace hecscope {

class LogDocument;

class CompareFiguresModel;
class FlameGraphView;

// The two runs' colours wherever both are drawn: names, chips, curves.
QColor runColour(int side); // 0: A, 1: B
QColor runTint(int side);   // a light background of that colour (headers)
QString runChip(int side);  // rich text: the run's letter, white on its colour
// A plot of both runs: the legend in a row of its own above the plot, so
// that it is never over a curve.
QCustomPlot* newComparePlot();
// The GC pauses of both runs (either may be none): how many fell in each
// power-of-two range, A's bars beside B's.
QCustomPlot* newPausePlot();
void drawPauseDistributions(QCustomPlot* plot, const std::vector<uint64_t>* a, const std::vector<uint64_t>* b);

// Comparing the log on screen (A) with another run (B: an eventlog, .hp,
// .prof or -pj report, a document of the pane's own that it follows as the
// panes follow the window's): every figure of
// both side by side, sortable by the change (`hecscope diff`'s figures);
// a differential flame graph (one run's frames coloured by how much they
// grew or shrank in the other); the two heap profiles on one scale. Notes
// say what cannot be compared. B's load and the figures run on workers
// (the UI thread only lays out what they return), with progress and a
// cancel.
class ComparePane : public QWidget {
    Q_OBJECT
public:
    explicit ComparePane(QWidget* parent = nullptr);
    ~ComparePane() override;

    // The run on screen: its file, index and bytes (thread segments and
    // spark events of a range are read back from them); none clears A.
    void setRunA(const QString& path, std::shared_ptr<const LogIndex> index, std::shared_ptr<ByteSource> source);
    // The document's log is A once loaded (a live one is handed over by
    // the window, throttled), none once cleared.
    void follow(const LogDocument* doc);
    // A cost-centre report (.prof or -pj) on screen alone as A: its figures
    // are read from the file (on the worker).
    void setReportA(const QString& path);
    // Opens `path` as B and compares it with A (as soon as A is there).
    void compareWith(const QString& path);
    void closeComparison();
    // The selection: the figures of that stretch of each run (B's times
    // as the stacked timelines place them); none: the whole runs.
    void setRange(std::optional<ViewRange> a, std::optional<ViewRange> b);
    void cancel();
    bool isBusy() const { return m_loadingB || m_runner.isBusy(); } // loading or comparing
    // B's document: its load, its index (or report) and its problems.
    const LogDocument* runB() const { return m_runB.get(); }

    QString pathA() const { return m_pathA; }
    QString pathB() const { return m_pathB; }
    // The model of the figures shown (panes show their part of it).
    CompareFiguresModel* figuresModel() const { return m_model; }
    // A run's GC pauses (0: A, 1: B; none before its figures are there).
    const std::vector<uint64_t>* pauses(int side) const
    {
        const auto& run = side == 0 ? m_a : m_b;
        return m_comparison && run ? &run->figures.pauses : nullptr;
    }
    // What is shown (null before both runs are there).
    const Comparison* comparison() const { return m_comparison ? m_comparison.get() : nullptr; }
    QTabWidget* tabs() const { return m_tabs; }
    QTableView* table() const { return m_table; }
    FlameGraphView* flameGraph() const { return m_flame; }
    QTableView* costCentreChanges() const { return m_ccTable; } // beside the flame graph
    QCustomPlot* heapPlot() const { return m_heapPlot; }
    QCustomPlot* pausePlot() const { return m_pausePlot; }
    QString notesText() const;
    QString problemText() const; // B could not be opened, or what went wrong

signals:
    void comparisonShown(); // both runs' figures are on screen (or the failure is said)
    void stateChanged(); // shown, cleared, loading: comparison() may have changed
    void compareRequested(); // "Compare With…" in the pane: the window asks for a file
    // B is a log (not a report) with a timeline to show under A's; sent with
    // each comparison shown. runBCleared: there is none any more.
    void runBReady(const QString& path, std::shared_ptr<const hecscope::LogIndex> index,
                   std::shared_ptr<hecscope::ByteSource> source);
    void runBCleared();

private:
    struct Side {
        RunFigures figures;
        std::shared_ptr<const CostCentreProfile> profile;
        HeapCurves heap;
        // B's index and bytes (its timeline); none for a report.
        std::shared_ptr<const LogIndex> index;
        std::shared_ptr<ByteSource> source;
    };
    struct Result {
        std::shared_ptr<const Side> a, b;
        std::shared_ptr<const Comparison> comparison;
        QString error;
        const LogIndex* indexA = nullptr; // the A whose figures `a` are (or none)
        std::optional<ViewRange> rangeA, rangeB; // what the comparison covers (none: whole runs)
        // The differential flame graph's profiles (the selection's samples
        // where both runs are logs, else whole runs) and their matches
        // (matchedInclusive), made on the worker: B's nodes in A, A's in B.
        std::shared_ptr<const CostCentreProfile> flameA, flameB;
        std::shared_ptr<const std::vector<int64_t>> bInA, aInB;
    };
    void followRunB();
    void dropB(const QString& error);
    void refresh();
    void show(Result result);
    void showFigures();
    void showFlame();
    void showHeap();
    void showPauses();
    void exportImage();
    void copyCsv();
    void updateHeader();

    QString m_pathA, m_pathB;
    std::shared_ptr<const LogIndex> m_indexA;
    std::shared_ptr<ByteSource> m_sourceA;
    bool m_reportA = false; // A is m_pathA's report, with no index
    std::shared_ptr<const Side> m_a, m_b;
    std::shared_ptr<const Comparison> m_comparison;
    std::shared_ptr<const CostCentreProfile> m_flameA, m_flameB;
    std::shared_ptr<const std::vector<int64_t>> m_bInA, m_aInB;
    QString m_error;
    // B is loading, or its figures are being taken: a new A waits for it
    // instead of cancelling it.
    bool m_loadingB = false;
    bool m_reportB = false; // B is m_pathB's report, with no index
    std::optional<ViewRange> m_rangeA, m_rangeB;

    QLabel* m_nameA = nullptr;
    QLabel* m_nameB = nullptr;
    QProgressBar* m_progress = nullptr;
    QToolButton* m_cancel = nullptr;
    QLabel* m_notes = nullptr;
    QLabel* m_empty = nullptr;
    QWidget* m_emptyBox = nullptr;
    QTabWidget* m_tabs = nullptr;
    QComboBox* m_group = nullptr;
    QLineEdit* m_filter = nullptr;
    QCheckBox* m_changedOnly = nullptr;
    CompareFiguresModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    QTableView* m_table = nullptr;
    QComboBox* m_flameMode = nullptr;
    QLabel* m_flameLegend = nullptr;
    FlameGraphView* m_flame = nullptr;
    QTableView* m_ccTable = nullptr;
    QComboBox* m_band = nullptr;
    QCustomPlot* m_heapPlot = nullptr;
    QCustomPlot* m_pausePlot = nullptr;
    QPushButton* m_export = nullptr;
    QPushButton* m_copy = nullptr;
    QPushButton* m_close = nullptr;
    // B (DocumentRole::Compared): the pane's own, as B is the comparison's;
    // the window gets B's timeline from runBReady.
    std::unique_ptr<LogDocument> m_runB;
    JobRunner m_runner; // last: destroyed (and waited for) first
};

} // namespace hecscope
