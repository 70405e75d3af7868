#include "ui/window/mainwindow.h"

#include "ui/jobs/settings.h"
#include "ui/window/trackmenu.h"

#include "ui/formatting.h"
#include "core/profile/profreport.h"
#include "core/threads/userspans.h"
#include "ui/compare/comparepane.h"
#include "ui/compare/comparetimeline.h"
#include "ui/window/bookmarks.h"
#include "ui/events/eventlistpane.h"
#include "ui/heap/heappanel.h"
#include "ui/timeline/imageexport.h"
#include "ui/window/displaymenu.h"
#include "ui/window/docklayout.h"
#include "ui/window/exportdialog.h"
#include "ui/window/focusreturn.h"
#include "ui/window/helpmenu.h"
#include "ui/window/imageexporter.h"
#include "ui/jobs/livejob.h"
#include "ui/window/livecontrols.h"
#include "ui/window/loadprogress.h"
#include "ui/window/logpanes.h"
#include "ui/models/tablemodels.h"
#include "ui/profile/profilepane.h"
#include "ui/sparks/sparksizespane.h"
#include "ui/threads/threadrowscontroller.h"
#include "ui/threads/spanspane.h"
#include "ui/threads/threadspane.h"
#include "ui/timeline/timelineview.h"
#include "ui/timeline/viewactions.h"
#include "ui/document/viewcontroller.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDialog>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QKeySequence>
#include <QLineEdit>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QScrollArea>
#include <QScreen>
#include <QStatusBar>
#include <QTableView>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>

#include <span>
#include <utility>

namespace hecscope {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_controller(new ViewController(this))
    , m_view(new TimelineView(m_controller))
    , m_scroll(new QScrollArea)
    , m_doc(new LogDocument(this))
    , m_banner(new Banner)
    , m_events(new EventListPane)
    , m_gcModel(new GcTableModel(this))
    , m_gcTable(new QTableView)
    , m_capModel(new CapabilityTableModel(this))
    , m_capTable(new QTableView)
    , m_process(new ProcessPane)
    , m_diagnostics(new DiagnosticsPane)
    , m_details(new DetailsPane)
    , m_bookmarks(new BookmarkModel(this))
    , m_bookmarkTable(new BookmarkTable(m_bookmarks))
    , m_heapPanel(new HeapPanel)
    , m_bandModel(new BandTableModel(this))
    , m_bandTable(new QTableView)
    , m_ccTree(new CostCentreTree)
    , m_threadRows(new ThreadRowsController(this))
    , m_threadsPane(new ThreadsPane(m_threadRows))
    , m_spansPane(new SpansPane)
    , m_profilePane(new ProfilePane)
    , m_sparkSizes(new SparkSizesPane)
    , m_progress(new LoadProgress)
    , m_fileLabel(new QLabel)
    , m_timeLabel(new QLabel)
{
    qRegisterMetaType<std::shared_ptr<const LogIndex>>();
    qRegisterMetaType<RangeStats>();
    setWindowTitle(tr("Hecscope"));
    setAcceptDrops(true);
    // First start: 90 % of the screen (main() shows it maximised), the
    // timeline first.
    if (const QScreen* screen = QGuiApplication::primaryScreen()) {
        const QSize avail = screen->availableSize();
        resize(avail.width() * 9 / 10, avail.height() * 9 / 10);
    } else {
        resize(1600, 1000);
    }

    m_stats = new StatisticsPane(m_controller, m_spansPane, m_capModel);
    connect(m_progress, &LoadProgress::cancelled, this, [this] { statusBar()->showMessage(tr("Loading cancelled"), 5000); });

    m_scroll->setWidget(m_view);
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);

