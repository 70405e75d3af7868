// The Threads, Pinned threads and Spans tracks drawn through
// TimelineRenderer and hit-tested (the Threads track's window of rows on
// 100,000 synthesized threads, hover texts on thread rows and span bars),
// and the main window's wiring between the tracks, the panes, the event
// list and the statistics: diagnostics, choosing a thread everywhere, clicks
// and wheel on the track's labels, a chosen span and the selection's
// statistics. spans-N2 from testdata: 12 threads, worker-1..6 = ids 6..11,
// four span names of ~400 spans, three markers, a STOP without START on
// worker-2 and a START never stopped on worker-6.
#include "threaduitestsupport.h"

#include "core/detail/detailstore.h"
#include "core/index/logindex.h"
#include "core/io/bytesource.h"
#include "core/load/loader.h"
#include "core/synth/synthetic.h"
#include "core/threads/threadstats.h"
#include "core/threads/userspans.h"
#include "ui/events/eventlistmodel.h"
#include "ui/events/eventlistpane.h"
#include "ui/formatting.h"
#include "ui/models/tablemodels.h"
#include "ui/threads/spanspane.h"
#include "ui/threads/threadrows.h"
#include "ui/threads/threadrowscontroller.h"
#include "ui/threads/threadspane.h"
#include "ui/timeline/imageexport.h"
#include "ui/timeline/timelinerenderer.h"
#include "ui/timeline/timelineview.h"
#include "ui/timeline/viewcontroller.h"
#include "ui/window/mainwindow.h"

#include <QImage>
#include <QPainter>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QToolTip>
#include <QWheelEvent>
#include <QtTest>

#include <algorithm>
#include <map>

using namespace hecscope;
using namespace hecscope::test;

namespace {

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
    QRect plot() const { return renderer.plotArea(area, options); }
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

class TestThreadTracks : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void init();

    void threadsTrackDrawsItsWindowOfRows();
    void threadRowHoverNamesStateAndEvents();
    void spanBarHoverNamesTheSpan();
    void spansTrackRowsAreNamesByTotal();
    void pinnedThreadsTrackHasOneRowPerPin();
    void rowsReadBackAreTheKeptSegmentsRows_data();
    void rowsReadBackAreTheKeptSegmentsRows();

    void windowDiagnosticsNameUnmatchedSpans();
    void windowChoosingAThreadFollowsEverywhere();
    void windowTrackLabelsAndClicks();
    void windowSpanChosenAndSelectionStatistics();

private:
    const std::shared_ptr<const LogIndex>& big();
    QTemporaryDir m_settings;
    std::shared_ptr<const LogIndex> m_spans;
    std::shared_ptr<const LogIndex> m_big; // 100,000 threads, made on first use
};

void TestThreadTracks::initTestCase()
{
    QCoreApplication::setOrganizationName(QStringLiteral("HecscopeTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_threadtracks"));
    // Settings of this run alone (the controller and the window keep some).
    QVERIFY(m_settings.isValid());
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settings.path());
    m_spans = loadLog(QStringLiteral("spans-N2"));
    QVERIFY(m_spans && m_spans->userSpans);
    QCOMPARE(m_spans->threadStates.count(), size_t(12));
}

void TestThreadTracks::init()
{
    QSettings().clear(); // the controller keeps its sort, rows and collapse there
}

const std::shared_ptr<const LogIndex>& TestThreadTracks::big()
{
    if (!m_big)
        m_big = loadBytes(synthesizeThreadsLog(100000, 3));
    return m_big;
}

// --- tracks ---

void TestThreadTracks::rowsReadBackAreTheKeptSegmentsRows_data()
{
    QTest::addColumn<QString>("log");
    for (const char* log : {"spans-N2", "threads-N2", "sparks-N4", "leak-nonmoving-N2"})
        QTest::newRow(log) << QString::fromLatin1(log);
}

