// Statistics as the RTS counted them: for each run of testdata/rts-summary
// (real GHC 9.0.2 runs with +RTS -l -s), every +RTS -s figure the eventlog
// determines equals what -s printed for that same run, to -s's rounding;
// and `info --rts-summary` prints them in -s's layout.
#include "testsupport.h"

#include "core/load/loader.h"
#include "core/io/bytesource.h"
#include "core/stats/stats.h"
#include "core/report/info.h"
#include "core/report/rtssummary.h"
#include "core/text/units.h"

#include <QDir>
#include <QRegularExpression>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <map>

using namespace hecscope;

namespace {

// What +RTS -s printed, read from its text.
struct RtsSummary {
    uint64_t allocated = 0, copied = 0, residency = 0, residencySamples = 0, slop = 0;
    struct Gen {
        uint64_t colls = 0, par = 0;
        double elapsed = 0, avgPause = 0, maxPause = 0;
    };
    std::map<int, Gen> gens;
    bool hasSyncs = false;
    uint64_t syncs = 0;
    double syncElapsed = 0, syncMax = 0;
    double workBalance = -1; // %
    uint64_t sparks[6] = {}; // total, converted, overflowed, dud, GC'd, fizzled
    double init = 0, mut = 0, gc = 0, exit = 0, total = 0; // elapsed seconds
};

uint64_t grouped(const QString& s)
{
    return QString(s).remove(QLatin1Char(',')).toULongLong();
}

RtsSummary parse(const QString& text)
{
    RtsSummary r;
    const auto match = [&](const char* pattern) { return QRegularExpression(QLatin1String(pattern)).match(text); };
    r.allocated = grouped(match(R"(([\d,]+) bytes allocated in the heap)").captured(1));
    r.copied = grouped(match(R"(([\d,]+) bytes copied during GC)").captured(1));
    const auto res = match(R"(([\d,]+) bytes maximum residency \((\d+) sample)");
    r.residency = grouped(res.captured(1));
    r.residencySamples = res.captured(2).toULongLong();
    r.slop = grouped(match(R"(([\d,]+) bytes maximum slop)").captured(1));
    auto gens = QRegularExpression(QLatin1String(
                                       R"(Gen\s+(\d+)\s+(\d+) colls,\s+(\d+) par\s+[\d.]+s\s+([\d.]+)s\s+([\d.]+)s\s+([\d.]+)s)"))
                    .globalMatch(text);
    while (gens.hasNext()) {
        const auto m = gens.next();
        r.gens[m.captured(1).toInt()] = {m.captured(2).toULongLong(), m.captured(3).toULongLong(), m.captured(4).toDouble(),
                                         m.captured(5).toDouble(), m.captured(6).toDouble()};
    }
    const auto syncs = match(R"(Gen\s+\d+\s+(\d+) syncs,\s+([\d.]+)s\s+([\d.]+)s\s+([\d.]+)s)");
    if (syncs.hasMatch()) {
        r.hasSyncs = true;
        r.syncs = syncs.captured(1).toULongLong();
        r.syncElapsed = syncs.captured(2).toDouble();
        r.syncMax = syncs.captured(4).toDouble();
    }
    const auto balance = match(R"(Parallel GC work balance: ([\d.]+)%)");
    if (balance.hasMatch())
        r.workBalance = balance.captured(1).toDouble();
    const auto sp = match(R"(SPARKS: (\d+) \((\d+) converted, (\d+) overflowed, (\d+) dud, (\d+) GC'd, (\d+) fizzled\))");
    for (int i = 0; i < 6; ++i)
        r.sparks[i] = sp.captured(i + 1).toULongLong();
    const auto elapsed = [&](const char* what) {
        return match((std::string(what) + R"(\s+time\s+[\d.]+s\s+\(\s*([\d.]+)s elapsed\))").c_str()).captured(1).toDouble();
    };
    r.init = elapsed("INIT");
    r.mut = elapsed("MUT");
    r.gc = elapsed("\n  GC");
    r.exit = elapsed("EXIT");
    r.total = elapsed("Total");
    return r;
}

} // namespace

