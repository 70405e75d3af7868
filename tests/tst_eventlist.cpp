// The event list: a table over every event of a real log, read in pages on
// worker threads, checked row by row against `hecscope dump` (itself
// byte-identical to ghc-events); filters by type, capability, thread and
// text, search of markers and thread labels, time lookups, and the window's
// links between the list and the timeline. Models run under
// QAbstractItemModelTester.
#include "testsupport.h"

#include "core/io/bytesource.h"
#include "core/format/eventtags.h"
#include "core/load/loader.h"
#include "core/order/timeorder.h"
#include "core/synth/synthetic.h"
#include "ui/events/eventlistmodel.h"
#include "ui/events/eventlistpane.h"
#include "ui/threads/threadrows.h"
#include "ui/threads/threadrowscontroller.h"
#include "ui/window/mainwindow.h"
#include "ui/timeline/timelineview.h"
#include "ui/timeline/viewcontroller.h"

#include "ui/events/eventtableview.h"
#include "ui/models/tablemodels.h"
#include <QTableView>
#include <QComboBox>
#include <QDockWidget>
#include <QMenu>
#include <QTimer>
#include <QScrollBar>
#include <QToolButton>
#include <QAbstractItemModelTester>
#include <QFile>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <map>
#include <set>

using namespace hecscope;

namespace {

// The thread an event belongs to, found without the index: the thread it
// names, or for a user message the thread running on its capability, by
// following RUN_THREAD / STOP_THREAD in time order. Feed every event.
class ThreadWalk {
public:
    std::optional<uint32_t> operator()(const Event& e)
    {
        if (e.tag == tag::RunThread)
            m_running[e.cap] = uint32_t(e.n[0]);
        else if (e.tag == tag::StopThread)
            m_running.erase(e.cap);
        if (e.tag == tag::UserMsg || e.tag == tag::UserMarker || e.tag == tag::UserBinaryMsg) {
            const auto it = m_running.find(e.cap);
            return it == m_running.end() ? std::nullopt : std::optional<uint32_t>(it->second);
        }
        return threadOf(e);
    }

private:
    std::map<uint16_t, uint32_t> m_running;
};

} // namespace

class TestEventList : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void rowsMatchTheDump();
    void filterByType();
    void filterByCapAndThread();
    void searchFindsMarkersAndLabels();
    void refilteringKeepsOnlyTheLatest();
    void rowForTime();
    void onlyTheLatestFindSelects();
    void windowLinksListAndTimeline();
    void tableKeysAndClicks();
    void threadBoxTakesIdsAndLabels();
    void aRunSelectsItsOwnEvent();
    void rowsComeFromTheOpenFileNotThePath();
    void messagesNameTheThreadThatWroteThem();
    void choosingARowDescribesItInDetails();
    void highlightKeepsEveryRowAndSteps();
    void theListFollowsEveryJump();
    void aLongLoadListsFromTheTop();
    void aLongLoadKeepsTheChosenEvent();
    void theStatusNamesEveryFilter();
    void showingAThreadNamesAnOldSearch();

private:
    // Row `row`, read from the file if its page is not there.
    static const EventRow* rowAt(EventListModel& model, int row);
    static void waitForScan(EventListModel& model);
    // A log whose load takes long enough to show a partial index first.
    QString longLog();
    QTemporaryDir m_dir;
    QString m_log = QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/threads-N2.eventlog");
    std::shared_ptr<const LogIndex> m_index;
};

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
    const ThreadInfo* labelled = nullptr;
    for (const ThreadInfo& t : m_index->threads)
        if (t.seen && t.label == "main")
            labelled = &t;
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
    const ThreadInfo* worker2 = nullptr;
    for (const ThreadInfo& t : index->threads)
        if (t.label == "worker-2")
            worker2 = &t;
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
    const ThreadInfo* worker = nullptr;
    for (const ThreadInfo& t : index->threads)
        if (t.label == "worker-3")
            worker = &t;
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
    w.resize(1400, 900);
    w.show();
    QSignalSpy finished(&w, &MainWindow::loadFinished);
    w.openFile(QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/spans-N2.eventlog"));
    QVERIFY(finished.wait(20000));
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
    const ThreadInfo* info = w.index()->thread(*e->thread);
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
    w.resize(1400, 900);
    w.show();
    QSignalSpy finished(&w, &MainWindow::loadFinished);
    w.openFile(m_log);
    QVERIFY(finished.wait(20000));
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

// While the list is filtered the status says by what, every filter, with
// a button that clears them all at once.
void TestEventList::theStatusNamesEveryFilter()
{
    EventListPane pane;
    pane.setLog(m_log, m_index);
    QVERIFY(pane.clearFiltersButton()->isHidden());
    const ThreadInfo* worker = nullptr;
    for (const ThreadInfo& t : m_index->threads)
        if (!t.label.empty() && !worker)
            worker = &t;
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
    w.resize(1400, 900);
    w.show();
    QSignalSpy finished(&w, &MainWindow::loadFinished);
    w.openFile(m_log);
    QVERIFY(finished.wait(20000));
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
        const QPoint local(10, ThreadRowsView::kHeaderHeight + 2 * ThreadRowsView::kRowHeight + 5);
        emit w.timeline()->trackContextMenu(QStringLiteral("threads"), -1, local, w.timeline()->mapToGlobal(local));
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

QTEST_MAIN(TestEventList)
#include "tst_eventlist.moc"
