// `hecscope threads` and `hecscope spans`: the threads' CSV against the
// walk (threadwalk.h) over the whole log and over ranges, on truncated and
// corrupt logs; the spans' figures on a log of known durations, with other
// rules; usage and help.
#include "testsupport.h"
#include "threadtestsupport.h"
#include "threadwalk.h"

#include "core/format/decoder.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <map>

using namespace hecscope;
using namespace hecscope::test;

namespace {

QByteArray toBytes(const std::vector<uint8_t>& v)
{
    return QByteArray(reinterpret_cast<const char*>(v.data()), qsizetype(v.size()));
}

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

class TestThreadCli : public QObject {
    Q_OBJECT
private slots:
    void threadsCsvAgreesWithTheWalk();
    void threadsRange();
    void threadsOnTruncatedAndCorruptLogs();
    void spansCommand();
    void usageAndHelp();
};

// `threads --csv`: the documented header, one row per thread, every figure
// as the walk finds it.
void TestThreadCli::threadsCsvAgreesWithTheWalk()
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
void TestThreadCli::threadsRange()
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
void TestThreadCli::threadsOnTruncatedAndCorruptLogs()
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
void TestThreadCli::spansCommand()
{
    const KnownLog k = knownDurationsLog();
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = writeTemp(dir, QStringLiteral("spans.eventlog"), k.bytes);
    QVERIFY(!path.isEmpty());

    Run r = runHecscope({QStringLiteral("spans"), QStringLiteral("--csv"), path});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.startsWith("name,count,total_ns,self_ns,mean_ns,p50_ns,p95_ns,max_ns,never_stopped\n"));
    auto rows = parseCsv(r.out);
    QCOMPARE(rows.size(), size_t(7));
    // "tail" never stopped: out of the figures (it would top them with the
    // 1000 ns to the end of the log), counted apart.
    const std::vector<std::vector<std::string>> want{
        {"job", "20", "300", "300", "15", "10", "19", "110", "0"},
        {"parent", "2", "200", "100", "100", "100", "100", "100", "0"},
        {"child", "4", "100", "100", "25", "20", "30", "30", "0"},
        {"once", "1", "42", "42", "42", "42", "42", "42", "0"},
        {"mark", "1", "5", "5", "5", "5", "5", "5", "0"},
        {"tail", "0", "0", "0", "", "", "", "", "1"},
    };
    for (size_t i = 0; i < want.size(); ++i)
        QCOMPARE(rows[i + 1], want[i]);
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
    QVERIFY2(r.out.startsWith("28 spans of 6 names, and 1 never stopped (left out of the figures)\n"), r.out.constData());
    QVERIFY(r.out.contains("  +1 never stopped\n"));
}

void TestThreadCli::usageAndHelp()
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
                             "name,count,total_ns,self_ns,mean_ns,p50_ns,p95_ns,max_ns,", "never_stopped"})
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

QTEST_GUILESS_MAIN(TestThreadCli)
#include "tst_threadcli.moc"
