#include "ui/window/mainwindow.h"

#include "ui/window/trackmenu.h"

#include "ui/formatting.h"
#include "core/live/livesource.h"
#include "core/profile/profreport.h"
#include "core/report/info.h"
#include "core/report/rtssummary.h"
#include "core/threads/userspans.h"
#include "ui/compare/comparepane.h"
#include "ui/compare/comparetimeline.h"
#include "ui/window/bookmarks.h"
#include "ui/events/eventlistpane.h"
#include "ui/heap/heappanel.h"
#include "ui/timeline/imageexport.h"
#include "ui/window/displaymenu.h"
#include "ui/window/exportdialog.h"
#include "ui/window/focusreturn.h"
#include "ui/window/helpmenu.h"
#include "ui/window/imageexporter.h"
#include "ui/jobs/livejob.h"
#include "ui/jobs/loadjob.h"
#include "ui/window/livecontrols.h"
#include "ui/models/tablemodels.h"
#include "ui/profile/profilepane.h"
#include "ui/sparks/sparksizespane.h"
#include "ui/threads/threadrowscontroller.h"
#include "ui/threads/spanspane.h"
#include "ui/threads/threadspane.h"
#include "ui/timeline/timelineview.h"
#include "ui/timeline/viewcontroller.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDateTime>
#include <QLocale>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QTabBar>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeySequence>
#include <QLabel>
#include <QSplitter>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QScrollBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QResizeEvent>
#include <QScrollArea>
#include <QScreen>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QStatusBar>
#include <QTableView>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>

#include <utility>

