// The threads and spans UI: the Threads and Spans panes' models under
// QAbstractItemModelTester, the panes, the controller of the thread rows,
// the Threads, Pinned threads and Spans tracks drawn and hit-tested, and
// the main window's wiring between them. Real logs from testdata
// (spans-N2: 12 threads, worker-1..6 = ids 6..11, four span names of ~400
// spans, three markers, a STOP without START on worker-2 and a START never
// stopped on worker-6) and a synthesized log of 100,000 threads. Expected
// values come from the core functions (allThreadFigures, spanFigures) or
// from counting here.
#include "testsupport.h"

#include "core/index/loader.h"
#include "core/index/logindex.h"
#include "core/io/bytesource.h"
#include "core/order/eventquery.h"
#include "core/synth/synthetic.h"
#include "core/threads/threadstats.h"
#include "core/threads/userspans.h"
#include "ui/events/eventlistmodel.h"
#include "ui/events/eventlistpane.h"
#include "ui/formatting.h"
#include "ui/models/tablemodels.h"
#include "ui/threads/threadrows.h"
#include "ui/threads/threadrowscontroller.h"
#include "ui/threads/spanspane.h"
#include "ui/threads/threadspane.h"
#include "ui/timeline/imageexport.h"
#include "ui/timeline/timelinerenderer.h"
#include "ui/timeline/timelineview.h"
#include "ui/timeline/viewcontroller.h"
#include "ui/window/mainwindow.h"

#include <QAbstractItemModelTester>
#include <QImage>
#include <QLineEdit>
#include <QPainter>
#include <QSettings>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QWheelEvent>
#include <QtTest>

#include <algorithm>
#include <map>
#include <numeric>
#include <set>

using namespace hecscope;

// A helper's QCOMPARE returns from the helper only: stop the test too.
#define CHECKED(call)                   \
    do {                                \
        call;                           \
        if (QTest::currentTestFailed()) \
            return;                     \
    } while (false)

