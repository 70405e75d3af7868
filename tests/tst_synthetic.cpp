// The thread and span logs of core/synth are what their comments promise.
// Each log is decoded with the project's decoder and walked here on its own
// terms, without the generator's bookkeeping: blocks and capabilities (time
// order inside a block and per capability, runs that never overlap), each
// thread's life (created, RUN/STOP alternating, migrations and wakeups only
// between runs, ThreadFinished last), and for spans, the START/STOP user
// messages paired per running thread (a user message belongs to the thread
// running on its capability). And the index of a synthesized scheduler log
// stays within the bytes per event docs/architecture.md promises for it.
#include "testsupport.h"

#include "core/format/eventtags.h"
#include "core/index/logindex.h"
#include "core/io/bytesource.h"
#include "core/load/loader.h"
#include "core/synth/synthetic.h"

#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace hecscope;
using namespace hecscope::test;

namespace {

// What a decoded event held, copied while it was being delivered.
struct Ev {
    uint64_t time = 0;
    uint16_t tag = 0;
    uint16_t cap = kNoCap;
    uint64_t n[3] = {0, 0, 0};
    std::string text; // USER_MSG, THREAD_LABEL
};

struct Log {
    std::vector<Ev> events; // file order
    std::vector<Diagnostic> diagnostics;
    bool sawDataEnd = false;
    bool unknown = false;
};

class CopySink final : public EventSink {
public:
    explicit CopySink(Log& log) : m_log(log) {}
    void onEvent(const Event& e) override
    {
        Ev c;
        c.time = e.time;
        c.tag = e.tag;
        c.cap = e.cap;
        std::copy(e.n, e.n + 3, c.n);
        if (e.tag == tag::UserMsg || e.tag == tag::ThreadLabel)
            c.text = std::string(e.s[0]);
        m_log.unknown = m_log.unknown || !e.known;
        m_log.events.push_back(std::move(c));
    }

private:
    Log& m_log;
};

Log decode(const std::vector<uint8_t>& bytes)
{
    Log log;
    CopySink sink(log);
    StreamDecoder decoder(sink);
    decoder.feed(bytes);
    decoder.finish();
    log.diagnostics = decoder.diagnostics();
    log.sawDataEnd = decoder.sawDataEnd();
    return log;
}

std::string at(const Ev& e)
{
    return " (tag " + std::to_string(e.tag) + " at " + std::to_string(e.time) + " on cap " +
           std::to_string(e.cap) + ")";
}

const std::set<uint64_t> kBlockingStatuses = {1, 2, 3, 6, 7, 8, 9, 11, 12, 18, 20};

// Decoded cleanly; every block's events belong to its capability, lie within
// its start and end times and are in time order, as is each capability's
// stream across blocks; blocks are at most 2 MiB; on each capability RUN and
// STOP alternate (same thread) and no collection starts while a thread runs.
std::string checkStructure(const Log& log, int caps)
{
    if (!log.diagnostics.empty())
        return "diagnostic: " + log.diagnostics.front().message();
    if (!log.sawDataEnd)
        return "no DATA_END";
    if (log.unknown)
        return "an unknown event";
    uint16_t blockCap = kNoCap;
    uint64_t blockStart = 0, blockEnd = 0, previous = 0;
    bool inBlock = false;
    std::vector<uint64_t> capLast(size_t(caps), 0);
    std::vector<uint64_t> running(size_t(caps), 0);
    std::vector<bool> collecting(size_t(caps), false);
    for (const Ev& e : log.events) {
        if (e.tag == tag::BlockMarker) {
            if (e.n[0] > (2u << 20))
                return "a block of more than 2 MiB" + at(e);
            if (e.n[1] < e.time)
                return "a block ending before it starts" + at(e);
            blockCap = uint16_t(e.n[2]);
            if (blockCap != kNoCap && blockCap >= caps)
                return "a block of an unknown capability" + at(e);
            blockStart = previous = e.time;
            blockEnd = e.n[1];
            inBlock = true;
            continue;
        }
        if (!inBlock)
            return "an event outside a block" + at(e);
        if (e.cap != blockCap)
            return "an event not of its block's capability" + at(e);
        if (e.time < blockStart || e.time > blockEnd)
            return "an event outside its block's times" + at(e);
        if (e.time < previous)
            return "time going back inside a block" + at(e);
        previous = e.time;
        if (e.cap == kNoCap) {
            if (e.tag != tag::CapCreate)
                return "a global event other than CAP_CREATE" + at(e);
            continue;
        }
        const size_t c = e.cap;
        if (e.time < capLast[c])
            return "time going back on a capability" + at(e);
        capLast[c] = e.time;
        switch (e.tag) {
        case tag::RunThread:
            if (running[c] || collecting[c])
                return "a run starting while another runs or during GC" + at(e);
            running[c] = e.n[0];
            break;
        case tag::StopThread:
            if (running[c] != e.n[0])
                return "a stop of a thread not running there" + at(e);
            running[c] = 0;
            break;
        case tag::GcStart:
            if (running[c] || collecting[c])
                return "GC starting while a thread runs" + at(e);
            collecting[c] = true;
            break;
        case tag::GcEnd:
            if (!collecting[c])
                return "GC_END without GC_START" + at(e);
            collecting[c] = false;
            break;
        default:
            break;
        }
    }
    for (int c = 0; c < caps; ++c)
        if (running[size_t(c)] || collecting[size_t(c)])
            return "a run or GC left open on cap " + std::to_string(c);
    return {};
}

// The log's events (not the block markers or global ones) in time order;
// ties keep the file order, so each capability's stream keeps its order.
std::vector<const Ev*> inTimeOrder(const Log& log)
{
    std::vector<const Ev*> out;
    for (const Ev& e : log.events)
        if (e.tag != tag::BlockMarker && e.cap != kNoCap)
            out.push_back(&e);
    std::stable_sort(out.begin(), out.end(), [](const Ev* a, const Ev* b) { return a->time < b->time; });
    return out;
}

// Figures of the threads' lives, found by checkThreads.
struct ThreadFigures {
    size_t created = 0, runs = 0, labels = 0, conn = 0, migrations = 0, wakeups = 0, runnables = 0;
    size_t collections = 0, maxAlive = 0;
    std::map<uint64_t, size_t> statuses; // of every STOP
};

// Each thread: created once (ids 1..threads), then `runs` runs alternating
// RUN/STOP on the capability it was created on or migrated to; wakeups,
// runnables and migrations only while it is not running; statuses of the
// standard set and ThreadFinished exactly on the last stop.
std::string checkThreads(const Log& log, size_t threads, size_t runs, ThreadFigures& f)
{
    struct Life {
        bool created = false, running = false, finished = false;
        uint16_t cap = 0;
        size_t runs = 0;
        uint64_t born = 0, died = 0;
    };
    std::vector<Life> lives(threads + 1);
    for (const Ev* e : inTimeOrder(log)) {
        if (e->tag == tag::GcStart && e->cap == 0)
            ++f.collections;
        const uint64_t id = e->n[0];
        switch (e->tag) {
        case tag::CreateThread:
        case tag::ThreadLabel:
        case tag::RunThread:
        case tag::StopThread:
        case tag::MigrateThread:
        case tag::ThreadWakeup:
        case tag::ThreadRunnable:
            if (id == 0 || id > threads)
                return "an unknown thread " + std::to_string(id) + at(*e);
            break;
        default:
            continue;
        }
        Life& l = lives[id];
        if (e->tag == tag::CreateThread) {
            if (l.created)
                return "a thread created twice" + at(*e);
            l.created = true;
            l.cap = e->cap;
            l.born = e->time;
            ++f.created;
            continue;
        }
        if (!l.created || l.finished)
            return "an event of thread " + std::to_string(id) + " outside its life" + at(*e);
        switch (e->tag) {
        case tag::ThreadLabel:
            ++f.labels;
            if (e->text == "conn-" + std::to_string(id))
                ++f.conn;
            else if (e->text != "worker-" + std::to_string(id))
                return "an unexpected label " + e->text + at(*e);
            break;
        case tag::RunThread:
            if (l.running || e->cap != l.cap)
                return "thread " + std::to_string(id) + " running twice or not on its cap" + at(*e);
            l.running = true;
            ++f.runs;
            break;
        case tag::StopThread:
            if (!l.running || e->cap != l.cap)
                return "thread " + std::to_string(id) + " stopping while not running on the cap" + at(*e);
            l.running = false;
            ++l.runs;
            ++f.statuses[e->n[1]];
            if ((e->n[1] == 5) != (l.runs == runs))
                return "thread " + std::to_string(id) + ": ThreadFinished not exactly on its last stop" + at(*e);
            if (e->n[1] != 5 && !kBlockingStatuses.count(e->n[1]))
                return "an unexpected status " + std::to_string(e->n[1]) + at(*e);
            if (e->n[1] == 5) {
                l.finished = true;
                l.died = e->time;
            }
            break;
        case tag::MigrateThread:
            if (l.running || e->cap != l.cap || e->n[1] == l.cap)
                return "a migration of a running thread or from elsewhere" + at(*e);
            l.cap = uint16_t(e->n[1]);
            ++f.migrations;
            break;
        case tag::ThreadWakeup:
        case tag::ThreadRunnable:
            if (l.running || l.runs == 0)
                return "a wakeup of a running or new thread" + at(*e);
            if (e->tag == tag::ThreadWakeup && e->n[1] != l.cap)
                return "a wakeup naming another cap than the thread's" + at(*e);
            if (e->tag == tag::ThreadRunnable && e->cap != l.cap)
                return "a thread made runnable on another cap" + at(*e);
            ++(e->tag == tag::ThreadWakeup ? f.wakeups : f.runnables);
            break;
        default:
            break;
        }
    }
    std::vector<std::pair<uint64_t, int>> changes; // +1 born, -1 died
    for (size_t id = 1; id <= threads; ++id) {
        const Life& l = lives[id];
        if (!l.created)
            return "thread " + std::to_string(id) + " never created";
        if (l.runs != runs || (runs > 0 && !l.finished))
            return "thread " + std::to_string(id) + " ran " + std::to_string(l.runs) + " times";
        changes.push_back({l.born, 1});
        if (runs > 0)
            changes.push_back({l.died, -1});
    }
    std::sort(changes.begin(), changes.end());
    long alive = 0;
    for (const auto& [time, change] : changes) {
        alive += change;
        f.maxAlive = std::max(f.maxAlive, size_t(alive));
    }
    return {};
}

// Figures of the spans, found by checkSpans.
struct SpanFigures {
    size_t starts = 0, stops = 0, matched = 0, maxDepth = 0, acrossStops = 0, acrossCaps = 0;
    std::set<std::string> names;
};

// USER_MSG events only while a thread runs on their capability; START/STOP
// paired per running thread, properly nested, every span closed.
std::string checkSpans(const Log& log, SpanFigures& f)
{
    struct Open {
        std::string name;
        size_t run;
        uint16_t cap;
    };
    std::map<uint64_t, std::vector<Open>> stacks;
    std::map<uint16_t, uint64_t> running;
    std::map<uint16_t, size_t> runOf; // serial number of the run on each cap
    size_t runs = 0;
    for (const Ev* e : inTimeOrder(log)) {
        if (e->tag == tag::RunThread) {
            running[e->cap] = e->n[0];
            runOf[e->cap] = ++runs;
        } else if (e->tag == tag::StopThread) {
            running[e->cap] = 0;
        } else if (e->tag == tag::UserMsg) {
            const uint64_t thread = running[e->cap];
            if (!thread)
                return "a user message while no thread runs" + at(*e);
            std::vector<Open>& stack = stacks[thread];
            if (e->text.rfind("START ", 0) == 0) {
                ++f.starts;
                stack.push_back({e->text.substr(6), runOf[e->cap], e->cap});
                f.names.insert(stack.back().name);
                f.maxDepth = std::max(f.maxDepth, stack.size());
            } else if (e->text.rfind("STOP ", 0) == 0) {
                ++f.stops;
                if (stack.empty() || stack.back().name != e->text.substr(5))
                    return "an unmatched " + e->text + at(*e);
                ++f.matched;
                f.acrossStops += stack.back().run != runOf[e->cap];
                f.acrossCaps += stack.back().cap != e->cap;
                stack.pop_back();
            } else {
                return "an unexpected user message " + e->text + at(*e);
            }
        }
    }
    for (const auto& [thread, stack] : stacks)
        if (!stack.empty())
            return "thread " + std::to_string(thread) + " left " + std::to_string(stack.size()) + " spans open";
    return {};
}

size_t countTag(const Log& log, uint16_t t)
{
    return size_t(std::count_if(log.events.begin(), log.events.end(), [t](const Ev& e) { return e.tag == t; }));
}

} // namespace

