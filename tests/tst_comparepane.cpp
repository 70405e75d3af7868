// The Compare pane in the window: File > Compare With... of real pairs
// (testdata/compare/). Its figures are `hecscope diff`'s, figure for figure;
// the differential flame graph colours the frames that grew red and the
// others by their change; the two heap profiles share one plot; a run that
// cannot be compared, a cancel and a B chosen before any log is on screen
// leave a pane that says what happened.
#include "testsupport.h"

#include "ui/compare/comparefigures.h"
#include "ui/compare/comparepane.h"
#include "ui/compare/comparesection.h"
#include "ui/compare/comparetimeline.h"
#include "ui/jobs/livejob.h"
#include "ui/profile/flamegraphview.h"
#include "ui/timeline/timelinerenderer.h"
#include "ui/timeline/timelineview.h"
#include "ui/timeline/viewcontroller.h"
#include "ui/window/mainwindow.h"

#include "core/load/loader.h"

#include <QCheckBox>
#include <QComboBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <qcustomplot.h>

#include <functional>
#include <map>
#include <thread>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace hecscope;
using namespace hecscope::test;

namespace {

QString compareLog(const char* name)
{
    return QStringLiteral(HECSCOPE_TESTDATA_DIR "/compare/") + QLatin1String(name);
}

// The figures `hecscope diff ARGS --json` prints are the pane's, figure for
// figure (group, key, figure, A and B).
void sameAsDiff(const Comparison& c, const QStringList& args)
{
    const Run r = runHecscope(QStringList{QStringLiteral("diff")} + args + QStringList{QStringLiteral("--json")});
    QCOMPARE(r.exitCode, 0);
    const QJsonArray figures = QJsonDocument::fromJson(r.out).object().value(QStringLiteral("figures")).toArray();
    QCOMPARE(size_t(figures.size()), c.figures.size());
    for (qsizetype i = 0; i < figures.size(); ++i) {
        const QJsonObject f = figures[i].toObject();
        const ComparedFigure& g = c.figures[size_t(i)];
        QCOMPARE(QString::fromStdString(g.group), f.value(QStringLiteral("group")).toString());
        QCOMPARE(QString::fromStdString(g.key), f.value(QStringLiteral("key")).toString());
        QCOMPARE(QString::fromStdString(g.figure), f.value(QStringLiteral("figure")).toString());
        for (const auto& [side, value] : {std::pair{QStringLiteral("a"), g.a}, std::pair{QStringLiteral("b"), g.b}}) {
            const QJsonValue v = f.value(side);
            QCOMPARE(v.isNull(), !value.has_value());
            if (value)
                QVERIFY2(std::abs(v.toDouble() - value->value) <= 1e-5 * std::max(1.0, std::abs(value->value)),
                         qPrintable(QString::fromStdString(g.group + "/" + g.key + "/" + g.figure)));
        }
    }
}

// Opens `a` in the window and waits until it is on screen.
bool open(MainWindow& w, const QString& a)
{
    QSignalSpy loaded(&w, &MainWindow::loadFinished);
    w.openFile(a);
    return loaded.wait(20000);
}

// Compares with `b` and waits for the pane to show the result.
bool compare(MainWindow& w, const QString& b)
{
    QSignalSpy shown(w.comparePane(), &ComparePane::comparisonShown);
    w.compareWith(b);
    return shown.wait(20000);
}

class TestComparePane : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("HecscopeTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_comparepane"));
    }
    void figuresAreTheCommandLines_data();
    void figuresAreTheCommandLines();
    void differentialFlameGraph();
    void heapProfilesOnOneScale();
    void tableFilters();
    void chosenBeforeALogIsOnScreen();
    void aNewLogIsComparedWithTheSameB();
    void whatCannotBeCompared();
    void cancel();
    void timelinesOnOneAxis();
    void selectionComparesThatStretch();
    void eachPaneShowsItsFigures();
    void timelinesAlignedAtAnOccurrence();
    void aReportOnScreenIsComparedToo();
    void aLiveLogIsComparedAsItGrows();
};

void TestComparePane::figuresAreTheCommandLines_data()
{
    QTest::addColumn<QString>("a");
    QTest::addColumn<QString>("b");
    QTest::newRow("parfib") << compareLog("parfib-N1.eventlog") << compareLog("parfib-N4.eventlog");
    QTest::newRow("leak") << compareLog("leak-before.eventlog") << compareLog("leak-after.eventlog");
    QTest::newRow("profile, against a report") << compareLog("profile-before.eventlog") << compareLog("profile-slower.prof");
}

