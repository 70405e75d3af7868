// The Threads and Spans panes and the controller of the thread rows, the
// parts that compute on our worker threads (these functions also run under
// ThreadSanitizer, tsan_threadpanes): the filter with its debounce and a bad
// expression, a selection's figures against allThreadFigures, choosing a
// thread or a span, re-pairing with other rules; the controller's sorts
// against sorting here by sums over segments, scroll, choose, pins,
// collapse, and 100,000 synthesized threads. Real logs from testdata:
// spans-N2 (12 threads, worker-1..6 = ids 6..11, four span names of ~400
// spans, three markers, a STOP without START on worker-2 and a START never
// stopped on worker-6) and threads-N2.
#include "threaduitestsupport.h"

#include "core/index/logindex.h"
#include "core/synth/synthetic.h"
#include "core/threads/threadstats.h"
#include "core/threads/userspans.h"
#include "ui/formatting.h"
#include "ui/jobs/settings.h"
#include "ui/models/tablemodels.h"
#include "ui/threads/threadrows.h"
#include "ui/threads/threadrowscontroller.h"
#include "ui/threads/spanspane.h"
#include "ui/threads/threadspane.h"

#include <QLineEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <numeric>
#include <set>

using namespace hecscope;
using namespace hecscope::test;

namespace {

std::string labelOf(const LogIndex& ix, uint32_t id)
{
    const std::optional<ThreadInfo> t = ix.thread(id);
    return t ? t->label : std::string();
}

} // namespace

class TestThreadPanes : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void init();

    void threadsPaneShowsEveryThreadAndFilters();
    void threadsPaneBadFilterDropsFiguresStillComing();
    void threadsPaneRangeAndChoice();
    void spansPaneNamesAndOccurrences();
    void spansPaneRules();

    void controllerSorts_data();
    void controllerSorts();
    void controllerScrollChoosePinCollapse();
    void controllerHundredThousandThreads();

private:
    const std::shared_ptr<const LogIndex>& big();
    QTemporaryDir m_settings;
    std::shared_ptr<const LogIndex> m_spans;
    std::shared_ptr<const LogIndex> m_threadsN2; // loaded on first use
    std::shared_ptr<const LogIndex> m_big;       // 100,000 threads, made on first use
};

void TestThreadPanes::initTestCase()
{
    QCoreApplication::setOrganizationName(QStringLiteral("HecscopeTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_threadpanes"));
    // Settings of this run alone (the controller and the window keep some).
    QVERIFY(m_settings.isValid());
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settings.path());
    m_spans = loadLog(QStringLiteral("spans-N2"));
    QVERIFY(m_spans && m_spans->userSpans);
    QCOMPARE(m_spans->threadStates.count(), size_t(12));
}

void TestThreadPanes::init()
{
    Settings::clear(); // the controller keeps its sort, rows and collapse there
}

const std::shared_ptr<const LogIndex>& TestThreadPanes::big()
{
    if (!m_big)
        m_big = loadBytes(synthesizeThreadsLog(100000, 3));
    return m_big;
}

// --- panes ---