namespace {

using Tester = QAbstractItemModelTester;
constexpr auto kFatal = QAbstractItemModelTester::FailureReportingMode::Fatal;

std::shared_ptr<const LogIndex> loadLog(const QString& name)
{
    std::string error;
    const auto source = FileSource::open(QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/%1.eventlog").arg(name).toStdString(), error);
    if (!source)
        qFatal("%s", error.c_str());
    return std::shared_ptr<const LogIndex>(loadIndex(*source).index);
}

std::shared_ptr<const LogIndex> loadBytes(const std::vector<uint8_t>& bytes)
{
    MemorySource source(bytes);
    return std::shared_ptr<const LogIndex>(loadIndex(source, bytes.size()).index);
}

std::string labelOf(const LogIndex& ix, uint32_t id)
{
    const ThreadInfo* t = ix.thread(id);
    return t ? t->label : std::string();
}

// A thread's time in `state` over the whole log, summed here from its
// segments.
uint64_t timeIn(const LogIndex& ix, size_t number, ThreadState state)
{
    const ThreadStates& st = ix.threadStates;
    const auto segs = st.of(number);
    uint64_t sum = 0;
    for (size_t i = 0; i < segs.size(); ++i)
        if (segs[i].state == state)
            sum += st.segmentEnd(segs, i) - segs[i].time;
    return sum;
}

// What each column of the Threads table holds for a thread's figures.
uint64_t threadColumnValue(const ThreadFigures& f, int column)
{
    using M = ThreadsTableModel;
    const auto reason = [&](BlockReason r) { return f.blocked[size_t(r)]; };
    switch (column) {
    case M::Id: return f.id;
    case M::Created: return f.created;
    case M::Finished: return f.finished;
    case M::Running: return f.time[size_t(ThreadState::Running)];
    case M::Runnable: return f.time[size_t(ThreadState::Runnable)];
    case M::Blocked: return f.time[size_t(ThreadState::Blocked)];
    case M::BlockedMVar: return reason(BlockReason::MVar);
    case M::BlockedMVarRead: return reason(BlockReason::MVarRead);
    case M::BlockedBlackHole: return reason(BlockReason::BlackHole);
    case M::BlockedStm: return reason(BlockReason::Stm);
    case M::BlockedDelay: return reason(BlockReason::Delay);
    case M::BlockedForeign: return reason(BlockReason::CCall);
    case M::BlockedThrowTo: return reason(BlockReason::ThrowTo);
    case M::BlockedOther:
        return reason(BlockReason::Read) + reason(BlockReason::Write) + reason(BlockReason::DoProc)
            + reason(BlockReason::Other);
    case M::Runs: return f.runs;
    case M::Migrations: return f.migrations;
    case M::Wakeups: return f.wakeups;
    default: return 0;
    }
}

// The model shows exactly `figures` (one row each), every cell's sort
// value is the figure's, and the rows are ordered by `column`.
void checkThreadRows(const ThreadsTableModel& model, const std::vector<ThreadFigures>& figures, int column,
                     Qt::SortOrder order)
{
    QCOMPARE(model.rowCount(), int(figures.size()));
    std::map<uint32_t, const ThreadFigures*> byNumber;
    for (const ThreadFigures& f : figures)
        byNumber[uint32_t(f.number)] = &f;
    std::set<uint32_t> seen;
    for (int row = 0; row < model.rowCount(); ++row) {
        const uint32_t number = model.index(row, 0).data(ThreadsTableModel::kNumberRole).toUInt();
        QVERIFY2(byNumber.count(number), qPrintable(QStringLiteral("row %1: thread %2").arg(row).arg(number)));
        QVERIFY(seen.insert(number).second);
        QCOMPARE(model.rowOfThread(number), row);
        const ThreadFigures& f = *byNumber[number];
        QCOMPARE(model.index(row, ThreadsTableModel::Id).data().toUInt(), f.id);
        QCOMPARE(model.index(row, ThreadsTableModel::Label).data(kSortRole).toString().toStdString(),
                 std::string(f.label));
        for (int c = 0; c < ThreadsTableModel::ColumnCount; ++c)
            if (c != ThreadsTableModel::Label)
                QCOMPARE(model.index(row, c).data(kSortRole).toULongLong(), qulonglong(threadColumnValue(f, c)));
    }
    for (int row = 1; row < model.rowCount(); ++row) {
        const auto& a = *byNumber[model.index(row - 1, 0).data(ThreadsTableModel::kNumberRole).toUInt()];
        const auto& b = *byNumber[model.index(row, 0).data(ThreadsTableModel::kNumberRole).toUInt()];
        bool ordered;
        if (column == ThreadsTableModel::Label) {
            // Labelled threads first, by label.
            const auto ka = std::pair(a.label.empty(), a.label), kb = std::pair(b.label.empty(), b.label);
            ordered = order == Qt::AscendingOrder ? !(kb < ka) : !(ka < kb);
        } else {
            const uint64_t va = threadColumnValue(a, column), vb = threadColumnValue(b, column);
            ordered = order == Qt::AscendingOrder ? va <= vb : va >= vb;
        }
        QVERIFY2(ordered, qPrintable(QStringLiteral("column %1, rows %2 and %3").arg(column).arg(row - 1).arg(row)));
    }
}

uint64_t spanNameValue(const SpanNameFigures& f, int column)
{
    using M = SpanNamesModel;
    switch (column) {
    case M::Count: return f.count;
    case M::Total: return f.total;
    case M::Self: return f.self;
    case M::Mean: return f.mean;
    case M::P50: return f.p50;
    case M::P95: return f.p95;
    case M::Max: return f.max;
    case M::Open: return f.open;
    default: return 0;
    }
}

void checkSpanNameRows(const SpanNamesModel& model, const UserSpans& spans,
                       const std::vector<SpanNameFigures>& figures, int column, Qt::SortOrder order)
{
    QCOMPARE(model.rowCount(), int(figures.size()));
    std::map<uint32_t, const SpanNameFigures*> byName;
    for (const SpanNameFigures& f : figures)
        byName[f.name] = &f;
    std::set<uint32_t> seen;
    for (int row = 0; row < model.rowCount(); ++row) {
        const uint32_t name = model.index(row, 0).data(SpanNamesModel::kNameRole).toUInt();
        QVERIFY(byName.count(name));
        QVERIFY(seen.insert(name).second);
        QCOMPARE(model.index(row, SpanNamesModel::Name).data().toString().toStdString(), spans.names[name]);
        for (int c = SpanNamesModel::Count; c < SpanNamesModel::ColumnCount; ++c)
            QCOMPARE(model.index(row, c).data(kSortRole).toULongLong(), qulonglong(spanNameValue(*byName[name], c)));
    }
    for (int row = 1; row < model.rowCount(); ++row) {
        const uint32_t a = model.index(row - 1, 0).data(SpanNamesModel::kNameRole).toUInt();
        const uint32_t b = model.index(row, 0).data(SpanNamesModel::kNameRole).toUInt();
        bool ordered;
        if (column == SpanNamesModel::Name)
            ordered = order == Qt::AscendingOrder ? spans.names[a] <= spans.names[b] : spans.names[a] >= spans.names[b];
        else {
            const uint64_t va = spanNameValue(*byName[a], column), vb = spanNameValue(*byName[b], column);
            ordered = order == Qt::AscendingOrder ? va <= vb : va >= vb;
        }
        QVERIFY2(ordered, qPrintable(QStringLiteral("column %1, rows %2 and %3").arg(column).arg(row - 1).arg(row)));
    }
}

uint64_t occurrenceValue(const UserSpan& s, int column)
{
    using M = SpanOccurrencesModel;
    switch (column) {
    case M::Start: return s.start;
    case M::Duration: return s.end - s.start;
    case M::Self: return s.self;
    case M::Thread: return s.thread;
    case M::Depth: return s.depth;
    case M::Note: return s.flags;
    default: return 0;
    }
}

void checkOccurrenceRows(const SpanOccurrencesModel& model, const UserSpans& spans, const std::vector<uint32_t>& members,
                         int column, Qt::SortOrder order)
{
    QCOMPARE(model.rowCount(), int(members.size()));
    std::multiset<uint32_t> shown;
    for (int row = 0; row < model.rowCount(); ++row) {
        const uint32_t span = model.index(row, 0).data(SpanOccurrencesModel::kSpanRole).toUInt();
        shown.insert(span);
        for (int c = 0; c < SpanOccurrencesModel::ColumnCount; ++c)
            QCOMPARE(model.index(row, c).data(kSortRole).toULongLong(), qulonglong(occurrenceValue(spans.spans[span], c)));
        if (row > 0) {
            const uint32_t before = model.index(row - 1, 0).data(SpanOccurrencesModel::kSpanRole).toUInt();
            const uint64_t va = occurrenceValue(spans.spans[before], column), vb = occurrenceValue(spans.spans[span], column);
            QVERIFY2(order == Qt::AscendingOrder ? va <= vb : va >= vb,
                     qPrintable(QStringLiteral("column %1, row %2").arg(column).arg(row)));
        }
    }
    QCOMPARE(shown, std::multiset<uint32_t>(members.begin(), members.end()));
}

// The spans of `name`, by start, found by walking every span.
std::vector<uint32_t> spansNamed(const UserSpans& spans, const std::string& name)
{
    std::vector<uint32_t> out;
    for (uint32_t i = 0; i < spans.spans.size(); ++i)
        if (spans.names[spans.spans[i].name] == name)
            out.push_back(i);
    return out;
}

uint32_t nameIndex(const UserSpans& spans, const std::string& name)
{
    const auto it = std::find(spans.names.begin(), spans.names.end(), name);
    return it == spans.names.end() ? UINT32_MAX : uint32_t(it - spans.names.begin());
}

// The longest segment of thread `number` in `state` (and, for Blocked,
// blocked for `reason`) that is not its last; SIZE_MAX if none.
size_t longestSegment(const LogIndex& ix, size_t number, ThreadState state,
                      std::optional<BlockReason> reason = std::nullopt)
{
    const ThreadStates& st = ix.threadStates;
    const auto segs = st.of(number);
    size_t best = SIZE_MAX;
    uint64_t bestLength = 0;
    for (size_t i = 0; i + 1 < segs.size(); ++i) {
        if (segs[i].state != state || (reason && blockReasonOf(segs[i]) != *reason))
            continue;
        const uint64_t length = st.segmentEnd(segs, i) - segs[i].time;
        if (length > bestLength) {
            best = i;
            bestLength = length;
        }
    }
    return best;
}

// A view with [a, b) in its middle third.
ViewRange around(uint64_t a, uint64_t b)
{
    const uint64_t length = std::max<uint64_t>(b - a, 300);
    return {a > length ? a - length : 0, b + length};
}

// What a tooltip says began or ended a segment, written out here.
QString causeSaid(const ThreadSegment& s)
{
    switch (s.cause) {
    case ThreadCause::Created: return QStringLiteral("created on HEC %1").arg(s.cap);
    case ThreadCause::Run: return QStringLiteral("run on HEC %1").arg(s.cap);
    case ThreadCause::Stop: return QStringLiteral("stopped: %1").arg(QLatin1String(threadStateName(s)));
    case ThreadCause::Wakeup: return QStringLiteral("woken up (HEC %1)").arg(s.cap);
    case ThreadCause::Runnable: return QStringLiteral("made runnable");
    case ThreadCause::Migrate: return QStringLiteral("migrated to HEC %1").arg(s.cap);
    case ThreadCause::Replaced: return QStringLiteral("another thread ran on its HEC without a stop event");
    }
    return {};
}

struct Canvas {
    QRect area{0, 0, 1600, 1000};
    QImage image{1600, 1000, QImage::Format_ARGB32_Premultiplied};
    TimelineRenderer renderer;
    RenderOptions options;

    Canvas(std::shared_ptr<const LogIndex> ix, std::vector<QString> tracks)
    {
        renderer.setIndex(std::move(ix));
        options.palette = exportPalette();
        options.tracks = std::move(tracks);
        options.legend = false;
    }
    void paint(ViewRange view)
    {
        image.fill(Qt::white);
        QPainter p(&image);
        renderer.paint(p, area, view, options);
    }
    QRect plot() const { return TimelineRenderer::plotArea(area); }
    // x of time t on the image.
    int x(ViewRange view, uint64_t t) const
    {
        return int(TimeMapping(view, plot().left(), plot().width()).toPixel(t));
    }
    std::vector<TrackRow> rows() const { return renderer.layout(area, options); }
};

// y of the middle of the state bar of thread row `r` of the Threads track
// whose layout row begins at `top`.
int stateBarY(int top, int r)
{
    return top + ThreadRowsView::kHeaderHeight + r * ThreadRowsView::kRowHeight + 7;
}

} // namespace

class TestThreadsUi : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void init();

