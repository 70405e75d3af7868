// Threads and user spans: every thread's states over time and the figures
// drawn from them, checked on real logs against an independent walk
// (threadwalk.h) and on logs written by the project's encoder, whose
// expected answers follow from how they were built; user spans paired from
// START/STOP messages; the same states and spans from a log fed in pieces;
// `hecscope threads` and `hecscope spans`.
#include "testsupport.h"
#include "threadwalk.h"

#include "core/format/encoder.h"
#include "core/format/eventtags.h"
#include "core/index/indexbuilder.h"
#include "core/index/loader.h"
#include "core/index/logindex.h"
#include "core/io/bytesource.h"
#include "core/threads/threadstats.h"
#include "core/threads/userspans.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

using namespace hecscope;
using namespace hecscope::test;

namespace {

OwnedEvent ev(uint16_t tag, uint64_t t, std::initializer_list<uint64_t> n = {},
              std::initializer_list<std::string_view> s = {})
{
    return OwnedEvent(tag, t, n, s);
}
OwnedEvent run(uint64_t t, uint64_t thread)
{
    return ev(tag::RunThread, t, {thread});
}
OwnedEvent stop(uint64_t t, uint64_t thread, uint64_t status, uint64_t info = 0)
{
    return ev(tag::StopThread, t, {thread, status, info});
}
OwnedEvent msg(uint64_t t, std::string_view text)
{
    return ev(tag::UserMsg, t, {}, {text});
}
OwnedEvent marker(uint64_t t, std::string_view text)
{
    return ev(tag::UserMarker, t, {}, {text});
}

std::unique_ptr<LogIndex> load(const std::vector<uint8_t>& bytes)
{
    MemorySource source(bytes);
    return loadIndex(source, bytes.size()).index;
}

QByteArray toBytes(const std::vector<uint8_t>& v)
{
    return QByteArray(reinterpret_cast<const char*>(v.data()), qsizetype(v.size()));
}

// --- thread states -------------------------------------------------------

struct Seg {
    uint64_t time;
    ThreadState state;
    ThreadCause cause;
    uint16_t cap = 0; // checked for Run and Migrate segments
    uint8_t stop = 0; // checked for Stop segments
};

const char* stateName(ThreadState s)
{
    static const char* const names[] = {"runnable", "running", "blocked", "finished", "unknown"};
    return names[size_t(s)];
}

// The segments of thread `id`, as built.
void compareStates(const LogIndex& ix, uint32_t id, const std::vector<Seg>& want)
{
    const size_t k = ix.threadStates.find(id);
    QVERIFY2(k != SIZE_MAX, qPrintable(QStringLiteral("thread %1 has no states").arg(id)));
    const auto segs = ix.threadStates.of(k);
    QCOMPARE(segs.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i) {
        const QString where = QStringLiteral("thread %1 segment %2").arg(id).arg(i);
        QVERIFY2(segs[i].time == want[i].time, qPrintable(where + QStringLiteral(" time %1").arg(segs[i].time)));
        QVERIFY2(segs[i].state == want[i].state, qPrintable(where + QStringLiteral(" is ") + stateName(segs[i].state)));
        QVERIFY2(segs[i].cause == want[i].cause, qPrintable(where + QStringLiteral(" cause")));
        if (want[i].cause == ThreadCause::Run || want[i].cause == ThreadCause::Migrate)
            QVERIFY2(segs[i].cap == want[i].cap, qPrintable(where + QStringLiteral(" cap %1").arg(segs[i].cap)));
        if (want[i].cause == ThreadCause::Stop)
            QVERIFY2(segs[i].stop == want[i].stop, qPrintable(where + QStringLiteral(" stop %1").arg(segs[i].stop)));
    }
}

ThreadFigures figuresOf(const LogIndex& ix, uint32_t id, std::optional<ViewRange> range = std::nullopt)
{
    const size_t k = ix.threadStates.find(id);
    return k == SIZE_MAX ? ThreadFigures{} : threadFigures(ix, k, range);
}

uint64_t timeIn(const ThreadFigures& f, ThreadState s)
{
    return f.time[size_t(s)];
}

std::vector<uint32_t> idsOf(const std::vector<ThreadFigures>& all)
{
    std::vector<uint32_t> ids;
    for (const ThreadFigures& f : all)
        ids.push_back(f.id);
    return ids;
}

// Every segment of every thread against the walk.
void compareWithWalk(const LogIndex& ix, const Walk& w)
{
    const ThreadStates& st = ix.threadStates;
    QCOMPARE(st.count(), w.threads.size());
    QCOMPARE(st.end, w.end);
    size_t k = 0;
    for (const auto& [id, t] : w.threads) {
        QCOMPARE(st.ids[k], id);
        const auto segs = st.of(k);
        const QString thread = QStringLiteral("thread %1").arg(id);
        QVERIFY2(segs.size() == t.segments.size(),
                 qPrintable(thread + QStringLiteral(": %1 segments, the walk %2").arg(segs.size()).arg(t.segments.size())));
        for (size_t i = 0; i < segs.size(); ++i) {
            const WalkSegment& want = t.segments[i];
            const QString where = thread + QStringLiteral(" segment %1 at %2 ns: ").arg(i).arg(want.time);
            QVERIFY2(segs[i].time == want.time, qPrintable(where + QStringLiteral("time %1").arg(segs[i].time)));
            QVERIFY2(segs[i].state == want.state,
                     qPrintable(where + stateName(segs[i].state) + QStringLiteral(", the walk says ") + stateName(want.state)));
            QVERIFY2(segs[i].cause == want.cause, qPrintable(where + QStringLiteral("cause")));
            if (want.cause == ThreadCause::Run || want.cause == ThreadCause::Migrate)
                QVERIFY2(segs[i].cap == want.cap, qPrintable(where + QStringLiteral("cap")));
            if (want.state == ThreadState::Blocked)
                QVERIFY2(blockReasonOf(segs[i]) == want.reason,
                         qPrintable(where + QStringLiteral("blocked on ") + blockReasonName(blockReasonOf(segs[i]))
                                    + QStringLiteral(", the walk says ") + blockReasonName(want.reason)));
        }
        ++k;
    }
}

// allThreadFigures over `range` (nullopt: the whole log) against the walk.
void compareFiguresWithWalk(const LogIndex& ix, const Walk& w, std::optional<ViewRange> range)
{
    const uint64_t a = range ? range->start : 0, b = range ? range->end : UINT64_MAX;
    const std::vector<ThreadFigures> got = allThreadFigures(ix, range);
    const QString in = range ? QStringLiteral(" in [%1, %2)").arg(a).arg(b) : QString();
    size_t k = 0;
    for (const auto& [id, t] : w.threads) {
        if (range && !w.liveIn(t, a, b))
            continue;
        QVERIFY2(k < got.size(), qPrintable(QStringLiteral("thread %1 missing").arg(id) + in));
        const ThreadFigures& f = got[k++];
        QVERIFY2(f.id == id, qPrintable(QStringLiteral("thread %1 where the walk has %2").arg(f.id).arg(id) + in));
        const WalkFigures want = w.figures(t, a, b);
        const QString who = QStringLiteral("thread %1").arg(id) + in + QStringLiteral(": ");
        for (size_t s = 0; s < kThreadStates; ++s)
            QVERIFY2(f.time[s] == want.time[s], qPrintable(who + stateName(ThreadState(s)) + QStringLiteral(" %1 ns, the walk %2").arg(f.time[s]).arg(want.time[s])));
        for (size_t r = 0; r < kBlockReasons; ++r)
            QVERIFY2(f.blocked[r] == want.blocked[r],
                     qPrintable(who + QStringLiteral("blocked on ") + blockReasonName(BlockReason(r))
                                + QStringLiteral(" %1 ns, the walk %2").arg(f.blocked[r]).arg(want.blocked[r])));
        QVERIFY2(f.runs == want.runs, qPrintable(who + QStringLiteral("runs %1, the walk %2").arg(f.runs).arg(want.runs)));
        QVERIFY2(f.migrations == want.migrations, qPrintable(who + QStringLiteral("migrations")));
        QVERIFY2(f.wakeups == want.wakeups, qPrintable(who + QStringLiteral("wake-ups")));
        if (!range) {
            QVERIFY2(f.label == t.label, qPrintable(who + QStringLiteral("label")));
            QVERIFY2(f.created == t.created, qPrintable(who + QStringLiteral("created")));
        }
        if (QTest::currentTestFailed())
            return;
    }
    QCOMPARE(got.size(), k);
}

// --- user spans ----------------------------------------------------------

struct WantSpan {
    std::string name;
    uint64_t start, end;
    uint32_t thread;
    uint16_t depth = 0;
    int parent = -1; // index into the wanted list
    uint8_t flags = 0;
};

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

struct WantIssue {
    uint64_t time;
    uint32_t thread;
    std::string name;
    SpanIssue::Kind kind;
};

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

// Spans of known durations on thread 1 (capability 0): "job" 20 times with
// the durations kJob, one after another; two "parent" spans of 100 ns each
// holding a "child" of 30 and one of 20; "once" of 42 ns; a marker span
// "mark" of 5 ns; a STOP "ghost" never started; "tail" started and never
// stopped, 1000 ns before the log ends.
constexpr uint64_t kJob[20] = {7, 3, 110, 12, 1, 19, 5, 16, 9, 2, 14, 18, 4, 11, 8, 17, 6, 13, 15, 10};

struct KnownLog {
    std::vector<uint8_t> bytes;
    std::vector<uint64_t> jobStarts;
    uint64_t ghost = 0, tailStart = 0, end = 0;
};

KnownLog knownDurationsLog()
{
    KnownLog k;
    EventlogWriter w(EventlogWriter::allDeclarations());
    w.beginBlock(0, 100);
    const auto put = [&](OwnedEvent&& e) { w.write(e.event); };
    put(run(100, 1));
    uint64_t t = 1000;
    for (uint64_t d : kJob) {
        k.jobStarts.push_back(t);
        put(msg(t, "START job"));
        put(msg(t + d, "STOP job"));
        t += d + 100;
    }
    for (int p = 0; p < 2; ++p) {
        put(msg(t, "START parent"));
        put(msg(t + 10, "START child"));
        put(msg(t + 40, "STOP child"));
        put(msg(t + 50, "START child"));
        put(msg(t + 70, "STOP child"));
        put(msg(t + 100, "STOP parent"));
        t += 200;
    }
    put(msg(t, "START once"));
    put(msg(t + 42, "STOP once"));
    t += 100;
    put(marker(t, "START mark"));
    put(marker(t + 5, "STOP mark"));
    t += 100;
    k.ghost = t;
    put(msg(t, "STOP ghost"));
    t += 10;
    k.tailStart = t;
    put(msg(t, "START tail"));
    put(stop(t + 50, 1, 3));
    k.end = t + 1000;
    put(marker(k.end, "end"));
    w.endBlock(k.end);
    w.writeDataEnd();
    k.bytes = w.takeBytes();
    return k;
}

// A bigger log of spans, built with its answer: three capabilities, each
// running its own three threads in turn; during each run a thread starts
// spans (names reused, so some nest in themselves), stops one (mostly the
// innermost; a STOP ends the innermost open span of its name, so spans
// opened inside an outer one it stops stay open and outlive their
// parent), or stops a name it never started. Times are distinct across
// capabilities (t ≡ cap mod 3) and blocks of the three interleave in the
// file, so log order is not time order.
struct GeneratedLog {
    std::vector<uint8_t> bytes;
    std::vector<WantSpan> spans;   // by start
    std::vector<WantIssue> issues; // by time
};

GeneratedLog generatedSpansLog(uint32_t seed, int runsPerCap)
{
    struct Ev {
        uint16_t tag;
        uint64_t time;
        uint64_t thread;
        std::string text;
    };
    struct Open {
        uint64_t start;
        std::string name;
        int parent;
    };
    struct Span {
        uint64_t start, end;
        std::string name;
        uint32_t thread;
        uint16_t depth;
        int parent; // into `made`
        bool open;
    };
    QRandomGenerator rng(seed);
    const char* const names[] = {"parse", "load", "parse", "render", "io"};
    std::vector<Span> made;
    std::vector<WantIssue> issues;
    std::vector<std::vector<Ev>> perCap(3);
    std::map<uint32_t, std::vector<int>> stacks; // per thread: open spans (into `made`)
    uint64_t end = 0;
    for (uint16_t cap = 0; cap < 3; ++cap) {
        uint64_t t = 1000 + cap;
        const auto next = [&] { return t += 3 * (1 + rng.bounded(40u)); };
        for (int r = 0; r < runsPerCap; ++r) {
            const uint32_t thread = 10 * cap + 1 + rng.bounded(3u);
            perCap[cap].push_back({tag::RunThread, next(), thread, {}});
            std::vector<int>& stack = stacks[thread];
            for (int a = int(rng.bounded(5u)); a > 0; --a) {
                const uint32_t dice = rng.bounded(100u);
                const uint64_t at = next();
                if (dice < 45) {
                    const std::string name = names[rng.bounded(5u)];
                    made.push_back({at, 0, name, thread, uint16_t(stack.size()), stack.empty() ? -1 : stack.back(), true});
                    stack.push_back(int(made.size()) - 1);
                    perCap[cap].push_back({tag::UserMsg, at, 0, "START " + name});
                } else if (dice < 80 && !stack.empty()) {
                    // Mostly the innermost span; sometimes one further out,
                    // which stops the innermost open span of its name.
                    const size_t pick = dice < 70 ? stack.size() - 1 : rng.bounded(uint32_t(stack.size()));
                    const std::string name = made[size_t(stack[pick])].name;
                    size_t k = stack.size() - 1;
                    while (made[size_t(stack[k])].name != name)
                        --k;
                    Span& s = made[size_t(stack[k])];
                    s.end = at;
                    s.open = false;
                    stack.erase(stack.begin() + ptrdiff_t(k));
                    perCap[cap].push_back({tag::UserMsg, at, 0, "STOP " + name});
                } else if (dice < 90) {
                    issues.push_back({at, thread, "ghost", SpanIssue::StopWithoutStart});
                    perCap[cap].push_back({tag::UserMsg, at, 0, "STOP ghost"});
                } else {
                    perCap[cap].push_back({tag::UserMsg, at, 0, "progress"});
                }
            }
            perCap[cap].push_back({tag::StopThread, next(), thread, {}});
        }
        end = std::max(end, t);
    }
    for (Span& s : made)
        if (s.open) {
            s.end = end;
            issues.push_back({s.start, s.thread, s.name, SpanIssue::OpenAtEnd});
        }
    std::stable_sort(issues.begin(), issues.end(), [](const WantIssue& a, const WantIssue& b) { return a.time < b.time; });

    // The file: blocks of 1 to 12 events, capabilities taking turns.
    EventlogWriter w(EventlogWriter::allDeclarations());
    std::vector<size_t> pos(3, 0);
    for (bool more = true; more;) {
        more = false;
        for (uint16_t cap = 0; cap < 3; ++cap) {
            const std::vector<Ev>& evs = perCap[cap];
            if (pos[cap] == evs.size())
                continue;
            const size_t n = std::min<size_t>(evs.size() - pos[cap], 1 + rng.bounded(12u));
            w.beginBlock(cap, evs[pos[cap]].time);
            for (size_t i = pos[cap]; i < pos[cap] + n; ++i) {
                const Ev& e = evs[i];
                if (e.tag == tag::RunThread)
                    w.write(run(e.time, e.thread).event);
                else if (e.tag == tag::StopThread)
                    w.write(stop(e.time, e.thread, 3).event);
                else
                    w.write(msg(e.time, e.text).event);
            }
            w.endBlock(evs[pos[cap] + n - 1].time);
            pos[cap] += n;
            more |= pos[cap] < evs.size();
        }
    }
    w.writeDataEnd();

    GeneratedLog g;
    g.bytes = w.takeBytes();
    g.issues = std::move(issues);
    std::vector<size_t> order(made.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return made[a].start < made[b].start; });
    std::vector<int> rank(made.size());
    for (size_t i = 0; i < order.size(); ++i)
        rank[order[i]] = int(i);
    for (size_t i : order) {
        const Span& s = made[i];
        g.spans.push_back({s.name, s.start, s.end, s.thread, s.depth, s.parent < 0 ? -1 : rank[size_t(s.parent)],
                           uint8_t(s.open ? UserSpan::OpenAtEnd : 0)});
    }
    return g;
}

