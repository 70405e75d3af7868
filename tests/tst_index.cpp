// The index: capability timelines, threads, collections and statistics, on
// logs written by the project's encoder for each state transition and edge
// case, and on real GHC logs checked against brute-force recomputation.
#include "tst_index.h"

#ifdef HECSCOPE_ASAN // (core/index/chunkpool.h)
#include <sanitizer/asan_interface.h>
#endif

namespace indextest {

OwnedEvent ev(uint16_t tag, uint64_t t, std::initializer_list<uint64_t> n,
              std::initializer_list<std::string_view> s)
{
    return OwnedEvent(tag, t, n, s);
}

SpanTotals bruteTotals(const CapTimeline& tl, uint64_t t0, uint64_t t1)
{
    SpanTotals t;
    for (size_t i = 0; i < tl.size(); ++i) {
        const Span& s = tl[i];
        const uint64_t a = std::max(s.start(), t0), b = std::min(s.end(), t1);
        if (b > a)
            t.time[size_t(s.kind())] += b - a;
        if (s.kind() == SpanKind::Running && !s.continued() && s.start() >= t0 && s.start() < t1)
            ++t.runs;
    }
    return t;
}

std::unique_ptr<LogIndex> loadWith(const std::vector<uint8_t>& bytes, KeepInMemory keep)
{
    MemorySource source(bytes);
    return loadIndex(source, bytes.size(), nullptr, keep).index;
}

void compareThreadParts(const LogIndex& x, const LogIndex& y)
{
    const ThreadStates &a = x.threadStates, &b = y.threadStates;
    QVERIFY(a.ids == b.ids);
    QCOMPARE(a.end, b.end);
    QCOMPARE(a.segmentsInFile, b.segmentsInFile);
    QVERIFY(a.summarised == b.summarised);
    QVERIFY(a.wholeRun == b.wholeRun);
    for (size_t k = 0; k < a.count(); ++k) {
        const SegmentView sa = a.of(k), sb = b.of(k);
        QCOMPARE(sa.size(), sb.size());
        for (size_t i = 0; i < sa.size(); ++i)
            QVERIFY2(sa[i] == sb[i], qPrintable(QStringLiteral("thread %1 segment %2").arg(a.ids[k]).arg(i)));
        const BinPyramid &p = a.overviews[k], &q = b.overviews[k];
        QVERIFY(p.start == q.start && p.binWidth == q.binWidth && p.bins == q.bins && p.levels == q.levels);
        QVERIFY(std::equal(a.overviewKeys.begin() + ptrdiff_t(p.offset), a.overviewKeys.begin() + ptrdiff_t(p.offset + p.totalBins()),
                           b.overviewKeys.begin() + ptrdiff_t(q.offset)));
    }
    const ThreadCheckpoints &c = x.threadCheckpoints, &d = y.threadCheckpoints;
    QCOMPARE(c.spacing, d.spacing);
    QVERIFY(c.caps == d.caps);
    QVERIFY(c.global == d.global);
    QVERIFY(c.entryOffsets == d.entryOffsets);
    QCOMPARE(c.entryChecks.size(), d.entryChecks.size());
    QCOMPARE(c.entrySegments.size(), d.entrySegments.size());
    for (size_t e = 0; e < c.entrySegments.size(); ++e)
        QVERIFY(c.entryChecks[e] == d.entryChecks[e] && c.entry(e) == d.entry(e));
}

} // namespace indextest

namespace {

struct Expected {
    uint64_t start, end;
    SpanKind kind;
    uint32_t thread;
    uint8_t stop;
};

void compareSpans(const CapTimeline& tl, const std::vector<Expected>& want)
{
    QCOMPARE(tl.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i) {
        const Span& s = tl[i];
        const QString where = QStringLiteral("span %1").arg(i);
        QVERIFY2(s.start() == want[i].start, qPrintable(where));
        QVERIFY2(s.end() == want[i].end, qPrintable(where));
        QVERIFY2(s.kind() == want[i].kind, qPrintable(where));
        if (s.kind() == SpanKind::Running) {
            QVERIFY2(s.thread() == want[i].thread, qPrintable(where));
            QVERIFY2(s.stop() == want[i].stop, qPrintable(where));
        }
    }
}

} // namespace

void TestIndex::threadStatesAndGcPhases()
{
    LogBuilder b;
    b.block(0, {ev(tag::CreateThread, 5, {1}), ev(tag::RunThread, 10, {1}),
                ev(tag::StopThread, 20, {1, 3, 0}), // yield
                ev(tag::CreateThread, 22, {2}), ev(tag::RunThread, 25, {2}),
                ev(tag::StopThread, 40, {2, 7, 0}), // blocked on an MVar
                ev(tag::ThreadWakeup, 45, {2, 0}), ev(tag::RequestParGc, 48),
                ev(tag::GcStart, 50), ev(tag::GcWork, 52), ev(tag::GcIdle, 60), ev(tag::GcDone, 62),
                ev(tag::GcEnd, 70),
                ev(tag::GcStatsGhc, 71, {0, 1, 1000, 10, 20, 2, 600, 1000, 300}),
                ev(tag::RunThread, 80, {2}), ev(tag::StopThread, 90, {2, 5, 0})}); // finished
    const auto ix = indexOfBytes(b.bytes());
    QVERIFY(ix->scan.diagnostics.empty());
    QCOMPARE(ix->caps.size(), size_t(1));
    compareSpans(ix->caps[0].timeline, {{10, 20, SpanKind::Running, 1, 3},
                                        {25, 40, SpanKind::Running, 2, 7},
                                        {50, 52, SpanKind::Gc, 0, 0}, // the leader: inside its collection
                                        {52, 60, SpanKind::GcWork, 0, 0},
                                        {60, 62, SpanKind::GcIdle, 0, 0},
                                        {62, 70, SpanKind::GcDone, 0, 0},
                                        {80, 90, SpanKind::Running, 2, 5}});
    const ThreadInfo& t1 = ix->threads.at(1);
    const ThreadInfo& t2 = ix->threads.at(2);
    QCOMPARE(t1.created, uint64_t(5));
    QCOMPARE(t1.runs, 1u);
    QCOMPARE(t1.yields, 1u);
    QCOMPARE(t1.runTime, uint64_t(10));
    QCOMPARE(t1.finished, kNoTime);
    QCOMPARE(t2.runs, 2u);
    QCOMPARE(t2.runTime, uint64_t(25));
    QCOMPARE(t2.blocked[size_t(BlockReason::MVar)], 1u);
    QCOMPARE(t2.wakeups, 1u);
    QCOMPARE(t2.finished, uint64_t(90));
    QCOMPARE(ix->threadCount(), size_t(2));

    QCOMPARE(ix->collections.size(), size_t(1));
    const Collection& c = ix->collections[0];
    QCOMPARE(c.start, uint64_t(50));
    QCOMPARE(c.end, uint64_t(70));
    QCOMPARE(c.request, uint64_t(48));
    QVERIFY(c.parallelRequest);
    QVERIFY(c.hasStats);
    QCOMPARE(c.generation, 1);
    QCOMPARE(c.copied, uint64_t(1000));
    QCOMPARE(c.parThreads, 2u);
    QVERIFY(c.hasBalanced);

    const RangeStats st = computeStats(*ix);
    QCOMPARE(st.totalNs, uint64_t(90));
    QCOMPARE(st.gcNs, uint64_t(20));
    QCOMPARE(st.mutatorNs, uint64_t(70));
    QCOMPARE(st.collections, uint64_t(1));
    QCOMPARE(st.parallelCollections, uint64_t(1));
    QCOMPARE(st.maxPauseNs, uint64_t(20));
    QCOMPARE(st.copiedBytes, uint64_t(1000));
    QCOMPARE(st.workBalance, 0.3);
    QCOMPARE(st.caps.size(), size_t(1));
    QCOMPARE(st.caps[0].running, uint64_t(35));
    QCOMPARE(st.caps[0].gc, uint64_t(20));
    QCOMPARE(st.caps[0].idle, uint64_t(35));
    QCOMPARE(st.caps[0].runs, uint64_t(3));

    // A range cutting through the first run and the collection.
    const RangeStats part = computeStats(*ix, 15, 55);
    QCOMPARE(part.caps[0].running, uint64_t(5 + 15));
    QCOMPARE(part.caps[0].gc, uint64_t(5));
    QCOMPARE(part.caps[0].runs, uint64_t(1)); // only thread 2's run starts inside
    QCOMPARE(part.gcNs, uint64_t(5));
    QCOMPARE(part.collections, uint64_t(1));
}

