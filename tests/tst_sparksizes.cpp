// Spark sizes (core/stats/sparksizes.h): on the real -lf log, every
// evaluation is checked against an independent walk of the log's
// `ghc-events show` text (our dump), brute force; ranges and capabilities
// split and add up; -l logs say they need -lf. Edge cases (a run cut by the
// end of the log, a collection in the middle of a spark, a migration, a
// spark with no thread) are logs written by the project's encoder.
#include "tst_sparksizes.h"

namespace sparksizestest {

Loaded load(const std::vector<uint8_t>& bytes)
{
    auto source = std::make_shared<MemorySource>(bytes);
    return {loadIndex(*source, bytes.size()).index, source};
}

SparkEvaluations evaluate(const Loaded& ix, std::optional<ViewRange> range)
{
    return sparkEvaluations(*ix.index, *ix.source, range);
}

std::vector<Walked> walkDump(const std::string& dump)
{
    static const QRegularExpression line(QStringLiteral("^(\\d+): cap (\\d+): (.*)$"));
    static const QRegularExpression running(QStringLiteral("^running thread (\\d+)$"));
    static const QRegularExpression stopping(QStringLiteral("^stopping thread (\\d+) \\((.*)\\)$"));
    struct Run {
        uint64_t start, end;
        bool finished;
    };
    struct Open {
        uint32_t thread;
        uint64_t start;
    };
    std::map<int, Open> open;
    std::map<uint32_t, std::vector<Run>> runs;
    std::vector<Walked> sparks;
    uint64_t last = 0;
    const auto close = [&](int cap, uint64_t t, bool finished) {
        if (auto it = open.find(cap); it != open.end()) {
            runs[it->second.thread].push_back({it->second.start, t, finished});
            open.erase(it);
        }
    };
    for (const QString& text : QString::fromStdString(dump).split(QLatin1Char('\n'))) {
        const auto head = QRegularExpression(QStringLiteral("^(\\d+): ")).match(text);
        if (head.hasMatch())
            last = std::max<uint64_t>(last, head.captured(1).toULongLong());
        const auto m = line.match(text);
        if (!m.hasMatch())
            continue;
        const uint64_t t = m.captured(1).toULongLong();
        const int cap = m.captured(2).toInt();
        const QString what = m.captured(3);
        if (const auto r = running.match(what); r.hasMatch()) {
            close(cap, t, false);
            open[cap] = {uint32_t(r.captured(1).toUInt()), t};
        } else if (const auto s = stopping.match(what); s.hasMatch()) {
            close(cap, t, s.captured(2) == QLatin1String("thread finished"));
        } else if (what == QLatin1String("starting GC")) {
            close(cap, t, false);
        } else if (what == QLatin1String("running a local spark") || what.startsWith(QLatin1String("stealing a spark from cap "))) {
            Walked w;
            w.start = t;
            w.cap = uint16_t(cap);
            w.stolen = what.startsWith(QLatin1String("stealing"));
            w.thread = open.count(cap) ? open[cap].thread : UINT32_MAX;
            sparks.push_back(w);
        }
    }
    for (const auto& [cap, o] : std::map<int, Open>(open))
        close(cap, last, false);
    for (Walked& w : sparks) {
        uint64_t until = UINT64_MAX;
        for (const Walked& other : sparks)
            if (other.thread == w.thread && other.start > w.start)
                until = std::min(until, other.start);
        for (const Run& r : runs[w.thread]) {
            const uint64_t a = std::max(r.start, w.start), b = std::min(r.end, until);
            if (b > a)
                w.duration += b - a;
            if (r.finished && r.end >= w.start && r.end <= until)
                w.finished = true;
        }
    }
    std::sort(sparks.begin(), sparks.end(), [](const Walked& a, const Walked& b) {
        return a.start != b.start ? a.start < b.start : a.cap < b.cap;
    });
    return sparks;
}

} // namespace sparksizestest

