// Thread states and user spans of a log fed in pieces and published
// provisionally after each: the states the walk (threadwalk.h) finds in
// each prefix, the spans of a fresh index of it, and at the end what
// loading the whole log gives.
#include "testsupport.h"
#include "threadtestsupport.h"
#include "threadwalk.h"

#include "core/load/indexbuilder.h"
#include "core/load/loader.h"
#include "core/io/bytesource.h"
#include "core/index/logindex.h"

#include "core/format/eventtags.h"

#include <QFileInfo>
#include <algorithm>
#include <array>
#include <deque>
#include <memory>
#include <QRandomGenerator>
#include <QTest>

using namespace hecscope;
using namespace hecscope::test;

namespace {

void compareThreadStates(const ThreadStates& a, const ThreadStates& b)
{
    QVERIFY(a.ids == b.ids);
    QVERIFY(a.offsets == b.offsets);
    QCOMPARE(a.segmentsInFile, b.segmentsInFile);
    QVERIFY(a.summarised == b.summarised);
    QVERIFY(a.wholeRun == b.wholeRun);
    QCOMPARE(a.end, b.end);
    QCOMPARE(a.segmentCount(), b.segmentCount());
    for (size_t k = 0; k < a.count(); ++k) {
        const SegmentView sa = a.of(k), sb = b.of(k);
        for (size_t i = 0; i < sa.size(); ++i) {
            const ThreadSegment x = sa[i], y = sb[i];
            const QString where = QStringLiteral("thread %1, segment %2").arg(a.ids[k]).arg(i);
            QVERIFY2(x.time == y.time && x.cap == y.cap && x.state == y.state && x.stop == y.stop
                         && x.cause == y.cause && x.info == y.info,
                     qPrintable(where));
        }
    }
}

// Each overview bin's key against the segments binned here the plain way
// (a division per bin boundary), level by level.
void checkOverviews(const ThreadStates& st)
{
    QCOMPARE(st.overviews.size(), st.count());
    for (size_t k = 0; k < st.count(); ++k) {
        const SegmentView segs = st.of(k);
        const BinPyramid& ov = st.overviews[k];
        const QString thread = QStringLiteral("thread %1").arg(st.ids[k]);
        if (segs.size() < ThreadStates::kOverviewMinSegments) {
            QVERIFY2(ov.bins == 0, qPrintable(thread));
            continue;
        }
        QVERIFY2(ov.bins > 0 && ov.binWidth > 0 && ov.start == segs.timeAt(0), qPrintable(thread));
        std::vector<std::array<uint64_t, 3 + kBlockReasons>> times(ov.bins);
        const uint64_t limit = ov.start + uint64_t(ov.bins) * ov.binWidth;
        for (size_t i = 0; i < segs.size(); ++i) {
            const uint8_t key = ThreadStates::stateKey(segs[i]);
            if (key == ThreadStates::kNoKey)
                continue;
            const uint64_t a = segs.timeAt(i), b = std::min(st.segmentEnd(segs, i), limit);
            for (uint64_t bin = (a - ov.start) / ov.binWidth; a < b && bin < ov.bins; ++bin) {
                const uint64_t from = std::max(a, ov.start + bin * ov.binWidth);
                const uint64_t to = std::min(b, ov.start + (bin + 1) * ov.binWidth);
                if (to > from)
                    times[bin][key] += to - from;
            }
        }
        for (int level = 0; level < ov.levels; ++level) {
            if (level > 0) {
                std::vector<std::array<uint64_t, 3 + kBlockReasons>> coarser((times.size() + 1) / 2);
                for (size_t bin = 0; bin < times.size(); ++bin)
                    for (size_t key = 0; key < times[bin].size(); ++key)
                        coarser[bin / 2][key] += times[bin][key];
                times.swap(coarser);
            }
            QCOMPARE(uint64_t(times.size()), ov.levelBins(level));
            for (size_t bin = 0; bin < times.size(); ++bin) {
                const auto best = std::max_element(times[bin].begin(), times[bin].end());
                const uint8_t want = *best ? uint8_t(best - times[bin].begin()) : ThreadStates::kNoKey;
                const uint8_t got = st.overviewKeys[ov.offset + ov.levelOffset(level) + bin];
                QVERIFY2(got == want, qPrintable(thread + QStringLiteral(", level %1, bin %2: key %3, want %4")
                                                              .arg(level).arg(bin).arg(got).arg(want)));
            }
        }
    }
}

void compareUserSpans(const UserSpans& a, const UserSpans& b)
{
    QVERIFY(a.names == b.names);
    QCOMPARE(a.spans.size(), b.spans.size());
    for (size_t i = 0; i < a.spans.size(); ++i) {
        const UserSpan& x = a.spans[i];
        const UserSpan& y = b.spans[i];
        QVERIFY2(x.start == y.start && x.end == y.end && x.self == y.self && x.name == y.name && x.thread == y.thread
                     && x.parent == y.parent && x.depth == y.depth && x.flags == y.flags,
                 qPrintable(QStringLiteral("span %1").arg(i)));
    }
    QCOMPARE(a.issues.size(), b.issues.size());
    for (size_t i = 0; i < a.issues.size(); ++i)
        QVERIFY(a.issues[i].time == b.issues[i].time && a.issues[i].thread == b.issues[i].thread
                && a.issues[i].name == b.issues[i].name && a.issues[i].kind == b.issues[i].kind);
    QVERIFY(a.byName == b.byName);
    QVERIFY(a.nameOffsets == b.nameOffsets);
    QVERIFY(a.threadIds == b.threadIds);
    QVERIFY(a.byThread == b.byThread);
    QVERIFY(a.threadOffsets == b.threadOffsets);
    QVERIFY(a.levelMaxEnd == b.levelMaxEnd);
    QCOMPARE(a.maxDepth, b.maxDepth);
}

const QString kThreadsLog = QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/threads-N2.eventlog");

} // namespace

