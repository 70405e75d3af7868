// The project's own real eventlogs (testdata/logs, produced by
// testdata/generate.sh with GHC 9.0.2) decode completely, and each holds the
// events its RTS flags promise; a check that the committed data is what the
// README says it is.
#include "testsupport.h"

#include "core/format/eventtags.h"

#include <QFileInfo>
#include <QTest>

#include <map>
#include <set>

using namespace hecscope;
using namespace hecscope::test;

namespace {

struct Census final : EventSink {
    void onEvent(const Event& e) override
    {
        ++perTag[e.tag];
        if (e.cap != kNoCap)
            caps.insert(e.cap);
        if (e.tag == tag::HeapProfBegin)
            breakdown = e.n[2];
    }
    std::map<uint16_t, uint64_t> perTag;
    std::set<uint16_t> caps;
    uint64_t breakdown = 0;
};

} // namespace

class TestTestdata : public QObject {
    Q_OBJECT
private slots:
    void logsDecodeCompletely_data();
    void logsDecodeCompletely();
};

void TestTestdata::logsDecodeCompletely_data()
{
    QTest::addColumn<QString>("log");
    QTest::addColumn<int>("capabilities");
    QTest::addColumn<QList<int>>("requiredTags");
    QTest::addColumn<int>("breakdown"); // HEAP_PROF_BEGIN breakdown, 0 = none

    const QList<int> scheduler{tag::CreateThread, tag::RunThread, tag::StopThread, tag::GcStart,
                               tag::GcEnd, tag::HeapAllocated, tag::BlockMarker};
    const QList<int> heapSamples{tag::HeapProfBegin, tag::HeapProfSampleBegin,
                                 tag::HeapProfSampleString, tag::HeapProfSampleEnd};
    const QString dir = QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/");
    auto row = [&](const char* name, int caps, QList<int> tags, int breakdown) {
        QTest::newRow(name) << dir + QLatin1String(name) << caps << tags << breakdown;
    };
    row("sparks-N1.eventlog", 1, scheduler + QList<int>{tag::SparkCounters}, 0);
    row("sparks-N2.eventlog", 2, scheduler + QList<int>{tag::SparkCounters}, 0);
    row("sparks-N4.eventlog", 4, scheduler + QList<int>{tag::SparkCounters, tag::MigrateThread}, 0);
    row("sparks-lf-N2.eventlog", 2,
        scheduler + QList<int>{tag::SparkCreate, tag::SparkDud, tag::SparkFizzle, tag::SparkSteal}, 0);
    row("threads-N2.eventlog", 2,
        scheduler + QList<int>{tag::ThreadLabel, tag::UserMarker, tag::UserMsg, tag::ThreadWakeup}, 0);
    row("leak-hT.eventlog", 1, scheduler + heapSamples, 7);
    row("leak-nonmoving-N2.eventlog", 2,
        scheduler + QList<int>{tag::ConcMarkBegin, tag::ConcMarkEnd, tag::NonmovingHeapCensus}, 0);
    row("leak-prof-hc.eventlog", 1,
        scheduler + QList<int>{tag::HeapProfBegin, tag::HeapProfCostCentre,
                               tag::HeapProfSampleCostCentre, tag::HeapProfSampleEnd}, 1);
    row("leak-prof-hm.eventlog", 1, scheduler + heapSamples, 2);
    row("leak-prof-hd.eventlog", 1, scheduler + heapSamples, 3);
    row("leak-prof-hy.eventlog", 1, scheduler + heapSamples, 4);
    row("leak-prof-hr.eventlog", 1, scheduler + heapSamples, 5);
    row("leak-prof-hb.eventlog", 1,
        scheduler + QList<int>{tag::HeapProfBegin, tag::HeapBioProfSampleBegin,
                               tag::HeapProfSampleString}, 6);
    row("leak-prof-p.eventlog", 1,
        scheduler + QList<int>{tag::ProfBegin, tag::ProfSampleCostCentre, tag::HeapProfCostCentre}, 0);
}

void TestTestdata::logsDecodeCompletely()
{
    QFETCH(QString, log);
    QFETCH(int, capabilities);
    QFETCH(QList<int>, requiredTags);
    QFETCH(int, breakdown);
    const std::vector<uint8_t> bytes = readFile(log);
    QVERIFY2(!bytes.empty(), qPrintable(log + QStringLiteral(" is missing: run testdata/generate.sh")));

    Census census;
    StreamDecoder decoder(census);
    decoder.feed(bytes);
    decoder.finish();
    for (const Diagnostic& d : decoder.diagnostics())
        QFAIL(d.message().c_str());
    QVERIFY(decoder.sawDataEnd());
    QCOMPARE(decoder.decodedBytes(), uint64_t(bytes.size()));
    QCOMPARE(int(census.caps.size()), capabilities);
    for (int t : requiredTags)
        QVERIFY2(census.perTag[uint16_t(t)] > 0,
                 qPrintable(QStringLiteral("no event of type %1 (%2)")
                                .arg(t)
                                .arg(QString::fromStdString(decoder.format()->description(uint16_t(t))))));
    QCOMPARE(int(census.breakdown), breakdown);
}

QTEST_GUILESS_MAIN(TestTestdata)
#include "tst_testdata.moc"