    void threadsModelUnderTester();
    void spanNamesModelUnderTester();
    void spanOccurrencesModelUnderTester();

    void threadsPaneShowsEveryThreadAndFilters();
    void threadsPaneBadFilterDropsFiguresStillComing();
    void threadsPaneRangeAndChoice();
    void spansPaneNamesAndOccurrences();
    void spansPaneRules();

    void controllerSorts_data();
    void controllerSorts();
    void controllerScrollChoosePinCollapse();
    void controllerHundredThousandThreads();

    void threadsTrackDrawsItsWindowOfRows();
    void threadRowHoverNamesStateAndEvents();
    void spanBarHoverNamesTheSpan();
    void spansTrackRowsAreNamesByTotal();
    void pinnedThreadsTrackHasOneRowPerPin();

    void windowDiagnosticsNameUnmatchedSpans();
    void windowChoosingAThreadFollowsEverywhere();
    void windowTrackLabelsAndClicks();
    void windowSpanChosenAndSelectionStatistics();

private:
    const std::shared_ptr<const LogIndex>& big();
    QTemporaryDir m_settings;
    std::shared_ptr<const LogIndex> m_spans;
    std::shared_ptr<const LogIndex> m_threadsN2; // loaded on first use
    std::shared_ptr<const LogIndex> m_big;       // 100,000 threads, made on first use
};

