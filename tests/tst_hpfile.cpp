// GHC's textual heap profile (.hp): the committed file against a simple
// independent reading, marks, incomplete last samples cut in every place,
// malformed lines, labels with spaces, and recognition by loadIndex.
#include "testsupport.h"

#include "core/heap/heapbands.h"
#include "core/index/logindex.h"
#include "core/io/bytesource.h"
#include "core/load/hpfile.h"
#include "core/load/hpfilereader.h"
#include "core/load/loader.h"

#include <QTest>

#include <string>
#include <vector>

using namespace hecscope;
using namespace hecscope::test;

namespace {

std::unique_ptr<LogIndex> loadText(std::string_view text)
{
    MemorySource source(std::vector<uint8_t>(text.begin(), text.end()));
    return loadIndex(source, text.size()).index;
}

QString testdataLog(const char* name)
{
    return QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/") + QLatin1String(name);
}

const char kHpHeader[] =
    "JOB \"prog +RTS -hT\"\n"
    "DATE \"Mon Jan  1 00:00 2024\"\n"
    "SAMPLE_UNIT \"seconds\"\n"
    "VALUE_UNIT \"bytes\"\n";

// Two complete samples after the header.
const char kHpTwoSamples[] =
    "BEGIN_SAMPLE 0.000000\n"
    "END_SAMPLE 0.000000\n"
    "BEGIN_SAMPLE 1.250000\n"
    "ARR_WORDS\t4096\n"
    "THUNK\t72\n"
    "END_SAMPLE 1.250000\n";

} // namespace

class TestHpFile : public QObject {
    Q_OBJECT
private slots:
    void hpFileMatchesSimpleParse();
    void hpMarks();
    void hpIncompleteLastSample_data();
    void hpIncompleteLastSample();
    void hpMalformedLine_data();
    void hpMalformedLine();
    void hpLabelsWithSpaces();
    void hpRecognisedAndRoutedByLoadIndex();
    void hpSnapshotsWhileGrowing();
};

// GHC's .hp of the -hc run: header, census count, times and totals as a
// plain line reader sees them.
void TestHpFile::hpFileMatchesSimpleParse()
{
    const std::string text = readText(testdataLog("leak-prof-hc.hp"));
    QVERIFY(!text.empty());
    const RawHp want = parseHpSimply(text);
    QVERIFY(looksLikeHeapProfile({reinterpret_cast<const uint8_t*>(text.data()), text.size()}));
    const auto ix = parseHeapProfile(text);
    QVERIFY(ix->scan.diagnostics.empty());
    QVERIFY(ix->hpFile);
    QCOMPARE(ix->hpFile->job, want.header.at("JOB"));
    QCOMPARE(ix->hpFile->date, want.header.at("DATE"));
    QCOMPARE(ix->hpFile->sampleUnit, std::string("seconds"));
    QCOMPARE(ix->hpFile->valueUnit, std::string("bytes"));
    QVERIFY(ix->hpFile->job.starts_with("leak "));

    const HeapProfileData& hp = ix->heapProfile;
    QVERIFY(hp.present);
    QCOMPARE(hp.censuses.size(), want.endLines);
    QCOMPARE(want.times.size(), want.endLines);
    QVERIFY(std::find(want.times.begin(), want.times.end(), uint64_t(50'479'000)) != want.times.end());
    for (size_t i = 0; i < hp.censuses.size(); ++i) {
        QCOMPARE(hp.censuses[i].time, want.times[i]);
        QCOMPARE(hp.censuses[i].total, want.totals[i]);
    }
    QCOMPARE(ix->heapBands.times, want.times); // written in time order
    QCOMPARE(ix->heapBands.totals, want.totals);
    QCOMPARE(std::set<std::string>(hp.labels.begin(), hp.labels.end()), want.names);
}