namespace hecscope {

namespace {
constexpr int kMaxRecent = 10;
// A .prof or -pj report, by its name (GHC writes <program>.prof for both).
bool isProfileReportName(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    return suffix == QLatin1String("prof") || suffix == QLatin1String("json");
}
QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}
} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_controller(new ViewController(this))
    , m_view(new TimelineView(m_controller))
    , m_scroll(new QScrollArea)
    , m_banner(new QLabel)
    , m_stats(new QPlainTextEdit)
    , m_events(new EventListPane)
    , m_gcModel(new GcTableModel(this))
    , m_gcTable(new QTableView)
    , m_capModel(new CapabilityTableModel(this))
    , m_capTable(new QTableView)
    , m_process(new QPlainTextEdit)
    , m_diagnostics(new QListWidget)
    , m_details(new QPlainTextEdit)
    , m_bookmarks(new BookmarkModel(this))
    , m_bookmarkTable(new QTableView)
    , m_heapPanel(new HeapPanel)
    , m_bandModel(new BandTableModel(this))
    , m_bandTable(new QTableView)
    , m_ccTree(new CostCentreTree)
    , m_threadRows(new ThreadRowsController(this))
    , m_threadsPane(new ThreadsPane(m_threadRows))
    , m_spansPane(new SpansPane)
    , m_profilePane(new ProfilePane)
    , m_progress(new QProgressBar)
    , m_cancel(new QPushButton(tr("Cancel")))
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

    m_banner->setWordWrap(true);
    m_banner->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_banner->setText(
        tr("Open an eventlog with File ▸ Open (Ctrl+O), or drop one here."));
    m_banner->setContentsMargins(6, 4, 6, 4);
    m_stats->setReadOnly(true);
    m_stats->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_stats->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_progress->setRange(0, 1000);
    m_progress->hide();
    m_cancel->hide();
    connect(m_cancel, &QPushButton::clicked, this, [this] {
        const bool replaced = m_loadingPath.isEmpty(); // else what was on screen stays
        cancelLoad();
        statusBar()->showMessage(tr("Loading cancelled"), 5000);
        m_view->setPlaceholder(replaced ? tr("loading cancelled") : m_placeholderBefore);
    });

    m_scroll->setWidget(m_view);
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);

    auto* progressRow = new QHBoxLayout;
    progressRow->addWidget(m_progress, 1);
    progressRow->addWidget(m_cancel);
    auto* central = new QWidget;
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_banner);
    layout->addLayout(progressRow);
    // While two runs are compared, B's timeline sits under A's (one time
    // axis), each headed by its run's name and colour.
    m_compareTimeline = new CompareTimeline(m_controller, m_view);
    m_runAHeader = new QLabel;
    m_runAHeader->setTextFormat(Qt::RichText);
    m_runAHeader->setContentsMargins(4, 2, 4, 2);
    m_runAHeader->setAutoFillBackground(true);
    {
        QPalette p = m_runAHeader->palette();
        p.setColor(QPalette::Window, runTint(0));
        m_runAHeader->setPalette(p);
    }
    m_runAHeader->hide();
    auto* runA = new QWidget;
    auto* runALayout = new QVBoxLayout(runA);
    runALayout->setContentsMargins(0, 0, 0, 0);
    runALayout->setSpacing(0);
    runALayout->addWidget(m_runAHeader);
    runALayout->addWidget(m_scroll, 1);
    auto* runs = new QSplitter(Qt::Vertical);
    runs->setChildrenCollapsible(false);
    runs->addWidget(runA);
    runs->addWidget(m_compareTimeline);
    layout->addWidget(runs, 1);
    setCentralWidget(central);

    auto* statsDock = new QDockWidget(tr("Statistics"), this);
    statsDock->setObjectName(QStringLiteral("statistics"));
    statsDock->setWidget(m_stats);
    addDockWidget(Qt::BottomDockWidgetArea, statsDock);

    auto* eventsDock = new QDockWidget(tr("Events"), this);
    eventsDock->setObjectName(QStringLiteral("events"));
    eventsDock->setWidget(m_events);
    addDockWidget(Qt::BottomDockWidgetArea, eventsDock);
    resizeDocks({eventsDock}, {260}, Qt::Vertical);
    // The Profile pane below the timeline, beside the event list: a flame
    // graph wants the window's width.
    m_profileDock = new QDockWidget(tr("Profile"), this);
    m_profileDock->setObjectName(QStringLiteral("profile"));
    m_profileDock->setWidget(m_profilePane);
    // Its toolbar and tabs would ask for 300 pixels: a pane below the
    // timeline may be made smaller than that (its views scroll).
    m_profilePane->setMinimumHeight(140);
    addDockWidget(Qt::BottomDockWidgetArea, m_profileDock);
    tabifyDockWidget(eventsDock, m_profileDock);
    eventsDock->raise();
    connect(m_profilePane, &ProfilePane::highlightChanged, m_view, &TimelineView::setProfileHighlight);
    connect(m_events, &EventListPane::eventChosen, this, [this](uint64_t t, const QString& details) {
        // Each jump to an event (a search hit, a row) centres the timeline
        // on it at the current zoom and marks it; Details describes it.
        showDetails(details);
        m_view->setCursorTime(t);
        m_view->setHighlight(t);
        m_controller->centreOn(t);
    });
    m_view->setPlaceholder(tr("no log open"));
    connect(m_view, &TimelineView::clicked, m_events, &EventListPane::selectNearest);
    connect(m_view, &TimelineView::itemClicked, this, &MainWindow::showDetails);

    m_exporter = new ImageExporter(statusBar(), this);
    statusBar()->addPermanentWidget(m_fileLabel);
    statusBar()->addPermanentWidget(m_timeLabel);
    m_timeLabel->setMinimumWidth(140);

    createActions();
    createPanes();
    statsDock->toggleViewAction()->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
    m_viewMenu->addAction(statsDock->toggleViewAction());
    m_viewMenu->addAction(eventsDock->toggleViewAction());
    m_viewMenu->addAction(m_profileDock->toggleViewAction());
    createSparkSizesDock();
    createCompareDock();
    addCompareSections();
    arrangeDocks();

    QMenu* search = menuBar()->addMenu(tr("&Search"));
    QAction* find = search->addAction(tr("&Find…"), this, [this, eventsDock] {
        eventsDock->show();
        eventsDock->raise();
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
    connect(m_controller, &ViewController::historyChanged, this,
            &MainWindow::updateHistoryActions);
    connect(m_controller, &ViewController::selectionChanged, this,
            &MainWindow::showSelectionStatistics);

    // Cancelled jobs finish their current chunk on their own thread; they
    // are dropped here once done, so the UI never waits for them.
    // The timer runs only while there are such jobs: an idle window wakes
    // for nothing.
    m_reaper = new QTimer(this);
    m_reaper->setInterval(200);
    connect(m_reaper, &QTimer::timeout, this, [this] {
        std::erase_if(m_retired, [](const std::unique_ptr<LoadJob>& j) {
            return !j->isRunning();
        });
        if (m_retired.empty())
            m_reaper->stop();
    });

    QSettings settings;
    m_firstStart = !restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    m_firstLayout = !restoreState(settings.value(QStringLiteral("window/state")).toByteArray(), kLayoutVersion);
    m_trackMenu->restore();
    rebuildRecentMenu();
    updateHistoryActions();
}

MainWindow::~MainWindow() = default;

void MainWindow::createPanes()
{
    // Tables sort through a proxy by kSortRole, unless the model sorts
    // itself (the GC table: a proxy is too slow for 100,000 rows).
    auto table = [this](QTableView* view, QAbstractItemModel* model, bool sortsItself = false) {
        if (sortsItself) {
            view->setModel(model);
        } else {
            auto* proxy = new QSortFilterProxyModel(this);
            proxy->setSourceModel(model);
            proxy->setSortRole(kSortRole);
            view->setModel(proxy);
        }
        view->setSortingEnabled(true);
        view->setSelectionBehavior(QAbstractItemView::SelectRows);
        view->setAlternatingRowColors(true);
        view->verticalHeader()->hide();
        view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
        view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 4);
        view->horizontalHeader()->setStretchLastSection(true);
        // Headers are never cut: each column is at least as wide as its
        // title (and the sort arrow), whatever the title says now.
        auto fit = [view] {
            QHeaderView* header = view->horizontalHeader();
            const QFontMetrics fm(header->font());
            for (int i = 0; i < header->count(); ++i) {
                const QString title = view->model()->headerData(i, Qt::Horizontal).toString();
                const int needed = fm.horizontalAdvance(title) + 28;
                if (header->sectionSize(i) < needed)
                    header->resizeSection(i, needed);
            }
        };
        connect(view->model(), &QAbstractItemModel::headerDataChanged, view, fit);
        connect(view->model(), &QAbstractItemModel::modelReset, view, fit);
        fit();
    };
    table(m_gcTable, m_gcModel, true);
    m_gcTable->sortByColumn(GcTableModel::Number, Qt::AscendingOrder);
    table(m_capTable, m_capModel);
    m_capTable->sortByColumn(CapabilityTableModel::Cap, Qt::AscendingOrder);
    table(m_bandTable, m_bandModel);
    m_bandTable->sortByColumn(BandTableModel::ByteSeconds, Qt::DescendingOrder);
    m_bandTable->setItemDelegateForColumn(BandTableModel::Trend, new SparklineDelegate(m_bandTable));
    m_bandTable->horizontalHeader()->setSectionResizeMode(BandTableModel::Band, QHeaderView::Interactive);
    m_bandTable->setColumnWidth(BandTableModel::Band, 260);
    m_bandTable->setSelectionMode(QAbstractItemView::ExtendedSelection);
    // The heap-profile track follows the panes: the legend's bands and
    // modes, rows chosen in the band table or the cost-centre tree.
    connect(m_heapPanel, &HeapPanel::viewChanged, m_view, &TimelineView::setHeapView);
    connect(m_bandTable->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        std::vector<uint32_t> labels;
        for (const QModelIndex& ix : m_bandTable->selectionModel()->selectedRows())
            labels.push_back(uint32_t(ix.data(BandTableModel::kLabelRole).toUInt()));
        m_heapPanel->emphasiseLabels(labels);
    });
    connect(m_ccTree, &CostCentreTree::labelsChosen, m_heapPanel, &HeapPanel::emphasiseLabels);
    // A band clicked in the chart: its row in the band table (which picks
    // it out in the chart) and its stack in the cost-centre tree.
    connect(m_view, &TimelineView::heapBandClicked, this, [this](uint32_t label) {
        QAbstractItemModel* model = m_bandTable->model();
        const QModelIndexList hits = model->match(model->index(0, 0), BandTableModel::kLabelRole, int(label), 1, Qt::MatchExactly);
        if (!hits.isEmpty()) {
            m_bandTable->selectRow(hits.first().row());
            m_bandTable->scrollTo(hits.first());
        }
        m_ccTree->selectLabel(label);
    });
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
        if (!m_index)
            return;
        const uint64_t start = ix.data(kTimeRole).toULongLong();
        const QModelIndex pauseIx = ix.siblingAtColumn(GcTableModel::Pause);
        const uint64_t pause = m_gcTable->model()->data(pauseIx, kSortRole).toULongLong();
        const uint64_t margin = std::max<uint64_t>(pause * 2, 10'000);
        m_controller->setRange({start > margin ? start - margin : 0, start + pause + margin});
        m_view->setHighlight(start);
        m_events->selectNearest(start); // the list follows every jump
    });
    m_diagnostics->setWordWrap(true); // a diagnostic is a sentence with an offset: all of it
    m_diagnostics->setTextElideMode(Qt::ElideNone);
    m_process->setReadOnly(true);
    m_process->setLineWrapMode(QPlainTextEdit::WidgetWidth);

    m_bookmarkTable->setModel(m_bookmarks);
    m_bookmarkTable->verticalHeader()->hide();
    m_bookmarkTable->horizontalHeader()->setStretchLastSection(true);
    m_bookmarkTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_bookmarkTable->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    auto toBookmark = [this](const QModelIndex& ix) {
        const uint64_t t = ix.data(Qt::UserRole).toULongLong();
        m_view->setCursorTime(t);
        const ViewRange r = m_controller->range();
        if (t < r.start || t > r.end)
            m_controller->centreOn(t);
        m_events->selectNearest(t);
    };
    connect(m_bookmarkTable, &QTableView::clicked, this, toBookmark);
    connect(m_bookmarkTable, &QTableView::activated, this, toBookmark);
    connect(m_bookmarks, &BookmarkModel::bookmarksChanged, this, [this] { m_view->setBookmarks(m_bookmarks->times()); });
    auto* removeBookmark = new QAction(tr("Remove Bookmark"), m_bookmarkTable);
    removeBookmark->setShortcut(QKeySequence::Delete);
    removeBookmark->setShortcutContext(Qt::WidgetShortcut);
    connect(removeBookmark, &QAction::triggered, this, [this] { m_bookmarks->removeUser(m_bookmarkTable->currentIndex().row()); });
    m_bookmarkTable->addAction(removeBookmark);
    m_bookmarkTable->setContextMenuPolicy(Qt::ActionsContextMenu);

    m_details->setReadOnly(true);
    m_details->setPlaceholderText(tr("Click an item on the timeline to see its details here."));
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
        {m_spansPane, tr("Spans")}};
    for (const auto& [widget, title] : panes) {
        auto* dock = new QDockWidget(title, this);
        dock->setObjectName(title.toLower().replace(QLatin1Char(' '), QLatin1Char('-')));
        dock->setWidget(widget);
        addDockWidget(Qt::RightDockWidgetArea, dock); // grouped by arrangeDocks()
        m_viewMenu->addAction(dock->toggleViewAction());
    }
    connectThreads();
}

