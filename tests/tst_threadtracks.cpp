// The Threads, Pinned threads and Spans tracks drawn through
// TimelineRenderer and hit-tested (the Threads track's window of rows on
// 100,000 synthesized threads, hover texts on thread rows and span bars),
// and the main window's wiring between the tracks, the panes, the event
// list and the statistics: diagnostics, choosing a thread everywhere, clicks
// and wheel on the track's labels, a chosen span and the selection's
// statistics. spans-N2 from testdata: 12 threads, worker-1..6 = ids 6..11,
// four span names of ~400 spans, three markers, a STOP without START on
// worker-2 and a START never stopped on worker-6.
#include "tst_threadtracks.h"
#include "ui/jobs/settings.h"

namespace threadtrackstest {

size_t longestSegment(const LogIndex& ix, size_t number, ThreadState state,
                      std::optional<BlockReason> reason)
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

ViewRange around(uint64_t a, uint64_t b)
{
    const uint64_t length = std::max<uint64_t>(b - a, 300);
    return {a > length ? a - length : 0, b + length};
}

int stateBarY(int top, int r)
{
    return top + ThreadRowsView::kHeaderHeight + r * ThreadRowsView::kRowHeight + 7;
}

} // namespace threadtrackstest

namespace {

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

} // namespace

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
    Settings::clear(); // the controller keeps its sort, rows and collapse there
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
            std::vector<ThreadWindowKey> wanted;
            const RowsDetail detail = threadDetailFor(*dropped, &store, false, {k}, view, width, &wanted);
            const bool needs = threadRowNeedsDetail(*dropped, k, view, width);
            QVERIFY(!detail.tooWide);
            QCOMPARE(detail.window != nullptr || !wanted.empty(), needs);
            std::shared_ptr<const ThreadDetail> got = detail.window;
            if (needs && !got) {
                // Before it is read: the row is drawn from the finest bins, marked pending.
                const PreparedThreadRow pending = prepareThreadRow(*dropped, nullptr, k, view, width, {});
                QVERIFY(pending.pending);
                QVERIFY(!pending.items.empty() || view.end <= ov.start);
                QCOMPARE(wanted.size(), size_t(1));
                got = store.loadThreads(*dropped, wanted[0]);
                QVERIFY(got && got->error.empty());
                // Of the threads that need their segments at this zoom
                // only (this row's among them), not every thread's.
                QVERIFY(!got->everyThread);
                QVERIFY(got->holds(st.ids[k]));
                for (const uint32_t id : got->threads)
                    QVERIFY(threadRowNeedsDetail(*dropped, uint32_t(st.find(id)), view, width));
                for (size_t g = 0; g < got->states.count(); ++g)
                    QVERIFY(got->holds(got->states.ids[g]));
                QCOMPARE(threadDetailFor(*dropped, &store, false, {k}, view, width, nullptr).window, got);
                ++readBack;
            }
            const PreparedThreadRow a = prepareThreadRow(*dropped, nullptr, k, view, width, {got});
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

