// tst_eventlist in the window: the list linked with the timeline, keys
// and clicks, the thread box, details, highlight, jumps and the status.
#include "tst_eventlist.h"

#include <QContextMenuEvent>
#include <QScrollArea>

// Shows `w` at 1400×900 and opens `path` in it: true once loaded.
bool TestEventList::openInWindow(MainWindow& w, const QString& path)
{
    w.resize(1400, 900);
    w.show();
    QSignalSpy finished(&w, &MainWindow::loadFinished);
    w.openFile(path);
    return finished.wait(20000);
}

void TestEventList::windowLinksListAndTimeline()
{
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QSignalSpy stats(&w, &MainWindow::statisticsShown);
    w.openFile(m_log);
    QVERIFY(stats.wait(20000));
    EventListPane* pane = w.eventList();
    QAbstractItemModelTester tester(pane->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QTRY_COMPARE(uint64_t(pane->model()->rowCount()), w.index()->scan.events);
    // Ctrl+F focuses the search box; typing filters after a pause.
    QTest::keyClick(&w, Qt::Key_F, Qt::ControlModifier);
    QTRY_VERIFY(pane->searchField()->hasFocus());
    QTest::keyClicks(pane->searchField(), QStringLiteral("sleepers done"));
    QTRY_COMPARE_WITH_TIMEOUT(pane->model()->rowCount(), 1, 10000);
    waitForScan(*pane->model());
    QTRY_VERIFY(pane->statusText().contains(QStringLiteral("1 matching")));
    // Next (F3) chooses the hit: the timeline's cursor goes to it and the
    // view centres on it when it was outside.
    w.controller()->setRange({0, 1000});
    QTest::keyClick(&w, Qt::Key_F3);
    QTRY_VERIFY(w.timeline()->cursor().has_value());
    const uint64_t hit = rowAt(*pane->model(), 0)->time;
    QTRY_COMPARE(*w.timeline()->cursor(), hit);
    // Centred on it, at the same zoom.
    const ViewRange r = w.controller()->range();
    QCOMPARE(r.duration(), uint64_t(1000));
    QCOMPARE(r.start + r.duration() / 2, hit);
    // Clicking the timeline selects the nearest event in the (unfiltered) list.
    pane->searchField()->clear();
    pane->applyFilter();
    w.controller()->fitAll();
    TimelineView* view = w.timeline();
    const QRect plot = view->renderer().plotArea(view->rect(), view->options());
    const QPoint at(plot.left() + plot.width() / 2, plot.top() + 70);
    QTest::mouseClick(view, Qt::LeftButton, Qt::NoModifier, at);
    const uint64_t t = *view->cursor();
    QTRY_VERIFY_WITH_TIMEOUT(pane->table()->currentRow() >= 0, 10000);
    const int row = pane->table()->currentRow();
    QVERIFY(rowAt(*pane->model(), row)->time >= t);
    if (row > 0)
        QVERIFY(rowAt(*pane->model(), row - 1)->time < t);
    // Clicking a run on a HEC row selects that run's own event: on its
    // capability at its start, not the event nearest to the pointer.
    const RenderOptions o = view->options();
    const ViewRange whole = w.controller()->range();
    const TimelineRenderer& renderer = view->renderer();
    std::optional<QPoint> onRun;
    std::optional<SelectedItem> run;
    for (const TrackRow& tr : renderer.layout(view->rect(), o)) {
        if (tr.id() != QLatin1String("hecs") || tr.cap != 1)
            continue;
        for (int x = plot.left() + plot.width() / 3; x < plot.right() && !onRun; x += 5) {
            const QPoint p(x, tr.rect.top() + 3);
            const auto item = renderer.itemAt(p, view->rect(), whole, o);
            if (item && !item->gcLane && item->cap == 1 && renderer.layout(view->rect(), o).size()) {
                onRun = p;
                run = item;
            }
        }
    }
    QVERIFY(onRun && run);
    const int before = pane->table()->currentRow();
    QTest::mouseClick(view, Qt::LeftButton, Qt::NoModifier, *onRun);
    QTRY_VERIFY_WITH_TIMEOUT(pane->table()->currentRow() != before
                                 && rowAt(*pane->model(), pane->table()->currentRow())->time == run->start,
                             10000);
    const EventRow* chosen = rowAt(*pane->model(), pane->table()->currentRow());
    QCOMPARE(chosen->cap, uint16_t(1));
}

void TestEventList::tableKeysAndClicks()
{
    EventListPane pane;
    pane.resize(900, 400);
    pane.show();
    pane.setLog(m_log, m_index);
    EventTableView* table = pane.table();
    QSignalSpy chosen(&pane, &EventListPane::eventChosen);
    QTest::keyClick(table, Qt::Key_Down);
    QCOMPARE(table->currentRow(), 0);
    QTest::keyClick(table, Qt::Key_End);
    QCOMPARE(table->currentRow(), int(m_index->scan.events) - 1);
    QCOMPARE(table->firstVisibleRow() + table->visibleRows() - 1 >= table->currentRow(), true);
    QTest::keyClick(table, Qt::Key_PageUp);
    QCOMPARE(table->currentRow(), int(m_index->scan.events) - 1 - table->visibleRows());
    QTest::keyClick(table, Qt::Key_Home);
    QCOMPARE(table->currentRow(), 0);
    QCOMPARE(table->firstVisibleRow(), 0);
    // A click picks the row under the pointer; its event is reported once
    // its page is in.
    QTest::mouseClick(table->viewport(), Qt::LeftButton, Qt::NoModifier, QPoint(50, table->rowHeight() * 3 + 2));
    QCOMPARE(table->currentRow(), 3);
    QTRY_VERIFY(!chosen.isEmpty());
    QCOMPARE(chosen.last().at(0).toULongLong(), rowAt(*pane.model(), 3)->time);
    // The view paints from the model: once pages are in, the cells show them.
    QTRY_VERIFY(pane.model()->data(pane.model()->index(3, EventListModel::DetailsColumn)).toString().size() > 3);
}

// The thread box takes an id or a regular expression over labels, and says
// which threads a label chose (spans-N2: worker-1..6 are threads 6..11), or
// why it chose none; it never reads "worker-2" as thread 2.
void TestEventList::threadBoxTakesIdsAndLabels()
{
    const QString path = QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/spans-N2.eventlog");
    const std::vector<uint8_t> bytes = test::readFile(path);
    MemorySource source(bytes);
    const auto index = std::shared_ptr<const LogIndex>(loadIndex(source).index.release());
    std::map<uint32_t, uint64_t> perThread; // events per thread, by an independent walk
    class Collect final : public EventSink {
    public:
        explicit Collect(std::map<uint32_t, uint64_t>& n) : m_n(n) {}
        void onEvent(const Event& e) override
        {
            if (const auto t = m_walk(e))
                ++m_n[*t];
        }
        std::map<uint32_t, uint64_t>& m_n;
        ThreadWalk m_walk;
    } collect(perThread);
    visitInTimeOrder(source, index->scan, collect);
    std::optional<ThreadInfo> worker2; // (a copy: the table is read by value)
    for (const ThreadInfo& t : index->threads)
        if (t.label == "worker-2")
            worker2 = t;
    QVERIFY(worker2 && worker2->id != 2 && perThread[worker2->id] > 0);

    EventListPane pane;
    pane.setLog(path, index);
    auto filterBy = [&](const QString& text) {
        pane.threadField()->setText(text);
        pane.applyFilter();
        waitForScan(*pane.model());
    };
    filterBy(QStringLiteral("worker-2"));
    QCOMPARE(uint64_t(pane.model()->rowCount()), perThread[worker2->id]);
    for (int row = 0; row < pane.model()->rowCount(); row += 7)
        QCOMPARE(rowAt(*pane.model(), row)->thread, std::optional<uint32_t>(worker2->id));
    QVERIFY2(pane.statusText().contains(QStringLiteral("worker-2 (%1)").arg(worker2->id)), qPrintable(pane.statusText()));
    // An expression over several labels.
    filterBy(QStringLiteral("^worker-[12]$"));
    uint64_t both = 0;
    std::set<uint32_t> ids;
    for (const ThreadInfo& t : index->threads)
        if (t.label == "worker-1" || t.label == "worker-2") {
            both += perThread[t.id];
            ids.insert(t.id);
        }
    QCOMPARE(ids.size(), size_t(2));
    QCOMPARE(uint64_t(pane.model()->rowCount()), both);
    for (int row = 0; row < pane.model()->rowCount(); row += 7)
        QVERIFY(ids.count(*rowAt(*pane.model(), row)->thread));
    // Digits are an id.
    filterBy(QString::number(worker2->id));
    QCOMPARE(uint64_t(pane.model()->rowCount()), perThread[worker2->id]);
    // No label matches: nothing listed, and said.
    filterBy(QStringLiteral("no-such-thread"));
    QCOMPARE(pane.model()->rowCount(), 0);
    QVERIFY2(pane.statusText().contains(QLatin1String("no thread label matches")), qPrintable(pane.statusText()));
    // Not an expression: said; the list keeps its filter.
    filterBy(QString::number(worker2->id));
    filterBy(QStringLiteral("worker-[2"));
    QVERIFY2(pane.statusText().contains(QLatin1String("not an id nor a regular expression")), qPrintable(pane.statusText()));
    QCOMPARE(uint64_t(pane.model()->rowCount()), perThread[worker2->id]);
}

// Asked for the event at a run's start on its capability, the list finds
// that capability's RUN_THREAD at that time.
void TestEventList::aRunSelectsItsOwnEvent()
{
    const std::vector<uint8_t> bytes = test::readFile(m_log);
    MemorySource source(bytes);
    struct Run {
        uint64_t time;
        uint16_t cap;
    };
    class Collect final : public EventSink {
    public:
        void onEvent(const Event& e) override
        {
            if (e.tag == tag::RunThread && e.cap != UINT16_MAX)
                runs.push_back({e.time, e.cap});
        }
        std::vector<Run> runs;
    } collect;
    visitInTimeOrder(source, m_index->scan, collect);
    QVERIFY(collect.runs.size() > 50);
    EventListPane pane;
    pane.setLog(m_log, m_index);
    EventListModel& model = *pane.model();
    QSignalSpy found(&model, &EventListModel::rowForTimeFound);
    for (size_t i = 0; i < collect.runs.size(); i += collect.runs.size() / 40) {
        const Run run = collect.runs[i];
        found.clear();
        pane.selectEventOn(run.time, run.cap);
        QVERIFY(found.wait(10000));
        const int row = found.last().at(0).toInt();
        const EventRow* e = rowAt(model, row);
        QVERIFY(e);
        QCOMPARE(e->time, run.time);
        QCOMPARE(e->cap, run.cap);
        QCOMPARE(e->tag, uint16_t(tag::RunThread));
    }
}

// A user message carries no thread: its row names the one running on its
// capability when it was written, found here by an independent walk of the
// log's RUN_THREAD / STOP_THREAD events (spans-N2: 3,204 START/STOP
// messages from six workers).
void TestEventList::messagesNameTheThreadThatWroteThem()
{
    const QString path = QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/spans-N2.eventlog");
    const std::vector<uint8_t> bytes = test::readFile(path);
    MemorySource source(bytes);
    const auto index = std::shared_ptr<const LogIndex>(loadIndex(source).index.release());
    std::vector<std::optional<uint32_t>> expected; // per message, in time order
    class Walk final : public EventSink {
    public:
        explicit Walk(std::vector<std::optional<uint32_t>>& out) : m_out(out) {}
        void onEvent(const Event& e) override
        {
            const auto thread = m_walk(e);
            if (e.tag == tag::UserMsg || e.tag == tag::UserMarker)
                m_out.push_back(thread);
        }
        std::vector<std::optional<uint32_t>>& m_out;
        ThreadWalk m_walk;
    } walk(expected);
    visitInTimeOrder(source, index->scan, walk);
    QVERIFY(expected.size() > 3000);
    QVERIFY(std::count(expected.begin(), expected.end(), std::nullopt) == 0); // all written by a running thread

    EventListModel model;
    model.setLog(path, index);
    EventFilter f;
    f.tags.set(tag::UserMsg);
    f.tags.set(tag::UserMarker);
    model.setFilter(f);
    waitForScan(model);
    QCOMPARE(size_t(model.rowCount()), expected.size());
    std::set<uint32_t> writers;
    for (int row = 0; row < model.rowCount(); ++row) {
        const EventRow* e = rowAt(model, row);
        QVERIFY(e);
        QCOMPARE(e->thread, expected[size_t(row)]);
        writers.insert(*e->thread);
        QCOMPARE(model.data(model.index(row, EventListModel::ThreadColumn)).toString(), QString::number(*e->thread));
    }
    QVERIFY(writers.size() >= 6);
    // The thread filter lists a worker's own messages with its other events.
    std::optional<ThreadInfo> worker; // (a copy: the table is read by value)
    for (const ThreadInfo& t : index->threads)
        if (t.label == "worker-3")
            worker = t;
    QVERIFY(worker);
    EventFilter mine = f;
    mine.thread = worker->id;
    model.setFilter(mine);
    waitForScan(model);
    QCOMPARE(size_t(model.rowCount()), size_t(std::count(expected.begin(), expected.end(), std::optional<uint32_t>(worker->id))));
    QVERIFY(model.rowCount() > 0);
}

// Choosing a row (a click, keys, Next) puts its event in Details: type,
// time, capability, the thread with its label, and the event's text.
void TestEventList::choosingARowDescribesItInDetails()
{
    MainWindow w;
    QVERIFY(openInWindow(w, QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/spans-N2.eventlog")));
    EventListPane* pane = w.eventList();
    QTRY_COMPARE(uint64_t(pane->model()->rowCount()), w.index()->scan.events);
    pane->searchField()->setText(QStringLiteral("START"));
    pane->applyFilter();
    waitForScan(*pane->model());
    QVERIFY(pane->model()->rowCount() > 10);
    QVERIFY(w.detailsText().isEmpty());
    pane->table()->setFocus();
    QTest::keyClick(pane->table(), Qt::Key_Down);
    QTest::keyClick(pane->table(), Qt::Key_Down);
    const EventRow* e = rowAt(*pane->model(), pane->table()->currentRow());
    QVERIFY(e && e->thread);
    const std::optional<ThreadInfo> info = w.index()->thread(*e->thread);
    QVERIFY(info && !info->label.empty());
    QTRY_VERIFY(w.detailsText().contains(QString::fromStdString(e->details)));
    const QString text = w.detailsText();
    QVERIFY2(text.startsWith(QString::fromStdString(e->type)), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("%1 ns from the start").arg(QLocale().toString(qulonglong(e->time)))), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("Capability  %1").arg(e->cap)), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("Thread      %1 \"%2\"").arg(*e->thread).arg(QString::fromStdString(info->label))),
             qPrintable(text));
    // Another row: Details follows.
    QTest::keyClick(pane->table(), Qt::Key_Down);
    const EventRow* next = rowAt(*pane->model(), pane->table()->currentRow());
    QVERIFY(next && next->position != e->position);
    QTRY_VERIFY(w.detailsText().contains(QStringLiteral("Event       %1 of").arg(QLocale().toString(qulonglong(next->position + 1)))));
}

