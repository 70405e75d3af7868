// Loading as a whole: cancellation honoured in the finish stage (sealing,
// collections, drawing preparation) as well as between chunks, the .hp
// reader fed in chunks of any size agreeing with a whole-text read, and
// index serials.
#include "testsupport.h"

#include "core/index/logindex.h"
#include "core/io/bytesource.h"
#include "core/load/hpfile.h"
#include "core/load/hpfilereader.h"
#include "core/load/loader.h"

#include <QFileInfo>
#include <QTest>

using namespace hecscope;
using namespace hecscope::test;

namespace {

// Says "cancelled" from its `n`th question after the last progress report
// (1: the check right after it, in the read loop; later ones fall in the
// finish stage). Records whether it ever said so.
class LateCancel final : public LoadObserver {
public:
    LateCancel(uint64_t total, int n)
        : m_total(total)
        , m_n(n)
    {
    }
    void progress(uint64_t done, uint64_t) override { m_afterLast = done >= m_total; }
    bool cancelled() const override
    {
        if (!m_afterLast)
            return false;
        if (++m_asked >= m_n)
            said = true;
        return said;
    }
    mutable bool said = false;

private:
    uint64_t m_total;
    int m_n;
    bool m_afterLast = false;
    mutable int m_asked = 0;
};

QStringList logsToLoad()
{
    QStringList logs = testdataLogs();
    const QStringList conformance = conformanceLogs("ghc-events");
    for (qsizetype i = 0; i < conformance.size() && i < 8; ++i)
        logs << conformance[i];
    logs << QString(HECSCOPE_TESTDATA_DIR "/logs/leak-prof-hc.hp");
    return logs;
}

void compareDiagnostics(const LogIndex& a, const LogIndex& b)
{
    QCOMPARE(a.scan.diagnostics.size(), b.scan.diagnostics.size());
    for (size_t i = 0; i < a.scan.diagnostics.size(); ++i) {
        QCOMPARE(a.scan.diagnostics[i].offset, b.scan.diagnostics[i].offset);
        QCOMPARE(QString::fromStdString(a.scan.diagnostics[i].message()),
                 QString::fromStdString(b.scan.diagnostics[i].message()));
        QCOMPARE(a.scan.diagnostics[i].eventsBefore, b.scan.diagnostics[i].eventsBefore);
    }
}

} // namespace

class TestLoader : public QObject {
    Q_OBJECT
private slots:
    void cancelInFinishStage_data();
    void cancelInFinishStage();
    void hpReaderInChunks_data();
    void hpReaderInChunks();
    void serialsAreUnique();
};

void TestLoader::cancelInFinishStage_data()
{
    QTest::addColumn<QString>("path");
    for (const QString& path : logsToLoad())
        QTest::newRow(qPrintable(QFileInfo(path).fileName())) << path;
}

// Whichever check says cancelled, the load says so and returns without
// crashing; a load never told to cancel completes as before.
void TestLoader::cancelInFinishStage()
{
    QFETCH(QString, path);
    const std::vector<uint8_t> bytes = readFile(path);
    QVERIFY(!bytes.empty());
    bool sawFinishCancel = false;
    for (int n = 1; n <= 40; ++n) {
        MemorySource source(bytes);
        LateCancel observer(bytes.size(), n);
        const LoadResult result = loadIndex(source, bytes.size(), &observer);
        QCOMPARE(result.cancelled, observer.said);
        if (!observer.said) {
            QVERIFY(result.index);
            QVERIFY(result.index->defaultBands);
            break;
        }
        sawFinishCancel = sawFinishCancel || n > 1;
    }
    QVERIFY(sawFinishCancel);
}

void TestLoader::hpReaderInChunks_data()
{
    QTest::addColumn<QString>("text");
    const std::string real = readText(HECSCOPE_TESTDATA_DIR "/logs/leak-prof-hc.hp");
    const std::string header = "JOB \"x\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n";
    QTest::newRow("real") << QString::fromStdString(real);
    QTest::newRow("cut in a sample") << QString::fromStdString(real.substr(0, real.size() * 2 / 3));
    QTest::newRow("cut in a line") << QString::fromStdString(header + "BEGIN_SAMPLE 1\nA\t8\nEND_SAMPLE 1\nBEGIN_SAM");
    QTest::newRow("end without newline")
        << QString::fromStdString(header + "BEGIN_SAMPLE 1\nA b\t8\r\nEND_SAMPLE 1");
    QTest::newRow("malformed") << QString::fromStdString(header + "BEGIN_SAMPLE 1\nA\t8\nEND_SAMPLE 1\nnonsense\n");
    QTest::newRow("no byte count") << QString::fromStdString(header + "BEGIN_SAMPLE 1\nA\tx\nEND_SAMPLE 1\n");
}

// Fed in chunks of any size, the reader gives what one whole-text read
// gives: the same censuses, bands and diagnostics (offsets included).
void TestLoader::hpReaderInChunks()
{
    QFETCH(QString, text);
    const std::string whole = text.toStdString();
    const auto want = parseHeapProfile(whole);
    for (size_t chunk : {size_t(1), size_t(2), size_t(7), size_t(64), size_t(4096)}) {
        HpFileReader reader;
        for (size_t at = 0; at < whole.size(); at += chunk)
            reader.feed(std::string_view(whole).substr(at, chunk));
        const auto got = reader.finish();
        QVERIFY(got);
        QCOMPARE(got->heapProfile.censuses.size(), want->heapProfile.censuses.size());
        QCOMPARE(got->heapProfile.samples.size(), want->heapProfile.samples.size());
        QVERIFY(got->heapProfile.labels == want->heapProfile.labels);
        QCOMPARE(got->messages.size(), want->messages.size());
        QCOMPARE(got->scan.bytes, want->scan.bytes);
        QCOMPARE(got->scan.events, want->scan.events);
        QCOMPARE(got->scan.truncated, want->scan.truncated);
        QCOMPARE(got->scan.hasError, want->scan.hasError);
        compareDiagnostics(*got, *want);
    }
}

void TestLoader::serialsAreUnique()
{
    const LogIndex a, b;
    QVERIFY(a.serial != 0);
    QVERIFY(a.serial != b.serial);
    const auto c = std::make_unique<LogIndex>();
    QVERIFY(c->serial != a.serial && c->serial != b.serial);
}

QTEST_GUILESS_MAIN(TestLoader)
#include "tst_loader.moc"