// A view over more of the file than the store may read for it
// (maxThreadWindowBytes) reads nothing: its rows are drawn from their
// finest bins, not marked pending; one just within it reads the view
// alone, of the threads that need it.
void TestThreadTracks::rowsOfATooWideViewAreDrawnFromBins()
{
    QFETCH(QString, log);
    const std::string path = QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/%1.eventlog").arg(log).toStdString();
    std::string error;
    const std::shared_ptr<ByteSource> source = FileSource::open(path, error);
    QVERIFY2(source, error.c_str());
    const std::unique_ptr<LogIndex> ix = loadIndex(*source).index;
    const ThreadStates& st = ix->threadStates;
    QVERIFY(!st.summarised.empty());
    const int width = 900;
    size_t checked = 0;
    for (const uint32_t k : st.summarised) {
        const BinPyramid& ov = st.overviews[k];
        // Pixels of a quarter bin, over the thread's middle.
        const uint64_t span = std::max<uint64_t>(width, ov.binWidth / 4 * width);
        const uint64_t mid = ov.start + ov.levelBins(0) * ov.binWidth / 2;
        const ViewRange view{mid > span / 2 ? mid - span / 2 : 0, (mid > span / 2 ? mid - span / 2 : 0) + span};
        if (!threadRowNeedsDetail(*ix, k, view, width))
            continue;
        const uint64_t bytes = threadDetailBytes(*ix, view.start, view.end);
        QVERIFY(bytes > 0 && bytes <= ix->scan.bytes);
        const uint64_t margin = view.duration() / 2;
        QVERIFY(threadDetailBytes(*ix, view.start > margin ? view.start - margin : 0, view.end + margin) >= bytes);
        DetailStore store(source);
        store.setMaxThreadWindowBytes(bytes - 1);
        std::vector<ThreadWindowKey> wanted;
        const RowsDetail none = threadDetailFor(*ix, &store, false, {k}, view, width, &wanted);
        QVERIFY(none.tooWide && !none.window && wanted.empty());
        const PreparedThreadRow coarse = prepareThreadRow(*ix, nullptr, k, view, width, none);
        QVERIFY(coarse.coarse && !coarse.pending && !coarse.items.empty());
        for (const ThreadRowItem& item : coarse.items)
            QCOMPARE(item.segment, UINT32_MAX); // bins, no segment
        const double x = (coarse.items.front().x0 + coarse.items.front().x1) / 2;
        QVERIFY(describeThreadRow(*ix, nullptr, coarse, x, threadrow::kBarTop + 2, ThreadRowsView::kRowHeight)
                    .contains(QStringLiteral("zoom in for each state")));
        // Just within it: the view alone (its margins are more), read.
        store.setMaxThreadWindowBytes(bytes);
        const RowsDetail asked = threadDetailFor(*ix, &store, false, {k}, view, width, &wanted);
        QVERIFY(!asked.tooWide && !asked.window);
        QCOMPARE(wanted.size(), size_t(1));
        QVERIFY(wanted[0].from >= view.start && wanted[0].to <= view.end);
        QVERIFY(threadDetailBytes(*ix, wanted[0].from, wanted[0].to) <= bytes);
        const auto got = store.loadThreads(*ix, wanted[0]);
        QVERIFY(got && got->error.empty() && got->holds(st.ids[k]));
        const PreparedThreadRow exact = prepareThreadRow(*ix, nullptr, k, view, width, {got});
        QVERIFY(!exact.coarse && !exact.pending && exact.detail == got);
        ++checked;
    }
    QVERIFY(checked > 0);
}