class TestThreadsIncremental : public QObject {
    Q_OBJECT
private slots:
    void growingLogGivesTheSameStatesAndSpans_data();
    void growingLogGivesTheSameStatesAndSpans();
    void lateCapabilityBlockIsWalkedAgain();
    void idleThreadKeepsItsBinsAsTheLogGrows();
};

void TestThreadsIncremental::growingLogGivesTheSameStatesAndSpans_data()
{
    QTest::addColumn<QString>("log");
    QTest::newRow("threads-N2") << kThreadsLog;
    QTest::newRow("sparks-N4") << QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/sparks-N4.eventlog");
    for (const QString& log : conformanceLogs(QStringLiteral("ghc-events")))
        if (QFileInfo(log).fileName() == QLatin1String("parallelTest.eventlog"))
            QTest::newRow("parallelTest") << log;
    QTest::newRow("generated spans") << QString();
}

// A log fed in pieces, published provisionally after each: each publish
// has the states the walk finds in that prefix and the spans of a fresh
// index of it; the final publish equals loading the whole log.
void TestThreadsIncremental::growingLogGivesTheSameStatesAndSpans()
{
    QFETCH(QString, log);
    const std::vector<uint8_t> bytes = log.isEmpty() ? generatedSpansLog(7, 200).bytes : readFile(log);
    QVERIFY(!bytes.empty());
    QRandomGenerator rng(uint32_t(bytes.size()));
    IndexBuilder growing;
    growing.keepThreadSegments(); // (compared with a walk)
    IndexBuilder dropping; // as a live session builds: the final seal leaves the long threads' segments in the file
    size_t pos = 0;
    int publishes = 0;
    std::deque<std::pair<std::shared_ptr<const LogIndex>, size_t>> snapshots;
    while (pos < bytes.size()) {
        const size_t n = std::min<size_t>(bytes.size() - pos, 1 + rng.bounded(uint32_t(bytes.size() / 20)));
        growing.feed({bytes.data() + pos, n});
        dropping.feed({bytes.data() + pos, n});
        dropping.publish(false);
        pos += n;
        const LogIndex& now = growing.publish(false);
        const std::vector<uint8_t> prefix(bytes.begin(), bytes.begin() + ptrdiff_t(pos));
        const Walk w = walkThreads(prefix);
        compareWithWalk(now, w);
        compareFiguresWithWalk(now, w, std::nullopt);
        checkOverviews(now.threadStates);
        compareCursorWithView(now.threadStates);
        // Settled over many publishes or in one: the same states.
        IndexBuilder fresh;
        fresh.feed(prefix);
        const LogIndex& other = fresh.publish(false);
        compareThreadStates(now.threadStates, other.threadStates);
        // A snapshot (a copy, as a live session hands the window) stays
        // as it was while later seals write their segments: the one of
        // two publishes ago still has that prefix's states.
        if (snapshots.size() == 2) {
            compareWithWalk(*snapshots.front().first, walkThreads({bytes.begin(), bytes.begin() + ptrdiff_t(snapshots.front().second)}));
            snapshots.pop_front();
        }
        snapshots.emplace_back(std::make_shared<const LogIndex>(now), pos);
        QVERIFY(now.userSpans && other.userSpans);
        compareUserSpans(*now.userSpans, *other.userSpans);
        if (QTest::currentTestFailed())
            QFAIL(qPrintable(QStringLiteral("after %1 of %2 bytes").arg(pos).arg(bytes.size())));
        ++publishes;
    }
    QVERIFY(publishes >= 20);
    const LogIndex& final = growing.publish(true);
    const auto whole = load(bytes);
    compareThreadStates(final.threadStates, whole->threadStates);
    {
        MemorySource source(bytes);
        const auto wholeDropped = loadIndex(source, bytes.size()).index;
        const LogIndex& finalDropped = dropping.publish(true);
        QVERIFY(finalDropped.threadStates.segmentsInFile);
        compareThreadStates(finalDropped.threadStates, wholeDropped->threadStates);
        QCOMPARE(finalDropped.threadStates.summarised.size(), size_t(std::count_if(
            whole->threadStates.overviews.begin(), whole->threadStates.overviews.end(), [](const BinPyramid& ov) { return ov.bins > 0; })));
    }
    checkOverviews(final.threadStates);
    compareCursorWithView(final.threadStates);
    compareCursorWithView(whole->threadStates);
    compareUserSpans(*final.userSpans, *whole->userSpans);
    if (log.isEmpty())
        QVERIFY(final.userSpans->spans.size() > 100);
    else
        QVERIFY(final.threadStates.count() > 0);
}