// The Spark sizes pane: a tab beside Events and Profile (a histogram wants
// the width), following the timeline's selection.
void MainWindow::createSparkSizesDock()
{
    m_sparkSizes = new SparkSizesPane;
    auto* dock = new QDockWidget(tr("Spark Sizes"), this);
    dock->setObjectName(QStringLiteral("spark-sizes"));
    dock->setWidget(m_sparkSizes);
    addDockWidget(Qt::BottomDockWidgetArea, dock);
    tabifyDockWidget(m_profileDock, dock);
    if (auto* events = dockOf(m_events))
        events->raise(); // the event list stays the tab shown first
    m_viewMenu->addAction(dock->toggleViewAction());
    connect(m_controller, &ViewController::selectionChanged, m_sparkSizes, &SparkSizesPane::setRange);
}

// Every pane one click away and its table readable (ThreadScope's layout:
// the figures below the timeline, where the window is widest). Below the
// timeline, one row of tabs: Statistics (shown first), the event list and
// the tables; on the right, two short groups: what was clicked or drawn
// (Details, Heap Profile) over the log's facts (Bookmarks, Process,
// Diagnostics). The right column runs the window's full height.
void MainWindow::arrangeDocks()
{
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    setCorner(Qt::TopRightCorner, Qt::RightDockWidgetArea);
    auto dock = [this](const char* name) {
        QDockWidget* d = findChild<QDockWidget*>(QLatin1String(name), Qt::FindDirectChildrenOnly);
        Q_ASSERT(d);
        return d;
    };
    const char* const bottom[] = {"statistics", "events", "threads", "spans", "gc", "capabilities",
                                  "profile", "spark-sizes", "heap-bands", "cost-centres", "compare"};
    QDockWidget* first = dock(bottom[0]);
    addDockWidget(Qt::BottomDockWidgetArea, first);
    for (size_t i = 1; i < std::size(bottom); ++i)
        tabifyDockWidget(dock(bottom[i - 1]), dock(bottom[i]));
    // Split first: a dock already in a tab group would take the other as a
    // tab, not as a neighbour.
    QDockWidget* details = dock("details");
    addDockWidget(Qt::RightDockWidgetArea, details);
    QDockWidget* bookmarks = dock("bookmarks");
    splitDockWidget(details, bookmarks, Qt::Vertical);
    tabifyDockWidget(details, dock("heap-profile"));
    tabifyDockWidget(bookmarks, dock("process"));
    tabifyDockWidget(dock("process"), dock("diagnostics"));
    first->raise();
    details->raise();
    bookmarks->raise();
    // A pane brought forward gets room to be useful: a bottom pane left a
    // sliver high grows to a third of the window when its tab is chosen.
    for (const char* name : bottom) {
        QDockWidget* d = dock(name);
        connect(d, &QDockWidget::visibilityChanged, this, [this, d](bool visible) {
            if (visible && !d->isFloating() && dockWidgetArea(d) == Qt::BottomDockWidgetArea
                && d->height() < kUsefulPaneHeight && isVisible())
                QTimer::singleShot(0, this, [this, d] { growBottomPanes(d); });
        });
    }
}

void MainWindow::growBottomPanes(QDockWidget* shown)
{
    if (shown->height() < kUsefulPaneHeight && dockWidgetArea(shown) == Qt::BottomDockWidgetArea)
        resizeDocks({shown}, {std::max(kUsefulPaneHeight, height() / 3)}, Qt::Vertical);
}

// The Threads track, the Threads and Spans panes and the event list follow
// one another: a thread chosen anywhere is picked out everywhere.
void MainWindow::connectThreads()
{
    m_view->setThreadRows(m_threadRows->view());
    connect(m_threadRows, &ThreadRowsController::viewChanged, m_view, &TimelineView::setThreadRows);
    connect(m_threadsPane, &ThreadsPane::threadChosen, this, [this](uint32_t number) { chooseThread(number, true); });
    connect(m_spansPane, &SpansPane::spansChanged, m_threadRows, &ThreadRowsController::setSpans);
    connect(m_spansPane, &SpansPane::spansChanged, this, &MainWindow::showSpanIssues);
    connect(m_spansPane, &SpansPane::spanChosen, this, [this](uint64_t start, uint64_t end, uint32_t thread) {
        // The span with a quarter of its length either side.
        const uint64_t margin = std::max<uint64_t>((end - start) / 4, 1000);
        m_controller->setRange({start > margin ? start - margin : 0, std::max(end + margin, start + 2 * margin)});
        m_view->setHighlight(start);
        m_view->setCursorTime(start);
        if (m_index)
            if (const size_t number = m_index->threadStates.find(thread); number != SIZE_MAX)
                chooseThread(uint32_t(number), false);
    });
    connect(m_view, &TimelineView::itemSelected, this, [this](const std::optional<SelectedItem>& item) {
        // A run (or collection) on a HEC row: its own event in the list, on
        // its capability, not the nearest event of any capability.
        if (item && item->track == QLatin1String("hecs") && item->cap >= 0)
            m_events->selectEventOn(item->start, uint16_t(item->cap));
        if (item && item->item >= 0
            && (item->track == QLatin1String("threads") || item->track == QLatin1String("pinned-threads")))
            chooseThread(uint32_t(item->item), false);
    });
    connect(m_view, &TimelineView::trackLabelWheel, this, [this](const QString& track, int, QPoint, int delta) {
        if (track == QLatin1String("threads"))
            m_threadRows->scrollBy(-delta / 40); // three rows a notch
        else
            m_scroll->verticalScrollBar()->setValue(m_scroll->verticalScrollBar()->value() - delta);
    });
    connect(m_view, &TimelineView::trackLabelClicked, this, [this](const QString& track, int row, QPoint local) {
        if (track == QLatin1String("threads")) {
            if (local.y() < ThreadRowsView::kHeaderHeight)
                return m_threadRows->toggleCollapsed();
            if (const auto thread = m_threadRows->view()->threadAtRow((local.y() - ThreadRowsView::kHeaderHeight) / ThreadRowsView::kRowHeight))
                chooseThread(*thread, true);
        } else if (track == QLatin1String("pinned-threads") && row >= 0) {
            const auto& pinned = m_threadRows->view()->pinned;
            if (size_t(row) < pinned.size())
                chooseThread(pinned[size_t(row)], true);
        }
    });
    connect(m_view, &TimelineView::trackContextMenu, this, &MainWindow::threadContextMenu);
}

// Unmatched START and STOP messages of the spans shown (the prefixes may
// have changed since the load), after the decoder's diagnostics.
void MainWindow::showSpanIssues(const std::shared_ptr<const UserSpans>& spans)
{
    for (int i = m_diagnostics->count(); i-- > 0;)
        if (m_diagnostics->item(i)->data(Qt::UserRole).toBool())
            delete m_diagnostics->takeItem(i);
    if (!spans || !m_index)
        return;
    for (const SpanIssue& i : spans->issues) {
        auto* item = new QListWidgetItem(
            (i.kind == SpanIssue::StopWithoutStart ? tr("User span: STOP “%1” without a START on %2 at %3")
                                                   : tr("User span: START “%1” on %2 at %3 never stopped: drawn to the end of the log, left out of the span figures"))
                .arg(qs(spans->names[i.name]), i.thread ? threadName(*m_index, i.thread) : tr("no thread"),
                     timeText(i.time)));
        item->setData(Qt::UserRole, true);
        m_diagnostics->addItem(item);
    }
}