namespace {

OwnedEvent ev(uint16_t tag, uint64_t t, std::initializer_list<uint64_t> n = {})
{
    return OwnedEvent(tag, t, n);
}

uint64_t binTotal(const SparkSizes& s, int log2, bool count)
{
    for (const SparkSizeBin& b : s.bins)
        if (b.log2 == log2)
            return count ? b.count : b.total;
    return 0;
}

// a + b == whole, bin by bin.
void compareSum(const SparkSizes& a, const SparkSizes& b, const SparkSizes& whole)
{
    QCOMPARE(a.count + b.count, whole.count);
    QCOMPARE(a.total + b.total, whole.total);
    QCOMPARE(a.stolen + b.stolen, whole.stolen);
    QCOMPARE(a.cut + b.cut, whole.cut);
    for (const SparkSizeBin& w : whole.bins) {
        QCOMPARE(binTotal(a, w.log2, true) + binTotal(b, w.log2, true), w.count);
        QCOMPARE(binTotal(a, w.log2, false) + binTotal(b, w.log2, false), w.total);
    }
}

} // namespace

// Every SPARK_RUN and SPARK_STEAL of the log is one evaluation, with the
// duration the text walk finds.
void TestSparkSizes::realLogMatchesTextWalk()
{
    const std::vector<uint8_t> bytes = readFile(kSparksLf);
    const std::vector<Walked> walked = walkDump(dumpBytes(bytes));
    const auto ix = load(bytes);
    const SparkEvaluations evals = evaluate(ix);
    QVERIFY(evals.fineGrained);
    QCOMPARE(evals.unattributed, uint64_t(0));
    // The text has 848 of them (7 local, 841 stolen): a test on a handful
    // would prove little.
    QVERIFY(walked.size() > 800);
    QCOMPARE(evals.evaluations.size(), walked.size());
    uint64_t stolen = 0, finished = 0;
    for (size_t i = 0; i < walked.size(); ++i) {
        const SparkEvaluation& e = evals.evaluations[i];
        const Walked& w = walked[i];
        const QString where = QStringLiteral("evaluation %1 at %2").arg(i).arg(w.start);
        QVERIFY2(w.thread != UINT32_MAX, qPrintable(where));
        QVERIFY2(e.start == w.start, qPrintable(where));
        QVERIFY2(e.cap == w.cap, qPrintable(where));
        QVERIFY2(e.thread == w.thread, qPrintable(where));
        QVERIFY2(e.stolen == w.stolen, qPrintable(where));
        QVERIFY2(e.duration == w.duration, qPrintable(where + QStringLiteral(": %1 ns, walk %2 ns").arg(e.duration).arg(w.duration)));
        QVERIFY2((e.end == SparkEnd::ThreadFinished) == w.finished, qPrintable(where));
        stolen += e.stolen;
        finished += e.end == SparkEnd::ThreadFinished;
    }
    QCOMPARE(stolen, uint64_t(std::count_if(walked.begin(), walked.end(), [](const Walked& w) { return w.stolen; })));
    // The log ends after its spark threads finish: none is cut, and each
    // spark thread's last spark ended with it.
    QVERIFY(finished > 0);
    QVERIFY(std::none_of(evals.evaluations.begin(), evals.evaluations.end(),
                         [](const SparkEvaluation& e) { return e.end == SparkEnd::Cut; }));
    // The RTS's own count of converted sparks agrees.
    uint64_t converted = 0;
    for (const Capability& c : ix->caps)
        if (!c.sparks.empty())
            converted += c.sparks.back().converted;
    QCOMPARE(uint64_t(walked.size()), converted);
}

