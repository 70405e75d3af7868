// The `hecscope` command line as users and scripts see it: help texts, exit
// codes (0 success, also for a truncated log; 1 unreadable, not an eventlog
// or corrupt; 2 usage), diagnostics with byte offsets on stderr, and stdout
// that is `ghc-events show` text, also when reading standard input.
#include "testsupport.h"

#include "core/text/printer.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTemporaryFile>
#include <QTest>

#include <algorithm>
#include <cstring>
#include <memory>

using namespace hecscope;
using namespace hecscope::test;

namespace {


QByteArray toBytes(const std::string& s)
{
    return QByteArray(s.data(), qsizetype(s.size()));
}

// A file with these bytes that lives as long as the returned object.
std::unique_ptr<QTemporaryFile> tempFile(const std::vector<uint8_t>& bytes)
{
    auto f = std::make_unique<QTemporaryFile>();
    if (!f->open())
        return nullptr;
    f->write(reinterpret_cast<const char*>(bytes.data()), qint64(bytes.size()));
    f->close();
    return f;
}

// Each decoded event's position, time and `show` line, in file order.
struct Record {
    uint64_t offset;
    uint32_t size;
    uint64_t time;
    std::string line;
};

struct RecordingSink final : EventSink {
    void onHeader(const std::shared_ptr<const LogFormat>& f) override
    {
        format = f;
        printer = std::make_unique<EventPrinter>(*f);
    }
    void onEvent(const Event& e) override
    {
        TextBuffer text;
        printer->printEvent(e, text);
        records.push_back({e.offset, e.recordSize, e.time, std::string(text.text())});
    }
    std::shared_ptr<const LogFormat> format;
    std::unique_ptr<EventPrinter> printer;
    std::vector<Record> records;
};

// Decodes a whole log; `format` is null if the header failed.
RecordingSink decodeLog(const std::vector<uint8_t>& bytes)
{
    RecordingSink sink;
    StreamDecoder decoder(sink);
    decoder.feed(bytes);
    decoder.finish();
    return sink;
}

// `show` text of the header and of the first `count` events, stably sorted
// by time.
std::string showPrefix(const RecordingSink& log, size_t count)
{
    TextBuffer header;
    EventPrinter(*log.format).printHeader(header);
    std::vector<Record> events(log.records.begin(), log.records.begin() + ptrdiff_t(count));
    std::stable_sort(events.begin(), events.end(),
                     [](const Record& a, const Record& b) { return a.time < b.time; });
    std::string out(header.text());
    for (const Record& r : events)
        out += r.line;
    return out + "\n";
}

// A mid-sized real log whose records are decoded for picking cut points.
QString sampleLog()
{
    for (const QString& log : conformanceLogs(QStringLiteral("ghc-events")))
        if (QFileInfo(log).fileName() == QLatin1String("parallelTest.eventlog"))
            return log;
    return {};
}

} // namespace

class TestCli : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void help();
    void dumpHelp();
    void usageErrors_data();
    void usageErrors();
    void everyCommand_data();
    void everyCommand();
    void missingFile_data();
    void missingFile();
    void realLogs_data();
    void realLogs();
    void truncatedLog();
    void corruptLog();
    void notAnEventlog();
    void standardInput();
    void infoExitCodes();
    void infoStartedAgainWithHugePages();
    void benchKeys();
    void benchReportKeys();
};

void TestCli::initTestCase()
{
    QVERIFY2(QFileInfo(QStringLiteral(HECSCOPE_BINARY)).isExecutable(), HECSCOPE_BINARY);
}

void TestCli::help()
{
    const Run r = runHecscope({QStringLiteral("--help")});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.contains("dump"));
    QVERIFY(r.err.isEmpty());
}

void TestCli::dumpHelp()
{
    for (const char* flag : {"--help", "-h"}) {
        const Run r = runHecscope({QStringLiteral("dump"), QLatin1String(flag)});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("Usage: hecscope dump"));
        QVERIFY(r.err.isEmpty());
    }
}

void TestCli::usageErrors_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::newRow("no file") << QStringList{QStringLiteral("dump")};
    QTest::newRow("unknown option") << QStringList{QStringLiteral("dump"), QStringLiteral("--bogus"),
                                                   QStringLiteral("x")};
    QTest::newRow("two files") << QStringList{QStringLiteral("dump"), QStringLiteral("a"), QStringLiteral("b")};
}

// Usage errors: exit 2, what is wrong and where the usage is on stderr,
// nothing on stdout.
void TestCli::usageErrors()
{
    QFETCH(QStringList, args);
    const Run r = runHecscope(args);
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.out.isEmpty());
    QVERIFY2(r.err.startsWith("hecscope dump: ") && r.err.contains("`hecscope dump --help`"), r.err.constData());
}