void MainWindow::chooseThread(uint32_t number, bool filterEvents)
{
    if (!m_index || number >= m_index->threadStates.count())
        return;
    m_threadRows->choose(number);
    m_threadsPane->selectThread(number);
    if (filterEvents)
        m_events->filterToThread(m_index->threadStates.ids[number]);
}

void MainWindow::threadContextMenu(const QString& track, int row, QPoint local, QPoint global)
{
    std::optional<uint32_t> thread;
    if (track == QLatin1String("threads") && local.y() >= ThreadRowsView::kHeaderHeight)
        thread = m_threadRows->view()->threadAtRow((local.y() - ThreadRowsView::kHeaderHeight) / ThreadRowsView::kRowHeight);
    else if (track == QLatin1String("pinned-threads") && row >= 0 && size_t(row) < m_threadRows->view()->pinned.size())
        thread = m_threadRows->view()->pinned[size_t(row)];
    else if (track != QLatin1String("threads"))
        return;
    QMenu menu;
    if (thread && m_index) {
        const uint32_t number = *thread;
        const QString name = threadName(*m_index, m_index->threadStates.ids[number]);
        const bool pinned = m_threadRows->isPinned(number);
        menu.addSection(name);
        menu.addAction(pinned ? tr("Unpin") : tr("Pin next to the capabilities"), this,
                       [this, number, pinned] { m_threadRows->setPinned(number, !pinned); });
        menu.addAction(tr("Show in the Threads pane and the event list"), this, [this, number] {
            chooseThread(number, true);
            for (QWidget* pane : {static_cast<QWidget*>(m_threadsPane), static_cast<QWidget*>(m_events)})
                if (auto* dock = dockOf(pane)) {
                    dock->show();
                    dock->raise(); // the list too: its filter changed, even under another tab
                }
        });
    }
    if (track == QLatin1String("threads")) {
        menu.addSeparator();
        QMenu* sort = menu.addMenu(tr("Sort rows by"));
        for (auto s : {ThreadRowsController::Sort::Id, ThreadRowsController::Sort::Creation,
                       ThreadRowsController::Sort::Label, ThreadRowsController::Sort::RunTime,
                       ThreadRowsController::Sort::BlockedTime, ThreadRowsController::Sort::RunnableTime}) {
            QAction* a = sort->addAction(ThreadRowsController::sortName(s), this, [this, s] { m_threadRows->setSort(s); });
            a->setCheckable(true);
            a->setChecked(m_threadRows->sort() == s);
        }
        menu.addAction(tr("Filter…"), this, [this] {
            if (auto* dock = dockOf(m_threadsPane)) {
                dock->show();
                dock->raise();
            }
            m_threadsPane->filterField()->setFocus(Qt::ShortcutFocusReason);
        });
        const bool collapsed = m_threadRows->view()->collapsed;
        menu.addAction(collapsed ? tr("Expand") : tr("Collapse"), m_threadRows, &ThreadRowsController::toggleCollapsed);
    }
    menu.exec(global);
}

void MainWindow::showDetails(const QString& details)
{
    m_details->setPlainText(details);
    if (details.isEmpty())
        return;
    if (auto* dock = dockOf(m_details)) {
        dock->show();
        dock->raise();
    }
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
    QStringList out;
    for (int i = 0; i < m_diagnostics->count(); ++i)
        out << m_diagnostics->item(i)->text();
    return out;
}

// A bookmark at the cursor (else the middle of the view), named after how
// many there are; the name is ready to be typed over.
void MainWindow::addBookmark()
{
    if (!m_index)
        return;
    const ViewRange r = m_controller->range();
    const uint64_t t = m_view->cursor().value_or(r.start + r.duration() / 2);
    const int row = m_bookmarks->add(t, tr("Bookmark %1").arg(m_bookmarks->times().size() + 1));
    if (auto* dock = dockOf(m_bookmarkTable)) {
        dock->show();
        dock->raise();
    }
    const QModelIndex name = m_bookmarks->index(row, BookmarkModel::NameColumn);
    m_bookmarkTable->setCurrentIndex(name);
    if (isVisible())
        m_bookmarkTable->edit(name);
}

