// User spans paired from START/STOP messages (and markers) on the thread
// running on their capability: unmatched STOPs and STARTs, nesting across a
// migration, one name on two threads or inside itself, a STOP of an outer
// span, messages while no thread runs, other rules; the figures per name on
// spans of known durations, and a generated log checked against the answer
// kept while writing it.
#include "testsupport.h"
#include "threadtestsupport.h"

#include "core/format/eventtags.h"
#include "core/index/logindex.h"
#include "core/threads/userspans.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <map>

using namespace hecscope;
using namespace hecscope::test;

namespace {

std::string nameOf(const UserSpans& s, uint32_t name)
{
    return name < s.names.size() ? s.names[name] : "?";
}

// The spans, by start, with self times derived from the nesting given.
void compareSpans(const UserSpans& got, const std::vector<WantSpan>& want)
{
    QCOMPARE(got.spans.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i) {
        const UserSpan& s = got.spans[i];
        const WantSpan& w = want[i];
        const QString where = QStringLiteral("span %1 (%2)").arg(i).arg(QString::fromStdString(w.name));
        QVERIFY2(nameOf(got, s.name) == w.name, qPrintable(where + QStringLiteral(" is ") + QString::fromStdString(nameOf(got, s.name))));
        QVERIFY2(s.start == w.start && s.end == w.end,
                 qPrintable(where + QStringLiteral(" [%1, %2)").arg(s.start).arg(s.end)));
        QVERIFY2(s.thread == w.thread, qPrintable(where + QStringLiteral(" thread %1").arg(s.thread)));
        QVERIFY2(s.depth == w.depth, qPrintable(where + QStringLiteral(" depth %1").arg(s.depth)));
        QVERIFY2(s.parent == (w.parent < 0 ? UINT32_MAX : uint32_t(w.parent)), qPrintable(where + QStringLiteral(" parent")));
        QVERIFY2(s.flags == w.flags, qPrintable(where + QStringLiteral(" flags %1").arg(s.flags)));
        uint64_t children = 0; // each clipped to the span
        for (const WantSpan& c : want)
            if (c.parent == int(i) && std::min(c.end, w.end) > std::max(c.start, w.start))
                children += std::min(c.end, w.end) - std::max(c.start, w.start);
        QVERIFY2(s.self == (w.end - w.start) - children, qPrintable(where + QStringLiteral(" self %1").arg(s.self)));
    }
}

void compareIssues(const UserSpans& got, const std::vector<WantIssue>& want)
{
    QCOMPARE(got.issues.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i) {
        const QString where = QStringLiteral("issue %1").arg(i);
        QVERIFY2(got.issues[i].time == want[i].time, qPrintable(where + QStringLiteral(" time %1").arg(got.issues[i].time)));
        QVERIFY2(got.issues[i].thread == want[i].thread, qPrintable(where));
        QVERIFY2(nameOf(got, got.issues[i].name) == want[i].name, qPrintable(where));
        QVERIFY2(got.issues[i].kind == want[i].kind, qPrintable(where));
    }
}

// Nearest rank (the ceil(p·n)-th smallest), the textbook definition.
uint64_t nearestRank(std::vector<uint64_t> v, double p)
{
    std::sort(v.begin(), v.end());
    const size_t rank = std::max<size_t>(1, size_t(std::ceil(p * double(v.size()))));
    return v[rank - 1];
}

} // namespace

class TestUserSpans : public QObject {
    Q_OBJECT
private slots:
    void stopWithoutStartAndStartWithoutStop();
    void openSpansStayOutOfFigures();
    void openSpanInRealLog();
    void nestingAcrossAMigration();
    void sameNameOnTwoThreads();
    void recursiveSameName();
    void stopOfAnOuterSpan();
    void messagesWhileNoThreadRuns();
    void markersAndOtherRules();
    void spanFiguresOfKnownDurations();
    void generatedSpansMatchTheirConstruction();
};

