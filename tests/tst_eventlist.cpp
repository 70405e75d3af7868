// The event list: a table over every event of a real log, read in pages on
// worker threads, checked row by row against `hecscope dump` (itself
// byte-identical to ghc-events); filters by type, capability, thread and
// text, search of markers and thread labels, time lookups, and the window's
// links between the list and the timeline. Models run under
// QAbstractItemModelTester.
#include "tst_eventlist.h"

void TestEventList::initTestCase()
{
    QCoreApplication::setOrganizationName(QStringLiteral("HecscopeTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_eventlist"));
    const std::vector<uint8_t> bytes = test::readFile(m_log);
    MemorySource source(bytes);
    m_index = std::shared_ptr<const LogIndex>(loadIndex(source).index.release());
    QVERIFY(m_index->scan.events > 10000);
}

const EventRow* TestEventList::rowAt(EventListModel& model, int row)
{
    if (!model.eventAt(row)) {
        model.data(model.index(row, 0));
        model.waitForIdle();
    }
    return model.eventAt(row);
}

void TestEventList::waitForScan(EventListModel& model)
{
    QTRY_VERIFY_WITH_TIMEOUT(!model.isScanning(), 20000);
    model.waitForIdle();
}

void TestEventList::rowsMatchTheDump()
{
    EventListModel model;
    // The tester re-checks the whole model on every change: it watches the
    // start, not the read of every page.
    auto tester = std::make_unique<QAbstractItemModelTester>(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setLog(m_log, m_index);
    QCOMPARE(uint64_t(model.rowCount()), m_index->scan.events);
    QCOMPARE(model.columnCount(), int(EventListModel::ColumnCount));
    // Before its page arrives a row says so, and asks for it.
    QCOMPARE(model.data(model.index(0, 0)).toString(), QStringLiteral("…"));

    // `hecscope dump` lines after "Events:", one per event, in time order.
    const std::string dump = test::dumpBytes(test::readFile(m_log));
    const QStringList lines = QString::fromStdString(dump.substr(dump.find("\nEvents:\n") + 9)).split(QLatin1Char('\n'));
    QStringList events;
    for (const QString& line : lines)
        if (!line.isEmpty())
            events << line;
    QCOMPARE(uint64_t(events.size()), m_index->scan.events);
    for (int row = 0; row < 3 * EventListModel::kPageRows; row += EventListModel::kPageRows)
        QVERIFY(rowAt(model, row));
    tester.reset();
    for (int row = 0; row < model.rowCount(); ++row) {
        const EventRow* e = rowAt(model, row);
        QVERIFY2(e, qPrintable(QString::number(row)));
        QCOMPARE(e->position, uint64_t(row));
        const QString shown = QStringLiteral("%1: %2%3")
                                  .arg(e->time)
                                  .arg(e->cap == kNoCap ? QString() : QStringLiteral("cap %1: ").arg(e->cap))
                                  .arg(QString::fromStdString(e->details));
        if (shown != events[row])
            QFAIL(qPrintable(QStringLiteral("row %1: %2 != %3").arg(row).arg(shown, events[row])));
    }
    // The time column shows every nanosecond, in the unit of each value
    // (View ▸ Time Format: Automatic) or the one chosen.
    const EventRow* last = rowAt(model, model.rowCount() - 1);
    const QModelIndex lastTime = model.index(model.rowCount() - 1, EventListModel::TimeColumn);
    QCOMPARE(last->time, uint64_t(70415800)); // threads-N2's last event
    QCOMPARE(model.data(lastTime).toString(), QStringLiteral("70.415800 ms"));
    setTimeUnit(TimeUnit::Seconds);
    QCOMPARE(model.data(lastTime).toString(), QStringLiteral("0.070415800 s"));
    setTimeUnit(TimeUnit::Microseconds);
    QCOMPARE(model.data(lastTime).toString(), QStringLiteral("70415.800 µs"));
    setTimeUnit(TimeUnit::Automatic);
}

void TestEventList::filterByType()
{
    EventListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setLog(m_log, m_index);
    EventFilter f;
    f.tags.set(tag::RunThread);
    model.setFilter(f);
    QSignalSpy finished(&model, &EventListModel::scanFinished);
    waitForScan(model);
    QCOMPARE(uint64_t(model.rowCount()), m_index->tagCounts[tag::RunThread]);
    uint64_t previous = 0;
    for (int row = 0; row < model.rowCount(); ++row) {
        const EventRow* e = rowAt(model, row);
        QVERIFY(e);
        QCOMPARE(e->tag, uint16_t(tag::RunThread));
        QVERIFY(row == 0 || e->position > previous);
        previous = e->position;
    }
    QCOMPARE(finished.count(), 1);
}

void TestEventList::filterByCapAndThread()
{
    // The expected rows, by an independent walk over the log in time order.
    const std::vector<uint8_t> bytes = test::readFile(m_log);
    MemorySource source(bytes);
    class Collect final : public EventSink {
    public:
        void onEvent(const Event& e) override
        {
            if (e.cap == 1)
                ++onCap1;
            if (m_walk(e) == std::optional<uint32_t>(5))
                ++thread5;
        }
        uint64_t onCap1 = 0, thread5 = 0;
        ThreadWalk m_walk;
    } expected;
    visitInTimeOrder(source, m_index->scan, expected);
    QVERIFY(expected.onCap1 > 0 && expected.thread5 > 0);

    EventListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setLog(m_log, m_index);
    EventFilter cap;
    cap.cap = 1;
    model.setFilter(cap);
    waitForScan(model);
    QCOMPARE(uint64_t(model.rowCount()), expected.onCap1);
    EventFilter thread;
    thread.thread = 5;
    model.setFilter(thread);
    waitForScan(model);
    QCOMPARE(uint64_t(model.rowCount()), expected.thread5);
    for (int row = 0; row < model.rowCount(); ++row)
        QCOMPARE(rowAt(model, row)->thread, std::optional<uint32_t>(5));
}

void TestEventList::searchFindsMarkersAndLabels()
{
    EventListModel model;
    model.setLog(m_log, m_index);
    // A marker's text.
    EventFilter marker;
    marker.text = "SLEEPERS done"; // case-insensitive
    model.setFilter(marker);
    waitForScan(model);
    QCOMPARE(model.rowCount(), 1);
    const auto it = std::find_if(m_index->messages.begin(), m_index->messages.end(), [&](const Message& m) {
        return m_index->textOf(m.text) == "sleepers done";
    });
    QVERIFY(it != m_index->messages.end());
    QCOMPARE(rowAt(model, 0)->time, it->time);
    // A thread label: every event about that thread matches, not just the
    // THREAD_LABEL event itself.
    std::optional<ThreadInfo> labelled; // (a copy: the table is read by value)
    for (const ThreadInfo& t : m_index->threads)
        if (t.seen && t.label == "main")
            labelled = t;
    QVERIFY(labelled);
    EventFilter label;
    label.text = "main";
    label.thread = labelled->id;
    model.setFilter(label);
    waitForScan(model);
    EventFilter onlyThread;
    onlyThread.thread = labelled->id;
    EventListModel all;
    all.setLog(m_log, m_index);
    all.setFilter(onlyThread);
    waitForScan(all);
    QCOMPARE(model.rowCount(), all.rowCount());
    QVERIFY(model.rowCount() > 2);
}

void TestEventList::refilteringKeepsOnlyTheLatest()
{
    EventListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setLog(m_log, m_index);
    for (uint16_t t : {tag::StopThread, tag::CreateThread, tag::RunThread, tag::ThreadWakeup}) {
        EventFilter f;
        f.tags.set(t);
        model.setFilter(f); // the previous scans are abandoned
    }
    waitForScan(model);
    QCOMPARE(uint64_t(model.rowCount()), m_index->tagCounts[tag::ThreadWakeup]);
    model.setFilter(EventFilter{});
    QCOMPARE(uint64_t(model.rowCount()), m_index->scan.events);
}

void TestEventList::rowForTime()
{
    EventListModel model;
    model.setLog(m_log, m_index);
    QSignalSpy found(&model, &EventListModel::rowForTimeFound);
    const int probe = model.rowCount() / 3;
    const uint64_t t = rowAt(model, probe)->time;
    model.findRowAt(t);
    QVERIFY(found.wait(10000));
    const int row = found.takeFirst().at(0).toInt();
    QCOMPARE(rowAt(model, row)->time, t); // the first event at that time
    QVERIFY(row == 0 || rowAt(model, row - 1)->time < t);
}

// A click asks for the nearest event, then for the run's own event; the two
// run side by side, and the first may answer last: only the latest selects.
void TestEventList::onlyTheLatestFindSelects()
{
    EventListModel model;
    model.setLog(m_log, m_index);
    QSignalSpy found(&model, &EventListModel::rowForTimeFound);
    const int probe = model.rowCount() / 3;
    const EventRow first = *rowAt(model, probe);
    const EventRow last = *rowAt(model, 2 * probe);
    for (int i = 0; i < 20; ++i) {
        model.findRowAt(first.time);
        model.findRowAt(last.time, last.cap);
    }
    model.waitForIdle();
    QCoreApplication::processEvents();
    QCOMPARE(found.count(), 1);
    QCOMPARE(rowAt(model, found.takeFirst().at(0).toInt())->time, last.time);
}

// The workers read the file the index was made from (one shared open
// source): replacing the file at its path afterwards changes no row.
void TestEventList::rowsComeFromTheOpenFileNotThePath()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("log.eventlog"));
    QVERIFY(QFile::copy(m_log, path));
    std::string error;
    std::shared_ptr<ByteSource> source = FileSource::open(path.toStdString(), error);
    QVERIFY(source);
    EventListModel model;
    model.setLog(source, m_index);
    // Another log now stands at that path (a new run writing the same name).
    QVERIFY(QFile::remove(path));
    QVERIFY(QFile::copy(QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/sparks-N4.eventlog"), path));
    EventListModel reference;
    reference.setLog(m_log, m_index);
    for (int row : {0, 1, 500, 20000, model.rowCount() - 1}) {
        const EventRow* a = rowAt(model, row);
        const EventRow* b = rowAt(reference, row);
        QVERIFY(a && b);
        QCOMPARE(a->time, b->time);
        QCOMPARE(a->details, b->details);
    }
}

QString TestEventList::longLog()
{
    const QString path = m_dir.filePath(QStringLiteral("long.eventlog"));
    if (!QFile::exists(path)) {
        // 64 MiB: its load takes several times the 0.08 s after which the
        // loader shows the first partial index (a tenth of a second here).
        const std::vector<uint8_t> bytes = synthesizeSchedulerLog(64 << 20, 4, 7);
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly)
            || file.write(reinterpret_cast<const char*>(bytes.data()), qint64(bytes.size())) != qint64(bytes.size()))
            return {};
    }
    return path;
}

