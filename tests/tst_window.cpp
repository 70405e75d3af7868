// The main window's frame: default layout on first start, a saved layout
// kept afterwards; opening another file lets go of the old one first.
#include "ui/events/eventlistmodel.h"
#include "ui/events/eventlistpane.h"
#include "ui/heap/heappanel.h"
#include "ui/jobs/settings.h"
#include "ui/timeline/timelineview.h"
#include "ui/timeline/tracks/instantmarks.h"
#include "ui/document/viewcontroller.h"
#include "ui/window/helpmenu.h"
#include "ui/window/loadprogress.h"
#include "ui/threads/threadrowscontroller.h"
#include "ui/window/mainwindow.h"
#include "ui/jobs/workerpool.h"

#include <QDeadlineTimer>
#include <QDockWidget>
#include <QFile>
#include <QMenu>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QTabBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QScopeGuard>
#include <QScrollArea>
#include <QSettings>
#include <QSignalSpy>
#include <QtTest>

#include <atomic>
#include <functional>
#include <future>

using namespace hecscope;

class TestWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void firstStartGivesTheTimelineTwoThirds();
    void savedLayoutIsKept();
    void openingAnotherFileReleasesTheOldIndex();
    void aFailedOpenKeepsTheLogOnScreen();
    void recentFilesAreWrittenByAWorker();
    void settingsAreWrittenByAWorker();
    void anIdleWindowProcessesNoEvents();
    void zoomedInMarksAreReadBackFromTheFile();
    void aFileCutUnderTheViewIsSaidOnTheRow();
    void everyPaneIsOneClickAway_data();
    void everyPaneIsOneClickAway();
    void helpListsEveryShortcut();
};

void TestWindow::initTestCase()
{
    QCoreApplication::setOrganizationName(QStringLiteral("HecscopeTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_window"));
    Settings::clear();
}

static int timelineWidth(const MainWindow& w)
{
    // The timeline's viewport: what the scroll area around it shows.
    auto* scroll = qobject_cast<QScrollArea*>(w.timeline()->parentWidget()->parentWidget());
    return scroll ? scroll->viewport()->width() : w.timeline()->width();
}

void TestWindow::firstStartGivesTheTimelineTwoThirds()
{
    Settings::clear();
    MainWindow w;
    QVERIFY(w.isFirstStart()); // nothing saved: main() shows it maximised
    w.resize(1600, 1000);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QCoreApplication::processEvents();
    QVERIFY2(timelineWidth(w) * 3 >= w.width() * 2,
             qPrintable(QStringLiteral("timeline %1 of %2 px").arg(timelineWidth(w)).arg(w.width())));
    // And the panes are still there, not collapsed to nothing.
    auto* stats = w.findChild<QDockWidget*>(QStringLiteral("statistics"));
    QVERIFY(stats && stats->isVisible());
    QVERIFY(stats->width() >= 250);
    w.close();
}

void TestWindow::savedLayoutIsKept()
{
    Settings::clear();
    int chosen = 0;
    {
        MainWindow w;
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* stats = w.findChild<QDockWidget*>(QStringLiteral("statistics"));
        QVERIFY(stats);
        w.resizeDocks({stats}, {700}, Qt::Horizontal); // the user widens the panes
        QCoreApplication::processEvents();
        chosen = stats->width();
        QVERIFY(chosen > 600);
        w.close(); // saves the state
    }
    MainWindow again;
    again.show();
    QVERIFY(QTest::qWaitForWindowExposed(&again));
    QCoreApplication::processEvents();
    auto* stats = again.findChild<QDockWidget*>(QStringLiteral("statistics"));
    QVERIFY(stats);
    QVERIFY2(std::abs(stats->width() - chosen) <= 10,
             qPrintable(QStringLiteral("restored %1, saved %2").arg(stats->width()).arg(chosen)));
}