// --- whole-index comparisons (a log fed in pieces) --------------------------

void compareThreadStates(const ThreadStates& a, const ThreadStates& b)
{
    QVERIFY(a.ids == b.ids);
    QVERIFY(a.offsets == b.offsets);
    QCOMPARE(a.end, b.end);
    QCOMPARE(a.segments.size(), b.segments.size());
    for (size_t i = 0; i < a.segments.size(); ++i) {
        const ThreadSegment& x = a.segments[i];
        const ThreadSegment& y = b.segments[i];
        const QString where = QStringLiteral("segment %1").arg(i);
        QVERIFY2(x.time == y.time && x.cap == y.cap && x.state == y.state && x.stop == y.stop && x.cause == y.cause
                     && x.info == y.info,
                 qPrintable(where));
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
    QVERIFY(a.maxEnd == b.maxEnd);
    QCOMPARE(a.maxDepth, b.maxDepth);
}

// --- command line ------------------------------------------------------------

// RFC 4180 rows (quoted fields may hold commas and doubled quotes).
std::vector<std::vector<std::string>> parseCsv(const QByteArray& text)
{
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> row;
    std::string field;
    bool quoted = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"')
                field += text[++i];
            else if (c == '"')
                quoted = false;
            else
                field += c;
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            row.push_back(std::move(field));
            field.clear();
        } else if (c == '\n') {
            row.push_back(std::move(field));
            field.clear();
            rows.push_back(std::move(row));
            row.clear();
        } else {
            field += c;
        }
    }
    return rows;
}

