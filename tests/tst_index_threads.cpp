// tst_index: the threads' segments read back from the log, settled while
// the load goes on, and from a file that changed.
#include "tst_index.h"

#include "core/index/threadstatesbuild.h"
#include "core/index/threadstatesbuilder.h"

namespace {

// Writes events into blocks of one capability each, in the order given.
// With every thread's segments kept in memory (what the read-back is compared with).
std::unique_ptr<LogIndex> loadKept(const std::vector<uint8_t>& bytes)
{
    MemorySource source(bytes);
    return loadIndex(source, bytes.size(), nullptr, KeepInMemory{true}).index;
}

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
    QRandomGenerator rng(seedOf(log));
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
    size_t atOneTime = 0; // ranges from a time at which a thread has several segments, a counted event's first
    for (size_t k = 0; k < st.count(); ++k) {
        const SegmentView segs = st.of(k);
        for (size_t i = 0; i < segs.size(); ++i) {
            times.push_back(segs.timeAt(i));
            longest.emplace_back(st.segmentEnd(segs, i) - segs.timeAt(i), segs.timeAt(i));
            // (The one before ends there, with no time in the range: its
            // event, as every segment's at t0, is the range's.)
            const auto counted = [](ThreadCause c) {
                return c == ThreadCause::Run || c == ThreadCause::Migrate || c == ThreadCause::Wakeup;
            };
            if (i > 0 && segs.timeAt(i - 1) == segs.timeAt(i) && counted(segs[i - 1].cause) && atOneTime < 4
                && segs.timeAt(i) > first) {
                ranges.emplace_back(segs.timeAt(i), std::min(last + 1, segs.timeAt(i) + (last - first) / 3 + 1));
                ++atOneTime;
            }
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
            // Read a stretch at a time: a checkpoint interval each (the
            // most stretches), and a seventh of the log's bytes each.
            for (const uint64_t most : {uint64_t(1), std::max<uint64_t>(1, bytes.size() / 7)}) {
                compareFigures(threadFiguresIn(&source, *dropped, range, {}, &error, most), allThreadFigures(*ix, range));
                QVERIFY2(error.empty(), error.c_str());
            }
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

    // Each summarised thread's totals per interval (ThreadStates::Intervals):
    // those of every interval from its first segment's to its finishing (or
    // the log's end) and its last segment's, each the kept segments' own
    // over it, and no others.
    const ThreadStates::Intervals& iv = ds.intervals;
    if (ds.summarised.empty())
        return;
    QVERIFY(ds.summarised.size() > ThreadStates::Intervals::kMaxThreads || iv.width > 0);
    if (iv.width == 0)
        return;
    QCOMPARE(iv.first.size(), ds.summarised.size());
    QVERIFY(std::has_single_bit(iv.width));
    QVERIFY(st.end / iv.width < ThreadStates::Intervals::kMaxIntervals);
    for (size_t i = 0; i < ds.summarised.size(); ++i) {
        const uint32_t k = ds.summarised[i];
        const SegmentView segs = st.of(k);
        const bool finished = segs.back().state == ThreadState::Finished;
        QCOMPARE(iv.firstTime[i], segs.timeAt(0));
        QCOMPARE(iv.finished[i], finished ? segs.back().time : kNoTime);
        const uint64_t lastEnd = finished ? segs.back().time : std::max(st.end, segs.back().time);
        for (uint64_t j = 0; j <= st.end / iv.width + 1; ++j) {
            const std::optional<ThreadTotals> got = iv.at(i, j);
            const bool in = j >= segs.timeAt(0) / iv.width && (j * iv.width < lastEnd || j == segs.back().time / iv.width);
            QVERIFY2(got.has_value() == in, qPrintable(QStringLiteral("thread %1, interval %2").arg(st.ids[k]).arg(j)));
            if (got)
                QVERIFY2(*got == threadTotals(st, k, j * iv.width, (j + 1) * iv.width),
                         qPrintable(QStringLiteral("thread %1, interval %2's totals").arg(st.ids[k]).arg(j)));
        }
    }
    // A range of whole intervals reads nothing back (from a source of no
    // bytes: a read would fail) and gives the kept segments' figures.
    MemorySource nothing(std::vector<uint8_t>{});
    const uint64_t intervals = last / iv.width + 1;
    for (const auto& [j, n] : {std::pair<uint64_t, uint64_t>{0, intervals}, {intervals / 3, std::max<uint64_t>(1, intervals / 3)},
                               {intervals - 1, 1}, {first / iv.width, 1}}) {
        const ViewRange range{j * iv.width, (j + n) * iv.width};
        std::string error;
        compareFigures(threadFiguresIn(&nothing, *dropped, range, {}, &error), allThreadFigures(*ix, range));
        QVERIFY2(error.empty(), error.c_str());
        if (QTest::currentTestFailed())
            QFAIL(qPrintable(QStringLiteral("figures of intervals [%1, %2)").arg(j).arg(j + n)));
    }
}

// Detail is read back 64 KB at a time at first; a message can be longer
// (a 65,535-byte text, its record 12 bytes more). A log of our own whose
// capability 0 has such messages among its thread events and instants, in
// blocks that hold several: every range of the threads' segments and every
// unit of instants reads back as the index holds them, across the long
// records, wherever a read starts.
void TestIndex::detailReadsPastRecordsLongerThanARead()
{
    const std::string longText(65535, 'x'), shortText(60000, 'y');
    LogBuilder b;
    std::deque<OwnedEvent> events;
    uint64_t t = 1000;
    for (uint32_t thread = 1; thread <= 3; ++thread)
        events.emplace_back(tag::CreateThread, t++, std::initializer_list<uint64_t>{thread});
    for (int i = 0; i < 6000; ++i) {
        const uint64_t thread = 1 + uint64_t(i % 3);
        events.emplace_back(tag::RunThread, t += 10, std::initializer_list<uint64_t>{thread});
        events.emplace_back(tag::ThreadWakeup, t += 10, std::initializer_list<uint64_t>{1 + (thread % 3), 0});
        if (i % 97 == 0) // (a message that starts a read, one that does not)
            events.emplace_back(tag::LogMsg, t += 10, std::initializer_list<uint64_t>{},
                                std::initializer_list<std::string_view>{i % 2 ? longText : shortText});
        events.emplace_back(tag::StopThread, t += 10, std::initializer_list<uint64_t>{thread, 2, 0});
        if (events.size() >= 1500) {
            b.block(0, events);
            events.clear();
        }
    }
    b.block(0, events);
    const std::vector<uint8_t> bytes = b.bytes();
    QVERIFY(bytes.size() > 2'000'000);
    const auto ix = loadKept(bytes);
    QVERIFY(!ix->scan.hasError);
    MemorySource source(bytes);
    // The instants: every unit, against a load that keeps them.
    IndexBuilder kept;
    kept.keepInstants();
    kept.feed(bytes);
    kept.publish(true);
    const CapInstants& want = kept.index().keptInstants.at(0);
    QCOMPARE(ix->instants.at(0).count(), uint64_t(want.size()));
    QVERIFY(ix->instants[0].units() > 4);
    size_t i = 0;
    for (uint64_t u = 0; u < ix->instants[0].units(); ++u) {
        const InstantUnit unit = readInstantUnit(source, *ix, 0, u);
        QVERIFY2(unit.error.empty(), unit.error.c_str());
        QCOMPARE(uint64_t(unit.instants.size()), ix->instants[0].unitCount(u));
        for (size_t k = 0; k < unit.instants.size(); ++k, ++i)
            QVERIFY(unit.instants.time(k) == want.time(i) && unit.instants.arg(k) == want.arg(i));
    }
    QCOMPARE(i, want.size());
    // The threads' segments, over ranges that start and end all over the log.
    QRandomGenerator rng(5);
    for (int r = 0; r < 60; ++r) {
        const uint64_t t0 = 1000 + rng.bounded(uint32_t(t - 1000)), t1 = t0 + 1 + rng.bounded(uint32_t(t - t0 + 10));
        compareThreadDetail(*ix, readThreadSegments(source, *ix, t0, t1), t0, t1);
        if (QTest::currentTestFailed())
            QFAIL(qPrintable(QStringLiteral("range [%1, %2)").arg(t0).arg(t1)));
    }
    compareThreadDetail(*ix, readThreadSegments(source, *ix, 0, UINT64_MAX), 0, UINT64_MAX);
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
    // Each thread's totals per interval (threadIntervals) are threadTotals'
    // over each interval, from the one of its first segment to the one it
    // finished in (or the log's end) and its last segment's: at widths whose edges fall on its
    // events (500, 1,000, 1,500: several at one time, a finishing on an
    // edge), between them, and wider than the log.
    const ThreadStates& st = ix->threadStates;
    for (const uint64_t width : {uint64_t(1), uint64_t(500), uint64_t(1000), uint64_t(1024), uint64_t(1500),
                                 uint64_t(8192), uint64_t(1) << 21}) {
        for (size_t k = 0; k < st.count(); ++k) {
            const SegmentView segs = st.of(k);
            const ThreadIntervals t = threadIntervals(st, k, width);
            const bool finished = segs.back().state == ThreadState::Finished;
            const uint64_t lastEnd = finished ? segs.back().time : std::max(st.end, segs.back().time);
            const QString where = QStringLiteral("thread %1, width %2").arg(st.ids[k]).arg(width);
            QVERIFY2(t.first == segs.timeAt(0) / width && t.firstTime == segs.timeAt(0), qPrintable(where));
            QVERIFY2(t.finished == (finished ? segs.back().time : kNoTime), qPrintable(where));
            const uint64_t end = std::max((lastEnd + width - 1) / width, segs.back().time / width + 1);
            QVERIFY2(t.totals.size() == end - t.first, qPrintable(where));
            for (size_t i = 0; i < t.totals.size(); ++i) {
                const uint64_t j = t.first + i;
                QVERIFY2(t.totals[i] == threadTotals(st, k, j * width, (j + 1) * width),
                         qPrintable(where + QStringLiteral(", interval %1").arg(j)));
            }
            // And the whole run's from them, as a final seal that bins
            // the thread takes them (buildOverview with intervals).
            ThreadIntervals again;
            threadbuild::IntervalTotalsAdder adder(st, k, width, again);
            const auto& keys = ThreadStates::stateKeys();
            for (SegmentCursor at(segs, 0); !at.done();) {
                const PackedSegment p = at.packed();
                const uint64_t time = at.time();
                at.next();
                adder.add(p, ThreadStates::storedKey(keys, p), time, at.done() ? std::max(st.end, time) : at.time());
            }
            QVERIFY2(again.totals == t.totals, qPrintable(where));
            QVERIFY2(adder.whole(st.end) == threadTotals(st, k, 0, UINT64_MAX), qPrintable(where + QStringLiteral(", whole run")));
        }
    }
}

// A load walks the thread events for good as it goes (every
// KeepInMemory::settleEvery of them) and lets them go: the index is the one
// a load keeping every event to the end makes, with the segments kept or
// left in the file. Settled every 37 events, so that every log settles often;
// and once more with each settle's events copied and walked in slices of
// about 5 events (ThreadStatesBuilder::setSettleSlice).
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
    {
        // Each settle's threads copied and walked a slice of about 5 events
        // (whole threads) at a time: many slices a settle.
        KeepInMemory sliced{false, false, 37, 0};
        sliced.settleSlice = 5;
        const auto settled = loadWith(bytes, sliced);
        const auto raw = loadWith(bytes, KeepInMemory{false, true});
        compareIndexes(*settled, *raw);
        compareThreadParts(*settled, *raw);
        if (QTest::currentTestFailed())
            QFAIL("settled in slices");
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
// its own (the RTS writes the only block of a capability idle from the
// start when the program ends): the events walked for good before it came
// are also in the runs that insure them, so the final seal merges those
// and the events not walked yet, as when settling is declined; nothing is
// read again. The index equals one that never settled.
void TestIndex::aLateCapabilityAfterSettlingIsMergedFromItsRuns()
{
    const std::vector<uint8_t> bytes = lateCapabilityLog();
    const auto raw = loadWith(bytes, KeepInMemory{false, true});
    IndexBuilder builder;
    builder.settleThreadEventsEvery(8, 0);
    builder.feed(bytes);
    QVERIFY(builder.publish(true, nullptr));
    QVERIFY(!builder.threadEventsLost());
    QVERIFY(builder.threadEventsMergedFromInsurance()); // (else this log does not test it)
    compareIndexes(builder.index(), *raw);
    compareThreadParts(builder.index(), *raw);
    // (What that compared: each thread's segments, or its summary.)
    QVERIFY(raw->threadStates.segmentCount() > 0 || !raw->threadStates.summarised.empty());
    const auto loaded = loadWith(bytes, KeepInMemory{false, false, 8, 0});
    compareIndexes(*loaded, *raw);
    compareThreadParts(*loaded, *raw);
}

// A capability whose first block comes early and that then sends none
// (idle since: the RTS writes its next block when the program ends) holds
// the settle bound back, and every later event would wait in memory for
// it. Once kStuckRuns runs' worth have come, the load goes on in runs
// (what it had walked for good is in the runs that insure it), and the
// index is the one a load keeping every event makes.
// Capability 1's first block (a run of thread 1), then capability 0's
// block of `runs` runs of threads 1 to 3; capability 1 sends no more.
static std::vector<uint8_t> logWithASilentCapability(uint64_t runs)
{
    LogBuilder b;
    std::deque<OwnedEvent> early, busy;
    early.emplace_back(tag::RunThread, 10, std::initializer_list<uint64_t>{1});
    early.emplace_back(tag::StopThread, 20, std::initializer_list<uint64_t>{1, 3, 0});
    b.block(1, early);
    for (uint64_t i = 0; i < runs; ++i) {
        busy.emplace_back(tag::RunThread, 1000 + i * 100, std::initializer_list<uint64_t>{1 + i % 3});
        busy.emplace_back(tag::StopThread, 1050 + i * 100, std::initializer_list<uint64_t>{1 + i % 3, 3, 0});
    }
    b.block(0, busy);
    return b.bytes();
}

void TestIndex::aCapabilityThatFallsSilentSendsTheLoadToRuns()
{
    const std::vector<uint8_t> bytes = logWithASilentCapability(400);
    const auto raw = loadWith(bytes, KeepInMemory{false, true});
    constexpr size_t kRun = 16;
    IndexBuilder builder;
    builder.settleThreadEventsEvery(8, 0, kRun);
    builder.feed(bytes);
    QVERIFY(builder.publish(true, nullptr));
    QVERIFY(!builder.threadEventsLost());
    QVERIFY(builder.threadEventsMergedFromInsurance()); // (it had settled cap 1's first events)
    QVERIFY(builder.threadSettlingDeclined());
    // (The runs: the insured events and those that waited, and more since.)
    QVERIFY2(builder.threadEventsInRuns() >= ThreadStatesBuilder::kStuckRuns * kRun,
             qPrintable(QString::number(builder.threadEventsInRuns())));
    compareIndexes(builder.index(), *raw);
    compareThreadParts(builder.index(), *raw);
    const auto loaded = loadWith(bytes, KeepInMemory{false, false, 8, 0, kRun});
    compareIndexes(*loaded, *raw);
    compareThreadParts(*loaded, *raw);
}

// The events that came while the bound was stuck (kStuckPackedRuns runs'
// worth, 2^20 here, packed as they waited) go to the first runs, a run at a
// time; then the arrays that held them keep memory for a settle's or a
// run's worth of events only, not for all of them to the end of the load
// (a 1.17 GB log kept 130 MB so).
void TestIndex::eventsThatWaitedForAStuckBoundAreLetGo()
{
    const std::vector<uint8_t> bytes = logWithASilentCapability(600'000);
    constexpr size_t kRun = size_t(1) << 16;
    IndexBuilder builder;
    builder.settleThreadEventsEvery(8, 0, kRun);
    builder.feed(bytes);
    const LogIndex snapshot = builder.publish(false); // (waits for the writer)
    QVERIFY(builder.threadSettlingDeclined());
    QVERIFY(builder.threadEventsInRuns() >= ThreadStatesBuilder::kStuckPackedRuns * kRun + kRun);
    // The most that waited for the bound (what `bench` prints): the
    // kStuckPackedRuns runs' worth after which the load went to runs,
    // counted at a settle every 8 events; most of them packed.
    const uint64_t waited = builder.threadEventsMostWaiting();
    constexpr size_t kStuck = ThreadStatesBuilder::kStuckPackedRuns * kRun;
    QVERIFY2(waited >= kStuck && waited <= kStuck + 8, qPrintable(QString::number(waited)));
    const uint64_t packed = builder.threadEventsMostPacked();
    QVERIFY2(packed >= kStuck - 2 * ThreadStatesBuilder::kPackEvents && packed < kStuck, qPrintable(QString::number(packed)));
    // The decoding thread's array (its chunks for a settle's worth), the
    // events of the run being gathered, the last run's array and scratch
    // (a run's worth each), and a chunk of slack for each array. Before:
    // every array that had held the waiting events kept their memory.
    constexpr size_t kChunkBytes = (size_t(1) << 14) * 16;
    const size_t held = builder.threadRawEventBytes();
    const size_t most = (ThreadStatesBuilder::kSettleSlice + 3 * kRun) * 16 + 3 * kChunkBytes;
    QVERIFY2(held <= most, qPrintable(QStringLiteral("%1 > %2 bytes").arg(held).arg(most)));
    QVERIFY(builder.publish(true, nullptr));
    QVERIFY(!builder.threadEventsLost());
    const auto raw = loadWith(bytes, KeepInMemory{false, true});
    compareIndexes(builder.index(), *raw);
    compareThreadParts(builder.index(), *raw);
    // Without a spill file (every segment kept in memory) no run can be
    // written: past kStuckPackedRuns runs' worth the events wait on, packed,
    // to the final seal.
    const auto kept = loadWith(bytes, KeepInMemory{true, false, 8, 0, kRun});
    const auto keptRaw = loadWith(bytes, KeepInMemory{true, true});
    compareIndexes(*kept, *keptRaw);
    compareThreadParts(*kept, *keptRaw);
}

// A capability silent while the other sends 250,000 runs of threads 1 to 3
// (capability 1's first block, then capability 0's long one), and then
// sending again: a block from the middle of them (half of them settle,
// half wait on) and one later than all of them (then capability 0 once
// more).
static std::vector<uint8_t> logWithACapabilitySilentFor(uint64_t runs)
{
    LogBuilder b;
    std::deque<OwnedEvent> early, busy, late, last;
    early.emplace_back(tag::RunThread, 10, std::initializer_list<uint64_t>{1});
    early.emplace_back(tag::StopThread, 20, std::initializer_list<uint64_t>{1, 3, 0});
    b.block(1, early);
    for (uint64_t i = 0; i < runs; ++i) {
        // (Threads blocked on an MVar and woken by the thread before, as
        // the big log's are: every field of an event varies.)
        const uint64_t t = 1000 + i * 100, thread = 1 + i % 3;
        busy.emplace_back(tag::RunThread, t, std::initializer_list<uint64_t>{thread});
        busy.emplace_back(tag::StopThread, t + 50, std::initializer_list<uint64_t>{thread, 14, 1 + (i + 2) % 3});
        busy.emplace_back(tag::ThreadWakeup, t + 60, std::initializer_list<uint64_t>{1 + (i + 1) % 3, i % 2});
    }
    b.block(0, busy);
    const uint64_t middle = 1000 + runs * 50 + 5, after = 1000 + runs * 100;
    for (uint64_t i = 0; i < 8; ++i) { // (more than a settle's 8 events: one comes in the block)
        late.emplace_back(tag::RunThread, middle + i * 2, std::initializer_list<uint64_t>{4});
        late.emplace_back(tag::StopThread, middle + i * 2 + 1, std::initializer_list<uint64_t>{4, 3, 0});
    }
    b.block(1, late);
    late.clear();
    late.emplace_back(tag::RunThread, after, std::initializer_list<uint64_t>{4});
    late.emplace_back(tag::StopThread, after + 10, std::initializer_list<uint64_t>{4, 3, 0});
    b.block(1, late);
    last.emplace_back(tag::RunThread, after + 20, std::initializer_list<uint64_t>{1});
    last.emplace_back(tag::StopThread, after + 30, std::initializer_list<uint64_t>{1, 5, 0});
    b.block(0, last);
    return b.bytes();
}

// The events that wait for a stuck bound are packed (kPackEvents at a time,
// on the walk's thread) and walked from there once it moves: the index is
// the one a load keeping every event makes, and nothing went to runs. So
// too with a snapshot in the stuck stretch.
void TestIndex::eventsThatWaitForAStuckBoundArePacked()
{
    const std::vector<uint8_t> bytes = logWithACapabilitySilentFor(250'000);
    IndexBuilder builder;
    builder.settleThreadEventsEvery(8, 0);
    builder.feed(bytes);
    QVERIFY(builder.publish(true, nullptr));
    QVERIFY(!builder.threadEventsLost());
    QVERIFY(!builder.threadSettlingDeclined());
    QCOMPARE(builder.threadEventsInRuns(), uint64_t(0));
    QVERIFY2(builder.threadEventsMostWaiting() >= 750'000 - 8, // (counted at a settle every 8 events)
             qPrintable(QString::number(builder.threadEventsMostWaiting())));
    // (Else this log does not test it.)
    const uint64_t packed = builder.threadEventsMostPacked();
    QVERIFY2(packed >= ThreadStatesBuilder::kPackEvents, qPrintable(QString::number(packed)));
    const auto raw = loadWith(bytes, KeepInMemory{false, true});
    compareIndexes(builder.index(), *raw);
    compareThreadParts(builder.index(), *raw);
    const auto loaded = loadWith(bytes, KeepInMemory{false, false, 8, 0});
    compareIndexes(*loaded, *raw);
    compareThreadParts(*loaded, *raw);
    // A progressive load's snapshot while the bound is stuck (before a
    // pack's worth came) takes what waited in as it is; the events after it
    // are packed again.
    IndexBuilder snapshotted;
    snapshotted.settleThreadEventsEvery(8, 0);
    const std::span<const uint8_t> all(bytes);
    snapshotted.feed(all.first(all.size() / 4));
    QVERIFY(snapshotted.publish(false, nullptr));
    QCOMPARE(snapshotted.threadEventsMostPacked(), uint64_t(0));
    snapshotted.feed(all.subspan(all.size() / 4));
    QVERIFY(snapshotted.publish(true, nullptr));
    QVERIFY2(snapshotted.threadEventsMostPacked() >= ThreadStatesBuilder::kPackEvents,
             qPrintable(QString::number(snapshotted.threadEventsMostPacked())));
    compareIndexes(snapshotted.index(), *raw);
    compareThreadParts(snapshotted.index(), *raw);
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

// Thread segments read back from a file that changed since it was indexed
// are never taken for the log's: the record where reading starts or one
// at a checkpoint inside the range retimed, the file cut short, a thread's
// stop status changed each give an error naming a byte offset, and no
// segments.
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