// A capability the log has not named yet whose block comes after another
// capability's later events: what was settled up to the first one's
// newest event is walked again with the late events in their place.
void TestThreadsIncremental::lateCapabilityBlockIsWalkedAgain()
{
    EventlogWriter w(EventlogWriter::allDeclarations());
    w.beginBlock(0, 0);
    for (uint64_t t = 1000; t < 100000; t += 1000) {
        w.write(run(t, 1).event);
        w.write(stop(t + 400, 1, 1).event); // heap overflow: runnable
    }
    w.endBlock(100000);
    const size_t firstPart = w.bytes().size();
    w.beginBlock(1, 0);
    // Thread 1 migrated to capability 1 and woken there, stamped long
    // before capability 0's newest event; thread 2 runs there.
    w.write(ev(tag::MigrateThread, 1600, {1, 1}).event);
    w.write(ev(tag::ThreadWakeup, 2600, {1, 1}).event);
    for (uint64_t t = 3000; t < 120000; t += 700) {
        w.write(run(t, 2).event);
        w.write(stop(t + 300, 2, 5).event); // ... until it finishes
    }
    w.endBlock(120000);
    w.writeDataEnd();
    const std::vector<uint8_t> bytes = w.takeBytes();

    IndexBuilder growing;
    growing.keepThreadSegments(); // (compared with a walk)
    growing.feed({bytes.data(), firstPart});
    compareWithWalk(growing.publish(false), walkThreads({bytes.begin(), bytes.begin() + ptrdiff_t(firstPart)}));
    QVERIFY(growing.index().threadStates.of(0).size() > 100);
    growing.feed({bytes.data() + firstPart, bytes.size() - firstPart});
    const LogIndex& now = growing.publish(false);
    compareWithWalk(now, walkThreads(bytes));
    checkOverviews(now.threadStates);
    const SegmentView one = now.threadStates.of(now.threadStates.find(1));
    QCOMPARE(one[2].cause, ThreadCause::Migrate);
    QCOMPARE(one[2].time, uint64_t(1600));
    compareThreadStates(growing.publish(true).threadStates, load(bytes)->threadStates);
}