// `threads --csv` output against the walk over [a, b) (whole log: 0, UINT64_MAX).
void compareThreadsCsv(const QByteArray& out, const Walk& w, uint64_t a, uint64_t b)
{
    const auto rows = parseCsv(out);
    QVERIFY(!rows.empty());
    std::map<std::string, size_t> col;
    for (size_t i = 0; i < rows[0].size(); ++i)
        col[rows[0][i]] = i;
    QCOMPARE(col.size(), rows[0].size());
    const auto value = [&](const std::vector<std::string>& row, const std::string& name) -> std::string {
        const auto it = col.find(name);
        return it == col.end() || it->second >= row.size() ? std::string("<missing>") : row[it->second];
    };
    const bool whole = a == 0 && b == UINT64_MAX;
    size_t row = 1;
    for (const auto& [id, t] : w.threads) {
        if (!whole && !w.liveIn(t, a, b))
            continue;
        QVERIFY2(row < rows.size(), qPrintable(QStringLiteral("no row for thread %1").arg(id)));
        const std::vector<std::string>& r = rows[row++];
        QCOMPARE(r.size(), rows[0].size());
        QCOMPARE(value(r, "thread"), std::to_string(id));
        const WalkFigures f = w.figures(t, a, b);
        const QString who = QStringLiteral("thread %1: ").arg(id);
        const auto check = [&](const std::string& column, uint64_t want) {
            QVERIFY2(value(r, column) == std::to_string(want),
                     qPrintable(who + QString::fromStdString(column + " " + value(r, column) + ", the walk ")
                                + QString::number(want)));
        };
        check("runs", f.runs);
        check("run_ns", f.time[size_t(ThreadState::Running)]);
        check("runnable_ns", f.time[size_t(ThreadState::Runnable)]);
        check("blocked_ns", f.time[size_t(ThreadState::Blocked)]);
        check("unknown_ns", f.time[size_t(ThreadState::Unknown)]);
        check("migrations", f.migrations);
        check("wakeups", f.wakeups);
        for (size_t reason = 0; reason < kBlockReasons; ++reason)
            check(std::string("blocked_") + blockReasonName(BlockReason(reason)) + "_ns", f.blocked[reason]);
        QCOMPARE(value(r, "label"), t.label);
        QCOMPARE(value(r, "created_ns"), t.created == UINT64_MAX ? std::string() : std::to_string(t.created));
        QCOMPARE(value(r, "finished_ns"), t.finished == UINT64_MAX ? std::string() : std::to_string(t.finished));
        if (QTest::currentTestFailed())
            return; // one thread's report is enough
    }
    QCOMPARE(rows.size(), row);
}

// Offsets and sizes of every record, for cutting a log at one.
struct RecordsSink final : EventSink {
    void onEvent(const Event& e) override { records.emplace_back(e.offset, e.recordSize); }
    std::vector<std::pair<uint64_t, uint32_t>> records;
};

std::vector<std::pair<uint64_t, uint32_t>> recordsOf(const std::vector<uint8_t>& bytes)
{
    RecordsSink sink;
    StreamDecoder decoder(sink);
    decoder.feed(bytes);
    decoder.finish();
    return sink.records;
}

QString writeTemp(const QTemporaryDir& dir, const QString& name, const std::vector<uint8_t>& bytes)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write(toBytes(bytes));
    return path;
}

const QString kThreadsLog = QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/threads-N2.eventlog");

} // namespace

class TestThreads : public QObject {
    Q_OBJECT
private slots:
    void realLogsAgreeWithAWalk_data();
    void realLogsAgreeWithAWalk();

    void threadCreatedBeforeTheLog();
    void threadRunningAtTheEnd();
    void migrationWhileRunnableOrBlocked();
    void wakeupsAndRunnable();
    void runEndedWithoutStop();
    void stopStatuses();
    void stopStatusesOfGhc782();
    void identicalTimestampsKeepLogOrder();
    void blocksOutOfTimeOrder();

    void stopWithoutStartAndStartWithoutStop();
    void nestingAcrossAMigration();
    void sameNameOnTwoThreads();
    void recursiveSameName();
    void stopOfAnOuterSpan();
    void messagesWhileNoThreadRuns();
    void markersAndOtherRules();
    void spanFiguresOfKnownDurations();
    void generatedSpansMatchTheirConstruction();

    void growingLogGivesTheSameStatesAndSpans_data();
    void growingLogGivesTheSameStatesAndSpans();

    void threadsCsvAgreesWithTheWalk();
    void threadsRange();
    void threadsOnTruncatedAndCorruptLogs();
    void spansCommand();
    void usageAndHelp();
};

void TestThreads::realLogsAgreeWithAWalk_data()
{
    QTest::addColumn<QString>("log");
    const QStringList logs = testdataLogs() + conformanceLogs(QStringLiteral("ghc-events"))
        + conformanceLogs(QStringLiteral("legacy"));
    for (const QString& log : logs)
        QTest::newRow(qPrintable(QFileInfo(log).dir().dirName() + QLatin1Char('/') + QFileInfo(log).fileName())) << log;
}