// Opening another file drops every reference to the old index (timeline,
// panes, heap panes, jobs) before the new load runs, so two indexes never
// coexist, and the heap panes are empty until the new one arrives.
void TestWindow::openingAnotherFileReleasesTheOldIndex()
{
    MainWindow w;
    QSignalSpy finished(&w, &MainWindow::loadFinished);
    w.openFile(QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/leak-hT.eventlog"));
    QVERIFY(finished.wait(20000));
    std::weak_ptr<const LogIndex> old = w.index();
    QVERIFY(!old.expired());
    QVERIFY(w.heapPanel()->view()); // leak-hT has a heap profile
    // Click-like use of the old log: a selection (statistics on a worker).
    w.controller()->setSelection(ViewRange{0, w.index()->lastTime / 2});
    // An item of the old log described in Details (a click on the timeline).
    emit w.timeline()->itemClicked(QStringLiteral("Collection: generation 1"));
    QVERIFY(!w.detailsText().isEmpty());
    // The old log stays until the new file shows itself to be a log (its
    // header decoded), then every pane lets go of it before the new index:
    // looked at the moment the window says so (the new index may follow in
    // the same turn of the event loop).
    struct AtClear {
        bool seen = false, noIndex = false, noHeapView = false, noDetails = false;
        int loads = 0;
    } atClear;
    connect(&w, &MainWindow::logCleared, this, [&] {
        atClear = {true, !w.index(), !w.heapPanel()->view(), w.detailsText().isEmpty(), int(finished.count())};
    });
    QSignalSpy cleared(&w, &MainWindow::logCleared);
    w.openFile(QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/sparks-N4.eventlog"));
    QVERIFY(cleared.wait(20000));
    QVERIFY(atClear.seen);
    QCOMPARE(atClear.loads, 1); // before the new index
    QVERIFY(atClear.noIndex);
    QVERIFY(atClear.noHeapView);
    QVERIFY(atClear.noDetails); // no pane describes the old log
    // Jobs of the old log that were still running hold it until they see
    // the cancellation (a chunk at most); nothing else does.
    QTRY_VERIFY_WITH_TIMEOUT(old.expired(), 20000);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 20000); // it may have come meanwhile
    QVERIFY(w.index());
}

// Every background job the window started has ended and the UI thread has
// taken what it sent back (taking a result may start another job: until the
// shared pool stays idle over three turns of the event loop).
static bool jobsSettle()
{
    const QDeadlineTimer deadline(20000);
    for (int idle = 0; idle < 3;) {
        if (deadline.hasExpired())
            return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        idle = WorkerPool::shared().isIdle() ? idle + 1 : 0;
        if (idle == 0)
            QTest::qSleep(5);
    }
    return true;
}

// What the settings hold once the window's writes (a worker's) are done.
static QStringList recentFiles()
{
    if (!jobsSettle())
        return {QStringLiteral("(the workers did not settle)")};
    return QSettings().value(QStringLiteral("recentFiles")).toStringList();
}

// A file that is not a log — text, a log cut inside its header, a path that
// is not there — leaves the log on screen and every pane as they were, says
// why in the banner (naming the problem and its byte offset), and is not
// added to Open Recent.
void TestWindow::aFailedOpenKeepsTheLogOnScreen()
{
    Settings::clear();
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString text = dir.filePath(QStringLiteral("notes.txt"));
    {
        QFile f(text);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("These are my notes, not an eventlog.\n");
    }
    const QString cut = dir.filePath(QStringLiteral("cut.eventlog"));
    {
        QFile in(QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/sparks-N2.eventlog"));
        QVERIFY(in.open(QIODevice::ReadOnly));
        QFile out(cut);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(in.read(100)); // inside the header
    }
    const QString good = QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/leak-hT.eventlog");
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QSignalSpy finished(&w, &MainWindow::loadFinished);
    QSignalSpy cleared(&w, &MainWindow::logCleared);
    // With nothing on screen: said, and the tracks are back to "no log open".
    w.openFile(text);
    QVERIFY(finished.wait(20000));
    QVERIFY2(w.bannerText().contains(QStringLiteral("Cannot open %1: not a GHC eventlog").arg(text)), qPrintable(w.bannerText()));
    QVERIFY(!w.bannerText().contains(QStringLiteral("Still showing")));
    QCOMPARE(w.timeline()->options().placeholder, QStringLiteral("no log open"));
    QVERIFY(recentFiles().isEmpty());
    QCOMPARE(cleared.count(), 0);
    QSignalSpy statsShown(&w, &MainWindow::statisticsShown);
    w.openFile(good);
    QVERIFY(finished.wait(20000));
    QVERIFY(statsShown.count() > 0 || statsShown.wait(20000));
    QTableView* capView = w.capabilityTable();
    QVERIFY(capView && capView->model()->rowCount() > 0);
    const int capRows = capView->model()->rowCount();
    const auto shown = w.index();
    QVERIFY(shown && shown->scan.events > 1000);
    // The whole run's statistics and capabilities stay through a failed
    // open: its job computes nothing more over the log on screen.
    const QString wholeRun = w.statisticsText();
    QVERIFY2(wholeRun.startsWith(QStringLiteral("Whole run")), qPrintable(wholeRun.left(200)));
    w.openFile(text);
    QVERIFY(finished.wait(20000));
    QVERIFY(jobsSettle());
    QCOMPARE(w.statisticsText(), wholeRun);
    QCOMPARE(capView->model()->rowCount(), capRows);
    w.controller()->setSelection(ViewRange{0, shown->lastTime / 2});
    emit w.timeline()->itemClicked(QStringLiteral("Collection: generation 1"));
    QTRY_VERIFY_WITH_TIMEOUT(!w.statisticsText().contains(QStringLiteral("computing")), 20000);
    const QString statistics = w.statisticsText();
    QVERIFY2(statistics.contains(QStringLiteral("Selection")) && statistics.contains(QStringLiteral("allocated")),
             qPrintable(statistics.left(400)));
    const QString title = w.windowTitle();
    const QStringList recent = recentFiles();
    QCOMPARE(recent.size(), 1);
    QCOMPARE(cleared.count(), 1);
    const struct {
        QString path;
        QString problem;
    } bad[] = {
        {text, QStringLiteral("not a GHC eventlog: expected header magic 'hdrb', found 'Thes' at byte offset 0")},
        {cut, QStringLiteral("the file ends inside the header at byte offset 100")},
        {dir.filePath(QStringLiteral("missing.eventlog")), QStringLiteral("missing.eventlog")},
    };
    for (const auto& b : bad) {
        w.openFile(b.path);
        QVERIFY(finished.wait(20000));
        QVERIFY2(w.bannerText().contains(QStringLiteral("Cannot open %1").arg(b.path)), qPrintable(w.bannerText()));
        QVERIFY2(w.bannerText().contains(b.problem), qPrintable(w.bannerText()));
        QVERIFY2(w.bannerText().contains(QStringLiteral("Still showing leak-hT.eventlog")), qPrintable(w.bannerText()));
        QCOMPARE(w.index(), shown);
        QCOMPARE(cleared.count(), 1);
        QCOMPARE(w.windowTitle(), title);
        QCOMPARE(w.timeline()->renderer().index(), shown.get());
        QCOMPARE(w.eventList()->model()->rowCount(), int(shown->scan.events));
        QVERIFY(w.heapPanel()->view());
        QCOMPARE(w.detailsText(), QStringLiteral("Collection: generation 1"));
        QCOMPARE(w.controller()->selection(), std::optional<ViewRange>(ViewRange{0, shown->lastTime / 2}));
        QCOMPARE(recentFiles(), recent);
        // The failed file's job computes nothing more over the log on
        // screen: its statistics and capabilities stay.
        QVERIFY(jobsSettle());
        QCOMPARE(w.statisticsText(), statistics);
        QCOMPARE(capView->model()->rowCount(), capRows);
    }
    // The next good file replaces it as usual.
    w.openFile(QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/sparks-N2.eventlog"));
    QVERIFY(finished.wait(20000));
    QCOMPARE(cleared.count(), 2);
    QVERIFY(w.index() != shown);
    QCOMPARE(recentFiles().size(), 2);
}

// File ▸ Open Recent: the menu has a file at once; the settings have it
// once the worker has written them, and surely when the list is gone. Each
// write goes onto the list the settings hold then (another window's file
// stays), newest first, each file once.
void TestWindow::recentFilesAreWrittenByAWorker()
{
    Settings::clear();
    Settings::setValue(QStringLiteral("recentFiles"), QStringList{QStringLiteral("/elsewhere/first.eventlog")});
    Settings::waitForWrites();
    QMenu menu;
    const auto shown = [&] {
        QStringList paths;
        for (const QAction* a : menu.actions())
            paths << a->text().section(QStringLiteral("  —  "), 1);
        return paths;
    };
    {
        RecentFiles recent(&menu, nullptr);
        QCOMPARE(shown(), QStringList{QStringLiteral("/elsewhere/first.eventlog")});
        // Another process's file, written after this list was read.
        QSettings().setValue(QStringLiteral("recentFiles"),
                             QStringList{QStringLiteral("/elsewhere/second.eventlog"), QStringLiteral("/elsewhere/first.eventlog")});
        // The settings' writer kept busy: what the UI thread wrote itself
        // would be in the file all the same.
        std::promise<void> release, started;
        const std::shared_future<void> released = release.get_future().share();
        const auto releaseOnLeaving = qScopeGuard([&] { release.set_value(); }); // (before `recent` waits)
        Settings::update(QStringLiteral("test/blocker"), [released, &started](const QVariant&) {
            started.set_value();
            released.wait();
            return QVariant(1);
        });
        started.get_future().wait();
        recent.add(QStringLiteral("/logs/a.eventlog"));
        recent.add(QStringLiteral("/logs/b.eventlog"));
        recent.add(QStringLiteral("/logs/a.eventlog"));
        QCOMPARE(shown(), (QStringList{QStringLiteral("/logs/a.eventlog"), QStringLiteral("/logs/b.eventlog"),
                                       QStringLiteral("/elsewhere/first.eventlog")}));
        QVERIFY(menu.isEnabled());
        QCOMPARE(QSettings().value(QStringLiteral("recentFiles")).toStringList(),
                 (QStringList{QStringLiteral("/elsewhere/second.eventlog"), QStringLiteral("/elsewhere/first.eventlog")}));
    }
    QCOMPARE(QSettings().value(QStringLiteral("recentFiles")).toStringList(),
             (QStringList{QStringLiteral("/logs/a.eventlog"), QStringLiteral("/logs/b.eventlog"),
                          QStringLiteral("/elsewhere/second.eventlog"), QStringLiteral("/elsewhere/first.eventlog")}));
    // At most ten, the oldest dropped.
    {
        RecentFiles recent(&menu, nullptr);
        for (int i = 0; i < 12; ++i)
            recent.add(QStringLiteral("/logs/%1.eventlog").arg(i));
        QCOMPARE(shown().size(), 10);
        QCOMPARE(shown().front(), QStringLiteral("/logs/11.eventlog"));
    }
    const QStringList written = QSettings().value(QStringLiteral("recentFiles")).toStringList();
    QCOMPARE(written.size(), 10);
    QCOMPARE(written.front(), QStringLiteral("/logs/11.eventlog"));
    QCOMPARE(written.back(), QStringLiteral("/logs/2.eventlog"));
    Settings::clear();
}

void TestWindow::everyPaneIsOneClickAway_data()
{
    QTest::addColumn<QSize>("size");
    QTest::newRow("1600x1000") << QSize(1600, 1000);
    QTest::newRow("1280x800") << QSize(1280, 800);
}

// At 1600×1000 and 1280×800 the first layout fits the screen, every pane's
// tab shows (no tab bar has to scroll), the tables below the timeline and
// the timeline itself get room, and the +RTS -s table is not cut at the
// side.
void TestWindow::everyPaneIsOneClickAway()
{
    QFETCH(QSize, size);
    Settings::clear();
    MainWindow w;
    w.resize(size);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QSignalSpy finished(&w, &MainWindow::loadFinished);
    QSignalSpy statsShown(&w, &MainWindow::statisticsShown);
    w.openFile(QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/sparks-N4.eventlog"));
    QVERIFY(finished.wait(20000));
    QVERIFY(statsShown.count() > 0 || statsShown.wait(20000));
    QVERIFY(jobsSettle());
    QVERIFY2(w.size() == size, qPrintable(QStringLiteral("the window is %1×%2: its panes need more")
                                              .arg(w.width()).arg(w.height())));
    int docks = 0;
    for (QDockWidget* d : w.findChildren<QDockWidget*>()) {
        ++docks;
        QVERIFY2(d->isVisible() || !w.tabifiedDockWidgets(d).isEmpty(), qPrintable(d->objectName()));
    }
    QVERIFY(docks >= 15);
    for (QTabBar* bar : w.findChildren<QTabBar*>(Qt::FindDirectChildrenOnly)) {
        if (!bar->isVisible())
            continue;
        const int needed = bar->tabRect(bar->count() - 1).right() - bar->tabRect(0).left();
        QVERIFY2(needed <= bar->width(), qPrintable(QStringLiteral("tabs %1 need %2 px of %3")
                                                        .arg(bar->tabText(0)).arg(needed).arg(bar->width())));
    }
    auto* stats = w.findChild<QDockWidget*>(QStringLiteral("statistics"));
    QVERIFY(stats && stats->isVisible()); // the first pane shown below the timeline
    QVERIFY2(stats->height() >= 240, qPrintable(QString::number(stats->height())));
    QVERIFY2(timelineWidth(w) * 3 >= w.width() * 2, qPrintable(QString::number(timelineWidth(w))));
    // The widest line of the +RTS -s table fits the pane.
    auto* text = stats->findChild<QPlainTextEdit*>();
    QVERIFY(text);
    int widest = 0;
    const QFontMetrics fm(text->font());
    for (const QString& line : w.statisticsText().split(QLatin1Char('\n')))
        widest = std::max(widest, fm.horizontalAdvance(line));
    QVERIFY2(widest <= text->viewport()->width(), qPrintable(QStringLiteral("%1 of %2 px").arg(widest).arg(text->viewport()->width())));
    w.close();
}

// Help ▸ Keys and Mouse lists every shortcut of the menus (read from the
// actions themselves) and the timeline's gestures; About is there.
void TestWindow::helpListsEveryShortcut()
{
    MainWindow w;
    QVERIFY(w.helpMenu());
    QMenu* help = nullptr;
    for (QAction* a : w.menuBar()->actions())
        if (a->menu() && a->text().remove(QLatin1Char('&')) == QLatin1String("Help"))
            help = a->menu();
    QVERIFY(help);
    QStringList entries;
    for (QAction* a : help->actions())
        entries << a->text().remove(QLatin1Char('&'));
    QVERIFY2(entries.contains(QStringLiteral("Keys and Mouse")) && entries.contains(QStringLiteral("About Hecscope")),
             qPrintable(entries.join(QLatin1Char(','))));
    const QString keys = w.helpMenu()->keysText();
    int shortcuts = 0;
    std::function<void(QMenu*)> walk = [&](QMenu* m) {
        for (QAction* a : m->actions()) {
            if (a->menu())
                walk(a->menu());
            else
                for (const QKeySequence& k : a->shortcuts()) {
                    ++shortcuts;
                    QVERIFY2(keys.contains(k.toString(QKeySequence::NativeText).toHtmlEscaped()),
                             qPrintable(a->text() + QLatin1Char(' ') + k.toString()));
                }
        }
    };
    for (QAction* a : w.menuBar()->actions())
        if (a->menu())
            walk(a->menu());
    QVERIFY(shortcuts >= 10);
    for (const char* gesture : {"Shift+Drag", "Double-click", "Wheel", "Home", "Escape"})
        QVERIFY2(keys.contains(QLatin1String(gesture)), gesture);
}

// Counts every event Qt delivers to any object of the application.
class EventCounter : public QObject {
public:
    int count = 0;
    QMap<int, int> byType;
    bool eventFilter(QObject*, QEvent* e) override
    {
        ++count;
        ++byType[int(e->type())];
        return false;
    }
};

// An idle window does nothing: once a log is open and drawn, no event is
// delivered while the user does nothing (a relayout that posted the next
// relayout kept the main thread at a whole core, ~6,400 events a second).
// A text cursor's blink is allowed for; nothing per frame or layout (none is
// delivered today).
// The settings the user changes (a pane's sort, a track hidden, a dialog's
// choices) are written to the file by a worker, not the UI thread
// (QSettings rewrites the file and syncs it to the disk): seen at once
// through Settings, in the file once written, in the order made.
void TestWindow::settingsAreWrittenByAWorker()
{
    Settings::clear();
    Settings::setValue(QStringLiteral("test/count"), 1);
    Settings::setValue(QStringLiteral("test/count"), 2);
    Settings::setValue(QStringLiteral("test/gone"), QStringLiteral("x"));
    Settings::remove(QStringLiteral("test/gone"));
    QCOMPARE(Settings::value(QStringLiteral("test/count")).toInt(), 2);
    QVERIFY(!Settings::value(QStringLiteral("test/gone")).isValid());
    QCOMPARE(Settings::value(QStringLiteral("test/gone"), 7).toInt(), 7);
    Settings::waitForWrites();
    QCOMPARE(QSettings().value(QStringLiteral("test/count")).toInt(), 2);
    QVERIFY(!QSettings().contains(QStringLiteral("test/gone")));
    QVERIFY(Settings::lastWriter() != std::thread::id());
    QVERIFY(Settings::lastWriter() != std::this_thread::get_id());
    // A pane's choice: kept for the next window, through the worker.
    {
        ThreadRowsController rows;
        rows.setVisibleRows(23);
        QCOMPARE(ThreadRowsController().view()->visibleRows, 23); // (before it is written, too)
    }
    Settings::waitForWrites();
    QCOMPARE(QSettings().value(QStringLiteral("threads/rows")).toInt(), 23);
    QVERIFY(Settings::lastWriter() != std::this_thread::get_id());
    // Closing a window keeps its layout: written by the worker too.
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.close();
    }
    QVERIFY(Settings::value(QStringLiteral("window/geometry")).isValid());
    Settings::waitForWrites();
    QVERIFY(QSettings().contains(QStringLiteral("window/geometry")));
    QVERIFY(Settings::lastWriter() != std::this_thread::get_id());
    Settings::clear();
}

void TestWindow::anIdleWindowProcessesNoEvents()
{
    Settings::clear();
    for (const QString& path : {QString(), QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/threads-N2.eventlog")}) {
        MainWindow w;
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        if (!path.isEmpty()) {
            QSignalSpy finished(&w, &MainWindow::loadFinished);
            w.openFile(path);
            QVERIFY(finished.wait(20000));
        }
        // Workers finish, panes fill, the first paint: until no event came
        // for 300 ms (a text cursor blinks every 500).
        QVERIFY(jobsSettle());
        EventCounter counter;
        qApp->installEventFilter(&counter);
        const QDeadlineTimer deadline(20000);
        for (int before = -1; before != counter.count && !deadline.hasExpired();) {
            before = counter.count;
            QTest::qWait(300);
        }
        QVERIFY(!deadline.hasExpired());
        counter.count = 0;
        counter.byType.clear();
        QTest::qWait(2000);
        qApp->removeEventFilter(&counter);
        QString types;
        for (auto it = counter.byType.cbegin(); it != counter.byType.cend(); ++it)
            types += QStringLiteral(" %1×%2").arg(it.key()).arg(it.value());
        QVERIFY2(counter.count <= 4, qPrintable(QStringLiteral("%1 events in 2 s idle (%2), type×count:%3")
                                                     .arg(counter.count)
                                                     .arg(path.isEmpty() ? QStringLiteral("no log") : path, types)));
        w.close();
    }
}

// Shows `w` at 1600x1000 and opens `path` in it: true once loaded.
static bool showAndOpen(MainWindow& w, const QString& path)
{
    w.resize(1600, 1000);
    w.show();
    if (!QTest::qWaitForWindowExposed(&w))
        return false;
    QSignalSpy finished(&w, &MainWindow::loadFinished);
    w.openFile(path);
    return finished.wait(20000);
}

// The HEC rows' instants are not in the index: zoomed in, the window reads
// those it shows back from the file on a worker and draws them when they
// land (sparks-lf-N2: a spark created on capability 1, in its colour).
void TestWindow::zoomedInMarksAreReadBackFromTheFile()
{
    Settings::clear();
    const QString path = QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/sparks-lf-N2.eventlog");
    MainWindow w;
    QVERIFY(showAndOpen(w, path));
    TimelineView* view = w.timeline();
    QVERIFY(view->detail());
    QCOMPARE(view->detail()->cachedBytes(), size_t(0)); // zoomed out: dense, nothing read
    std::string error;
    DetailStore own(std::shared_ptr<ByteSource>(FileSource::open(path.toStdString(), error)));
    const CapInstants all = viewInstants(own, *w.index(), 1, 0, UINT64_MAX, true).instants;
    uint64_t t = kNoTime;
    for (size_t i = all.size() / 2; i < all.size() && t == kNoTime; ++i)
        if (all.kind(i) == InstantKind::SparkCreate)
            t = all.time(i);
    QVERIFY(t != kNoTime);
    const auto marks = [&] {
        const QImage image = view->grab().toImage();
        const QRgb colour = instantColor(InstantKind::SparkCreate).rgb();
        int n = 0;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x)
                n += (image.pixel(x, y) & 0xFFFFFF) == (colour & 0xFFFFFF);
        return n;
    };
    w.controller()->setRange(ViewRange{t - 20'000, t + 20'000}, false);
    QTRY_VERIFY_WITH_TIMEOUT(view->detail()->cachedBytes() > 0 && !view->isReadingDetail(), 5000);
    QTRY_VERIFY_WITH_TIMEOUT(marks() > 0, 5000);
    QVERIFY(view->renderer().takeWantedInstants().empty()); // everything shown was read
    w.close();
}

// The log is cut short while it is open: zoomed in past the cut, the HEC
// row says the file changed (and where) instead of drawing marks, and its
// tooltip says so too.
void TestWindow::aFileCutUnderTheViewIsSaidOnTheRow()
{
    Settings::clear();
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("cut.eventlog"));
    QVERIFY(QFile::copy(QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/sparks-lf-N2.eventlog"), path));
    MainWindow w;
    QVERIFY(showAndOpen(w, path));
    const auto index = w.index();
    QVERIFY(index->instants.size() > 1 && index->instants[1].marks() > 8);
    const InstantMark& late = index->instants[1].mark(index->instants[1].marks() - 2);
    QFile file(path);
    QVERIFY(file.resize(qint64(late.offset) - 1000)); // in place: the open file shrinks
    TimelineView* view = w.timeline();
    const ViewRange near{late.time - 20'000, late.time + 20'000};
    w.controller()->setRange(near, false);
    QTRY_VERIFY_WITH_TIMEOUT(view->detail()->cachedBytes() > 0 && !view->isReadingDetail(), 5000);
    view->grab(); // painted with what was read
    const RenderOptions o = view->options();
    const QRect area = view->rect();
    const TrackRow* hec1 = nullptr;
    const auto rows = view->renderer().layout(area, o);
    for (const TrackRow& row : rows)
        if (row.id() == QLatin1String("hecs") && row.cap == 1)
            hec1 = &row;
    QVERIFY(hec1);
    const QRect plot = view->renderer().plotArea(area, o);
    const QString said = view->renderer().describeAt(QPoint(plot.center().x(), hec1->rect.top() + 8), area, near, o);
    QVERIFY2(said.contains(QLatin1String("changed since it was opened")) && said.contains(QLatin1String("at byte")),
             qPrintable(said));
    w.close();
}

QTEST_MAIN(TestWindow)
#include "tst_window.moc"