// A STOP nobody started is an issue (time, thread, name); a START nobody
// stopped is a span that ends with the log, flagged, and an issue too. A
// STOP on another thread does not close it.
void TestUserSpans::stopWithoutStartAndStartWithoutStop()
{
    LogBuilder b;
    b.block(0, {run(10, 3), msg(20, "STOP x"), msg(30, "START y"), stop(40, 3, 3), marker(100, "end")});
    b.block(1, {run(50, 4), msg(55, "STOP y"), stop(60, 4, 3)});
    const auto ix = load(b.bytes());
    QVERIFY(ix->userSpans);
    const UserSpans& s = *ix->userSpans;
    compareSpans(s, {{"y", 30, 100, 3, 0, -1, UserSpan::OpenAtEnd}});
    compareIssues(s, {{20, 3, "x", SpanIssue::StopWithoutStart}, {30, 3, "y", SpanIssue::OpenAtEnd}, {55, 4, "y", SpanIssue::StopWithoutStart}});
    const std::vector<SpanNameFigures> figures = spanFigures(s, std::nullopt);
    QCOMPARE(figures.size(), size_t(1)); // x has no span
    QCOMPARE(s.names[figures[0].name], std::string("y"));
    // y never stopped: no duration of it is known, so none is counted.
    QCOMPARE(figures[0].count, uint64_t(0));
    QCOMPARE(figures[0].total, uint64_t(0));
    QCOMPARE(figures[0].max, uint64_t(0));
    QCOMPARE(figures[0].open, uint64_t(1));
}

// A START never stopped among stopped spans of its name: drawn to the end
// of the log (flagged), but left out of the name's count, total, self,
// mean, median, p95 and maximum, which it would otherwise top; counted
// apart as never stopped, in the figures, their text and the names' order.
void TestUserSpans::openSpansStayOutOfFigures()
{
    LogBuilder b;
    b.block(0, {run(10, 3), msg(20, "START job"), msg(30, "STOP job"), msg(40, "START job"), msg(60, "STOP job"),
                msg(70, "START job"), msg(100, "STOP job"), msg(110, "START job"), msg(120, "START quick"),
                msg(200, "STOP quick"), stop(210, 3, 3), marker(100000, "end")});
    const auto ix = load(b.bytes());
    const UserSpans& s = *ix->userSpans;
    compareSpans(s, {{"job", 20, 30, 3},
                     {"job", 40, 60, 3},
                     {"job", 70, 100, 3},
                     {"job", 110, 100000, 3, 0, -1, UserSpan::OpenAtEnd},
                     {"quick", 120, 200, 3, 1, 3}});
    const std::vector<SpanNameFigures> figures = spanFigures(s, std::nullopt);
    QCOMPARE(figures.size(), size_t(2));
    // quick (80 ns) before job (60 ns of stopped spans, not ~100 us to the end).
    QCOMPARE(s.names[figures[0].name], std::string("quick"));
    const SpanNameFigures& job = figures[1];
    QCOMPARE(job.count, uint64_t(3));
    QCOMPARE(job.total, uint64_t(10 + 20 + 30));
    QCOMPARE(job.self, uint64_t(10 + 20 + 30));
    QCOMPARE(job.mean, uint64_t(20));
    QCOMPARE(job.p50, uint64_t(20));
    QCOMPARE(job.p95, uint64_t(30));
    QCOMPARE(job.max, uint64_t(30));
    QCOMPARE(job.open, uint64_t(1));
    QCOMPARE(figures[0].count, uint64_t(1));
    QCOMPARE(figures[0].open, uint64_t(0));
    QCOMPARE(s.namesByTotal, (std::vector<uint32_t>{figures[0].name, figures[1].name}));
    // In a range holding only the open one: no stopped span, one open.
    const std::vector<SpanNameFigures> late = spanFigures(s, ViewRange{105, 115});
    QCOMPARE(late.size(), size_t(1));
    QCOMPARE(late[0].count, uint64_t(0));
    QCOMPARE(late[0].total, uint64_t(0));
    QCOMPARE(late[0].p95, uint64_t(0));
    QCOMPARE(late[0].open, uint64_t(1));
    const std::string text = spanFiguresText(s, figures);
    const size_t line = text.find("\njob ");
    QVERIFY2(line != std::string::npos, text.c_str());
    const std::string jobLine = text.substr(line + 1, text.find('\n', line + 1) - line - 1);
    QVERIFY2(jobLine.find(" 3 ") != std::string::npos && jobLine.find(" 60 ns ") != std::string::npos
                 && jobLine.ends_with(" 30 ns  +1 never stopped"),
             jobLine.c_str());
    QVERIFY2(text.find(" us") == std::string::npos, text.c_str()); // no duration to the end of the log
    QVERIFY2(text.find("left out of the figures") != std::string::npos, text.c_str());
}

