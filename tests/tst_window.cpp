// The main window's frame: default layout on first start, a saved layout
// kept afterwards.
#include "ui/timeline/timelineview.h"
#include "ui/window/mainwindow.h"

#include <QDockWidget>
#include <QScrollArea>
#include <QSettings>
#include <QtTest>

using namespace hecscope;

class TestWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void firstStartGivesTheTimelineTwoThirds();
    void savedLayoutIsKept();
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

QTEST_MAIN(TestWindow)
#include "tst_window.moc"