void TestCli::everyCommand_data()
{
    QTest::addColumn<QString>("command"); // empty: the window (hecscope itself)
    QTest::addColumn<QStringList>("valid");   // arguments that are fine but for the option added
    QTest::addColumn<QStringList>("missing"); // arguments that lack the file (the window: a value)
    const QString out = QDir::temp().filePath(QStringLiteral("hecscope-tst-cli-never-written.png"));
    const auto row = [](const char* command, const QStringList& valid, const QStringList& missing) {
        QTest::newRow(*command ? command : "(window)") << QString::fromLatin1(command) << valid << missing;
    };
    for (const char* command : {"dump", "info", "bench", "heap", "threads", "spans", "profile", "sparks", "watch"})
        row(command, {QStringLiteral("x")}, {});
    row("export", {QStringLiteral("x"), QStringLiteral("-o"), out}, {QStringLiteral("-o"), out});
    row("diff", {QStringLiteral("a"), QStringLiteral("b")}, {QStringLiteral("a")});
    row("synthesize", {QStringLiteral("heap"), out}, {QStringLiteral("heap")});
    row("", {}, {QStringLiteral("--compare")});
}

// Every command parses the same way: --help and -h print its usage on
// stdout (exit 0); an unknown option and a missing argument are one line
// naming the command and a pointer to its --help on stderr (exit 2).
void TestCli::everyCommand()
{
    QFETCH(QString, command);
    QFETCH(QStringList, valid);
    QFETCH(QStringList, missing);
    const QStringList head = command.isEmpty() ? QStringList() : QStringList{command};
    const QByteArray name = command.isEmpty() ? QByteArray("hecscope") : "hecscope " + command.toLatin1();
    for (const char* flag : {"--help", "-h"}) {
        const Run r = runHecscope(head + QStringList{QLatin1String(flag)});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.startsWith("Usage: " + name + (command.isEmpty() ? " [" : " ")), r.out.left(80).constData());
        QVERIFY2(r.err.isEmpty(), r.err.constData());
    }
    const QByteArray pointer = "Run `" + name + " --help` for the usage.\n";
    Run r = runHecscope(head + valid + QStringList{QStringLiteral("--bogus")});
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.out.isEmpty());
    QCOMPARE(r.err, name + ": unknown option --bogus\n" + pointer);

    r = runHecscope(head + missing);
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.out.isEmpty());
    const QList<QByteArray> lines = r.err.split('\n');
    QCOMPARE(lines.size(), 3); // the message, the pointer, and after its newline nothing
    QVERIFY2(lines[0].startsWith(name + ": ") && lines[0].size() > name.size() + 2, lines[0].constData());
    QCOMPARE(lines[1] + '\n', pointer);
    QVERIFY(lines[2].isEmpty());
}

void TestCli::missingFile_data()
{
    QTest::addColumn<QString>("path");
    QTest::newRow("nonexistent") << QStringLiteral("/nonexistent/hecscope-test.eventlog");
    QTest::newRow("directory") << QDir::tempPath();
}

// Unreadable input: exit 1, the path on stderr, nothing on stdout.
void TestCli::missingFile()
{
    QFETCH(QString, path);
    const Run r = runHecscope({QStringLiteral("dump"), path});
    QCOMPARE(r.exitCode, 1);
    QVERIFY(r.out.isEmpty());
    QVERIFY2(r.err.contains(path.toUtf8()), r.err.constData());
}

void TestCli::realLogs_data()
{
    QTest::addColumn<QString>("log");
    const QStringList logs = conformanceLogs(QStringLiteral("ghc-events"));
    if (logs.isEmpty())
        QSKIP("../shared/conformance is not present on this machine");
    for (const QString& log : logs)
        QTest::newRow(qPrintable(QFileInfo(log).fileName())) << log;
}

void TestCli::realLogs()
{
    QFETCH(QString, log);
    const Run r = runHecscope({QStringLiteral("dump"), log});
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.err.isEmpty(), r.err.constData());
    QVERIFY(r.out == toBytes(readText(log + QStringLiteral(".reference"))));
}