// Every figure the pane holds is `hecscope diff`'s for the same files, and
// the other way round.
void TestComparePane::figuresAreTheCommandLines()
{
    QFETCH(QString, a);
    QFETCH(QString, b);
    MainWindow w;
    QVERIFY(open(w, a));
    QVERIFY(compare(w, b));
    const Comparison* c = w.comparePane()->comparison();
    QVERIFY(c);
    sameAsDiff(*c, {a, b});
    if (QTest::currentTestFailed())
        return;
    const Run r = runHecscope({QStringLiteral("diff"), a, b, QStringLiteral("--json")});
    // The notes are on screen as the command line prints them.
    const QJsonArray notes = QJsonDocument::fromJson(r.out).object().value(QStringLiteral("notes")).toArray();
    for (const QJsonValue& n : notes)
        QVERIFY2(w.comparePane()->notesText().contains(n.toString()), qPrintable(n.toString()));
    // And the table lists every figure not 0 in both runs.
    size_t listed = 0;
    for (const ComparedFigure& f : c->figures)
        listed += (f.a && f.a->value != 0) || (f.b && f.b->value != 0);
    QCOMPARE(size_t(w.comparePane()->table()->model()->rowCount()), listed);
}

// B's frames: those under collatzMax (four times the work in B) are red,
// redder than what did not change; the reverse view shows A's frames.
void TestComparePane::differentialFlameGraph()
{
    MainWindow w;
    QVERIFY(open(w, compareLog("profile-before.eventlog")));
    QVERIFY(compare(w, compareLog("profile-slower.eventlog")));
    FlameGraphView* flame = w.comparePane()->flameGraph();
    QVERIFY(flame->profile());
    const FlamePaintOptions o = flame->paintOptions();
    QVERIFY(o.nodeColours);
    const CostCentreProfile& p = *flame->profile();
    QCOMPARE(o.nodeColours->size(), p.nodes.size());
    int grew = 0, calm = 0;
    for (uint32_t i = 1; i < p.nodes.size(); ++i) {
        const QColor c = QColor::fromRgb((*o.nodeColours)[i]);
        const std::string& label = p.costCentres[p.nodes[i].cc].label;
        if (label == "collatzMax.steps") {
            QVERIFY2(c.red() > 180 && c.blue() < 100, qPrintable(c.name()));
            ++grew;
        } else if (label == "buildIndex") {
            QVERIFY2(c.red() - c.blue() < 80, qPrintable(c.name())); // near the neutral sand
            ++calm;
        }
    }
    QVERIFY(grew >= 1);
    QVERIFY(calm >= 1);
    // Beside it: the cost centres, the biggest change first (new and gone
    // before any size).
    {
        const QAbstractItemModel* cc = w.comparePane()->costCentreChanges()->model();
        int expected = 0;
        for (const ComparedFigure& f : w.comparePane()->comparison()->figures)
            expected += f.group == "cost_centres" && ((f.a && f.a->value != 0) || (f.b && f.b->value != 0));
        QCOMPARE(cc->rowCount(), expected);
        QVERIFY(expected > 3);
        double before = INFINITY;
        for (int row = 0; row < cc->rowCount(); ++row) {
            const double change = cc->index(row, CompareFiguresModel::Change).data(CompareFiguresModel::SortRole).toDouble();
            QVERIFY2(change <= before, qPrintable(cc->index(row, CompareFiguresModel::Key).data().toString()));
            before = change;
        }
    }
    QVERIFY(flame->describe(1).contains(QLatin1String("from A to B")) || flame->describe(1).contains(QLatin1String("A has no")));
    // The reverse: A's frames, coloured by their change to B.
    auto* mode = w.comparePane()->findChild<QComboBox*>();
    QVERIFY(mode);
    const auto before = flame->profile();
    const auto modes = w.comparePane()->findChildren<QComboBox*>();
    for (QComboBox* m : modes)
        if (m->count() == 2 && m->itemText(1).contains(QLatin1String("A's frames")))
            m->setCurrentIndex(1);
    QVERIFY(flame->profile() != before);
    QVERIFY(flame->paintOptions().nodeColours);
    // A selection: the flame graph of that stretch of each run, the samples
    // `diff --folded --range` counts (column A shown now, B after the switch).
    const Run folded = runHecscope({QStringLiteral("diff"), compareLog("profile-before.eventlog"),
                                    compareLog("profile-slower.eventlog"), QStringLiteral("--folded"),
                                    QStringLiteral("--range"), QStringLiteral("50ms:150ms")});
    QCOMPARE(folded.exitCode, 0);
    int64_t total[2] = {0, 0};
    for (const QByteArray& line : folded.out.split('\n')) {
        const QList<QByteArray> words = line.split(' ');
        if (words.size() >= 3) {
            total[0] += words[words.size() - 2].toLongLong();
            total[1] += words[words.size() - 1].toLongLong();
        }
    }
    QVERIFY(total[0] > 0 && total[1] > 0);
    QSignalSpy shown(w.comparePane(), &ComparePane::comparisonShown);
    w.controller()->setSelection(ViewRange{50'000'000, 150'000'000});
    QVERIFY(shown.wait(20000));
    QVERIFY(w.comparePane()->notesText().contains(QLatin1String("flame graph of the selection")));
    QCOMPARE(int64_t(flame->profile()->nodes[0].incl[0]), total[0]);
    for (QComboBox* m : modes)
        if (m->count() == 2 && m->itemText(1).contains(QLatin1String("A's frames")))
            m->setCurrentIndex(0);
    QCOMPARE(int64_t(flame->profile()->nodes[0].incl[0]), total[1]);
}

