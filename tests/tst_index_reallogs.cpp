// tst_index on real GHC logs: brute-force recomputation, spark counters,
// instants, a changed file, a growing log, kept totals, and info --json
// against its goldens.
#include "tst_index.h"

#include <cmath>
#include <vector>

namespace {

// CapTimeline::lod's items the plain way: over every span, in a vector.
std::vector<LodItem> lodOfAPlainWalk(const std::vector<Span>& spans, uint64_t t0, uint64_t t1, uint32_t pixels)
{
    std::vector<LodItem> out;
    const double width = double(t1 - t0) / pixels;
    // The span covering t0, else the first after it.
    size_t i = 0;
    while (i < spans.size() && spans[i].start() < t0)
        ++i;
    if (i > 0 && spans[i - 1].end() > t0)
        --i;
    while (i < spans.size() && spans[i].start() < t1) {
        const Span& s = spans[i];
        LodItem item;
        item.start = s.start();
        item.end = s.end();
        item.kind = s.kind();
        item.stop = s.stop();
        item.thread = s.thread();
        size_t j = i + 1;
        if (s.start() >= t0) {
            const double b = std::floor(double(s.start() - t0) / width);
            const double edge = std::ceil((b + 1) * width);
            const uint64_t bucketEnd = t0 + (edge >= double(t1 - t0) ? t1 - t0 : uint64_t(edge));
            if (s.end() <= bucketEnd) {
                while (j < spans.size() && spans[j].start() < bucketEnd)
                    ++j;
                if (j > i + 1 && spans[j - 1].end() > bucketEnd)
                    --j;
                if (j - i > 1) {
                    item.aggregate = true;
                    item.end = spans[j - 1].end();
                    item.count = uint32_t(j - i);
                    for (size_t k = i; k < j; ++k) {
                        item.totals.time[size_t(spans[k].kind())] += spans[k].length();
                        item.totals.runs += spans[k].kind() == SpanKind::Running && !spans[k].continued();
                    }
                    const auto& time = item.totals.time;
                    item.kind = SpanKind(std::max_element(time.begin(), time.end()) - time.begin());
                    item.stop = 0;
                    item.thread = 0;
                }
            }
        }
        out.push_back(item);
        i = j;
    }
    return out;
}

} // namespace

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
    QRandomGenerator rng(seedOf(log));
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
        // The level of detail drawn (searches and sums through the blocks)
        // is item for item what a plain walk of the spans gives: the whole
        // run and random views, a few pixels to many.
        std::vector<Span> spans;
        for (size_t i = 0; i < cap.timeline.size(); ++i)
            spans.push_back(cap.timeline[i]);
        for (int i = 0; i < 12; ++i) {
            uint64_t a = rng.generate64() % end, b = rng.generate64() % end;
            if (a > b)
                std::swap(a, b);
            if (i == 0)
                a = 0, b = end;
            if (a == b)
                continue;
            const uint32_t pixels = std::array{1u, 7u, 300u, 1600u, 5000u}[size_t(i) % 5];
            std::vector<LodItem> items;
            cap.timeline.lod(a, b, pixels, items);
            const std::vector<LodItem> want = lodOfAPlainWalk(spans, a, b, pixels);
            QCOMPARE(items.size(), want.size());
            for (size_t k = 0; k < items.size(); ++k) {
                const LodItem &x = items[k], &y = want[k];
                QVERIFY2(x.start == y.start && x.end == y.end && x.aggregate == y.aggregate && x.kind == y.kind
                             && x.stop == y.stop && x.thread == y.thread && x.count == y.count
                             && x.totals.time == y.totals.time && x.totals.runs == y.totals.runs,
                         qPrintable(QStringLiteral("item %1 of %2 pixels over %3..%4").arg(k).arg(pixels).arg(a).arg(b)));
            }
        }
    }
    // Each thread's runs, found through the block masks, are exactly its
    // spans, and add up to its run time.
    for (size_t id = 0; id < ix->threads.size(); ++id) {
        const std::optional<ThreadInfo> t = ix->thread(uint32_t(id));
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
    QRandomGenerator rng(seedOf(log));
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
