#pragma once

#include "core/index/logindex.h"
#include "ui/document/logdocument.h"
#include "ui/jobs/jobrunner.h"
#include "ui/window/bookmarks.h"

#include <QElapsedTimer>
#include <QMainWindow>

#include <memory>

class QLabel;
class QDockWidget;
class QMenu;
class QScrollArea;
class QTableView;

namespace hecscope {

class TrackMenu;

class BookmarkModel;
class BookmarkTable;
class CapabilityTableModel;
class EventListPane;
class BandTableModel;
class CostCentreTree;
class GcTableModel;
class HeapPanel;
class HelpMenu;
class ImageExporter;
class LiveJob;
class LogDocument;
class StatisticsPane;
class ProcessPane;
class DiagnosticsPane;
class DetailsPane;
class LiveControls;
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
class Banner;
class DockLayout;
class LoadProgress;
class RecentFiles;

// The application window: lays out the timeline of the open log (a
// LogDocument, which the panes follow) with its tracks, the panes, the
// menus, toolbar and shortcuts that drive them.
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
    LiveJob* liveJob() const;
    // The open log: its index, load or live session (panes follow it).
    LogDocument* document() const { return m_doc; }
    // No window geometry was saved: the application's first start.
    bool isFirstStart() const { return m_firstStart; }

    TimelineView* timeline() const { return m_view; }
    ViewController* controller() const { return m_controller; }
    std::shared_ptr<const LogIndex> index() const;
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
    void closeEvent(QCloseEvent* e) override;
    void dragEnterEvent(QDragEnterEvent* e) override;
    void dropEvent(QDropEvent* e) override;

private:
    void addCompareSections();
    QWidget* createRunsArea();
    void followLiveCompare();
    void openReportAlone(const QString& path);
    void createActions();
    void createPanes();
    void chooseFile();
    void exportImageDialog();
    void followDocument();
    void forgetLog(const QString& path);
    void connectThreads();
    void createCompareDock();
    void chooseCompareFile();
    void fitCompareDock();

    ViewController* m_controller;
    TimelineView* m_view;
    QScrollArea* m_scroll;
    LogDocument* m_doc;
    Banner* m_banner;
    StatisticsPane* m_stats = nullptr;
    EventListPane* m_events;
    GcTableModel* m_gcModel;
    QTableView* m_gcTable;
    CapabilityTableModel* m_capModel;
    QTableView* m_capTable;
    ProcessPane* m_process;
    DiagnosticsPane* m_diagnostics;
    DetailsPane* m_details;
    BookmarkModel* m_bookmarks;
    BookmarkTable* m_bookmarkTable;
    HeapPanel* m_heapPanel;
    BandTableModel* m_bandModel;
    QTableView* m_bandTable;
    CostCentreTree* m_ccTree;
    ThreadRowsController* m_threadRows;
    ThreadsPane* m_threadsPane;
    SpansPane* m_spansPane;
    ProfilePane* m_profilePane;
    SparkSizesPane* m_sparkSizes;
    ComparePane* m_compare = nullptr;
    CompareTimeline* m_compareTimeline = nullptr;
    QLabel* m_runAHeader = nullptr;
    LoadProgress* m_progress;
    ImageExporter* m_exporter = nullptr; // File ▸ Export Image… off the UI thread
    QLabel* m_fileLabel;
    QLabel* m_timeLabel;
    RecentFiles* m_recent = nullptr;
    QMenu* m_viewMenu = nullptr;
    TrackMenu* m_trackMenu = nullptr;
    DisplayMenu* m_displayMenu = nullptr;
    DockLayout* m_docks = nullptr;
    bool m_firstStart = false;
    QElapsedTimer m_liveCompared; // when a live A was last handed to the Compare pane
    LiveControls* m_liveControls = nullptr;
    HelpMenu* m_help = nullptr;
    JobRunner m_reportRunner; // reading a .prof / -pj report; last member: destroyed (and waited for) first
};

} // namespace hecscope
