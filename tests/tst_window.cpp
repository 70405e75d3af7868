// The main window's frame: default layout on first start, a saved layout
// kept afterwards; opening another file lets go of the old one first.
#include "ui/heap/heappanel.h"
#include "ui/timeline/timelineview.h"
#include "ui/timeline/viewcontroller.h"
#include "ui/window/mainwindow.h"

#include <QDockWidget>
#include <QScrollArea>
#include <QSettings>
#include <QSignalSpy>
#include <QtTest>

using namespace hecscope;

class TestWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void firstStartGivesTheTimelineTwoThirds();
    void savedLayoutIsKept();
    void openingAnotherFileReleasesTheOldIndex();
};

void TestWindow::initTestCase()
{
    QCoreApplication::setOrganizationName(QStringLiteral("HecscopeTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_window"));
    QSettings().clear();
}

static int timelineWidth(const MainWindow& w)
{
    // The timeline's viewport: what the scroll area around it shows.
    auto* scroll = qobject_cast<QScrollArea*>(w.timeline()->parentWidget()->parentWidget());
    return scroll ? scroll->viewport()->width() : w.timeline()->width();
}

void TestWindow::firstStartGivesTheTimelineTwoThirds()
{
    QSettings().clear();
    MainWindow w;
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
    QSettings().clear();
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
    w.openFile(QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/sparks-N4.eventlog"));
    QVERIFY(!w.index());
    QVERIFY(!w.heapPanel()->view());
    QVERIFY(w.detailsText().isEmpty()); // no pane describes the old log
    // Jobs of the old log that were still running hold it until they see
    // the cancellation (a chunk at most); nothing else does.
    QTRY_VERIFY_WITH_TIMEOUT(old.expired(), 20000);
    QVERIFY(finished.wait(20000));
    QVERIFY(w.index());
}

QTEST_MAIN(TestWindow)
#include "tst_window.moc"