// MARK lines become markers at their time in ns.
void TestHpFile::hpMarks()
{
    const std::string text = std::string(kHpHeader) + "MARK 0.5\n" + kHpTwoSamples + "MARK 1.000001\n"
        + "BEGIN_SAMPLE 2.0\nTHUNK\t8\nEND_SAMPLE 2.0\n";
    const auto ix = parseHeapProfile(text);
    QVERIFY(ix->scan.diagnostics.empty());
    QCOMPARE(ix->heapProfile.censuses.size(), size_t(3));
    QCOMPARE(ix->messages.size(), size_t(2));
    std::vector<uint64_t> times;
    for (const Message& m : ix->messages) {
        QCOMPARE(m.kind, Message::Marker);
        times.push_back(m.time);
    }
    QCOMPARE(times, (std::vector<uint64_t>{500'000'000, 1'000'001'000}));
    QCOMPARE(ix->lastTime, uint64_t(2'000'000'000));

    // GHC writes marks between samples; one inside a sample is a mark too,
    // not a band.
    const auto inside = parseHeapProfile(std::string(kHpHeader) + "BEGIN_SAMPLE 1\nX\t8\nMARK 1.5\nY\t4\nEND_SAMPLE 1\n");
    QVERIFY(inside->scan.diagnostics.empty());
    QCOMPARE(inside->messages.size(), size_t(1));
    QCOMPARE(inside->messages[0].time, uint64_t(1'500'000'000));
    QCOMPARE(inside->heapProfile.labels, (std::vector<std::string>{"X", "Y"}));
    QCOMPARE(inside->heapProfile.censuses[0].total, uint64_t(12));

    // A file cut inside a MARK line says so (not "a sample was dropped").
    const std::string cut = std::string(kHpHeader) + kHpTwoSamples + "MARK 2.";
    const auto cutIx = parseHeapProfile(cut);
    QCOMPARE(cutIx->scan.diagnostics.size(), size_t(1));
    QCOMPARE(cutIx->scan.diagnostics[0].offset, uint64_t(cut.size() - 7));
    QVERIFY2(cutIx->scan.diagnostics[0].message().find("ends inside a line") != std::string::npos,
             cutIx->scan.diagnostics[0].message().c_str());
    QCOMPARE(cutIx->heapProfile.censuses.size(), size_t(2));
}

// A file that ends inside a sample (the program was killed, or is still
// writing) keeps every complete sample and names where the cut one began.
void TestHpFile::hpIncompleteLastSample_data()
{
    QTest::addColumn<QString>("tail");
    QTest::newRow("no END_SAMPLE") << QStringLiteral("BEGIN_SAMPLE 2.5\nTHUNK\t64\nFUN\t32\n");
    QTest::newRow("cut in a sample line") << QStringLiteral("BEGIN_SAMPLE 2.5\nTHUNK\t64\nFUN\t3");
    QTest::newRow("cut before the bytes") << QStringLiteral("BEGIN_SAMPLE 2.5\nTHUNK\t64\nFU");
    QTest::newRow("cut in END_SAMPLE") << QStringLiteral("BEGIN_SAMPLE 2.5\nTHUNK\t64\nEND_SAM");
    QTest::newRow("only BEGIN_SAMPLE") << QStringLiteral("BEGIN_SAMPLE 2.5\n");
    QTest::newRow("cut in BEGIN_SAMPLE's time") << QStringLiteral("BEGIN_SAMPLE 2.");
    QTest::newRow("cut in BEGIN_SAMPLE") << QStringLiteral("BEGIN_SAM");
}

void TestHpFile::hpIncompleteLastSample()
{
    QFETCH(QString, tail);
    const std::string complete = std::string(kHpHeader) + kHpTwoSamples;
    const std::string text = complete + tail.toStdString();
    const auto ix = parseHeapProfile(text);
    QCOMPARE(ix->scan.diagnostics.size(), size_t(1));
    const Diagnostic& d = ix->scan.diagnostics[0];
    QCOMPARE(d.kind, DiagnosticKind::HpIncompleteSample);
    QCOMPARE(d.offset, uint64_t(complete.size())); // where the cut sample's BEGIN_SAMPLE is
    QVERIFY(ix->scan.truncated);
    QVERIFY(!ix->scan.hasError);
    const HeapProfileData& hp = ix->heapProfile;
    QCOMPARE(hp.censuses.size(), size_t(2));
    QCOMPARE(hp.censuses[1].time, uint64_t(1'250'000'000));
    QCOMPARE(hp.censuses[1].total, uint64_t(4096 + 72));
    QCOMPARE(hp.samples.size(), size_t(2));
    QCOMPARE(ix->heapBands.totals, (std::vector<uint64_t>{0, 4168}));

    // The same through the loader, as the viewer and the CLI read it.
    const auto loaded = loadText(text);
    QCOMPARE(loaded->heapProfile.censuses.size(), size_t(2));
    QVERIFY(loaded->scan.truncated);
}

// A line outside the format stops reading there: an error naming its byte
// offset, with every complete sample before it kept.
void TestHpFile::hpMalformedLine_data()
{
    QTest::addColumn<QString>("bad");
    QTest::addColumn<QString>("after");
    QTest::newRow("between samples") << QStringLiteral("this is not a heap profile\n")
                                     << QStringLiteral("BEGIN_SAMPLE 3\nX\t1\nEND_SAMPLE 3\n");
    QTest::newRow("inside a sample") << QStringLiteral("BEGIN_SAMPLE 3\nX\t1\nbytes missing here\n")
                                     << QStringLiteral("END_SAMPLE 3\n");
    QTest::newRow("fractional bytes") << QStringLiteral("BEGIN_SAMPLE 3\nX\t1.5\n") << QStringLiteral("END_SAMPLE 3\n");
    QTest::newRow("END_SAMPLE alone") << QStringLiteral("END_SAMPLE 3\n") << QString();
    QTest::newRow("bytes beyond 2^64") << QStringLiteral("BEGIN_SAMPLE 3\nX\t18446744073709551616\n") << QStringLiteral("END_SAMPLE 3\n");
    QTest::newRow("bytes in floating point") << QStringLiteral("BEGIN_SAMPLE 3\nX\t1e20\n") << QStringLiteral("END_SAMPLE 3\n");
    QTest::newRow("time beyond 2^63 ns") << QStringLiteral("BEGIN_SAMPLE 1e10\n") << QStringLiteral("X\t1\nEND_SAMPLE 1e10\n");
    QTest::newRow("MARK time beyond 2^63 ns") << QStringLiteral("MARK 9.3e9\n") << QString();
}

void TestHpFile::hpMalformedLine()
{
    QFETCH(QString, bad);
    QFETCH(QString, after);
    const std::string before = std::string(kHpHeader) + kHpTwoSamples;
    const std::string badText = bad.toStdString();
    const std::string text = before + badText + after.toStdString();
    // The offending line: the last line of `bad`.
    const size_t lastLine = badText.rfind('\n', badText.size() - 2);
    const uint64_t offset = before.size() + (lastLine == std::string::npos ? 0 : lastLine + 1);
    const auto ix = parseHeapProfile(text);
    QCOMPARE(ix->scan.diagnostics.size(), size_t(1));
    const Diagnostic& d = ix->scan.diagnostics[0];
    QCOMPARE(d.kind, DiagnosticKind::HpMalformed);
    QCOMPARE(d.offset, offset);
    QVERIFY(d.isError());
    QVERIFY(ix->scan.hasError);
    QCOMPARE(ix->heapProfile.censuses.size(), size_t(2));
    QCOMPARE(ix->heapProfile.censuses[1].total, uint64_t(4168));
    QCOMPARE(ix->heapBands.totals, (std::vector<uint64_t>{0, 4168}));
}

// Band names may hold spaces; the bytes are after the last blank.
void TestHpFile::hpLabelsWithSpaces()
{
    const std::string samples =
        "BEGIN_SAMPLE 0.1\n"
        "(12)Data.Map.Internal.insert go/main\t48\n"
        "a b  c\t100\n"
        "x\t7\n"
        "END_SAMPLE 0.1\n"
        "BEGIN_SAMPLE 0.2\n"
        "a b  c\t1\n"
        "a b  c\t2\n"
        "END_SAMPLE 0.2\n";
    const std::string text = kHpHeader + samples;
    const auto ix = parseHeapProfile(text);
    QVERIFY(ix->scan.diagnostics.empty());
    const HeapProfileData& hp = ix->heapProfile;
    QCOMPARE(hp.labels, (std::vector<std::string>{"(12)Data.Map.Internal.insert go/main", "a b  c", "x"}));
    QCOMPARE(bytesAtCensus(hp, ix->heapBands, 0), (std::vector<uint64_t>{48, 100, 7}));
    QCOMPARE(bytesAtCensus(hp, ix->heapBands, 1), (std::vector<uint64_t>{0, 3, 0}));
    QCOMPARE(hp.repeatedLabels, uint64_t(1));
    QCOMPARE(ix->heapBands.times, (std::vector<uint64_t>{100'000'000, 200'000'000}));
}

// A .hp file is recognised by its first line, and loadIndex reads it with
// the .hp parser whatever the source.
void TestHpFile::hpRecognisedAndRoutedByLoadIndex()
{
    auto looks = [](std::string_view s) {
        return looksLikeHeapProfile({reinterpret_cast<const uint8_t*>(s.data()), s.size()});
    };
    QVERIFY(looks(kHpHeader));
    QVERIFY(looks("JOB\t\"x\"\n"));
    QVERIFY(!looks(""));
    QVERIFY(!looks("JOBS 1\n"));
    QVERIFY(!looks("BEGIN_SAMPLE 0\n"));
    const auto eventlog = readFile(testdataLog("leak-hT.eventlog"));
    QVERIFY(!eventlog.empty());
    QVERIFY(!looksLikeHeapProfile({eventlog.data(), std::min<size_t>(eventlog.size(), 4096)}));

    const std::string text = std::string(kHpHeader) + kHpTwoSamples;
    const auto ix = loadText(text);
    QVERIFY(ix->hpFile);
    QCOMPARE(ix->hpFile->job, std::string("prog +RTS -hT"));
    QCOMPARE(ix->hpFile->date, std::string("Mon Jan  1 00:00 2024"));
    QVERIFY(ix->scan.diagnostics.empty());
    QCOMPARE(ix->heapProfile.censuses.size(), size_t(2));
    QCOMPARE(ix->heapBands.totals, (std::vector<uint64_t>{0, 4168}));
    QCOMPARE(ix->heapProfile.labels, (std::vector<std::string>{"ARR_WORDS", "THUNK"}));

    // The real .hp through the loader, in chunks larger than one read.
    const std::string real = readText(testdataLog("leak-prof-hc.hp"));
    const auto fromLoader = loadText(real);
    const auto direct = parseHeapProfile(real);
    QVERIFY(fromLoader->hpFile);
    QCOMPARE(fromLoader->heapBands.totals, direct->heapBands.totals);
    QCOMPARE(fromLoader->heapProfile.labels, direct->heapProfile.labels);
}

// A .hp still being written, fed a byte at a time (the real -hc profile,
// and one with a MARK and blank lines): after every byte the snapshot is a
// whole load of the text cut after the last line read outside a sample —
// the complete censuses only, never a diagnostic for what is still coming
// — and pendingBytes is the rest. The reader goes on to the same finish().
void TestHpFile::hpSnapshotsWhileGrowing()
{
    const std::string marked = std::string(kHpHeader) + "\nMARK 0.5\n" + kHpTwoSamples + "\nBEGIN_SAMPLE 2.0\nX\t1\n";
    for (const std::string& text : {readText(testdataLog("leak-prof-hc.hp")), marked}) {
        QVERIFY(!text.empty());
        HpFileReader reader;
        size_t settled = 0; // a plain line walk: the end of the last whole line outside a sample
        bool inSample = false;
        size_t lineStart = 0;
        size_t censuses = 0;
        for (size_t n = 1; n <= text.size(); ++n) {
            reader.feed(std::string_view(text).substr(n - 1, 1));
            if (text[n - 1] == '\n') {
                const std::string_view line = std::string_view(text).substr(lineStart, n - 1 - lineStart);
                if (line.starts_with("BEGIN_SAMPLE")) {
                    inSample = true;
                } else if (line.starts_with("END_SAMPLE")) {
                    inSample = false;
                    ++censuses;
                }
                if (!inSample)
                    settled = n;
                lineStart = n;
            }
            QCOMPARE(reader.pendingBytes(), uint64_t(n - settled));
            const auto snap = reader.snapshot();
            QVERIFY(snap && snap->hpFile);
            QVERIFY(snap->scan.diagnostics.empty());
            QCOMPARE(snap->heapProfile.censuses.size(), censuses);
            if (n % 97 && n != text.size() && text[n - 1] != '\n')
                continue; // the full comparison at every line end and now and then
            const auto whole = loadText(std::string_view(text).substr(0, settled));
            QCOMPARE(snap->scan.bytes, whole->scan.bytes);
            QCOMPARE(snap->heapProfile.labels, whole->heapProfile.labels);
            QCOMPARE(snap->heapBands.totals, whole->heapBands.totals);
            QCOMPARE(snap->heapBands.times, whole->heapBands.times);
            QCOMPARE(snap->heapProfile.samples.size(), whole->heapProfile.samples.size());
            QCOMPARE(snap->messages.size(), whole->messages.size());
            QCOMPARE(snap->firstTime, whole->firstTime);
            QCOMPARE(snap->lastTime, whole->lastTime);
        }
        const auto last = reader.finish();
        const auto whole = loadText(text);
        QCOMPARE(last->heapBands.totals, whole->heapBands.totals);
        QCOMPARE(last->scan.diagnostics.size(), whole->scan.diagnostics.size());
    }
}

// ---------------------------------------------------------------------------

QTEST_GUILESS_MAIN(TestHpFile)
#include "tst_hpfile.moc"