class TestSynthetic : public QObject {
    Q_OBJECT
private slots:
    void threadsLog();
    void threadsLogEdgeCases_data();
    void threadsLogEdgeCases();
    void spansLog();
    void spansLogEdgeCases_data();
    void spansLogEdgeCases();
    void deterministic();
    void indexBytesPerEvent();
};

void TestSynthetic::threadsLog()
{
    constexpr size_t kThreads = 1000, kRuns = 10;
    const Log log = decode(synthesizeThreadsLog(kThreads, kRuns));
    const std::string structure = checkStructure(log, 4);
    QVERIFY2(structure.empty(), structure.c_str());
    QCOMPARE(countTag(log, tag::CreateThread), kThreads);
    QCOMPARE(countTag(log, tag::RunThread), kThreads * kRuns);
    QCOMPARE(countTag(log, tag::StopThread), kThreads * kRuns);
    ThreadFigures f;
    const std::string lives = checkThreads(log, kThreads, kRuns, f);
    QVERIFY2(lives.empty(), lives.c_str());
    QCOMPARE(f.created, kThreads);
    QCOMPARE(f.runs, kThreads * kRuns);
    // ~90% labelled, of which ~2/9 "conn-<id>".
    QVERIFY2(f.labels > 850 && f.labels < 950, std::to_string(f.labels).c_str());
    QVERIFY2(f.conn > 150 && f.conn < 260, std::to_string(f.conn).c_str());
    QCOMPARE(f.statuses[5], kThreads);
    for (uint64_t s : kBlockingStatuses)
        QVERIFY2(f.statuses[s] > 0, ("no stop with status " + std::to_string(s)).c_str());
    QVERIFY(f.statuses[3] > f.statuses[7] && f.statuses[7] > f.statuses[1]); // 30%, 20%, 12%
    QVERIFY(f.migrations > 0);
    QVERIFY(f.wakeups > 0);
    QVERIFY(f.runnables > 0);
    QVERIFY(f.collections >= 2);
    QCOMPARE(countTag(log, tag::GcStart), f.collections * 4);
    QCOMPARE(countTag(log, tag::GcEnd), f.collections * 4);
    QVERIFY2(f.maxAlive >= 20, std::to_string(f.maxAlive).c_str()); // lives overlap
}

