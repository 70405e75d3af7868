// Golden tests: `hecscope dump` against the byte-exact `ghc-events show`
// output of real eventlogs from many GHC versions (../shared/conformance).
#include "testsupport.h"

#include "core/synth/synthetic.h"

#include <QFileInfo>
#include <QTest>

#include <algorithm>
#include <sstream>

using namespace hecscope;
using namespace hecscope::test;

namespace {

std::vector<std::string> splitLines(const std::string& text)
{
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    return lines;
}

// Old ghc-events (before 0.7) padded header tags to 4 and times to 9
// columns; some versions also ended with an extra blank line
// (eventlog-format.md 3.0 and 3.1). Undo exactly that.
std::string normaliseLegacyReference(const std::string& text)
{
    std::vector<std::string> lines = splitLines(text);
    for (std::string& line : lines) {
        size_t i = 0;
        while (i < line.size() && line[i] == ' ')
            ++i;
        size_t j = i;
        while (j < line.size() && std::isdigit(static_cast<unsigned char>(line[j])))
            ++j;
        if (i > 0 && j > i && j < line.size() && line[j] == ':')
            line.erase(0, i);
    }
    while (!lines.empty() && lines.back().empty())
        lines.pop_back();
    std::string out;
    for (const auto& l : lines)
        out += l + "\n";
    return out;
}

std::string withoutTrailingBlankLines(const std::string& text)
{
    std::string out = text;
    while (out.size() >= 2 && out[out.size() - 1] == '\n' && out[out.size() - 2] == '\n')
        out.pop_back();
    return out;
}

} // namespace

class TestConformance : public QObject {
    Q_OBJECT
private slots:
    void headDump_data();
    void headDump();
    void legacyDump_data();
    void legacyDump();
    void truncatedLegacyLogIsAPrefix();
    void parallelDumpEqualsSequential_data();
    void parallelDumpEqualsSequential();
};

void TestConformance::headDump_data()
{
    QTest::addColumn<QString>("log");
    const QStringList logs = conformanceLogs(QStringLiteral("ghc-events"));
    if (logs.isEmpty())
        QSKIP("../shared/conformance is not present on this machine");
    QCOMPARE(logs.size(), 23);
    for (const QString& log : logs)
        QTest::newRow(qPrintable(QFileInfo(log).fileName())) << log;
}

void TestConformance::headDump()
{
    QFETCH(QString, log);
    const std::string expected = readText(log + QStringLiteral(".reference"));
    QVERIFY(!expected.empty());
    const std::string actual = dumpBytes(readFile(log));
    if (actual != expected) {
        const auto a = splitLines(actual);
        const auto e = splitLines(expected);
        size_t i = 0;
        while (i < a.size() && i < e.size() && a[i] == e[i])
            ++i;
        QFAIL(qPrintable(QStringLiteral("first difference at line %1:\n  got:      %2\n  expected: %3")
                             .arg(i + 1)
                             .arg(QString::fromStdString(i < a.size() ? a[i] : "<end>"))
                             .arg(QString::fromStdString(i < e.size() ? e[i] : "<end>"))));
    }
}

void TestConformance::legacyDump_data()
{
    QTest::addColumn<QString>("log");
    QTest::addColumn<bool>("sameOrder");
    const QStringList logs = conformanceLogs(QStringLiteral("legacy"));
    if (logs.isEmpty())
        QSKIP("../shared/conformance is not present on this machine");
    int withReference = 0;
    for (const QString& log : logs) {
        if (!QFileInfo::exists(log + QStringLiteral(".reference")))
            continue;
        ++withReference;
        // The 7.8.2 Eden reference was printed by a ghc-events that did not
        // sort stably: same lines, different order (eventlog-format.md 6).
        const bool sameOrder = !log.contains(QStringLiteral("warshall0"));
        QTest::newRow(qPrintable(QFileInfo(log).fileName())) << log << sameOrder;
    }
    QCOMPARE(withReference, 8);
}