// A copy cut in the middle of a record: success, a warning naming the
// offset of the incomplete record, and every complete event printed.
void TestCli::truncatedLog()
{
    const QString log = sampleLog();
    if (log.isEmpty())
        QSKIP("../shared/conformance is not present on this machine");
    const std::vector<uint8_t> bytes = readFile(log);
    const RecordingSink full = decodeLog(bytes);
    QVERIFY(full.records.size() > 10);
    const Record& cutRecord = full.records[full.records.size() / 2];
    QVERIFY(cutRecord.size >= 2);
    const std::vector<uint8_t> prefix(bytes.begin(), bytes.begin() + ptrdiff_t(cutRecord.offset + cutRecord.size / 2));
    const auto file = tempFile(prefix);
    QVERIFY(file);

    const Run r = runHecscope({QStringLiteral("dump"), file->fileName()});
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.err.contains("warning") && r.err.contains("truncated"), r.err.constData());
    QVERIFY2(r.err.contains("offset " + QByteArray::number(qulonglong(cutRecord.offset))), r.err.constData());
    QVERIFY(r.out == toBytes(dumpBytes(prefix)));
    QVERIFY(r.out == toBytes(showPrefix(full, full.records.size() / 2)));
}

// A copy whose record tag at a boundary is overwritten with the undeclared
// 0x0FFF: failure naming the offset, and the events before it printed.
void TestCli::corruptLog()
{
    const QString log = sampleLog();
    if (log.isEmpty())
        QSKIP("../shared/conformance is not present on this machine");
    std::vector<uint8_t> bytes = readFile(log);
    const RecordingSink full = decodeLog(bytes);
    QVERIFY(full.records.size() > 10);
    const size_t index = full.records.size() / 3;
    const uint64_t at = full.records[index].offset;
    bytes[size_t(at)] = 0x0F;
    bytes[size_t(at) + 1] = 0xFF;
    const auto file = tempFile(bytes);
    QVERIFY(file);

    const Run r = runHecscope({QStringLiteral("dump"), file->fileName()});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("error") && r.err.contains("4095"), r.err.constData());
    QVERIFY2(r.err.contains("offset " + QByteArray::number(qulonglong(at))), r.err.constData());
    QVERIFY(r.out == toBytes(showPrefix(full, index)));
}

void TestCli::notAnEventlog()
{
    const auto file = tempFile({'h', 'e', 'l', 'l', 'o', ' ', 'w', 'o', 'r', 'l', 'd', '\n'});
    QVERIFY(file);
    const Run r = runHecscope({QStringLiteral("dump"), file->fileName()});
    QCOMPARE(r.exitCode, 1);
    QVERIFY(r.out.isEmpty());
    QVERIFY2(r.err.contains("not a GHC eventlog"), r.err.constData());
}

// "-" reads the log from standard input, with the same result.
void TestCli::standardInput()
{
    const QString log = sampleLog();
    if (log.isEmpty())
        QSKIP("../shared/conformance is not present on this machine");
    const std::vector<uint8_t> bytes = readFile(log);
    const Run r = runHecscope({QStringLiteral("dump"), QStringLiteral("-")},
                              QByteArray(reinterpret_cast<const char*>(bytes.data()), qsizetype(bytes.size())));
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.err.isEmpty(), r.err.constData());
    QVERIFY(r.out == toBytes(readText(log + QStringLiteral(".reference"))));
    const Run fromFile = runHecscope({QStringLiteral("dump"), log});
    QVERIFY(r.out == fromFile.out);
}

// `info`: a whole log exits 0; a truncated one exits 0 with truncated true
// and every event before the cut counted; a corrupt one exits 1 with what
// was decoded; usage errors exit 2; --json parses.
void TestCli::infoExitCodes()
{
    const QString log = QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/sparks-N2.eventlog");
    const std::vector<uint8_t> bytes = readFile(log);
    const RecordingSink full = decodeLog(bytes);
    QVERIFY(full.records.size() > 100);

    Run r = runHecscope({QStringLiteral("info"), QStringLiteral("--json"), log});
    QCOMPARE(r.exitCode, 0);
    QJsonObject o = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(o.value(QStringLiteral("events")).toDouble(), double(full.records.size()));
    QCOMPARE(o.value(QStringLiteral("truncated")).toBool(), false);

    const size_t cut = full.records.size() / 2;
    const Record& at = full.records[cut];
    const std::vector<uint8_t> prefix(bytes.begin(), bytes.begin() + ptrdiff_t(at.offset + at.size / 2));
    const auto truncated = tempFile(prefix);
    r = runHecscope({QStringLiteral("info"), QStringLiteral("--json"), truncated->fileName()});
    QCOMPARE(r.exitCode, 0);
    o = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(o.value(QStringLiteral("truncated")).toBool(), true);
    QCOMPARE(o.value(QStringLiteral("events")).toDouble(), double(cut));
    QCOMPARE(o.value(QStringLiteral("diagnostics")).toArray().size(), 1);
    QVERIFY(r.err.contains("offset " + QByteArray::number(qulonglong(at.offset))));

    std::vector<uint8_t> corrupt = bytes;
    corrupt[size_t(at.offset)] = 0x0F;
    corrupt[size_t(at.offset) + 1] = 0xFF;
    const auto bad = tempFile(corrupt);
    r = runHecscope({QStringLiteral("info"), bad->fileName()});
    QCOMPARE(r.exitCode, 1);
    QVERIFY(r.out.contains("Diagnostics"));
    QVERIFY2(r.err.contains("error") && r.err.contains("4095"), r.err.constData());

    r = runHecscope({QStringLiteral("info")});
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.err.startsWith("hecscope info: no FILE given\n"));
    r = runHecscope({QStringLiteral("info"), QStringLiteral("--bogus"), log});
    QCOMPARE(r.exitCode, 2);
    r = runHecscope({QStringLiteral("info"), QStringLiteral("--help")});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.contains("--json"));
}