void TestThreadsUi::initTestCase()
{
    QCoreApplication::setOrganizationName(QStringLiteral("HecscopeTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_threadsui"));
    // Settings of this run alone (the controller and the window keep some).
    QVERIFY(m_settings.isValid());
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settings.path());
    m_spans = loadLog(QStringLiteral("spans-N2"));
    QVERIFY(m_spans && m_spans->userSpans);
    QCOMPARE(m_spans->threadStates.count(), size_t(12));
}

void TestThreadsUi::init()
{
    QSettings().clear(); // the controller keeps its sort, rows and collapse there
}

const std::shared_ptr<const LogIndex>& TestThreadsUi::big()
{
    if (!m_big)
        m_big = loadBytes(synthesizeThreadsLog(100000, 3));
    return m_big;
}

// --- models ---

void TestThreadsUi::threadsModelUnderTester()
{
    const auto& ix = m_spans;
    ThreadsTableModel model;
    Tester tester(&model, kFatal);
    const std::vector<ThreadFigures> whole = allThreadFigures(*ix, std::nullopt);
    model.setFigures(ix, whole);
    QCOMPARE(model.rowCount(), 12);
    QCOMPARE(model.columnCount(), int(ThreadsTableModel::ColumnCount));
    CHECKED(checkThreadRows(model, whole, ThreadsTableModel::Id, Qt::AscendingOrder));
    // Running and blocked times are the segments' sums.
    for (const ThreadFigures& f : whole) {
        QCOMPARE(f.running(), timeIn(*ix, f.number, ThreadState::Running));
        QCOMPARE(f.blockedTotal(), timeIn(*ix, f.number, ThreadState::Blocked));
    }
    const uint32_t worker3 = uint32_t(ix->threadStates.find(8));
    int lastColumn = 0;
    Qt::SortOrder lastOrder = Qt::AscendingOrder;
    for (int c = 0; c < ThreadsTableModel::ColumnCount; ++c)
        for (const Qt::SortOrder order : {Qt::AscendingOrder, Qt::DescendingOrder}) {
            // A persistent index (a view's current row) stays on its thread.
            const QPersistentModelIndex kept = model.index(model.rowOfThread(worker3), ThreadsTableModel::Label);
            model.sort(c, order);
            CHECKED(checkThreadRows(model, whole, c, order));
            QCOMPARE(kept.data(ThreadsTableModel::kNumberRole).toUInt(), worker3);
            QCOMPARE(kept.data().toString(), QStringLiteral("worker-3"));
            lastColumn = c;
            lastOrder = order;
        }
    // Re-filled with a range's figures: fewer threads, the same sort.
    const ViewRange early{0, ix->threadStates.end / 20};
    const std::vector<ThreadFigures> part = allThreadFigures(*ix, early);
    QVERIFY(!part.empty() && part.size() < whole.size());
    model.setFigures(ix, part);
    CHECKED(checkThreadRows(model, part, lastColumn, lastOrder));
    model.sort(ThreadsTableModel::Running, Qt::DescendingOrder);
    CHECKED(checkThreadRows(model, part, ThreadsTableModel::Running, Qt::DescendingOrder));
    std::set<uint32_t> inPart;
    for (const ThreadFigures& f : part)
        inPart.insert(uint32_t(f.number));
    for (uint32_t n = 0; n < 12; ++n)
        if (!inPart.count(n))
            QCOMPARE(model.rowOfThread(n), -1);
    // Another log, with foreign calls: their time per thread, summed here
    // over the segments said to be in one.
    const auto ffi = loadLog(QStringLiteral("ffi-N2"));
    const std::vector<ThreadFigures> ffiFigures = allThreadFigures(*ffi, std::nullopt);
    model.setFigures(ffi, ffiFigures);
    model.sort(ThreadsTableModel::BlockedForeign, Qt::DescendingOrder);
    CHECKED(checkThreadRows(model, ffiFigures, ThreadsTableModel::BlockedForeign, Qt::DescendingOrder));
    uint64_t anyForeign = 0;
    for (int row = 0; row < model.rowCount(); ++row) {
        const uint32_t number = model.index(row, 0).data(ThreadsTableModel::kNumberRole).toUInt();
        const auto segs = ffi->threadStates.of(number);
        uint64_t foreign = 0;
        for (size_t i = 0; i < segs.size(); ++i)
            if (segs[i].state == ThreadState::Blocked && threadStateName(segs[i]) == std::string("in a foreign call"))
                foreign += ffi->threadStates.segmentEnd(segs, i) - segs[i].time;
        QCOMPARE(model.index(row, ThreadsTableModel::BlockedForeign).data(kSortRole).toULongLong(), qulonglong(foreign));
        anyForeign += foreign;
    }
    QVERIFY(anyForeign > 0);
    // Emptied.
    model.setFigures(ix, {});
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(model.rowOfThread(0), -1);
    model.sort(ThreadsTableModel::Label, Qt::AscendingOrder);
    model.setFigures(nullptr, {});
    QCOMPARE(model.rowCount(), 0);
}