void MainWindow::showProcess()
{
    QString text;
    if (!m_index)
        return m_process->clear();
    // The wall clock comes with the clock-domain capset, not the process's:
    // the time the run began is that clock less the time it was read at.
    const Capset* clock = nullptr;
    for (const Capset& c : m_index->capsets)
        if (c.wallAt != kNoTime && !clock)
            clock = &c;
    if (clock) {
        const double startNs = double(clock->wallSeconds) * 1e9 + double(clock->wallNanoseconds) - double(clock->wallAt);
        const QDateTime started = QDateTime::fromMSecsSinceEpoch(qint64(startNs / 1e6));
        text += tr("Started: %1 (%2 UTC)\n\n")
                    .arg(QLocale().toString(started, QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz")),
                         started.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz")));
    }
    for (const Capset& c : m_index->capsets) {
        if (c.rtsIdentifier.empty() && c.args.empty() && !c.hasPid)
            continue;
        text += tr("Capset %1\n").arg(c.id);
        if (!c.rtsIdentifier.empty())
            text += tr("  RTS: %1\n").arg(QString::fromStdString(c.rtsIdentifier));
        if (!c.args.empty()) {
            QStringList args;
            for (const std::string& a : c.args)
                args << QString::fromStdString(a);
            text += tr("  Command: %1\n").arg(args.join(QLatin1Char(' ')));
        }
        if (c.hasPid)
            text += tr("  Process id: %1").arg(c.pid) + (c.hasPpid ? tr(", parent %1\n").arg(c.ppid) : QStringLiteral("\n"));
        // Every capability the run had: the RTS removes them all from the
        // capset as it shuts down, so what is assigned at the end is none.
        text += tr("  Capabilities: %1").arg(c.assigned.size());
        if (!c.assigned.empty() && c.caps.empty() && c.deleted != kNoTime)
            text += tr(" (removed at shutdown, %1)").arg(timeText(c.deleted));
        text += QLatin1Char('\n');
        if (!c.env.empty()) {
            text += tr("  Environment:\n");
            for (const std::string& e : c.env)
                text += QStringLiteral("    %1\n").arg(QString::fromStdString(e));
        }
    }
    text += tr("\n%1 events, %2 capabilities, %3 threads, %4 collections\n")
                .arg(m_index->scan.events)
                .arg(m_index->caps.size())
                .arg(m_index->threadCount())
                .arg(m_index->collections.size());
    m_process->setPlainText(text);
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
        const QString dir = m_path.isEmpty() ? QString() : QFileInfo(m_path).absolutePath();
        const QString path = [&] {
            const FocusReturn focus(this);
            return QFileDialog::getOpenFileName(this, tr("Open a cost-centre profile beside the log"), dir,
                                                tr("GHC profiling reports (*.prof *.json);;All files (*)"));
        }();
        if (!path.isEmpty())
            openProfile(path);
    });
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    QAction* reload = file->addAction(tr("Re&load"), this, [this] {
        if (!m_path.isEmpty())
            openFile(m_path);
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

    auto add = [&](const QString& text, QKeySequence key, auto slot) {
        QAction* a = view->addAction(text, this, slot);
        a->setShortcut(key);
        bar->addAction(a);
        return a;
    };
    add(tr("Zoom &In"), QKeySequence::ZoomIn, [this] {
        const ViewRange r = m_controller->range();
        m_controller->zoom(0.5, r.start + r.duration() / 2, true);
    });
    add(tr("Zoom &Out"), QKeySequence::ZoomOut, [this] {
        const ViewRange r = m_controller->range();
        m_controller->zoom(2.0, r.start + r.duration() / 2, true);
    });
    add(tr("&Fit All"), QKeySequence(Qt::CTRL | Qt::Key_0),
        [this] { m_controller->fitAll(); });
    m_zoomSelection = add(tr("Zoom to &Selection"), QKeySequence(Qt::CTRL | Qt::Key_J),
                          [this] { m_controller->zoomToSelection(); });
    m_back = add(tr("&Back"), QKeySequence::Back, [this] { m_controller->back(); });
    m_back->setShortcuts({QKeySequence::Back, QKeySequence(Qt::Key_Backspace)});
    m_forward = add(tr("For&ward"), QKeySequence::Forward,
                    [this] { m_controller->forward(); });
    view->addAction(tr("&Clear Selection"), this,
                    [this] { m_controller->setSelection(std::nullopt); });
    view->addSeparator();
    m_trackMenu = new TrackMenu(view, this);
    connect(m_trackMenu, &TrackMenu::tracksChanged, m_view, &TimelineView::setTracks);
    m_displayMenu = new DisplayMenu(view, m_view, this);
    connect(m_displayMenu, &DisplayMenu::timeFormatChanged, this, [this] {
        for (QAbstractItemView* v : findChildren<QAbstractItemView*>())
            v->viewport()->update();
        for (QHeaderView* h : findChildren<QHeaderView*>())
            h->viewport()->update();
        showSelectionStatistics();
    });
    view->addSeparator();
}


void MainWindow::setTrackOrder(const QStringList& names)
{
    m_trackMenu->setOrder(names);
}

void MainWindow::updateHistoryActions()
{
    if (m_back)
        m_back->setEnabled(m_controller->canGoBack());
    if (m_forward)
        m_forward->setEnabled(m_controller->canGoForward());
}

void MainWindow::chooseFile()
{
    const QString dir = m_path.isEmpty() ? QString() : QFileInfo(m_path).absolutePath();
    const FocusReturn focus(this); // Ctrl+O works again once the dialog closes
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open eventlog"), dir,
        tr("GHC eventlogs and profiles (*.eventlog *.hp *.prof *.json);;GHC eventlogs (*.eventlog);;Heap profiles (*.hp);;"
           "Cost-centre profiles (*.prof *.json);;All files (*)"));
    if (!path.isEmpty())
        openFile(path);
}

void MainWindow::addRecent(const QString& path)
{
    QSettings settings;
    QStringList recent = settings.value(QStringLiteral("recentFiles")).toStringList();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    recent.removeAll(absolute);
    recent.prepend(absolute);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    settings.setValue(QStringLiteral("recentFiles"), recent);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = QSettings().value(QStringLiteral("recentFiles")).toStringList();
    for (const QString& path : recent)
        m_recentMenu->addAction(QFileInfo(path).fileName() + QStringLiteral("  —  ") + path,
                                this, [this, path] { openFile(path); });
    m_recentMenu->setEnabled(!recent.isEmpty());
}

void MainWindow::exportImageDialog()
{
    if (!m_index)
        return;
    const FocusReturn focus(this); // Ctrl+E works again once the dialog closes
    // The timeline's size once pending layouts are done: tracks just shown or
    // hidden may bring or take a scroll bar (two levels of layout since the
    // compared run's timeline shares the centre).
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    ExportDialog dialog({m_index, m_view->tracks(), m_controller->range(), m_controller->selection(),
                         QSize(m_view->width(), m_scroll->viewport()->height()), m_heapPanel->view(), m_path},
                        this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const ExportChoices choices = dialog.choices();
    m_exporter->start(m_index, choices, exportBaseOptions(m_view->options(), choices));
}

void MainWindow::cancelLoad()
{
    if (m_job) {
        m_job->cancel();
        m_retired.push_back(std::move(m_job));
        m_reaper->start();
    }
    m_loadingPath.clear();
    m_progress->hide();
    m_cancel->hide();
}

void MainWindow::openFile(const QString& path)
{
    // A socket, standard input or a named pipe is followed live, and so is a
    // file that some process still has open for writing.
    std::string why;
    if (const auto address = parseSourceAddress(path.toStdString(), why);
        address
        && (address->kind != SourceAddress::Kind::File
            || (QFileInfo(path).isFile() && fileHasWriter(path.toStdString())))) {
        openLive(path);
        return;
    }
    cancelLoad(); // opening another file cancels the running load
    if (isProfileReportName(path)) {
        clearLog(path);
        addRecent(path);
        openReportAlone(path);
        return;
    }
    // What is on screen stays until the new file proves to be a log (its
    // header decoded): a file that is not one leaves it there.
    m_loadingPath = path;
    m_placeholderBefore = m_view->options().placeholder;
    if (!m_index) // nothing on screen to keep
        m_view->setPlaceholder(tr("loading…"));
    m_job = std::make_unique<LoadJob>(path);
    connect(m_job.get(), &LoadJob::accepted, this, [this, path] {
        clearLog(path);
        m_view->setPlaceholder(tr("loading…"));
        addRecent(path);
    });
    // A report under another name: the load job finds it by its first bytes.
    connect(m_job.get(), &LoadJob::profileReportFound, this, [this, path] {
        m_progress->hide();
        m_cancel->hide();
        clearLog(path);
        addRecent(path);
        openReportAlone(path);
    });
    connect(m_job.get(), &LoadJob::progressChanged, this,
            [this](quint64 done, quint64 total) {
                m_progress->setValue(total ? int(done * 1000 / total) : 0);
                m_progress->setFormat(tr("Reading %1 of %2 MB")
                                          .arg(double(done) / 1e6, 0, 'f', 0)
                                          .arg(double(total) / 1e6, 0, 'f', 0));
            });
    connect(m_job.get(), &LoadJob::partialIndex, this, &MainWindow::showPartialIndex);
    connect(m_job.get(), &LoadJob::indexReady, this, &MainWindow::showIndex);
    connect(m_job.get(), &LoadJob::statisticsReady, this,
            &MainWindow::showStatistics);
    connect(m_job.get(), &LoadJob::failed, this, &MainWindow::showFailure);
    m_progress->setValue(0);
    m_progress->setFormat(tr("Opening %1").arg(QFileInfo(path).fileName()));
    m_progress->show();
    m_cancel->show();
    m_job->start();
}

// Makes way for `path`: every pane forgets the log on screen (a reload of
// the same file keeps where the user was looking).
void MainWindow::clearLog(const QString& path)
{
    m_loadingPath.clear();
    m_keepView.reset();
    if (m_live) { // the new log replaces the live one: stop reading it
        m_live.reset();
        m_liveControls->setJob(nullptr);
        m_liveStatsRunner.cancel();
    }
    m_view->setPendingFrom(std::nullopt);
    m_view->setDroppedBefore(std::nullopt);
    if (m_index && QFileInfo(path) == QFileInfo(m_path))
        m_keepView = std::pair{m_controller->range(), m_controller->selection()};
    const bool anotherFile = QFileInfo(path) != QFileInfo(m_path);
    m_path = path;
    m_index.reset();
    m_wholeStats.reset();
    m_view->setIndex(nullptr);
    m_events->setLog(std::shared_ptr<ByteSource>(), nullptr);
    m_gcModel->setIndex(nullptr);
    m_heapPanel->setIndex(nullptr);
    if (anotherFile)
        m_heapPanel->resetChartMode();
    m_bandModel->setIndex(nullptr);
    m_ccTree->setIndex(nullptr);
    m_threadRows->setIndex(nullptr);
    m_threadsPane->setIndex(nullptr);
    m_spansPane->setIndex(nullptr);
    m_profilePane->setIndex(nullptr);
    m_sparkSizes->setIndex(nullptr);
    m_compare->setRunA(QString(), nullptr, nullptr);
    m_compareTimeline->clear(); // (B comes back under the new log once it is compared with it)
    m_runAHeader->hide();
    m_profilePane->setReport(nullptr, QString()); // a report opened beside the old log was of its run
    m_reportRunner.cancel();
    m_view->setHeapView(nullptr);
    m_details->clear(); // it described an item of the old log
    m_statsRunner.cancel();
    m_bookmarks->setLog(QString(), nullptr);
    m_capModel->setStats(RangeStats{});
    m_process->clear();
    m_diagnostics->clear();
    m_stats->clear();
    setWindowTitle(tr("%1 — Hecscope").arg(QFileInfo(path).fileName()));
    m_fileLabel->setText(QFileInfo(path).fileName());
    showBanner(tr("Loading %1…").arg(path), BannerKind::Note);
    emit logCleared();
}

// A report alone: no time axis, so the Profile pane is the view.
void MainWindow::openReportAlone(const QString& path)
{
    m_view->setPlaceholder(tr("no eventlog: the cost-centre report is in the Profile pane"));
    setWindowTitle(tr("%1 — Hecscope").arg(QFileInfo(path).fileName()));
    m_fileLabel->setText(QFileInfo(path).fileName());
    showBanner(tr("%1 is a cost-centre profile report: it covers the whole run, with no time axis (Profile "
                  "pane). To see the profile on the timeline, open the eventlog of the same run (+RTS -p -l) "
                  "and then this report with File ▸ Open Profile….")
                   .arg(QFileInfo(path).fileName()),
               BannerKind::Note);
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
                showBanner(tr("Cannot open the profile %1: %2").arg(path, qs(r.error)), BannerKind::Error);
                emit reportShown();
                return;
            }
            const auto profile = std::make_shared<const CostCentreProfile>(std::move(*r.profile));
            m_profilePane->setReport(profile, path);
            if (profile->error) {
                showBanner(tr("%1 is cut or malformed at %2.")
                               .arg(QFileInfo(path).fileName(), qs(problemText(*profile, "shown"))),
                           BannerKind::Warning);
            }
            m_profileDock->show();
            m_profileDock->raise();
            if (!m_index) // alone, the report is all there is to see: most of the window
                resizeDocks({m_profileDock}, {height() * 2 / 3}, Qt::Vertical);
            emit reportShown();
        });
}

