// The Spark sizes pane on real logs: sparks-lf-N2 (written with -lf) shows
// the bins core computes for the run, a selection and a capability, with a
// header saying which; its bars are drawn where the pane says and their
// tooltips say what they hold; sparks-N2 (-l only) draws the "needs -lf"
// message instead, a range without spark "no spark ran"; in the window the
// pane is a tab beside Events and Profile that follows the selection and
// never shows the previous file.
#include "core/index/logindex.h"
#include "core/io/bytesource.h"
#include "core/load/loader.h"
#include "core/stats/sparksizes.h"
#include "testsupport.h"
#include "ui/formatting.h"
#include "ui/jobs/settings.h"
#include "ui/profile/profilepane.h"
#include "ui/sparks/sparksizeschart.h"
#include "ui/sparks/sparksizespane.h"
#include "ui/document/viewcontroller.h"
#include "ui/window/mainwindow.h"

#include <QComboBox>
#include <QDockWidget>
#include <QImage>
#include <QSettings>
#include <QSignalSpy>
#include <QtTest>

using namespace hecscope;

namespace {

const QString kSparksLf = QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/sparks-lf-N2.eventlog");
const QString kSparksL = QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/sparks-N2.eventlog");

// An index with the bytes it was made from (the pane reads spark events
// back from them).
struct Loaded {
    std::shared_ptr<const LogIndex> index;
    std::shared_ptr<ByteSource> source;
};

Loaded load(const QString& path)
{
    auto source = std::make_shared<MemorySource>(test::readFile(path));
    return {std::shared_ptr<const LogIndex>(loadIndex(*source).index), source};
}

// Waits for the pane's next result (the spy counts them).
bool waitShown(QSignalSpy& spy, qsizetype before)
{
    while (spy.count() <= before)
        if (!spy.wait(10000))
            return false;
    return true;
}

// The pane shows what core computes for the same range and capability.
void compareWithCore(const SparkSizesPane& pane, const SparkSizes& want)
{
    QVERIFY(pane.sizes());
    const SparkSizes& got = *pane.sizes();
    QCOMPARE(got.count, want.count);
    QCOMPARE(got.total, want.total);
    QCOMPARE(got.bins.size(), want.bins.size());
    for (size_t i = 0; i < want.bins.size(); ++i) {
        QCOMPARE(got.bins[i].log2, want.bins[i].log2);
        QCOMPARE(got.bins[i].count, want.bins[i].count);
    }
    QVERIFY(pane.chart()->message().isEmpty());
    QVERIFY(pane.headerText().contains(countText(want.count) + QStringLiteral(" sparks evaluated")));
    QVERIFY(pane.headerText().contains(QStringLiteral("Median ") + durationText(want.median)));
}

} // namespace

class TestSparkSizesPane : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void wholeRunRangeAndCapability();
    void barsAreDrawnWhereTheyArePointedAt();
    void logWithoutFineGrainedEvents();
    void changedFileIsSaidNotDrawn();
    void windowTabFollowsSelectionAndFile();
};

void TestSparkSizesPane::initTestCase()
{
    QCoreApplication::setOrganizationName(QStringLiteral("HecscopeTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_sparksizespane"));
    Settings::clear();
}