    auto* central = new QWidget;
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_banner);
    layout->addWidget(m_progress);
    layout->addWidget(createRunsArea(), 1);
    setCentralWidget(central);

    // Its toolbar and tabs would ask for 300 pixels: a pane below the
    // timeline may be made smaller than that (its views scroll).
    m_profilePane->setMinimumHeight(140);
    connect(m_profilePane, &ProfilePane::highlightChanged, m_view, &TimelineView::setTrackState<ProfileHighlight>);
    connect(m_events, &EventListPane::eventChosen, this, [this](uint64_t t, const QString& details) {
        // Each jump to an event (a search hit, a row) centres the timeline
        // on it at the current zoom and marks it; Details describes it.
        m_details->describe(details);
        m_view->setCursorTime(t);
        m_view->setHighlight(t);
        m_controller->centreOn(t);
    });
    m_view->setPlaceholder(m_doc->placeholder());
    connect(m_view, &TimelineView::clicked, m_events, &EventListPane::selectNearest);
    connect(m_view, &TimelineView::itemClicked, m_details, &DetailsPane::describe);

    m_exporter = new ImageExporter(statusBar(), this);
    statusBar()->addPermanentWidget(m_fileLabel);
    statusBar()->addPermanentWidget(m_timeLabel);
    m_timeLabel->setMinimumWidth(140);

    createActions();
    createPanes();
    createCompareDock();
    addCompareSections();
    m_docks = new DockLayout(this);
    m_docks->arrange();

    QMenu* search = menuBar()->addMenu(tr("&Search"));
    QAction* find = search->addAction(tr("&Find…"), this, [this] {
        dockOf(m_events)->show();
        dockOf(m_events)->raise();
        m_events->searchField()->setFocus(Qt::ShortcutFocusReason);
        m_events->searchField()->selectAll();
    });
    find->setShortcut(QKeySequence::Find);
    search->addSeparator();
    QAction* bookmark = search->addAction(tr("Add &Bookmark"), this, &MainWindow::addBookmark);
    bookmark->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_D));
    QAction* findNext = search->addAction(tr("Find &Next"), m_events, &EventListPane::next);
    findNext->setShortcut(QKeySequence::FindNext);
    QAction* findPrevious = search->addAction(tr("Find &Previous"), m_events, &EventListPane::previous);
    findPrevious->setShortcut(QKeySequence::FindPrevious);
    m_help = new HelpMenu(this);

    connect(m_view, &TimelineView::hoverTimeChanged, this,
            [this](std::optional<uint64_t> t) {
                m_timeLabel->setText(t ? tr("cursor %1").arg(timeText(*t))
                                       : QString());
            });
    followDocument();

    m_firstStart = !restoreGeometry(Settings::value(QStringLiteral("window/geometry")).toByteArray());
    m_docks->restore(Settings::value(QStringLiteral("window/state")).toByteArray());
    m_trackMenu->restore();
}

MainWindow::~MainWindow() = default;