void TestIndex::identicalTimestamps()
{
    LogBuilder b;
    b.block(0, {ev(tag::RunThread, 10, {1}), ev(tag::StopThread, 10, {1, 3, 0}),
                ev(tag::RunThread, 10, {2}), ev(tag::StopThread, 10, {2, 3, 0}),
                ev(tag::RunThread, 10, {1}), ev(tag::StopThread, 30, {1, 3, 0}),
                ev(tag::GcStart, 30), ev(tag::GcEnd, 30)});
    const auto ix = indexOfBytes(b.bytes());
    compareSpans(ix->caps[0].timeline, {{10, 10, SpanKind::Running, 1, 3},
                                        {10, 10, SpanKind::Running, 2, 3},
                                        {10, 30, SpanKind::Running, 1, 3}});
    QCOMPARE(ix->caps[0].timeline.totals().runs, uint64_t(3));
    QCOMPARE(ix->threads.at(1).runs, 2u);
    QCOMPARE(ix->collections.size(), size_t(1)); // an instantaneous collection still counts
    QCOMPARE(ix->collections[0].pause(), uint64_t(0));
    QCOMPARE(computeStats(*ix).collections, uint64_t(1));
}

void TestIndex::threadRunningAtEndOfLog()
{
    LogBuilder b;
    b.block(0, {ev(tag::RunThread, 10, {1})});
    b.block(1, {ev(tag::RunThread, 20, {2}), ev(tag::StopThread, 30, {2, 3, 0}), ev(tag::UserMarker, 100, {}, {"end"})});
    const auto ix = indexOfBytes(b.bytes());
    compareSpans(ix->caps[0].timeline, {{10, 100, SpanKind::Running, 1, kStopAtEnd}});
    QCOMPARE(ix->threads.at(1).runTime, uint64_t(90));
    QCOMPARE(ix->messages.size(), size_t(1));
    QCOMPARE(ix->textOf(ix->messages[0].text), std::string_view("end"));
    QCOMPARE(ix->messages[0].kind, Message::Marker);
}

void TestIndex::gcWithoutRequestOrPhases()
{
    LogBuilder b;
    b.block(0, {ev(tag::RunThread, 10, {1}), ev(tag::GcStart, 20), ev(tag::GcEnd, 40),
                ev(tag::RunThread, 50, {1}), ev(tag::StopThread, 60, {1, 1, 0})});
    const auto ix = indexOfBytes(b.bytes());
    // GC_START without a STOP_THREAD closes the run; the GC has no phases.
    compareSpans(ix->caps[0].timeline, {{10, 20, SpanKind::Running, 1, kStopClosedByOther},
                                        {20, 40, SpanKind::Gc, 0, 0},
                                        {50, 60, SpanKind::Running, 1, 1}});
    QCOMPARE(ix->collections.size(), size_t(1));
    QCOMPARE(ix->collections[0].request, kNoTime);
    QVERIFY(!ix->collections[0].hasStats);
    QCOMPARE(ix->threads.at(1).heapOverflows, 1u);
    const RangeStats st = computeStats(*ix);
    QCOMPARE(st.generations.size(), size_t(1));
    QCOMPARE(st.generations[0].generation, -1);
    QCOMPARE(st.workBalance, -1.0);
}

// Issue #25: a capability's GC_START..GC_END is split by its collection
// (the leader's GC_START..GC_END): stopped before it began (GcSync), its
// phases inside, parked after it ended (GcParked). Cap 1's block comes
// first, before the leader's: the split waits for the whole log's
// collections. Only the part inside counts as collecting.
void TestIndex::gcSpansSplitByTheirCollection()
{
    LogBuilder b;
    b.block(1, {ev(tag::GcStart, 100), ev(tag::GcWork, 210), ev(tag::GcDone, 230), ev(tag::GcEnd, 400),
                ev(tag::RunThread, 410, {3}), ev(tag::StopThread, 420, {3, 3, 0})});
    b.block(0, {ev(tag::RequestParGc, 90), ev(tag::GcStart, 200), ev(tag::GcWork, 205), ev(tag::GcDone, 280),
                ev(tag::GcEnd, 300), ev(tag::GcGlobalSync, 301),
                ev(tag::GcStatsGhc, 302, {0, 0, 1000, 10, 20, 2, 600, 1000, 300})});
    const auto ix = indexOfBytes(b.bytes());
    QVERIFY(ix->scan.diagnostics.empty());
    QCOMPARE(ix->collections.size(), size_t(1));
    QCOMPARE(ix->collections[0].leaderStart, uint64_t(200));
    QCOMPARE(ix->collections[0].leaderEnd, uint64_t(300));
    compareSpans(ix->caps[1].timeline, {{100, 200, SpanKind::GcSync, 0, 0},
                                        {200, 210, SpanKind::Gc, 0, 0},
                                        {210, 230, SpanKind::GcWork, 0, 0},
                                        {230, 300, SpanKind::GcDone, 0, 0},
                                        {300, 400, SpanKind::GcParked, 0, 0},
                                        {410, 420, SpanKind::Running, 3, 3}});
    compareSpans(ix->caps[0].timeline, {{200, 205, SpanKind::Gc, 0, 0},
                                        {205, 280, SpanKind::GcWork, 0, 0},
                                        {280, 300, SpanKind::GcDone, 0, 0}});
    const RangeStats st = computeStats(*ix);
    QCOMPARE(st.gcNs, uint64_t(100));
    QCOMPARE(st.gcAnyCapNs, uint64_t(100));
    QCOMPARE(st.caps[1].gc, uint64_t(100));
    QCOMPARE(st.caps[1].gcSync, uint64_t(100));
    QCOMPARE(st.caps[1].parked, uint64_t(100));
    QCOMPARE(st.parkedCapNs, uint64_t(100));
    // A range inside the parked part: parked, not GC.
    const RangeStats part = computeStats(*ix, 320, 380);
    QCOMPARE(part.caps[1].parked, uint64_t(60));
    QCOMPARE(part.caps[1].gc, uint64_t(0));
}

void TestIndex::gcSpansHeldUntilTheirLeaderComes_data()
{
    QTest::addColumn<bool>("leaderKnownFirst");
    QTest::addColumn<size_t>("collections");
    QTest::addColumn<size_t>("runsEach"); // runs on capability 1 after each collection
    // Capability 1's spans: more than are held (SchedulerBuilder::kHeldMost),
    // from fewer GC spans than stop holding (kHoldGcSpansMost).
    const size_t held = SchedulerBuilder::kHeldMost / 5 + 100;
    // Capability 0 (every collection's leader) has a block first: the
    // load knows its events are still to come, and holds capability 1's
    // spans from its first GC span on, more of them than it keeps, which
    // then go in whole and are split in place once the leader's block has
    // come.
    QTest::newRow("leader's capability known first") << true << held << size_t(4);
    // Capability 0 is not known until its block: capability 1's GC spans
    // are taken for collections without a record, and split in place
    // once the records come.
    QTest::newRow("leader's capability unknown") << false << held << size_t(4);
    // So many GC spans that the load stops holding spans part way.
    QTest::newRow("more GC spans than are held for")
        << true << SchedulerBuilder::kHoldGcSpansMost / 2 + 100 << size_t(1);
}