void TestSynthetic::threadsLogEdgeCases_data()
{
    QTest::addColumn<int>("threads");
    QTest::addColumn<int>("runs");
    QTest::addColumn<int>("caps");
    QTest::addColumn<int>("blocks"); // at least, with the global one
    QTest::newRow("one cap") << 300 << 5 << 1 << 2;
    QTest::newRow("one cap, several blocks") << 5000 << 10 << 1 << 3;
    QTest::newRow("one run each") << 500 << 1 << 3 << 4;
    QTest::newRow("no runs") << 20 << 0 << 2 << 3;
    QTest::newRow("one thread") << 1 << 50 << 8 << 2;
    QTest::newRow("no threads") << 0 << 10 << 4 << 1;
}

void TestSynthetic::threadsLogEdgeCases()
{
    QFETCH(int, threads);
    QFETCH(int, runs);
    QFETCH(int, caps);
    QFETCH(int, blocks);
    const Log log = decode(synthesizeThreadsLog(size_t(threads), size_t(runs), caps, 3));
    const std::string structure = checkStructure(log, caps);
    QVERIFY2(structure.empty(), structure.c_str());
    QVERIFY(countTag(log, tag::BlockMarker) >= size_t(blocks));
    ThreadFigures f;
    const std::string lives = checkThreads(log, size_t(threads), size_t(runs), f);
    QVERIFY2(lives.empty(), lives.c_str());
    QCOMPARE(f.runs, size_t(threads * runs));
}