// The leak before and after its fix: both totals on one plot; a band both
// runs have adds one curve per run.
void TestComparePane::heapProfilesOnOneScale()
{
    MainWindow w;
    QVERIFY(open(w, compareLog("leak-before.eventlog")));
    QVERIFY(compare(w, compareLog("leak-after.eventlog")));
    QCustomPlot* plot = w.comparePane()->heapPlot();
    QCOMPARE(plot->graphCount(), 2);
    double peak[2] = {0, 0};
    for (int g = 0; g < 2; ++g)
        for (auto it = plot->graph(g)->data()->begin(); it != plot->graph(g)->data()->end(); ++it)
            peak[g] = std::max(peak[g], it->value);
    QVERIFY2(peak[1] < peak[0] / 2, qPrintable(QStringLiteral("%1 -> %2 MB").arg(peak[0]).arg(peak[1])));
    QComboBox* band = nullptr;
    for (QComboBox* c : w.comparePane()->findChildren<QComboBox*>())
        if (c->count() > 1 && c->itemText(0) == QLatin1String("Total only"))
            band = c;
    QVERIFY(band);
    band->setCurrentIndex(band->findText(QStringLiteral("ARR_WORDS")));
    QVERIFY(band->currentIndex() > 0);
    QCOMPARE(plot->graphCount(), 4);
    // The pauses of both runs: one bar series each, as many pauses as
    // collections, longest not past the longest pause.
    QCustomPlot* pauses = w.comparePane()->pausePlot();
    QCOMPARE(pauses->plottableCount(), 2);
    const Comparison* c = w.comparePane()->comparison();
    for (int side = 0; side < 2; ++side) {
        auto* bars = qobject_cast<QCPBars*>(pauses->plottable(side));
        QVERIFY(bars);
        double n = 0;
        for (auto it = bars->data()->begin(); it != bars->data()->end(); ++it)
            n += it->value;
        for (const ComparedFigure& f : c->figures)
            if (f.group == "run" && f.key == "gc.collections")
                QCOMPARE(n, (side ? f.b : f.a)->value);
    }
}

// The group filter and "Changed only".
void TestComparePane::tableFilters()
{
    MainWindow w;
    QVERIFY(open(w, compareLog("profile-before.eventlog")));
    QVERIFY(compare(w, compareLog("profile-slower.eventlog")));
    QTableView* table = w.comparePane()->table();
    QAbstractItemModel* m = table->model();
    const int all = m->rowCount();
    QComboBox* group = nullptr;
    for (QComboBox* c : w.comparePane()->findChildren<QComboBox*>())
        if (c->count() > 0 && c->itemText(0) == QLatin1String("All"))
            group = c;
    QVERIFY(group);
    group->setCurrentIndex(group->findText(QStringLiteral("cost_centres")));
    QVERIFY(m->rowCount() > 5 && m->rowCount() < all);
    for (int r = 0; r < m->rowCount(); ++r)
        QCOMPARE(m->index(r, 0).data().toString(), QStringLiteral("cost_centres"));
    auto* changed = w.comparePane()->findChild<QCheckBox*>();
    QVERIFY(changed);
    const int before = m->rowCount();
    changed->setChecked(true);
    QVERIFY(m->rowCount() < before);
    for (int r = 0; r < m->rowCount(); ++r)
        QVERIFY(m->index(r, CompareFiguresModel::Change).data().toString() != QLatin1String("="));
    // Sorted by the size of the change: collatzMax's frames come first.
    table->sortByColumn(CompareFiguresModel::Change, Qt::DescendingOrder);
    QVERIFY2(m->index(0, 1).data().toString().contains(QLatin1String("collatzMax"))
                 || m->index(0, CompareFiguresModel::Change).data().toString() == QLatin1String("new")
                 || m->index(0, CompareFiguresModel::Change).data().toString() == QLatin1String("gone")
                 || m->index(0, CompareFiguresModel::Change).data().toString() == QLatin1String("from 0"),
             qPrintable(m->index(0, 1).data().toString()));
}

