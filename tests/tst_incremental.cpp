// The decoder takes bytes in chunks of any size: 1-byte and random-size feeds
// must give exactly what one whole-buffer feed gives.
#include "testsupport.h"

#include "core/format/encoder.h"
#include "core/format/eventtags.h"

#include <QFileInfo>
#include <QRandomGenerator>
#include <QTest>

using namespace hecscope;
using namespace hecscope::test;

class TestIncremental : public QObject {
    Q_OBJECT
private slots:
    void chunkedFeeds_data();
    void chunkedFeeds();
    void longHeaderInSmallFeeds();
};

void TestIncremental::chunkedFeeds_data()
{
    QTest::addColumn<QString>("log");
    QStringList logs = conformanceLogs(QStringLiteral("ghc-events"))
        + conformanceLogs(QStringLiteral("legacy")) + testdataLogs();
    if (logs.isEmpty())
        QSKIP("no eventlogs found");
    for (const QString& log : logs)
        QTest::newRow(qPrintable(QFileInfo(log).fileName())) << log;
}

void TestIncremental::chunkedFeeds()
{
    QFETCH(QString, log);
    const std::vector<uint8_t> bytes = readFile(log);
    QVERIFY(!bytes.empty());
    const Decoded whole = decodeInChunks(bytes);
    QVERIFY(!whole.events.empty());

    // 1-byte chunks exercise every split point; skip it for the largest logs
    // only to keep the suite quick (random chunks still cover them).
    if (bytes.size() <= 4 * 1024 * 1024) {
        const Decoded single = decodeInChunks(bytes, {1});
        QCOMPARE(single.events.size(), whole.events.size());
        QVERIFY(single.events == whole.events);
        QVERIFY(single.diagnostics == whole.diagnostics);
    }

    QRandomGenerator rng(seedOf(log));
    for (int round = 0; round < 3; ++round) {
        std::vector<size_t> sizes(257);
        for (size_t& s : sizes)
            s = 1 + rng.bounded(round == 0 ? 16u : round == 1 ? 4096u : 300000u);
        const Decoded chunked = decodeInChunks(bytes, sizes);
        QCOMPARE(chunked.events.size(), whole.events.size());
        QVERIFY(chunked.events == whole.events);
        QVERIFY(chunked.diagnostics == whole.diagnostics);
        QCOMPARE(chunked.sawDataEnd, whole.sawDataEnd);
    }
}

// A header far longer than any real one (thousands of declarations with long
// descriptions) taken in small pieces: each attempt resumes at the first
// incomplete declaration, and the result equals one whole feed.
void TestIncremental::longHeaderInSmallFeeds()
{
    std::vector<EventTypeDecl> declarations = EventlogWriter::allDeclarations();
    for (uint16_t tag = 1000; tag < 5000; ++tag)
        declarations.push_back(
            EventTypeDecl{tag, 8, "unknown " + std::string(tag % 700, 'x'), std::string(tag % 3, 'y')});
    EventlogWriter w(declarations);
    w.write(OwnedEvent(tag::CreateThread, 10, {7}).event);
    w.writeDataEnd();
    const std::vector<uint8_t>& bytes = w.bytes();
    QVERIFY(bytes.size() > 1'000'000);

    const Decoded whole = decodeInChunks(bytes);
    QCOMPARE(whole.events.size(), size_t(1));
    QVERIFY(whole.diagnostics.empty());
    for (size_t chunk : {size_t(1), size_t(3), size_t(5000), size_t(70000)}) {
        const Decoded chunked = decodeInChunks(bytes, {chunk});
        QVERIFY(chunked.events == whole.events);
        QVERIFY(chunked.diagnostics == whole.diagnostics);
    }
    // Cut inside a long declaration: still a truncated header, at the end.
    const std::vector<uint8_t> cut(bytes.begin(), bytes.begin() + ptrdiff_t(bytes.size() / 2));
    const Decoded truncated = decodeInChunks(cut, {977});
    QCOMPARE(truncated.diagnostics.size(), size_t(1));
    QCOMPARE(truncated.diagnostics[0].kind, DiagnosticKind::TruncatedHeader);
    QCOMPARE(truncated.diagnostics[0].offset, uint64_t(cut.size()));
}

QTEST_GUILESS_MAIN(TestIncremental)
#include "tst_incremental.moc"