void TestSparkSizesPane::wholeRunRangeAndCapability()
{
    const Loaded log = load(kSparksLf);
    const auto& ix = log.index;
    const SparkEvaluations evals = sparkEvaluations(*ix, *log.source);
    SparkSizesPane pane;
    QSignalSpy shown(&pane, &SparkSizesPane::sizesShown);
    QVERIFY(pane.headerText().contains(QStringLiteral("no log loaded")));
    pane.setIndex(ix, log.source);
    QVERIFY(waitShown(shown, 0));
    QVERIFY(!pane.isComputing());
    QVERIFY(pane.headerText().startsWith(QStringLiteral("Spark sizes (whole run, all capabilities): ")));
    compareWithCore(pane, sparkSizes(evals, std::nullopt));
    QVERIFY(pane.headerText().contains(QStringLiteral("(841 stolen from another capability)")));

    // A selection: the second half of the run.
    const ViewRange half{ix->lastTime / 2, ix->lastTime};
    pane.setRange(half);
    QVERIFY(waitShown(shown, 1));
    QVERIFY(pane.headerText().contains(QStringLiteral("(selection %1 – %2, all capabilities)").arg(durationText(half.start), durationText(half.end))));
    const SparkSizes inHalf = sparkSizes(evals, half);
    QVERIFY(inHalf.count > 0 && inHalf.count < evals.evaluations.size());
    compareWithCore(pane, inHalf);

    // A capability of that selection.
    pane.setCapability(1);
    QVERIFY(waitShown(shown, 2));
    QVERIFY(pane.headerText().contains(QStringLiteral(", capability 1)")));
    compareWithCore(pane, sparkSizes(evals, half, 1));

    // A range before any spark ran: said in place of the chart.
    pane.setCapability(-1);
    QVERIFY(waitShown(shown, 3));
    pane.setRange(ViewRange{0, evals.evaluations.front().start});
    QVERIFY(waitShown(shown, 4));
    QVERIFY(!pane.sizes());
    QCOMPARE(pane.chart()->message(), QStringLiteral("No spark ran in this range."));

    // The log taken away: nothing of it stays.
    pane.setIndex(nullptr);
    QVERIFY(!pane.sizes());
    QVERIFY(pane.headerText().contains(QStringLiteral("no log loaded")));
}

// Each non-empty bin is a bar of the bars' colour where barRect says; the
// pointer over it finds it, and its tooltip gives its range, count, share
// and total.
void TestSparkSizesPane::barsAreDrawnWhereTheyArePointedAt()
{
    const Loaded log = load(kSparksLf);
    SparkSizesPane pane;
    QSignalSpy shown(&pane, &SparkSizesPane::sizesShown);
    pane.resize(900, 420);
    pane.setIndex(log.index, log.source);
    QVERIFY(waitShown(shown, 0));
    pane.show();
    QVERIFY(QTest::qWaitForWindowExposed(&pane));
    SparkSizesChart* chart = pane.chart();
    const SparkSizes& s = *pane.sizes();
    for (SparkSizesChart::Bars bars : {SparkSizesChart::Bars::Count, SparkSizesChart::Bars::TotalTime}) {
        chart->setBars(bars);
        const QImage image = chart->grab().toImage();
        int drawn = 0;
        for (size_t i = 0; i < s.bins.size(); ++i) {
            const SparkSizeBin& b = s.bins[i];
            if (b.count == 0)
                continue;
            const QRect r = chart->barRect(int(i));
            QCOMPARE(chart->binAt(r.center()), int(i));
            QVERIFY(r.height() >= 2); // never too thin to see
            const QColor c = image.pixelColor(r.center().x(), r.bottom() - 1);
            QVERIFY2(c.green() > c.red() + 40 && c.green() > c.blue(), qPrintable(QStringLiteral("bin %1: %2").arg(i).arg(c.name())));
            ++drawn;
            const QString tip = chart->binToolTip(int(i));
            QVERIFY(tip.contains(durationText(b.lo)));
            QVERIFY(tip.contains(durationText(b.hi)));
            QVERIFY(tip.contains(b.count == 1 ? QStringLiteral("1 spark") : countText(b.count) + QStringLiteral(" sparks")));
            QVERIFY(tip.contains(percentText(b.count, s.count)));
            QVERIFY(tip.contains(QStringLiteral("Total ") + durationText(b.total)));
        }
        QVERIFY(drawn >= 5);
    }
    // Taller bars for bigger bins (count mode): the tallest is the fullest.
    chart->setBars(SparkSizesChart::Bars::Count);
    const auto fullest = std::max_element(s.bins.begin(), s.bins.end(), [](const SparkSizeBin& a, const SparkSizeBin& b) { return a.count < b.count; });
    const int tallest = chart->barRect(int(fullest - s.bins.begin())).height();
    for (size_t i = 0; i < s.bins.size(); ++i)
        QVERIFY(chart->barRect(int(i)).height() <= tallest);
    QCOMPARE(chart->binAt(QPoint(1, 1)), -1);
}