// `hecscope A --compare B` chooses B before A is loaded: the comparison
// comes once A is on screen.
void TestComparePane::chosenBeforeALogIsOnScreen()
{
    MainWindow w;
    QSignalSpy shown(w.comparePane(), &ComparePane::comparisonShown);
    w.compareWith(compareLog("parfib-N4.eventlog"));
    QVERIFY(open(w, compareLog("parfib-N1.eventlog")));
    QVERIFY(shown.count() > 0 || shown.wait(20000));
    QVERIFY(w.comparePane()->comparison());
    QVERIFY(w.comparePane()->notesText().contains(QLatin1String("3 only in B")));
}

// Another log opened: compared with the same B, which is not loaded again.
void TestComparePane::aNewLogIsComparedWithTheSameB()
{
    MainWindow w;
    QVERIFY(open(w, compareLog("parfib-N1.eventlog")));
    QVERIFY(compare(w, compareLog("parfib-N4.eventlog")));
    QSignalSpy shown(w.comparePane(), &ComparePane::comparisonShown);
    QVERIFY(open(w, compareLog("leak-before.eventlog")));
    QVERIFY(shown.count() > 0 || shown.wait(20000));
    const Comparison* c = w.comparePane()->comparison();
    QVERIFY(c);
    bool leakEvents = false;
    for (const ComparedFigure& f : c->figures)
        if (f.group == "run" && f.key == "events")
            leakEvents = f.a && f.b && f.a->value != f.b->value;
    QVERIFY(leakEvents);
    QCOMPARE(w.comparePane()->pathB(), compareLog("parfib-N4.eventlog"));
}