// A thread whose bins are a few ns wide, 40 s after a view zoomed out to
// them (its start billions of pixels to the right), or before one: its
// row is empty. (The start's pixel was made an int unclamped: the row's
// pixels were walked from INT_MIN, a crash of the bench's thread rows on
// 12,800 synthesized threads.)
void TestThreadTracks::rowOfAThreadFarFromTheViewIsEmpty()
{
    constexpr uint64_t t0 = 40'000'000'000;
    std::deque<OwnedEvent> events;
    events.emplace_back(tag::CreateThread, 1000, std::initializer_list<uint64_t>{1});
    events.emplace_back(tag::RunThread, 2000, std::initializer_list<uint64_t>{1});
    events.emplace_back(tag::StopThread, 3000, std::initializer_list<uint64_t>{1, 5, 0});
    events.emplace_back(tag::CreateThread, t0, std::initializer_list<uint64_t>{2});
    for (uint64_t i = 0; i < 40; ++i) {
        events.emplace_back(tag::RunThread, t0 + 1 + 2 * i, std::initializer_list<uint64_t>{2});
        events.emplace_back(tag::StopThread, t0 + 2 + 2 * i, std::initializer_list<uint64_t>{2, i + 1 < 40 ? 3u : 5u, 0});
    }
    LogBuilder b;
    b.block(0, events);
    const std::vector<uint8_t> bytes = b.bytes();
    MemorySource source(bytes);
    const std::unique_ptr<LogIndex> ix = loadIndex(source).index;
    QVERIFY(!ix->scan.hasError);
    const ThreadStates& st = ix->threadStates;
    const size_t k = st.find(2);
    QVERIFY(k != SIZE_MAX);
    const BinPyramid& ov = st.overviews[k];
    QVERIFY(ov.bins > 0 && ov.start >= t0);
    QVERIFY(double(ov.start) / double(ov.binWidth) > double(INT32_MAX)); // (else this checks nothing)
    const int width = 900;
    // A pixel a bin: the row is drawn from its bins, and lies far to the right.
    const ViewRange before{0, ov.binWidth * width};
    QCOMPARE(ov.levelFor(before.duration() / double(width)), 0);
    QVERIFY(prepareThreadRow(*ix, nullptr, uint32_t(k), before, width, {}).items.empty());
    // From its bins, where it is: items within the view.
    const ViewRange on{ov.start, ov.start + ov.binWidth * width};
    const PreparedThreadRow row = prepareThreadRow(*ix, nullptr, uint32_t(k), on, width, {});
    QVERIFY(!row.items.empty());
    for (const ThreadRowItem& item : row.items)
        QVERIFY(item.x0 >= 0 && item.x1 <= width);
    // Past its end: empty too.
    const ViewRange after{t0 + 1'000'000'000, t0 + 1'000'000'000 + ov.binWidth * width};
    QVERIFY(prepareThreadRow(*ix, nullptr, uint32_t(k), after, width, {}).items.empty());
}