void TestSparkSizesPane::logWithoutFineGrainedEvents()
{
    SparkSizesPane pane;
    QSignalSpy shown(&pane, &SparkSizesPane::sizesShown);
    const Loaded log = load(kSparksL);
    pane.setIndex(log.index, log.source);
    QVERIFY(waitShown(shown, 0));
    QVERIFY(!pane.sizes());
    QVERIFY(pane.chart()->message().contains(QStringLiteral("+RTS -lf")));
    QVERIFY(pane.chart()->message().startsWith(QStringLiteral("No fine-grained spark events")));
    QCOMPARE(pane.headerText(), QStringLiteral("Spark sizes (whole run, all capabilities)."));
    // Any range says the same.
    pane.setRange(ViewRange{0, 1000000});
    QVERIFY(waitShown(shown, 1));
    QVERIFY(pane.chart()->message().contains(QStringLiteral("+RTS -lf")));
}

// The pane reads the spark events back from the log's bytes: changed since
// the index was made, they give the error (with the byte) in place of the
// chart, never other figures.
void TestSparkSizesPane::changedFileIsSaidNotDrawn()
{
    const Loaded log = load(kSparksLf);
    const InstantMark& m = log.index->instants[1].mark(2);
    std::vector<uint8_t> bytes = test::readFile(kSparksLf);
    bytes[m.offset + 9] ^= 0x01; // the time's lowest byte (big-endian, after the tag)
    SparkSizesPane pane;
    QSignalSpy shown(&pane, &SparkSizesPane::sizesShown);
    pane.setIndex(log.index, std::make_shared<MemorySource>(bytes));
    QVERIFY(waitShown(shown, 0));
    QVERIFY(!pane.sizes());
    const QString message = pane.chart()->message();
    QVERIFY2(message.contains(QStringLiteral("changed")) && message.contains(QStringLiteral("byte %1").arg(m.offset)),
             qPrintable(message));
    // The same index with its own bytes: the figures.
    pane.setIndex(log.index, log.source);
    QVERIFY(waitShown(shown, 1));
    QVERIFY(pane.sizes() && pane.sizes()->count > 800);
}

void TestSparkSizesPane::windowTabFollowsSelectionAndFile()
{
    MainWindow w;
    QSignalSpy finished(&w, &MainWindow::loadFinished);
    SparkSizesPane* pane = w.sparkSizesPane();
    QVERIFY(pane);
    auto* dock = MainWindow::dockOf(pane);
    QVERIFY(dock);
    QCOMPARE(dock->windowTitle(), QStringLiteral("Spark Sizes"));
    QCOMPARE(w.dockWidgetArea(dock), Qt::BottomDockWidgetArea);
    QVERIFY(w.tabifiedDockWidgets(dock).contains(MainWindow::dockOf(w.profilePane())));
    QSignalSpy shown(pane, &SparkSizesPane::sizesShown);
    w.openFile(kSparksLf);
    QVERIFY(finished.wait(20000));
    QVERIFY(waitShown(shown, 0));
    MemorySource file(test::readFile(kSparksLf));
    const SparkEvaluations evals = sparkEvaluations(*w.index(), file);
    compareWithCore(*pane, sparkSizes(evals, std::nullopt));

    const ViewRange firstHalf{0, w.index()->lastTime / 2};
    w.controller()->setSelection(firstHalf);
    QVERIFY(waitShown(shown, 1));
    QVERIFY(pane->headerText().contains(QStringLiteral("selection ")));
    compareWithCore(*pane, sparkSizes(evals, firstHalf));

    // Another file: the old histogram goes as soon as the file shows itself
    // to be a log, the new log's message follows.
    bool dropped = false, said = false;
    connect(&w, &MainWindow::logCleared, this, [&] { // at that moment, not after
        dropped = !pane->sizes();
        said = pane->headerText().contains(QStringLiteral("no log loaded"));
    });
    QSignalSpy cleared(&w, &MainWindow::logCleared);
    const int loads = finished.count();
    w.openFile(kSparksL);
    QVERIFY(cleared.wait(20000));
    QVERIFY(dropped);
    QVERIFY(said);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), loads + 1, 20000);
    QTRY_VERIFY_WITH_TIMEOUT(pane->chart()->message().contains(QStringLiteral("+RTS -lf")), 10000);
}

QTEST_MAIN(TestSparkSizesPane)
#include "tst_sparksizespane.moc"