// A file that is no run, one that does not exist, runs of different kinds:
// said in the pane, never a crash.
void TestComparePane::whatCannotBeCompared()
{
    MainWindow w;
    QVERIFY(open(w, compareLog("profile-before.eventlog")));
    QVERIFY(compare(w, QStringLiteral("/nonexistent/run.eventlog")));
    QVERIFY(!w.comparePane()->comparison());
    QVERIFY2(w.comparePane()->problemText().contains(QLatin1String("run.eventlog")), qPrintable(w.comparePane()->problemText()));
    QVERIFY(compare(w, QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/leak-prof-hc.hp")));
    QVERIFY(w.comparePane()->comparison());
    QVERIFY2(w.comparePane()->notesText().contains(QLatin1String("heap profile (.hp)")), qPrintable(w.comparePane()->notesText()));
    QVERIFY(!w.comparePane()->flameGraph()->profile()); // (the .hp has no cost centres)
    QVERIFY(!w.comparePane()->flameGraph()->emptyText().isEmpty());
    QTemporaryDir dir;
    const QString junk = dir.filePath(QStringLiteral("junk.eventlog"));
    QFile f(junk);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QByteArray(3000, 'z'));
    f.close();
    QVERIFY(compare(w, junk));
    QVERIFY(w.comparePane()->comparison());
    QVERIFY2(w.comparePane()->notesText().contains(QLatin1String("hdrb")), qPrintable(w.comparePane()->notesText()));
}

// Cancel while B loads: the pane says so, and what the cancelled job would
// have given never arrives (the next comparison is the only one shown).
void TestComparePane::cancel()
{
    MainWindow w;
    QVERIFY(open(w, compareLog("parfib-N1.eventlog")));
    QSignalSpy shown(w.comparePane(), &ComparePane::comparisonShown);
    w.compareWith(compareLog("parfib-N4.eventlog"));
    w.comparePane()->cancel();
    QVERIFY(!w.comparePane()->comparison());
    QVERIFY(w.comparePane()->problemText().contains(QLatin1String("Cancelled")));
    QVERIFY(w.comparePane()->pathB().isEmpty());
    w.compareWith(compareLog("leak-after.eventlog"));
    QVERIFY(shown.wait(20000));
    QCOMPARE(shown.count(), 1);
    QCOMPARE(w.comparePane()->pathB(), compareLog("leak-after.eventlog"));
    const Comparison* c = w.comparePane()->comparison();
    QVERIFY(c);
    bool heap = false; // (leak-after has a heap profile, parfib-N4 none)
    for (const ComparedFigure& f : c->figures)
        heap = heap || (f.group == "heap" && f.b);
    QVERIFY(heap);
}

// B's timeline under A's: one axis covering both runs, zoom, pan and the
// selection of either acting on both (B's times placed by the alignment:
// from the start, or stretched to A's length); closed, A is as before.
void TestComparePane::timelinesOnOneAxis()
{
    MainWindow w;
    QVERIFY(open(w, compareLog("profile-before.eventlog")));
    const ViewRange boundsA = w.controller()->bounds();
    QVERIFY(compare(w, compareLog("profile-slower.eventlog")));
    CompareTimeline* t = w.compareTimeline();
    QVERIFY(t->hasRun());
    QVERIFY(!t->isHidden());
    QVERIFY(t->runB());
    const uint64_t endB = t->runB()->lastTime;
    QVERIFY(endB > boundsA.end); // (the slower run is longer)
    // One axis for both: A's view now reaches B's end too, and shows it all.
    QVERIFY(w.controller()->bounds().end >= endB);
    QCOMPARE(w.controller()->range().end, w.controller()->bounds().end);
    QCOMPARE(t->controller()->range().start, w.controller()->range().start);
    QCOMPARE(t->controller()->range().end, w.controller()->range().end);
    // A time at the same x in both: one label column width (the wider).
    const auto column = [](const TimelineView* v) { return std::max(v->naturalLabelWidth(), v->options().minLabelWidth); };
    QCOMPARE(column(w.timeline()), column(t->view()));
    QVERIFY(column(w.timeline()) >= std::max(w.timeline()->naturalLabelWidth(), t->view()->naturalLabelWidth()));
    // Two runs of one program: A's legend explains B's colours, and B has
    // none of its own.
    QVERIFY(t->view()->legendCoveredBy(*w.timeline()));
    QVERIFY(!t->view()->ownLegend());
    QVERIFY(w.timeline()->ownLegend());
    // Zoom in A: B follows; pan B: A follows.
    w.controller()->setRange({50'000'000, 90'000'000});
    QCOMPARE(t->controller()->range().start, uint64_t(50'000'000));
    QCOMPARE(t->controller()->range().end, uint64_t(90'000'000));
    t->controller()->pan(10'000'000);
    QCOMPARE(w.controller()->range().start, t->controller()->range().start);
    QCOMPARE(w.controller()->range().end, t->controller()->range().end);
    // The selection too.
    w.controller()->setSelection(ViewRange{60'000'000, 70'000'000});
    QVERIFY(t->controller()->selection());
    QCOMPARE(t->controller()->selection()->start, uint64_t(60'000'000));
    // More of the same B (what a snapshot of B's load, then its whole index,
    // hand over): the view the user chose stays.
    {
        MemorySource bytes(readFile(compareLog("profile-slower.eventlog")));
        std::shared_ptr<const LogIndex> again(loadIndex(bytes).index);
        const ViewRange before = w.controller()->range();
        t->view()->setCursorTime(65'000'000);
        t->setRuns(w.index(), compareLog("profile-slower.eventlog"), again, nullptr, w.timeline()->tracks());
        QCOMPARE(t->runB(), again);
        QCOMPARE(w.controller()->range().start, before.start);
        QCOMPARE(w.controller()->range().end, before.end);
        QCOMPARE(t->controller()->range().start, before.start);
        QCOMPARE(t->view()->cursor(), std::optional<uint64_t>(65'000'000)); // (not a new log: not reset)
    }
    // Stretched: B's whole run on A's length.
    t->setAlignment(CompareTimeline::Align::Stretch);
    w.controller()->fitAll();
    QCOMPARE(w.controller()->range().end, boundsA.end);
    const double scale = double(t->controller()->range().end) / double(w.controller()->range().end);
    QVERIFY2(std::abs(scale - double(endB) / double(boundsA.end)) < 0.01, qPrintable(QString::number(scale)));
    QCOMPARE(t->toA(t->toB(40'000'000)), uint64_t(40'000'000));
    // Exported as an image: both runs, A's header above, B's below.
    {
        w.resize(1200, 900);
        const QImage both = t->image();
        QVERIFY(both.height() > t->height());
        bool tintA = false, tintB = false;
        for (int y = 0; y < both.height(); y += 2) {
            const QColor c = both.pixelColor(both.width() / 2, y);
            tintA = tintA || c == runTint(0);
            tintB = tintB || c == runTint(1);
        }
        QVERIFY(tintA && tintB);
    }
    // Closed: no B, and A's own bounds again.
    w.comparePane()->closeComparison();
    QVERIFY(t->isHidden());
    QVERIFY(!t->hasRun());
    QCOMPARE(w.controller()->bounds().end, boundsA.end);
    QVERIFY(t->view()->ownLegend()); // (closed: its own again)
    // B with colours A lacks (a heap profile's bands): B keeps its legend.
    QVERIFY(compare(w, compareLog("leak-after.eventlog")));
    QVERIFY(t->hasRun());
    QVERIFY(!t->view()->legendCoveredBy(*w.timeline()));
    QVERIFY(t->view()->ownLegend());
    // A report has no timeline: none is shown under A.
    QVERIFY(compare(w, compareLog("profile-slower.prof")));
    QVERIFY(w.comparePane()->comparison());
    QVERIFY(t->isHidden());
}

// A selection on the timeline: the figures of that stretch of each run, as
// `hecscope diff --range` gives them.
void TestComparePane::selectionComparesThatStretch()
{
    const QString a = compareLog("parfib-N1.eventlog"), b = compareLog("parfib-N4.eventlog");
    MainWindow w;
    QVERIFY(open(w, a));
    QVERIFY(compare(w, b));
    QSignalSpy shown(w.comparePane(), &ComparePane::comparisonShown);
    w.controller()->setSelection(ViewRange{5'000'000, 15'000'000});
    QVERIFY(shown.wait(20000));
    QVERIFY(w.comparePane()->notesText().contains(QLatin1String("of the selection")));
    const Comparison* c = w.comparePane()->comparison();
    QVERIFY(c);
    sameAsDiff(*c, {a, b, QStringLiteral("--range"), QStringLiteral("5ms:15ms")});
    if (QTest::currentTestFailed())
        return;
    // Cleared: the whole runs again.
    shown.clear();
    w.controller()->setSelection(std::nullopt);
    QVERIFY(shown.wait(20000));
    QVERIFY(!w.comparePane()->notesText().contains(QLatin1String("of the selection")));
}

// Every pane with figures shows its part of the comparison beside its own
// view: exactly the compared figures of its concern (those not 0 in both
// runs), each as the Compare pane has it; GC's pause distributions count
// each run's collections. Nothing is shown once the comparison is closed.
void TestComparePane::eachPaneShowsItsFigures()
{
    MainWindow w;
    QVERIFY(open(w, compareLog("parfib-N1.eventlog")));
    for (const char* dock : {"statistics", "gc", "threads", "capabilities", "cost-centres"})
        QVERIFY2(w.compareSection(QLatin1String(dock)) && w.compareSection(QLatin1String(dock))->isHidden(), dock);
    QVERIFY(!w.compareSection(QStringLiteral("events"))); // (no figures)
    QVERIFY(compare(w, compareLog("parfib-N4.eventlog")));
    const Comparison* c = w.comparePane()->comparison();
    QVERIFY(c);
    const auto shown = [](const ComparedFigure& f) { return (f.a && f.a->value != 0) || (f.b && f.b->value != 0); };
    const struct {
        const char* dock;
        std::function<bool(const ComparedFigure&)> concern;
    } panes[] = {
        {"statistics", [](const ComparedFigure& f) { return f.group == "run" || f.group == "generations"; }},
        {"gc", [](const ComparedFigure& f) {
             return f.group == "generations" || (f.group == "run" && (f.key.starts_with("gc.") || f.key.starts_with("time.gc")));
         }},
        {"threads", [](const ComparedFigure& f) { return f.group == "threads" || (f.group == "run" && f.key == "threads"); }},
        {"capabilities", [](const ComparedFigure& f) { return f.group == "capabilities"; }},
        {"spark-sizes", [](const ComparedFigure& f) { return f.group == "sparks" || (f.group == "run" && f.key.starts_with("sparks.")); }},
    };
    for (const auto& [dock, concern] : panes) {
        CompareSection* section = w.compareSection(QLatin1String(dock));
        QVERIFY(section);
        QVERIFY2(!section->isHidden(), dock);
        std::vector<const ComparedFigure*> expected;
        for (const ComparedFigure& f : c->figures)
            if (concern(f) && shown(f))
                expected.push_back(&f);
        QVERIFY2(!expected.empty(), dock);
        QCOMPARE(section->figuresShown(), int(expected.size()));
        const QAbstractItemModel* table = section->table()->model();
        for (int row = 0; row < table->rowCount(); ++row) {
            const ComparedFigure& f = *expected[size_t(row)];
            const QString name = table->index(row, CompareFiguresModel::Key).data().toString();
            QVERIFY2(name.startsWith(QString::fromStdString(f.key)), qPrintable(name));
            if (f.figure != "value")
                QVERIFY2(name.endsWith(QString::fromStdString(f.figure)), qPrintable(name));
            // The ratio is B over A (none where A is 0 or a run lacks it).
            const QString ratio = table->index(row, CompareFiguresModel::Ratio).data().toString();
            if (f.both() && f.a->value != 0)
                QCOMPARE(ratio, QStringLiteral("×%1").arg(f.b->value / f.a->value, 0, 'g', 3));
            else
                QVERIFY(ratio.isEmpty());
            // A, B and the change as the Compare pane's table writes them.
            const QAbstractItemModel* all = w.comparePane()->figuresModel();
            const int source = int(&f - c->figures.data());
            for (int column : {int(CompareFiguresModel::A), int(CompareFiguresModel::B), int(CompareFiguresModel::Ratio),
                               int(CompareFiguresModel::Change)})
                QCOMPARE(table->index(row, column).data().toString(), all->index(source, column).data().toString());
        }
    }
    // GC: both runs' pauses, as many as each run's collections.
    QCustomPlot* pauses = w.compareSection(QStringLiteral("gc"))->pausePlot();
    QVERIFY(pauses);
    QCOMPARE(pauses->plottableCount(), 2);
    for (int side = 0; side < 2; ++side) {
        double count = 0;
        auto* bars = qobject_cast<QCPBars*>(pauses->plottable(side));
        for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it)
            count += it->value;
        double collections = -1;
        for (const ComparedFigure& f : c->figures)
            if (f.group == "run" && f.key == "gc.collections")
                collections = side == 0 ? f.a->value : f.b->value;
        QCOMPARE(count, collections);
    }
    // "Changed only" leaves out what is equal.
    CompareSection* threads = w.compareSection(QStringLiteral("threads"));
    const int before = threads->figuresShown();
    threads->findChild<QCheckBox*>()->setChecked(true);
    QVERIFY(threads->figuresShown() <= before);
    for (int row = 0; row < threads->figuresShown(); ++row)
        QVERIFY(threads->table()->model()->index(row, CompareFiguresModel::Change).data().toString() != QLatin1String("="));
    // Closed: the panes are their own again.
    w.comparePane()->closeComparison();
    for (const char* dock : {"statistics", "gc", "threads"})
        QVERIFY2(w.compareSection(QLatin1String(dock))->isHidden(), dock);
}