void TestSparkSizes::realLogRangesAndCapsAddUp()
{
    const std::vector<uint8_t> bytes = readFile(kSparksLf);
    const std::vector<Walked> walked = walkDump(dumpBytes(bytes));
    const auto ix = load(bytes);
    const SparkEvaluations evals = evaluate(ix);
    const SparkSizes whole = sparkSizes(evals, std::nullopt);
    QCOMPARE(whole.status, SparkSizesStatus::Ok);
    QCOMPARE(whole.count, uint64_t(walked.size()));

    // Capabilities: each counts the sparks that started on it.
    const SparkSizes cap0 = sparkSizes(evals, std::nullopt, 0), cap1 = sparkSizes(evals, std::nullopt, 1);
    const auto onCap = [&](int c) { return uint64_t(std::count_if(walked.begin(), walked.end(), [c](const Walked& w) { return w.cap == c; })); };
    QCOMPARE(cap0.count, onCap(0));
    QCOMPARE(cap1.count, onCap(1));
    QVERIFY(cap0.count > 0 && cap1.count > 0);
    compareSum(cap0, cap1, whole);

    // Ranges: counted from the text's event times; halves add up.
    const uint64_t t0 = ix->firstTime, t1 = ix->lastTime + 1;
    const ViewRange all{t0, t1};
    const SparkSizes inAll = sparkSizes(evals, all);
    QCOMPARE(inAll.count, whole.count);
    QCOMPARE(inAll.total, whole.total);
    for (int part = 1; part < 8; ++part) {
        const uint64_t tm = t0 + (t1 - t0) * uint64_t(part) / 8;
        const SparkSizes a = sparkSizes(evals, ViewRange{t0, tm}), b = sparkSizes(evals, ViewRange{tm, t1});
        const auto before = uint64_t(std::count_if(walked.begin(), walked.end(), [tm](const Walked& w) { return w.start < tm; }));
        QCOMPARE(a.count, before);
        compareSum(a, b, whole);
        // A range and a capability together.
        const SparkSizes a1 = sparkSizes(evals, ViewRange{t0, tm}, 1);
        QCOMPARE(a1.count, uint64_t(std::count_if(walked.begin(), walked.end(), [tm](const Walked& w) { return w.start < tm && w.cap == 1; })));
    }
    // A spark exactly at a range's end belongs to the next range.
    const uint64_t s = walked[walked.size() / 2].start;
    const auto at = uint64_t(std::count_if(walked.begin(), walked.end(), [s](const Walked& w) { return w.start == s; }));
    QCOMPARE(sparkSizes(evals, ViewRange{s, s + 1}).count, at);
    QCOMPARE(sparkSizes(evals, ViewRange{t0, s}).count + sparkSizes(evals, ViewRange{s, t1}).count, whole.count);
}

// The histogram's figures against the walk's durations, sorted.
void TestSparkSizes::realLogHistogram()
{
    const std::vector<uint8_t> bytes = readFile(kSparksLf);
    std::vector<Walked> walked = walkDump(dumpBytes(bytes));
    const auto ix = load(bytes);
    const SparkSizes s = sparkSizes(evaluate(ix), std::nullopt);
    std::vector<uint64_t> d;
    uint64_t total = 0;
    for (const Walked& w : walked) {
        d.push_back(w.duration);
        total += w.duration;
    }
    std::sort(d.begin(), d.end());
    QCOMPARE(s.total, total);
    QCOMPARE(s.min, d.front());
    QCOMPARE(s.max, d.back());
    QCOMPARE(s.mean, total / d.size());
    // Nearest rank: the ceil(n p)-th smallest.
    const auto rank = [&](double p) { return d[size_t(std::ceil(double(d.size()) * p)) - 1]; };
    QCOMPARE(s.median, rank(0.5));
    QCOMPARE(s.p10, rank(0.1));
    QCOMPARE(s.p90, rank(0.9));
    QCOMPARE(s.p99, rank(0.99));
    QVERIFY(s.p10 < s.median && s.median < s.p90); // a real spread, not one value
    // Every duration in its bin; bins contiguous.
    uint64_t counted = 0;
    for (size_t i = 0; i < s.bins.size(); ++i) {
        const SparkSizeBin& b = s.bins[i];
        if (i > 0)
            QCOMPARE(b.log2, s.bins[i - 1].log2 + 1);
        QCOMPARE(b.hi, uint64_t(1) << (b.log2 + 1));
        const auto n = uint64_t(std::count_if(d.begin(), d.end(), [&](uint64_t x) { return x >= b.lo && x < b.hi; }));
        QCOMPARE(b.count, n);
        counted += b.count;
    }
    QCOMPARE(counted, uint64_t(d.size()));
    QVERIFY(s.bins.front().count > 0 && s.bins.back().count > 0);
}

// Logs written without -lf: a clear "needs -lf", whatever the range.
void TestSparkSizes::logsWithoutFineGrainedEvents_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<bool>("counters");
    QTest::newRow("sparks-N2 (-l)") << QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/sparks-N2.eventlog") << true;
    QTest::newRow("sparks-N1 (-l)") << QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/sparks-N1.eventlog") << true;
    const QString dir = conformanceDir();
    if (!dir.isEmpty())
        QTest::newRow("parallelTest") << dir + QStringLiteral("/ghc-events/parallelTest.eventlog") << false;
}