void TestThreadPanes::threadsPaneShowsEveryThreadAndFilters()
{
    ThreadRowsController rows;
    ThreadsPane pane(&rows);
    Tester tester(pane.model(), kFatal);
    QSignalSpy shown(&pane, &ThreadsPane::figuresShown);
    rows.setIndex(m_spans);
    pane.setIndex(m_spans);
    QVERIFY(shown.wait(10000));
    QCOMPARE(pane.model()->rowCount(), 12);
    CHECKED(checkThreadRows(*pane.model(), allThreadFigures(*m_spans, std::nullopt), ThreadsTableModel::Id, Qt::AscendingOrder));
    QVERIFY2(pane.statusText().startsWith(QStringLiteral("12 threads")), qPrintable(pane.statusText()));

    // Labels: worker-1 and worker-2 (ids 6 and 7), in the pane and the track.
    pane.filterField()->setText(QStringLiteral("worker-[12]"));
    QTRY_COMPARE(pane.model()->rowCount(), 2);
    QTRY_COMPARE(rows.view()->order.size(), size_t(2));
    std::set<uint32_t> ids, trackIds;
    for (int row = 0; row < 2; ++row)
        ids.insert(pane.model()->index(row, ThreadsTableModel::Id).data().toUInt());
    for (uint32_t number : rows.view()->order)
        trackIds.insert(m_spans->threadStates.ids[number]);
    QCOMPARE(ids, (std::set<uint32_t>{6, 7}));
    QCOMPARE(trackIds, ids);
    QTRY_VERIFY2(pane.statusText().startsWith(QStringLiteral("2 of 12 threads")), qPrintable(pane.statusText()));

    // Ids match too: 10 and 11 are worker-5 and worker-6, whose labels do not.
    const auto shownIds = [&] {
        std::set<uint32_t> out;
        for (int row = 0; row < pane.model()->rowCount(); ++row)
            out.insert(pane.model()->index(row, ThreadsTableModel::Id).data().toUInt());
        return out;
    };
    const auto trackOrder = [&] {
        std::vector<uint32_t> out;
        for (uint32_t number : rows.view()->order)
            out.push_back(m_spans->threadStates.ids[number]);
        return out;
    };
    pane.filterField()->setText(QStringLiteral("^1[01]$"));
    QTRY_COMPARE(shownIds(), (std::set<uint32_t>{10, 11}));
    QTRY_COMPARE(trackOrder(), (std::vector<uint32_t>{10, 11}));

    // An invalid expression: no rows anywhere, and why.
    pane.filterField()->setText(QStringLiteral("("));
    QTRY_VERIFY(pane.statusText().startsWith(QStringLiteral("Bad filter")));
    QCOMPARE(pane.model()->rowCount(), 0);
    QTRY_VERIFY(!rows.busy());
    QVERIFY(!rows.filterError().isEmpty());
    QVERIFY(rows.view()->order.empty());

    // Cleared: every thread again.
    pane.filterField()->clear();
    QTRY_COMPARE(pane.model()->rowCount(), 12);
    QTRY_COMPARE(rows.view()->order.size(), size_t(12));
    QVERIFY(rows.filterError().isEmpty());
}

// A filter found invalid while figures are still being computed (a new
// selection, then a typo) leaves the table empty: the older figures do
// not land over the message.
void TestThreadPanes::threadsPaneBadFilterDropsFiguresStillComing()
{
    ThreadRowsController rows;
    ThreadsPane pane(&rows);
    QSignalSpy shown(&pane, &ThreadsPane::figuresShown);
    pane.setIndex(m_spans); // figures being computed
    {
        const QSignalBlocker noDebounce(pane.filterField());
        pane.filterField()->setText(QStringLiteral("("));
    }
    pane.setRange(ViewRange{0, m_spans->lastTime / 2}); // recomputes now, with the bad filter
    QVERIFY(pane.statusText().startsWith(QStringLiteral("Bad filter")));
    // The computation started by setIndex takes a few milliseconds for 12
    // threads; had it not been dropped it would land well within this.
    QVERIFY(!shown.wait(500));
    QCOMPARE(pane.model()->rowCount(), 0);
    QVERIFY2(pane.statusText().startsWith(QStringLiteral("Bad filter")), qPrintable(pane.statusText()));
}