// Every thread's segments, its figures over the whole log and over a few
// ranges, and each message's thread, as the walk finds them; the runs and
// run time of ThreadInfo (from the capability timelines) agree.
void TestThreads::realLogsAgreeWithAWalk()
{
    QFETCH(QString, log);
    const std::vector<uint8_t> bytes = readFile(log);
    QVERIFY(!bytes.empty());
    const auto ix = load(bytes);
    const Walk w = walkThreads(bytes);
    QCOMPARE(ix->lastTime, w.end);
    compareWithWalk(*ix, w);
    if (QTest::currentTestFailed())
        return;
    compareFiguresWithWalk(*ix, w, std::nullopt);
    if (QTest::currentTestFailed())
        return;

    // Ranges: the middle third, a tiny one, and ones beginning and ending
    // exactly at a run (counted in the first, not in the second).
    const uint64_t end = std::max<uint64_t>(w.end, 3);
    std::vector<ViewRange> ranges{{end / 3, 2 * end / 3}, {end / 2, end / 2 + 100}, {0, 1}, {end - 1, end + 1000}};
    for (const auto& [id, t] : w.threads)
        if (t.runs.size() > 2) {
            const uint64_t at = t.runs[t.runs.size() / 2];
            ranges.push_back({at, at + end / 10 + 1});
            if (at > 0)
                ranges.push_back({at > end / 10 ? at - end / 10 : 0, at});
            break;
        }
    for (const ViewRange& r : ranges) {
        compareFiguresWithWalk(*ix, w, r);
        if (QTest::currentTestFailed())
            return;
    }

    // Each message knows the thread running on its capability.
    QCOMPARE(ix->messages.size(), w.messages.size());
    for (size_t i = 0; i < w.messages.size(); ++i) {
        QCOMPARE(ix->messages[i].time, w.messages[i].time);
        QVERIFY2(ix->messages[i].thread == w.messages[i].thread,
                 qPrintable(QStringLiteral("message %1 at %2 ns: thread %3, the walk %4")
                                .arg(i)
                                .arg(w.messages[i].time)
                                .arg(ix->messages[i].thread)
                                .arg(w.messages[i].thread)));
    }

    // ThreadInfo's runs and run time come from the capability timelines,
    // which end a run at the capability's next STOP_THREAD, RUN_THREAD or
    // GC_START and move an event stamped before the capability's previous
    // one to that time; the walk ends it at the thread's next event. They
    // agree where every thread event has a capability and each capability's
    // events come in time order (so far every log here: none has an event
    // out of order or a thread event outside a capability's block).
    bool ordered = w.threadEventsWithoutCap == 0;
    for (const Capability& c : ix->caps)
        ordered &= c.outOfOrder == 0;
    size_t disagree = 0;
    for (const auto& [id, t] : w.threads) {
        const ThreadInfo* info = ix->thread(id);
        QVERIFY(info);
        const WalkFigures f = w.figures(t, 0, UINT64_MAX);
        const uint64_t runTime = f.time[size_t(ThreadState::Running)];
        if (info->runs != f.runs || info->runTime != runTime) {
            ++disagree;
            if (ordered)
                QFAIL(qPrintable(QStringLiteral("thread %1: ThreadInfo %2 runs, %3 ns; the walk %4 runs, %5 ns")
                                     .arg(id)
                                     .arg(info->runs)
                                     .arg(info->runTime)
                                     .arg(f.runs)
                                     .arg(runTime)));
        }
    }
    if (disagree)
        qInfo(
            "%zu threads' ThreadInfo run figures differ from their states (%llu thread events without a "
            "capability; events out of order on a capability)",
            disagree, static_cast<unsigned long long>(w.threadEventsWithoutCap));

    // The log that was made for this has the content the test is about.
    if (QFileInfo(log).fileName() == QLatin1String("threads-N2.eventlog")) {
        QVERIFY(w.threads.size() > 500);
        uint64_t migrations = 0, wakeups = 0, blocked = 0, labels = 0;
        for (const auto& [id, t] : w.threads) {
            migrations += t.migrations.size();
            wakeups += t.wakeups.size();
            labels += !t.label.empty();
            blocked += w.figures(t, 0, UINT64_MAX).time[size_t(ThreadState::Blocked)] > 0;
        }
        QVERIFY(migrations > 0 && wakeups > 0 && blocked > 100 && labels > 10);
    }
}

// A thread that existed before the log began (its first event a
// RUN_THREAD): nothing before its first event, its figures start there.
void TestThreads::threadCreatedBeforeTheLog()
{
    LogBuilder b;
    b.block(0, {run(100, 7), stop(150, 7, 3), run(200, 7), stop(260, 7, 7)});
    b.block(1, {ev(tag::CreateThread, 50, {8}), run(60, 8), stop(70, 8, 5), marker(400, "end")});
    const auto ix = load(b.bytes());
    QCOMPARE(ix->threadStates.end, uint64_t(400));
    compareStates(*ix, 7, {{100, ThreadState::Running, ThreadCause::Run, 0}, {150, ThreadState::Runnable, ThreadCause::Stop, 0, 3}, {200, ThreadState::Running, ThreadCause::Run, 0}, {260, ThreadState::Blocked, ThreadCause::Stop, 0, 7}});
    const ThreadFigures f = figuresOf(*ix, 7);
    QCOMPARE(f.running(), uint64_t(50 + 60));
    QCOMPARE(f.runnable(), uint64_t(50));
    QCOMPARE(f.blockedTotal(), uint64_t(400 - 260));
    QCOMPARE(f.blocked[size_t(BlockReason::MVar)], uint64_t(400 - 260));
    QCOMPARE(f.runs, 2u);
    QCOMPARE(f.created, kNoTime);
    QCOMPARE(f.finished, kNoTime);
    uint64_t life = 0;
    for (uint64_t t : f.time)
        life += t;
    QCOMPARE(life, uint64_t(400 - 100));

    const ThreadFigures g = figuresOf(*ix, 8);
    QCOMPARE(g.created, uint64_t(50));
    QCOMPARE(g.finished, uint64_t(70));
    QCOMPARE(g.runnable(), uint64_t(10));
    QCOMPARE(g.running(), uint64_t(10));
    QCOMPARE(timeIn(g, ThreadState::Finished), uint64_t(400 - 70));

    // Before its first event the thread is not in a range at all; a range
    // starting at a run counts it, one ending there does not.
    QCOMPARE(idsOf(allThreadFigures(*ix, ViewRange{0, 100})), std::vector<uint32_t>{8});
    QCOMPARE(idsOf(allThreadFigures(*ix, ViewRange{0, 101})), (std::vector<uint32_t>{7, 8}));
    const ThreadFigures part = figuresOf(*ix, 7, ViewRange{100, 200});
    QCOMPARE(part.runs, 1u);
    QCOMPARE(part.running(), uint64_t(50));
    QCOMPARE(part.runnable(), uint64_t(50));
    const ThreadFigures atRun = figuresOf(*ix, 7, ViewRange{200, 201});
    QCOMPARE(atRun.runs, 1u);
    QCOMPARE(atRun.running(), uint64_t(1));
    QCOMPARE(figuresOf(*ix, 7, ViewRange{0, 120}).running(), uint64_t(20));
}

// A thread still running when the log ends runs until its last event.
void TestThreads::threadRunningAtTheEnd()
{
    LogBuilder b;
    b.block(0, {ev(tag::CreateThread, 10, {3}), run(20, 3)});
    b.block(1, {run(30, 4), stop(40, 4, 3), marker(500, "end")});
    const auto ix = load(b.bytes());
    compareStates(*ix, 3, {{10, ThreadState::Runnable, ThreadCause::Created}, {20, ThreadState::Running, ThreadCause::Run, 0}});
    const size_t k = ix->threadStates.find(3);
    const auto segs = ix->threadStates.of(k);
    QCOMPARE(ix->threadStates.segmentEnd(segs, segs.size() - 1), uint64_t(500));
    const ThreadFigures f = figuresOf(*ix, 3);
    QCOMPARE(f.running(), uint64_t(480));
    QCOMPARE(f.runnable(), uint64_t(10));
    QCOMPARE(ix->thread(3)->runTime, uint64_t(480)); // the capability timeline says the same
    QCOMPARE(figuresOf(*ix, 4).runnable(), uint64_t(460));
    const ThreadFigures part = figuresOf(*ix, 3, ViewRange{100, 200});
    QCOMPARE(part.running(), uint64_t(100));
    QCOMPARE(part.runs, 0u);
}