void TestThreadsUi::spanNamesModelUnderTester()
{
    const UserSpans& spans = *m_spans->userSpans;
    SpanNamesModel model;
    Tester tester(&model, kFatal);
    const std::vector<SpanNameFigures> whole = spanFigures(spans, std::nullopt);
    model.setFigures(m_spans->userSpans, whole);
    // Names with spans: every name but "orphan" (only a STOP), counted here.
    std::map<std::string, uint64_t> counted;
    for (const UserSpan& s : spans.spans)
        ++counted[spans.names[s.name]];
    QCOMPARE(model.rowCount(), int(counted.size()));
    QCOMPARE(counted.size(), size_t(8));
    for (int row = 0; row < model.rowCount(); ++row)
        QCOMPARE(model.index(row, SpanNamesModel::Count).data(kSortRole).toULongLong(),
                 qulonglong(counted[model.index(row, SpanNamesModel::Name).data().toString().toStdString()]));
    CHECKED(checkSpanNameRows(model, spans, whole, SpanNamesModel::Total, Qt::DescendingOrder)); // the default
    const uint32_t parse = nameIndex(spans, "parse");
    for (int c = 0; c < SpanNamesModel::ColumnCount; ++c)
        for (const Qt::SortOrder order : {Qt::AscendingOrder, Qt::DescendingOrder}) {
            int parseRow = -1;
            for (int row = 0; row < model.rowCount(); ++row)
                if (model.index(row, 0).data(SpanNamesModel::kNameRole).toUInt() == parse)
                    parseRow = row;
            const QPersistentModelIndex kept = model.index(parseRow, SpanNamesModel::Count);
            model.sort(c, order);
            CHECKED(checkSpanNameRows(model, spans, whole, c, order));
            QVERIFY2(kept.data(SpanNamesModel::kNameRole).toUInt() == parse,
                     qPrintable(QStringLiteral("column %1: a persistent index moved to another name").arg(c)));
        }
    // Re-filled with the figures of a range (spans starting in it).
    const ViewRange middle{m_spans->lastTime / 3, 2 * m_spans->lastTime / 3};
    const std::vector<SpanNameFigures> part = spanFigures(spans, middle);
    model.setFigures(m_spans->userSpans, part);
    CHECKED(checkSpanNameRows(model, spans, part, SpanNamesModel::Max, Qt::DescendingOrder));
    for (int row = 0; row < model.rowCount(); ++row) {
        const uint32_t name = model.index(row, 0).data(SpanNamesModel::kNameRole).toUInt();
        const auto started = std::count_if(spans.spans.begin(), spans.spans.end(), [&](const UserSpan& s) {
            return s.name == name && s.start >= middle.start && s.start < middle.end;
        });
        QCOMPARE(model.index(row, SpanNamesModel::Count).data(kSortRole).toLongLong(), qlonglong(started));
    }
    model.setFigures(m_spans->userSpans, {});
    QCOMPARE(model.rowCount(), 0);
    model.setFigures(nullptr, {});
    QCOMPARE(model.rowCount(), 0);
    model.sort(SpanNamesModel::Name, Qt::AscendingOrder);
}

void TestThreadsUi::spanOccurrencesModelUnderTester()
{
    const UserSpans& spans = *m_spans->userSpans;
    SpanOccurrencesModel model;
    Tester tester(&model, kFatal);
    const std::vector<uint32_t> requests = spansNamed(spans, "request");
    QVERIFY(requests.size() >= 390);
    model.setSpans(m_spans, m_spans->userSpans, spansOfName(spans, nameIndex(spans, "request"), std::nullopt));
    CHECKED(checkOccurrenceRows(model, spans, requests, SpanOccurrencesModel::Start, Qt::AscendingOrder));
    const uint32_t kept0 = requests[requests.size() / 2];
    for (int c = 0; c < SpanOccurrencesModel::ColumnCount; ++c)
        for (const Qt::SortOrder order : {Qt::AscendingOrder, Qt::DescendingOrder}) {
            int keptRow = -1;
            for (int row = 0; row < model.rowCount(); ++row)
                if (model.index(row, 0).data(SpanOccurrencesModel::kSpanRole).toUInt() == kept0)
                    keptRow = row;
            const QPersistentModelIndex kept = model.index(keptRow, SpanOccurrencesModel::Duration);
            model.sort(c, order);
            CHECKED(checkOccurrenceRows(model, spans, requests, c, order));
            QVERIFY2(kept.data(SpanOccurrencesModel::kSpanRole).toUInt() == kept0,
                     qPrintable(QStringLiteral("column %1: a persistent index moved to another span").arg(c)));
        }
    // Another name keeps the chosen sort.
    model.sort(SpanOccurrencesModel::Duration, Qt::DescendingOrder);
    const std::vector<uint32_t> lookups = spansNamed(spans, "lookup");
    model.setSpans(m_spans, m_spans->userSpans, spansOfName(spans, nameIndex(spans, "lookup"), std::nullopt));
    CHECKED(checkOccurrenceRows(model, spans, lookups, SpanOccurrencesModel::Duration, Qt::DescendingOrder));
    // The span never stopped says so.
    const std::vector<uint32_t> open = spansNamed(spans, "never-stopped");
    QCOMPARE(open.size(), size_t(1));
    model.setSpans(m_spans, m_spans->userSpans, open);
    QVERIFY(model.index(0, SpanOccurrencesModel::Note).data().toString().contains(QStringLiteral("never stopped")));
    QCOMPARE(model.index(0, SpanOccurrencesModel::Thread).data().toString(), QStringLiteral("worker-6 (11)"));
    model.setSpans(m_spans, m_spans->userSpans, {});
    QCOMPARE(model.rowCount(), 0);
    model.setSpans(nullptr, nullptr, {});
    QCOMPARE(model.rowCount(), 0);
    model.sort(SpanOccurrencesModel::Start, Qt::AscendingOrder);
}

// --- panes ---