// On a log of thousands of threads alive at once, a window read for the
// rows shown holds those and the rows near them in the track (a few
// screens either side), not every thread alive there: a read costs about
// a microsecond a thread, 100 ms a zoom on the 256 MB synthesized log of
// 100,000 threads. Its rows are those of a window of every thread; a row
// farther away asks for a window of its own.
void TestThreadTracks::aWindowOfVeryManyThreadsHoldsTheRowsNearTheShownOnes()
{
    const auto source = std::make_shared<MemorySource>(synthesizeSchedulerLog(16u << 20, 4, 3));
    const std::shared_ptr<const LogIndex> ix = loadIndex(*source).index;
    QVERIFY(ix && !ix->scan.hasError);
    const ThreadStates& st = ix->threadStates;
    QVERIFY(st.segmentsInFile);
    const int width = 900;
    // A view of a thousandth of the log at its middle: a pixel much
    // narrower than any thread's finest bin.
    const uint64_t span = ix->lastTime / 1000, mid = ix->lastTime / 2;
    for (const uint32_t k : st.summarised)
        QVERIFY(st.overviews[k].binWidth > 10 * span / width);
    const ViewRange view{mid - span / 2, mid - span / 2 + span};
    std::vector<uint32_t> needing; // thread numbers with bins in the view, ascending
    for (size_t k = 0; k < st.count(); ++k) {
        const BinPyramid& ov = st.overviews[k];
        if (threadRowNeedsDetail(*ix, uint32_t(k), view, width) && ov.start < view.end
            && ov.start + ov.levelBins(0) * ov.binWidth > view.start)
            needing.push_back(uint32_t(k));
    }
    QVERIFY2(needing.size() > kMostWindowThreads + 100, qPrintable(QString::number(needing.size())));
    const std::vector<uint32_t> shown(needing.begin() + 1000, needing.begin() + 1016);
    std::vector<uint32_t> nearby(needing.begin() + 960, needing.begin() + 1080);
    nearby.push_back(uint32_t(st.count())); // (no such thread: ignored)
    const auto idsOf = [&](const std::vector<uint32_t>& numbers) {
        std::vector<uint32_t> ids;
        for (const uint32_t k : numbers)
            if (k < st.count())
                ids.push_back(st.ids[k]);
        std::sort(ids.begin(), ids.end());
        return ids;
    };
    DetailStore store(source);
    std::vector<ThreadWindowKey> wanted;
    QVERIFY(!threadDetailFor(*ix, &store, false, shown, view, width, &wanted, &nearby).window);
    QCOMPARE(wanted.size(), size_t(1));
    QCOMPARE(wanted[0].threads, idsOf(std::vector<uint32_t>(nearby.begin(), nearby.end() - 1)));
    // None near: the shown rows alone.
    std::vector<ThreadWindowKey> alone;
    QVERIFY(!threadDetailFor(*ix, &store, false, shown, view, width, &alone).window);
    QCOMPARE(alone.size(), size_t(1));
    QCOMPARE(alone[0].threads, idsOf(shown));
    const auto got = store.loadThreads(*ix, wanted[0]);
    QVERIFY(got && got->error.empty() && !got->everyThread);
    // Every thread of it, as a window of every thread draws it.
    const auto every = std::make_shared<const ThreadDetail>(readThreadSegments(*source, *ix, wanted[0].from, wanted[0].to));
    QVERIFY(every->error.empty() && every->everyThread);
    QVERIFY(every->states.count() > got->states.count() + kMostWindowThreads);
    for (const uint32_t k : std::vector<uint32_t>(nearby.begin(), nearby.end() - 1)) {
        const PreparedThreadRow a = prepareThreadRow(*ix, nullptr, k, view, width, {got});
        const PreparedThreadRow b = prepareThreadRow(*ix, nullptr, k, view, width, {every});
        QVERIFY(a.detail == got && b.detail == every && !a.pending);
        QVERIFY(a.strip == b.strip);
        QCOMPARE(a.items.size(), b.items.size());
        for (size_t i = 0; i < a.items.size(); ++i)
            QVERIFY(a.items[i].x0 == b.items[i].x0 && a.items[i].x1 == b.items[i].x1 && a.items[i].colour == b.items[i].colour);
    }
    // Scrolled to the shown rows again: read; to rows far from them: another window.
    QCOMPARE(threadDetailFor(*ix, &store, false, shown, view, width, nullptr, &nearby).window, got);
    const std::vector<uint32_t> far(needing.end() - 16, needing.end());
    std::vector<ThreadWindowKey> farther;
    QVERIFY(!threadDetailFor(*ix, &store, false, far, view, width, &farther, &far).window);
    QCOMPARE(farther.size(), size_t(1));
    QCOMPARE(farther[0].threads, idsOf(far));

    // The Threads track (every thread by id, some alive in the view and
    // some not) and a pinned thread far from its rows: one window for both
    // (the same threads), read once.
    auto rows = std::make_shared<ThreadRowsView>(*ThreadRowsView::makeDefault(*ix));
    rows->first = needing.back() - 8; // (the last thread alive in the view in the middle, ids ascending)
    rows->visibleRows = 16;
    rows->pinned = {needing.front()};
    Canvas c(ix, {QStringLiteral("pinned-threads"), QStringLiteral("threads")});
    c.options.states.set<ThreadRowsView>(rows);
    c.options.detail = std::make_shared<DetailStore>(source);
    c.paint(view);
    const std::vector<ThreadWindowKey> asked = c.renderer.takeWantedThreads();
    QVERIFY(!asked.empty());
    for (const ThreadWindowKey& k : asked)
        QVERIFY(k == asked.front());
    std::vector<uint32_t> both = rows->nearbyRows();
    QCOMPARE(both.size(), size_t(9 * 16 + 1));
    std::erase_if(both, [&](uint32_t k) { return !threadRowNeedsDetail(*ix, k, view, width); });
    QVERIFY(std::any_of(both.begin(), both.end(), [&](uint32_t k) { return !std::binary_search(needing.begin(), needing.end(), k); }));
    QVERIFY(std::any_of(both.begin(), both.end(), [&](uint32_t k) { return std::binary_search(needing.begin(), needing.end(), k); }));
    QCOMPARE(asked.front().threads, idsOf(both));
    QVERIFY(c.options.detail->loadThreads(*ix, asked.front()));
    c.paint(view);
    QVERIFY(c.renderer.takeWantedThreads().empty());
    // Collapsed: no rows near, the pins.
    auto collapsed = std::make_shared<ThreadRowsView>(*rows);
    collapsed->collapsed = true;
    QCOMPARE(collapsed->nearbyRows(), rows->pinned);
}

