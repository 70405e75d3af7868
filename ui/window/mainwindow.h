#pragma once

#include "core/index/logindex.h"
#include "core/stats/stats.h"
#include "core/time/viewrange.h"
#include "ui/jobs/jobrunner.h"

#include <QElapsedTimer>
#include <QMainWindow>
#include <QSize>

#include <memory>
#include <optional>
#include <vector>

class QAction;
class QLabel;
class QDockWidget;
class QMenu;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QScrollArea;
class QListWidget;
class QTableView;
class QTimer;

namespace hecscope {

class TrackMenu;

class BookmarkModel;
class CapabilityTableModel;
class EventListPane;
class BandTableModel;
class CostCentreTree;
class GcTableModel;
class HeapPanel;
class HelpMenu;
class ImageExporter;
class LoadJob;
class LiveJob;
class LiveControls;
struct LiveStatus;
class TimelineView;
class ThreadRowsController;
class ThreadsPane;
class SpansPane;
class ProfilePane;
class SparkSizesPane;
class ComparePane;
class CompareTimeline;
class CompareSection;
class ViewController;
class DisplayMenu;

// The application window: the timeline of the loaded log with its tracks,
// statistics for the whole run or the selected range, loading progress with
// Cancel, and the menus, toolbar and shortcuts that drive them.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;
    void openFile(const QString& path);
    // Follows a live eventlog (SourceAddress text: a growing file, a named
    // pipe, "-", unix:PATH, tcp:HOST:PORT), recording it to `recordPath`
    // if given. What is on screen stays if the source cannot be opened.
    void openLive(const QString& source, const QString& recordPath = QString());
    LiveControls* liveControls() const { return m_liveControls; }
    LiveJob* liveJob() const { return m_live.get(); }
    // No window geometry was saved: the application's first start.
    bool isFirstStart() const { return m_firstStart; }

