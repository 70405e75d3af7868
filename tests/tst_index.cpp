// The index: capability timelines, threads, collections and statistics, on
// logs written by the project's encoder for each state transition and edge
// case, and on real GHC logs checked against brute-force recomputation.
#include "core/detail/detailstore.h"
#include "core/detail/threaddetail.h"
#include "core/threads/threadstats.h"
#include "testsupport.h"
#include "threadwalk.h"

#include "core/io/bytesource.h"
#include "core/io/spillfile.h"
#include "core/format/encoder.h"
#include "core/format/eventtags.h"
#include "core/report/info.h"
#include "core/load/indexbuilder.h"
#include "core/synth/synthetic.h"
#include "core/load/loader.h"
#include "core/index/logindex.h"
#include "core/stats/stats.h"

#include <memory>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonArray>
#include <QRandomGenerator>
#include <QTest>

#include <algorithm>
#include <csignal>
#include <cstring>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <array>
#include <bit>
#include <thread>
#include <map>
#include <numeric>
#include <optional>

using namespace hecscope;
using namespace hecscope::test;

namespace {

// Writes events into blocks of one capability each, in the order given.
// With every thread's segments kept in memory (what the read-back is compared with).
std::unique_ptr<LogIndex> loadKept(const std::vector<uint8_t>& bytes)
{
    MemorySource source(bytes);
    return loadIndex(source, bytes.size(), nullptr, KeepInMemory{true}).index;
}

OwnedEvent ev(uint16_t tag, uint64_t t, std::initializer_list<uint64_t> n = {},
              std::initializer_list<std::string_view> s = {})
{
    return OwnedEvent(tag, t, n, s);
}

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

// Time per kind of the spans clipped to [t0, t1), the slow way.
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

// Everything the index holds that a view reads, compared field by field.

} // namespace