// Issue #26: a capability's spans are held from a GC_START until that
// span's collection is known, then split as they go into the timeline (no
// rewrite of the timeline at the end). However long the leader's block
// keeps them waiting, the timelines are what gcSpansSplitByTheirCollection
// says, and a log read as it grows gives the same index at each publish as
// that much of it indexed at once.
void TestIndex::gcSpansHeldUntilTheirLeaderComes()
{
    QFETCH(bool, leaderKnownFirst);
    QFETCH(size_t, collections);
    QFETCH(size_t, runsEach);
    const auto at = [](size_t k) { return uint64_t(1000 + 1000 * k); };
    std::deque<OwnedEvent> first, leader;
    for (size_t k = 0; k < collections; ++k) {
        const uint64_t t = at(k);
        using N = std::initializer_list<uint64_t>;
        first.emplace_back(tag::GcStart, t);
        first.emplace_back(tag::GcWork, t + 100);
        first.emplace_back(tag::GcDone, t + 300);
        first.emplace_back(tag::GcEnd, t + 500);
        for (size_t r = 0; r < runsEach; ++r) {
            first.emplace_back(tag::RunThread, t + 600 + 100 * r, N{3});
            first.emplace_back(tag::StopThread, t + 650 + 100 * r, N{3, 3, 0});
        }
        leader.emplace_back(tag::GcStart, t + 200);
        leader.emplace_back(tag::GcEnd, t + 400);
        leader.emplace_back(tag::GcStatsGhc, t + 401, N{0, 0, 1000, 10, 20, 2, 600, 1000, 300});
    }
    LogBuilder b;
    if (leaderKnownFirst)
        b.block(0, {ev(tag::RunThread, 10, {2}), ev(tag::StopThread, 20, {2, 3, 0})});
    b.block(1, first);
    b.block(0, leader);
    const std::vector<uint8_t> bytes = b.bytes();
    const auto ix = indexOfBytes(bytes);
    QVERIFY(ix->scan.diagnostics.empty());
    QCOMPARE(ix->collections.size(), collections);
    std::vector<Expected> want1, want0;
    if (leaderKnownFirst)
        want0.push_back({10, 20, SpanKind::Running, 2, 3});
    for (size_t k = 0; k < collections; ++k) {
        const uint64_t t = at(k);
        for (const Expected& e : std::initializer_list<Expected>{{t, t + 100, SpanKind::GcSync, 0, 0},
                                                                 {t + 100, t + 200, SpanKind::GcSync, 0, 0},
                                                                 {t + 200, t + 300, SpanKind::GcWork, 0, 0},
                                                                 {t + 300, t + 400, SpanKind::GcDone, 0, 0},
                                                                 {t + 400, t + 500, SpanKind::GcParked, 0, 0}})
            want1.push_back(e);
        for (size_t r = 0; r < runsEach; ++r)
            want1.push_back({t + 600 + 100 * r, t + 650 + 100 * r, SpanKind::Running, 3, 3});
        want0.push_back({t + 200, t + 400, SpanKind::Gc, 0, 0});
    }
    compareSpans(ix->caps[1].timeline, want1);
    compareSpans(ix->caps[0].timeline, want0);
    // Read as it grows: each publish shows the held spans (provisionally,
    // whole) as one made at once does.
    IndexBuilder growing;
    const size_t pieces = 5;
    for (size_t i = 0, pos = 0; i < pieces; ++i) {
        const size_t n = i + 1 == pieces ? bytes.size() - pos : bytes.size() / pieces;
        growing.feed({bytes.data() + pos, n});
        pos += n;
        if (i + 1 == pieces)
            break;
        const LogIndex& now = growing.publish(false);
        IndexBuilder fresh;
        fresh.feed({bytes.data(), pos});
        compareIndexes(now, fresh.publish(false));
        if (QTest::currentTestFailed())
            QFAIL(qPrintable(QStringLiteral("after %1 of %2 bytes").arg(pos).arg(bytes.size())));
    }
    compareIndexes(growing.publish(true), *ix);
}

void TestIndex::capabilitiesCreatedAndDeletedMidRun()
{
    LogBuilder b;
    b.block(kNoCap, {ev(tag::CapCreate, 1, {0}), ev(tag::CapCreate, 50, {1})});
    b.block(0, {ev(tag::RunThread, 10, {1}), ev(tag::StopThread, 20, {1, 3, 0})});
    b.block(1, {ev(tag::RunThread, 60, {2}), ev(tag::StopThread, 70, {2, 3, 0})});
    b.block(kNoCap, {ev(tag::CapDelete, 80, {1})});
    const auto ix = indexOfBytes(b.bytes());
    QCOMPARE(ix->caps.size(), size_t(2));
    QCOMPARE(ix->caps[1].created, uint64_t(50));
    QCOMPARE(ix->caps[1].deleted, uint64_t(80));
    QCOMPARE(ix->caps[0].deleted, kNoTime);
    QCOMPARE(ix->eventsWithoutCap, uint64_t(3));
    QCOMPARE(ix->caps[1].timeline.size(), size_t(1));
}

void TestIndex::migrationAcrossCapabilities()
{
    LogBuilder b;
    b.block(0, {ev(tag::RunThread, 10, {7}), ev(tag::StopThread, 20, {7, 3, 0}),
                ev(tag::MigrateThread, 21, {7, 1})});
    b.block(1, {ev(tag::RunThread, 30, {7}), ev(tag::StopThread, 45, {7, 5, 0})});
    const auto ix = indexOfBytes(b.bytes());
    const ThreadInfo& t = ix->threads.at(7);
    QCOMPARE(t.migrations, 1u);
    QCOMPARE(t.runs, 2u);
    QCOMPARE(t.runTime, uint64_t(25));
    QCOMPARE(t.firstRun, uint64_t(10));
    QCOMPARE(t.finished, uint64_t(45));
    QCOMPARE(ix->caps[1].timeline[0].thread(), 7u);
}

// GHC flushes capability buffers whenever they fill, so a later block can
// hold earlier times than the one before it in the file.
void TestIndex::outOfOrderBlocks()
{
    LogBuilder b;
    b.block(1, {ev(tag::GcStart, 100), ev(tag::GcEnd, 130), ev(tag::RunThread, 140, {2}),
                ev(tag::StopThread, 150, {2, 3, 0})});
    b.block(0, {ev(tag::RunThread, 10, {1}), ev(tag::StopThread, 20, {1, 3, 0}),
                ev(tag::GcStart, 105), ev(tag::GcEnd, 125)});
    b.block(1, {ev(tag::GcStart, 300), ev(tag::GcEnd, 310)});
    b.block(0, {ev(tag::GcStart, 302), ev(tag::GcEnd, 320)});
    const auto ix = indexOfBytes(b.bytes());
    QCOMPARE(ix->caps[0].outOfOrder, uint64_t(0));
    QCOMPARE(ix->caps[1].outOfOrder, uint64_t(0));
    QCOMPARE(ix->collections.size(), size_t(2));
    QCOMPARE(ix->collections[0].start, uint64_t(100));
    QCOMPARE(ix->collections[0].end, uint64_t(130));
    QCOMPARE(ix->collections[0].caps, uint16_t(2));
    QCOMPARE(ix->collections[1].start, uint64_t(300));
    QCOMPARE(ix->collections[1].end, uint64_t(320));
    QCOMPARE(computeStats(*ix).gcNs, uint64_t(30 + 20));
}

void TestIndex::longRunIsSplit()
{
    const uint64_t start = 1000, end = start + 10'000'000'000ull; // 10 s
    LogBuilder b;
    b.block(0, {ev(tag::RunThread, start, {3}), ev(tag::StopThread, end, {3, 3, 0})});
    const auto ix = indexOfBytes(b.bytes());
    const CapTimeline& tl = ix->caps[0].timeline;
    QCOMPARE(tl.size(), size_t(3)); // 2^32 ns is about 4.3 s
    QCOMPARE(tl[0].start(), start);
    QCOMPARE(tl[2].end(), end);
    QVERIFY(!tl[0].continued() && tl[1].continued() && tl[2].continued());
    QCOMPARE(tl[2].stop(), uint8_t(3));
    QCOMPARE(tl.totals().runs, uint64_t(1));
    QCOMPARE(tl.totals().running(), end - start);
    QCOMPARE(ix->threads.at(3).runTime, end - start);
}

