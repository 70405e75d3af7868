// Spark sizes (core/stats/sparksizes.h): on the real -lf log, every
// evaluation is checked against an independent walk of the log's
// `ghc-events show` text (our dump), brute force; ranges and capabilities
// split and add up; -l logs say they need -lf. Edge cases (a run cut by the
// end of the log, a collection in the middle of a spark, a migration, a
// spark with no thread) are logs written by the project's encoder.
#include "testsupport.h"

#include "core/detail/sparkdetail.h"
#include "core/format/encoder.h"
#include "core/format/eventtags.h"
#include "core/index/logindex.h"
#include "core/io/bytesource.h"
#include "core/load/loader.h"
#include "core/stats/sparksizes.h"
#include "core/stats/stats.h"
#include "core/text/units.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <map>

using namespace hecscope;
using namespace hecscope::test;

namespace {

// An index with the bytes it was made from: spark events are read back
// from them.
struct Loaded {
    std::unique_ptr<LogIndex> index;
    std::shared_ptr<MemorySource> source;
    const LogIndex* operator->() const { return index.get(); }
    const LogIndex& operator*() const { return *index; }
};

Loaded load(const std::vector<uint8_t>& bytes)
{
    auto source = std::make_shared<MemorySource>(bytes);
    return {loadIndex(*source, bytes.size()).index, source};
}

SparkEvaluations evaluate(const Loaded& ix, std::optional<ViewRange> range = std::nullopt)
{
    return sparkEvaluations(*ix.index, *ix.source, range);
}

OwnedEvent ev(uint16_t tag, uint64_t t, std::initializer_list<uint64_t> n = {})
{
    return OwnedEvent(tag, t, n);
}

// One evaluation as the text walk finds it.
struct Walked {
    uint64_t start = 0, duration = 0;
    uint32_t thread = 0;
    uint16_t cap = 0;
    bool stolen = false;
    bool finished = false; // its thread finished (not another spark, not cut)
};

// The rule of sparksizes.h applied to the dump text, the slow way: each
// capability's current thread from "running thread" / "stopping thread" /
// "starting GC" lines, each spark given the thread running on its
// capability, and its duration summed over every run of that thread
// clipped to [its start, the thread's next spark).
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

const QString kSparksLf = QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/sparks-lf-N2.eventlog");

} // namespace

class TestSparkSizes : public QObject {
    Q_OBJECT
private slots:
    void realLogMatchesTextWalk();
    void realLogRangesAndCapsAddUp();
    void realLogHistogram();
    void logsWithoutFineGrainedEvents_data();
    void logsWithoutFineGrainedEvents();
    void rangeWithoutSpark();
    void sparksCreatedButNoneRan();
    void twoSparksInOneRun();
    void collectionPausesASpark();
    void gcWithoutStopPausesASpark();
    void runCutByEndOfLog();
    void sparkFollowsItsThreadToAnotherCap();
    void sparkWithoutThread();
    void sparkAtTheStopInstant();
    void binsAndPercentiles();
    void commandLine();
    void commandLineWithoutFineGrainedEvents();
    void commandLineUsageErrors_data();
    void commandLineUsageErrors();
    void sparkEventsReadBackByRange();
    void rangedEvaluationsAreTheWholeRunsOnes();
    void changedFileIsToldNotMeasured();
    void indexKeepsNoSparkEvent();
};

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