class TestRtsSummary : public QObject {
    Q_OBJECT
private slots:
    void figuresEqualTheRts_data();
    void figuresEqualTheRts();
    void aRangeWithoutSamplesSaysSo();
    void parkedCapabilitiesAreNotCollecting();
};

namespace {

// The union over capabilities of their collecting spans (isCollecting),
// read from the timelines span by span.
uint64_t collectingUnion(const LogIndex& ix)
{
    std::vector<std::pair<uint64_t, uint64_t>> spans;
    for (const Capability& cap : ix.caps)
        for (size_t i = 0; i < cap.timeline.size(); ++i)
            if (isCollecting(cap.timeline[i].kind()))
                spans.emplace_back(cap.timeline[i].start(), cap.timeline[i].end());
    std::sort(spans.begin(), spans.end());
    uint64_t sum = 0, from = 0, to = 0;
    bool open = false;
    for (const auto& [a, b] : spans) {
        if (open && a <= to) {
            to = std::max(to, b);
            continue;
        }
        if (open)
            sum += to - from;
        from = a, to = b, open = true;
    }
    return open ? sum + (to - from) : 0;
}

} // namespace

void TestRtsSummary::figuresEqualTheRts_data()
{
    QTest::addColumn<QString>("log");
    const QDir dir(QStringLiteral(HECSCOPE_TESTDATA_DIR "/rts-summary"));
    const QStringList logs = dir.entryList({QStringLiteral("*.eventlog")}, QDir::Files, QDir::Name);
    QVERIFY(logs.size() >= 8);
    for (const QString& log : logs)
        QTest::newRow(qPrintable(log)) << dir.filePath(log);
}