// A long load shows partial indexes, then the whole: the finished list has
// every event, its scroll range covers them all, and it starts at the top
// (only a live session follows the newest events), from where the last row
// is reached too. (The window used to scroll to the end "following", as if
// live.)
void TestEventList::aLongLoadListsFromTheTop()
{
    const QString path = longLog();
    QVERIFY(!path.isEmpty());
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QSignalSpy partial(&w, &MainWindow::partialShown);
    QSignalSpy finished(&w, &MainWindow::loadFinished);
    w.openFile(path);
    QVERIFY(finished.wait(60000));
    QVERIFY2(partial.size() >= 1, "no partial index was shown: the path under test was not taken");
    EventListPane* pane = w.eventList();
    EventTableView* table = pane->table();
    const uint64_t events = w.index()->scan.events;
    QVERIFY(events > 1'000'000);
    QCOMPARE(uint64_t(pane->model()->rowCount()), events);
    QVERIFY2(pane->statusText().startsWith(QStringLiteral("%1 events").arg(QLocale().toString(qulonglong(events)))),
             qPrintable(pane->statusText()));
    QScrollBar* bar = table->verticalScrollBar();
    QCOMPARE(bar->minimum(), 0);
    QCOMPARE(bar->maximum(), int(events) - table->visibleRows());
    QCOMPARE(bar->value(), 0);
    QCOMPARE(table->firstVisibleRow(), 0);
    QCOMPARE(table->currentRow(), -1);
    QCOMPARE(rowAt(*pane->model(), 0)->position, uint64_t(0)); // the first event in time order
    QVERIFY(rowAt(*pane->model(), 0)->time <= w.index()->firstTime);
    bar->setValue(bar->maximum());
    QCOMPARE(table->firstVisibleRow() + table->visibleRows(), int(events));
    QCOMPARE(rowAt(*pane->model(), int(events) - 1)->time, w.index()->lastTime);
    bar->setValue(bar->minimum());
    QCOMPARE(table->firstVisibleRow(), 0);
}