void MainWindow::createPanes()
{
    setUpTable(m_gcTable, m_gcModel, true);
    m_gcTable->sortByColumn(GcTableModel::Number, Qt::AscendingOrder);
    setUpTable(m_capTable, m_capModel);
    m_capTable->sortByColumn(CapabilityTableModel::Cap, Qt::AscendingOrder);
    // The heap-profile track follows the panes: the legend's bands and
    // modes, rows chosen in the band table or the cost-centre tree.
    setUpBandTable(m_bandTable, m_bandModel, m_heapPanel, m_ccTree);
    connect(m_heapPanel, &HeapPanel::viewChanged, m_view, &TimelineView::setTrackState<HeapView>);
    connect(m_view, &TimelineView::heapBandClicked, this, [this](uint32_t label) { showBand(m_bandTable, m_ccTree, label); });
    connect(m_view, &TimelineView::cursorChanged, m_bandModel, &BandTableModel::setCursor);
    // The bands' residency in the selected range, once a drag pauses (a
    // big profile takes tens of milliseconds to rank); a new selection
    // sorts the table by it, a resized one keeps the user's sort.
    auto* rangeTimer = new QTimer(this);
    rangeTimer->setSingleShot(true);
    rangeTimer->setInterval(120);
    connect(m_controller, &ViewController::selectionChanged, rangeTimer, qOverload<>(&QTimer::start));
    connect(rangeTimer, &QTimer::timeout, this, [this] {
        const auto r = m_controller->selection();
        m_threadsPane->setRange(r);
        m_spansPane->setRange(r);
        m_profilePane->setRange(r);
        const bool fresh = r && !m_bandModel->hasRange();
        m_bandModel->setRange(r);
        if (fresh)
            m_bandTable->sortByColumn(BandTableModel::InRange, Qt::DescendingOrder);
    });
    // A collection chosen in the table: the timeline shows it with some
    // time either side.
    connect(m_gcTable, &QTableView::activated, this, [this](const QModelIndex& ix) {
        if (!m_doc->index())
            return;
        const uint64_t start = ix.data(kTimeRole).toULongLong();
        const QModelIndex pauseIx = ix.siblingAtColumn(GcTableModel::Pause);
        const uint64_t pause = m_gcTable->model()->data(pauseIx, kSortRole).toULongLong();
        const uint64_t margin = std::max<uint64_t>(pause * 2, 10'000);
        m_controller->setRange({start > margin ? start - margin : 0, start + pause + margin});
        m_view->setHighlight(start);
        m_events->selectNearest(start); // the list follows every jump
    });

    connect(m_bookmarkTable, &BookmarkTable::jumped, this, [this](uint64_t t) {
        m_view->setCursorTime(t);
        const ViewRange r = m_controller->range();
        if (t < r.start || t > r.end)
            m_controller->centreOn(t);
        m_events->selectNearest(t);
    });
    connect(m_bookmarks, &BookmarkModel::bookmarksChanged, this, [this] { m_view->setBookmarks(m_bookmarks->times()); });

    const std::pair<QWidget*, QString> panes[] = {
        {m_details, tr("Details")},
        {m_bookmarkTable, tr("Bookmarks")},
        {m_gcTable, tr("GC")},
        {m_capTable, tr("Capabilities")},
        {m_process, tr("Process")},
        {m_diagnostics, tr("Diagnostics")},
        {m_heapPanel, tr("Heap Profile")},
        {m_bandTable, tr("Heap Bands")},
        {m_ccTree, tr("Cost Centres")},
        {m_threadsPane, tr("Threads")},
        {m_spansPane, tr("Spans")},
        {m_stats, tr("Statistics")},
        {m_events, tr("Events")},
        {m_profilePane, tr("Profile")},
        {m_sparkSizes, tr("Spark Sizes")}};
    for (const auto& [widget, title] : panes) {
        auto* dock = new QDockWidget(title, this);
        dock->setObjectName(title.toLower().replace(QLatin1Char(' '), QLatin1Char('-')));
        dock->setWidget(widget);
        addDockWidget(Qt::RightDockWidgetArea, dock); // grouped by DockLayout::arrange
        m_viewMenu->addAction(dock->toggleViewAction());
    }
    dockOf(m_stats)->toggleViewAction()->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
    connect(m_controller, &ViewController::selectionChanged, m_sparkSizes, &SparkSizesPane::setRange);
    connectThreads();
}


// The Threads track, the Threads and Spans panes and the event list follow
// one another: a thread chosen anywhere is picked out everywhere. (The
// thread tracks' clicks and menus act on ThreadRowsController themselves.)
void MainWindow::connectThreads()
{
    m_view->setTrackState(m_threadRows->view());
    connect(m_threadRows, &ThreadRowsController::viewChanged, m_view, &TimelineView::setTrackState<ThreadRowsView>);
    connect(m_threadRows, &ThreadRowsController::threadPicked, this, [this](uint32_t number, bool filterEvents) {
        m_threadsPane->selectThread(number);
        if (filterEvents)
            m_events->filterToThread(m_doc->index()->threadStates.ids[number]);
    });
    connect(m_threadRows, &ThreadRowsController::panesWanted, this, [this](bool filterField) {
        const QWidget* panes[] = {m_threadsPane, m_events}; // the list too: its filter changed, even under another tab
        for (const QWidget* pane : filterField ? std::span(panes, 1) : std::span(panes))
            if (auto* dock = dockOf(pane)) {
                dock->show();
                dock->raise();
            }
        if (filterField)
            m_threadsPane->filterField()->setFocus(Qt::ShortcutFocusReason);
    });
    connect(m_threadsPane, &ThreadsPane::threadChosen, m_threadRows, [this](uint32_t number) { m_threadRows->pick(number, true); });
    connect(m_spansPane, &SpansPane::spansChanged, m_threadRows, &ThreadRowsController::setSpans);
    connect(m_spansPane, &SpansPane::spansChanged, m_diagnostics, &DiagnosticsPane::showSpanIssues);
    connect(m_spansPane, &SpansPane::spanChosen, this, [this](uint64_t start, uint64_t end, uint32_t thread) {
        // The span with a quarter of its length either side.
        const uint64_t margin = std::max<uint64_t>((end - start) / 4, 1000);
        m_controller->setRange({start > margin ? start - margin : 0, std::max(end + margin, start + 2 * margin)});
        m_view->setHighlight(start);
        m_view->setCursorTime(start);
        if (m_doc->index())
            if (const size_t number = m_doc->index()->threadStates.find(thread); number != SIZE_MAX)
                m_threadRows->pick(uint32_t(number), false);
    });
    connect(m_view, &TimelineView::itemSelected, this, [this](const std::optional<SelectedItem>& item) {
        // A run (or collection) on a HEC row: its own event in the list, on
        // its capability, not the nearest event of any capability.
        if (item && item->eventOnCap && item->cap >= 0)
            m_events->selectEventOn(item->start, uint16_t(item->cap));
        if (item && item->thread)
            m_threadRows->pick(*item->thread, false);
    });
}

QString MainWindow::detailsText() const
{
    return m_details->toPlainText();
}

QString MainWindow::processText() const
{
    return m_process->toPlainText();
}

QStringList MainWindow::diagnostics() const
{
    return m_diagnostics->lines();
}

// A bookmark at the cursor (else the middle of the view), named after how
// many there are; the name is ready to be typed over.
void MainWindow::addBookmark()
{
    if (!m_doc->index())
        return;
    const ViewRange r = m_controller->range();
    if (auto* dock = dockOf(m_bookmarkTable)) {
        dock->show();
        dock->raise();
    }
    m_bookmarkTable->addAt(m_view->cursor().value_or(r.start + r.duration() / 2));
}

void MainWindow::createActions()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QMenu* view = menuBar()->addMenu(tr("&View"));
    m_viewMenu = view;
    QToolBar* bar = addToolBar(tr("Main"));
    bar->setObjectName(QStringLiteral("mainToolbar"));

    QAction* open = file->addAction(tr("&Open…"), this, &MainWindow::chooseFile);
    open->setShortcut(QKeySequence::Open);
    file->addAction(tr("Open &Profile…"), this, [this] {
        const QString dir = m_doc->path().isEmpty() ? QString() : QFileInfo(m_doc->path()).absolutePath();
        const QString path = [&] {
            const FocusReturn focus(this);
            return QFileDialog::getOpenFileName(this, tr("Open a cost-centre profile beside the log"), dir,
                                                tr("GHC profiling reports (*.prof *.json);;All files (*)"));
        }();
        if (!path.isEmpty())
            openProfile(path);
    });
    m_recent = new RecentFiles(file->addMenu(tr("Open &Recent")), this);
    connect(m_recent, &RecentFiles::chosen, this, &MainWindow::openFile);
    QAction* reload = file->addAction(tr("Re&load"), this, [this] {
        if (!m_doc->path().isEmpty())
            openFile(m_doc->path());
    });
    reload->setShortcuts(
        {QKeySequence::Refresh, QKeySequence(Qt::CTRL | Qt::Key_R)});
    QAction* compare = file->addAction(tr("Co&mpare With…"), this, &MainWindow::chooseCompareFile);
    compare->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_O));
    compare->setToolTip(tr("Compare the log on screen with another run (eventlog, .hp, .prof, -pj)"));
    QAction* exportImage = file->addAction(tr("&Export Image…"), this,
                                           &MainWindow::exportImageDialog);
    m_liveControls = new LiveControls(this, file, reload, m_controller);
    connect(m_liveControls, &LiveControls::connectRequested, this, &MainWindow::openLive);
    exportImage->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    new ViewActions(m_controller, view, bar, this);
    view->addSeparator();
    m_trackMenu = new TrackMenu(view, this);
    connect(m_trackMenu, &TrackMenu::tracksChanged, m_view, &TimelineView::setTracks);
    m_displayMenu = new DisplayMenu(view, m_view, this);
    connect(m_displayMenu, &DisplayMenu::timeFormatChanged, this, [this] {
        for (QAbstractItemView* v : findChildren<QAbstractItemView*>())
            v->viewport()->update();
        for (QHeaderView* h : findChildren<QHeaderView*>())
            h->viewport()->update();
        m_stats->refresh();
    });
    view->addSeparator();
}