void TestRtsSummary::figuresEqualTheRts()
{
    QFETCH(QString, log);
    QString sPath = log;
    sPath.replace(QLatin1String(".eventlog"), QLatin1String(".s.txt"));
    const QString sText = QString::fromStdString(test::readText(sPath));
    QVERIFY2(sText.contains(QLatin1String("bytes allocated in the heap")), qPrintable(sPath));
    const RtsSummary rts = parse(sText);
    std::string error;
    const auto source = FileSource::open(log.toStdString(), error);
    QVERIFY2(source, error.c_str());
    const auto loaded = loadIndex(*source);
    const LogIndex& ix = *loaded.index;
    QVERIFY(!ix.scan.hasError);
    const RangeStats st = computeStats(ix);

    // Exact figures.
    QCOMPARE(st.allocatedBytes, rts.allocated);
    QCOMPARE(st.copiedBytes, rts.copied);
    QCOMPARE(st.maxResidencyBytes, rts.residency);
    QCOMPARE(st.residencySamples, rts.residencySamples);
    QCOMPARE(st.maxSlopBytes, rts.slop);
    const SparkTotals& sp = st.sparks;
    const uint64_t ours[6] = {sp.total(), sp.converted, sp.overflowed, sp.dud, sp.gcd, sp.fizzled};
    for (int i = 0; i < 6; ++i)
        QCOMPARE(ours[i], rts.sparks[i]);
    // Per generation: counts exactly, times to -s's rounding (3 decimals
    // for elapsed, 4 for pauses) with one unit for the two clocks.
    uint64_t collections = 0;
    for (const auto& [g, want] : rts.gens) {
        GenerationStats have{g, 0, 0, 0, 0, 0};
        for (const GenerationStats& x : st.generations)
            if (x.generation == g)
                have = x;
        const QByteArray where = QStringLiteral("generation %1").arg(g).toUtf8();
        QVERIFY2(have.collections == want.colls, where + " collections");
        QVERIFY2(have.parallel == want.par, where + " parallel");
        QVERIFY2(std::abs(double(have.elapsed) / 1e9 - want.elapsed) <= 0.0015, where + " elapsed");
        const double avg = have.collections ? double(have.elapsed) / 1e9 / double(have.collections) : 0;
        QVERIFY2(std::abs(avg - want.avgPause) <= 0.00015, where + " average pause");
        QVERIFY2(std::abs(double(have.maxPause) / 1e9 - want.maxPause) <= 0.00015, where + " maximum pause");
        collections += want.colls;
    }
    QCOMPARE(st.collections, collections);
    QVERIFY(st.generations.size() <= rts.gens.size()); // no collection the RTS did not make
    if (rts.workBalance >= 0)
        QVERIFY2(std::abs(st.workBalance * 100 - rts.workBalance) <= 0.006,
                 qPrintable(QStringLiteral("%1 vs %2").arg(st.workBalance * 100).arg(rts.workBalance)));
    if (rts.hasSyncs) {
        QVERIFY(st.nonmoving);
        QVERIFY(std::abs(double(st.nonmovingSyncNs) / 1e9 - rts.syncElapsed) <= 0.0015);
        QVERIFY(std::abs(double(st.nonmovingSyncMaxNs) / 1e9 - rts.syncMax) <= 0.00015);
    }
    // Elapsed times: GC and Total to the millisecond -s prints (and one for
    // the clocks); MUT here includes INIT and EXIT, which have no events.
    QVERIFY2(std::abs(double(st.gcNs) / 1e9 - rts.gc) <= 0.0015, "GC elapsed");
    QVERIFY2(std::abs(double(st.totalNs) / 1e9 - rts.total) <= 0.0025, "Total elapsed");
    QVERIFY2(std::abs(double(st.mutatorNs) / 1e9 - (rts.mut + rts.init + rts.exit)) <= 0.0035, "MUT elapsed");
    // Capabilities collect only inside their collections (issue #25): the
    // union of their collecting time is -s's GC elapsed, to the same
    // millisecond; no capability collects longer; and each one's figures
    // (running, collecting, waiting for a collection, parked after one,
    // idle) add up to the run.
    const uint64_t anyCollecting = collectingUnion(ix);
    QVERIFY2(std::abs(double(anyCollecting) / 1e9 - rts.gc) <= 0.0015,
             qPrintable(QStringLiteral("collecting %1 s vs GC elapsed %2 s").arg(double(anyCollecting) / 1e9).arg(rts.gc)));
    QCOMPARE(st.gcAnyCapNs, anyCollecting);
    for (const CapStats& c : st.caps) {
        QVERIFY2(c.gc <= anyCollecting, qPrintable(QStringLiteral("cap %1").arg(c.cap)));
        QCOMPARE(c.running + c.gc + c.gcSync + c.parked + c.idle, st.totalNs);
    }

    // The layout: -s's own lines for these figures, character for character.
    const std::string text = rtsSummaryText(ix, st, true);
    for (const char* line : {"bytes allocated in the heap", "bytes copied during GC", "bytes maximum residency",
                             "bytes maximum slop", "SPARKS:", "Parallel GC work balance"}) {
        const QRegularExpression re(QStringLiteral("^.*%1.*$").arg(QRegularExpression::escape(QLatin1String(line))),
                                    QRegularExpression::MultilineOption);
        const QString want = re.match(sText).captured(0);
        if (!want.isEmpty())
            QVERIFY2(QString::fromStdString(text).contains(want), qPrintable(want));
    }
    auto colls = QRegularExpression(QStringLiteral(R"(^  Gen\s+\d+\s+\d+ colls,\s+\d+ par)"), QRegularExpression::MultilineOption)
                     .globalMatch(sText);
    while (colls.hasNext()) {
        const QString prefix = colls.next().captured(0);
        QVERIFY2(QString::fromStdString(text).contains(prefix), qPrintable(prefix));
    }
}