// A span of no length ended before the view is not drawn, however far
// before: a long span of its name (20 s) makes the track look that far
// back, and the one of no length at 21 s was drawn in the first pixel of
// a view at 25 s (its end's pixel, billions to the left, made an int).
void TestThreadTracks::spansTrackDrawsNoSpanEndedBeforeTheView()
{
    constexpr uint64_t s = 1'000'000'000;
    LogBuilder b;
    b.block(0, {OwnedEvent(tag::CreateThread, 1000, {1}), OwnedEvent(tag::RunThread, 1000, {1}),
                OwnedEvent(tag::UserMsg, 2000, {}, {"START phase"}), OwnedEvent(tag::UserMsg, 20 * s, {}, {"STOP phase"}),
                OwnedEvent(tag::UserMsg, 21 * s, {}, {"START phase"}), OwnedEvent(tag::UserMsg, 21 * s, {}, {"STOP phase"}),
                OwnedEvent(tag::StopThread, 60 * s, {1, 5, 0})});
    const auto ix = loadBytes(b.bytes());
    QVERIFY(ix && ix->userSpans);
    QCOMPARE(ix->userSpans->spans.size(), size_t(2));
    Canvas c(ix, {QStringLiteral("spans")});
    const auto rows = c.rows();
    QCOMPARE(rows.size(), size_t(1));
    const int y = rows[0].rect.center().y();
    // Each span where it is: drawn in the row (unlike the view below).
    c.paint({20 * s, 22 * s});
    QVERIFY(c.image.pixel(c.x({20 * s, 22 * s}, 21 * s), y) != c.image.pixel(c.plot().right() - 2, y));
    const ViewRange after{25 * s, 25 * s + 1000};
    c.paint(after);
    const QRgb background = c.image.pixel(c.plot().left() + c.plot().width() / 2, y);
    for (int x = c.plot().left(); x <= c.plot().right(); ++x)
        QCOMPARE(c.image.pixel(x, y), background);
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
    c.options.states.set<ThreadRowsView>(view);
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
    c.options.states.set<ThreadRowsView>(collapsed);
    QCOMPARE(c.rows()[0].rect.height(), ThreadRowsView::kHeaderHeight);
}

void TestThreadTracks::threadRowHoverNamesStateAndEvents()
{
    const auto& ix = m_spans;
    const ThreadStates& st = ix->threadStates;
    Canvas c(ix, {QStringLiteral("threads")});
    c.options.states.set<ThreadRowsView>(ThreadRowsView::makeDefault(*ix));
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
    c.options.states.set<ThreadRowsView>(ThreadRowsView::makeDefault(*ix));
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
    c.options.states.set<ThreadRowsView>(none);
    QCOMPARE(c.rows().size(), size_t(1));
}

void TestThreadTracks::pinnedThreadsTrackHasOneRowPerPin()
{
    const auto& ix = m_spans;
    const ThreadStates& st = ix->threadStates;
    Canvas c(ix, {QStringLiteral("pinned-threads")});
    auto view = std::make_shared<ThreadRowsView>(*ThreadRowsView::makeDefault(*ix));
    c.options.states.set<ThreadRowsView>(view);
    QCOMPARE(c.rows().size(), size_t(0));
    view = std::make_shared<ThreadRowsView>(*view);
    view->pinned = {uint32_t(st.find(9)), uint32_t(st.find(5)), uint32_t(st.find(11))};
    c.options.states.set<ThreadRowsView>(view);
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

QTEST_MAIN(TestThreadTracks)