// MIGRATE_THREAD moves a runnable thread to another capability's queue: it
// stays runnable; a blocked one stays blocked for the same reason.
void TestThreads::migrationWhileRunnableOrBlocked()
{
    LogBuilder b;
    b.block(0, {ev(tag::CreateThread, 10, {5}), run(20, 5), stop(30, 5, 3), ev(tag::MigrateThread, 35, {5, 1}), run(40, 6), stop(42, 6, 11), ev(tag::MigrateThread, 44, {6, 1})});
    b.block(1, {run(50, 5), ev(tag::ThreadWakeup, 60, {6, 1}), stop(70, 5, 5)});
    const auto ix = load(b.bytes());
    compareStates(*ix, 5, {{10, ThreadState::Runnable, ThreadCause::Created}, {20, ThreadState::Running, ThreadCause::Run, 0}, {30, ThreadState::Runnable, ThreadCause::Stop, 0, 3}, {35, ThreadState::Runnable, ThreadCause::Migrate, 1}, {50, ThreadState::Running, ThreadCause::Run, 1}, {70, ThreadState::Finished, ThreadCause::Stop, 0, 5}});
    compareStates(*ix, 6, {{40, ThreadState::Running, ThreadCause::Run, 0}, {42, ThreadState::Blocked, ThreadCause::Stop, 0, 11}, {44, ThreadState::Blocked, ThreadCause::Migrate, 1}, {60, ThreadState::Runnable, ThreadCause::Wakeup}});
    const ThreadFigures f = figuresOf(*ix, 5);
    QCOMPARE(f.runnable(), uint64_t(10 + 5 + 15));
    QCOMPARE(f.running(), uint64_t(10 + 20));
    QCOMPARE(f.migrations, 1u);
    QCOMPARE(f.runs, 2u);
    const ThreadFigures g = figuresOf(*ix, 6);
    QCOMPARE(g.blocked[size_t(BlockReason::Delay)], uint64_t(60 - 42));
    QCOMPARE(g.blockedTotal(), uint64_t(60 - 42));
    QCOMPARE(g.runnable(), uint64_t(70 - 60));
    QCOMPARE(g.migrations, 1u);
    QCOMPARE(g.wakeups, 1u);

    const ThreadFigures around = figuresOf(*ix, 5, ViewRange{32, 40});
    QCOMPARE(around.runnable(), uint64_t(8));
    QCOMPARE(around.migrations, 1u);
    QCOMPARE(around.runs, 0u);
    const ThreadFigures after = figuresOf(*ix, 5, ViewRange{36, 60});
    QCOMPARE(after.runnable(), uint64_t(14));
    QCOMPARE(after.running(), uint64_t(10));
    QCOMPARE(after.migrations, 0u);
    QCOMPARE(after.runs, 1u);
}

// THREAD_WAKEUP and THREAD_RUNNABLE make a blocked thread runnable and
// leave a running one running; a wake-up can be a thread's first event.
void TestThreads::wakeupsAndRunnable()
{
    LogBuilder b;
    b.block(0, {run(10, 1), ev(tag::ThreadWakeup, 15, {1, 0}), ev(tag::ThreadRunnable, 17, {1}), stop(20, 1, 12), ev(tag::ThreadRunnable, 30, {1}), run(40, 1), stop(50, 1, 8, 2), ev(tag::ThreadWakeup, 55, {1, 0}), marker(60, "end")});
    b.block(1, {ev(tag::ThreadWakeup, 25, {2, 1})});
    const auto ix = load(b.bytes());
    compareStates(*ix, 1, {{10, ThreadState::Running, ThreadCause::Run, 0}, {15, ThreadState::Running, ThreadCause::Wakeup}, {17, ThreadState::Running, ThreadCause::Runnable}, {20, ThreadState::Blocked, ThreadCause::Stop, 0, 12}, {30, ThreadState::Runnable, ThreadCause::Runnable}, {40, ThreadState::Running, ThreadCause::Run, 0}, {50, ThreadState::Blocked, ThreadCause::Stop, 0, 8}, {55, ThreadState::Runnable, ThreadCause::Wakeup}});
    const auto segs = ix->threadStates.of(ix->threadStates.find(1));
    QCOMPARE(segs[6].info, uint16_t(2)); // the black hole's owner
    QCOMPARE(std::string(threadStateName(segs[6])), std::string("blocked on a black hole"));
    const ThreadFigures f = figuresOf(*ix, 1);
    QCOMPARE(f.running(), uint64_t(10 + 10));
    QCOMPARE(f.blocked[size_t(BlockReason::Stm)], uint64_t(10));
    QCOMPARE(f.blocked[size_t(BlockReason::BlackHole)], uint64_t(5));
    QCOMPARE(f.blockedTotal(), uint64_t(15));
    QCOMPARE(f.runnable(), uint64_t(10 + 5));
    QCOMPARE(f.wakeups, 2u);
    QCOMPARE(f.runs, 2u);
    compareStates(*ix, 2, {{25, ThreadState::Runnable, ThreadCause::Wakeup}});
    QCOMPARE(figuresOf(*ix, 2).runnable(), uint64_t(35));
}

// A RUN_THREAD of another thread on a capability whose thread never
// stopped: from then on that thread's state is unknown, until its next
// event. The same thread run again, or a run on another capability,
// replaces nothing.
void TestThreads::runEndedWithoutStop()
{
    LogBuilder b;
    b.block(0, {run(10, 1), run(20, 2), stop(30, 2, 3), stop(40, 1, 5), marker(50, "end")});
    b.block(1, {run(12, 3), run(14, 3), stop(16, 3, 3)});
    const auto ix = load(b.bytes());
    compareStates(*ix, 1, {{10, ThreadState::Running, ThreadCause::Run, 0}, {20, ThreadState::Unknown, ThreadCause::Replaced}, {40, ThreadState::Finished, ThreadCause::Stop, 0, 5}});
    compareStates(*ix, 2, {{20, ThreadState::Running, ThreadCause::Run, 0}, {30, ThreadState::Runnable, ThreadCause::Stop, 0, 3}});
    compareStates(*ix, 3, {{12, ThreadState::Running, ThreadCause::Run, 1}, {14, ThreadState::Running, ThreadCause::Run, 1}, {16, ThreadState::Runnable, ThreadCause::Stop, 0, 3}});
    const ThreadFigures f = figuresOf(*ix, 1);
    QCOMPARE(f.running(), uint64_t(10));
    QCOMPARE(timeIn(f, ThreadState::Unknown), uint64_t(20));
    QCOMPARE(timeIn(f, ThreadState::Finished), uint64_t(10));
    QCOMPARE(f.runs, 1u);
    QCOMPARE(ix->thread(1)->runTime, uint64_t(10)); // the capability timeline closed it there too
    const ThreadFigures g = figuresOf(*ix, 3);
    QCOMPARE(g.running(), uint64_t(4));
    QCOMPARE(g.runs, 2u);
}