// The real log's START never stopped (worker-6's "never-stopped"): drawn to
// the end of the log, counted apart; every name's figures are those of its
// stopped spans only.
void TestUserSpans::openSpanInRealLog()
{
    const auto ix = load(readFile(QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/spans-N2.eventlog")));
    QVERIFY(ix->scan.diagnostics.empty());
    const UserSpans& s = *ix->userSpans;
    size_t openSpans = 0;
    for (const UserSpan& u : s.spans)
        if (u.flags & UserSpan::OpenAtEnd) {
            ++openSpans;
            QCOMPARE(s.names[u.name], std::string("never-stopped"));
            QCOMPARE(u.end, ix->lastTime);
        }
    QCOMPARE(openSpans, size_t(1));
    const std::vector<SpanNameFigures> figures = spanFigures(s, std::nullopt);
    uint64_t open = 0;
    for (const SpanNameFigures& f : figures) {
        std::vector<uint64_t> d;
        uint64_t total = 0, self = 0, opened = 0;
        for (const UserSpan& u : s.spans) {
            if (u.name != f.name)
                continue;
            if (u.flags & UserSpan::OpenAtEnd) {
                ++opened;
                continue;
            }
            d.push_back(u.duration());
            total += u.duration();
            self += u.self;
        }
        QCOMPARE(f.open, opened);
        QCOMPARE(f.count, uint64_t(d.size()));
        QCOMPARE(f.total, total);
        QCOMPARE(f.self, self);
        if (!d.empty()) {
            QCOMPARE(f.p95, nearestRank(d, 0.95));
            QCOMPARE(f.max, *std::max_element(d.begin(), d.end()));
        }
        open += f.open;
    }
    QCOMPARE(open, uint64_t(1));
    const auto never = std::find_if(figures.begin(), figures.end(),
                                    [&](const SpanNameFigures& f) { return s.names[f.name] == "never-stopped"; });
    QVERIFY(never != figures.end());
    QCOMPARE(never->count, uint64_t(0));
    QCOMPARE(never->total, uint64_t(0));
    QCOMPARE(never->max, uint64_t(0));
    QCOMPARE(s.names[s.namesByTotal.back()], std::string("never-stopped"));
}

// START on thread 7 while it runs on capability 0; it stops, migrates,
// runs on capability 1, where a nested span starts and stops and then the
// outer one stops: one outer span with one child.
void TestUserSpans::nestingAcrossAMigration()
{
    LogBuilder b;
    b.block(0, {run(10, 7), msg(15, "START outer"), stop(20, 7, 3), ev(tag::MigrateThread, 21, {7, 1})});
    b.block(1, {run(30, 7), msg(35, "START inner"), msg(45, "STOP inner"), msg(50, "STOP outer"), stop(60, 7, 5)});
    const auto ix = load(b.bytes());
    for (const Message& m : ix->messages)
        QCOMPARE(m.thread, 7u);
    const UserSpans& s = *ix->userSpans;
    compareSpans(s, {{"outer", 15, 50, 7}, {"inner", 35, 45, 7, 1, 0}});
    QCOMPARE(s.spans[0].self, uint64_t(35 - 10));
    QVERIFY(s.issues.empty());
    QCOMPARE(s.maxDepth, uint16_t(1));
    QCOMPARE(s.threadIds, std::vector<uint32_t>{7});
    const auto [first, last] = s.ofThread(7);
    QCOMPARE(std::vector<uint32_t>(first, last), (std::vector<uint32_t>{0, 1}));
    QVERIFY(s.ofThread(8).first == nullptr);
    QCOMPARE(figuresOf(*ix, 7).migrations, 1u);
}

// The same name on two threads at overlapping times: two spans, each
// stopped by its own thread's STOP.
void TestUserSpans::sameNameOnTwoThreads()
{
    LogBuilder b;
    b.block(0, {run(10, 1), msg(12, "START work"), stop(30, 1, 3), run(40, 1), msg(50, "STOP work"), stop(55, 1, 3)});
    b.block(1, {run(11, 2), msg(13, "START work"), msg(20, "STOP work"), stop(25, 2, 3)});
    const auto ix = load(b.bytes());
    const UserSpans& s = *ix->userSpans;
    compareSpans(s, {{"work", 12, 50, 1}, {"work", 13, 20, 2}});
    QVERIFY(s.issues.empty());
    const auto figures = spanFigures(s, std::nullopt);
    QCOMPARE(figures.size(), size_t(1));
    QCOMPARE(figures[0].count, uint64_t(2));
    QCOMPARE(figures[0].total, uint64_t(38 + 7));
    QCOMPARE(figures[0].max, uint64_t(38));
    QCOMPARE(spansOfName(s, figures[0].name, std::nullopt), (std::vector<uint32_t>{0, 1}));
}

// START a, START a, STOP a, STOP a on one thread: two spans, the second
// inside the first.
void TestUserSpans::recursiveSameName()
{
    LogBuilder b;
    b.block(0, {run(5, 4), msg(10, "START a"), msg(20, "START a"), msg(30, "STOP a"), msg(40, "STOP a"), stop(50, 4, 3)});
    const auto ix = load(b.bytes());
    const UserSpans& s = *ix->userSpans;
    compareSpans(s, {{"a", 10, 40, 4}, {"a", 20, 30, 4, 1, 0}});
    QCOMPARE(s.spans[0].self, uint64_t(20));
    const auto figures = spanFigures(s, std::nullopt);
    QCOMPARE(figures.size(), size_t(1));
    QCOMPARE(figures[0].total, uint64_t(30 + 10));
    QCOMPARE(figures[0].self, uint64_t(20 + 10));
}

// START a, START b, STOP a: a ends; b, opened inside it, stays open (its
// parent still a) until its own STOP, outliving its parent; a's self time
// counts only the part of b inside a.
void TestUserSpans::stopOfAnOuterSpan()
{
    LogBuilder b;
    b.block(0, {run(5, 4), msg(10, "START a"), msg(20, "START b"), msg(30, "STOP a"), msg(40, "START c"), msg(45, "STOP c"), msg(50, "STOP b"), stop(60, 4, 3)});
    const auto ix = load(b.bytes());
    const UserSpans& s = *ix->userSpans;
    compareSpans(s, {{"a", 10, 30, 4}, {"b", 20, 50, 4, 1, 0}, {"c", 40, 45, 4, 1, 1}});
    QCOMPARE(s.spans[0].self, uint64_t(10));
    QCOMPARE(s.spans[1].self, uint64_t(25));
    QVERIFY(s.issues.empty());
}

// Messages written while no thread runs on their capability (before the
// first run, after a stop, in the global buffer) belong to thread 0 and
// pair among themselves.
void TestUserSpans::messagesWhileNoThreadRuns()
{
    LogBuilder b;
    b.block(0, {msg(5, "START idle"), msg(8, "STOP idle"), run(10, 1), msg(12, "hello"), stop(15, 1, 3), msg(20, "START after"), msg(25, "STOP after")});
    b.block(kNoCap, {msg(30, "START global"), msg(31, "STOP global")});
    const auto ix = load(b.bytes());
    std::vector<uint32_t> threads;
    for (const Message& m : ix->messages)
        threads.push_back(m.thread);
    QCOMPARE(threads, (std::vector<uint32_t>{0, 0, 1, 0, 0, 0, 0}));
    const UserSpans& s = *ix->userSpans;
    compareSpans(s, {{"idle", 5, 8, 0}, {"after", 20, 25, 0}, {"global", 30, 31, 0}});
    QCOMPARE(s.threadIds, std::vector<uint32_t>{0});
}

// traceMarker messages pair too (flagged) unless markers are off; other
// prefixes pair other messages; log and binary messages never pair.
void TestUserSpans::markersAndOtherRules()
{
    LogBuilder b;
    b.block(0, {run(10, 2), marker(11, "START m"), marker(19, "STOP m"), msg(20, "begin:q"), ev(tag::LogMsg, 21, {}, {"START z"}), msg(29, "end:q"), ev(tag::LogMsg, 30, {}, {"STOP z"}), stop(35, 2, 3)});
    const auto ix = load(b.bytes());
    compareSpans(*ix->userSpans, {{"m", 11, 19, 2, 0, -1, UserSpan::FromMarker}});
    QVERIFY(ix->userSpans->issues.empty());
    const auto other = pairUserSpans(*ix, SpanRules{"begin:", "end:", true});
    QVERIFY(other);
    compareSpans(*other, {{"q", 20, 29, 2}});
    const auto noMarkers = pairUserSpans(*ix, SpanRules{"START ", "STOP ", false});
    QVERIFY(noMarkers->spans.empty());
    QVERIFY(noMarkers->issues.empty());
}

// count, total, self, mean, median, 95th percentile and longest of
// durations chosen for the purpose.
void TestUserSpans::spanFiguresOfKnownDurations()
{
    const KnownLog k = knownDurationsLog();
    const auto ix = load(k.bytes);
    QVERIFY(ix->scan.diagnostics.empty());
    const UserSpans& s = *ix->userSpans;
    compareIssues(s, {{k.ghost, 1, "ghost", SpanIssue::StopWithoutStart}, {k.tailStart, 1, "tail", SpanIssue::OpenAtEnd}});
    const std::vector<uint64_t> jobs(std::begin(kJob), std::end(kJob));
    uint64_t jobTotal = 0;
    for (uint64_t d : jobs)
        jobTotal += d;
    QCOMPARE(jobTotal, uint64_t(300)); // 1..19 and 110

    struct Want {
        std::string name;
        uint64_t count, total, self, mean, p50, p95, max, open;
    };
    const std::vector<Want> want{
        {"job", 20, 300, 300, 15, nearestRank(jobs, 0.5), nearestRank(jobs, 0.95), 110, 0},
        {"parent", 2, 200, 100, 100, 100, 100, 100, 0},
        {"child", 4, 100, 100, 25, nearestRank({30, 20, 30, 20}, 0.5), nearestRank({30, 20, 30, 20}, 0.95), 30, 0},
        {"once", 1, 42, 42, 42, 42, 42, 42, 0},
        {"mark", 1, 5, 5, 5, 5, 5, 5, 0},
        {"tail", 0, 0, 0, 0, 0, 0, 0, 1}, // never stopped: no duration
    };
    QCOMPARE(want[0].p50, uint64_t(10)); // the 10th of 20
    QCOMPARE(want[0].p95, uint64_t(19)); // the 19th of 20
    QCOMPARE(want[2].p50, uint64_t(20));
    QCOMPARE(want[2].p95, uint64_t(30));
    const std::vector<SpanNameFigures> got = spanFigures(s, std::nullopt);
    QCOMPARE(got.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i) { // longest total first
        const SpanNameFigures& f = got[i];
        const Want& w = want[i];
        QCOMPARE(s.names[f.name], w.name);
        QCOMPARE(f.count, w.count);
        QCOMPARE(f.total, w.total);
        QCOMPARE(f.self, w.self);
        QCOMPARE(f.mean, w.mean);
        QCOMPARE(f.p50, w.p50);
        QCOMPARE(f.p95, w.p95);
        QCOMPARE(f.max, w.max);
        QCOMPARE(f.open, w.open);
    }

    // Jobs 4 to 8 start in the range: durations 1, 19, 5, 16, 9.
    const ViewRange range{k.jobStarts[4], k.jobStarts[9]};
    const std::vector<SpanNameFigures> part = spanFigures(s, range);
    QCOMPARE(part.size(), size_t(1));
    const SpanNameFigures& f = part[0];
    QCOMPARE(s.names[f.name], std::string("job"));
    QCOMPARE(f.count, uint64_t(5));
    QCOMPARE(f.total, uint64_t(50));
    QCOMPARE(f.mean, uint64_t(10));
    QCOMPARE(f.p50, nearestRank({1, 19, 5, 16, 9}, 0.5));
    QCOMPARE(f.p50, uint64_t(9));
    QCOMPARE(f.p95, uint64_t(19));
    QCOMPARE(f.max, uint64_t(19));
    const std::vector<uint32_t> members = spansOfName(s, f.name, range);
    QCOMPARE(members.size(), size_t(5));
    for (size_t i = 0; i < members.size(); ++i)
        QCOMPARE(s.spans[members[i]].start, k.jobStarts[4 + i]);
}

// Many spans over three capabilities and nine threads, against the answer
// the generator kept while writing them.
void TestUserSpans::generatedSpansMatchTheirConstruction()
{
    for (uint32_t seed : {1u, 2u, 3u}) {
        const GeneratedLog g = generatedSpansLog(seed, 300);
        QVERIFY(g.spans.size() > 200);
        QVERIFY(std::any_of(g.spans.begin(), g.spans.end(), [](const WantSpan& s) { return s.depth >= 2; }));
        QVERIFY(std::any_of(g.spans.begin(), g.spans.end(), [](const WantSpan& s) { return s.flags != 0; }));
        const auto outlives = [&](const WantSpan& s) { return s.parent >= 0 && s.end > g.spans[size_t(s.parent)].end; };
        QVERIFY(std::any_of(g.spans.begin(), g.spans.end(), outlives));
        const auto ix = load(g.bytes);
        QVERIFY(ix->scan.diagnostics.empty());
        compareSpans(*ix->userSpans, g.spans);
        compareIssues(*ix->userSpans, g.issues);
        if (QTest::currentTestFailed())
            QFAIL(qPrintable(QStringLiteral("seed %1").arg(seed)));
        // Per name: the figures by their definitions, over the stopped spans.
        std::map<std::string, std::vector<uint64_t>> durations;
        std::map<std::string, uint64_t> self, open;
        for (size_t i = 0; i < g.spans.size(); ++i) {
            const WantSpan& w = g.spans[i];
            if (w.flags & UserSpan::OpenAtEnd) {
                ++open[w.name];
                durations[w.name]; // the name has a row
                continue;
            }
            durations[w.name].push_back(w.end - w.start);
            uint64_t children = 0;
            for (const WantSpan& c : g.spans)
                if (c.parent == int(i) && std::min(c.end, w.end) > std::max(c.start, w.start))
                    children += std::min(c.end, w.end) - std::max(c.start, w.start);
            self[w.name] += w.end - w.start - children;
        }
        const auto figures = spanFigures(*ix->userSpans, std::nullopt);
        QCOMPARE(figures.size(), durations.size());
        for (const SpanNameFigures& f : figures) {
            const std::string& name = ix->userSpans->names[f.name];
            const std::vector<uint64_t>& d = durations[name];
            uint64_t total = 0;
            for (uint64_t x : d)
                total += x;
            QCOMPARE(f.count, uint64_t(d.size()));
            QCOMPARE(f.open, open[name]);
            QCOMPARE(f.total, total);
            QCOMPARE(f.self, self[name]);
            if (d.empty())
                continue;
            QCOMPARE(f.mean, total / d.size());
            QCOMPARE(f.p50, nearestRank(d, 0.5));
            QCOMPARE(f.p95, nearestRank(d, 0.95));
            QCOMPARE(f.max, *std::max_element(d.begin(), d.end()));
        }
    }
}

QTEST_GUILESS_MAIN(TestUserSpans)
#include "tst_userspans.moc"