void TestSynthetic::spansLog()
{
    constexpr size_t kSpans = 10'000;
    const Log log = decode(synthesizeSpansLog(kSpans));
    const std::string structure = checkStructure(log, 4);
    QVERIFY2(structure.empty(), structure.c_str());
    QCOMPARE(countTag(log, tag::CreateThread), size_t(64));
    SpanFigures f;
    const std::string spans = checkSpans(log, f);
    QVERIFY2(spans.empty(), spans.c_str());
    QCOMPARE(f.starts, kSpans);
    QCOMPARE(f.stops, kSpans);
    QCOMPARE(f.matched, kSpans);
    QCOMPARE(countTag(log, tag::UserMsg), 2 * kSpans);
    QCOMPARE(f.maxDepth, size_t(4));
    QVERIFY2(f.names.size() >= 45 && f.names.size() <= 50, std::to_string(f.names.size()).c_str());
    QVERIFY(f.names.count("request") && f.names.count("parse") && f.names.count("db-query-7"));
    // Spans often stay open over a stop of their thread, sometimes until it
    // runs on another capability.
    QVERIFY2(f.acrossStops > kSpans / 5, std::to_string(f.acrossStops).c_str());
    QVERIFY2(f.acrossCaps > kSpans / 50, std::to_string(f.acrossCaps).c_str());
    // Every thread's life is complete: its last stop is ThreadFinished.
    const size_t runs = countTag(log, tag::RunThread);
    std::map<uint64_t, size_t> runsOf;
    for (const Ev& e : log.events)
        if (e.tag == tag::RunThread)
            ++runsOf[e.n[0]];
    QCOMPARE(runsOf.size(), size_t(64));
    // Threads run different numbers of times here, so each one's last stop
    // is checked directly.
    std::map<uint64_t, std::pair<uint64_t, uint64_t>> lastStop; // thread -> (time, status)
    size_t finished = 0;
    for (const Ev* e : inTimeOrder(log))
        if (e->tag == tag::StopThread) {
            lastStop[e->n[0]] = {e->time, e->n[1]};
            finished += e->n[1] == 5;
        }
    QCOMPARE(finished, size_t(64));
    for (const auto& [thread, stop] : lastStop)
        QVERIFY2(stop.second == 5, ("thread " + std::to_string(thread) + " did not finish last").c_str());
    QVERIFY(runs > kSpans / 4);
}