void TestThreadsUi::threadsPaneShowsEveryThreadAndFilters()
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
    QVERIFY2(pane.statusText().startsWith(QStringLiteral("2 of 12 threads")), qPrintable(pane.statusText()));

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
void TestThreadsUi::threadsPaneBadFilterDropsFiguresStillComing()
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

void TestThreadsUi::threadsPaneRangeAndChoice()
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

void TestThreadsUi::spansPaneNamesAndOccurrences()
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
    QVERIFY2(pane.statusText().startsWith(QStringLiteral("%1 spans of 8 names").arg(countText(spans.spans.size()))),
             qPrintable(pane.statusText()));
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

void TestThreadsUi::spansPaneRules()
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

void TestThreadsUi::controllerSorts_data()
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
void TestThreadsUi::controllerSorts()
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
                const ThreadInfo* t = ix->thread(st.ids[n]);
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

void TestThreadsUi::controllerScrollChoosePinCollapse()
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

void TestThreadsUi::controllerHundredThousandThreads()
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

// --- tracks ---

// With 100,000 threads the track shows its window: the rows from `first`,
// each the thread order[first + r], hit-tested on the drawn segment.
void TestThreadsUi::threadsTrackDrawsItsWindowOfRows()
{
    const auto& ix = big();
    const ThreadStates& st = ix->threadStates;
    auto view = std::make_shared<ThreadRowsView>();
    view->indexSerial = ix->serial;
    view->order.resize(st.count());
    for (size_t k = 0; k < st.count(); ++k)
        view->order[k] = uint32_t(st.count() - 1 - k); // newest first
    view->first = 50000;
    view->visibleRows = 16;
    view->total = st.count();
    Canvas c(ix, {QStringLiteral("threads")});
    c.options.threadRows = view;
    const auto rows = c.rows();
    QCOMPARE(rows.size(), size_t(1));
    QCOMPARE(rows[0].rect.height(), ThreadRowsView::kHeaderHeight + 16 * ThreadRowsView::kRowHeight);
    const QRgb running = threadColour(ColourRunning).rgb();
    for (int r = 0; r < 16; ++r) {
        const uint32_t thread = view->order[50000 + size_t(r)];
        const size_t i = longestSegment(*ix, thread, ThreadState::Running);
        QVERIFY(i != SIZE_MAX);
        const auto segs = st.of(thread);
        const uint64_t start = segs[i].time, end = st.segmentEnd(segs, i);
        const ViewRange range = around(start, end);
        c.paint(range);
        const QPoint at(c.x(range, start + (end - start) / 4), stateBarY(rows[0].rect.top(), r));
        const auto item = c.renderer.itemAt(at, c.area, range, c.options);
        QVERIFY2(item, qPrintable(QStringLiteral("row %1").arg(r)));
        QCOMPARE(item->track, QStringLiteral("threads"));
        QCOMPARE(item->item, int64_t(thread));
        QCOMPARE(item->start, start);
        QCOMPARE(item->end, end);
        const QString text = c.renderer.describeAt(at, c.area, range, c.options);
        QVERIFY2(text.startsWith(threadName(*ix, st.ids[thread]) + QStringLiteral(": running on HEC %1").arg(segs[i].cap)),
                 qPrintable(text));
        QCOMPARE(QColor(c.image.pixel(at)).rgb(), running);
    }
    // Nothing below the window.
    const ViewRange whole = c.renderer.bounds();
    QVERIFY(c.renderer.describeAt(QPoint(c.plot().center().x(), rows[0].rect.bottom() + 5), c.area, whole, c.options)
                .isEmpty());
    // Collapsed: the header alone.
    auto collapsed = std::make_shared<ThreadRowsView>(*view);
    collapsed->collapsed = true;
    c.options.threadRows = collapsed;
    QCOMPARE(c.rows()[0].rect.height(), ThreadRowsView::kHeaderHeight);
}

void TestThreadsUi::threadRowHoverNamesStateAndEvents()
{
    const auto& ix = m_spans;
    const ThreadStates& st = ix->threadStates;
    Canvas c(ix, {QStringLiteral("threads")});
    c.options.threadRows = ThreadRowsView::makeDefault(*ix);
    const int top = c.rows()[0].rect.top();
    struct Case {
        uint32_t id;
        ThreadState state;
        std::optional<BlockReason> reason;
        const char* said;
    };
    const Case cases[] = {{6, ThreadState::Blocked, BlockReason::MVar, "blocked on an MVar"},
                          {7, ThreadState::Blocked, BlockReason::MVarRead, "blocked reading an MVar"},
                          {4, ThreadState::Blocked, BlockReason::CCall, "in a foreign call"},
                          {9, ThreadState::Runnable, std::nullopt, "runnable"},
                          {5, ThreadState::Running, std::nullopt, "running on HEC"}};
    for (const Case& k : cases) {
        const size_t number = st.find(k.id);
        QVERIFY(number != SIZE_MAX);
        const size_t i = longestSegment(*ix, number, k.state, k.reason);
        QVERIFY2(i != SIZE_MAX, k.said);
        const auto segs = st.of(number);
        const uint64_t start = segs[i].time, end = st.segmentEnd(segs, i);
        const ViewRange range = around(start, end);
        c.paint(range);
        const QPoint at(c.x(range, start + (end - start) / 4), stateBarY(top, int(number)));
        const QString text = c.renderer.describeAt(at, c.area, range, c.options);
        QVERIFY2(text.startsWith(threadName(*ix, k.id) + QStringLiteral(": ") + QLatin1String(k.said)), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("began: ") + causeSaid(segs[i])), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("ended: ") + causeSaid(segs[i + 1])), qPrintable(text));
        QVERIFY2(text.contains(durationText(end - start)), qPrintable(text));
        const auto item = c.renderer.itemAt(at, c.area, range, c.options);
        QVERIFY(item);
        QCOMPARE(item->item, int64_t(number));
        QCOMPARE(std::pair(item->start, item->end), std::pair(start, end));
        QCOMPARE(QColor(c.image.pixel(at)).rgb(), threadColour(threadColourOf(segs[i])).rgb());
    }
}