void TestThreadPanes::threadsPaneRangeAndChoice()
{
    ThreadRowsController rows;
    ThreadsPane pane(&rows);
    Tester tester(pane.model(), kFatal);
    QSignalSpy shown(&pane, &ThreadsPane::figuresShown);
    rows.setIndex(m_spans);
    pane.setIndex(m_spans);
    QVERIFY(shown.wait(10000));
    // A selection: the figures of the threads alive in it, clipped to it.
    const ViewRange sel{m_spans->lastTime / 4, m_spans->lastTime / 4 + m_spans->lastTime / 10};
    pane.setRange(sel);
    QVERIFY(shown.wait(10000));
    const std::vector<ThreadFigures> expected = allThreadFigures(*m_spans, sel);
    CHECKED(checkThreadRows(*pane.model(), expected, ThreadsTableModel::Id, Qt::AscendingOrder));
    for (const ThreadFigures& f : expected) {
        uint64_t inRange = 0;
        for (size_t s = 0; s < kThreadStates; ++s)
            inRange += f.time[s];
        QVERIFY2(inRange <= sel.duration(), qPrintable(QString::number(f.id)));
    }
    QVERIFY(pane.statusText().contains(QStringLiteral("selection")));
    // Sorted by a header click, then a row chosen: the right thread.
    pane.table()->sortByColumn(ThreadsTableModel::Running, Qt::DescendingOrder);
    CHECKED(checkThreadRows(*pane.model(), expected, ThreadsTableModel::Running, Qt::DescendingOrder));
    QSignalSpy chosen(&pane, &ThreadsPane::threadChosen);
    const uint32_t worker3 = uint32_t(m_spans->threadStates.find(8));
    const int row = pane.model()->rowOfThread(worker3);
    QVERIFY(row >= 0);
    pane.table()->setCurrentIndex(pane.model()->index(row, ThreadsTableModel::Running));
    QCOMPARE(chosen.count(), 1);
    QCOMPARE(chosen.at(0).at(0).toUInt(), worker3);
    QCOMPARE(chosen.at(0).at(1).toUInt(), 8u);
    // Selecting it from elsewhere (the timeline) does not report it back.
    const uint32_t main = uint32_t(m_spans->threadStates.find(5));
    pane.selectThread(main);
    QCOMPARE(chosen.count(), 1);
    QCOMPARE(pane.table()->currentIndex().data(ThreadsTableModel::kNumberRole).toUInt(), main);
    // The whole run again.
    pane.setRange(std::nullopt);
    QVERIFY(shown.wait(10000));
    QCOMPARE(pane.model()->rowCount(), 12);
}