void TestSparkSizes::logsWithoutFineGrainedEvents()
{
    QFETCH(QString, path);
    QFETCH(bool, counters);
    const std::vector<uint8_t> bytes = readFile(path);
    QVERIFY2(!bytes.empty(), qPrintable(path));
    // The text agrees that there is no spark event to measure.
    QVERIFY(walkDump(dumpBytes(bytes)).empty());
    const auto ix = load(bytes);
    const SparkEvaluations evals = evaluate(ix);
    QVERIFY(!evals.fineGrained);
    QCOMPARE(evals.countersSparks > 0, counters);
    for (const auto& range : {std::optional<ViewRange>(), std::optional<ViewRange>(ViewRange{0, ix->lastTime / 2})}) {
        const SparkSizes s = sparkSizes(evals, range);
        QCOMPARE(s.status, SparkSizesStatus::NoFineGrainedEvents);
        QCOMPARE(s.count, uint64_t(0));
        const std::string message = sparkSizesMessage(s, evals);
        QVERIFY2(message.find("+RTS -lf") != std::string::npos, message.c_str());
        QCOMPARE(message.find("spark counters") != std::string::npos, counters);
    }
    // The counters' figures are the Statistics pane's (as +RTS -s totals them).
    if (counters) {
        const RangeStats st = computeStats(*ix);
        QCOMPARE(evals.countersSparks, st.sparks.total());
        QCOMPARE(evals.countersConverted, st.sparks.converted);
        const std::string message = sparkSizesMessage(sparkSizes(evals, std::nullopt), evals);
        // (built with append: GCC 12 warns falsely on "(" + std::string)
        std::string want = "(";
        want.append(formatGrouped(st.sparks.total())).append(" sparks, ").append(formatGrouped(st.sparks.converted)).append(" converted)");
        QVERIFY2(message.find(want) != std::string::npos, message.c_str());
    }
}

void TestSparkSizes::rangeWithoutSpark()
{
    const std::vector<uint8_t> bytes = readFile(kSparksLf);
    const auto ix = load(bytes);
    const SparkEvaluations evals = evaluate(ix);
    // Before the first spark thread ran (the first evaluation's start).
    const uint64_t first = evals.evaluations.front().start;
    const SparkSizes s = sparkSizes(evals, ViewRange{0, first});
    QCOMPARE(s.status, SparkSizesStatus::NoSparkRan);
    QVERIFY(s.bins.empty());
    QCOMPARE(sparkSizesMessage(s, evals), std::string("No spark ran in this range."));
    // A capability with none: cap 1 of a range where only cap 0 had any.
    const SparkSizes one = sparkSizes(evals, ViewRange{first, first + 1}, 1 - evals.evaluations.front().cap);
    QCOMPARE(one.status, SparkSizesStatus::NoSparkRan);
}

// -lf events, but every spark fizzled: not "needs -lf".
void TestSparkSizes::sparksCreatedButNoneRan()
{
    LogBuilder b;
    b.block(0, {ev(tag::RunThread, 10, {1}), ev(tag::SparkCreate, 20), ev(tag::SparkFizzle, 30), ev(tag::StopThread, 40, {1, 5, 0})});
    const auto ix = load(b.bytes());
    const SparkEvaluations evals = evaluate(ix);
    QVERIFY(evals.fineGrained);
    const SparkSizes s = sparkSizes(evals, std::nullopt);
    QCOMPARE(s.status, SparkSizesStatus::NoSparkRan);
    QVERIFY(sparkSizesMessage(s, evals).find("No spark ran in this log") == 0);
}

// A spark ends where its thread picks the next one; the last ends with the thread.
void TestSparkSizes::twoSparksInOneRun()
{
    LogBuilder b;
    b.block(0, {ev(tag::CreateSparkThread, 5, {7}), ev(tag::RunThread, 10, {7}), ev(tag::SparkRun, 12), ev(tag::SparkSteal, 40, {1}), ev(tag::StopThread, 100, {7, 5, 0})});
    const auto ix = load(b.bytes());
    const SparkEvaluations evals = evaluate(ix);
    QCOMPARE(evals.evaluations.size(), size_t(2));
    const SparkEvaluation &a = evals.evaluations[0], &c = evals.evaluations[1];
    QCOMPARE(a.duration, uint64_t(28));
    QCOMPARE(a.end, SparkEnd::NextSpark);
    QVERIFY(!a.stolen);
    QCOMPARE(c.duration, uint64_t(60));
    QCOMPARE(c.end, SparkEnd::ThreadFinished);
    QVERIFY(c.stolen);
    QCOMPARE(a.thread, 7u);
}