void TestThreadsUi::spanBarHoverNamesTheSpan()
{
    const auto& ix = m_spans;
    const UserSpans& spans = *ix->userSpans;
    Canvas c(ix, {QStringLiteral("threads")});
    c.options.threadRows = ThreadRowsView::makeDefault(*ix);
    const int top = c.rows()[0].rect.top();
    // The longest span of each depth.
    for (uint16_t depth = 0; depth <= spans.maxDepth; ++depth) {
        const UserSpan* s = nullptr;
        for (const UserSpan& x : spans.spans)
            if (x.depth == depth && x.thread && (!s || x.duration() > s->duration()))
                s = &x;
        QVERIFY(s);
        const size_t number = ix->threadStates.find(s->thread);
        const ViewRange range = around(s->start, s->end);
        c.paint(range);
        const int y = top + ThreadRowsView::kHeaderHeight + int(number) * ThreadRowsView::kRowHeight + 13 + 3 * depth + 1;
        const QPoint at(c.x(range, s->start + s->duration() / 2), y);
        const QString text = c.renderer.describeAt(at, c.area, range, c.options);
        const QString name = QString::fromStdString(spans.names[s->name]);
        QVERIFY2(text.startsWith(threadName(*ix, s->thread) + QStringLiteral(" — span \"%1\"").arg(name)), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("depth %1").arg(depth)), qPrintable(text));
        QVERIFY2(text.contains(durationText(s->duration())), qPrintable(text));
        const auto item = c.renderer.itemAt(at, c.area, range, c.options);
        QVERIFY(item);
        QCOMPARE(std::pair(item->start, item->end), std::pair(s->start, s->end));
        QCOMPARE(item->item, int64_t(number));
        // Drawn there: unlike the gap between the state bar and the spans.
        QVERIFY(c.image.pixel(at) != c.image.pixel(at.x(), y - 13 - 3 * depth - 1 + 12));
    }
}

void TestThreadsUi::spansTrackRowsAreNamesByTotal()
{
    const auto& ix = m_spans;
    const UserSpans& spans = *ix->userSpans;
    Canvas c(ix, {QStringLiteral("spans")});
    // Names by total time, counted here.
    std::map<uint32_t, uint64_t> total;
    for (const UserSpan& s : spans.spans)
        total[s.name] += s.duration();
    std::vector<std::pair<uint64_t, uint32_t>> byTotal;
    for (const auto& [name, t] : total)
        byTotal.push_back({t, name});
    std::sort(byTotal.rbegin(), byTotal.rend());
    const auto rows = c.rows();
    QCOMPARE(rows.size(), std::min<size_t>(10, byTotal.size()));
    TrackResources resources;
    resources.setIndex(ix);
    const TrackContext ctx{*ix, c.options, resources};
    const TimelineTrack* track = findTrack(QStringLiteral("spans"));
    QVERIFY(track);
    const ViewRange whole = c.renderer.bounds();
    c.paint(whole);
    const TimeMapping m(whole, c.plot().left(), c.plot().width());
    for (size_t r = 0; r < rows.size(); ++r) {
        const uint32_t name = byTotal[r].second;
        QCOMPARE(track->rowLabel(ctx, int(r)).toStdString(), spans.names[name]);
        // Hover: how many spans of the name are open around the pointer.
        int described = 0;
        for (int x = c.plot().left() + 1; x < c.plot().right(); x += 3) {
            const uint64_t t0 = m.toTime(x - 1), t1 = m.toTime(x + 1);
            size_t count = 0;
            for (const UserSpan& s : spans.spans)
                count += s.name == name && s.start <= t1 && s.end >= t0;
            const QPoint at(x, rows[r].rect.center().y());
            const QString text = c.renderer.describeAt(at, c.area, whole, c.options);
            if (!count) {
                QVERIFY2(text.isEmpty(), qPrintable(text));
                continue;
            }
            ++described;
            const QString expected = QStringLiteral("span \"%1\": %2 here")
                                         .arg(QString::fromStdString(spans.names[name]),
                                              count == 1 ? QStringLiteral("1 span") : QStringLiteral("%1 spans").arg(count));
            QVERIFY2(text.startsWith(expected), qPrintable(text + QStringLiteral(" / ") + expected));
            // Drawn where a span covers the whole pixel: unlike the row's
            // background above the bars.
            const uint64_t p0 = m.toTime(x), p1 = m.toTime(x + 1);
            const bool covered = std::any_of(spans.spans.begin(), spans.spans.end(), [&](const UserSpan& s) {
                return s.name == name && s.start <= p0 && s.end >= p1;
            });
            if (covered)
                QVERIFY(c.image.pixel(at) != c.image.pixel(x, rows[r].rect.top() + 1));
        }
        QVERIFY2(described > 0, spans.names[name].c_str());
    }
    // No spans: one row saying so.
    auto none = std::make_shared<ThreadRowsView>(*ThreadRowsView::makeDefault(*ix));
    none->spans = std::make_shared<UserSpans>();
    c.options.threadRows = none;
    QCOMPARE(c.rows().size(), size_t(1));
}