// Cut a small real log after every event: each prefix loads, keeps every
// complete event, and its index only grows with the cut.
void TestIndex::truncationAtEveryEventBoundary()
{
    const QStringList logs = testdataLogs();
    const QString path = QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/sparks-N2.eventlog");
    const std::vector<uint8_t> bytes = readFile(path);
    QVERIFY(!bytes.empty());
    const Decoded whole = decodeInChunks(bytes);
    const auto full = indexOfBytes(bytes);
    // Event end offsets, from the decoder's own record of the log.
    MemorySource source(bytes);
    class Ends final : public EventSink {
    public:
        void onEvent(const Event& e) override { ends.push_back(e.offset + e.recordSize); }
        std::vector<uint64_t> ends;
    } ends;
    scanLog(source, &ends);
    QVERIFY(ends.ends.size() > 100);
    uint64_t previousSpans = 0, previousEvents = 0;
    const size_t step = std::max<size_t>(1, ends.ends.size() / 400);
    for (size_t i = 0; i < ends.ends.size(); i += step) {
        const std::vector<uint8_t> cut(bytes.begin(), bytes.begin() + ptrdiff_t(ends.ends[i]));
        const auto ix = indexOfBytes(cut);
        QCOMPARE(ix->scan.events, uint64_t(i + 1));
        QVERIFY(ix->scan.truncated);
        QVERIFY(!ix->scan.hasError);
        uint64_t spans = 0;
        for (const Capability& c : ix->caps)
            spans += c.timeline.size();
        QVERIFY(spans + ix->caps.size() >= previousSpans); // open spans close at the cut
        QVERIFY(ix->scan.events > previousEvents);
        previousSpans = spans;
        previousEvents = ix->scan.events;
        const RangeStats st = computeStats(*ix);
        QVERIFY(st.collections <= full->collections.size());
    }
    QCOMPARE(full->scan.events, uint64_t(whole.events.size()));
}

void TestIndex::lodAggregatesHonestly()
{
    const QString path = QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/threads-N2.eventlog");
    const auto ix = indexOfBytes(readFile(path));
    QVERIFY(ix->caps.size() >= 2);
    const uint64_t end = ix->lastTime;
    for (const Capability& cap : ix->caps) {
        const CapTimeline& tl = cap.timeline;
        QVERIFY(tl.size() > 1000);
        for (uint32_t pixels : {100u, 2000u}) {
            for (uint64_t width : {end, end / 10, end / 1000}) {
                const uint64_t t0 = (end - width) / 2, t1 = t0 + width;
                std::vector<LodItem> items;
                tl.lod(t0, t1, pixels, items);
                QVERIFY(items.size() <= 3 * size_t(pixels));
                // Items are in time order and cover every span in the range
                // exactly once: their counts and times add up.
                SpanTotals sum;
                uint64_t count = 0, previousEnd = 0;
                size_t aggregates = 0;
                for (const LodItem& it : items) {
                    QVERIFY(it.start >= previousEnd);
                    previousEnd = it.end;
                    const size_t from = tl.firstEndingAfter(t0) + count;
                    count += it.count;
                    if (it.aggregate) {
                        QVERIFY(it.count >= 2);
                        QVERIFY(it.end - it.start <= (t1 - t0) / pixels + 2);
                        sum += it.totals;
                        // Each aggregate's own totals: its spans' (one after
                        // another, whichever way they were summed).
                        SpanTotals own;
                        for (size_t k = from; k < from + it.count; ++k) {
                            own.time[size_t(tl[k].kind())] += tl[k].length();
                            own.runs += tl[k].kind() == SpanKind::Running && !tl[k].continued();
                        }
                        QCOMPARE(it.totals.time, own.time);
                        QCOMPARE(it.totals.runs, own.runs);
                        aggregates += it.count > CapTimeline::kBlock / 2;
                    } else {
                        const uint64_t a = std::max(it.start, t0), b = std::min(it.end, t1);
                        if (b > a)
                            sum.time[size_t(it.kind)] += b - a;
                    }
                }
                const size_t first = tl.firstEndingAfter(t0);
                const size_t last = tl.firstStartingAt(t1);
                QCOMPARE(count, uint64_t(last - first));
                const SpanTotals want = bruteTotals(tl, t0, t1);
                QCOMPARE(sum.time, want.time);
                if (pixels == 100 && width == end)
                    QVERIFY(aggregates > 10); // (summed from the blocks' prefix sums)
            }
        }
        // Zoomed far in, every item is exact.
        std::vector<LodItem> items;
        const Span& s = tl[tl.size() / 2];
        tl.lod(s.start(), s.start() + 1000, 2000, items);
        for (const LodItem& it : items)
            QVERIFY(!it.aggregate);
    }
}

// CapTimeline::rewriteFrom (how a seal splits GC spans by their collection)
// gives what appending the new spans to a fresh timeline gives, whether it
// reads the old spans first (their encoding still in its first chunk of
// bytes: 5000 spans) or rewrites in place (past it: 49275 spans), and a
// copy made before (a live snapshot sharing its chunks)
// keeps the old spans.
void TestIndex::rewriteInPlaceEqualsAFreshTimeline()
{
    constexpr size_t kChunk = ChunkedArray<Span>::kChunk;
    for (const size_t n : {size_t(5000), 3 * kChunk + 123}) {
        for (const size_t first : {size_t(0), size_t(1000), kChunk + 5, n - 1}) {
            if (first >= n)
                continue;
            std::vector<Span> old;
            for (uint64_t i = 0; i < n; ++i)
                old.push_back(i % 3 == 2 ? Span(i * 100, 90, SpanKind::GcWork, 0, 0)
                                         : Span(i * 100, 60, SpanKind::Running, uint32_t(i % 7), 3));
            CapTimeline tl;
            for (const Span& sp : old)
                tl.append(sp);
            QCOMPARE(tl.memoryBytes() > 64 * 1024, n > 10000); // (bytes: the first chunk's end)
            // The same after its older chunks went to a file (mapped back:
            // a rewrite reaching them copies them first).
            CapTimeline spilled = tl;
            SpillFile file;
            QVERIFY(spilled.spillTo(file));
            QCOMPARE(spilled.mappedBytes() > 0, n > 10000);
            const CapTimeline snapshot = tl;
            // Each GC span in three: waiting, the collection, parked.
            const auto split = [](const Span& sp, const auto& put) {
                if (sp.kind() != SpanKind::GcWork) {
                    put(sp);
                    return;
                }
                put(Span(sp.start(), 10, SpanKind::GcSync, 0, 0));
                put(Span(sp.start() + 10, 50, SpanKind::GcWork, 0, 0));
                put(Span(sp.start() + 60, 30, SpanKind::GcParked, 0, 0));
            };
            CapTimeline fresh;
            for (size_t i = 0; i < n; ++i) {
                if (i < first)
                    fresh.append(old[i]);
                else
                    split(old[i], [&](const Span& sp) { fresh.append(sp); });
            }
            tl.rewriteFrom(first, split);
            spilled.rewriteFrom(first, split, &file); // (the chunks it rewrote go to the file as it goes)
            const QString where = QStringLiteral("n %1, from %2").arg(n).arg(first);
            QVERIFY2(spilled.size() == fresh.size(), qPrintable(where));
            if (n > 10000 && first < kChunk)
                QVERIFY2(spilled.mappedBytes() >= 2 * 64 * 1024, qPrintable(where)); // (rewritten and moved out again)
            for (size_t i = 0; i < spilled.size(); ++i)
                QVERIFY2(spilled[i].start() == fresh[i].start() && spilled[i].length() == fresh[i].length()
                             && spilled[i].kind() == fresh[i].kind(),
                         qPrintable(where + QStringLiteral(", spilled span %1").arg(i)));
            QVERIFY2(tl.size() == fresh.size(), qPrintable(where));
            for (size_t i = 0; i < tl.size(); ++i) {
                const Span& a = tl[i];
                const Span& b = fresh[i];
                QVERIFY2(a.start() == b.start() && a.length() == b.length() && a.kind() == b.kind()
                             && a.thread() == b.thread() && a.stop() == b.stop(),
                         qPrintable(where + QStringLiteral(", span %1").arg(i)));
            }
            QRandomGenerator rng(uint32_t(n + first));
            const uint64_t end = tl.endTime();
            for (int k = 0; k < 200; ++k) {
                const uint64_t a = rng.bounded(quint64(end)), b = a + rng.bounded(quint64(end - a + 1));
                const SpanTotals x = tl.totalsIn(a, b), y = fresh.totalsIn(a, b);
                QVERIFY2(x.time == y.time && x.runs == y.runs, qPrintable(where));
                const size_t i = size_t(rng.bounded(quint64(tl.size() + 1)));
                const SpanTotals p = tl.totalsBeforeIndex(i), q = fresh.totalsBeforeIndex(i);
                QVERIFY2(p.time == q.time && p.runs == q.runs, qPrintable(where));
            }
            QCOMPARE(snapshot.size(), n);
            for (size_t i = 0; i < n; ++i)
                QVERIFY2(snapshot[i].start() == old[i].start() && snapshot[i].kind() == old[i].kind(),
                         qPrintable(where + QStringLiteral(", snapshot span %1").arg(i)));
        }
    }
}