void TestThreadPanes::spansPaneNamesAndOccurrences()
{
    SpansPane pane;
    Tester names(pane.namesModel(), kFatal);
    Tester occurrences(pane.occurrencesModel(), kFatal);
    QSignalSpy shown(&pane, &SpansPane::figuresShown);
    pane.setIndex(m_spans);
    QVERIFY(shown.wait(10000));
    const UserSpans& spans = *m_spans->userSpans;
    const std::vector<SpanNameFigures> whole = spanFigures(spans, std::nullopt);
    CHECKED(checkSpanNameRows(*pane.namesModel(), spans, whole, SpanNamesModel::Total, Qt::DescendingOrder));
    // The span never stopped is counted apart.
    QVERIFY2(pane.statusText().startsWith(QStringLiteral("%1 spans of 8 names").arg(countText(spans.spans.size() - 1))),
             qPrintable(pane.statusText()));
    QVERIFY2(pane.statusText().contains(QStringLiteral("1 never stopped, left out of the figures")), qPrintable(pane.statusText()));
    QVERIFY(pane.statusText().contains(QStringLiteral("2 unmatched")));

    // Choosing a name lists its spans.
    QSignalSpy spanChosen(&pane, &SpansPane::spanChosen);
    for (const char* name : {"phase-serve", "lookup", "compute"}) {
        int row = -1;
        for (int r = 0; r < pane.namesModel()->rowCount(); ++r)
            if (pane.namesModel()->index(r, SpanNamesModel::Name).data().toString() == QLatin1String(name))
                row = r;
        QVERIFY(row >= 0);
        pane.namesTable()->setCurrentIndex(pane.namesModel()->index(row, SpanNamesModel::Name));
        const qulonglong count = pane.namesModel()->index(row, SpanNamesModel::Count).data(kSortRole).toULongLong();
        const std::vector<uint32_t> members = spansNamed(spans, name);
        QCOMPARE(qulonglong(pane.occurrencesModel()->rowCount()), count);
        CHECKED(checkOccurrenceRows(*pane.occurrencesModel(), spans, members, SpanOccurrencesModel::Start, Qt::AscendingOrder));
    }
    QCOMPARE(spanChosen.count(), 0);
    // Sorted by a header click: the current row stays on its name, whose
    // spans are listed.
    const uint32_t compute = nameIndex(spans, "compute");
    pane.namesTable()->sortByColumn(SpanNamesModel::Name, Qt::AscendingOrder);
    QCOMPARE(pane.namesTable()->currentIndex().data(SpanNamesModel::kNameRole).toUInt(), compute);
    pane.occurrencesTable()->setCurrentIndex(pane.occurrencesModel()->index(0, 0));
    const uint32_t first = pane.occurrencesModel()->index(0, 0).data(SpanOccurrencesModel::kSpanRole).toUInt();
    pane.occurrencesTable()->sortByColumn(SpanOccurrencesModel::Duration, Qt::DescendingOrder);
    QCOMPARE(pane.occurrencesTable()->currentIndex().data(SpanOccurrencesModel::kSpanRole).toUInt(), first);
    pane.occurrencesTable()->sortByColumn(SpanOccurrencesModel::Start, Qt::AscendingOrder);
    spanChosen.clear();

    // Activating an occurrence (Enter on it) jumps to that span.
    pane.show();
    QVERIFY(QTest::qWaitForWindowExposed(&pane));
    const int k = 5;
    pane.occurrencesTable()->setCurrentIndex(pane.occurrencesModel()->index(k, 0));
    QCOMPARE(spanChosen.count(), 1); // the current row follows the keyboard
    QTest::keyClick(pane.occurrencesTable(), Qt::Key_Return);
    QCOMPARE(spanChosen.count(), 2);
    // The sixth compute span by start, found here.
    const UserSpan& chosen = spans.spans[spansNamed(spans, "compute")[size_t(k)]];
    for (const QList<QVariant>& args : spanChosen) {
        QCOMPARE(args.at(0).toULongLong(), qulonglong(chosen.start));
        QCOMPARE(args.at(1).toULongLong(), qulonglong(chosen.end));
        QCOMPARE(args.at(2).toUInt(), chosen.thread);
    }

    // A range: names of spans starting in it, and the chosen name's spans in it.
    const ViewRange middle{m_spans->lastTime / 3, 2 * m_spans->lastTime / 3};
    pane.setRange(middle);
    QVERIFY(shown.wait(10000));
    // (Still sorted as the user chose.)
    CHECKED(checkSpanNameRows(*pane.namesModel(), spans, spanFigures(spans, middle), SpanNamesModel::Name,
                              Qt::AscendingOrder));
    QVERIFY(pane.namesModel()->rowCount() < 8);
    QVERIFY(pane.statusText().contains(QStringLiteral("starting in the selection")));
    std::vector<uint32_t> inMiddle;
    for (uint32_t i : spansNamed(spans, "compute"))
        if (spans.spans[i].start >= middle.start && spans.spans[i].start < middle.end)
            inMiddle.push_back(i);
    QVERIFY(!inMiddle.empty() && inMiddle.size() < spansNamed(spans, "compute").size());
    CHECKED(checkOccurrenceRows(*pane.occurrencesModel(), spans, inMiddle, SpanOccurrencesModel::Start,
                                Qt::AscendingOrder));
}