// `bench` prints the keys its documentation promises, each with a number.
// A log from 32 MiB to 2 GiB: `info` starts itself again with glibc's
// huge pages (hugePagesPayOff in app/main.cpp). What it prints is what it
// prints started once, as it is when the user's own GLIBC_TUNABLES holds.
void TestCli::infoStartedAgainWithHugePages()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString log = dir.filePath(QStringLiteral("scheduler.eventlog"));
    const Run made = runHecscope({QStringLiteral("synthesize"), QStringLiteral("scheduler"), log, QStringLiteral("40")});
    QVERIFY2(made.exitCode == 0, made.err.constData());
    QVERIFY(QFileInfo(log).size() >= qint64(32) << 20);
    const Run again = runHecscope({QStringLiteral("info"), QStringLiteral("--json"), log});
    const bool had = qEnvironmentVariableIsSet("GLIBC_TUNABLES");
    const QByteArray was = qgetenv("GLIBC_TUNABLES");
    qputenv("GLIBC_TUNABLES", "glibc.malloc.hugetlb=0");
    const Run once = runHecscope({QStringLiteral("info"), QStringLiteral("--json"), log});
    if (had)
        qputenv("GLIBC_TUNABLES", was);
    else
        qunsetenv("GLIBC_TUNABLES");
    QCOMPARE(again.exitCode, 0);
    QCOMPARE(once.exitCode, 0);
    QVERIFY2(again.err.isEmpty(), again.err.constData());
    QVERIFY(once.out.contains("\"events\""));
    QCOMPARE(again.out, once.out);
}

void TestCli::benchKeys()
{
    const Run r = runHecscope({QStringLiteral("bench"), QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/threads-N2.eventlog")});
    QCOMPARE(r.exitCode, 0);
    for (const char* key : {"decode_s", "index_s", "load_s", "peak_rss_mb", "thread_events_waiting_max",
                            "thread_events_packed_max", "thread_events_to_runs", "lod_2000px_max_ms",
                            "stats_range_max_ms", "cancel_latency_ms", "nth_events_ms", "find_first_marker_ms",
                            "thread_detail_ms_1e-3", "thread_detail_ms_1e-2", "thread_detail_ms_half"}) {
        const QByteArray prefix = QByteArray(key) + ": ";
        const qsizetype i = r.out.indexOf("\n" + prefix);
        QVERIFY2(i >= 0, key);
        bool ok = false;
        const qsizetype from = i + 1 + prefix.size();
        r.out.mid(from, r.out.indexOf('\n', from) - from).toDouble(&ok);
        QVERIFY2(ok, key);
    }
}

// `bench` of a .prof report (found by its content) prints the report's keys.
void TestCli::benchReportKeys()
{
    const Run r = runHecscope({QStringLiteral("bench"), QStringLiteral(HECSCOPE_TESTDATA_DIR "/profiles/profile-P.prof")});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(!r.out.contains("decode_s"));
    for (const char* key : {"report_bytes", "report_open_ms", "report_open_max_ms", "report_nodes", "report_bottom_up_ms",
                            "report_flame_layout_ms", "flame_repaint_p95_ms"}) {
        const QByteArray prefix = QByteArray(key) + ": ";
        const qsizetype i = r.out.startsWith(prefix) ? -1 : r.out.indexOf("\n" + prefix);
        QVERIFY2(i >= 0 || r.out.startsWith(prefix), key);
        bool ok = false;
        const qsizetype from = i + 1 + prefix.size();
        const double value = r.out.mid(from, r.out.indexOf('\n', from) - from).toDouble(&ok);
        QVERIFY2(ok, key);
        if (std::strcmp(key, "report_nodes") == 0)
            QCOMPARE(value, 46.0); // the root and the tree's 45 lines
    }
}

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