// `hecscope sparks`: the same figures as text and JSON, for the run, a
// range and a capability, counted against the text walk.
void TestSparkSizes::commandLine()
{
    const std::vector<Walked> walked = walkDump(dumpBytes(readFile(kSparksLf)));
    const auto count = [&](uint64_t t1, int cap) {
        return qint64(std::count_if(walked.begin(), walked.end(), [&](const Walked& w) { return w.start < t1 && (cap < 0 || w.cap == cap); }));
    };
    const Run text = runHecscope({QStringLiteral("sparks"), kSparksLf});
    QCOMPARE(text.exitCode, 0);
    QVERIFY(text.err.isEmpty());
    const qint64 stolen = std::count_if(walked.begin(), walked.end(), [](const Walked& w) { return w.stolen; });
    QVERIFY2(text.out.contains(QStringLiteral("sparks evaluated: %1 (%2 stolen)").arg(QString::fromStdString(formatGrouped(walked.size())), QString::fromStdString(formatGrouped(uint64_t(stolen)))).toUtf8()),
             text.out.constData());
    QVERIFY(text.out.contains("whole run, all capabilities"));

    struct Case {
        QStringList args;
        qint64 want;
    };
    const Case cases[] = {
        {{}, qint64(walked.size())},
        {{QStringLiteral("--range"), QStringLiteral(":380ms")}, count(380'000'000, -1)},
        {{QStringLiteral("--cap"), QStringLiteral("1")}, count(UINT64_MAX, 1)},
        {{QStringLiteral("--range"), QStringLiteral(":380ms"), QStringLiteral("--cap"), QStringLiteral("0")}, count(380'000'000, 0)},
    };
    for (const Case& c : cases) {
        const Run r = runHecscope(QStringList{QStringLiteral("sparks"), kSparksLf, QStringLiteral("--json")} + c.args);
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o.value(QStringLiteral("status")).toString(), QStringLiteral("ok"));
        QCOMPARE(o.value(QStringLiteral("count")).toInteger(), c.want);
        QVERIFY(c.want > 0);
        qint64 inBins = 0;
        for (const QJsonValue& b : o.value(QStringLiteral("bins")).toArray())
            inBins += b.toObject().value(QStringLiteral("count")).toInteger();
        QCOMPARE(inBins, c.want);
    }
}

void TestSparkSizes::commandLineWithoutFineGrainedEvents()
{
    const QString path = QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/sparks-N2.eventlog");
    const Run r = runHecscope({QStringLiteral("sparks"), path, QStringLiteral("--json")});
    QCOMPARE(r.exitCode, 0);
    const QJsonObject o = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(o.value(QStringLiteral("status")).toString(), QStringLiteral("no_fine_grained_events"));
    QVERIFY(o.value(QStringLiteral("message")).toString().contains(QStringLiteral("+RTS -lf")));
    QCOMPARE(o.value(QStringLiteral("count")).toInteger(), 0);
    const Run text = runHecscope({QStringLiteral("sparks"), path});
    QCOMPARE(text.exitCode, 0);
    QVERIFY(text.out.contains("+RTS -lf"));
}

void TestSparkSizes::commandLineUsageErrors_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::newRow("no file") << QStringList{};
    QTest::newRow("cap beyond the log") << QStringList{kSparksLf, QStringLiteral("--cap"), QStringLiteral("2")};
    QTest::newRow("cap not a number") << QStringList{kSparksLf, QStringLiteral("--cap"), QStringLiteral("one")};
    QTest::newRow("range backwards") << QStringList{kSparksLf, QStringLiteral("--range"), QStringLiteral("2s:1s")};
    QTest::newRow("unknown option") << QStringList{kSparksLf, QStringLiteral("--csv")};
}

void TestSparkSizes::commandLineUsageErrors()
{
    QFETCH(QStringList, args);
    const Run r = runHecscope(QStringList{QStringLiteral("sparks")} + args);
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.err.contains("hecscope sparks: "));
    QVERIFY(r.out.isEmpty());
}