void TestThreadPanes::spansPaneRules()
{
    SpansPane pane;
    Tester names(pane.namesModel(), kFatal);
    QSignalSpy shown(&pane, &SpansPane::figuresShown);
    QSignalSpy changed(&pane, &SpansPane::spansChanged);
    pane.setIndex(m_spans);
    QVERIFY(shown.wait(10000));
    const UserSpans& defaults = *m_spans->userSpans;

    // Other prefixes: "START re"/"STOP re" pairs the requests only, named "quest".
    SpanRules quest;
    quest.start = "START re";
    quest.stop = "STOP re";
    pane.setRules(quest);
    QVERIFY(changed.wait(10000));
    auto spans = changed.takeFirst().at(0).value<std::shared_ptr<const UserSpans>>();
    QVERIFY(spans);
    QCOMPARE(pane.spans(), spans);
    QCOMPARE(spans->rules, quest);
    QCOMPARE(spans->spans.size(), spansNamed(defaults, "request").size());
    QTRY_COMPARE(pane.namesModel()->rowCount(), 1); // its figures follow
    QCOMPARE(pane.namesModel()->index(0, SpanNamesModel::Name).data().toString(), QStringLiteral("quest"));
    QCOMPARE(pane.namesModel()->index(0, SpanNamesModel::Count).data(kSortRole).toULongLong(),
             qulonglong(spans->spans.size()));
    for (size_t i = 0; i < spans->spans.size(); ++i) {
        const UserSpan& a = spans->spans[i];
        const UserSpan& b = defaults.spans[spansNamed(defaults, "request")[i]];
        QCOMPARE(a.start, b.start);
        QCOMPARE(a.end, b.end);
        QCOMPARE(a.thread, b.thread);
    }

    // Markers off: every span but the three made of markers.
    SpanRules noMarkers;
    noMarkers.markers = false;
    pane.setRules(noMarkers);
    QVERIFY(changed.wait(10000));
    spans = changed.takeFirst().at(0).value<std::shared_ptr<const UserSpans>>();
    const auto fromMessages = std::count_if(defaults.spans.begin(), defaults.spans.end(),
                                            [](const UserSpan& s) { return !(s.flags & UserSpan::FromMarker); });
    QCOMPARE(fromMessages, qsizetype(defaults.spans.size()) - 3);
    QCOMPARE(qsizetype(spans->spans.size()), qsizetype(fromMessages));
    std::set<std::string> messageNames;
    for (const UserSpan& s : defaults.spans)
        if (!(s.flags & UserSpan::FromMarker))
            messageNames.insert(defaults.names[s.name]);
    QTRY_COMPARE(pane.namesModel()->rowCount(), int(messageNames.size()));

    // Prefixes nothing starts with: no spans at all.
    SpanRules nothing;
    nothing.start = "BEGIN ";
    nothing.stop = "END ";
    pane.setRules(nothing);
    QVERIFY(changed.wait(10000));
    spans = changed.takeFirst().at(0).value<std::shared_ptr<const UserSpans>>();
    QVERIFY(spans->spans.empty());
    QVERIFY(spans->issues.empty());
    QTRY_VERIFY2(pane.statusText().startsWith(QStringLiteral("No user spans")), qPrintable(pane.statusText()));
    QCOMPARE(pane.namesModel()->rowCount(), 0);

    // Rejected: empty or equal prefixes; the spans stay.
    for (const auto& [start, stop] : {std::pair<std::string, std::string>{"", "STOP "}, {"START ", ""}, {"X ", "X "}}) {
        SpanRules bad;
        bad.start = start;
        bad.stop = stop;
        pane.setRules(bad);
        QVERIFY2(pane.statusText().contains(QStringLiteral("must differ and not be empty")), qPrintable(pane.statusText()));
        QCOMPARE(pane.spans(), spans);
    }
    QVERIFY(!changed.wait(300));
}

// --- the controller ---

void TestThreadPanes::controllerSorts_data()
{
    QTest::addColumn<int>("sort");
    QTest::newRow("id") << int(ThreadRowsController::Sort::Id);
    QTest::newRow("creation") << int(ThreadRowsController::Sort::Creation);
    QTest::newRow("label") << int(ThreadRowsController::Sort::Label);
    QTest::newRow("run time") << int(ThreadRowsController::Sort::RunTime);
    QTest::newRow("blocked time") << int(ThreadRowsController::Sort::BlockedTime);
    QTest::newRow("runnable time") << int(ThreadRowsController::Sort::RunnableTime);
}

