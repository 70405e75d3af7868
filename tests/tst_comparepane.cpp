// The Compare pane in the window: File > Compare With... of real pairs
// (testdata/compare/). Its figures are `hecscope diff`'s, figure for figure;
// the differential flame graph colours the frames that grew red and the
// others by their change; the two heap profiles share one plot; a run that
// cannot be compared, a cancel and a B chosen before any log is on screen
// leave a pane that says what happened.
#include "tst_comparepane.h"

namespace comparepanetest {

QString compareLog(const char* name)
{
    return QStringLiteral(HECSCOPE_TESTDATA_DIR "/compare/") + QLatin1String(name);
}

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

bool open(MainWindow& w, const QString& a)
{
    QSignalSpy loaded(&w, &MainWindow::loadFinished);
    w.openFile(a);
    return loaded.wait(20000);
}

bool compare(MainWindow& w, const QString& b)
{
    QSignalSpy shown(w.comparePane(), &ComparePane::comparisonShown);
    w.compareWith(b);
    return shown.wait(20000);
}

} // namespace comparepanetest

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

// B is a document of the pane's own, followed as the panes follow the
// window's: a new B is announced as a cleared log, then its index (the one
// stacked under A's timeline) or its report; a new A does not load B
// again; a B that cannot be opened is a notice naming it, and the reason
// the pane gives; Cancel and Close let go of B.
void TestComparePane::runBIsADocument()
{
    MainWindow w;
    QVERIFY(open(w, compareLog("parfib-N1.eventlog")));
    const LogDocument* b = w.comparePane()->runB();
    QVERIFY(b);
    QCOMPARE(b->role(), DocumentRole::Compared);
    QVERIFY(!b->index());
    QSignalSpy cleared(b, &LogDocument::cleared);
    QSignalSpy started(b, &LogDocument::loadStarted);
    QSignalSpy statistics(b, &LogDocument::statisticsReady);
    const QString slower = compareLog("profile-slower.eventlog");
    QVERIFY(compare(w, slower));
    QCOMPARE(cleared.count(), 1);
    QCOMPARE(cleared[0][0].toString(), slower);
    QCOMPARE(started.count(), 1);
    QCOMPARE(b->path(), slower);
    QVERIFY(b->index());
    QCOMPARE(w.compareTimeline()->runB(), b->index());
    QCOMPARE(statistics.count(), 0); // (B's figures are the comparison's)
    // Another A: compared with the same B, which is not loaded again.
    QSignalSpy shown(w.comparePane(), &ComparePane::comparisonShown);
    QVERIFY(open(w, compareLog("profile-before.eventlog")));
    QVERIFY(shown.count() > 0 || shown.wait(20000));
    QVERIFY(w.comparePane()->comparison());
    QCOMPARE(started.count(), 1);
    QCOMPARE(cleared.count(), 1);
    // A report as B: found by its first bytes, no index.
    QSignalSpy report(b, &LogDocument::reportFound);
    QVERIFY(compare(w, compareLog("profile-slower.prof")));
    QCOMPARE(report.count(), 1);
    QCOMPARE(cleared.count(), 2);
    QVERIFY(!b->index());
    QVERIFY(w.comparePane()->comparison());
    // A B that cannot be opened: B's document says so, naming it, and the
    // pane gives its reason; B is let go of.
    QStringList errors;
    connect(b, &LogDocument::notice, &w, [&](const QString& text, NoticeKind kind) {
        if (kind == NoticeKind::Error)
            errors << text;
    });
    QSignalSpy failed(b, &LogDocument::openFailed);
    QVERIFY(compare(w, QStringLiteral("/nonexistent/run.eventlog")));
    QCOMPARE(failed.count(), 1);
    QCOMPARE(errors.size(), 1);
    QVERIFY2(errors[0].contains(QLatin1String("/nonexistent/run.eventlog")), qPrintable(errors[0]));
    QVERIFY(!failed[0][0].toString().isEmpty());
    QVERIFY2(w.comparePane()->problemText().endsWith(failed[0][0].toString()), qPrintable(w.comparePane()->problemText()));
    QVERIFY(b->path().isEmpty());
    QVERIFY(w.comparePane()->pathB().isEmpty());
    // Cancel while B loads: its load ends, B is let go of.
    QSignalSpy ended(b, &LogDocument::loadEnded);
    w.compareWith(compareLog("parfib-N4.eventlog"));
    QCOMPARE(b->path(), compareLog("parfib-N4.eventlog"));
    ended.clear();
    w.comparePane()->cancel();
    QVERIFY(ended.count() > 0);
    QVERIFY(b->path().isEmpty());
    QVERIFY(!w.comparePane()->isBusy());
    // Close: the same.
    QVERIFY(compare(w, compareLog("leak-after.eventlog")));
    QVERIFY(b->index());
    w.comparePane()->closeComparison();
    QVERIFY(!b->index());
    QVERIFY(b->path().isEmpty());
    QVERIFY(w.compareTimeline()->isHidden());
}

QTEST_MAIN(TestComparePane)