// An event chosen in the list while a long load goes on stays chosen when
// the whole index comes: the same event (time and capability), not the
// same row number, which events read later can move.
void TestEventList::aLongLoadKeepsTheChosenEvent()
{
    const QString path = longLog();
    QVERIFY(!path.isEmpty());
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QSignalSpy finished(&w, &MainWindow::loadFinished);
    std::optional<std::pair<uint64_t, uint16_t>> chosen;
    int partialRows = 0;
    connect(&w, &MainWindow::partialShown, this, [&] {
        if (chosen)
            return;
        EventListPane* pane = w.eventList();
        partialRows = pane->model()->rowCount();
        const int row = std::min(partialRows - 1, 5000);
        const EventRow* e = rowAt(*pane->model(), row);
        if (!e)
            return;
        pane->table()->setCurrentRow(row);
        chosen = std::pair{e->time, e->cap};
    });
    w.openFile(path);
    QVERIFY(finished.wait(60000));
    QVERIFY2(chosen, "no partial index was shown: the path under test was not taken");
    EventListPane* pane = w.eventList();
    QVERIFY(uint64_t(pane->model()->rowCount()) > uint64_t(partialRows));
    QTRY_VERIFY_WITH_TIMEOUT(pane->table()->currentRow() >= 0, 10000);
    const EventRow* e = rowAt(*pane->model(), pane->table()->currentRow());
    QVERIFY(e);
    QCOMPARE(e->time, chosen->first);
    QCOMPARE(e->cap, chosen->second);
    const int row = pane->table()->currentRow();
    QVERIFY(row >= pane->table()->firstVisibleRow() && row < pane->table()->firstVisibleRow() + pane->table()->visibleRows());
}

QTEST_MAIN(TestEventList)