// Each order equals sorting the threads here by keys summed from their
// segments (ties keep id order).
void TestThreadPanes::controllerSorts()
{
    QFETCH(int, sort);
    if (!m_threadsN2)
        m_threadsN2 = loadLog(QStringLiteral("threads-N2"));
    for (const auto& ix : {m_spans, m_threadsN2}) {
        ThreadRowsController rows;
        QSignalSpy ordered(&rows, &ThreadRowsController::orderChanged);
        rows.setIndex(ix);
        QVERIFY(ordered.wait(10000));
        const auto s = ThreadRowsController::Sort(sort);
        if (s != rows.sort()) {
            rows.setSort(s);
            QVERIFY(ordered.wait(10000));
        }
        QCOMPARE(rows.sort(), s);
        const ThreadStates& st = ix->threadStates;
        std::vector<uint32_t> expected(st.count());
        std::iota(expected.begin(), expected.end(), 0u);
        const auto by = [&](auto key) {
            std::stable_sort(expected.begin(), expected.end(), [&](uint32_t a, uint32_t b) { return key(a) < key(b); });
        };
        const auto descending = [&](ThreadState state) {
            by([&](uint32_t n) { return ~timeIn(*ix, n, state); });
        };
        switch (s) {
        case ThreadRowsController::Sort::Id: break;
        case ThreadRowsController::Sort::Creation:
            by([&](uint32_t n) {
                const std::optional<ThreadInfo> t = ix->thread(st.ids[n]);
                return t ? t->created : kNoTime;
            });
            break;
        case ThreadRowsController::Sort::Label:
            by([&](uint32_t n) {
                const std::string l = labelOf(*ix, st.ids[n]);
                return std::pair(l.empty(), l);
            });
            break;
        case ThreadRowsController::Sort::RunTime: descending(ThreadState::Running); break;
        case ThreadRowsController::Sort::BlockedTime: descending(ThreadState::Blocked); break;
        case ThreadRowsController::Sort::RunnableTime: descending(ThreadState::Runnable); break;
        }
        QCOMPARE(rows.view()->order, expected);
        QCOMPARE(rows.view()->sortName, ThreadRowsController::sortName(s));
        QCOMPARE(rows.wholeRun().size(), st.count());
        if (ix != m_spans)
            QVERIFY(st.count() > 500);
    }
}