// A live snapshot shares the builder's chunks. The builder appends to a
// shared chunk in place (the snapshot reads only its own size's elements:
// no copy of the chunk), but a write below what a snapshot holds copies it,
// and so does the snapshot's own append (else both would append to one
// chunk).
void TestIndex::aCopysChunksAreAppendedToInPlace()
{
    using Array = ChunkedArray<uint64_t, 6>;
    constexpr size_t kChunk = Array::kChunk;
    Array owner;
    for (uint64_t i = 0; i < kChunk + 10; ++i)
        owner.push_back(i);
    const Array snapshot = owner;
    const uint64_t* shared = snapshot.chunk(1);
    QCOMPARE(owner.chunk(1), shared);
    for (uint64_t i = kChunk + 10; i < kChunk + 20; ++i)
        owner.push_back(i);
    *owner.grow(3) = 1000; // (grow too)
    QCOMPARE(owner.chunk(1), shared); // appended in place
    QCOMPARE(snapshot.size(), kChunk + 10);
    for (uint64_t i = 0; i < kChunk + 10; ++i)
        QCOMPARE(snapshot[i], i);

    // The snapshot's own append copies the chunk: the owner's elements past
    // the snapshot's size stay the owner's.
    Array copy = snapshot;
    copy.push_back(7777);
    QVERIFY(copy.chunk(1) != shared);
    QCOMPARE(copy[kChunk + 10], uint64_t(7777));
    QCOMPARE(owner[kChunk + 10], uint64_t(kChunk + 10));
    QCOMPARE(owner.chunk(1), shared);

    // Written below what a copy holds: copied first, the copy unchanged.
    owner.shrinkTo(kChunk + 5);
    owner.push_back(5555);
    QVERIFY(owner.chunk(1) != shared);
    QCOMPARE(owner[kChunk + 5], uint64_t(5555));
    QCOMPARE(snapshot[kChunk + 5], uint64_t(kChunk + 5));
    QCOMPARE(snapshot.chunk(1), shared);

    // A copy at a larger size than any before: writes below it copy again,
    // those past it do not.
    for (uint64_t i = kChunk + 6; i < kChunk + 12; ++i)
        owner.push_back(i);
    const Array later = owner;
    const uint64_t* own = owner.chunk(1);
    owner.push_back(12);
    QCOMPARE(owner.chunk(1), own);
    owner.shrinkTo(kChunk + 11);
    owner.push_back(11111);
    QVERIFY(owner.chunk(1) != own);
    QCOMPARE(later[kChunk + 11], uint64_t(kChunk + 11));
    QCOMPARE(owner[kChunk + 11], uint64_t(11111));
}

// Chunk c of `a` written to `file` and mapped back in its place (what a
// builder's spill does), with `release` to let its pages go; the mapping,
// or nullptr if the file failed.
template <class Array>
static uint64_t* mapChunkFromFile(SpillFile& file, Array& a, size_t c, void (*release)(const void*, size_t))
{
    const size_t length = std::min(Array::kChunk, a.size() - c * Array::kChunk);
    uint64_t offset = 0;
    if (!file.append(a.chunk(c), length * sizeof(uint64_t), offset))
        return nullptr;
    auto view = file.map(offset, length * sizeof(uint64_t));
    if (!view)
        return nullptr;
    auto* at = static_cast<uint64_t*>(const_cast<void*>(view.get()));
    a.mapChunk(c, std::shared_ptr<uint64_t[]>(std::move(view), at), release, length);
    return at;
}

// A chunk mapped from a file (mapChunk) holds as many elements as were
// mapped: a full chunk, or the last one partly filled, chunk 0 whatever its
// capacity. Reads go to the file's pages, memoryBytes() counts none of the
// chunk and mappedBytes() its elements; an append copies it into memory
// first (the mapping is read-only: a write there would crash), and a copy
// of the array made before keeps reading the mapping. Elements written to
// the file and appended as mapped (appendMapped) read the same way.
void TestIndex::aPartlyFilledChunkIsMappedThenCopiedOnAppend()
{
    using Array = ChunkedArray<uint64_t, 6>;
    constexpr size_t kChunk = Array::kChunk;
    SpillFile file;
    QVERIFY(file.open());
    const auto mapFrom = [&](Array& a, size_t c) {
        return mapChunkFromFile(file, a, c, &SpillFile::releasePages) != nullptr;
    };
    const auto holds = [](const Array& a, size_t n) {
        if (a.size() != n)
            return false;
        for (size_t i = 0; i < n; ++i)
            if (a[i] != i)
                return false;
        return true;
    };

    // Chunk 0 partly filled: 21 elements in a capacity of 32.
    Array a;
    for (uint64_t i = 0; i < 21; ++i)
        a.push_back(i);
    const size_t own = a.memoryBytes();
    QCOMPARE(own, 32 * sizeof(uint64_t));
    QVERIFY(mapFrom(a, 0));
    QVERIFY(a.isMapped(0));
    QCOMPARE(a.mappedLength(0), size_t(21));
    QCOMPARE(a.memoryBytes(), size_t(0));
    QCOMPARE(a.mappedBytes(), 21 * sizeof(uint64_t));
    QVERIFY(holds(a, 21));
    const Array before = a;
    a.push_back(21);
    QVERIFY(!a.isMapped(0));
    QCOMPARE(a.memoryBytes(), own);
    QCOMPARE(a.mappedBytes(), size_t(0));
    QVERIFY(holds(a, 22));
    QVERIFY(before.isMapped(0));
    QVERIFY(holds(before, 21));

    // Chunk 0 filled to its capacity: the append grows it, from the mapping.
    Array b;
    for (uint64_t i = 0; i < 32; ++i)
        b.push_back(i);
    QCOMPARE(b.memoryBytes(), 32 * sizeof(uint64_t));
    QVERIFY(mapFrom(b, 0));
    QCOMPARE(b.memoryBytes(), size_t(0));
    b.push_back(32);
    QVERIFY(!b.isMapped(0));
    QCOMPARE(b.memoryBytes(), Array::grownCapacity(32) * sizeof(uint64_t));
    QCOMPARE(b.mappedBytes(), size_t(0));
    QVERIFY(holds(b, 33));

    // A full chunk and the last one, of 5: both mapped; an append copies
    // only the last.
    Array c;
    for (uint64_t i = 0; i < kChunk + 5; ++i)
        c.push_back(i);
    QVERIFY(mapFrom(c, 0) && mapFrom(c, 1));
    QCOMPARE(c.memoryBytes(), size_t(0));
    QCOMPARE(c.mappedBytes(), (kChunk + 5) * sizeof(uint64_t));
    const Array mapped = c;
    for (uint64_t i = kChunk + 5; i < kChunk + 9; ++i)
        c.push_back(i);
    QVERIFY(c.isMapped(0) && !c.isMapped(1));
    QCOMPARE(c.memoryBytes(), kChunk * sizeof(uint64_t));
    QCOMPARE(c.mappedBytes(), kChunk * sizeof(uint64_t));
    QVERIFY(holds(c, kChunk + 9));
    QVERIFY(holds(mapped, kChunk + 5));
    QVERIFY(mapped.isMapped(1));

    // Appended by writing to the file (appendMapped): a place set aside,
    // filled in two steps, each mapped in turn; nothing written in memory.
    std::vector<uint64_t> values(kChunk + 3);
    std::iota(values.begin(), values.end(), uint64_t(0));
    uint64_t place = 0, second = 0;
    file.reserve(kChunk * sizeof(uint64_t), kChunk * sizeof(uint64_t), place);
    const auto appendFrom = [&](Array& into, size_t chunk, uint64_t at, size_t from, size_t to) {
        if (!file.write(at + from * sizeof(uint64_t), values.data() + chunk * kChunk + from, (to - from) * sizeof(uint64_t)))
            return false;
        auto view = file.map(at, to * sizeof(uint64_t));
        if (!view)
            return false;
        auto* pages = static_cast<uint64_t*>(const_cast<void*>(view.get()));
        into.appendMapped(chunk, std::shared_ptr<uint64_t[]>(std::move(view), pages), to);
        return true;
    };
    Array d;
    QVERIFY(appendFrom(d, 0, place, 0, 10));
    QCOMPARE(d.memoryBytes(), size_t(0));
    QCOMPARE(d.mappedBytes(), 10 * sizeof(uint64_t));
    QVERIFY(holds(d, 10));
    const Array ten = d;
    QVERIFY(appendFrom(d, 0, place, 10, kChunk));
    file.reserve(kChunk * sizeof(uint64_t), kChunk * sizeof(uint64_t), second);
    QVERIFY(appendFrom(d, 1, second, 0, 3));
    QCOMPARE(d.memoryBytes(), size_t(0));
    QCOMPARE(d.mappedBytes(), (kChunk + 3) * sizeof(uint64_t));
    QVERIFY(holds(d, kChunk + 3));
    QVERIFY(holds(ten, 10));
    d.push_back(kChunk + 3); // (copied into memory first)
    QVERIFY(d.isMapped(0) && !d.isMapped(1));
    QVERIFY(holds(d, kChunk + 4));

    // Full chunks mapped stay mapped when the array is cut back into them
    // keeping what follows readable (a timeline's GC span splitting), as
    // long as no copy of the array may read them: nothing is copied into
    // memory until a push writes there.
    Array e;
    for (uint64_t i = 0; i < 2 * kChunk + 5; ++i)
        e.push_back(i);
    QVERIFY(mapFrom(e, 0) && mapFrom(e, 1));
    const size_t inMemory = e.memoryBytes();
    e.truncateKeeping(kChunk + 3);
    QVERIFY(e.isMapped(0) && e.isMapped(1));
    QCOMPARE(e.memoryBytes(), inMemory);
    QCOMPARE(e.rawAt(kChunk + 4), uint64_t(kChunk + 4));
    e.push_back(7); // (into chunk 1: copied first, what follows kept)
    QVERIFY(e.isMapped(0) && !e.isMapped(1));
    QCOMPARE(e[kChunk + 3], uint64_t(7));
    QCOMPARE(e.rawAt(kChunk + 4), uint64_t(kChunk + 4));
}