// A row zoomed in past its bins, drawn from segments read back from the
// file (the index keeps none of that thread's), is the row drawn from an
// index that keeps them: the same pixels, marks, items and hover texts;
// zoomed out, both draw from the bins. Views around random segments of
// every thread in the file only, at several zooms.
void TestThreadTracks::rowsReadBackAreTheKeptSegmentsRows()
{
    QFETCH(QString, log);
    const auto kept = loadLog(log);
    const std::string path = QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/%1.eventlog").arg(log).toStdString();
    std::string error;
    const std::shared_ptr<ByteSource> source = FileSource::open(path, error);
    QVERIFY2(source, error.c_str());
    const std::unique_ptr<LogIndex> dropped = loadIndex(*source).index;
    const ThreadStates& st = dropped->threadStates;
    QVERIFY(st.segmentsInFile);
    QVERIFY(!st.summarised.empty());
    DetailStore store(source);
    QRandomGenerator rng(uint32_t(qHash(log)));
    const int width = 900;
    size_t readBack = 0, compared = 0;
    for (const uint32_t k : st.summarised) {
        const SegmentView segs = kept->threadStates.of(k);
        const BinPyramid& ov = st.overviews[k];
        for (int r = 0; r < 6; ++r) {
            const uint64_t at = segs.timeAt(rng.bounded(quint64(segs.size())));
            // Pixels from a twentieth of a bin up to four bins (zoomed out).
            const double nsPerPixel = double(ov.binWidth) * std::pow(2.0, -4.3 + r * 1.3);
            const uint64_t span = std::max<uint64_t>(width, uint64_t(nsPerPixel * width));
            const ViewRange view{at > span / 3 ? at - span / 3 : 0, (at > span / 3 ? at - span / 3 : 0) + span};
            std::vector<std::pair<uint64_t, uint64_t>> wanted;
            const auto detail = threadDetailFor(*dropped, &store, false, {k}, view, width, &wanted);
            const bool needs = threadRowNeedsDetail(*dropped, k, view, width);
            QCOMPARE(detail != nullptr || !wanted.empty(), needs);
            std::shared_ptr<const ThreadDetail> got = detail;
            if (needs && !got) {
                // Before it is read: the row is drawn from the finest bins, marked pending.
                const PreparedThreadRow pending = prepareThreadRow(*dropped, nullptr, k, view, width, nullptr);
                QVERIFY(pending.pending);
                QVERIFY(!pending.items.empty() || view.end <= ov.start);
                QCOMPARE(wanted.size(), size_t(1));
                got = store.loadThreads(*dropped, wanted[0].first, wanted[0].second);
                QVERIFY(got && got->error.empty());
                QCOMPARE(threadDetailFor(*dropped, &store, false, {k}, view, width, nullptr), got);
                ++readBack;
            }
            const PreparedThreadRow a = prepareThreadRow(*dropped, nullptr, k, view, width, got);
            const PreparedThreadRow b = prepareThreadRow(*kept, nullptr, k, view, width);
            const QString where = QStringLiteral("thread %1, view %2–%3").arg(st.ids[k]).arg(view.start).arg(view.end);
            QVERIFY2(!a.pending, qPrintable(where));
            QVERIFY2(a.strip == b.strip, qPrintable(where + QStringLiteral(": pixels")));
            QCOMPARE(a.items.size(), b.items.size());
            for (size_t i = 0; i < a.items.size(); ++i) {
                const ThreadRowItem &x = a.items[i], &y = b.items[i];
                QVERIFY2(x.x0 == y.x0 && x.x1 == y.x1 && x.colour == y.colour && x.cap == y.cap
                             && (x.segment == UINT32_MAX) == (y.segment == UINT32_MAX),
                         qPrintable(where + QStringLiteral(": item %1").arg(i)));
                // Hover texts, for items ending inside the view (a segment
                // going on past the stretch read says so instead).
                if (x.x1 < float(width - 1)) {
                    const double mid = (x.x0 + x.x1) / 2;
                    QCOMPARE(describeThreadRow(*dropped, nullptr, a, mid, threadrow::kBarTop + 2, ThreadRowsView::kRowHeight),
                             describeThreadRow(*kept, nullptr, b, mid, threadrow::kBarTop + 2, ThreadRowsView::kRowHeight));
                    QVERIFY(threadRowItemAt(*dropped, nullptr, a, mid, threadrow::kBarTop + 2, ThreadRowsView::kRowHeight)
                            == threadRowItemAt(*kept, nullptr, b, mid, threadrow::kBarTop + 2, ThreadRowsView::kRowHeight));
                    ++compared;
                }
            }
            QCOMPARE(a.marks.size(), b.marks.size());
            for (size_t i = 0; i < a.marks.size(); ++i)
                QVERIFY2(a.marks[i].x == b.marks[i].x && a.marks[i].kind == b.marks[i].kind, qPrintable(where));
            QCOMPARE(a.finishedAt, b.finishedAt);
        }
    }
    QVERIFY(readBack > 0);
    QVERIFY(compared > 0);
}

// With 100,000 threads the track shows its window: the rows from `first`,
// each the thread order[first + r], hit-tested on the drawn segment.
void TestThreadTracks::threadsTrackDrawsItsWindowOfRows()
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

void TestThreadTracks::threadRowHoverNamesStateAndEvents()
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

void TestThreadTracks::spanBarHoverNamesTheSpan()
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

void TestThreadTracks::spansTrackRowsAreNamesByTotal()
{
    const auto& ix = m_spans;
    const UserSpans& spans = *ix->userSpans;
    Canvas c(ix, {QStringLiteral("spans")});
    // Names by total time of their stopped spans, counted here (a span
    // never stopped has no duration: "never-stopped" comes last).
    std::map<uint32_t, uint64_t> total;
    for (const UserSpan& s : spans.spans)
        total[s.name] += (s.flags & UserSpan::OpenAtEnd) ? 0 : s.duration();
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
            size_t count = 0, open = 0;
            for (const UserSpan& s : spans.spans)
                if (s.name == name && s.start <= t1 && s.end >= t0) {
                    ++count;
                    open += (s.flags & UserSpan::OpenAtEnd) != 0;
                }
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
            // A span never stopped is said to be one, and not given as the
            // longest (its length is only up to the end of the log).
            QCOMPARE(text.contains(QStringLiteral(", %1 never stopped").arg(open)), open > 0);
            QCOMPARE(text.contains(QStringLiteral("left out of the span figures")), open == count);
            QCOMPARE(text.contains(QStringLiteral("longest on")), open < count);
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

void TestThreadTracks::pinnedThreadsTrackHasOneRowPerPin()
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
    QCOMPARE(w.timeline()->options().threadRows->chosen, std::optional<uint32_t>(worker3));
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

QTEST_MAIN(TestThreadTracks)
#include "tst_threadtracks.moc"