class TestIndex : public QObject {
    Q_OBJECT
private slots:
    void threadStatesAndGcPhases();
    void identicalTimestamps();
    void threadRunningAtEndOfLog();
    void gcWithoutRequestOrPhases();
    void gcSpansSplitByTheirCollection();
    void rewriteInPlaceEqualsAFreshTimeline();
    void encodedSpansReadBackExactly();
    void capabilitiesCreatedAndDeletedMidRun();
    void migrationAcrossCapabilities();
    void outOfOrderBlocks();
    void longRunIsSplit();
    void truncationAtEveryEventBoundary();
    void lodAggregatesHonestly();
    void lodOverTheWholeTimeAxis();
    void realLogsAgreeWithBruteForce_data();
    void realLogsAgreeWithBruteForce();
    void sparkCountersMatchSparkEvents();
    void instantsAreTheLogsEvents_data();
    void instantsAreTheLogsEvents();
    void changedFileIsToldNotRead();
    void threadSegmentsReadBack_data();
    void threadSegmentsReadBack();
    void threadSegmentsReadBackEdgeCases();
    void threadSegmentsFromAChangedFile();
    void threadEventsSettledAsTheLoadGoes_data() { threadSegmentsReadBack_data(); }
    void threadEventsSettledAsTheLoadGoes();
    void threadCountsThatWaitForTheirEntry_data();
    void threadCountsThatWaitForTheirEntry();
    void aLateCapabilityAfterSettlingReadsTheLogAgain();
    void manyShortThreadsAreNotSettled();
    void declinedEventsGoToSortedRuns();
    void runsThatCannotBeWrittenOrReadLoseNothing();
    void threadsOfRunsBinnedAsMerged();
    void checkpointEntriesAreMappedFromAFile();
    void settledSegmentsSpillToAFile();
    void aSpillFileReadsBackWhatItWrote();
    void aSpillFileMapsWhatItWrote();
    void aLiveSessionsSpilledSegmentsAreMappedNotCopied();
    void capabilitySpansSpillToAFile();
    void aSpillFileThatFillsUpKeepsTheRestInMemory();
    void aSpillFileThatCannotBeReadReadsTheLogAgain();
    void detailStoreServesSeveralThreads();
    void growingLogExtendsTheIndex_data();
    void growingLogExtendsTheIndex();
    void infoJsonGolden_data();
    void infoJsonGolden();
    void keptTotalsGiveBackWhatWasKept();
};

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
                for (const LodItem& it : items) {
                    QVERIFY(it.start >= previousEnd);
                    previousEnd = it.end;
                    count += it.count;
                    if (it.aggregate) {
                        QVERIFY(it.count >= 2);
                        QVERIFY(it.end - it.start <= (t1 - t0) / pixels + 2);
                        sum += it.totals;
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

void TestIndex::realLogsAgreeWithBruteForce_data()
{
    QTest::addColumn<QString>("log");
    QStringList logs = testdataLogs() + conformanceLogs(QStringLiteral("ghc-events"));
    for (const QString& log : logs)
        QTest::newRow(qPrintable(QFileInfo(log).fileName())) << log;
}

// Range totals from the prefix sums equal summing the clipped spans, for
// random ranges of real logs; collections are disjoint and in order; every
// GC_STATS_GHC found a collection.
void TestIndex::realLogsAgreeWithBruteForce()
{
    QFETCH(QString, log);
    const auto ix = indexOfBytes(readFile(log));
    QRandomGenerator rng(uint32_t(qHash(log)));
    const uint64_t end = ix->lastTime + 1;
    for (const Capability& cap : ix->caps) {
        QCOMPARE(cap.outOfOrder, uint64_t(0));
        for (int i = 0; i < 20; ++i) {
            uint64_t a = rng.generate64() % end, b = rng.generate64() % end;
            if (a > b)
                std::swap(a, b);
            const SpanTotals fast = cap.timeline.totalsIn(a, b);
            const SpanTotals slow = bruteTotals(cap.timeline, a, b);
            QCOMPARE(fast.time, slow.time);
            QCOMPARE(fast.runs, slow.runs);
        }
        const SpanTotals all = bruteTotals(cap.timeline, 0, UINT64_MAX);
        QCOMPARE(cap.timeline.totals().time, all.time);
    }
    // Each thread's runs, found through the block masks, are exactly its
    // spans, and add up to its run time.
    for (size_t id = 0; id < ix->threads.size(); ++id) {
        const ThreadInfo* t = ix->thread(uint32_t(id));
        if (!t)
            continue;
        uint64_t time = 0, runs = 0, brute = 0;
        for (const Capability& cap : ix->caps) {
            cap.timeline.forEachRunOf(uint32_t(id), [&](size_t, const Span& s) {
                time += s.length();
                runs += !s.continued();
            });
            for (size_t i = 0; i < cap.timeline.size(); ++i)
                brute += cap.timeline[i].kind() == SpanKind::Running && cap.timeline[i].thread() == id;
        }
        QCOMPARE(time, t->runTime);
        QCOMPARE(runs, uint64_t(t->runs));
        QVERIFY(runs <= brute);
    }
    uint64_t statsEvents = ix->tagCounts[tag::GcStatsGhc];
    uint64_t withStats = 0;
    for (size_t i = 0; i < ix->collections.size(); ++i) {
        const Collection& c = ix->collections[i];
        QVERIFY(c.start <= c.end);
        if (i > 0)
            QVERIFY(ix->collections[i - 1].end < c.start);
        withStats += c.hasStats;
    }
    QCOMPARE(withStats, statsEvents);
    const RangeStats st = computeStats(*ix);
    QCOMPARE(st.collections, uint64_t(ix->collections.size()));
    QVERIFY(st.productivity >= 0 && st.productivity <= 1);
    // Adjacent ranges add up to the whole run, even when the cut falls
    // exactly on a sample or a collection's start.
    std::vector<uint64_t> cuts{end / 3, end / 2};
    if (!ix->collections.empty())
        cuts.push_back(ix->collections[ix->collections.size() / 2].start);
    if (!ix->heapAllocated.empty())
        cuts.push_back(ix->heapAllocated[ix->heapAllocated.size() / 2].time);
    for (uint64_t cut : cuts) {
        const RangeStats a = computeStats(*ix, 0, cut), b = computeStats(*ix, cut, end);
        QCOMPARE(a.collections + b.collections, st.collections);
        QCOMPARE(a.copiedBytes + b.copiedBytes, st.copiedBytes);
        QCOMPARE(a.allocatedBytes + b.allocatedBytes, st.allocatedBytes);
        QCOMPARE(a.sparks.created + b.sparks.created, st.sparks.created);
        QCOMPARE(a.gcNs + b.gcNs, st.gcNs);
    }
}

// With -lf every spark is also an event: the counters GHC keeps per
// capability and the events we count must tell the same story.
void TestIndex::sparkCountersMatchSparkEvents()
{
    const QString path = QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/sparks-lf-N2.eventlog");
    const auto ix = indexOfBytes(readFile(path));
    uint64_t createdEvents = 0;
    for (const Capability& cap : ix->caps)
        createdEvents += cap.sparkEvents[0];
    QVERIFY(createdEvents > 0);
    const RangeStats st = computeStats(*ix);
    QCOMPARE(st.sparks.created, createdEvents);
    // (GHC 9.0.2 counts sparks pruned by GC but writes no SPARK_GC event for
    // them, so GC'd has no event count to compare with.)
    uint64_t fizzled = 0, converted = 0;
    for (const Capability& cap : ix->caps) {
        fizzled += cap.sparkEvents[tag::SparkFizzle - tag::SparkCreate];
        converted += cap.sparkEvents[tag::SparkRun - tag::SparkCreate]
            + cap.sparkEvents[tag::SparkSteal - tag::SparkCreate];
    }
    QCOMPARE(st.sparks.fizzled, fizzled);
    QCOMPARE(st.sparks.converted, converted);

    // Rates at any bucket width add up to the whole run's counts, and the
    // interpolated buckets only hold growth between samples.
    for (size_t buckets : {size_t(7), size_t(1000)}) {
        SparkTotals sum;
        for (const Capability& cap : ix->caps) {
            const uint64_t width = ix->lastTime / buckets + 1;
            const std::vector<SparkTotals> b = sparkBuckets(cap, 0, width, buckets);
            QCOMPARE(b.size(), buckets);
            for (const SparkTotals& t : b)
                sum += t;
        }
        QCOMPARE(sum.created, st.sparks.created);
        QCOMPARE(sum.converted, st.sparks.converted);
        QCOMPARE(sum.fizzled, st.sparks.fizzled);
        QCOMPARE(sum.gcd, st.sparks.gcd);
        QCOMPARE(sum.dud, st.sparks.dud);
    }
}

void TestIndex::instantsAreTheLogsEvents_data()
{
    QTest::addColumn<QString>("log");
    for (const QString& log : testdataLogs() + conformanceLogs(QStringLiteral("ghc-events")))
        QTest::newRow(qPrintable(QFileInfo(log).fileName())) << log;
}

// The instants of each capability are its spark (-lf), thread-creation,
// wake-up, migration and GC-request events, in time order, with the thread
// and capability each names: checked against the decoder's events and a
// walk of RUN/STOP_THREAD of our own (for the thread running at a spark).
void TestIndex::instantsAreTheLogsEvents()
{
    QFETCH(QString, log);
    const std::vector<uint8_t> bytes = readFile(log);
    const auto ix = indexOfBytes(bytes);
    struct Want {
        uint64_t time;
        InstantKind kind;
        uint32_t arg, other;
    };
    class Walk final : public EventSink {
    public:
        void onEvent(const Event& e) override
        {
            if (!e.known || e.cap == kNoCap)
                return;
            if (e.tag == tag::RunThread)
                running[e.cap] = uint32_t(e.n[0]);
            else if (e.tag == tag::StopThread)
                running.erase(e.cap);
            const uint32_t now = running.count(e.cap) ? running[e.cap] : 0;
            std::optional<Want> w;
            switch (e.tag) {
            case tag::SparkCreate: w = Want{e.time, InstantKind::SparkCreate, now, 0}; break;
            case tag::SparkRun: w = Want{e.time, InstantKind::SparkRun, now, 0}; break;
            case tag::SparkFizzle: w = Want{e.time, InstantKind::SparkFizzle, now, 0}; break;
            case tag::SparkSteal: w = Want{e.time, InstantKind::SparkSteal, now, uint32_t(e.n[0])}; break;
            case tag::CreateThread: w = Want{e.time, InstantKind::ThreadCreate, uint32_t(e.n[0]), 0}; break;
            case tag::ThreadWakeup: w = Want{e.time, InstantKind::Wakeup, uint32_t(e.n[0]), uint32_t(e.n[1])}; break;
            case tag::MigrateThread: w = Want{e.time, InstantKind::Migrate, uint32_t(e.n[0]), uint32_t(e.n[1])}; break;
            case tag::RequestSeqGc: w = Want{e.time, InstantKind::GcRequest, now, 0}; break;
            case tag::RequestParGc: w = Want{e.time, InstantKind::GcRequest, now, 1}; break;
            default: break;
            }
            if (w)
                perCap[e.cap].push_back(*w);
        }
        std::map<uint16_t, uint32_t> running;
        std::map<uint16_t, std::vector<Want>> perCap;
    } walk;
    MemorySource source(bytes);
    scanLog(source, &walk);
    // The builder's own account, kept in memory for the comparison.
    IndexBuilder kept;
    kept.keepInstants();
    kept.feed(bytes);
    kept.publish(true);
    const LogIndex& all = kept.index();
    compareIndexes(*ix, all);
    uint64_t total = 0, counted = 0;
    for (uint64_t n : ix->instantCounts)
        counted += n;
    for (auto& [cap, want] : walk.perCap) {
        std::stable_sort(want.begin(), want.end(), [](const Want& a, const Want& b) { return a.time < b.time; });
        QVERIFY(cap < ix->instants.size());
        QCOMPARE(ix->instants[cap].count(), uint64_t(want.size()));
        // Read back from the file, a unit at a time and for the whole run
        // at once, they are the builder's and the walk's.
        CapInstants units;
        for (uint64_t u = 0; u < ix->instants[cap].units(); ++u) {
            const InstantUnit unit = readInstantUnit(source, *ix, cap, u);
            QVERIFY2(unit.error.empty(), unit.error.c_str());
            QCOMPARE(uint64_t(unit.instants.size()), ix->instants[cap].unitCount(u));
            for (size_t i = 0; i < unit.instants.size(); ++i)
                units.append(unit.instants.time(i), unit.instants.kind(i), unit.instants.arg(i), unit.instants.other(i));
        }
        units.sortByTime();
        DetailStore store(std::make_shared<MemorySource>(bytes));
        const ViewInstants whole = viewInstants(store, *ix, cap, 0, UINT64_MAX, true);
        QVERIFY2(whole.error.empty() && whole.missing.empty(), whole.error.c_str());
        QVERIFY(cap < all.keptInstants.size());
        const std::array<const CapInstants*, 3> sources{&all.keptInstants[cap], &units, &whole.instants};
        for (const CapInstants* got : sources) {
            QCOMPARE(got->size(), want.size());
            for (size_t i = 0; i < want.size(); ++i) {
                const QString where = QStringLiteral("cap %1, instant %2").arg(cap).arg(i);
                QVERIFY2(got->time(i) == want[i].time && got->kind(i) == want[i].kind, qPrintable(where));
                QVERIFY2(got->arg(i) == want[i].arg, qPrintable(where));
                QVERIFY2(got->other(i) == std::min<uint32_t>(want[i].other, CapInstants::kFarCap), qPrintable(where));
            }
        }
        total += want.size();
        // A range finds exactly the instants inside it, and the marks
        // bound their number.
        if (want.size() > 4) {
            const uint64_t t0 = want[want.size() / 4].time, t1 = want[want.size() * 3 / 4].time;
            const size_t inside = size_t(std::count_if(want.begin(), want.end(), [&](const Want& w) {
                return w.time >= t0 && w.time < t1;
            }));
            const ViewInstants range = viewInstants(store, *ix, cap, t0, t1, false); // cached by now
            QVERIFY(range.missing.empty());
            QCOMPARE(range.instants.size(), inside);
            if (ix->instants[cap].sorted()) {
                const auto [lo, hi] = ix->instants[cap].countBounds(t0, t1);
                QVERIFY2(lo <= inside && inside <= hi, qPrintable(QStringLiteral("%1 <= %2 <= %3").arg(lo).arg(inside).arg(hi)));
                QVERIFY(hi - lo <= 2 * CapInstantMarks::kMarkEvery);
            }
        }
    }
    QCOMPARE(counted, total);
}

// Detail read back from a file that changed since it was indexed is never
// taken for the log's: an instant's record moved, a time changed, the file
// cut short each give an error naming a byte offset.
void TestIndex::changedFileIsToldNotRead()
{
    const std::vector<uint8_t> bytes = readFile(QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/sparks-lf-N2.eventlog"));
    const auto ix = indexOfBytes(bytes);
    QVERIFY(ix->instants.size() > 1 && ix->instants[1].units() > 1);
    const InstantMark& m = ix->instants[1].mark(size_t(CapInstantMarks::kUnitMarks)); // unit 1's first
    MemorySource same(bytes);
    QVERIFY(readInstantUnit(same, *ix, 1, 1).error.empty());
    std::vector<uint8_t> retimed = bytes;
    retimed[m.offset + 9] ^= 0x01; // the time's lowest byte (big-endian, after the tag)
    MemorySource changed(retimed);
    const InstantUnit a = readInstantUnit(changed, *ix, 1, 1);
    QVERIFY2(a.error.find("changed") != std::string::npos && a.error.find(std::to_string(m.offset)) != std::string::npos,
             a.error.c_str());
    QCOMPARE(a.instants.size(), size_t(0));
    MemorySource cut(std::vector<uint8_t>(bytes.begin(), bytes.begin() + ptrdiff_t(m.offset + 5)));
    const InstantUnit b = readInstantUnit(cut, *ix, 1, 1);
    QVERIFY2(b.error.find("changed") != std::string::npos, b.error.c_str());
    // Through the store as a view asks: the error, no instants.
    DetailStore store(std::make_shared<MemorySource>(retimed));
    const ViewInstants v = viewInstants(store, *ix, 1, m.time, m.time + 1000, true);
    QVERIFY(!v.error.empty());
    QCOMPARE(v.instants.size(), size_t(0));
}

namespace {

void compareFigures(const std::vector<ThreadFigures>& got, const std::vector<ThreadFigures>& want)
{
    QCOMPARE(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i) {
        const ThreadFigures &a = got[i], &b = want[i];
        const QString where = QStringLiteral("thread %1").arg(b.id);
        QVERIFY2(a.id == b.id && a.number == b.number && a.label == b.label && a.created == b.created
                     && a.finished == b.finished,
                 qPrintable(where));
        QVERIFY2(a.time == b.time && a.blocked == b.blocked, qPrintable(where + QStringLiteral(": times")));
        QVERIFY2(a.runs == b.runs && a.migrations == b.migrations && a.wakeups == b.wakeups,
                 qPrintable(where + QStringLiteral(": counts")));
    }
}

// What readThreadSegments promises: the index's own segments of each
// thread (of `only`, if given) clipped to [t0, t1), every field equal.
void compareThreadDetail(const LogIndex& ix, const ThreadDetail& got, uint64_t t0, uint64_t t1,
                         const std::vector<uint32_t>* only = nullptr)
{
    QVERIFY2(got.error.empty(), got.error.c_str());
    const ThreadStates& st = ix.threadStates;
    size_t g = 0;
    for (size_t k = 0; k < st.count(); ++k) {
        if (only && !std::binary_search(only->begin(), only->end(), st.ids[k]))
            continue;
        const SegmentView segs = st.of(k);
        if (segs.empty() || t1 <= t0)
            continue;
        const size_t i0 = ThreadStates::firstEndingAfter(segs, t0);
        size_t i1 = i0;
        while (i1 < segs.size() && segs.timeAt(i1) < t1)
            ++i1;
        if (i1 == i0)
            continue;
        QVERIFY2(g < got.states.count(), qPrintable(QStringLiteral("thread %1 missing").arg(st.ids[k])));
        QCOMPARE(got.states.ids[g], st.ids[k]);
        const SegmentView mine = got.states.of(g);
        QCOMPARE(mine.size(), i1 - i0);
        for (size_t i = i0; i < i1; ++i) {
            const ThreadSegment a = mine[i - i0], b = segs[i];
            const QString where = QStringLiteral("thread %1, segment %2").arg(st.ids[k]).arg(i);
            QVERIFY2(a.time == b.time, qPrintable(where + QStringLiteral(": time %1, index %2").arg(a.time).arg(b.time)));
            QVERIFY2(a.state == b.state, qPrintable(where + QStringLiteral(": state")));
            QVERIFY2(a.cause == b.cause, qPrintable(where + QStringLiteral(": cause")));
            QVERIFY2(a.cap == b.cap, qPrintable(where + QStringLiteral(": cap")));
            QVERIFY2(a.stop == b.stop, qPrintable(where + QStringLiteral(": stop")));
            QVERIFY2(a.info == b.info, qPrintable(where + QStringLiteral(": info")));
            QCOMPARE(got.states.segmentEnd(mine, i - i0), std::min(t1, st.segmentEnd(segs, i)));
        }
        ++g;
    }
    QCOMPARE(g, got.states.count());
}

// The checkpoints against the index's segments and a walk of the file of
// our own: each thread's entries are those its segments call for; each
// stream's crossing is its first thread event at or after the checkpoint,
// with the thread running before it.
void checkThreadCheckpoints(const std::vector<uint8_t>& bytes, const LogIndex& ix, QRandomGenerator& rng)
{
    const ThreadCheckpoints& cp = ix.threadCheckpoints;
    QVERIFY(cp.hasThreadEntries());
    QVERIFY(cp.spacing > 0 && std::has_single_bit(cp.spacing));
    const ThreadStates& st = ix.threadStates;
    QCOMPARE(cp.entryOffsets.size(), st.count() + 1);
    for (const auto& stream : cp.caps)
        QVERIFY(stream.size() <= ThreadCheckpoints::kMaxCheckpoints);
    // Each thread's entries, worked out from its segments: at checkpoint
    // j, the last segment starting before it, when the thread had segments
    // in the interval before j and none of them is a creation, run or stop,
    // or it has none in the interval after j.
    for (size_t k = 0; k < st.count(); ++k) {
        const SegmentView segs = st.of(k);
        std::map<uint64_t, std::vector<ThreadSegment>> byInterval;
        for (const ThreadSegment seg : segs)
            byInterval[seg.time / cp.spacing].push_back(seg);
        std::vector<std::pair<uint64_t, ThreadSegment>> want;
        for (const auto& [interval, inside] : byInterval) {
            const bool synced = std::any_of(inside.begin(), inside.end(), [](const ThreadSegment& x) {
                return x.cause == ThreadCause::Created || x.cause == ThreadCause::Run || x.cause == ThreadCause::Stop;
            });
            if (!synced || !byInterval.count(interval + 1))
                want.emplace_back(interval + 1, inside.back());
        }
        const QString where = QStringLiteral("thread %1").arg(st.ids[k]);
        QVERIFY2(cp.entryOffsets[k + 1] - cp.entryOffsets[k] == want.size(), qPrintable(where));
        for (size_t i = 0; i < want.size(); ++i) {
            const uint64_t e = cp.entryOffsets[k] + i;
            QVERIFY2(cp.entryChecks[e] == want[i].first && cp.entry(e) == want[i].second,
                     qPrintable(where + QStringLiteral(", entry %1").arg(i)));
        }
        // The last entry at or before a checkpoint.
        for (int r = 0; r < 4 && !want.empty(); ++r) {
            const uint64_t j = rng.bounded(quint64(want.back().first + 2));
            const auto it = std::upper_bound(want.begin(), want.end(), j, [](uint64_t x, const auto& w) { return x < w.first; });
            ThreadSegment got;
            uint64_t check = 0;
            QVERIFY(cp.segmentAt(k, j, got, &check) == (it != want.begin()));
            if (it != want.begin())
                QVERIFY((it - 1)->first == check && (it - 1)->second == got);
        }
    }
    class Walk final : public EventSink {
    public:
        explicit Walk(uint64_t spacing) : sp(spacing) {}
        void onEvent(const Event& e) override
        {
            if (!e.known || e.tag == tag::BlockMarker || !isThreadEventTag(e.tag))
                return;
            const uint64_t before = running.count(e.cap) ? running[e.cap] : 0;
            if (e.time <= Span::kMaxStart) {
                auto& v = streams[e.cap];
                while (v.size() <= e.time / sp)
                    v.push_back({e.offset, e.cap == kNoCap ? 0 : before, e.time});
            }
            if (e.cap != kNoCap && e.tag == tag::RunThread)
                running[e.cap] = e.n[0] + 1;
            else if (e.cap != kNoCap && e.tag == tag::StopThread && before == e.n[0] + 1)
                running[e.cap] = 0;
        }
        uint64_t sp;
        std::map<uint16_t, uint64_t> running;
        std::map<uint16_t, std::vector<ThreadCheckpoints::Crossing>> streams;
    } walk(cp.spacing);
    MemorySource source(bytes);
    scanLog(source, &walk);
    for (const auto& [cap, want] : walk.streams) {
        const std::vector<ThreadCheckpoints::Crossing>* got = cp.stream(cap);
        QVERIFY(got);
        QVERIFY2(*got == want, qPrintable(QStringLiteral("capability %1's crossings").arg(cap)));
    }
}

} // namespace

void TestIndex::threadSegmentsReadBack_data()
{
    QTest::addColumn<QString>("log");
    QStringList logs = testdataLogs() + conformanceLogs(QStringLiteral("ghc-events"));
    const QDir summaries(QStringLiteral(HECSCOPE_TESTDATA_DIR "/rts-summary"));
    for (const QString& name : summaries.entryList({QStringLiteral("*.eventlog")}, QDir::Files, QDir::Name))
        logs << summaries.absoluteFilePath(name);
    for (const QString& log : logs)
        QTest::newRow(qPrintable(QFileInfo(log).fileName())) << log;
}

// The segments of any time range read back from the file are the index's
// own, clipped to the range: the whole run, ranges between exact event
// times, ranges starting inside long segments, at and just before
// checkpoints, before the first event and after the last, empty ones, and
// for some threads only.
void TestIndex::threadSegmentsReadBack()
{
    QFETCH(QString, log);
    const std::vector<uint8_t> bytes = readFile(log);
    const auto ix = loadKept(bytes); // what is compared with
    const auto dropped = indexOfBytes(bytes); // what reads back: its long threads' segments are in the file only
    QRandomGenerator rng(uint32_t(qHash(log)));
    checkThreadCheckpoints(bytes, *ix, rng);
    if (QTest::currentTestFailed())
        return;
    const ThreadStates& st = ix->threadStates;
    const ThreadCheckpoints& cp = ix->threadCheckpoints;
    const uint64_t first = ix->firstTime == kNoTime ? 0 : ix->firstTime, last = ix->lastTime;
    std::vector<std::pair<uint64_t, uint64_t>> ranges{{0, UINT64_MAX}, {first, last + 1}, {0, first + (last - first) / 3},
                                                       {(first + last) / 2, (first + last) / 2}, {last + 5, last + 100},
                                                       {(first + last) / 2, (first + last) / 2 + 1}};
    std::vector<uint64_t> times;
    std::vector<std::pair<uint64_t, uint64_t>> longest; // (length, start) of the longest segments
    for (size_t k = 0; k < st.count(); ++k) {
        const SegmentView segs = st.of(k);
        for (size_t i = 0; i < segs.size(); ++i) {
            times.push_back(segs.timeAt(i));
            longest.emplace_back(st.segmentEnd(segs, i) - segs.timeAt(i), segs.timeAt(i));
        }
    }
    std::sort(times.begin(), times.end());
    times.erase(std::unique(times.begin(), times.end()), times.end());
    std::sort(longest.rbegin(), longest.rend());
    if (!times.empty()) {
        for (int r = 0; r < 10; ++r) {
            const uint64_t a = times[rng.bounded(quint64(times.size()))], b = times[rng.bounded(quint64(times.size()))];
            ranges.emplace_back(std::min(a, b), std::max(a, b) + (r % 2)); // exact event times
        }
        for (size_t i = 0; i < std::min<size_t>(4, longest.size()); ++i) {
            const auto [length, start] = longest[i];
            ranges.emplace_back(start + length / 2, start + length / 2 + std::max<uint64_t>(1, length)); // inside a long one
        }
        for (int r = 0; r < 6; ++r) {
            const uint64_t j = rng.bounded(quint64(last / cp.spacing + 1));
            ranges.emplace_back(cp.time(j), cp.time(j) + cp.spacing * (1 + r % 3));
            if (j > 0)
                ranges.emplace_back(cp.time(j) - 1, cp.time(j) + 1);
        }
    }
    for (int r = 0; r < 10 && last > first; ++r) {
        const uint64_t a = first + rng.bounded(quint64(last - first + 1));
        const uint64_t width = rng.bounded(quint64(std::max<uint64_t>(1, (last - first) >> (r % 8))) + 1);
        ranges.emplace_back(a, a + width);
    }
    MemorySource source(bytes);
    size_t segmentsRead = 0;
    for (const auto& [t0, t1] : ranges) {
        const ThreadDetail got = readThreadSegments(source, *dropped, t0, t1);
        compareThreadDetail(*ix, got, t0, t1);
        if (QTest::currentTestFailed())
            QFAIL(qPrintable(QStringLiteral("range [%1, %2)").arg(t0).arg(t1)));
        segmentsRead += got.states.segmentCount();
        // The figures of the range, read back, are the kept segments' own.
        if (t1 > t0) {
            const ViewRange range{t0, t1};
            std::string error;
            compareFigures(threadFiguresIn(&source, *dropped, range, {}, &error), allThreadFigures(*ix, range));
            QVERIFY2(error.empty(), error.c_str());
            if (QTest::currentTestFailed())
                QFAIL(qPrintable(QStringLiteral("figures of [%1, %2)").arg(t0).arg(t1)));
        }
    }
    QVERIFY(st.segmentCount() == 0 || segmentsRead > 0);
    // Whole-run figures from the totals the index keeps.
    compareFigures(allThreadFigures(*dropped, std::nullopt), allThreadFigures(*ix, std::nullopt));
    // The threads with bins keep no segments, the others all theirs.
    const ThreadStates& ds = dropped->threadStates;
    QVERIFY(ds.segmentsInFile);
    for (size_t k = 0; k < st.count(); ++k) {
        QCOMPARE(ds.inFileOnly(k), st.overviews[k].bins > 0);
        QCOMPARE(ds.of(k).size(), ds.inFileOnly(k) ? size_t(0) : st.of(k).size());
        for (size_t i = 0; i < ds.of(k).size(); ++i)
            QVERIFY(ds.of(k)[i] == st.of(k)[i]);
    }
    // Some threads only.
    std::vector<uint32_t> only;
    for (size_t k = 0; k < st.count(); k += 2)
        only.push_back(st.ids[k]);
    const uint64_t a = first + (last - first) / 4, b = first + (last - first) * 3 / 4;
    compareThreadDetail(*ix, readThreadSegments(source, *ix, a, b, &only), a, b, &only);
}

// A log of our own with what real logs rarely show: a thread's events at
// one time on two capabilities (file order decides), a capability whose
// later block begins earlier than its last one ended, events in the
// global block, a thread replaced on its capability without a stop, a
// wake-up and a migration of a runnable thread, and a long gap. Every
// range between interesting times.
void TestIndex::threadSegmentsReadBackEdgeCases()
{
    LogBuilder b;
    b.block(0, {ev(tag::CreateThread, 1000, {1}), ev(tag::RunThread, 1500, {1}), ev(tag::StopThread, 3000, {1, 4, 0}),
                ev(tag::CreateThread, 3000, {2}), ev(tag::RunThread, 3000, {2}), ev(tag::ThreadWakeup, 4100, {1, 1}),
                ev(tag::RunThread, 5000, {3})});
    b.block(1, {ev(tag::RunThread, 2000, {4}), ev(tag::MigrateThread, 3000, {1, 0}), ev(tag::ThreadRunnable, 4100, {1}),
                ev(tag::StopThread, 6000, {4, 5, 0}), ev(tag::RunThread, 9000, {1})});
    b.block(0, {ev(tag::ThreadWakeup, 2500, {2, 0}), ev(tag::StopThread, 6000, {3, 3, 0}), ev(tag::RunThread, 8000, {2})});
    b.block(kNoCap, {ev(tag::CreateThread, 3500, {5}), ev(tag::ThreadRunnable, 7000, {5})});
    b.block(1, {ev(tag::StopThread, 9500, {1, 4, 0}), ev(tag::RunThread, 10000, {5}), ev(tag::StopThread, 20000, {5, 5, 0})});
    b.block(0, {ev(tag::StopThread, 1500000, {2, 3, 0}), ev(tag::RunThread, 1600000, {2}), ev(tag::StopThread, 1700000, {2, 5, 0})});
    const std::vector<uint8_t> bytes = b.bytes();
    const auto ix = loadKept(bytes);
    QVERIFY(!ix->scan.hasError);
    QRandomGenerator rng(7);
    checkThreadCheckpoints(bytes, *ix, rng);
    const ThreadCheckpoints& cp = ix->threadCheckpoints;
    QCOMPARE(cp.spacing, ThreadCheckpoints::kFirstSpacing);
    QVERIFY(cp.global.size() > 1);
    // Thread 2 was replaced by 3 (unknown), and thread 1 stopped on one
    // capability and migrated on another at one time.
    bool unknown = false;
    const SegmentView two = ix->threadStates.of(ix->threadStates.find(2));
    for (const ThreadSegment s : two)
        unknown = unknown || s.state == ThreadState::Unknown;
    QVERIFY(unknown);
    std::vector<uint64_t> times{0, 999, 1000, 1001, 1023, 1024, 1025, 2047, 2048, 2500, 2999, 3000, 3001, 3072, 4096,
                                4100, 5000, 6000, 6144, 7000, 8000, 9000, 9500, 10000, 20000, 1500000, 1600000, 1700000, 1700001};
    MemorySource source(bytes);
    for (const uint64_t t0 : times)
        for (const uint64_t t1 : times) {
            compareThreadDetail(*ix, readThreadSegments(source, *ix, t0, t1), t0, t1);
            if (QTest::currentTestFailed())
                QFAIL(qPrintable(QStringLiteral("range [%1, %2)").arg(t0).arg(t1)));
        }
}

// Thread segments read back from a file that changed since it was indexed
// are never taken for the log's: the record where reading starts or one
// at a checkpoint inside the range retimed, the file cut short, a thread's
// stop status changed each give an error naming a byte offset, and no
// segments.
namespace {

std::unique_ptr<LogIndex> loadWith(const std::vector<uint8_t>& bytes, KeepInMemory keep)
{
    MemorySource source(bytes);
    return loadIndex(source, bytes.size(), nullptr, keep).index;
}

// Two indexes' thread states and checkpoints, every field.
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

} // namespace

// A load walks the thread events for good as it goes (every
// KeepInMemory::settleEvery of them) and lets them go: the index is the one
// a load keeping every event to the end makes, with the segments kept or
// left in the file. Settled every 37 events, so that every log settles often.
// And a load that declines to settle (as one of many short threads does)
// moves the raw events to a file in sorted runs of 50 and merges them: the
// same index again.
void TestIndex::threadEventsSettledAsTheLoadGoes()
{
    QFETCH(QString, log);
    const std::vector<uint8_t> bytes = readFile(log);
    for (const bool keepSegments : {true, false}) {
        const auto settled = loadWith(bytes, KeepInMemory{keepSegments, false, 37, 0});
        const auto raw = loadWith(bytes, KeepInMemory{keepSegments, true});
        compareIndexes(*settled, *raw);
        compareThreadParts(*settled, *raw);
        if (QTest::currentTestFailed())
            QFAIL(keepSegments ? "segments kept" : "segments in the file");
    }
    const auto runs = loadWith(bytes, KeepInMemory{false, false, 37, size_t(1) << 30, 50});
    const auto raw = loadWith(bytes, KeepInMemory{false, true});
    compareIndexes(*runs, *raw);
    compareThreadParts(*runs, *raw);
    if (QTest::currentTestFailed())
        QFAIL("events in sorted runs");
}

void TestIndex::threadCountsThatWaitForTheirEntry_data()
{
    threadSegmentsReadBack_data();
    QTest::newRow("synthesized, 2,000 threads") << QString();
}

// The counts of ThreadsBuilder that wait for their thread's entry (a log of
// many threads) are what counting each event at once gives: at a snapshot
// (which runs the open runs to its time and takes them back) and at the end.
void TestIndex::threadCountsThatWaitForTheirEntry()
{
    QFETCH(QString, log);
    const std::vector<uint8_t> bytes = log.isEmpty() ? synthesizeSchedulerLog(size_t(6) << 20, 4, 11) : readFile(log);
    IndexBuilder waiting, atOnce;
    waiting.deferThreadCountsFrom(0);
    atOnce.deferThreadCountsFrom(SIZE_MAX);
    const auto compare = [](const LogIndex& a, const LogIndex& b) {
        const ThreadsPart &x = a, &y = b;
        QCOMPARE(x.threads.size(), y.threads.size());
        QCOMPARE(x.largeThreads.size(), y.largeThreads.size());
        const auto same = [](const ThreadInfo& p, const ThreadInfo& q) {
            return p.created == q.created && p.finished == q.finished && p.firstRun == q.firstRun
                && p.lastStop == q.lastStop && p.runTime == q.runTime && p.label == q.label && p.id == q.id
                && p.runs == q.runs && p.runnable == q.runnable && p.wakeups == q.wakeups
                && p.migrations == q.migrations && p.yields == q.yields && p.heapOverflows == q.heapOverflows
                && p.stackOverflows == q.stackOverflows && p.foreignCalls == q.foreignCalls && p.blocked == q.blocked
                && p.createdOn == q.createdOn && p.seen == q.seen;
        };
        for (size_t i = 0; i < x.threads.size(); ++i)
            QVERIFY2(same(x.threads[i], y.threads[i]), qPrintable(QStringLiteral("thread %1").arg(i)));
        for (const auto& [id, t] : x.largeThreads)
            QVERIFY2(y.largeThreads.count(id) && same(t, y.largeThreads.at(id)), qPrintable(QStringLiteral("thread %1").arg(id)));
    };
    const size_t half = bytes.size() / 2;
    const std::span<const uint8_t> all(bytes);
    waiting.feed(all.first(half));
    atOnce.feed(all.first(half));
    compare(waiting.publish(false), atOnce.publish(false));
    waiting.feed(all.subspan(half));
    atOnce.feed(all.subspan(half));
    const LogIndex& a = waiting.publish(true);
    const LogIndex& b = atOnce.publish(true);
    compare(a, b);
    if (log.isEmpty())
        QVERIFY2(a.threads.size() >= 2000, qPrintable(QString::number(a.threads.size())));
}

// A capability whose first block comes after events of others later than
// its own: settled before it came, the other threads' events cannot be
// walked again, so the builder says so and the loader reads the log once
// more keeping every event. The index equals one that never settled.
void TestIndex::aLateCapabilityAfterSettlingReadsTheLogAgain()
{
    const std::vector<uint8_t> bytes = lateCapabilityLog();
    IndexBuilder builder;
    builder.settleThreadEventsEvery(8, 0);
    builder.feed(bytes);
    builder.publish(true);
    QVERIFY(builder.threadEventsLost()); // (else this log does not test the fallback)
    const auto again = loadWith(bytes, KeepInMemory{false, false, 8, 0});
    const auto raw = loadWith(bytes, KeepInMemory{false, true});
    compareIndexes(*again, *raw);
    compareThreadParts(*again, *raw);
    QVERIFY(raw->threadStates.segmentCount() > 0);
}

// Settling pays for threads of many events, not for many short-lived ones
// (each settled thread costs its own arrays): a synthesized log of 20,000
// threads of a few runs each declines at its first settle and keeps every
// event; one of 8 threads of 3,000 runs each settles. Both give the index
// of a load that never settles. (The first also once made the checkpoints'
// widening loop forever: an entry per thread is over any budget.)
void TestIndex::manyShortThreadsAreNotSettled()
{
    const std::vector<uint8_t> many = synthesizeThreadsLog(20000, 3);
    const std::vector<uint8_t> few = synthesizeThreadsLog(8, 3000);
    for (const bool manyThreads : {true, false}) {
        const std::vector<uint8_t>& bytes = manyThreads ? many : few;
        IndexBuilder builder;
        builder.settleThreadEventsEvery(4096);
        builder.feed(bytes);
        builder.publish(true);
        QCOMPARE(builder.threadSettlingDeclined(), manyThreads);
        QVERIFY(!builder.threadEventsLost());
        const auto settled = loadWith(bytes, KeepInMemory{false, false, 4096});
        const auto raw = loadWith(bytes, KeepInMemory{false, true});
        compareIndexes(*settled, *raw);
        compareThreadParts(*settled, *raw);
    }
}

// A log of many short threads declines to settle; its raw thread events
// then go to a temporary file in runs sorted by thread and time, so that
// the load's memory does not grow with them, and each seal merges the runs.
// A snapshot half way and the final index equal those of a load that keeps
// every event in memory; so does a load whose capability's first block
// comes late (nothing was walked for good, so nothing is read again).
void TestIndex::declinedEventsGoToSortedRuns()
{
    // (Its capabilities' blocks interleave, as the RTS writes them: the
    // first settle comes early, and declines.)
    const std::vector<uint8_t> bytes = synthesizeSchedulerLog(size_t(8) << 20, 2, 7);
    const size_t half = bytes.size() / 2;
    IndexBuilder runs, keeping;
    runs.settleThreadEventsEvery(4096, 256, 5000);
    keeping.settleThreadEventsEvery(0);
    runs.feed(std::span(bytes).first(half));
    keeping.feed(std::span(bytes).first(half));
    const LogIndex a = runs.publish(false), b = keeping.publish(false);
    QVERIFY(runs.threadSettlingDeclined());
    const uint64_t halfWay = runs.threadEventsInRuns();
    QVERIFY2(halfWay >= 3 * 5000, qPrintable(QString::number(halfWay))); // (several runs and events since)
    QVERIFY(!runs.threadEventsLost());
    // (The snapshot's segments: its bins are cut as a final seal's, the
    // other's grow from snapshot to snapshot.)
    QVERIFY(a.threadStates.ids == b.threadStates.ids);
    QCOMPARE(a.threadStates.segmentCount(), b.threadStates.segmentCount());
    for (size_t k = 0; k < a.threadStates.count(); ++k) {
        const SegmentView sa = a.threadStates.of(k), sb = b.threadStates.of(k);
        QCOMPARE(sa.size(), sb.size());
        for (size_t i = 0; i < sa.size(); ++i)
            QVERIFY(sa[i] == sb[i]);
    }
    QVERIFY(!a.threadCheckpoints.hasThreadEntries()); // (as any snapshot's)
    runs.feed(std::span(bytes).subspan(half));
    keeping.feed(std::span(bytes).subspan(half));
    QVERIFY(runs.publish(true, nullptr));
    QVERIFY(keeping.publish(true, nullptr));
    QVERIFY(runs.threadEventsInRuns() > halfWay);
    QVERIFY(!runs.threadEventsLost());
    compareIndexes(runs.index(), keeping.index());
    compareThreadParts(runs.index(), keeping.index());

    const std::vector<uint8_t> late = lateCapabilityLog();
    IndexBuilder lateRuns;
    lateRuns.settleThreadEventsEvery(8, size_t(1) << 30, 16);
    lateRuns.feed(late);
    QVERIFY(lateRuns.publish(true, nullptr));
    QVERIFY(lateRuns.threadEventsInRuns() > 0);
    QVERIFY(!lateRuns.threadEventsLost());
    const auto raw = loadWith(late, KeepInMemory{false, true});
    compareIndexes(lateRuns.index(), *raw);
    compareThreadParts(lateRuns.index(), *raw);
}

// A load's settled thread segments that fill a chunk go to a temporary
// file as they do: a snapshot taken on the way reads them back, and the
// final seal reads them thread by thread. Both equal what a load that
// keeps every event in memory makes at the same point: the snapshot every
// segment, the final index every part (the segments left in the file).
void TestIndex::settledSegmentsSpillToAFile()
{
    const std::vector<uint8_t> bytes = synthesizeThreadsLog(4, 40000, 2);
    const size_t half = bytes.size() / 2;
    IndexBuilder spilling, keeping;
    spilling.settleThreadEventsEvery(4096);
    keeping.settleThreadEventsEvery(0);
    spilling.feed(std::span(bytes).first(half));
    keeping.feed(std::span(bytes).first(half));
    const LogIndex a = spilling.publish(false), b = keeping.publish(false);
    QVERIFY(spilling.threadSegmentsSpilled() > 0); // (else this log does not test it; counted once the walks are done)
    QVERIFY(!spilling.threadEventsLost());
    QCOMPARE(a.threadStates.segmentCount(), b.threadStates.segmentCount());
    compareThreadParts(a, b);
    spilling.feed(std::span(bytes).subspan(half));
    QVERIFY(spilling.publish(true, nullptr));
    QVERIFY(!spilling.threadEventsLost());
    QVERIFY(spilling.threadSegmentsSpilled() >= bytes.size() / 4); // (3.5 MB of 7.9)
    const auto raw = loadWith(bytes, KeepInMemory{false, true});
    compareIndexes(spilling.index(), *raw);
    compareThreadParts(spilling.index(), *raw);
    QVERIFY(raw->threadStates.segmentsInFile && raw->threadStates.summarised.size() == 4);
    // The snapshot is untouched by what came after it.
    compareThreadParts(a, b);
}

namespace {

// The spill file of this process (unlinked: "/…/hecscope-spill-XXXXXX
// (deleted)" under /proc/self/fd), or -1.
// (Of `size` bytes, if not 0.)
int openSpillFile(uint64_t size = 0)
{
    const QDir fds(QStringLiteral("/proc/self/fd"));
    for (const QString& name : fds.entryList(QDir::NoDotAndDotDot | QDir::System | QDir::Files)) {
        const QString target = QFileInfo(fds.filePath(name)).symLinkTarget();
        struct stat st {};
        if (target.contains(QLatin1String("hecscope-spill-"))
            && (size == 0 || (::fstat(name.toInt(), &st) == 0 && uint64_t(st.st_size) == size)))
            return name.toInt();
    }
    return -1;
}

// Feeds `bytes` and makes the final seal with the process's files limited
// to `limit` bytes (as a full disk would be: a write past it fails with
// EFBIG). False if the limit could not be set.
bool sealUnderFileSizeLimit(IndexBuilder& builder, const std::vector<uint8_t>& bytes, rlim_t limit, bool& sealed)
{
    rlimit old{};
    if (::getrlimit(RLIMIT_FSIZE, &old) != 0)
        return false;
    const auto oldHandler = std::signal(SIGXFSZ, SIG_IGN);
    rlimit small = old;
    small.rlim_cur = limit;
    if (::setrlimit(RLIMIT_FSIZE, &small) != 0)
        return false;
    builder.feed(bytes);
    sealed = builder.publish(true, nullptr);
    ::setrlimit(RLIMIT_FSIZE, &old);
    std::signal(SIGXFSZ, oldHandler);
    return true;
}

} // namespace

// A spill file that cannot take more (here the process's file size limit,
// as a full disk would) keeps what it took: the rest of the segments stay
// in memory and the index is the same.
void TestIndex::aSpillFileThatFillsUpKeepsTheRestInMemory()
{
    const std::vector<uint8_t> bytes = synthesizeThreadsLog(4, 40000, 2);
    IndexBuilder builder;
    builder.settleThreadEventsEvery(4096);
    bool sealed = false;
    QVERIFY(sealUnderFileSizeLimit(builder, bytes, 3 * 128 * 1024, sealed)); // twelve chunks
    QVERIFY(sealed);
    QVERIFY(!builder.threadEventsLost());
    QCOMPARE(builder.threadSegmentsSpilled(), uint64_t(3 * 128 * 1024));
    const auto raw = loadWith(bytes, KeepInMemory{false, true});
    compareIndexes(builder.index(), *raw);
    compareThreadParts(builder.index(), *raw);
}

// A spill file cut short under the builder (as a failing disk would): the
// final seal cannot read a thread back, says the thread events are lost,
// and the loader would read the log again (as
// aLateCapabilityAfterSettlingReadsTheLogAgain shows it does).
void TestIndex::aSpillFileThatCannotBeReadReadsTheLogAgain()
{
    const std::vector<uint8_t> bytes = synthesizeThreadsLog(4, 40000, 2);
    QCOMPARE(openSpillFile(), -1); // (no other builder's left open: the one found below is this one's)
    IndexBuilder builder;
    builder.settleThreadEventsEvery(4096);
    builder.feed(bytes);
    const LogIndex half = builder.publish(false); // (a snapshot reads chunks back: still all there)
    QVERIFY(!builder.threadEventsLost());
    QVERIFY(builder.threadSegmentsSpilled() > 0);
    const int fd = openSpillFile();
    QVERIFY(fd >= 0);
    QVERIFY(::ftruncate(fd, 1000) == 0);
    QVERIFY(!builder.publish(true, nullptr));
    QVERIFY(builder.threadEventsLost());
}

// A run file that fills up keeps the events it could not take in memory
// (the index is the same); one cut short under the builder makes the seal
// say the events are lost, so that the loader reads the log again.
void TestIndex::runsThatCannotBeWrittenOrReadLoseNothing()
{
    const std::vector<uint8_t> bytes = synthesizeSchedulerLog(size_t(8) << 20, 2, 7);
    const auto raw = loadWith(bytes, KeepInMemory{false, true});
    {
        constexpr rlim_t kLimit = 1 << 20; // (about half the runs: 2.25 MB as written)
        IndexBuilder builder;
        builder.settleThreadEventsEvery(4096, 256, 5000);
        bool sealed = false;
        QVERIFY(sealUnderFileSizeLimit(builder, bytes, kLimit, sealed));
        QVERIFY(sealed);
        QVERIFY(!builder.threadEventsLost());
        // Full: the next run (at most 5,000 + 4,095 events, at most 20
        // bytes each as written) did not fit.
        const uint64_t inRuns = builder.threadRunBytes();
        QVERIFY(builder.threadEventsInRuns() > 0);
        QVERIFY2(inRuns <= kLimit && inRuns + 9095 * 20 > kLimit, qPrintable(QString::number(inRuns)));
        compareIndexes(builder.index(), *raw);
        compareThreadParts(builder.index(), *raw);
    }
    IndexBuilder builder;
    builder.settleThreadEventsEvery(4096, 256, 5000);
    builder.feed(bytes);
    const LogIndex snapshot = builder.publish(false); // (the last run written: the seal waits for it)
    QVERIFY(builder.threadEventsInRuns() > 0);
    // (The run file is the one of exactly the runs' size: the capability
    // spans may have a spill file of their own.)
    const int fd = openSpillFile(builder.threadRunBytes());
    QVERIFY(fd >= 0);
    QVERIFY(::ftruncate(fd, 1000) == 0);
    QVERIFY(!builder.publish(true, nullptr));
    QVERIFY(builder.threadEventsLost());
    // (And a load of it would read it again: loadIndex does on threadEventsLost,
    // as aLateCapabilityAfterSettlingReadsTheLogAgain shows.)
}

// A load's final seal over sorted runs bins each thread of a pyramid as
// the merge gives it, and its segments wait for the checkpoint entries in
// a file of their own, not in memory: the index is the one a load keeping
// every event makes. A file that fills up (the process's file size limit,
// as a full disk) keeps its last buffer in memory, and the threads after
// it stay in memory until their entries are made: the same index again.
// Both for many short threads and for a few long ones (whose segments are
// written as they are, not through the buffer; runs forced: such a log
// settles).
void TestIndex::threadsOfRunsBinnedAsMerged()
{
    // Sealed over runs of `runEvents` (settles every `every` events,
    // declined below `perThread` events a thread), under a file size limit
    // if given: the threads binned so, and the index the same as `raw`.
    const auto sealOverRuns = [](const std::vector<uint8_t>& bytes, size_t every, size_t perThread, size_t runEvents,
                                 rlim_t limit, const LogIndex& raw, uint64_t& binned) {
        IndexBuilder builder;
        builder.settleThreadEventsEvery(every, perThread, runEvents);
        bool sealed = false;
        if (limit) {
            QVERIFY(sealUnderFileSizeLimit(builder, bytes, limit, sealed));
        } else {
            builder.feed(bytes);
            sealed = builder.publish(true, nullptr);
        }
        QVERIFY(sealed);
        QVERIFY(builder.threadEventsInRuns() > 0);
        QVERIFY(!builder.threadEventsLost());
        binned = builder.threadsBinnedAsMerged();
        compareIndexes(builder.index(), raw);
        compareThreadParts(builder.index(), raw);
    };
    // `threads` threads of `runs` runs each, every run blocked with an info
    // (as on a black hole), and every 5 runs blocked for 5 s: longer than a
    // packed segment's time offset reaches (far times). The checkpoint
    // entries are the segments in force over those 5 s: blocked, with an
    // info, and some far from their thread's check time.
    const auto farLog = [](uint64_t threads, int runs) {
        std::deque<OwnedEvent> events;
        uint64_t t = 1000;
        using Fields = std::initializer_list<uint64_t>;
        for (uint64_t k = 1; k <= threads; ++k)
            events.emplace_back(tag::CreateThread, t++, Fields{k});
        for (int i = 0; i < runs; ++i) {
            const bool last = i == runs - 1, beforeGap = i % 5 == 4;
            for (uint64_t k = 1; k <= threads; ++k) {
                if (i > 0 && i % 5 == 0)
                    events.emplace_back(tag::ThreadWakeup, t - 5, Fields{k, 0}); // (after the gap)
                events.emplace_back(tag::RunThread, t, Fields{k});
                events.emplace_back(tag::StopThread, t + 10, last ? Fields{k, 5, 0} : Fields{k, 7, 100 + k});
                if (!last && !beforeGap)
                    events.emplace_back(tag::ThreadWakeup, t + 15, Fields{k, 0});
                t += 20;
            }
            if (beforeGap)
                t += 5'000'000'000;
        }
        LogBuilder log;
        log.block(0, events);
        return log.bytes();
    };
    struct Case {
        const char* name;
        std::vector<uint8_t> bytes;
        size_t every, perThread, runEvents;
        uint64_t summarised; // at least
    };
    const Case cases[] = {
        {"long threads", synthesizeThreadsLog(8, 20000, 2), 4096, size_t(1) << 30, 5000, 8},
        {"short threads", synthesizeSchedulerLog(size_t(8) << 20, 2, 7), 4096, 256, 5000, 100},
        {"far times and infos", farLog(3, 100), 37, size_t(1) << 30, 50, 3},
        // (Kept whole: under 64 segments a thread, so their far times and
        // infos are the index's own, not a binned thread's file's.)
        {"far times and infos of short threads", farLog(12, 12), 37, size_t(1) << 30, 50, 0},
    };
    // (1 MB a file: the runs fit, encoded; the binned threads' segments
    // take more: each long thread's about 480 KB.)
    constexpr rlim_t kLimit = 1 << 20;
    for (const Case& c : cases) {
        const auto raw = loadWith(c.bytes, KeepInMemory{false, true});
        const uint64_t summarised = raw->threadStates.summarised.size();
        QVERIFY2(summarised >= c.summarised, c.name);
        uint64_t binned = 0;
        sealOverRuns(c.bytes, c.every, c.perThread, c.runEvents, 0, *raw, binned);
        if (QTest::currentTestFailed())
            QFAIL(c.name);
        QCOMPARE(binned, summarised);
        if (c.bytes.size() < 2 * kLimit)
            continue;
        sealOverRuns(c.bytes, c.every, c.perThread, c.runEvents, kLimit, *raw, binned);
        if (QTest::currentTestFailed())
            QFAIL(qPrintable(QStringLiteral("%1, a file size limit").arg(c.name)));
        QVERIFY2(binned > 0 && binned < summarised, qPrintable(QStringLiteral("%1: %2 of %3").arg(c.name).arg(binned).arg(summarised)));
    }
    // (The far times and infos are there to be binned, and the entries
    // made from them.)
    const auto raw = loadWith(cases[2].bytes, KeepInMemory{true});
    QVERIFY(!raw->threadStates.farTimes.empty() && !raw->threadStates.infos.empty());
    const ThreadCheckpoints& cp = raw->threadCheckpoints;
    bool farEntry = false, infoEntry = false;
    for (size_t k = 0; k < raw->threadStates.count(); ++k) {
        const SegmentView segs = raw->threadStates.of(k);
        for (uint64_t e = cp.entryOffsets[k]; e < cp.entryOffsets[k + 1]; ++e) {
            const ThreadSegment s = cp.entry(e);
            infoEntry = infoEntry || s.info != 0;
            const size_t i = ThreadStates::firstEndingAfter(segs, s.time);
            farEntry = farEntry || segs.packedAt(i).offset == PackedSegment::kFar;
        }
    }
    QVERIFY(farEntry && infoEntry);
}

// A final index's checkpoint entries (their segments and checkpoint
// numbers) are in a temporary file, mapped back chunk by chunk (not counted
// in memory): the same entries as ones made in memory. On a synthesized
// log as loaded, and on one thread of 40,000 wake-ups 1 us apart with a
// checkpoint every 1,024 ns (made here: no capability's stream to widen
// the spacing), an entry each, so that the numbers fill a chunk too.
void TestIndex::checkpointEntriesAreMappedFromAFile()
{
    const auto fullChunks = [](const ThreadCheckpoints& cp) {
        return cp.entrySegments.size() / EntrySegments::kChunk * EntrySegments::kChunk * sizeof(PackedSegment)
            + cp.entryChecks.size() / EntryChecks::kChunk * EntryChecks::kChunk * sizeof(uint16_t);
    };
    // `made` (to a file) against the same made in memory.
    const auto compare = [&](const ThreadCheckpoints& made, const ThreadStates& states, ThreadCheckpoints inMemory) {
        inMemory.makeThreadEntries(states, false);
        QCOMPARE(inMemory.mappedBytes(), size_t(0));
        QCOMPARE(made.mappedBytes(), fullChunks(made));
        QCOMPARE(inMemory.memoryBytes(), made.memoryBytes() + made.mappedBytes());
        QCOMPARE(inMemory.spacing, made.spacing);
        QVERIFY(inMemory.entryOffsets == made.entryOffsets);
        QCOMPARE(inMemory.entrySegments.size(), made.entrySegments.size());
        for (uint64_t e = 0; e < made.entrySegments.size(); ++e)
            QVERIFY2(made.entryChecks[e] == inMemory.entryChecks[e] && made.entry(e) == inMemory.entry(e),
                     qPrintable(QString::number(e)));
    };
    const std::vector<uint8_t> bytes = synthesizeSchedulerLog(size_t(24) << 20, 2, 7);
    const auto ix = loadWith(bytes, KeepInMemory{true});
    const ThreadCheckpoints& loaded = ix->threadCheckpoints;
    QVERIFY2(loaded.entrySegments.size() > 2 * EntrySegments::kChunk,
             qPrintable(QString::number(loaded.entrySegments.size())));
    compare(loaded, ix->threadStates, loaded);
    if (QTest::currentTestFailed())
        return;

    std::deque<OwnedEvent> events;
    events.emplace_back(tag::CreateThread, 1000, std::initializer_list<uint64_t>{1});
    for (uint64_t i = 1; i <= 40000; ++i)
        events.emplace_back(tag::ThreadWakeup, 1000 + i * 1024, std::initializer_list<uint64_t>{1, 0});
    LogBuilder b;
    b.block(0, events);
    const auto one = loadWith(b.bytes(), KeepInMemory{true});
    ThreadCheckpoints made;
    made.makeThreadEntries(one->threadStates, true);
    QCOMPARE(made.spacing, ThreadCheckpoints::kFirstSpacing);
    QVERIFY2(made.entryChecks.size() > EntryChecks::kChunk, qPrintable(QString::number(made.entryChecks.size())));
    compare(made, one->threadStates, ThreadCheckpoints{});
}

void TestIndex::aSpillFileReadsBackWhatItWrote()
{
    SpillFile file;
    QVERIFY2(file.open(), file.error().c_str());
    std::vector<uint32_t> one(100000), two(3);
    std::iota(one.begin(), one.end(), 7u);
    std::iota(two.begin(), two.end(), 1u);
    uint64_t at1 = 1, at2 = 0;
    QVERIFY(file.append(one.data(), one.size() * 4, at1) && file.append(two.data(), two.size() * 4, at2));
    QCOMPARE(at1, uint64_t(0));
    QCOMPARE(at2, uint64_t(400000));
    std::vector<uint32_t> back(one.size());
    QVERIFY(file.read(at2, back.data(), 12) && std::equal(two.begin(), two.end(), back.begin()));
    QVERIFY(file.read(at1, back.data(), 400000) && back == one);
    QVERIFY(!file.read(at2, back.data(), 16)); // past its end
    QCOMPARE(file.size(), uint64_t(400012));
}

// What SpillFile::map gives reads what was written there: in a window
// mapped before the bytes were written (the window reaches past the end),
// in the next window, across two windows; still after the file is gone.
void TestIndex::aSpillFileMapsWhatItWrote()
{
    constexpr size_t kPiece = 64 * 1024;
    const size_t pieces = SpillFile::kWindow / kPiece + 3; // into the second window
    std::vector<std::shared_ptr<const void>> views;
    std::vector<uint64_t> offsets;
    const auto fill = [](size_t i) {
        std::vector<uint32_t> v(kPiece / 4);
        std::iota(v.begin(), v.end(), uint32_t(i * 100000));
        return v;
    };
    {
        SpillFile file;
        QVERIFY2(file.open(), file.error().c_str());
        for (size_t i = 0; i < pieces; ++i) {
            const std::vector<uint32_t> v = fill(i);
            uint64_t at = 0;
            QVERIFY(file.append(v.data(), kPiece, at));
            offsets.push_back(at);
            views.push_back(file.map(at, kPiece));
            QVERIFY(views.back());
            QVERIFY(std::memcmp(views.back().get(), v.data(), kPiece) == 0);
        }
        // Across the first two windows.
        const uint64_t across = SpillFile::kWindow - kPiece;
        auto both = file.map(across, 2 * kPiece);
        QVERIFY(both);
        QVERIFY(std::memcmp(both.get(), fill(across / kPiece).data(), kPiece) == 0);
        QVERIFY(std::memcmp(static_cast<const char*>(both.get()) + kPiece, fill(across / kPiece + 1).data(), kPiece) == 0);
        QVERIFY(!file.map(4097, 100));                          // not at a page
        QVERIFY(!file.map(file.size() - kPiece, 2 * kPiece));   // past what was written
    }
    for (size_t i = 0; i < pieces; ++i)
        QVERIFY(std::memcmp(views[i].get(), fill(i).data(), kPiece) == 0);
}

// A live session's builder (releaseSettledThreadEvents) spills a long
// thread's full chunks as a load does, and maps them back from the file in
// their place: every snapshot reads the same segments as a builder that
// keeps them in memory, without counting them as the index's memory, and
// stays as it was while the session goes on.
void TestIndex::aLiveSessionsSpilledSegmentsAreMappedNotCopied()
{
    const std::vector<uint8_t> bytes = synthesizeThreadsLog(4, 40000, 2);
    IndexBuilder live, keeping;
    live.releaseSettledThreadEvents();
    const size_t step = bytes.size() / 8 + 1;
    std::vector<std::pair<LogIndex, LogIndex>> snapshots;
    size_t mapped = 0;
    for (size_t at = 0; at < bytes.size(); at += step) {
        const auto piece = std::span(bytes).subspan(at, std::min(step, bytes.size() - at));
        live.feed(piece);
        keeping.feed(piece);
        if (at + step >= bytes.size())
            break;
        LogIndex a = live.publish(false), b = keeping.publish(false);
        QVERIFY(!live.threadEventsLost());
        compareThreadParts(a, b);
        QCOMPARE(b.threadStates.mappedBytes(), size_t(0));
        QCOMPARE(a.threadStates.memoryBytes() + a.threadStates.mappedBytes(), b.threadStates.memoryBytes());
        mapped = std::max(mapped, a.threadStates.mappedBytes());
        snapshots.emplace_back(std::move(a), std::move(b));
    }
    QVERIFY(live.threadSegmentsSpilled() > 0); // (else this log does not test it)
    QCOMPARE(mapped, size_t(live.threadSegmentsSpilled())); // (every spilled chunk mapped, counted once)
    QVERIFY(live.publish(true, nullptr));
    QVERIFY(!live.threadEventsLost());
    QCOMPARE(live.index().threadStates.mappedBytes(), size_t(0));
    const auto raw = loadWith(bytes, KeepInMemory{false, true});
    compareIndexes(live.index(), *raw);
    compareThreadParts(live.index(), *raw);
    for (const auto& [a, b] : snapshots)
        compareThreadParts(a, b);
}

// A load moves each capability's encoded spans, but its newest 64 KB, to
// a temporary file and maps them back: the index reads the same as one
// that keeps them in memory, and counts them apart. So do a live
// builder's snapshots (their provisional spans taken back at every update,
// GC spans split by their collection over spans already mapped).
void TestIndex::capabilitySpansSpillToAFile()
{
    const auto mappedOf = [](const LogIndex& ix) {
        size_t bytes = 0;
        for (const Capability& c : ix.caps)
            bytes += c.timeline.mappedBytes();
        return bytes;
    };
    const auto memoryOf = [](const LogIndex& ix) {
        size_t bytes = 0;
        for (const Capability& c : ix.caps)
            bytes += c.timeline.memoryBytes();
        return bytes;
    };
    // (The logs in testdata and the conformance set are too small to fill
    // a capability's 64 KB of spans twice.)
    {
        const std::vector<uint8_t> bytes = synthesizeThreadsLog(4, 40000, 2);
        const QString name = QStringLiteral("synthesized");
        const auto spilled = loadWith(bytes, KeepInMemory{});
        KeepInMemory keep;
        keep.spans = true;
        const auto kept = loadWith(bytes, keep);
        QCOMPARE(mappedOf(*kept), size_t(0));
        QVERIFY2(mappedOf(*spilled) >= 64 * 1024, qPrintable(name)); // (else this log does not test it)
        QCOMPARE(memoryOf(*spilled) + mappedOf(*spilled), memoryOf(*kept));
        compareIndexes(*spilled, *kept);
        for (size_t c = 0; c < kept->caps.size(); ++c) {
            const CapTimeline &x = spilled->caps[c].timeline, &y = kept->caps[c].timeline;
            std::vector<LodItem> a, b;
            const uint64_t end = y.endTime();
            for (uint64_t t0 = 0; t0 < end; t0 += end / 7 + 1) {
                x.lod(t0, end, 1600, a);
                y.lod(t0, end, 1600, b);
                QCOMPARE(a.size(), b.size());
                QCOMPARE(x.totalsIn(t0, end).time, y.totalsIn(t0, end).time);
            }
        }
        // The same log as a live session gets it: snapshots against a
        // builder that keeps its spans.
        IndexBuilder live, keeping;
        live.releaseSettledThreadEvents();
        keeping.releaseSettledThreadEvents();
        keeping.keepSpansInMemory();
        const size_t step = bytes.size() / 9 + 1;
        size_t mapped = 0;
        for (size_t at = 0; at < bytes.size(); at += step) {
            const auto piece = std::span(bytes).subspan(at, std::min(step, bytes.size() - at));
            live.feed(piece);
            keeping.feed(piece);
            const LogIndex a = live.publish(false), b = keeping.publish(false);
            compareIndexes(a, b);
            mapped = std::max(mapped, mappedOf(a));
        }
        QVERIFY(mapped > 0);
        QVERIFY(live.publish(true, nullptr) && keeping.publish(true, nullptr));
        compareIndexes(live.index(), keeping.index());
        compareIndexes(live.index(), *kept);
        if (QTest::currentTestFailed())
            return;
    }
}

void TestIndex::threadSegmentsFromAChangedFile()
{
    const std::vector<uint8_t> bytes = readFile(QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/threads-N2.eventlog"));
    const auto ix = indexOfBytes(bytes);
    const ThreadCheckpoints& cp = ix->threadCheckpoints;
    QVERIFY(cp.caps.size() > 0 && cp.caps[0].size() > 16);
    const auto& cross = cp.caps[0];
    uint64_t j = cross.size() / 2; // from a checkpoint in the middle whose next two cross at other records
    while (j + 4 < cross.size() && !(cross[j].offset < cross[j + 1].offset && cross[j + 1].offset < cross[j + 2].offset))
        ++j;
    QVERIFY(j + 4 < cross.size());
    const uint64_t t0 = cp.time(j), t1 = cp.time(j + 4);
    MemorySource same(bytes);
    const ThreadDetail ok = readThreadSegments(same, *ix, t0, t1);
    QVERIFY2(ok.error.empty(), ok.error.c_str());
    QVERIFY(ok.states.segmentCount() > 0);
    const auto expectError = [&](const std::vector<uint8_t>& changed, uint64_t offset) {
        MemorySource source(changed);
        const ThreadDetail got = readThreadSegments(source, *ix, t0, t1);
        QVERIFY2(got.error.find("changed") != std::string::npos
                     && (offset == UINT64_MAX || got.error.find("byte " + std::to_string(offset)) != std::string::npos),
                 got.error.c_str());
        QCOMPARE(got.states.segmentCount(), uint64_t(0));
    };
    for (const uint64_t at : {cross[j].offset, cross[j + 2].offset}) {
        std::vector<uint8_t> retimed = bytes;
        retimed[at + 9] ^= 0x01; // the time's lowest byte (big-endian, after the tag)
        expectError(retimed, at);
        if (QTest::currentTestFailed())
            QFAIL(qPrintable(QStringLiteral("retimed at %1").arg(at)));
    }
    expectError(std::vector<uint8_t>(bytes.begin(), bytes.begin() + ptrdiff_t(cross[j + 2].offset + 5)), UINT64_MAX);
    // A stop status changed: a thread's state at a checkpoint in the range
    // is then not the index's.
    class Stops final : public EventSink {
    public:
        void onEvent(const Event& e) override
        {
            if (e.tag == tag::StopThread && e.known)
                at[{e.time, uint32_t(e.n[0])}] = e.offset;
        }
        std::map<std::pair<uint64_t, uint32_t>, uint64_t> at;
    } stops;
    MemorySource scanned(bytes);
    scanLog(scanned, &stops);
    std::optional<uint64_t> stopAt;
    const ThreadStates& st = ix->threadStates;
    for (size_t k = 0; k < st.count() && !stopAt; ++k)
        for (uint64_t e = cp.entryOffsets[k]; e < cp.entryOffsets[k + 1] && !stopAt; ++e) {
            const ThreadSegment s = cp.entry(e);
            if (cp.entryChecks[e] > j && cp.entryChecks[e] <= j + 4 && s.time >= t0 && s.cause == ThreadCause::Stop)
                if (const auto it = stops.at.find({s.time, st.ids[k]}); it != stops.at.end())
                    stopAt = it->second;
        }
    QVERIFY(stopAt);
    std::vector<uint8_t> restopped = bytes;
    uint8_t& status = restopped[*stopAt + 10 + 4 + 1]; // tag, time, thread, then the status's low byte
    status = status == 1 ? 2 : 1;
    expectError(restopped, UINT64_MAX);
}

// A view's workers and an export read units while the UI thread finds and
// asks (ThreadSanitizer runs this): every reader gets the same instants,
// each unit is cached once, a small budget keeps the cache under it.
void TestIndex::detailStoreServesSeveralThreads()
{
    const std::vector<uint8_t> bytes = readFile(QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/sparks-lf-N2.eventlog"));
    const auto ix = indexOfBytes(bytes);
    auto source = std::make_shared<MemorySource>(bytes);
    for (const size_t budget : {DetailStore::kDefaultBudget, size_t(64) << 10}) {
        DetailStore store(source, budget);
        std::vector<std::vector<size_t>> sizes(4);
        std::vector<std::thread> threads;
        for (size_t k = 0; k < sizes.size(); ++k)
            threads.emplace_back([&, k] {
                for (uint16_t c = 0; c < ix->instants.size(); ++c)
                    for (uint64_t u = 0; u < ix->instants[c].units(); ++u) {
                        const InstantUnitKey key{c, u, ix->instants[c].unitCount(u)};
                        store.beginView();
                        store.ask(key);
                        sizes[k].push_back(store.load(*ix, key)->instants.size());
                        store.find(key);
                    }
            });
        for (std::thread& t : threads)
            t.join();
        for (size_t k = 1; k < sizes.size(); ++k)
            QCOMPARE(sizes[k], sizes[0]);
        uint64_t total = 0;
        for (const size_t n : sizes[0])
            total += n;
        uint64_t want = 0;
        for (const CapInstantMarks& m : ix->instants)
            want += m.count();
        QCOMPARE(total, want);
        QVERIFY(store.cachedBytes() <= std::max<size_t>(budget, 200 << 10)); // (the units being shown stay)
    }
    // What one view shows stays cached over the budget (no view reads its
    // units forever); the next view's reads evict it.
    DetailStore small(source, 1);
    std::vector<InstantUnitKey> keys;
    for (uint16_t c = 0; c < ix->instants.size(); ++c)
        for (uint64_t u = 0; u < ix->instants[c].units(); ++u)
            keys.push_back({c, u, ix->instants[c].unitCount(u)});
    QVERIFY(keys.size() >= 3);
    small.beginView();
    for (size_t i = 0; i + 1 < keys.size(); ++i)
        small.load(*ix, keys[i]);
    for (size_t i = 0; i + 1 < keys.size(); ++i)
        QVERIFY(small.find(keys[i]));
    small.beginView();
    small.load(*ix, keys.back());
    for (size_t i = 0; i + 1 < keys.size(); ++i)
        QVERIFY(!small.find(keys[i])); // not shown by this view: over the budget, out
    QVERIFY(small.find(keys.back()));
}

void TestIndex::growingLogExtendsTheIndex_data()
{
    QTest::addColumn<QString>("log");
    for (const QString& log : testdataLogs())
        QTest::newRow(qPrintable(QFileInfo(log).fileName())) << log;
}

// A log read while it grows: the index is published after each piece and
// then extended. Each publish equals indexing that prefix from scratch, and
// the end equals indexing the whole file at once.
void TestIndex::growingLogExtendsTheIndex()
{
    QFETCH(QString, log);
    const std::vector<uint8_t> bytes = readFile(log);
    QRandomGenerator rng(uint32_t(qHash(log)));
    IndexBuilder growing;
    size_t pos = 0;
    int publishes = 0;
    std::shared_ptr<const LogIndex> snapshot;
    std::unique_ptr<IndexBuilder> snapshotFresh;
    while (pos < bytes.size()) {
        const size_t n = std::min<size_t>(bytes.size() - pos, 1 + rng.bounded(uint32_t(bytes.size() / 6)));
        growing.feed({bytes.data() + pos, n});
        pos += n;
        const LogIndex& now = growing.publish(false);
        auto fresh = std::make_unique<IndexBuilder>();
        fresh->feed({bytes.data(), pos});
        compareIndexes(now, fresh->publish(false));
        if (QTest::currentTestFailed())
            QFAIL(qPrintable(QStringLiteral("after %1 of %2 bytes").arg(pos).arg(bytes.size())));
        // A copy (a live snapshot, which shares the builder's chunks) is
        // still that prefix's index once the builder has gone on: the
        // builder copies a chunk before it writes it again.
        if (snapshot) {
            compareIndexes(*snapshot, snapshotFresh->index());
            if (QTest::currentTestFailed())
                QFAIL(qPrintable(QStringLiteral("the copy, one publish later, at %1 bytes").arg(pos)));
        }
        snapshot = std::make_shared<const LogIndex>(now);
        snapshotFresh = std::move(fresh);
        ++publishes;
    }
    QVERIFY(publishes >= 3);
    const LogIndex& final = growing.publish(true);
    compareIndexes(final, *indexOfBytes(bytes));
    QVERIFY(!final.scan.truncated);
}

// The summarised threads' whole-run totals as the index keeps them
// (KeptTotals): every shape of blocked time comes back as it went in.
void TestIndex::keptTotalsGiveBackWhatWasKept()
{
    const auto blockedIndex = size_t(ThreadState::Blocked);
    std::vector<ThreadTotals> in;
    ThreadTotals t;
    t.time = {5, 7, 0, 0, 11};
    t.runs = 3, t.migrations = 1, t.wakeups = 2;
    in.push_back(t); // never blocked
    t.time[blockedIndex] = 40;
    t.blocked[size_t(BlockReason::MVar)] = 40;
    in.push_back(t); // one reason, all the blocked time
    t.blocked = {};
    t.blocked[size_t(BlockReason::Delay)] = 25;
    in.push_back(t); // one reason, not all of it (kept apart)
    t.blocked[size_t(BlockReason::MVar)] = 15;
    in.push_back(t); // two reasons
    t.blocked = {};
    t.blocked[kBlockReasons - 1] = 40;
    t.runs = UINT32_MAX;
    in.push_back(t); // the last reason
    KeptTotals kept;
    for (const ThreadTotals& x : in)
        kept.push_back(x);
    QCOMPARE(kept.size(), in.size());
    for (size_t i = 0; i < in.size(); ++i)
        QVERIFY2(kept[i] == in[i], qPrintable(QStringLiteral("totals %1").arg(i)));
    QVERIFY(kept.memoryBytes() < in.size() * sizeof(ThreadTotals));
}

void TestIndex::infoJsonGolden_data()
{
    QTest::addColumn<QString>("log");
    for (const QString& log : testdataLogs())
        QTest::newRow(qPrintable(QFileInfo(log).fileName())) << log;
}

// `hecscope info --json` of each committed testdata log against its golden
// file (testdata/golden/NAME.json; HECSCOPE_UPDATE_GOLDEN=1 rewrites them),
// and the keys scripts rely on, with their types.
void TestIndex::infoJsonGolden()
{
    QFETCH(QString, log);
    const QString name = QFileInfo(log).fileName();
    const auto ix = indexOfBytes(readFile(log));
    const std::string json = infoJson(*ix, computeStats(*ix), name.toStdString());

    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(json), &error);
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
    const QJsonObject o = doc.object();
    for (const char* key : {"events", "bytes", "capabilities", "threads"})
        QVERIFY2(o.value(QLatin1String(key)).isDouble(), key);
    QVERIFY(o.value(QStringLiteral("truncated")).isBool());
    QVERIFY(o.value(QStringLiteral("diagnostics")).isArray());
    const QJsonObject time = o.value(QStringLiteral("time")).toObject();
    for (const char* key : {"total_ns", "mutator_ns", "gc_ns", "productivity"})
        QVERIFY2(time.value(QLatin1String(key)).isDouble(), key);
    const QJsonObject gc = o.value(QStringLiteral("gc")).toObject();
    for (const char* key : {"collections", "parallel_collections", "copied_bytes", "max_pause_ns"})
        QVERIFY2(gc.value(QLatin1String(key)).isDouble(), key);
    const QJsonObject heap = o.value(QStringLiteral("heap")).toObject();
    for (const char* key : {"max_heap_size_bytes", "max_live_bytes", "allocated_bytes"})
        QVERIFY2(heap.value(QLatin1String(key)).isDouble(), key);
    const QJsonObject sparks = o.value(QStringLiteral("sparks")).toObject();
    for (const char* key : {"created", "converted", "overflowed", "dud", "gcd", "fizzled"})
        QVERIFY2(sparks.value(QLatin1String(key)).isDouble(), key);
    QCOMPARE(o.value(QStringLiteral("events")).toDouble(), double(ix->scan.events));
    QCOMPARE(time.value(QStringLiteral("mutator_ns")).toDouble() + time.value(QStringLiteral("gc_ns")).toDouble(),
             time.value(QStringLiteral("total_ns")).toDouble());

    const QString golden = QStringLiteral(HECSCOPE_TESTDATA_DIR "/golden/") + name + QStringLiteral(".json");
    if (qEnvironmentVariableIsSet("HECSCOPE_UPDATE_GOLDEN")) {
        QFile out(golden);
        QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
        out.write(json.data(), qint64(json.size()));
        return;
    }
    const std::string want = readText(golden);
    QVERIFY2(!want.empty(), qPrintable(golden + QStringLiteral(" is missing")));
    // Line by line, so that a failure names the figure that changed.
    const QStringList got = QString::fromStdString(json).split(QLatin1Char('\n'));
    const QStringList expected = QString::fromStdString(want).split(QLatin1Char('\n'));
    for (qsizetype i = 0; i < std::min(got.size(), expected.size()); ++i)
        QCOMPARE(got[i], expected[i]);
    QCOMPARE(got.size(), expected.size());
}

QTEST_GUILESS_MAIN(TestIndex)
#include "tst_index.moc"