// A thread busy early and then blocked while another runs on: its extent
// doubles and doubles as the log grows, so its bins widen, and each
// provisional seal reuses the last one's coarser levels as its finer ones.
void TestThreadsIncremental::idleThreadKeepsItsBinsAsTheLogGrows()
{
    EventlogWriter w(EventlogWriter::allDeclarations());
    std::vector<size_t> cuts;
    uint64_t t = 1000;
    w.beginBlock(0, t);
    for (int i = 0; i < 2000; ++i, t += 500) {
        w.write(run(t, 1).event);
        w.write(stop(t + 200, 1, i + 1 < 2000 ? 1 : 7).event); // runnable, at last blocked on an MVar
    }
    w.endBlock(t);
    cuts.push_back(w.bytes().size());
    for (int block = 0; block < 32; ++block) {
        w.beginBlock(0, t);
        for (int i = 0; i < 100 << (block / 8); ++i, t += 300) {
            w.write(run(t, 2).event);
            w.write(stop(t + 100, 2, 1).event);
        }
        w.endBlock(t);
        cuts.push_back(w.bytes().size());
    }
    w.writeDataEnd();
    const std::vector<uint8_t> bytes = w.takeBytes();

    IndexBuilder growing;
    growing.keepThreadSegments(); // (compared with a walk)
    size_t fed = 0;
    uint64_t firstWidth = 0;
    for (const size_t cut : cuts) {
        growing.feed({bytes.data() + fed, cut - fed});
        fed = cut;
        const LogIndex& now = growing.publish(false);
        checkOverviews(now.threadStates);
        compareCursorWithView(now.threadStates); // (in chunks; thread 2's past a chunk's 4,096 from block 14 on)
        if (!firstWidth)
            firstWidth = now.threadStates.overviews[now.threadStates.find(1)].binWidth;
        if (QTest::currentTestFailed())
            QFAIL(qPrintable(QStringLiteral("after %1 of %2 bytes").arg(fed).arg(bytes.size())));
    }
    const ThreadStates& states = growing.index().threadStates;
    // (Its settled segments in the chunks it shares with the builder, thread 2's in three or more.)
    QVERIFY(!states.sharedFirst.empty() && states.of(states.find(2)).size() > 2 * SegmentChunks::kChunk);
    QVERIFY(states.sharedFirst[states.find(2) + 1] - states.sharedFirst[states.find(2)] >= 3);
    const BinPyramid& idle = states.overviews[states.find(1)];
    QVERIFY(firstWidth > 0);
    QVERIFY(idle.binWidth >= 4 * firstWidth);
    growing.feed({bytes.data() + fed, bytes.size() - fed});
    const LogIndex& final = growing.publish(true);
    checkOverviews(final.threadStates);
    compareCursorWithView(final.threadStates);
    compareThreadStates(final.threadStates, load(bytes)->threadStates);
}

QTEST_GUILESS_MAIN(TestThreadsIncremental)
#include "tst_threadsincremental.moc"