void MainWindow::showIndex(std::shared_ptr<const LogIndex> index)
{
    m_progress->hide();
    m_cancel->hide();
    if (!m_loadingPath.isEmpty()) { // never accepted: not a log (e.g. cut inside its header)
        // Its job would go on to the statistics of the empty index, which
        // are not the log's on screen: it stops here.
        if (m_job) {
            m_job->cancel();
            m_retired.push_back(std::move(m_job));
            m_reaper->start();
        }
        QStringList problems;
        for (const Diagnostic& d : index->scan.diagnostics)
            problems << qs(d.message());
        showFailure(problems.isEmpty() ? tr("no eventlog header") : problems.join(QLatin1Char('\n')));
        return;
    }
    // After partial indexes (a long load) the view the user chose stays.
    const bool grown = m_index && m_partialShown;
    m_partialShown = false;
    std::shared_ptr<const LogIndex> old = std::exchange(m_index, std::move(index));
    m_view->setPlaceholder(QString());
    // The event list reads the same open file the index was made from.
    applyIndex(m_job ? m_job->source() : std::shared_ptr<ByteSource>(), grown);
    m_compare->setRunA(m_path, m_index, m_job ? m_job->source() : std::shared_ptr<ByteSource>());
    dispose(std::move(old));
    // Problems with the file are shown above the timeline, which still shows
    // everything decoded before them.
    QStringList problems;
    bool error = false;
    for (const Diagnostic& d : m_index->scan.diagnostics) {
        problems << qs(d.message());
        error = error || d.isError();
    }
    if (problems.isEmpty()) {
        m_banner->hide();
    } else {
        showBanner(problems.join(QLatin1Char('\n')) + tr("\nShowing the %1 events decoded before the problem.").arg(m_index->scan.events),
                   error ? BannerKind::Error : BannerKind::Warning);
    }
    m_stats->setPlainText(tr("Computing statistics…"));
    emit loadFinished();
}

void MainWindow::applyIndex(std::shared_ptr<ByteSource> events, bool grown)
{
    m_view->setDetailSource(events); // before the index: the first paint reads through it
    const std::shared_ptr<ByteSource> sparkSource = events; // the Spark Sizes and Threads panes read their range's detail
    if (grown) {
        m_view->updateIndex(m_index);
    } else {
        m_view->setIndex(m_index);
        if (m_keepView) {
            m_controller->setRange(m_keepView->first, false);
            m_controller->setSelection(m_keepView->second);
            m_keepView.reset();
        }
    }
    if (grown) // only a live session follows the newest events; a long load's list stays where it is (the top)
        m_events->updateLog(std::move(events), m_index, m_live && m_liveControls->following());
    else
        m_events->setLog(std::move(events), m_index);
    m_gcModel->setIndex(m_index);
    m_heapPanel->setIndex(m_index);
    m_bandModel->setIndex(m_index);
    m_bandModel->setCursor(m_view->cursor());
    m_bandModel->setRange(m_controller->selection());
    m_ccTree->setIndex(m_index);
    m_threadRows->setIndex(m_index);
    m_threadsPane->setSource(sparkSource); // (a range's thread segments are read back too)
    if (grown) { // the user's choices there stay
        m_threadsPane->updateIndex(m_index);
        m_spansPane->updateIndex(m_index);
    } else {
        m_threadsPane->setIndex(m_index);
        m_spansPane->setIndex(m_index);
    }
    m_profilePane->setRange(m_controller->selection()); // first: the index then computes once, for it
    m_profilePane->setIndex(m_index);
    m_sparkSizes->setIndex(m_index, sparkSource); // its range follows the selection from the start
    m_threadsPane->setRange(m_controller->selection());
    m_spansPane->setRange(m_controller->selection());
    m_bookmarks->setLog(m_path, m_index.get());
    showProcess();
    m_diagnostics->clear();
    for (const Diagnostic& d : m_index->scan.diagnostics)
        m_diagnostics->addItem(QString::fromStdString(d.message()));
    if (m_index->scan.diagnostics.empty())
        m_diagnostics->addItem(grown ? tr("No problems so far.") : tr("No problems: the log decoded completely."));
    showSpanIssues(m_index->userSpans);
    const uint64_t duration = m_index->firstTime == kNoTime ? 0 : m_index->lastTime;
    m_fileLabel->setText(tr("%1 — %2 events — %3")
                             .arg(QFileInfo(m_path).fileName())
                             .arg(m_index->scan.events)
                             .arg(durationText(duration)));
}