// Heap overflow, a collection, the thread resumes: the collection is not
// evaluation time, and the spark goes on after it.
void TestSparkSizes::collectionPausesASpark()
{
    LogBuilder b;
    b.block(0, {ev(tag::RunThread, 100, {7}), ev(tag::SparkRun, 110), ev(tag::StopThread, 200, {7, 1, 0}), ev(tag::GcStart, 210), ev(tag::GcEnd, 300), ev(tag::RunThread, 310, {7}), ev(tag::StopThread, 400, {7, 5, 0})});
    const auto ix = load(b.bytes());
    const SparkEvaluations evals = evaluate(ix);
    QCOMPARE(evals.evaluations.size(), size_t(1));
    QCOMPARE(evals.evaluations[0].duration, uint64_t(90 + 90));
    QCOMPARE(evals.evaluations[0].end, SparkEnd::ThreadFinished);
}

// GC_START without a STOP_THREAD closes the run (the index's rule): the
// same pause.
void TestSparkSizes::gcWithoutStopPausesASpark()
{
    LogBuilder b;
    b.block(0, {ev(tag::RunThread, 100, {7}), ev(tag::SparkRun, 150), ev(tag::GcStart, 200), ev(tag::GcEnd, 260), ev(tag::RunThread, 270, {7}), ev(tag::SparkRun, 280), ev(tag::StopThread, 330, {7, 5, 0})});
    const auto ix = load(b.bytes());
    const SparkEvaluations evals = evaluate(ix);
    QCOMPARE(evals.evaluations.size(), size_t(2));
    QCOMPARE(evals.evaluations[0].duration, uint64_t(50 + 10));
    QCOMPARE(evals.evaluations[1].duration, uint64_t(50));
}

// The log ends while the spark is evaluated (running or stopped): counted
// up to the end, marked cut.
void TestSparkSizes::runCutByEndOfLog()
{
    LogBuilder b;
    b.block(0, {ev(tag::RunThread, 10, {7}), ev(tag::SparkRun, 20)});
    b.block(1, {ev(tag::RunThread, 15, {8}), ev(tag::SparkSteal, 25, {0}), ev(tag::StopThread, 45, {8, 3, 0}), ev(tag::UserMarker, 100)});
    const auto ix = load(b.bytes());
    const SparkEvaluations evals = evaluate(ix);
    QCOMPARE(evals.evaluations.size(), size_t(2));
    const SparkEvaluation &running = evals.evaluations[0], &stopped = evals.evaluations[1];
    QCOMPARE(running.cap, uint16_t(0));
    QCOMPARE(running.duration, uint64_t(100 - 20)); // the open run ends with the log
    QCOMPARE(running.end, SparkEnd::Cut);
    QCOMPARE(stopped.duration, uint64_t(45 - 25)); // yielded, never resumed
    QCOMPARE(stopped.end, SparkEnd::Cut);
    const SparkSizes s = sparkSizes(evals, std::nullopt);
    QCOMPARE(s.cut, uint64_t(2));
}

// The thread yields on cap 0 and resumes on cap 1: the spark's time is
// summed over both, and it belongs to the capability it started on.
void TestSparkSizes::sparkFollowsItsThreadToAnotherCap()
{
    LogBuilder b;
    b.block(0, {ev(tag::RunThread, 10, {7}), ev(tag::SparkRun, 20), ev(tag::StopThread, 50, {7, 3, 0}), ev(tag::MigrateThread, 51, {7, 1})});
    b.block(1, {ev(tag::RunThread, 80, {7}), ev(tag::SparkSteal, 95, {0}), ev(tag::StopThread, 120, {7, 5, 0})});
    const auto ix = load(b.bytes());
    const SparkEvaluations evals = evaluate(ix);
    QCOMPARE(evals.evaluations.size(), size_t(2));
    QCOMPARE(evals.evaluations[0].duration, uint64_t(30 + 15));
    QCOMPARE(evals.evaluations[0].cap, uint16_t(0));
    QCOMPARE(evals.evaluations[1].duration, uint64_t(25));
    QCOMPARE(evals.evaluations[1].cap, uint16_t(1));
    QCOMPARE(sparkSizes(evals, std::nullopt, 0).count, uint64_t(1));
    QCOMPARE(sparkSizes(evals, std::nullopt, 0).total, uint64_t(45));
}

