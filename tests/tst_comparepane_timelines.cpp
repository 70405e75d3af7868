// tst_comparepane: the timelines on one axis, a selection, each pane's
// figures, alignment at an occurrence, a report, and a live log.
#include "tst_comparepane.h"

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