// The pages of mapped chunks copied into memory for a write are let go
// together (releaseCopied, by the array's owner after a rewrite, or by its
// destructor), adjacent chunks in one call: each call costs every core a
// TLB flush. Until then the mapping is held; reads see the copies.
static std::vector<std::pair<uintptr_t, size_t>> g_released;
static void recordRelease(const void* at, size_t bytes)
{
    g_released.emplace_back(reinterpret_cast<uintptr_t>(at), bytes);
    SpillFile::releasePages(at, bytes);
}

void TestIndex::copiedChunksLetTheirPagesGoTogether()
{
    using Array = ChunkedArray<uint64_t, 6>;
    constexpr size_t kChunk = Array::kChunk;
    SpillFile file;
    QVERIFY(file.open());
    std::vector<uintptr_t> mappedAt;
    const auto mapAll = [&](Array& a) {
        for (size_t c = 0; c * kChunk < a.size(); ++c) {
            const uint64_t* at = mapChunkFromFile(file, a, c, &recordRelease);
            if (!at)
                return false;
            mappedAt.push_back(reinterpret_cast<uintptr_t>(at));
        }
        return true;
    };
    g_released.clear();
    {
        Array a;
        for (uint64_t i = 0; i < 8 * kChunk; ++i)
            a.push_back(i);
        QVERIFY(mapAll(a));
        // (Appended one after the other: one run of pages in the file's
        // mapping.)
        for (size_t c = 1; c < 8; ++c)
            QCOMPARE(mappedAt[c], mappedAt[0] + c * kChunk * sizeof(uint64_t));
        for (size_t c : {5, 0, 3, 1, 2, 4})
            a[c * kChunk + 1] = 1000 + c;
        QVERIFY(g_released.empty());
        for (size_t c = 0; c < 8; ++c) {
            QCOMPARE(a.isMapped(c), c >= 6);
            QCOMPARE(std::as_const(a)[c * kChunk + 1], c < 6 ? 1000 + c : c * kChunk + 1);
            QCOMPARE(std::as_const(a)[c * kChunk + 2], c * kChunk + 2);
        }
        a.releaseCopied();
        QCOMPARE(g_released.size(), size_t(1));
        QCOMPARE(g_released[0].first, mappedAt[0]);
        QCOMPARE(g_released[0].second, 6 * kChunk * sizeof(uint64_t));
        a.releaseCopied(); // (nothing more)
        QCOMPARE(g_released.size(), size_t(1));
        // Chunks 6 and 7 copied too, chunk 4 not again (already in memory):
        // at the end of the array's life, chunks 6 and 7 in one call.
        a[4 * kChunk] = 1;
        a[7 * kChunk] = 1;
        a[6 * kChunk] = 1;
    }
    QCOMPARE(g_released.size(), size_t(2));
    QCOMPARE(g_released[1].first, mappedAt[6]);
    QCOMPARE(g_released[1].second, 2 * kChunk * sizeof(uint64_t));

    // Chunks apart (another chunk's pages between them, still mapped): a
    // call each, none reaching into the pages between.
    g_released.clear();
    mappedAt.clear();
    using Wide = ChunkedArray<uint64_t, 10>; // (8 KB chunks: two pages each)
    constexpr size_t kWide = Wide::kChunk;
    Wide b;
    for (uint64_t i = 0; i < 3 * kWide; ++i)
        b.push_back(i);
    for (size_t c = 0; c < 3; ++c) {
        const uint64_t* at = mapChunkFromFile(file, b, c, &recordRelease);
        QVERIFY(at != nullptr);
        mappedAt.push_back(reinterpret_cast<uintptr_t>(at));
    }
    b[2 * kWide + 5] = 1;
    b[5] = 1;
    b.releaseCopied();
    QVERIFY(b.isMapped(1));
    QCOMPARE(std::as_const(b)[kWide + 5], uint64_t(kWide + 5));
    QCOMPARE(g_released.size(), size_t(2));
    QCOMPARE(g_released[0], std::make_pair(mappedAt[0], kWide * sizeof(uint64_t)));
    QCOMPARE(g_released[1], std::make_pair(mappedAt[2], kWide * sizeof(uint64_t)));
}