// Each STOP_THREAD status (eventlog-format.md §2.2) leaves the thread in
// the state it names, blocked for the reason it names.
void TestThreads::stopStatuses()
{
    struct Case {
        uint64_t status;
        ThreadState state;
        BlockReason reason;
    };
    const Case cases[] = {
        {0, ThreadState::Runnable, {}},
        {1, ThreadState::Runnable, {}},
        {2, ThreadState::Runnable, {}},
        {3, ThreadState::Runnable, {}},
        {4, ThreadState::Blocked, BlockReason::Other},
        {5, ThreadState::Finished, {}},
        {6, ThreadState::Blocked, BlockReason::CCall},
        {7, ThreadState::Blocked, BlockReason::MVar},
        {8, ThreadState::Blocked, BlockReason::BlackHole},
        {9, ThreadState::Blocked, BlockReason::Read},
        {10, ThreadState::Blocked, BlockReason::Write},
        {11, ThreadState::Blocked, BlockReason::Delay},
        {12, ThreadState::Blocked, BlockReason::Stm},
        {13, ThreadState::Blocked, BlockReason::DoProc},
        {14, ThreadState::Blocked, BlockReason::Other},
        {15, ThreadState::Blocked, BlockReason::Other},
        {16, ThreadState::Blocked, BlockReason::CCall},
        {17, ThreadState::Blocked, BlockReason::CCall},
        {18, ThreadState::Blocked, BlockReason::ThrowTo},
        {19, ThreadState::Runnable, {}},
        {20, ThreadState::Blocked, BlockReason::MVarRead},
        {21, ThreadState::Runnable, {}},
        {300, ThreadState::Runnable, {}},
    };
    EventlogWriter w(EventlogWriter::allDeclarations());
    w.beginBlock(0, 0);
    uint64_t t = 0;
    for (const Case& c : cases) {
        w.write(run(t, 100 + c.status).event);
        w.write(stop(t + 10, 100 + c.status, c.status).event);
        t += 20;
    }
    const uint64_t end = t + 1000;
    w.write(marker(end, "end").event);
    w.endBlock(end);
    w.writeDataEnd();
    const auto ix = load(w.takeBytes());
    t = 0;
    for (const Case& c : cases) {
        const QString where = QStringLiteral("status %1").arg(c.status);
        const auto segs = ix->threadStates.of(ix->threadStates.find(uint32_t(100 + c.status)));
        QCOMPARE(segs.size(), size_t(2));
        QVERIFY2(segs[1].state == c.state, qPrintable(where + QStringLiteral(": ") + stateName(segs[1].state)));
        const ThreadFigures f = figuresOf(*ix, uint32_t(100 + c.status));
        QCOMPARE(f.running(), uint64_t(10));
        QCOMPARE(f.time[size_t(c.state)], end - (t + 10));
        if (c.state == ThreadState::Blocked)
            QVERIFY2(f.blocked[size_t(c.reason)] == end - (t + 10), qPrintable(where));
        t += 20;
    }
    const auto foreign = ix->threadStates.of(ix->threadStates.find(106));
    QCOMPARE(std::string(threadStateName(foreign[1])), std::string("in a foreign call"));
}

// GHC 7.8.1/7.8.2 (USER_MARKER declared, HACK_BUG_T9003 not) numbered the
// blocking statuses from 8 on differently (eventlog-format.md §2.2).
void TestThreads::stopStatusesOfGhc782()
{
    std::vector<EventTypeDecl> decls = EventlogWriter::allDeclarations();
    std::erase_if(decls, [](const EventTypeDecl& d) { return d.tag == tag::HackBugT9003; });
    struct Case {
        uint64_t raw;
        ThreadState state;
        BlockReason reason;
    };
    const Case cases[] = {{7, ThreadState::Blocked, BlockReason::MVar}, {8, ThreadState::Blocked, BlockReason::MVarRead}, {9, ThreadState::Blocked, BlockReason::BlackHole}, {10, ThreadState::Blocked, BlockReason::Read}, {12, ThreadState::Blocked, BlockReason::Delay}, {13, ThreadState::Blocked, BlockReason::Stm}, {17, ThreadState::Blocked, BlockReason::CCall}, {19, ThreadState::Blocked, BlockReason::ThrowTo}, {20, ThreadState::Runnable, {}}, {5, ThreadState::Finished, {}}};
    EventlogWriter w(decls);
    w.beginBlock(0, 0);
    uint64_t t = 0;
    for (const Case& c : cases) {
        w.write(run(t, c.raw).event);
        w.write(stop(t + 10, c.raw, c.raw).event);
        t += 20;
    }
    w.write(marker(t + 100, "end").event);
    w.endBlock(t + 100);
    w.writeDataEnd();
    const auto ix = load(w.takeBytes());
    for (const Case& c : cases) {
        const ThreadFigures f = figuresOf(*ix, uint32_t(c.raw));
        const auto segs = ix->threadStates.of(ix->threadStates.find(uint32_t(c.raw)));
        QVERIFY2(segs[1].state == c.state, qPrintable(QStringLiteral("raw %1: %2").arg(c.raw).arg(stateName(segs[1].state))));
        if (c.state == ThreadState::Blocked)
            QVERIFY2(f.blocked[size_t(c.reason)] == f.blockedTotal() && f.blockedTotal() > 0,
                     qPrintable(QStringLiteral("raw %1 blocked on %2").arg(c.raw).arg(blockReasonName(blockReasonOf(segs[1])))));
    }
}

// Several events of one thread at one time keep the order of the log,
// within a block and across blocks of two capabilities.
void TestThreads::identicalTimestampsKeepLogOrder()
{
    LogBuilder b;
    b.block(0, {ev(tag::CreateThread, 10, {9}), run(10, 9), stop(10, 9, 3), run(10, 9), stop(10, 9, 7), ev(tag::ThreadWakeup, 10, {9, 0}), run(10, 9), stop(20, 9, 5), run(30, 4), stop(40, 4, 3), ev(tag::MigrateThread, 40, {4, 1})});
    b.block(1, {run(40, 4), stop(45, 4, 5)});
    const auto ix = load(b.bytes());
    compareStates(*ix, 9, {{10, ThreadState::Runnable, ThreadCause::Created}, {10, ThreadState::Running, ThreadCause::Run, 0}, {10, ThreadState::Runnable, ThreadCause::Stop, 0, 3}, {10, ThreadState::Running, ThreadCause::Run, 0}, {10, ThreadState::Blocked, ThreadCause::Stop, 0, 7}, {10, ThreadState::Runnable, ThreadCause::Wakeup}, {10, ThreadState::Running, ThreadCause::Run, 0}, {20, ThreadState::Finished, ThreadCause::Stop, 0, 5}});
    const ThreadFigures f = figuresOf(*ix, 9);
    QCOMPARE(f.running(), uint64_t(10));
    QCOMPARE(f.runs, 3u);
    QCOMPARE(f.wakeups, 1u);
    QCOMPARE(f.blockedTotal() + f.runnable(), uint64_t(0));
    // A range beginning at that time counts every event there; one ending
    // there counts none of them.
    const ThreadFigures from = figuresOf(*ix, 9, ViewRange{10, 11});
    QCOMPARE(from.runs, 3u);
    QCOMPARE(from.wakeups, 1u);
    QCOMPARE(from.running(), uint64_t(1));
    const ThreadFigures before = figuresOf(*ix, 9, ViewRange{0, 10});
    QCOMPARE(before.runs + before.wakeups, 0u);
    compareStates(*ix, 4, {{30, ThreadState::Running, ThreadCause::Run, 0}, {40, ThreadState::Runnable, ThreadCause::Stop, 0, 3}, {40, ThreadState::Runnable, ThreadCause::Migrate, 1}, {40, ThreadState::Running, ThreadCause::Run, 1}, {45, ThreadState::Finished, ThreadCause::Stop, 0, 5}});
    QCOMPARE(figuresOf(*ix, 4).running(), uint64_t(15));
}