// A SPARK_RUN with no thread running on its capability is counted, not measured.
void TestSparkSizes::sparkWithoutThread()
{
    LogBuilder b;
    b.block(0, {ev(tag::SparkRun, 5), ev(tag::RunThread, 10, {7}), ev(tag::SparkRun, 20), ev(tag::StopThread, 30, {7, 5, 0}), ev(tag::SparkRun, 40)});
    const auto ix = load(b.bytes());
    const SparkEvaluations evals = evaluate(ix);
    QCOMPARE(evals.unattributed, uint64_t(2));
    QCOMPARE(evals.evaluations.size(), size_t(1));
    QCOMPARE(evals.evaluations[0].duration, uint64_t(10));
}

// A SPARK_RUN written at the same nanosecond as its thread's stop still
// belongs to that thread (an event at the end of a run).
void TestSparkSizes::sparkAtTheStopInstant()
{
    LogBuilder b;
    b.block(0, {ev(tag::RunThread, 10, {7}), ev(tag::SparkRun, 20), ev(tag::SparkRun, 30), ev(tag::StopThread, 30, {7, 3, 0}), ev(tag::RunThread, 50, {7}), ev(tag::StopThread, 70, {7, 5, 0})});
    const auto ix = load(b.bytes());
    const SparkEvaluations evals = evaluate(ix);
    QCOMPARE(evals.unattributed, uint64_t(0));
    QCOMPARE(evals.evaluations.size(), size_t(2));
    QCOMPARE(evals.evaluations[0].duration, uint64_t(10));
    QCOMPARE(evals.evaluations[1].duration, uint64_t(20));
    QCOMPARE(evals.evaluations[1].end, SparkEnd::ThreadFinished);
}

// Bins of known durations: 1, 2, 3, 4, 1000 ns (and a 0).
void TestSparkSizes::binsAndPercentiles()
{
    LogBuilder b;
    // One thread, sparks back to back: durations are the gaps.
    b.block(0, {ev(tag::RunThread, 100, {7}), ev(tag::SparkRun, 100), ev(tag::SparkRun, 100), ev(tag::SparkRun, 101), ev(tag::SparkRun, 103), ev(tag::SparkRun, 106), ev(tag::SparkRun, 110), ev(tag::StopThread, 1110, {7, 5, 0})});
    const auto ix = load(b.bytes());
    const SparkEvaluations evals = evaluate(ix);
    std::vector<uint64_t> d;
    for (const SparkEvaluation& e : evals.evaluations)
        d.push_back(e.duration);
    QCOMPARE(d, (std::vector<uint64_t>{0, 1, 2, 3, 4, 1000}));
    const SparkSizes s = sparkSizes(evals, std::nullopt);
    QCOMPARE(s.count, uint64_t(6));
    QCOMPARE(s.bins.front().log2, 0); // 0 and 1 ns
    QCOMPARE(s.bins.front().lo, uint64_t(0));
    QCOMPARE(s.bins.front().count, uint64_t(2));
    QCOMPARE(s.bins[1].count, uint64_t(2)); // 2, 3
    QCOMPARE(s.bins[1].total, uint64_t(5));
    QCOMPARE(s.bins[2].count, uint64_t(1)); // 4
    QCOMPARE(s.bins.back().log2, 9);        // 512 <= 1000 < 1024
    QCOMPARE(s.bins.size(), size_t(10));    // empty bins between are kept
    QCOMPARE(s.bins[5].count, uint64_t(0));
    QCOMPARE(s.median, uint64_t(2)); // the 3rd of 6
    QCOMPARE(s.p90, uint64_t(1000)); // the 6th
    QCOMPARE(s.p10, uint64_t(0));
    QCOMPARE(s.mean, uint64_t(1010 / 6));
}

QTEST_GUILESS_MAIN(TestSparkSizes)