void TestSynthetic::spansLogEdgeCases_data()
{
    QTest::addColumn<int>("spans");
    QTest::addColumn<int>("threads");
    QTest::addColumn<int>("caps");
    QTest::addColumn<int>("blocks"); // at least, with the global one
    QTest::newRow("no spans") << 0 << 3 << 2 << 3;
    QTest::newRow("one thread, one cap") << 500 << 1 << 1 << 2;
    QTest::newRow("one cap, several blocks") << 40000 << 8 << 1 << 3;
    QTest::newRow("more threads than spans") << 10 << 64 << 4 << 5;
    QTest::newRow("many caps") << 3000 << 16 << 12 << 13;
}

void TestSynthetic::spansLogEdgeCases()
{
    QFETCH(int, spans);
    QFETCH(int, threads);
    QFETCH(int, caps);
    QFETCH(int, blocks);
    const Log log = decode(synthesizeSpansLog(size_t(spans), size_t(threads), caps, 5));
    const std::string structure = checkStructure(log, caps);
    QVERIFY2(structure.empty(), structure.c_str());
    QVERIFY(countTag(log, tag::BlockMarker) >= size_t(blocks));
    SpanFigures f;
    const std::string check = checkSpans(log, f);
    QVERIFY2(check.empty(), check.c_str());
    QCOMPARE(f.matched, size_t(spans));
    QCOMPARE(f.starts, size_t(spans));
    QCOMPARE(f.stops, size_t(spans));
    QCOMPARE(countTag(log, tag::CreateThread), size_t(threads));
}