// Progressive open: what a long load has read so far, on every pane, while
// the progress bar goes on.
void MainWindow::showPartialIndex(std::shared_ptr<const LogIndex> index)
{
    if (!m_loadingPath.isEmpty() || !index->scan.format)
        return; // not yet accepted as a log
    const bool grown = m_index != nullptr;
    std::shared_ptr<const LogIndex> old = std::exchange(m_index, std::move(index));
    m_partialShown = true;
    m_view->setPlaceholder(QString());
    applyIndex(m_job ? m_job->partialSource() : std::shared_ptr<ByteSource>(), grown);
    dispose(std::move(old));
    m_stats->setPlainText(tr("Loading: statistics come once the whole log is read."));
    emit partialShown();
}

void MainWindow::dispose(std::shared_ptr<const LogIndex> old)
{
    if (old)
        m_disposer.run([old = std::move(old)](const JobContext&) mutable {
            old.reset();
            return 0;
        }, [](int) {});
}

// The banner's kinds, styled here only.
void MainWindow::showBanner(const QString& text, BannerKind kind)
{
    const char* style = "";
    switch (kind) {
    case BannerKind::Note: break;
    case BannerKind::Info: style = "background:#d6eaf8;color:#000"; break;
    case BannerKind::Warning: style = "background:#fcf3cf;color:#000"; break;
    case BannerKind::Error: style = "background:#f5b7b1;color:#000"; break;
    }
    m_banner->setText(text);
    m_banner->setStyleSheet(QString::fromLatin1(style));
    m_banner->show();
}

void MainWindow::openLive(const QString& source, const QString& recordPath)
{
    std::string why;
    const std::optional<SourceAddress> address = parseSourceAddress(source.toStdString(), why);
    auto job = std::make_unique<LiveJob>();
    QString error = QString::fromStdString(why);
    LiveOptions options;
    options.recordPath = recordPath.toStdString();
    options.keepNs = m_liveControls->keepNs();
    if (!address || !job->start(*address, options, &error)) {
        QString text = tr("Cannot follow %1: %2").arg(source, error);
        if (m_index)
            text += tr("\nStill showing %1.").arg(QFileInfo(m_path).fileName());
        showBanner(text, BannerKind::Error);
        emit loadFinished();
        return;
    }
    cancelLoad();
    clearLog(source); // ends the previous live session, if any
    m_live = std::move(job);
    m_liveDisconnected = false;
    m_liveControls->setJob(m_live.get());
    connect(m_live.get(), &LiveJob::updated, this,
            [this](std::shared_ptr<const LogIndex> index, const LiveStatus& status, qint64) {
                showLiveUpdate(std::move(index), status);
            });
    m_view->setPlaceholder(tr("waiting for %1…").arg(source));
    showBanner(tr("Following %1 live: the view keeps the latest seconds (Follow, F); Stop keeps what was received.")
                   .arg(source),
               BannerKind::Info);
    if (address->kind == SourceAddress::Kind::File || address->kind == SourceAddress::Kind::Pipe)
        addRecent(source);
}

void MainWindow::showLiveUpdate(std::shared_ptr<const LogIndex> index, const LiveStatus& status)
{
    const bool final = isFinal(status.state);
    const bool wasDisconnected = std::exchange(m_liveDisconnected, status.state == LiveState::Disconnected);
    if (!index->scan.format && !index->hpFile && !final) { // nothing decoded yet: say what it waits for
        m_view->setPlaceholder(tr("%1: %2").arg(m_live->sourceText(), QString::fromStdString(status.message)));
        m_liveControls->updated(status, 0);
        return;
    }
    const bool grown = m_index != nullptr;
    std::shared_ptr<const LogIndex> old = std::exchange(m_index, std::move(index));
    m_view->setPlaceholder(QString());
    m_liveControls->setMoving(true); // the bounds grow: not the user's move
    applyIndex(m_live->recording(), grown);
    m_liveControls->setMoving(false);
    dispose(std::move(old));
    m_view->setPendingFrom(!final && status.mergedTime < status.newestTime ? std::optional(status.mergedTime) : std::nullopt);
    m_view->setDroppedBefore(m_index->dropped.fromByte > 0 ? std::optional(m_index->dropped.before) : std::nullopt);
    m_liveControls->updated(status, m_index->firstTime == kNoTime ? 0 : m_index->firstTime);
    // Whole-run statistics of every update, on a worker; a newer update
    // drops an older result.
    // (Keeping only the latest stretch: the figures are the stretch's.)
    m_liveStatsRunner.start(
        [index = m_index](const JobContext&) {
            return index->dropped.fromByte > 0 ? computeStats(*index, index->dropped.before, index->lastTime)
                                               : computeStats(*index);
        },
        [this](RangeStats stats) { showStatistics(stats); });
    if (final) {
        const bool failed = status.state == LiveState::Failed || m_index->scan.hasError;
        QString text = tr("%1 %2: %3.").arg(m_live->sourceText(), QString::fromLatin1(liveStateName(status.state)),
                                            QString::fromStdString(status.message));
        for (const Diagnostic& d : m_index->scan.diagnostics)
            text += QLatin1Char('\n') + qs(d.message());
        if (m_index->dropped.fromByte > 0)
            text += tr("\nShowing the latest stretch, from %1: %2 of the %3 events received (older ones were "
                       "dropped to keep memory bounded).")
                        .arg(durationText(m_index->dropped.before), countText(m_index->scan.events),
                             countText(m_index->scan.events + m_index->dropped.events));
        else if (m_index->hpFile)
            text += tr("\nShowing the %1 complete censuses received.").arg(countText(m_index->heapProfile.censuses.size()));
        else
            text += tr("\nShowing the %1 events received.").arg(countText(m_index->scan.events));
        if (!m_live->recordPath().isEmpty())
            text += tr(" Recorded in %1.").arg(m_live->recordPath());
        showBanner(text, failed ? BannerKind::Error : BannerKind::Info);
    } else if (status.state == LiveState::Disconnected) {
        showBanner(tr("%1. Everything received is kept; Reconnect appends the next connection to this timeline.")
                       .arg(QString::fromStdString(status.message)),
                   BannerKind::Warning);
    } else if (status.state == LiveState::Receiving && !m_index->scan.diagnostics.empty()) {
        QStringList problems;
        for (const Diagnostic& d : m_index->scan.diagnostics)
            problems << qs(d.message());
        showBanner(problems.join(QLatin1Char('\n')), BannerKind::Warning);
    } else if (wasDisconnected) { // reconnecting, or receiving again
        showBanner(tr("Following %1 live: the view keeps the latest seconds (Follow, F); Stop keeps what was received.")
                       .arg(m_live->sourceText()),
                   BannerKind::Info);
    }
    // A run compared with the live one: its figures follow, every two
    // seconds at most while it runs (a comparison in progress is not
    // restarted), and once more when it ends. B's timeline is stacked
    // under A's once A's session has ended.
    if (!m_compare->pathB().isEmpty()
        && (final || ((!m_liveCompared.isValid() || m_liveCompared.elapsed() >= 2000) && !m_compare->isBusy()))) {
        m_compare->setRunA(m_path, m_index, m_live->recording());
        m_liveCompared.start();
    }
    emit liveUpdateShown();
}

void MainWindow::showStatistics(const RangeStats& stats)
{
    m_wholeStats = stats;
    showSelectionStatistics();
    emit statisticsShown();
}