// A later block of the file may hold earlier times: each thread's events
// are put back in time order, those at one time in log order.
void TestThreads::blocksOutOfTimeOrder()
{
    LogBuilder b;
    b.block(1, {run(100, 2), stop(120, 2, 3)});
    b.block(0, {ev(tag::CreateThread, 10, {2}), run(20, 2), stop(30, 2, 3), run(30, 2), stop(30, 2, 7), ev(tag::ThreadWakeup, 30, {2, 0}), ev(tag::MigrateThread, 40, {2, 1})});
    const auto ix = load(b.bytes());
    compareStates(*ix, 2, {{10, ThreadState::Runnable, ThreadCause::Created}, {20, ThreadState::Running, ThreadCause::Run, 0}, {30, ThreadState::Runnable, ThreadCause::Stop, 0, 3}, {30, ThreadState::Running, ThreadCause::Run, 0}, {30, ThreadState::Blocked, ThreadCause::Stop, 0, 7}, {30, ThreadState::Runnable, ThreadCause::Wakeup}, {40, ThreadState::Runnable, ThreadCause::Migrate, 1}, {100, ThreadState::Running, ThreadCause::Run, 1}, {120, ThreadState::Runnable, ThreadCause::Stop, 0, 3}});
    const ThreadFigures f = figuresOf(*ix, 2);
    QCOMPARE(f.running(), uint64_t(30));
    QCOMPARE(f.runnable(), uint64_t(10 + 70));
    QCOMPARE(f.runs, 3u);
    QCOMPARE(f.wakeups, 1u);
}

// A STOP nobody started is an issue (time, thread, name); a START nobody
// stopped is a span that ends with the log, flagged, and an issue too. A
// STOP on another thread does not close it.
void TestThreads::stopWithoutStartAndStartWithoutStop()
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
    QCOMPARE(figures[0].count, uint64_t(1));
    QCOMPARE(figures[0].total, uint64_t(70));
    QCOMPARE(figures[0].open, uint64_t(1));
}

// START on thread 7 while it runs on capability 0; it stops, migrates,
// runs on capability 1, where a nested span starts and stops and then the
// outer one stops: one outer span with one child.
void TestThreads::nestingAcrossAMigration()
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
void TestThreads::sameNameOnTwoThreads()
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
void TestThreads::recursiveSameName()
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
void TestThreads::stopOfAnOuterSpan()
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
void TestThreads::messagesWhileNoThreadRuns()
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
void TestThreads::markersAndOtherRules()
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
void TestThreads::spanFiguresOfKnownDurations()
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
        {"tail", 1, 1000, 1000, 1000, 1000, 1000, 1000, 1},
        {"job", 20, 300, 300, 15, nearestRank(jobs, 0.5), nearestRank(jobs, 0.95), 110, 0},
        {"parent", 2, 200, 100, 100, 100, 100, 100, 0},
        {"child", 4, 100, 100, 25, nearestRank({30, 20, 30, 20}, 0.5), nearestRank({30, 20, 30, 20}, 0.95), 30, 0},
        {"once", 1, 42, 42, 42, 42, 42, 42, 0},
        {"mark", 1, 5, 5, 5, 5, 5, 5, 0},
    };
    QCOMPARE(want[1].p50, uint64_t(10)); // the 10th of 20
    QCOMPARE(want[1].p95, uint64_t(19)); // the 19th of 20
    QCOMPARE(want[3].p50, uint64_t(20));
    QCOMPARE(want[3].p95, uint64_t(30));
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
void TestThreads::generatedSpansMatchTheirConstruction()
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
        // Per name: the figures by their definitions.
        std::map<std::string, std::vector<uint64_t>> durations;
        std::map<std::string, uint64_t> self;
        for (size_t i = 0; i < g.spans.size(); ++i) {
            const WantSpan& w = g.spans[i];
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
            QCOMPARE(f.total, total);
            QCOMPARE(f.self, self[name]);
            QCOMPARE(f.mean, total / d.size());
            QCOMPARE(f.p50, nearestRank(d, 0.5));
            QCOMPARE(f.p95, nearestRank(d, 0.95));
            QCOMPARE(f.max, *std::max_element(d.begin(), d.end()));
        }
    }
}

void TestThreads::growingLogGivesTheSameStatesAndSpans_data()
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
void TestThreads::growingLogGivesTheSameStatesAndSpans()
{
    QFETCH(QString, log);
    const std::vector<uint8_t> bytes = log.isEmpty() ? generatedSpansLog(7, 200).bytes : readFile(log);
    QVERIFY(!bytes.empty());
    QRandomGenerator rng(uint32_t(bytes.size()));
    IndexBuilder growing;
    size_t pos = 0;
    int publishes = 0;
    while (pos < bytes.size()) {
        const size_t n = std::min<size_t>(bytes.size() - pos, 1 + rng.bounded(uint32_t(bytes.size() / 20)));
        growing.feed({bytes.data() + pos, n});
        pos += n;
        const LogIndex& now = growing.publish(false);
        const std::vector<uint8_t> prefix(bytes.begin(), bytes.begin() + ptrdiff_t(pos));
        const Walk w = walkThreads(prefix);
        compareWithWalk(now, w);
        compareFiguresWithWalk(now, w, std::nullopt);
        IndexBuilder fresh;
        fresh.feed(prefix);
        const LogIndex& other = fresh.publish(false);
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
    compareUserSpans(*final.userSpans, *whole->userSpans);
    if (log.isEmpty())
        QVERIFY(final.userSpans->spans.size() > 100);
    else
        QVERIFY(final.threadStates.count() > 0);
}

// `threads --csv`: the documented header, one row per thread, every figure
// as the walk finds it.
void TestThreads::threadsCsvAgreesWithTheWalk()
{
    const Run r = runHecscope({QStringLiteral("threads"), QStringLiteral("--csv"), kThreadsLog});
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.err.isEmpty(), r.err.constData());
    QVERIFY(r.out.startsWith("thread,label,runs,run_ns,runnable_ns,blocked_ns"));
    const Walk w = walkThreads(readFile(kThreadsLog));
    QVERIFY(w.threads.size() > 500);
    compareThreadsCsv(r.out, w, 0, UINT64_MAX);

    // The text table: a count and a line per thread.
    const Run text = runHecscope({QStringLiteral("threads"), kThreadsLog});
    QCOMPARE(text.exitCode, 0);
    QVERIFY(text.out.startsWith(QByteArray::number(qulonglong(w.threads.size())) + " threads\n"));
    QCOMPARE(size_t(text.out.count('\n')), w.threads.size() + 3);
}

// --range: each thread's part inside it; bad ranges are usage errors.
void TestThreads::threadsRange()
{
    const Walk w = walkThreads(readFile(kThreadsLog));
    const uint64_t a = w.end / 3, b = 2 * w.end / 3;
    Run r = runHecscope({QStringLiteral("threads"), QStringLiteral("--csv"), QStringLiteral("--range"),
                         QStringLiteral("%1ns:%2ns").arg(a).arg(b), kThreadsLog});
    QCOMPARE(r.exitCode, 0);
    compareThreadsCsv(r.out, w, a, b);
    size_t live = 0;
    for (const auto& [id, t] : w.threads)
        live += w.liveIn(t, a, b);
    QVERIFY(live > 0 && live < w.threads.size());

    // An open end means the end of the log; times in other units.
    r = runHecscope({QStringLiteral("threads"), QStringLiteral("--csv"), QStringLiteral("--range"), QStringLiteral("20ms:"), kThreadsLog});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(w.end > 20'000'000);
    compareThreadsCsv(r.out, w, 20'000'000, w.end);
    r = runHecscope({QStringLiteral("threads"), QStringLiteral("--csv"), QStringLiteral("--range"), QStringLiteral(":1.5ms"), kThreadsLog});
    QCOMPARE(r.exitCode, 0);
    compareThreadsCsv(r.out, w, 0, 1'500'000);

    for (const char* bad : {"30ms:10ms", "5ms:5ms", "abc:1ms", "10ms", "1ms:x"}) {
        r = runHecscope({QStringLiteral("threads"), QStringLiteral("--range"), QLatin1String(bad), kThreadsLog});
        QVERIFY2(r.exitCode == 2, bad);
        QVERIFY2(r.err.contains("bad --range"), r.err.constData());
        QVERIFY(r.out.isEmpty());
        r = runHecscope({QStringLiteral("spans"), QStringLiteral("--range"), QLatin1String(bad), kThreadsLog});
        QVERIFY2(r.exitCode == 2, bad);
    }
    r = runHecscope({QStringLiteral("threads"), kThreadsLog, QStringLiteral("--range")});
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.err.contains("needs a value"));
}