// The spark events read back from the file: all of them are the index's
// counts per kind; a range's are exactly those of the whole read in it.
void TestSparkSizes::sparkEventsReadBackByRange()
{
    const auto ix = load(readFile(kSparksLf));
    const SparkEventsRead all = readSparkEvents(*ix.source, *ix, 0, UINT64_MAX);
    QVERIFY2(all.error.empty(), all.error.c_str());
    std::map<uint16_t, uint64_t> byTag;
    for (const SparkEvent& e : all.events)
        ++byTag[e.tag];
    uint64_t counted[7] = {};
    for (const Capability& c : ix->caps)
        for (int k = 0; k < 7; ++k)
            counted[k] += c.sparkEvents[k];
    for (uint16_t t : {tag::SparkCreate, tag::SparkRun, tag::SparkFizzle, tag::SparkSteal})
        QCOMPARE(byTag[t], counted[t - tag::SparkCreate]);
    QVERIFY(byTag[tag::SparkCreate] > 800 && byTag[tag::SparkSteal] > 800);
    QVERIFY(std::is_sorted(all.events.begin(), all.events.end(),
                           [](const SparkEvent& a, const SparkEvent& b) { return a.time < b.time; }));
    const uint64_t end = ix->lastTime + 1;
    for (uint64_t i = 0; i < 16; ++i) {
        const uint64_t t0 = end / 16 * i + i * 7919, t1 = i == 15 ? end : end / 16 * (i + 1) + 13 * i;
        const SparkEventsRead part = readSparkEvents(*ix.source, *ix, t0, t1);
        QVERIFY2(part.error.empty(), part.error.c_str());
        std::vector<SparkEvent> want;
        std::copy_if(all.events.begin(), all.events.end(), std::back_inserter(want),
                     [&](const SparkEvent& e) { return e.time >= t0 && e.time < t1; });
        QCOMPARE(part.events.size(), want.size());
        for (size_t k = 0; k < want.size(); ++k) {
            QCOMPARE(part.events[k].time, want[k].time);
            QCOMPARE(part.events[k].cap, want[k].cap);
            QCOMPARE(part.events[k].tag, want[k].tag);
            QCOMPARE(part.events[k].other, want[k].other);
        }
    }
}

// What the pane computes for a range (its spark events read for it, and on
// past it for each thread's next spark) is what the whole run's evaluations
// say of that range: same evaluations, same durations and ends.
void TestSparkSizes::rangedEvaluationsAreTheWholeRunsOnes()
{
    const auto ix = load(readFile(kSparksLf));
    const SparkEvaluations whole = evaluate(ix);
    QVERIFY(whole.evaluations.size() > 800);
    const uint64_t end = ix->lastTime + 1;
    std::vector<ViewRange> ranges;
    for (uint64_t parts : {2, 3, 8, 40})
        for (uint64_t i = 0; i < parts; ++i)
            ranges.push_back({end / parts * i, i + 1 == parts ? end : end / parts * (i + 1)});
    for (size_t i = 0; i < whole.evaluations.size(); i += 97) // ranges starting or ending at a spark
        ranges.push_back({whole.evaluations[i].start, whole.evaluations[i].start + 1});
    ranges.push_back({whole.evaluations.back().start, end});
    int endedPastTheRange = 0;
    for (const ViewRange& r : ranges) {
        const SparkEvaluations ranged = evaluate(ix, r);
        const QString where = QStringLiteral("range %1-%2").arg(r.start).arg(r.end);
        QVERIFY2(ranged.error.empty(), ranged.error.c_str());
        QCOMPARE(ranged.unattributed, uint64_t(0));
        std::vector<SparkEvaluation> want;
        std::copy_if(whole.evaluations.begin(), whole.evaluations.end(), std::back_inserter(want),
                     [&](const SparkEvaluation& e) { return e.start >= r.start && e.start < r.end; });
        QVERIFY2(ranged.evaluations.size() == want.size(), qPrintable(where));
        for (size_t k = 0; k < want.size(); ++k) {
            const SparkEvaluation& g = ranged.evaluations[k];
            QVERIFY2(g.start == want[k].start && g.cap == want[k].cap && g.thread == want[k].thread, qPrintable(where));
            QVERIFY2(g.duration == want[k].duration && g.end == want[k].end && g.stolen == want[k].stolen,
                     qPrintable(where + QStringLiteral(": evaluation at %1: %2 ns, whole run %3 ns").arg(g.start).arg(g.duration).arg(want[k].duration)));
            endedPastTheRange += g.end == SparkEnd::NextSpark && g.start + g.duration >= r.end;
        }
        for (int cap : {-1, 0, 1}) {
            const SparkSizes a = sparkSizes(ranged, r, cap), b = sparkSizes(whole, r, cap);
            QCOMPARE(a.status, b.status);
            QCOMPARE(a.count, b.count);
            QCOMPARE(a.total, b.total);
            QCOMPARE(a.median, b.median);
            QCOMPARE(a.p99, b.p99);
            QCOMPARE(a.bins.size(), b.bins.size());
            QCOMPARE(sparkSizesMessage(a, ranged), sparkSizesMessage(b, whole));
        }
    }
    QVERIFY(endedPastTheRange > 10); // the reading on past a range was needed
}