// The memory of large chunks let go is kept (up to ChunkPool::kMostKept)
// and the next chunks of that size are made in it, not mapped afresh.
void TestIndex::freedChunksAreKeptForTheNext()
{
    using Array = ChunkedArray<uint64_t, 14>; // (128 KiB chunks: the pool's least)
    constexpr size_t kChunk = Array::kChunk, kBytes = kChunk * sizeof(uint64_t);
    static_assert(kBytes == ChunkPool::kLeast);
    ChunkPool::releaseAll();
    QCOMPARE(ChunkPool::keptBytes(), size_t(0));
    const auto fill = [](Array& a, size_t n, uint64_t base) {
        for (uint64_t i = 0; i < n; ++i)
            a.push_back(base + i);
    };
    const auto chunksOf = [](const Array& a) {
        std::set<const uint64_t*> at;
        for (size_t c = 0; c < a.chunkCount(); ++c)
            at.insert(a.chunk(c));
        return at;
    };
    std::set<const uint64_t*> first;
    {
        Array a;
        fill(a, 4 * kChunk + 5, 0); // (five chunks, the first grown to full)
        first = chunksOf(a);
        QCOMPARE(first.size(), size_t(5));
        Array copy = a; // (the chunks shared: kept only when both let go)
        a = Array();
        QCOMPARE(ChunkPool::keptBytes(), size_t(0));
        QCOMPARE(std::as_const(copy)[4 * kChunk + 4], uint64_t(4 * kChunk + 4));
    }
    QCOMPARE(ChunkPool::keptBytes(), 5 * kBytes);
#ifdef HECSCOPE_ASAN
    // (Kept memory is poisoned: a use of a chunk let go is still reported.)
    for (const uint64_t* at : first)
        QVERIFY(__asan_address_is_poisoned(at + kChunk / 2));
#endif
    {
        Array b;
        fill(b, 3 * kChunk, 7);
        // (The first chunk grows from small ones, the last made in kept memory.)
        const std::set<const uint64_t*> second = chunksOf(b);
        QCOMPARE(second.size(), size_t(3));
        for (const uint64_t* at : second)
            QVERIFY(first.count(at));
        QCOMPARE(ChunkPool::keptBytes(), 2 * kBytes);
        for (size_t i = 0; i < b.size(); i += 4099)
            QCOMPARE(std::as_const(b)[i], uint64_t(7 + i));
    }
    QCOMPARE(ChunkPool::keptBytes(), 5 * kBytes);
    // Smaller chunks are not kept.
    {
        ChunkedArray<uint64_t, 13> small;
        for (uint64_t i = 0; i < 3 * ChunkedArray<uint64_t, 13>::kChunk; ++i)
            small.push_back(i);
    }
    QCOMPARE(ChunkPool::keptBytes(), 5 * kBytes);
    // At most kMostKept, the rest freed.
    {
        Array c;
        fill(c, (ChunkPool::kMostKept / kBytes + 8) * kChunk, 0);
    }
    QCOMPARE(ChunkPool::keptBytes(), ChunkPool::kMostKept);
    ChunkPool::releaseAll();
    QCOMPARE(ChunkPool::keptBytes(), size_t(0));
}

// Every field of every collection reads back as packed (CollectionList),
// whatever its values: kNoTime, none of a capability, generation -1, times
// and byte counts up to 2^64 - 1, starts out of order; by index, through
// iterators from anywhere, and the first starting from a time.
void TestIndex::packedCollectionsReadBackExactly()
{
    QRandomGenerator rng(15);
    const auto value = [&]() -> uint64_t {
        switch (rng.bounded(5)) {
        case 0: return 0;
        case 1: return rng.bounded(1000u);
        case 2: return UINT64_MAX - rng.bounded(3u);
        default: return rng.generate64() >> rng.bounded(64u);
        }
    };
    std::vector<Collection> all;
    uint64_t start = 0;
    for (int i = 0; i < 5000; ++i) {
        Collection c;
        start += rng.bounded(4) == 0 ? 0 : rng.bounded(1u << 20);
        c.start = rng.bounded(50) == 0 ? value() : start; // (now and then out of order)
        c.end = rng.bounded(10) == 0 ? value() : c.start + rng.bounded(100000u);
        c.leaderStart = rng.bounded(10) == 0 ? value() : c.start;
        c.leaderEnd = rng.bounded(10) == 0 ? value() : c.end;
        c.request = rng.bounded(3) == 0 ? kNoTime : value();
        c.sync = rng.bounded(3) == 0 ? kNoTime : value();
        c.copied = value(), c.slop = value(), c.fragmentation = value();
        c.parMaxCopied = value(), c.parTotCopied = value(), c.parBalancedCopied = value();
        c.generation = int(rng.bounded(4u)) - 1;
        c.parThreads = rng.bounded(2) ? UINT32_MAX : rng.bounded(64u);
        c.leaderCap = rng.bounded(3) == 0 ? UINT16_MAX : uint16_t(rng.bounded(65536u));
        c.requestCap = rng.bounded(3) == 0 ? UINT16_MAX : uint16_t(rng.bounded(65536u));
        c.caps = uint16_t(rng.bounded(65536u));
        c.parallelRequest = rng.bounded(2);
        c.hasStats = rng.bounded(2);
        c.hasBalanced = rng.bounded(2);
        all.push_back(c);
    }
    const auto same = [](const Collection& a, const Collection& b) {
        return a.start == b.start && a.end == b.end && a.leaderStart == b.leaderStart && a.leaderEnd == b.leaderEnd
            && a.request == b.request && a.sync == b.sync && a.copied == b.copied && a.slop == b.slop
            && a.fragmentation == b.fragmentation && a.parMaxCopied == b.parMaxCopied
            && a.parTotCopied == b.parTotCopied && a.parBalancedCopied == b.parBalancedCopied
            && a.generation == b.generation && a.parThreads == b.parThreads && a.leaderCap == b.leaderCap
            && a.requestCap == b.requestCap && a.caps == b.caps && a.parallelRequest == b.parallelRequest
            && a.hasStats == b.hasStats && a.hasBalanced == b.hasBalanced;
    };
    const CollectionList list(all);
    QCOMPARE(list.size(), all.size());
    QCOMPARE(list.maxGeneration(), 2);
    for (size_t i = all.size(); i-- > 0;)
        QVERIFY2(same(list[i], all[i]), qPrintable(QString::number(i)));
    size_t i = 0;
    for (const Collection& c : list)
        QVERIFY2(same(c, all[i++]), qPrintable(QString::number(i)));
    QCOMPARE(i, all.size());
    for (const size_t from : {size_t(0), size_t(15), size_t(16), size_t(17), all.size() - 1, all.size()}) {
        size_t j = from;
        for (auto it = list.at(from); it != list.end(); ++it, ++j)
            QVERIFY2(same(*it, all[j]), qPrintable(QStringLiteral("from %1: %2").arg(from).arg(j)));
        QCOMPARE(j, all.size());
    }
    QVERIFY(list.toVector().size() == all.size());
    // In order of start, as CollectionsBuilder makes them: the first
    // starting at or after a time is the lower bound of the starts.
    std::vector<Collection> sorted;
    for (const Collection& c : all)
        if (c.start < (uint64_t(1) << 40))
            sorted.push_back(c);
    std::stable_sort(sorted.begin(), sorted.end(), [](const Collection& a, const Collection& b) { return a.start < b.start; });
    const CollectionList bySt(sorted);
    for (int k = 0; k < 500; ++k) {
        const uint64_t t = k == 0 ? 0 : k == 1 ? UINT64_MAX : sorted[rng.bounded(uint32_t(sorted.size()))].start + rng.bounded(3u) - 1;
        const size_t want = size_t(std::lower_bound(sorted.begin(), sorted.end(), t, [](const Collection& c, uint64_t x) { return c.start < x; }) - sorted.begin());
        QCOMPARE(bySt.firstStartingFrom(t), want);
    }
    QCOMPARE(CollectionList{}.firstStartingFrom(5), size_t(0));
    QCOMPARE(CollectionList{}.maxGeneration(), -1);
}