QString MainWindow::bannerText() const
{
    return m_banner->isHidden() ? QString() : m_banner->text();
}

QString MainWindow::statisticsText() const
{
    return m_stats->toPlainText();
}

namespace {

// The +RTS -s table of the run or the range, above the rest of the figures.
std::string rtsSummaryBlock(const LogIndex& ix, const RangeStats& st, bool wholeRun)
{
    return "As +RTS -s prints them\n\n" + rtsSummaryText(ix, st, wholeRun) + "\n";
}

} // namespace

void MainWindow::showSelectionStatistics()
{
    if (!m_index || !m_wholeStats)
        return;
    const auto sel = m_controller->selection();
    if (m_index->hpFile) { // no scheduler figures: the file's facts (a selection ranks the Heap Bands)
        m_stats->setPlainText(qs(infoText(*m_index, *m_wholeStats, m_path.toStdString())));
        return;
    }
    if (!sel) {
        m_statsRunner.cancel();
        const bool stretch = m_index->dropped.fromByte > 0;
        QString text = (stretch ? tr("Latest stretch, from %1 (%2 older events dropped; the recording has them)\n\n")
                                      .arg(durationText(m_index->dropped.before), countText(m_index->dropped.events))
                                : tr("Whole run\n\n"))
            + qs(rtsSummaryBlock(*m_index, *m_wholeStats, !stretch))
            + qs(infoText(*m_index, *m_wholeStats, m_path.toStdString()));
        m_stats->setPlainText(text);
        // The spans' figures take a pass over every span: on a worker.
        if (const auto spans = m_spansPane->spans(); spans && !spans->spans.empty())
            m_statsRunner.start(
                [spans](const JobContext& ctx) {
                    return spanFiguresText(*spans, spanFigures(*spans, std::nullopt, [&ctx] { return ctx.isCancelled(); }), 20);
                },
                [this, text](std::string spansText) {
                    m_stats->setPlainText(text + tr("\nUser spans (the 20 with the most time; all in the Spans pane)\n\n")
                                          + qs(spansText));
                });
        m_capModel->setStats(*m_wholeStats);
        return;
    }
    // Computed on a worker while the user drags; a newer selection drops
    // an older result. The pane says so meanwhile.
    const QString title = tr("Selection %1 – %2 (%3)\n\n")
                              .arg(timeText(sel->start), timeText(sel->end), durationText(sel->duration()));
    m_stats->setPlainText(title + tr("computing…"));
    struct Result {
        RangeStats stats;
        std::string text;
    };
    m_statsRunner.start(
        [index = m_index, range = *sel, path = m_path.toStdString(), spans = m_spansPane->spans()](const JobContext&) {
            Result r{computeStats(*index, range.start, range.end), {}};
            r.text = rtsSummaryBlock(*index, r.stats, false) + infoText(*index, r.stats, path);
            if (spans && !spans->spans.empty()) {
                const auto figures = spanFigures(*spans, range);
                r.text += "\nUser spans starting in the selection\n\n"
                    + (figures.empty() ? std::string("none\n") : spanFiguresText(*spans, figures, 20));
            }
            return r;
        },
        [this, title](Result r) {
            m_capModel->setStats(r.stats);
            m_stats->setPlainText(title + qs(r.text));
        });
}

void MainWindow::showFailure(const QString& message)
{
    m_progress->hide();
    m_cancel->hide();
    QString text;
    if (!m_loadingPath.isEmpty()) { // nothing was replaced: the log on screen stays
        text = tr("Cannot open %1: %2").arg(m_loadingPath, message);
        if (m_index)
            text += tr("\nStill showing %1.").arg(QFileInfo(m_path).fileName());
        m_view->setPlaceholder(m_placeholderBefore);
        m_loadingPath.clear();
    } else {
        m_view->setPlaceholder(tr("the file could not be opened"));
        text = tr("Cannot open %1: %2").arg(m_path, message);
    }
    showBanner(text, BannerKind::Error);
    emit loadFinished();
}

void MainWindow::closeEvent(QCloseEvent* e)
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState(kLayoutVersion));
    cancelLoad();
    e->accept();
}

void MainWindow::showEvent(QShowEvent* e)
{
    QMainWindow::showEvent(e);
    if (!m_firstLayout)
        return;
    m_firstLayout = false;
    // The window's size settles after it is shown (maximised by the window
    // manager): until then, and for the first half second, every resize
    // lays the panes out again.
    m_settling = true;
    QTimer::singleShot(500, this, [this] { m_settling = false; });
    QTimer::singleShot(0, this, &MainWindow::firstLayout);
}

void MainWindow::resizeEvent(QResizeEvent* e)
{
    QMainWindow::resizeEvent(e);
    if (m_settling && e->size() != m_laidOutFor)
        QTimer::singleShot(0, this, &MainWindow::firstLayout);
}

// The first start's layout for the window's size: the column on the right
// a fifth of the width (its natural size is more: the timeline is what the
// user came for), the panes below the timeline a third of the height.
void MainWindow::firstLayout()
{
    if (size() == m_laidOutFor)
        return;
    m_laidOutFor = size();
    QDockWidget* details = findChild<QDockWidget*>(QStringLiteral("details"), Qt::FindDirectChildrenOnly);
    resizeDocks({details}, {std::max(300, width() / 5)}, Qt::Horizontal);
    QList<QDockWidget*> bottom;
    for (QDockWidget* d : findChildren<QDockWidget*>())
        if (dockWidgetArea(d) == Qt::BottomDockWidgetArea && !d->isFloating())
            bottom << d;
    if (!bottom.isEmpty())
        resizeDocks(bottom, QList<int>(bottom.size(), std::max(kUsefulPaneHeight, height() / 3)), Qt::Vertical);
    // The right column: what was clicked over the log's facts.
    if (QDockWidget* bookmarks = findChild<QDockWidget*>(QStringLiteral("bookmarks"), Qt::FindDirectChildrenOnly))
        resizeDocks({details, bookmarks}, {height() * 3 / 5, height() * 2 / 5}, Qt::Vertical);
}

// The dock areas' tab bars (made by QMainWindow as docks are tabified)
// show whole names and scroll, rather than eliding "Statistics" to "S…".
bool MainWindow::event(QEvent* e)
{
    // Only a bar not yet set is touched: each setter relayouts the bar even
    // when nothing changes, which posts the window another LayoutRequest —
    // setting them on every request kept the window relayouting forever
    // (a whole core, idle).
    if (e->type() == QEvent::ChildAdded || e->type() == QEvent::LayoutRequest)
        for (QTabBar* bar : findChildren<QTabBar*>(Qt::FindDirectChildrenOnly)) {
            if (bar->elideMode() != Qt::ElideNone)
                bar->setElideMode(Qt::ElideNone);
            if (!bar->usesScrollButtons())
                bar->setUsesScrollButtons(true);
        }
    return QMainWindow::event(e);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* e)
{
    if (e->mimeData()->hasUrls() && e->mimeData()->urls().size() == 1 && e->mimeData()->urls()[0].isLocalFile())
        e->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* e)
{
    // With Shift: compared with the log on screen instead of replacing it.
    if ((e->modifiers() & Qt::ShiftModifier) && m_index) {
        compareWith(e->mimeData()->urls()[0].toLocalFile());
        e->acceptProposedAction();
        return;
    }
    openFile(e->mimeData()->urls()[0].toLocalFile());
    e->acceptProposedAction();
}

} // namespace hecscope