// Aligned at one occurrence of a user span (spans.hs at -N1 and -N2): that
// occurrence starts at one x in both timelines, whichever run has it
// later; where B is moved later, its view starts blank for the shift.
void TestComparePane::timelinesAlignedAtAnOccurrence()
{
    // The 5th "START request" of a run, as the dump prints it.
    const auto fifth = [](const QString& log) -> uint64_t {
        const Run r = runHecscope({QStringLiteral("dump"), log});
        std::vector<uint64_t> starts;
        for (const QByteArray& line : r.out.split('\n'))
            if (line.endsWith(": START request"))
                starts.push_back(line.left(line.indexOf(':')).trimmed().toULongLong());
        std::sort(starts.begin(), starts.end());
        return starts.size() >= 5 ? starts[4] : 0;
    };
    // The x of `t` (the view's log's own time) in `v`.
    const auto x = [](TimelineView* v, uint64_t t) {
        const QRect plot = v->renderer().plotArea(v->rect(), v->options());
        return TimeMapping(v->shownRange(), plot.left(), plot.width()).toPixel(t);
    };
    const QString n1 = compareLog("spans-N1.eventlog"), n2 = compareLog("spans-N2.eventlog");
    bool later = false, earlier = false;
    for (const auto& [a, b] : {std::pair{n1, n2}, std::pair{n2, n1}}) {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(open(w, a));
        QVERIFY(compare(w, b));
        CompareTimeline* t = w.compareTimeline();
        QVERIFY(t->hasRun());
        const auto names = t->commonNames();
        const auto named = [&](const char* n) {
            return std::find_if(names.begin(), names.end(), [&](const auto& e) { return e.first == QLatin1String(n); });
        };
        QVERIFY(named("request") != names.end() && named("request")->second >= 5);
        QVERIFY(named("phase-serve") != names.end()); // (a marker)
        QVERIFY(named("orphan") == names.end());      // (a STOP without START: no span)
        QVERIFY(!t->alignAt(QStringLiteral("no such span"), 1));
        QVERIFY(!t->alignAt(QStringLiteral("request"), named("request")->second + 1));
        QCOMPARE(t->alignment(), CompareTimeline::Align::Start);
        QVERIFY(t->alignAt(QStringLiteral("request"), 5));
        QCOMPARE(t->alignment(), CompareTimeline::Align::Occurrence);
        const uint64_t tA = fifth(a), tB = fifth(b);
        QVERIFY(tA > 200'000 && tB > 200'000);
        QCOMPARE(t->shift(), int64_t(tA) - int64_t(tB));
        QCOMPARE(t->toB(tA), tB);
        QCOMPARE(t->toA(tB), tA);
        // Zoomed around it: at one x in both.
        w.controller()->setRange({tA - 200'000, tA + 200'000});
        QCOMPARE(t->view()->shownRange().duration(), w.controller()->range().duration());
        QVERIFY2(std::abs(x(w.timeline(), tA) - x(t->view(), tB)) <= 1.0,
                 qPrintable(QStringLiteral("%1 vs %2 (widths %3, %4)").arg(x(w.timeline(), tA)).arg(x(t->view(), tB)).arg(w.timeline()->width()).arg(t->view()->width())));
        // Panned in B: A follows, still at one x.
        t->controller()->pan(-100'000);
        QCOMPARE(w.controller()->range().start, tA - 300'000);
        QVERIFY(std::abs(x(w.timeline(), tA) - x(t->view(), tB)) <= 1.0);
        // From A's start: where B starts later, its first pixels are blank,
        // as many as the shift takes; the cursor there is not in B.
        const uint64_t shift = uint64_t(std::abs(t->shift()));
        w.controller()->setRange({0, 4 * shift});
        const int blank = t->view()->options().leadingBlank;
        if (t->shift() > 0) {
            later = true;
            RenderOptions o = t->view()->options();
            const int plotWidth = t->view()->renderer().plotArea(t->view()->rect(), o).width() + blank;
            QVERIFY2(std::abs(blank - plotWidth / 4) <= 1, qPrintable(QString::number(blank)));
            QCOMPARE(t->view()->shownRange().start, uint64_t(0));
            QVERIFY(std::abs(x(w.timeline(), shift) - x(t->view(), 0)) <= 1.0);
            t->setCursorFromA(shift / 2);
            QVERIFY(!t->view()->cursor());
            t->setCursorFromA(shift * 2);
            QCOMPARE(t->view()->cursor(), std::optional<uint64_t>(shift));
        } else {
            earlier = true;
            QCOMPARE(blank, 0);
            QCOMPARE(t->view()->shownRange().start, shift); // (B's first `shift` ns are before A's start)
        }
        // Back to the starts: no shift, no blank.
        t->setAlignment(CompareTimeline::Align::Start);
        QCOMPARE(t->shift(), int64_t(0));
        QCOMPARE(t->view()->timeBias(), uint64_t(0));
        QCOMPARE(t->view()->options().leadingBlank, 0);
    }
    QVERIFY(later && earlier);
}

// A .prof opened alone is A: compared with a run of any kind, as `diff`
// compares them; a B with a timeline shows none under a report.
void TestComparePane::aReportOnScreenIsComparedToo()
{
    const QString a = compareLog("profile-before.prof"), b = compareLog("profile-slower.eventlog");
    MainWindow w;
    QSignalSpy report(&w, &MainWindow::reportShown);
    w.openFile(a);
    QVERIFY(report.wait(20000));
    QVERIFY(!w.index());
    QVERIFY(compare(w, b));
    const Comparison* c = w.comparePane()->comparison();
    QVERIFY2(c, qPrintable(w.comparePane()->problemText()));
    sameAsDiff(*c, {a, b});
    QVERIFY(w.compareTimeline()->isHidden());
    // Another report as B too.
    QVERIFY(compare(w, compareLog("profile-slower.prof")));
    QVERIFY(w.comparePane()->comparison());
    sameAsDiff(*w.comparePane()->comparison(), {a, compareLog("profile-slower.prof")});
}

// A log followed live (a named pipe the run writes into) compared with
// another run: compared as it is when chosen, again as it grows, and once
// its session ends, with the figures `diff` gives for the whole file; B's
// timeline is stacked under it then.
void TestComparePane::aLiveLogIsComparedAsItGrows()
{
    const QString a = compareLog("parfib-N1.eventlog"), b = compareLog("parfib-N4.eventlog");
    const std::vector<uint8_t> bytes = readFile(a);
    QTemporaryDir dir;
    const QString fifo = dir.filePath(QStringLiteral("run.fifo"));
    QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
    MainWindow w;
    w.openLive(fifo);
    QVERIFY(w.liveJob());
    std::atomic<size_t> written = 0;
    std::atomic<bool> go = false;
    std::thread writer([&] {
        const int fd = ::open(fifo.toLocal8Bit().constData(), O_WRONLY | O_CLOEXEC);
        if (fd < 0)
            return;
        while (written < bytes.size()) {
            if (written >= bytes.size() / 3 && !go) { // a third, then wait for the comparison
                std::this_thread::sleep_for(std::chrono::milliseconds(5));
                continue;
            }
            // (The rest slowly: several updates, the last within two
            // seconds of the one compared before it.)
            const size_t n = std::min<size_t>(go ? 1024 : 4096, bytes.size() - written);
            if (::write(fd, bytes.data() + written, n) != ssize_t(n))
                break;
            written += n;
            std::this_thread::sleep_for(std::chrono::milliseconds(go ? 25 : 2));
        }
        ::close(fd);
    });
    QTRY_VERIFY_WITH_TIMEOUT(w.index() && w.index()->scan.events > 0, 20000);
    QSignalSpy shown(w.comparePane(), &ComparePane::comparisonShown);
    w.compareWith(b);
    QVERIFY(shown.wait(20000));
    QVERIFY2(w.comparePane()->comparison(), qPrintable(w.comparePane()->problemText()));
    QVERIFY(w.compareTimeline()->isHidden()); // (not under a log still growing)
    go = true;
    QTRY_VERIFY_WITH_TIMEOUT(!w.liveJob()->isRunning(), 20000);
    writer.join();
    QCOMPARE(size_t(written), bytes.size());
    // Once ended: the whole file's figures, B's timeline under A's.
    QTRY_VERIFY_WITH_TIMEOUT(!w.comparePane()->isBusy() && w.comparePane()->comparison() && w.compareTimeline()->hasRun(),
                             20000);
    sameAsDiff(*w.comparePane()->comparison(), {a, b});
}

} // namespace

QTEST_MAIN(TestComparePane)
#include "tst_comparepane.moc"