void TestConformance::legacyDump()
{
    QFETCH(QString, log);
    QFETCH(bool, sameOrder);
    const std::string expected = normaliseLegacyReference(readText(log + QStringLiteral(".reference")));
    const std::string actual = withoutTrailingBlankLines(dumpBytes(readFile(log), true));
    if (sameOrder) {
        QCOMPARE(actual, expected);
    } else {
        auto a = splitLines(actual);
        auto e = splitLines(expected);
        QCOMPARE(a.size(), e.size());
        std::sort(a.begin(), a.end());
        std::sort(e.begin(), e.end());
        QVERIFY(a == e);
    }
    // The default (head) printer decodes these old logs too, with no error.
    const Decoded decoded = decodeInChunks(readFile(log));
    for (const Diagnostic& d : decoded.diagnostics)
        QVERIFY2(!d.isError(), d.message().c_str());
}

void TestConformance::truncatedLegacyLogIsAPrefix()
{
    const QString dir = conformanceDir();
    if (dir.isEmpty())
        QSKIP("../shared/conformance is not present on this machine");
    const Decoded whole = decodeInChunks(readFile(dir + QStringLiteral("/legacy/testlog.eventlog")));
    const Decoded part = decodeInChunks(readFile(dir + QStringLiteral("/legacy/testlog-part.eventlog")));
    for (const Diagnostic& d : whole.diagnostics)
        QVERIFY2(!d.isError(), d.message().c_str());
    // eventlog-format.md 5 #9: 718 complete events, identical to the start of the full log.
    QCOMPARE(part.events.size(), size_t(718));
    QVERIFY(std::equal(part.events.begin(), part.events.end(), whole.events.begin()));
    QCOMPARE(part.diagnostics.size(), size_t(1));
    QCOMPARE(part.diagnostics[0].kind, DiagnosticKind::TruncatedEvent);
    QCOMPARE(part.diagnostics[0].offset, uint64_t(10237));
    QVERIFY(!part.diagnostics[0].isError());
}

void TestConformance::parallelDumpEqualsSequential_data()
{
    QTest::addColumn<QString>("log");
    QTest::addColumn<int>("cutAt"); // 0: whole file; else keep this many bytes
    QTest::newRow("synthetic 24 MB") << QString() << 0;
    QTest::newRow("synthetic 24 MB, truncated") << QString() << 17000003;
    const QString dir = conformanceDir();
    if (!dir.isEmpty())
        QTest::newRow("stop.hT") << dir + QStringLiteral("/ghc-events/stop.hT.eventlog") << 0;
    for (const QString& log : testdataLogs())
        QTest::newRow(qPrintable(QFileInfo(log).fileName())) << log << 0;
}

// The dump prints time slices on several threads; the text must be exactly
// that of one thread merging everything, and (for the real log) the reference.
void TestConformance::parallelDumpEqualsSequential()
{
    QFETCH(QString, log);
    QFETCH(int, cutAt);
    std::vector<uint8_t> bytes = log.isEmpty() ? synthesizeSchedulerLog(24u << 20, 3, 11) : readFile(log);
    if (cutAt > 0)
        bytes.resize(size_t(cutAt));
    // No fault in these logs (a time outside its block's span would end
    // every dump early, alike).
    struct Ignore final : EventSink {
        void onEvent(const Event&) override {}
    } ignore;
    StreamDecoder decoder(ignore);
    decoder.feed(bytes);
    decoder.finish();
    for (const Diagnostic& d : decoder.diagnostics())
        QVERIFY2(!d.isError(), d.message().c_str());
    const std::string sequential = dumpBytes(bytes, false, 1);
    QVERIFY(sequential.size() > 1000);
    QVERIFY(dumpBytes(bytes, false, 2) == sequential);
    QVERIFY(dumpBytes(bytes, false, 3) == sequential);
    if (log.endsWith(QStringLiteral("stop.hT.eventlog")))
        QVERIFY(sequential == readText(log + QStringLiteral(".reference")));
}

QTEST_GUILESS_MAIN(TestConformance)
#include "tst_conformance.moc"
