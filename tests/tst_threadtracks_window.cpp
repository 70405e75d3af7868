// tst_threadtracks in the window: diagnostics, choosing a thread, the
// tracks' labels and clicks, a chosen span and the selection's figures.
#include "tst_threadtracks.h"

namespace {

struct OpenWindow {
    MainWindow w;
    explicit OpenWindow(const QString& log)
    {
        w.resize(1600, 1000);
        w.show();
        QSignalSpy finished(&w, &MainWindow::loadFinished);
        w.openFile(QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/%1.eventlog").arg(log));
        if (!finished.wait(20000))
            qFatal("no loadFinished");
    }
    std::optional<TrackRow> track(const QString& id) const
    {
        for (const TrackRow& row : w.timeline()->renderer().layout(w.timeline()->rect(), w.timeline()->options()))
            if (row.id() == id)
                return row;
        return std::nullopt;
    }
};

} // namespace

// --- the window ---

void TestThreadTracks::windowDiagnosticsNameUnmatchedSpans()
{
    OpenWindow o(QStringLiteral("spans-N2"));
    const auto& issues = o.w.index()->userSpans->issues;
    QCOMPARE(issues.size(), size_t(2));
    QCOMPARE(int(issues[0].kind), int(SpanIssue::StopWithoutStart));
    QCOMPARE(issues[0].thread, 7u);
    QCOMPARE(issues[0].time, uint64_t(822838));
    QCOMPARE(int(issues[1].kind), int(SpanIssue::OpenAtEnd));
    QCOMPARE(issues[1].thread, 11u);
    QCOMPARE(issues[1].time, uint64_t(33409907));
    const QStringList lines = o.w.diagnostics();
    const auto has = [&](const QStringList& parts) {
        return std::any_of(lines.begin(), lines.end(), [&](const QString& l) {
            return std::all_of(parts.begin(), parts.end(), [&](const QString& p) { return l.contains(p); });
        });
    };
    QVERIFY2(has({QStringLiteral("STOP"), QStringLiteral("without a START"), QStringLiteral("worker-2 (7)"),
                  timeText(822838)}),
             qPrintable(lines.join(QLatin1Char('\n'))));
    QVERIFY2(has({QStringLiteral("START"), QStringLiteral("never stopped"), QStringLiteral("worker-6 (11)"),
                  timeText(33409907)}),
             qPrintable(lines.join(QLatin1Char('\n'))));
}

void TestThreadTracks::windowChoosingAThreadFollowsEverywhere()
{
    OpenWindow o(QStringLiteral("spans-N2"));
    MainWindow& w = o.w;
    ThreadsPane* pane = w.threadsPane();
    QTRY_COMPARE(pane->model()->rowCount(), 12);
    const uint32_t worker3 = uint32_t(w.index()->threadStates.find(8));
    pane->table()->setCurrentIndex(pane->model()->index(pane->model()->rowOfThread(worker3), 0));
    QCOMPARE(w.eventList()->model()->filter().thread, std::optional<uint32_t>(8));
    QCOMPARE(w.threadRows()->view()->chosen, std::optional<uint32_t>(worker3));
    QCOMPARE(w.timeline()->options().states.get<ThreadRowsView>()->chosen, std::optional<uint32_t>(worker3));
    // The event list lists worker-3's events only.
    QTRY_VERIFY(w.eventList()->model()->rowCount() > 0);
    QTRY_VERIFY(!w.eventList()->statusText().startsWith(QStringLiteral("Searching")));
    QVERIFY2(w.eventList()->statusText().contains(QStringLiteral("matching")), qPrintable(w.eventList()->statusText()));
}

void TestThreadTracks::windowTrackLabelsAndClicks()
{
    OpenWindow o(QStringLiteral("spans-N2"));
    MainWindow& w = o.w;
    TimelineView* tl = w.timeline();
    QTRY_VERIFY(!w.threadRows()->busy());
    auto threads = o.track(QStringLiteral("threads"));
    QVERIFY(threads);
    // The track in sight, below the ruler pinned to the top of the
    // timeline's viewport and clear of the legend pinned to its bottom.
    auto* scroll = qobject_cast<QScrollArea*>(tl->parentWidget()->parentWidget());
    QVERIFY(scroll);
    scroll->verticalScrollBar()->setValue(threads->rect.top() - 40);
    QCoreApplication::processEvents();
    // A click on the header collapses, another expands.
    QTest::mouseClick(tl, Qt::LeftButton, {}, threads->rect.topLeft() + QPoint(10, 5));
    QVERIFY(w.threadRows()->view()->collapsed);
    QVERIFY(tl->options().states.get<ThreadRowsView>()->collapsed);
    threads = o.track(QStringLiteral("threads"));
    QTest::mouseClick(tl, Qt::LeftButton, {}, threads->rect.topLeft() + QPoint(10, 5));
    QVERIFY(!w.threadRows()->view()->collapsed);
    // The wheel over the names scrolls the rows (three a notch).
    w.threadRows()->setVisibleRows(4);
    threads = o.track(QStringLiteral("threads"));
    const QPoint overNames = threads->rect.topLeft() + QPoint(20, ThreadRowsView::kHeaderHeight + 30);
    QWheelEvent wheel(QPointF(overNames), QPointF(tl->mapToGlobal(overNames)), QPoint(), QPoint(0, -120), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(tl, &wheel);
    QCOMPARE(w.threadRows()->view()->first, size_t(3));
    // A click on a name chooses that thread (row 1: the fifth thread).
    QTest::mouseClick(tl, Qt::LeftButton, {},
                      threads->rect.topLeft() + QPoint(20, ThreadRowsView::kHeaderHeight + ThreadRowsView::kRowHeight + 8));
    const uint32_t fifth = w.threadRows()->view()->order[4];
    QCOMPARE(w.threadRows()->view()->chosen, std::optional<uint32_t>(fifth));
    QCOMPARE(w.eventList()->model()->filter().thread, std::optional<uint32_t>(w.index()->threadStates.ids[fifth]));
    // A click on a running segment of a row selects it and chooses its
    // thread (without filtering the event list again).
    // The window's index keeps this thread's segments in the file only:
    // zoomed in, the row reads them back, and the click finds the segment
    // the whole walk has (from an index that keeps them).
    const auto& ix = w.index();
    const uint32_t thread = w.threadRows()->view()->order[5]; // row 2
    QVERIFY(ix->threadStates.inFileOnly(thread));
    const auto kept = loadLog(QStringLiteral("spans-N2"));
    QVERIFY(!kept->threadStates.inFileOnly(thread));
    const size_t i = longestSegment(*kept, thread, ThreadState::Running);
    const auto segs = kept->threadStates.of(thread);
    const uint64_t start = segs[i].time, end = kept->threadStates.segmentEnd(segs, i);
    w.controller()->setRange(around(start, end));
    tl->repaint(); // asks for the segments
    QTRY_VERIFY(!tl->isReadingDetail());
    tl->repaint();
    const ViewRange range = w.controller()->range();
    const QRect plot = tl->renderer().plotArea(tl->rect(), tl->options());
    const int x = int(TimeMapping(range, plot.left(), plot.width()).toPixel(start + (end - start) / 2));
    QSignalSpy selected(tl, &TimelineView::itemSelected);
    QTest::mouseClick(tl, Qt::LeftButton, {}, QPoint(x, stateBarY(threads->rect.top(), 2)));
    QCOMPARE(selected.count(), 1);
    const auto item = tl->selectedItem();
    QVERIFY(item);
    QCOMPARE(item->item, int64_t(thread));
    QCOMPARE(std::pair(item->start, item->end), std::pair(start, end));
    QCOMPARE(w.threadRows()->view()->chosen, std::optional<uint32_t>(thread));
    // (Once the pane's figures are in, if they were still being computed.)
    QTRY_COMPARE(w.threadsPane()->table()->currentIndex().data(ThreadsTableModel::kNumberRole).toUInt(), thread);
    QCOMPARE(w.eventList()->model()->filter().thread, std::optional<uint32_t>(w.index()->threadStates.ids[fifth]));
    // #25: a name drawn whole has no tooltip; in a font too big for the
    // widest label column it is elided and its tooltip says it whole.
    const QString name = threadName(*ix, ix->threadStates.ids[w.threadRows()->view()->order[4]]); // row 1
    const auto tipAt = [&] {
        threads = o.track(QStringLiteral("threads"));
        const QPoint at = threads->rect.topLeft() + QPoint(20, ThreadRowsView::kHeaderHeight + ThreadRowsView::kRowHeight + 8);
        QHelpEvent help(QEvent::ToolTip, at, tl->mapToGlobal(at));
        QApplication::sendEvent(tl, &help);
        return QToolTip::isVisible() ? QToolTip::text() : QString();
    };
    QCOMPARE(tipAt(), QString());
    QFont big = tl->font();
    big.setPixelSize(48); // "main (5)" wider than kMaxLabelWidth
    tl->setFont(big);
    QCOMPARE(tl->renderer().labelWidth(tl->options()), TimelineRenderer::kMaxLabelWidth);
    QTRY_COMPARE(tipAt(), name);
}

void TestThreadTracks::windowSpanChosenAndSelectionStatistics()
{
    MainWindow w;
    w.resize(1600, 1000);
    w.show();
    QSignalSpy finished(&w, &MainWindow::loadFinished);
    QSignalSpy stats(&w, &MainWindow::statisticsShown);
    w.openFile(QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/spans-N2.eventlog"));
    QVERIFY(finished.wait(20000));
    QVERIFY(stats.count() > 0 || stats.wait(20000));
    QTRY_VERIFY(w.statisticsText().contains(QStringLiteral("User spans (the 20 with the most time")));

    // An occurrence chosen in the Spans pane: the view shows the span.
    SpansPane* pane = w.spansPane();
    QTRY_VERIFY(pane->namesModel()->rowCount() == 8);
    int row = -1;
    for (int r = 0; r < pane->namesModel()->rowCount(); ++r)
        if (pane->namesModel()->index(r, SpanNamesModel::Name).data().toString() == QLatin1String("compute"))
            row = r;
    pane->namesTable()->setCurrentIndex(pane->namesModel()->index(row, 0));
    QVERIFY(pane->occurrencesModel()->rowCount() > 100);
    const int k = pane->occurrencesModel()->rowCount() - 7;
    const UserSpan& s = w.index()->userSpans->spans[pane->occurrencesModel()->index(k, 0).data(SpanOccurrencesModel::kSpanRole).toUInt()];
    QVERIFY(w.controller()->range().duration() > 10 * s.duration());
    pane->occurrencesTable()->setCurrentIndex(pane->occurrencesModel()->index(k, 0));
    const ViewRange view = w.controller()->range();
    QVERIFY2(view.start <= s.start && s.end <= view.end,
             qPrintable(QStringLiteral("%1–%2 not in %3–%4").arg(s.start).arg(s.end).arg(view.start).arg(view.end)));
    QVERIFY(view.duration() < 4 * s.duration());
    QCOMPARE(w.timeline()->cursor(), std::optional<uint64_t>(s.start));
    QCOMPARE(w.threadRows()->view()->chosen, std::optional<uint32_t>(uint32_t(w.index()->threadStates.find(s.thread))));

    // A selection: its statistics list the spans starting in it.
    const ViewRange sel{w.index()->lastTime / 4, w.index()->lastTime / 2};
    w.controller()->setSelection(sel);
    QTRY_VERIFY_WITH_TIMEOUT(w.statisticsText().contains(QStringLiteral("User spans starting in the selection")), 10000);
    const std::vector<SpanNameFigures> figures = spanFigures(*w.index()->userSpans, sel);
    for (const SpanNameFigures& f : figures)
        QVERIFY(w.statisticsText().contains(QString::fromStdString(w.index()->userSpans->names[f.name])));
    // And the Threads pane follows the selection.
    // (Its status names the selection while it computes, too: wait for the figures.)
    QTRY_VERIFY(w.threadsPane()->statusText().contains(QStringLiteral("selection"))
                && !w.threadsPane()->statusText().startsWith(QStringLiteral("Computing")));
    // (The window's index has the long threads' segments in the file
    // only: the pane read them back. Compared with an index keeping them.)
    QVERIFY(w.index()->threadStates.segmentsInFile && !w.index()->threadStates.summarised.empty());
    CHECKED(checkThreadRows(*w.threadsPane()->model(), allThreadFigures(*loadLog(QStringLiteral("spans-N2")), sel),
                            ThreadsTableModel::Id, Qt::AscendingOrder));
}