// A file changed or cut since it was indexed: an error naming the byte, no
// figures (the pane and the command line say it).
void TestSparkSizes::changedFileIsToldNotMeasured()
{
    const std::vector<uint8_t> bytes = readFile(kSparksLf);
    const auto ix = load(bytes);
    QVERIFY(ix->instants.size() > 1 && ix->instants[1].marks() > 2);
    const InstantMark& m = ix->instants[1].mark(2);
    std::vector<uint8_t> retimed = bytes;
    retimed[m.offset + 9] ^= 0x01; // the time's lowest byte (big-endian, after the tag)
    std::vector<uint8_t> cut(bytes.begin(), bytes.begin() + ptrdiff_t(m.offset + 5));
    for (const auto* changed : {&retimed, &cut}) {
        MemorySource source(*changed);
        const SparkEvaluations evals = sparkEvaluations(*ix, source);
        QVERIFY2(evals.error.find("changed") != std::string::npos, evals.error.c_str());
        QVERIFY2(evals.error.find("byte " + std::to_string(changed == &retimed ? m.offset : m.offset + 5)) != std::string::npos
                     || (changed == &cut && evals.error.find("byte ") != std::string::npos),
                 evals.error.c_str());
        QVERIFY(evals.evaluations.empty());
        const SparkSizes s = sparkSizes(evals, std::nullopt);
        QCOMPARE(s.status, SparkSizesStatus::Unreadable);
        QCOMPARE(s.count, uint64_t(0));
        QVERIFY(sparkSizesMessage(s, evals).find(evals.error) != std::string::npos);
        // A range after the change reads from a later mark: not told.
        // One that covers it is.
        const SparkEvaluations around = sparkEvaluations(*ix, source, ViewRange{m.time, m.time + 1});
        QVERIFY2(!around.error.empty(), "a range over the changed record");
    }
    MemorySource same(bytes);
    QVERIFY(sparkEvaluations(*ix, same).error.empty());
}

// The index keeps counts of spark events, never the events: a log with
// 100,000 more of them takes (almost) no more index memory.
void TestSparkSizes::indexKeepsNoSparkEvent()
{
    // One thread runs on capability 0 for the whole log; SPARK_CREATE and
    // SPARK_DUD (one kind the instant marks cover, one they do not) every
    // nanosecond, in blocks of 1,000 events.
    const auto build = [](uint64_t sparks) {
        EventlogWriter w(EventlogWriter::allDeclarations());
        const auto write = [&w](uint16_t t, uint64_t time, std::initializer_list<uint64_t> n) { w.write(OwnedEvent(t, time, n).event); };
        w.beginBlock(0, 10);
        write(tag::RunThread, 10, {1});
        for (uint64_t i = 0; i < sparks; ++i) {
            if (i % 1000 == 999) {
                w.endBlock(20 + i);
                w.beginBlock(0, 20 + i);
            }
            write(i % 2 ? tag::SparkDud : tag::SparkCreate, 20 + i, {});
        }
        write(tag::StopThread, 20 + sparks, {1, 5, 0});
        w.endBlock(20 + sparks);
        w.writeDataEnd();
        return w.takeBytes();
    };
    const uint64_t n = 100000;
    const auto without = load(build(0));
    const auto with = load(build(n));
    QVERIFY(with->scan.diagnostics.empty());
    QCOMPARE(with->caps[0].sparkEvents[0] + with->caps[0].sparkEvents[tag::SparkDud - tag::SparkCreate], n);
    const size_t grown = with->memoryBytes() - without->memoryBytes();
    QVERIFY2(grown < n, qPrintable(QStringLiteral("%1 bytes more for %2 spark events").arg(grown).arg(n)));
    // And they are read back.
    const SparkEventsRead read = readSparkEvents(*with.source, *with, 0, UINT64_MAX);
    QVERIFY2(read.error.empty(), read.error.c_str());
    QCOMPARE(uint64_t(read.events.size()), n / 2); // the SPARK_CREATEs
}

QTEST_GUILESS_MAIN(TestSparkSizes)
#include "tst_sparksizes.moc"