// parfib 34 at -N8 on 2 cores: capability 7 sits in GC_START..GC_END for
// ~95% of the run, but collects only inside the collections (2.4%: GC is
// 5.8 ms of 240 ms); the rest of those spans is waiting for a collection
// to begin or parked after one ended, counted apart and named by `info`.
void TestRtsSummary::parkedCapabilitiesAreNotCollecting()
{
    std::string error;
    const auto source = FileSource::open(HECSCOPE_TESTDATA_DIR "/rts-summary/parfib-N8-s.eventlog", error);
    QVERIFY2(source, error.c_str());
    const auto ix = loadIndex(*source).index;
    const RangeStats st = computeStats(*ix);
    QCOMPARE(st.caps.size(), size_t(8));
    const CapStats& cap7 = st.caps[7];
    const double total = double(st.totalNs);
    QVERIFY2(double(cap7.gc) / total < 0.05, qPrintable(QString::number(double(cap7.gc) / total)));
    QVERIFY(double(cap7.gc + cap7.gcSync + cap7.parked) / total > 0.9); // its GC_START..GC_END
    QVERIFY(double(cap7.parked) / total > 0.2);
    QVERIFY(st.parkedCapNs >= cap7.parked && st.gcSyncCapNs >= cap7.gcSync);
    // The timeline: spans after a collection's end are GcParked, none of
    // them inside a collection's pause.
    size_t parked = 0;
    const CapTimeline& tl = ix->caps[7].timeline;
    for (size_t i = 0; i < tl.size(); ++i) {
        if (tl[i].kind() != SpanKind::GcParked)
            continue;
        ++parked;
        for (const Collection& c : ix->collections)
            QVERIFY(tl[i].end() <= c.leaderStart || tl[i].start() >= c.leaderEnd);
    }
    QVERIFY(parked > 50);
    const std::string text = infoText(*ix, st, "parfib-N8-s.eventlog");
    QVERIFY2(text.find("parked after one ended") != std::string::npos, text.c_str());
}

// A range between two heap samples has no maximum to print: the figures
// say "no sample in range" (and the -s block why it has no residency or
// slop), never 0 B; a range holding samples prints their maximum.
void TestRtsSummary::aRangeWithoutSamplesSaysSo()
{
    std::string error;
    const auto source = FileSource::open(HECSCOPE_TESTDATA_DIR "/rts-summary/leak-hT-s.eventlog", error);
    QVERIFY2(source, error.c_str());
    const auto ix = loadIndex(*source).index;
    const auto& live = ix->heapLive;
    QVERIFY(live.size() > 4);
    // Between the second and third live-data samples, no sample of any series.
    uint64_t from = live[1].time + 1, to = live[2].time;
    for (const auto* series : {&ix->heapSize, &ix->blocksSize, &ix->heapLive})
        for (const auto& sample : *series)
            if (sample.time >= from && sample.time < to)
                to = std::max(from + 1, sample.time); // shrink to before it
    const RangeStats empty = computeStats(*ix, from, to);
    QCOMPARE(empty.liveSamples, uint64_t(0));
    QCOMPARE(empty.heapSizeSamples, uint64_t(0));
    const std::string info = infoText(*ix, empty, "leak-hT-s.eventlog");
    QVERIFY2(info.find("maximum size no sample in range, maximum live no sample in range") != std::string::npos, info.c_str());
    QVERIFY(info.find("maximum live 0 B") == std::string::npos);
    if (empty.residencySamples == 0) {
        const std::string s = rtsSummaryText(*ix, empty, false);
        QVERIFY2(s.find("bytes maximum slop (no collection of the oldest generation in range)") != std::string::npos, s.c_str());
    }
    // Around a live-data sample: its value, or more.
    const RangeStats one = computeStats(*ix, live[1].time, live[1].time + 1);
    QCOMPARE(one.liveSamples, uint64_t(1));
    QCOMPARE(one.maxLiveBytes, live[1].value);
    QVERIFY(infoText(*ix, one, "x").find("maximum live " + formatBytes(double(live[1].value))) != std::string::npos);
}

QTEST_GUILESS_MAIN(TestRtsSummary)
#include "tst_rtssummary.moc"