void TestThreadPanes::controllerScrollChoosePinCollapse()
{
    ThreadRowsController rows;
    QSignalSpy ordered(&rows, &ThreadRowsController::orderChanged);
    QSignalSpy views(&rows, &ThreadRowsController::viewChanged);
    rows.setIndex(m_spans);
    QVERIFY(ordered.wait(10000));
    QCOMPARE(rows.view()->order.size(), size_t(12));
    QCOMPARE(rows.view()->visibleRows, 16);
    // All 12 fit: nothing to scroll.
    rows.scrollBy(5);
    QCOMPARE(rows.view()->first, size_t(0));
    QCOMPARE(rows.view()->shownRows(), 12);

    rows.setVisibleRows(5);
    QCOMPARE(rows.view()->shownRows(), 5);
    rows.scrollBy(3);
    QCOMPARE(rows.view()->first, size_t(3));
    QCOMPARE(rows.view()->threadAtRow(0), std::optional<uint32_t>(3));
    QCOMPARE(rows.view()->threadAtRow(4), std::optional<uint32_t>(7));
    QCOMPARE(rows.view()->threadAtRow(5), std::nullopt);
    rows.scrollBy(100);
    QCOMPARE(rows.view()->first, size_t(12 - 5));
    QCOMPARE(rows.view()->threadAtRow(4), std::optional<uint32_t>(11));
    rows.scrollBy(-1000);
    QCOMPARE(rows.view()->first, size_t(0));
    rows.setVisibleRows(0); // at least one
    QCOMPARE(rows.view()->visibleRows, 1);
    rows.setVisibleRows(4);

    // Choosing scrolls the chosen row into the window, in the current order.
    rows.setSort(ThreadRowsController::Sort::RunTime);
    QVERIFY(ordered.wait(10000));
    const std::vector<uint32_t> order = rows.view()->order;
    for (size_t at : {size_t(11), size_t(0), size_t(6), size_t(9)}) {
        const uint32_t thread = order[at];
        rows.choose(thread);
        const auto v = rows.view();
        QCOMPARE(v->chosen, std::optional<uint32_t>(thread));
        QVERIFY2(v->first <= at && at < v->first + 4, qPrintable(QStringLiteral("row %1, first %2").arg(at).arg(v->first)));
        bool shown = false;
        for (int r = 0; r < v->shownRows(); ++r)
            shown |= v->threadAtRow(r) == thread;
        QVERIFY(shown);
    }
    // A chosen thread hidden by the filter stays chosen, unshown.
    rows.setFilter(QStringLiteral("worker"));
    QVERIFY(ordered.wait(10000));
    QCOMPARE(rows.view()->order.size(), size_t(6));
    const uint32_t main = uint32_t(m_spans->threadStates.find(5));
    rows.choose(main);
    QCOMPARE(rows.view()->chosen, std::optional<uint32_t>(main));
    QVERIFY(std::find(rows.view()->order.begin(), rows.view()->order.end(), main) == rows.view()->order.end());
    rows.choose(std::nullopt);
    QCOMPARE(rows.view()->chosen, std::nullopt);

    // Pins: in order of pinning, once each.
    views.clear();
    rows.setPinned(3, true);
    rows.setPinned(5, true);
    rows.setPinned(3, true);
    QCOMPARE(rows.view()->pinned, (std::vector<uint32_t>{3, 5}));
    QVERIFY(rows.isPinned(3) && rows.isPinned(5) && !rows.isPinned(4));
    QCOMPARE(views.count(), 2);
    rows.setPinned(3, false);
    QCOMPARE(rows.view()->pinned, (std::vector<uint32_t>{5}));
    QVERIFY(!rows.isPinned(3));

    // Collapsed: no rows, the order kept.
    rows.setCollapsed(true);
    QVERIFY(rows.view()->collapsed);
    QCOMPARE(rows.view()->shownRows(), 0);
    QCOMPARE(rows.view()->threadAtRow(0), std::nullopt);
    QCOMPARE(rows.view()->order.size(), size_t(6));
    rows.toggleCollapsed();
    QVERIFY(!rows.view()->collapsed);
    QCOMPARE(rows.view()->shownRows(), 4);
    // Each change made a new snapshot; old ones are unchanged (the renderer
    // caches by their address).
    rows.scrollBy(-100);
    const auto before = rows.view();
    rows.scrollBy(1);
    QVERIFY(rows.view() != before);
    QCOMPARE(before->first + 1, rows.view()->first);
}

void TestThreadPanes::controllerHundredThousandThreads()
{
    const auto& ix = big();
    QCOMPARE(ix->threadStates.count(), size_t(100000));
    ThreadRowsController rows;
    QSignalSpy ordered(&rows, &ThreadRowsController::orderChanged);
    rows.setIndex(ix);
    QCOMPARE(rows.view()->order.size(), size_t(100000)); // by id until sorted
    QVERIFY(ordered.wait(20000));
    QCOMPARE(rows.view()->order.size(), size_t(100000));
    QCOMPARE(rows.sort(), ThreadRowsController::Sort::Id);
    rows.setSort(ThreadRowsController::Sort::RunTime);
    QVERIFY(ordered.wait(20000));
    const auto v = rows.view();
    QCOMPARE(v->order.size(), size_t(100000));
    QCOMPARE(std::set<uint32_t>(v->order.begin(), v->order.end()).size(), size_t(100000));
    for (size_t k = 1; k < v->order.size(); k += 97)
        QVERIFY(rows.wholeRun()[v->order[k - 1]].running() >= rows.wholeRun()[v->order[k]].running());
    rows.setFilter(QStringLiteral("^conn-"));
    QVERIFY(ordered.wait(20000));
    size_t conns = 0;
    for (size_t n = 0; n < ix->threadStates.count(); ++n)
        conns += labelOf(*ix, ix->threadStates.ids[n]).rfind("conn-", 0) == 0;
    QVERIFY(conns > 10000);
    QCOMPARE(rows.view()->order.size(), conns);
    rows.scrollBy(int(conns));
    QCOMPARE(rows.view()->first, conns - 16);
}

QTEST_MAIN(TestThreadPanes)
#include "tst_threadpanes.moc"