// Every field of every thread reads back as packed (ThreadTable), whatever
// its values: gaps, kNoTime, times out of order, counters up to 2^32 - 1,
// no creating capability, labels; by id, through an iterator, and its
// label alone. (The labels are a real ThreadsBuilder's: a log with
// THREAD_LABEL events, which the builder interns.)
void TestIndex::packedThreadsReadBackExactly()
{
    QRandomGenerator rng(28);
    const auto time = [&]() -> uint64_t {
        switch (rng.bounded(5)) {
        case 0: return kNoTime;
        case 1: return 0;
        case 2: return UINT64_MAX - 1 - rng.bounded(3u);
        default: return rng.generate64() >> rng.bounded(64u);
        }
    };
    const auto count = [&]() -> uint32_t {
        switch (rng.bounded(4)) {
        case 0: return 0;
        case 1: return 1;
        case 2: return UINT32_MAX - rng.bounded(2u);
        default: return rng.generate() >> rng.bounded(32u);
        }
    };
    // Labels as an index holds them: from a log that sets them.
    LogBuilder b;
    std::deque<OwnedEvent> events;
    for (uint64_t id = 1; id <= 40; id += 3) {
        const QByteArray text = "t" + QByteArray::number(qulonglong(id));
        events.emplace_back(tag::ThreadLabel, 1000 + id, std::initializer_list<uint64_t>{id},
                            std::initializer_list<std::string_view>{std::string_view(text.constData(), size_t(text.size()))});
    }
    b.block(0, events);
    const auto labelled = indexOfBytes(b.bytes());
    std::vector<ThreadInfo> all(3000);
    for (size_t id = 0; id < all.size(); ++id) {
        ThreadInfo& t = all[id];
        if (rng.bounded(5) == 0)
            continue; // a gap
        t.seen = true;
        t.id = uint32_t(id);
        t.created = time(), t.finished = time(), t.firstRun = time(), t.lastStop = time();
        t.runTime = rng.bounded(3) == 0 ? UINT64_MAX : rng.generate64() >> rng.bounded(64u);
        t.runs = count(), t.runnable = count(), t.wakeups = count(), t.migrations = count();
        t.yields = count(), t.heapOverflows = count(), t.stackOverflows = count(), t.foreignCalls = count();
        for (uint32_t& n : t.blocked)
            n = count();
        t.createdOn = rng.bounded(3) == 0 ? UINT16_MAX : uint16_t(rng.bounded(65536u));
        if (const std::optional<ThreadInfo> l = labelled->thread(uint32_t(id % 48)); l && rng.bounded(4) == 0)
            t.label = l->label;
    }
    const auto same = [](const ThreadInfo& a, const ThreadInfo& c) {
        return a.created == c.created && a.finished == c.finished && a.firstRun == c.firstRun
            && a.lastStop == c.lastStop && a.runTime == c.runTime && a.label == c.label && a.id == c.id
            && a.runs == c.runs && a.runnable == c.runnable && a.wakeups == c.wakeups && a.migrations == c.migrations
            && a.yields == c.yields && a.heapOverflows == c.heapOverflows && a.stackOverflows == c.stackOverflows
            && a.foreignCalls == c.foreignCalls && a.blocked == c.blocked && a.createdOn == c.createdOn
            && a.seen == c.seen;
    };
    ThreadTable table;
    table.assign(all);
    QCOMPARE(table.size(), all.size());
    QCOMPARE(table.seenCount(), size_t(std::count_if(all.begin(), all.end(), [](const ThreadInfo& t) { return t.seen; })));
    QVERIFY(!table.labels().empty());
    for (size_t id = all.size(); id-- > 0;) {
        QVERIFY2(same(table[id], all[id]), qPrintable(QString::number(id)));
        QVERIFY2(table.labelOf(id) == all[id].label, qPrintable(QString::number(id)));
    }
    size_t id = 0;
    for (const ThreadInfo& t : table)
        QVERIFY2(same(t, all[id++]), qPrintable(QString::number(id)));
    QCOMPARE(id, all.size());
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, table.at(all.size()));
    // A real log's threads, as its builder published them.
    const auto ix = indexOfBytes(synthesizeThreadsLog(300, 4));
    QCOMPARE(ix->threadCount(), size_t(300));
    QCOMPARE(ix->thread(17)->runs, uint32_t(4));
}

// Every field of every span reads back as appended, whatever its values:
// gaps of none to 2^47 ns, overlaps, the longest lengths, every kind and
// stop, continued spans, any thread. Reads stay right after popBack turns
// encoded blocks back into spans and other spans take their place (the
// readers' caches of decoded blocks), and a copy keeps its spans.
void TestIndex::encodedSpansReadBackExactly()
{
    QRandomGenerator rng(26);
    std::vector<Span> spans;
    uint64_t end = 0;
    const auto randomSpan = [&] {
        uint64_t start = end;
        switch (rng.bounded(6)) {
        case 0: break; // adjacent
        case 1: start += rng.bounded(100u); break;
        case 2: start += rng.generate64() % (uint64_t(1) << 47); break;
        case 3: start -= std::min<uint64_t>(start, rng.bounded(50u)); break; // an overlap
        default: start += rng.bounded(100000u); break;
        }
        start = std::min(start, Span::kMaxStart / 2);
        const uint32_t length = rng.bounded(8) == 0 ? UINT32_MAX - rng.bounded(3u) : rng.bounded(1u << 20);
        const SpanKind kind = SpanKind(rng.bounded(uint32_t(kSpanKinds)));
        const uint8_t stop = rng.bounded(3) == 0 ? 0 : uint8_t(rng.bounded(256u));
        const uint32_t thread = rng.bounded(4) == 0 ? rng.generate() : rng.bounded(5u);
        const Span s(start, length, kind, thread, stop, rng.bounded(5) == 0);
        end = s.end();
        return s;
    };
    const auto same = [](const Span& a, const Span& b) {
        return a.start() == b.start() && a.length() == b.length() && a.kind() == b.kind() && a.stop() == b.stop()
            && a.continued() == b.continued() && a.thread() == b.thread();
    };
    CapTimeline tl;
    for (int i = 0; i < 40000; ++i) {
        spans.push_back(randomSpan());
        tl.append(spans.back());
    }
    QVERIFY(tl.memoryBytes() > 64 * 1024); // past the first chunk of bytes
    const auto check = [&](const CapTimeline& t, const std::vector<Span>& want, const char* what) {
        QVERIFY2(t.size() == want.size(), what);
        // Backwards first: the blocks read last before are read again first.
        for (size_t i = want.size(); i-- > 0;)
            QVERIFY2(same(t[i], want[i]), qPrintable(QStringLiteral("%1: span %2").arg(QLatin1String(what)).arg(i)));
        for (size_t i = 0; i < want.size(); ++i)
            QVERIFY2(same(t[i], want[i]), what);
        QCOMPARE(t.endTime(), want.empty() ? 0 : want.back().end());
    };
    check(tl, spans, "appended");
    const CapTimeline copy = tl;
    const std::vector<Span> copied = spans;
    // Take back spans across several encoded blocks, reading each first,
    // then append others in their place.
    for (int round = 0; round < 3; ++round) {
        for (int k = 0; k < 150 + 37 * round; ++k) {
            QVERIFY(same(tl[spans.size() - 1], spans.back()));
            tl.popBack();
            spans.pop_back();
        }
        end = spans.back().end();
        for (int k = 0; k < 100; ++k) {
            spans.push_back(randomSpan());
            tl.append(spans.back());
        }
        check(tl, spans, "popped and appended");
    }
    check(copy, copied, "the copy");
    CapTimeline moved = std::move(tl);
    check(moved, spans, "moved");
}

// A view as wide as time itself (a damaged log, or a user zoomed all the
// way out): pixel edges computed in doubles must stay inside the range.
void TestIndex::lodOverTheWholeTimeAxis()
{
    CapTimeline tl;
    for (uint64_t i = 0; i < 1000; ++i)
        tl.append(Span(Span::kMaxStart - 100000 + i * 50, 20, SpanKind::Running, uint32_t(i), 3));
    for (uint32_t pixels : {1u, 97u, 2000u}) {
        std::vector<LodItem> items;
        tl.lod(0, UINT64_MAX, pixels, items);
        QVERIFY(!items.empty());
        uint64_t count = 0;
        for (const LodItem& it : items)
            count += it.count;
        QCOMPARE(count, uint64_t(1000));
        QVERIFY(items.size() <= 3 * size_t(pixels));
    }
}

QTEST_GUILESS_MAIN(TestIndex)