void MainWindow::setTrackOrder(const QStringList& names)
{
    m_trackMenu->setOrder(names);
}

void MainWindow::chooseFile()
{
    const QString dir = m_doc->path().isEmpty() ? QString() : QFileInfo(m_doc->path()).absolutePath();
    const FocusReturn focus(this); // Ctrl+O works again once the dialog closes
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open eventlog"), dir,
        tr("GHC eventlogs and profiles (*.eventlog *.hp *.prof *.json);;GHC eventlogs (*.eventlog);;Heap profiles (*.hp);;"
           "Cost-centre profiles (*.prof *.json);;All files (*)"));
    if (!path.isEmpty())
        openFile(path);
}

void MainWindow::exportImageDialog()
{
    if (!m_doc->index())
        return;
    const FocusReturn focus(this); // Ctrl+E works again once the dialog closes
    // The timeline's size once pending layouts are done: tracks just shown or
    // hidden may bring or take a scroll bar (two levels of layout since the
    // compared run's timeline shares the centre).
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    ExportDialog dialog({m_doc->index(), m_view->tracks(), m_controller->range(), m_controller->selection(),
                         QSize(m_view->width(), m_scroll->viewport()->height()), m_heapPanel->view(), m_doc->path()},
                        this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const ExportChoices choices = dialog.choices();
    m_exporter->start(m_doc->index(), choices, exportBaseOptions(m_view->options(), choices));
}

void MainWindow::openFile(const QString& path)
{
    m_doc->open(path, m_liveControls->keepNs());
}

void MainWindow::openLive(const QString& source, const QString& recordPath)
{
    m_doc->follow(source, recordPath, m_liveControls->keepNs());
}

LiveJob* MainWindow::liveJob() const
{
    return m_doc->liveJob();
}

std::shared_ptr<const LogIndex> MainWindow::index() const
{
    return m_doc->index();
}

// The panes follow the document themselves, in this order (the timeline
// first: a reload's range and selection are back before the panes read
// the selection); the window keeps its title, status and banner.
void MainWindow::followDocument()
{
    m_view->follow(m_doc);
    m_events->follow(m_doc, [this] { return m_liveControls->following(); });
    m_gcModel->follow(m_doc);
    m_heapPanel->follow(m_doc);
    m_bandModel->follow(m_doc, m_controller);
    m_ccTree->follow(m_doc);
    m_threadRows->follow(m_doc);
    m_threadsPane->follow(m_doc, m_controller);
    m_spansPane->follow(m_doc, m_controller);
    m_profilePane->follow(m_doc, m_controller);
    m_sparkSizes->follow(m_doc);
    m_bookmarks->follow(m_doc);
    m_process->follow(m_doc);
    m_diagnostics->follow(m_doc);
    m_details->follow(m_doc);
    m_stats->follow(m_doc);
    m_compare->follow(m_doc);
    m_liveControls->follow(m_doc);

    m_progress->follow(m_doc);
    m_banner->follow(m_doc);
    connect(m_doc, &LogDocument::remember, m_recent, &RecentFiles::add);
    connect(m_doc, &LogDocument::reportFound, this, &MainWindow::openReportAlone);
    connect(m_doc, &LogDocument::cleared, this, &MainWindow::forgetLog);
    connect(m_doc, &LogDocument::indexChanged, this, [this](const IndexChange& c) {
        const uint64_t duration = c.index->firstTime == kNoTime ? 0 : c.index->lastTime;
        m_fileLabel->setText(tr("%1 — %2 events — %3")
                                 .arg(QFileInfo(m_doc->path()).fileName())
                                 .arg(c.index->scan.events)
                                 .arg(durationText(duration)));
        if (c.partial)
            emit partialShown();
    });
    followLiveCompare();
    connect(m_doc, &LogDocument::liveUpdated, this, [this] {
        if (m_doc->index()) // (nothing decoded yet: not shown)
            emit liveUpdateShown();
    });
    connect(m_doc, &LogDocument::loaded, this, &MainWindow::loadFinished);
    connect(m_doc, &LogDocument::statisticsReady, this, &MainWindow::statisticsShown);
}

// Every pane let go of the log on screen (each follows the document): the
// window's own part.
void MainWindow::forgetLog(const QString& path)
{
    m_compareTimeline->clear(); // (B comes back under the new log once it is compared with it)
    m_runAHeader->hide();
    m_reportRunner.cancel();
    setWindowTitle(tr("%1 — Hecscope").arg(QFileInfo(path).fileName()));
    m_fileLabel->setText(QFileInfo(path).fileName());
    emit logCleared();
}

// A report alone: no time axis, so the Profile pane is the view.
void MainWindow::openReportAlone(const QString& path)
{
    m_view->setPlaceholder(tr("no eventlog: the cost-centre report is in the Profile pane"));
    setWindowTitle(tr("%1 — Hecscope").arg(QFileInfo(path).fileName()));
    m_fileLabel->setText(QFileInfo(path).fileName());
    m_banner->say(tr("%1 is a cost-centre profile report: it covers the whole run, with no time axis (Profile "
                  "pane). To see the profile on the timeline, open the eventlog of the same run (+RTS -p -l) "
                  "and then this report with File ▸ Open Profile….")
                   .arg(QFileInfo(path).fileName()),
               NoticeKind::Note);
    openProfile(path);
    m_compare->setReportA(path); // (compared, as a report, with any run)
}

void MainWindow::openProfile(const QString& path)
{
    statusBar()->showMessage(tr("Reading %1…").arg(path));
    m_reportRunner.start([file = path.toStdString()](const JobContext&) { return readProfReportFile(file); },
        [this, path](ProfReportFile r) {
            statusBar()->clearMessage();
            if (!r.profile) {
                m_banner->say(tr("Cannot open the profile %1: %2").arg(path, qs(r.error)), NoticeKind::Error);
                emit reportShown();
                return;
            }
            const auto profile = std::make_shared<const CostCentreProfile>(std::move(*r.profile));
            m_profilePane->setReport(profile, path);
            if (profile->error) {
                m_banner->say(tr("%1 is cut or malformed at %2.")
                               .arg(QFileInfo(path).fileName(), qs(problemText(*profile, "shown"))),
                           NoticeKind::Warning);
            }
            dockOf(m_profilePane)->show();
            dockOf(m_profilePane)->raise();
            if (!m_doc->index()) // alone, the report is all there is to see: most of the window
                resizeDocks({dockOf(m_profilePane)}, {height() * 2 / 3}, Qt::Vertical);
            emit reportShown();
        });
}

QString MainWindow::bannerText() const
{
    return m_banner->said();
}

QString MainWindow::statisticsText() const
{
    return m_stats->toPlainText();
}

void MainWindow::closeEvent(QCloseEvent* e)
{
    Settings::setValue(QStringLiteral("window/geometry"), saveGeometry());
    Settings::setValue(QStringLiteral("window/state"), m_docks->save());
    m_doc->cancelLoad();
    e->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* e)
{
    if (e->mimeData()->hasUrls() && e->mimeData()->urls().size() == 1 && e->mimeData()->urls()[0].isLocalFile())
        e->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* e)
{
    // With Shift: compared with the log on screen instead of replacing it.
    if ((e->modifiers() & Qt::ShiftModifier) && m_doc->index()) {
        compareWith(e->mimeData()->urls()[0].toLocalFile());
        e->acceptProposedAction();
        return;
    }
    openFile(e->mimeData()->urls()[0].toLocalFile());
    e->acceptProposedAction();
}

} // namespace hecscope