// A truncated log exits as `info` does (0) with the figures of what was
// decoded; a corrupt one too (1).
void TestThreads::threadsOnTruncatedAndCorruptLogs()
{
    const std::vector<uint8_t> bytes = readFile(kThreadsLog);
    const auto records = recordsOf(bytes);
    QVERIFY(records.size() > 1000);
    const auto [offset, size] = records[records.size() / 2];
    QTemporaryDir dir;
    QVERIFY(dir.isValid());

    const std::vector<uint8_t> prefix(bytes.begin(), bytes.begin() + ptrdiff_t(offset + size / 2));
    const QString cut = writeTemp(dir, QStringLiteral("cut.eventlog"), prefix);
    const Run info = runHecscope({QStringLiteral("info"), cut});
    QCOMPARE(info.exitCode, 0);
    Run r = runHecscope({QStringLiteral("threads"), QStringLiteral("--csv"), cut});
    QCOMPARE(r.exitCode, info.exitCode);
    QVERIFY2(r.err.contains("truncated"), r.err.constData());
    const Walk wCut = walkThreads(prefix);
    QVERIFY(wCut.threads.size() > 10);
    compareThreadsCsv(r.out, wCut, 0, UINT64_MAX);

    std::vector<uint8_t> corrupt = bytes;
    corrupt[size_t(offset)] = 0x0F;
    corrupt[size_t(offset) + 1] = 0xFF;
    const QString bad = writeTemp(dir, QStringLiteral("bad.eventlog"), corrupt);
    const Run badInfo = runHecscope({QStringLiteral("info"), bad});
    QCOMPARE(badInfo.exitCode, 1);
    r = runHecscope({QStringLiteral("threads"), QStringLiteral("--csv"), bad});
    QCOMPARE(r.exitCode, badInfo.exitCode);
    QVERIFY2(r.err.contains("error"), r.err.constData());
    compareThreadsCsv(r.out, walkThreads(corrupt), 0, UINT64_MAX);
    r = runHecscope({QStringLiteral("spans"), bad});
    QCOMPARE(r.exitCode, 1);
    QVERIFY(r.out.contains("spans of"));
}

// `spans` on a log of known spans: CSV header and figures, --range, the
// issues on stderr, --no-markers and other prefixes.
void TestThreads::spansCommand()
{
    const KnownLog k = knownDurationsLog();
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = writeTemp(dir, QStringLiteral("spans.eventlog"), k.bytes);
    QVERIFY(!path.isEmpty());

    Run r = runHecscope({QStringLiteral("spans"), QStringLiteral("--csv"), path});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.startsWith("name,count,total_ns,self_ns,mean_ns,p50_ns,p95_ns,max_ns"));
    auto rows = parseCsv(r.out);
    QCOMPARE(rows.size(), size_t(7));
    const std::vector<std::vector<std::string>> want{
        {"tail", "1", "1000", "1000", "1000", "1000", "1000", "1000"},
        {"job", "20", "300", "300", "15", "10", "19", "110"},
        {"parent", "2", "200", "100", "100", "100", "100", "100"},
        {"child", "4", "100", "100", "25", "20", "30", "30"},
        {"once", "1", "42", "42", "42", "42", "42", "42"},
        {"mark", "1", "5", "5", "5", "5", "5", "5"},
    };
    for (size_t i = 0; i < want.size(); ++i)
        QCOMPARE(std::vector<std::string>(rows[i + 1].begin(), rows[i + 1].begin() + 8), want[i]);
    QVERIFY2(r.err.contains("STOP without START 'ghost'"), r.err.constData());
    QVERIFY2(r.err.contains("'tail'") && r.err.contains("never stopped"), r.err.constData());

    r = runHecscope({QStringLiteral("spans"), QStringLiteral("--csv"), QStringLiteral("--range"),
                     QStringLiteral("%1ns:%2ns").arg(k.jobStarts[4]).arg(k.jobStarts[9]), path});
    QCOMPARE(r.exitCode, 0);
    rows = parseCsv(r.out);
    QCOMPARE(rows.size(), size_t(2));
    QCOMPARE(std::vector<std::string>(rows[1].begin(), rows[1].begin() + 8),
             (std::vector<std::string>{"job", "5", "50", "50", "10", "9", "19", "19"}));

    r = runHecscope({QStringLiteral("spans"), QStringLiteral("--csv"), QStringLiteral("--no-markers"), path});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(!r.out.contains("\nmark,"));
    QVERIFY(r.out.contains("\njob,"));
    r = runHecscope({QStringLiteral("spans"), QStringLiteral("--csv"), QStringLiteral("--start-prefix"),
                     QStringLiteral("START j"), QStringLiteral("--stop-prefix"), QStringLiteral("STOP j"), path});
    QCOMPARE(r.exitCode, 0);
    rows = parseCsv(r.out);
    QCOMPARE(rows.size(), size_t(2));
    QCOMPARE(rows[1][0], std::string("ob"));
    QCOMPARE(rows[1][1], std::string("20"));

    r = runHecscope({QStringLiteral("spans"), path});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.startsWith("29 spans of 6 names\n"));
    QVERIFY(r.out.contains("(1 open at the end)"));
}

void TestThreads::usageAndHelp()
{
    Run r = runHecscope({QStringLiteral("threads"), QStringLiteral("--help")});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.startsWith("Usage: hecscope threads FILE"));
    for (const char* word : {"--csv", "--range", "thread,label,runs,run_ns,runnable_ns,blocked_ns", "Exit status"})
        QVERIFY2(r.out.contains(word), word);
    r = runHecscope({QStringLiteral("spans"), QStringLiteral("-h")});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.startsWith("Usage: hecscope spans FILE"));
    for (const char* word : {"--csv", "--range", "--start-prefix", "--stop-prefix", "--no-markers",
                             "name,count,total_ns,self_ns,mean_ns,p50_ns,p95_ns,max_ns"})
        QVERIFY2(r.out.contains(word), word);
    r = runHecscope({QStringLiteral("--help")});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.contains("hecscope threads FILE") && r.out.contains("hecscope spans FILE"));

    for (const char* command : {"threads", "spans"}) {
        r = runHecscope({QLatin1String(command)});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("no FILE given"));
        r = runHecscope({QLatin1String(command), QStringLiteral("--bogus"), kThreadsLog});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("unknown option --bogus"));
        r = runHecscope({QLatin1String(command), kThreadsLog, kThreadsLog});
        QCOMPARE(r.exitCode, 2);
        r = runHecscope({QLatin1String(command), QStringLiteral("/nonexistent/x.eventlog")});
        QCOMPARE(r.exitCode, 1);
    }
    r = runHecscope({QStringLiteral("threads"), QStringLiteral("--no-markers"), kThreadsLog});
    QCOMPARE(r.exitCode, 2); // a spans option
    r = runHecscope({QStringLiteral("spans"), QStringLiteral("--start-prefix"), QStringLiteral("X"),
                     QStringLiteral("--stop-prefix"), QStringLiteral("X"), kThreadsLog});
    QCOMPARE(r.exitCode, 2);
}

QTEST_GUILESS_MAIN(TestThreads)
#include "tst_threads.moc"