    TimelineView* timeline() const { return m_view; }
    ViewController* controller() const { return m_controller; }
    std::shared_ptr<const LogIndex> index() const { return m_index; }
    QString statisticsText() const;
    EventListPane* eventList() const { return m_events; }
    QTableView* gcTable() const { return m_gcTable; }
    QTableView* capabilityTable() const { return m_capTable; }
    QString processText() const;
    HelpMenu* helpMenu() const { return m_help; }
    QString detailsText() const;
    BookmarkModel* bookmarks() const { return m_bookmarks; }
    QTableView* bookmarkTable() const { return m_bookmarkTable; }
    HeapPanel* heapPanel() const { return m_heapPanel; }
    QTableView* bandTable() const { return m_bandTable; }
    BandTableModel* bandModel() const { return m_bandModel; }
    CostCentreTree* costCentreTree() const { return m_ccTree; }
    ThreadRowsController* threadRows() const { return m_threadRows; }
    ThreadsPane* threadsPane() const { return m_threadsPane; }
    SpansPane* spansPane() const { return m_spansPane; }
    ProfilePane* profilePane() const { return m_profilePane; }
    SparkSizesPane* sparkSizesPane() const { return m_sparkSizes; }
    ComparePane* comparePane() const { return m_compare; }
    // A pane's part of the comparison ("gc", "threads", …: its dock's name);
    // null for a pane without figures.
    CompareSection* compareSection(const QString& dock) const;
    // The dock holding `pane` (a pane may sit in a ComparableView in it).
    static QDockWidget* dockOf(const QWidget* pane);
    CompareTimeline* compareTimeline() const { return m_compareTimeline; }
    // Compares the log on screen (as soon as there is one) with `path`, in
    // the Compare pane.
    void compareWith(const QString& path);
    ImageExporter* exporter() const { return m_exporter; }
    // A .prof or -pj report beside the open log (File ▸ Open Profile…); read
    // off the UI thread. openFile() opens one alone.
    void openProfile(const QString& path);
    void addBookmark();
    // Tracks top to bottom by id; ids left out keep their place after the
    // named ones. Saved with the window's settings (TrackMenu).
    void setTrackOrder(const QStringList& names);
    QStringList diagnostics() const;
    QString bannerText() const; // problems with the file, empty when none

signals:
    void loadFinished();    // the index is shown (or the file could not be opened)
    void liveUpdateShown(); // a live session's update is on screen (every pane has its index)
    void partialShown();    // a long load's index so far is on screen
    void logCleared();      // every pane let go of the log on screen: a new file is a log and replaces it
    void statisticsShown(); // whole-run statistics are in the Statistics pane
    void reportShown();     // a .prof / -pj report was read (or could not be)

protected:
    void showEvent(QShowEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;
    bool event(QEvent* e) override;
    void closeEvent(QCloseEvent* e) override;
    void dragEnterEvent(QDragEnterEvent* e) override;
    void dropEvent(QDropEvent* e) override;

private:
    void addCompareSections();
    void openReportAlone(const QString& path);
    // No saved window state: the first show sizes the docks so the timeline
    // gets at least two thirds of the width.
    bool m_firstLayout = false;
    bool m_settling = false; // the first half second after the first show: resizes lay the panes out again
    QSize m_laidOutFor;      // the window's size the first layout was made for
    // The panes' layout: a layout saved by an older version (other groups)
    // is not restored. 2: the tables below the timeline, two groups right.
    static constexpr int kLayoutVersion = 2;
    static constexpr int kUsefulPaneHeight = 240; // px: a bottom pane brought forward gets at least this
    void createActions();
    void createPanes();
    void showProcess();
    void chooseFile();
    void exportImageDialog();
    void cancelLoad();
    void clearLog(const QString& path);
    void showDetails(const QString& details);
    void showIndex(std::shared_ptr<const LogIndex> index);
    void showPartialIndex(std::shared_ptr<const LogIndex> index);
    // Hands the index on screen to every pane: anew, or `grown` (a live
    // session's newer snapshot of the same log: views and choices stay).
    void applyIndex(std::shared_ptr<ByteSource> events, bool grown);
    void showLiveUpdate(std::shared_ptr<const LogIndex> index, const LiveStatus& status);
    // Above the timeline: a plain note, news (a live session's state), a
    // problem that leaves the log usable, one that stops it.
    enum class BannerKind { Note, Info, Warning, Error };
    void showBanner(const QString& text, BannerKind kind);
    void showStatistics(const RangeStats& stats);
    void showFailure(const QString& message);
    void showSelectionStatistics();
    void addRecent(const QString& path);
    void rebuildRecentMenu();
    void updateHistoryActions();
    void connectThreads();
    void createSparkSizesDock();
    void createCompareDock();
    void chooseCompareFile();
    void fitCompareDock();
    void arrangeDocks();
    void firstLayout();
    void growBottomPanes(QDockWidget* shown);
    void threadContextMenu(const QString& track, int row, QPoint local, QPoint global);
    void chooseThread(uint32_t number, bool filterEvents);
    void showSpanIssues(const std::shared_ptr<const UserSpans>& spans);

    ViewController* m_controller;
    TimelineView* m_view;
    QScrollArea* m_scroll;
    QLabel* m_banner;
    QPlainTextEdit* m_stats;
    EventListPane* m_events;
    GcTableModel* m_gcModel;
    QTableView* m_gcTable;
    CapabilityTableModel* m_capModel;
    QTableView* m_capTable;
    QPlainTextEdit* m_process;
    QListWidget* m_diagnostics;
    QPlainTextEdit* m_details;
    BookmarkModel* m_bookmarks;
    QTableView* m_bookmarkTable;
    HeapPanel* m_heapPanel;
    BandTableModel* m_bandModel;
    QTableView* m_bandTable;
    CostCentreTree* m_ccTree;
    ThreadRowsController* m_threadRows;
    ThreadsPane* m_threadsPane;
    SpansPane* m_spansPane;
    ProfilePane* m_profilePane;
    QDockWidget* m_profileDock = nullptr;
    SparkSizesPane* m_sparkSizes = nullptr;
    ComparePane* m_compare = nullptr;
    CompareTimeline* m_compareTimeline = nullptr;
    QLabel* m_runAHeader = nullptr;
    QProgressBar* m_progress;
    QPushButton* m_cancel;
    ImageExporter* m_exporter = nullptr; // File ▸ Export Image… off the UI thread
    QLabel* m_fileLabel;
    QLabel* m_timeLabel;
    QMenu* m_recentMenu = nullptr;
    QAction* m_back = nullptr;
    QAction* m_forward = nullptr;
    QAction* m_zoomSelection = nullptr;
    QMenu* m_viewMenu = nullptr;
    TrackMenu* m_trackMenu = nullptr;
    DisplayMenu* m_displayMenu = nullptr;
    QString m_path;
    bool m_firstStart = false;
    bool m_partialShown = false; // the index on screen is a long load's partial one
    QString m_loadingPath; // a file being opened that has not yet shown itself to be a log
    QString m_placeholderBefore; // what the tracks said before it (restored if it is not one)
    std::unique_ptr<LoadJob> m_job;
    std::unique_ptr<LiveJob> m_live; // a live session, while its log is on screen
    QElapsedTimer m_liveCompared; // when a live A was last handed to the Compare pane
    LiveControls* m_liveControls = nullptr;
    bool m_liveDisconnected = false; // the banner says the live socket closed
    JobRunner m_liveStatsRunner; // whole-run statistics of each live update
    // Frees replaced snapshots of a growing log (hundreds of MB each) off
    // the UI thread.
    JobRunner m_disposer;
    void dispose(std::shared_ptr<const LogIndex> old);
    std::vector<std::unique_ptr<LoadJob>>
        m_retired; // cancelled, finishing on their own
    HelpMenu* m_help = nullptr;
    QTimer* m_reaper = nullptr; // drops m_retired's finished jobs while there are any
    std::shared_ptr<const LogIndex> m_index;
    std::optional<RangeStats> m_wholeStats;
    std::optional<std::pair<ViewRange, std::optional<ViewRange>>> m_keepView; // across a reload
    // Range statistics of the selection, off the UI thread: only the latest
    // lands. Last member: destroyed (and waited for) first.
    JobRunner m_statsRunner;
    JobRunner m_reportRunner; // reading a .prof / -pj report
};

} // namespace hecscope