// Highlight instead of filter: every event stays listed, the matching ones
// (the same as a filter finds) are marked, F3/Shift+F3 step from match to
// match, and the chosen row stays where it was.
void TestEventList::highlightKeepsEveryRowAndSteps()
{
    EventFilter f;
    f.text = "stopping thread 5 (";
    EventListModel filtered;
    filtered.setLog(m_log, m_index);
    filtered.setFilter(f);
    waitForScan(filtered);
    std::vector<uint64_t> positions;
    for (int row = 0; row < filtered.rowCount(); ++row)
        positions.push_back(rowAt(filtered, row)->position);
    QVERIFY(positions.size() > 5);

    EventListPane pane;
    QAbstractItemModelTester tester(pane.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    pane.setLog(m_log, m_index);
    const int start = int(positions[2]) + 3; // between the third and fourth match
    pane.table()->setCurrentRow(start);
    const uint64_t startTime = rowAt(*pane.model(), start)->time;
    pane.highlightButton()->setChecked(true);
    pane.searchField()->setText(QString::fromStdString(f.text));
    pane.applyFilter();
    waitForScan(*pane.model());
    QVERIFY(pane.model()->isHighlighting());
    QCOMPARE(uint64_t(pane.model()->rowCount()), m_index->scan.events); // nothing filtered away
    QCOMPARE(pane.model()->matchCount(), positions.size());
    QTRY_COMPARE(rowAt(*pane.model(), pane.table()->currentRow())->time, startTime); // kept its place
    for (int row = 0; row < pane.model()->rowCount(); row += 97) {
        const bool match = std::binary_search(positions.begin(), positions.end(), uint64_t(row));
        QCOMPARE(pane.model()->isMatch(row), match);
        QCOMPARE(pane.model()->data(pane.model()->index(row, 0), Qt::BackgroundRole).isValid(), match);
    }
    for (uint64_t p : positions)
        QVERIFY(pane.model()->data(pane.model()->index(int(p), 0), Qt::BackgroundRole).isValid());
    QVERIFY2(pane.statusText().contains(QStringLiteral("%1 matching").arg(positions.size())), qPrintable(pane.statusText()));
    QVERIFY2(pane.statusText().endsWith(QStringLiteral(" — highlighting: text “%1”").arg(QString::fromStdString(f.text))),
             qPrintable(pane.statusText()));
    // Stepping: from the chosen row to the next matches, then back.
    pane.table()->setCurrentRow(start);
    pane.next();
    QCOMPARE(uint64_t(pane.table()->currentRow()), positions[3]);
    pane.next();
    QCOMPARE(uint64_t(pane.table()->currentRow()), positions[4]);
    pane.previous();
    pane.previous();
    QCOMPARE(uint64_t(pane.table()->currentRow()), positions[2]);
    // Back to filtering: only the matches.
    pane.highlightButton()->setChecked(false);
    waitForScan(*pane.model());
    QCOMPARE(size_t(pane.model()->rowCount()), positions.size());
}

// A jump anywhere (a GC row, a bookmark) selects the event there in the
// list, as clicking the timeline does.
void TestEventList::theListFollowsEveryJump()
{
    MainWindow w;
    QVERIFY(openInWindow(w, m_log));
    EventListPane* pane = w.eventList();
    QTRY_COMPARE(uint64_t(pane->model()->rowCount()), w.index()->scan.events);
    QTableView* gc = w.gcTable();
    QCOMPARE(gc->model()->rowCount(), 2); // threads-N2 collects twice
    const QModelIndex third = gc->model()->index(1, 0);
    const uint64_t start = third.data(kTimeRole).toULongLong();
    emit gc->activated(third);
    QTRY_VERIFY_WITH_TIMEOUT(pane->table()->currentRow() >= 0
                                 && rowAt(*pane->model(), pane->table()->currentRow())->time == start, 10000);
    // A bookmark well before it.
    const uint64_t t = start / 3;
    w.timeline()->setCursorTime(t);
    w.addBookmark();
    QTableView* marks = w.bookmarkTable();
    int row = -1;
    for (int r = 0; r < marks->model()->rowCount(); ++r)
        if (marks->model()->index(r, 0).data(Qt::UserRole).toULongLong() == t)
            row = r;
    QVERIFY(row >= 0);
    emit marks->activated(marks->model()->index(row, 0));
    QTRY_VERIFY_WITH_TIMEOUT(rowAt(*pane->model(), pane->table()->currentRow())->time < start, 10000);
    QVERIFY(rowAt(*pane->model(), pane->table()->currentRow())->time >= t);
    const int at = pane->table()->currentRow();
    QVERIFY2(at == 0 || rowAt(*pane->model(), at - 1)->time < t,
             qPrintable(QStringLiteral("row %1 at %2, the one before at %3, bookmark %4")
                            .arg(at).arg(rowAt(*pane->model(), at)->time).arg(rowAt(*pane->model(), at - 1)->time).arg(t)));
}

// While the list is filtered the status says by what, every filter, with
// a button that clears them all at once.
void TestEventList::theStatusNamesEveryFilter()
{
    EventListPane pane;
    pane.setLog(m_log, m_index);
    QVERIFY(pane.clearFiltersButton()->isHidden());
    std::optional<ThreadInfo> worker; // (a copy: the table is read by value)
    for (const ThreadInfo& t : m_index->threads)
        if (!t.label.empty() && !worker)
            worker = t;
    QVERIFY(worker);
    pane.searchField()->setText(QStringLiteral("stopping"));
    pane.filterToThread(worker->id);
    waitForScan(*pane.model());
    QVERIFY(pane.model()->rowCount() > 0);
    QString status = pane.statusText();
    QVERIFY2(status.contains(QStringLiteral("matching events — filters: text “stopping”, thread %1").arg(worker->id)),
             qPrintable(status));
    QVERIFY(!pane.clearFiltersButton()->isHidden());
    // A search that finds nothing with them: "0 matching", and why.
    pane.searchField()->setText(QStringLiteral("no event says this"));
    pane.applyFilter();
    waitForScan(*pane.model());
    QCOMPARE(pane.model()->rowCount(), 0);
    status = pane.statusText();
    QVERIFY2(status.startsWith(QStringLiteral("0 matching events — filters: text “no event says this”, thread %1")
                                   .arg(worker->id)),
             qPrintable(status));
    // Type and capability are named too.
    auto* type = pane.findChildren<QComboBox*>().at(0);
    auto* cap = pane.findChildren<QComboBox*>().at(1);
    QVERIFY(type->count() > 1 && cap->count() > 2);
    type->setCurrentIndex(1);
    cap->setCurrentIndex(2);
    waitForScan(*pane.model());
    status = pane.statusText();
    const QString typeName = type->currentText().left(type->currentText().lastIndexOf(QStringLiteral(" (")));
    QVERIFY(!typeName.isEmpty());
    QVERIFY2(status.contains(QStringLiteral("type %1, cap 1").arg(typeName)), qPrintable(status));
    QVERIFY2(status.contains(QStringLiteral("cap 1")), qPrintable(status));
    // A label expression: the threads it chose.
    pane.threadField()->setText(QString::fromStdString(worker->label));
    pane.applyFilter();
    waitForScan(*pane.model());
    QVERIFY2(pane.statusText().contains(QStringLiteral("threads %1 (%2)").arg(QString::fromStdString(worker->label)).arg(worker->id)),
             qPrintable(pane.statusText()));
    // One click: every event again.
    QTest::mouseClick(pane.clearFiltersButton(), Qt::LeftButton);
    waitForScan(*pane.model());
    QVERIFY(pane.searchField()->text().isEmpty());
    QVERIFY(pane.threadField()->text().isEmpty());
    QCOMPARE(type->currentIndex(), 0);
    QCOMPARE(cap->currentIndex(), 0);
    QVERIFY(pane.model()->filter().empty());
    QCOMPARE(uint64_t(pane.model()->rowCount()), m_index->scan.events);
    QVERIFY2(!pane.statusText().contains(QStringLiteral("filters")), qPrintable(pane.statusText()));
    QVERIFY(pane.clearFiltersButton()->isHidden());
}

// "Show in the Threads pane and the event list" (the Threads track's
// context menu) over an old search: the thread is added to the filters (the
// search stays: both are the user's) and the status names both, so
// "0 matching events" is never a mystery; the event list is brought up
// even when another tab covered it.
void TestEventList::showingAThreadNamesAnOldSearch()
{
    MainWindow w;
    QVERIFY(openInWindow(w, m_log));
    EventListPane* pane = w.eventList();
    pane->searchField()->setText(QStringLiteral("no event says this"));
    pane->applyFilter();
    waitForScan(*pane->model());
    QCOMPARE(pane->model()->rowCount(), 0);
    auto* profile = w.findChild<QDockWidget*>(QStringLiteral("profile"));
    QVERIFY(profile);
    profile->raise(); // its tab covers the event list's
    QTRY_VERIFY(pane->visibleRegion().isEmpty()); // tabbed away: moved off the window
    // The menu of the Threads track's third row.
    const auto thread = w.threadRows()->view()->threadAtRow(2);
    QVERIFY(thread);
    const uint32_t id = w.index()->threadStates.ids[*thread];
    auto showFromMenu = [&] {
        bool triggered = false;
        QTimer::singleShot(0, &w, [&] {
            auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget());
            QVERIFY(menu);
            for (QAction* a : menu->actions())
                if (a->text() == QStringLiteral("Show in the Threads pane and the event list")) {
                    a->trigger();
                    triggered = true;
                }
            menu->close();
        });
        // (The Threads track's own menu, asked for over its third name.)
        TimelineView* tl = w.timeline();
        QPoint at;
        for (const TrackRow& row : tl->renderer().layout(tl->rect(), tl->options()))
            if (row.id() == QLatin1String("threads"))
                at = row.rect.topLeft() + QPoint(10, ThreadRowsView::kHeaderHeight + 2 * ThreadRowsView::kRowHeight + 5);
        QVERIFY(!at.isNull());
        // In sight (not under the legend pinned to the bottom of the view).
        for (QWidget* p = tl->parentWidget(); p; p = p->parentWidget())
            if (auto* area = qobject_cast<QScrollArea*>(p)) {
                area->ensureVisible(at.x(), at.y(), 10, 200);
                break;
            }
        QContextMenuEvent menuEvent(QContextMenuEvent::Mouse, at, tl->mapToGlobal(at));
        QApplication::sendEvent(tl, &menuEvent);
        QVERIFY(triggered);
    };
    showFromMenu();
    QCOMPARE(pane->threadField()->text(), QString::number(id));
    QCOMPARE(pane->searchField()->text(), QStringLiteral("no event says this"));
    QTRY_VERIFY(!pane->visibleRegion().isEmpty());
    waitForScan(*pane->model());
    QCOMPARE(pane->model()->rowCount(), 0);
    QVERIFY2(pane->statusText() == QStringLiteral("0 matching events — filters: text “no event says this”, thread %1").arg(id),
             qPrintable(pane->statusText()));
    QVERIFY(pane->clearFiltersButton()->isVisible());
    QTest::mouseClick(pane->clearFiltersButton(), Qt::LeftButton);
    waitForScan(*pane->model());
    QCOMPARE(uint64_t(pane->model()->rowCount()), w.index()->scan.events);
    // The thread alone: its events.
    showFromMenu();
    waitForScan(*pane->model());
    QVERIFY(pane->model()->rowCount() > 0);
    QVERIFY2(pane->statusText().endsWith(QStringLiteral("matching events — filters: thread %1").arg(id)),
             qPrintable(pane->statusText()));
}