void TestThreadsUi::pinnedThreadsTrackHasOneRowPerPin()
{
    const auto& ix = m_spans;
    const ThreadStates& st = ix->threadStates;
    Canvas c(ix, {QStringLiteral("pinned-threads")});
    auto view = std::make_shared<ThreadRowsView>(*ThreadRowsView::makeDefault(*ix));
    c.options.threadRows = view;
    QCOMPARE(c.rows().size(), size_t(0));
    view = std::make_shared<ThreadRowsView>(*view);
    view->pinned = {uint32_t(st.find(9)), uint32_t(st.find(5)), uint32_t(st.find(11))};
    c.options.threadRows = view;
    const auto rows = c.rows();
    QCOMPARE(rows.size(), size_t(3));
    TrackResources resources;
    resources.setIndex(ix);
    const TrackContext ctx{*ix, c.options, resources};
    const TimelineTrack* track = findTrack(QStringLiteral("pinned-threads"));
    for (size_t r = 0; r < rows.size(); ++r) {
        const uint32_t thread = view->pinned[r];
        QVERIFY(track->rowLabel(ctx, int(r)).endsWith(threadName(*ix, st.ids[thread])));
        const size_t i = longestSegment(*ix, thread, ThreadState::Running);
        const auto segs = st.of(thread);
        const uint64_t start = segs[i].time, end = st.segmentEnd(segs, i);
        const ViewRange range = around(start, end);
        c.paint(range);
        const QPoint at(c.x(range, start + (end - start) / 4), rows[r].rect.top() + 7);
        const auto item = c.renderer.itemAt(at, c.area, range, c.options);
        QVERIFY(item);
        QCOMPARE(item->track, QStringLiteral("pinned-threads"));
        QCOMPARE(item->item, int64_t(thread));
        QCOMPARE(std::pair(item->start, item->end), std::pair(start, end));
        QVERIFY(c.renderer.describeAt(at, c.area, range, c.options).startsWith(threadName(*ix, st.ids[thread])));
        QCOMPARE(QColor(c.image.pixel(at)).rgb(), threadColour(ColourRunning).rgb());
    }
}

// --- the window ---

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

void TestThreadsUi::windowDiagnosticsNameUnmatchedSpans()
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
                  durationText(822838)}),
             qPrintable(lines.join(QLatin1Char('\n'))));
    QVERIFY2(has({QStringLiteral("START"), QStringLiteral("never stopped"), QStringLiteral("worker-6 (11)"),
                  durationText(33409907)}),
             qPrintable(lines.join(QLatin1Char('\n'))));
}

void TestThreadsUi::windowChoosingAThreadFollowsEverywhere()
{
    OpenWindow o(QStringLiteral("spans-N2"));
    MainWindow& w = o.w;
    ThreadsPane* pane = w.threadsPane();
    QTRY_COMPARE(pane->model()->rowCount(), 12);
    const uint32_t worker3 = uint32_t(w.index()->threadStates.find(8));
    pane->table()->setCurrentIndex(pane->model()->index(pane->model()->rowOfThread(worker3), 0));
    QCOMPARE(w.eventList()->model()->filter().thread, std::optional<uint32_t>(8));
    QCOMPARE(w.threadRows()->view()->chosen, std::optional<uint32_t>(worker3));
    QCOMPARE(w.timeline()->options().threadRows->chosen, std::optional<uint32_t>(worker3));
    // The event list lists worker-3's events only.
    QTRY_VERIFY(w.eventList()->model()->rowCount() > 0);
    QTRY_VERIFY(!w.eventList()->statusText().startsWith(QStringLiteral("Searching")));
    QVERIFY2(w.eventList()->statusText().contains(QStringLiteral("matching")), qPrintable(w.eventList()->statusText()));
}

void TestThreadsUi::windowTrackLabelsAndClicks()
{
    OpenWindow o(QStringLiteral("spans-N2"));
    MainWindow& w = o.w;
    TimelineView* tl = w.timeline();
    QTRY_VERIFY(!w.threadRows()->busy());
    auto threads = o.track(QStringLiteral("threads"));
    QVERIFY(threads);
    // A click on the header collapses, another expands.
    QTest::mouseClick(tl, Qt::LeftButton, {}, threads->rect.topLeft() + QPoint(10, 5));
    QVERIFY(w.threadRows()->view()->collapsed);
    QVERIFY(tl->options().threadRows->collapsed);
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
    const auto& ix = w.index();
    const uint32_t thread = w.threadRows()->view()->order[5]; // row 2
    const size_t i = longestSegment(*ix, thread, ThreadState::Running);
    const auto segs = ix->threadStates.of(thread);
    const uint64_t start = segs[i].time, end = ix->threadStates.segmentEnd(segs, i);
    w.controller()->setRange(around(start, end));
    const ViewRange range = w.controller()->range();
    const QRect plot = TimelineRenderer::plotArea(tl->rect());
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
}

void TestThreadsUi::windowSpanChosenAndSelectionStatistics()
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
    QTRY_VERIFY(w.threadsPane()->statusText().contains(QStringLiteral("selection")));
    CHECKED(checkThreadRows(*w.threadsPane()->model(), allThreadFigures(*w.index(), sel), ThreadsTableModel::Id,
                            Qt::AscendingOrder));
}

QTEST_MAIN(TestThreadsUi)
#include "tst_threadsui.moc"