void TestSynthetic::deterministic()
{
    QVERIFY(synthesizeThreadsLog(200, 7, 3, 9) == synthesizeThreadsLog(200, 7, 3, 9));
    QVERIFY(synthesizeThreadsLog(200, 7, 3, 9) != synthesizeThreadsLog(200, 7, 3, 10));
    QVERIFY(synthesizeSpansLog(2000, 16, 3, 9) == synthesizeSpansLog(2000, 16, 3, 9));
    QVERIFY(synthesizeSpansLog(2000, 16, 3, 9) != synthesizeSpansLog(2000, 16, 3, 10));
}

// The index of `hecscope synthesize scheduler OUT N` (the same bytes: the
// synthesizer's defaults), loaded from a file as `info` and `bench` load it,
// holds at most the bytes per event that docs/architecture.md ("Index
// memory") documents for it: LogIndex::memoryBytes(), counted, not timed.
void TestSynthetic::indexBytesPerEvent()
{
    const QString docPath = QStringLiteral(HECSCOPE_TESTDATA_DIR "/../docs/architecture.md");
    const std::string doc = readText(docPath);
    static const QRegularExpression line(
        QStringLiteral(R"(Index bytes per event \(synthesize scheduler, (\d+) MB\): (\d+(?:\.\d+)?))"));
    const QRegularExpressionMatch m = line.match(QString::fromStdString(doc));
    QVERIFY2(m.hasMatch(), qPrintable(docPath + QStringLiteral(" has no line \"Index bytes per event "
                                                               "(synthesize scheduler, N MB): X\"")));
    const size_t megabytes = m.captured(1).toULongLong();
    const double documented = m.captured(2).toDouble();
    QVERIFY(megabytes > 0 && documented > 0);

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("scheduler.eventlog"));
    {
        const std::vector<uint8_t> bytes = synthesizeSchedulerLog(megabytes << 20);
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QCOMPARE(f.write(reinterpret_cast<const char*>(bytes.data()), qint64(bytes.size())), qint64(bytes.size()));
    }
    std::string error;
    const auto source = FileSource::open(path.toStdString(), error);
    QVERIFY2(source, error.c_str());
    const LoadResult loaded = loadIndex(*source, uint64_t(QFileInfo(path).size()));
    QVERIFY(loaded.index);
    const LogIndex& ix = *loaded.index;
    QVERIFY(ix.scan.diagnostics.empty());
    QVERIFY(ix.scan.events > 0);
    const double perEvent = double(ix.memoryBytes()) / double(ix.scan.events);
    const QString figures = QStringLiteral(
                                "index of synthesize scheduler %1 MB: %2 bytes for %3 events = %4 bytes "
                                "per event; documented in docs/architecture.md: %5")
                                .arg(megabytes)
                                .arg(ix.memoryBytes())
                                .arg(ix.scan.events)
                                .arg(perEvent, 0, 'f', 3)
                                .arg(documented);
    qInfo("%s", qPrintable(figures));
    QVERIFY2(perEvent <= documented, qPrintable(figures));
}

QTEST_GUILESS_MAIN(TestSynthetic)
#include "tst_synthetic.moc"
