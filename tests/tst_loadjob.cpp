// The background load behind the window: stages, truncated input, a file
// that cannot be opened, and cancellation that stops the work and emits
// nothing more.
#include "testsupport.h"

#include "core/io/bytesource.h"
#include "core/synth/synthetic.h"
#include "ui/jobs/loadjob.h"

#include <QSignalSpy>
#include <QTemporaryFile>
#include <QTest>

using namespace hecscope;
using namespace hecscope::test;

class TestLoadJob : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void indexThenStatistics();
    void truncatedFileKeepsWhatWasDecoded();
    void missingFileFails();
    void cancelStopsAndEmitsNothing();
};

namespace {

QString writeTemp(QTemporaryFile& file, const std::vector<uint8_t>& bytes)
{
    if (!file.open())
        return {};
    file.write(reinterpret_cast<const char*>(bytes.data()), qint64(bytes.size()));
    file.close();
    return file.fileName();
}

} // namespace

void TestLoadJob::initTestCase()
{
    qRegisterMetaType<std::shared_ptr<const LogIndex>>();
    qRegisterMetaType<RangeStats>();
}

void TestLoadJob::indexThenStatistics()
{
    const QString path = QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/threads-N2.eventlog");
    LoadJob job(path);
    QStringList order;
    std::shared_ptr<const LogIndex> index;
    RangeStats stats;
    connect(&job, &LoadJob::indexReady, this, [&](std::shared_ptr<const LogIndex> ix) {
        order << QStringLiteral("index");
        index = ix;
    });
    connect(&job, &LoadJob::statisticsReady, this, [&](const RangeStats& s) {
        order << QStringLiteral("stats");
        stats = s;
    });
    job.start();
    QTRY_COMPARE_WITH_TIMEOUT(order.size(), 2, 20000);
    QCOMPARE(order, (QStringList{QStringLiteral("index"), QStringLiteral("stats")}));
    std::string error;
    auto source = FileSource::open(path.toStdString(), error);
    const LogScan scan = scanLog(*source);
    QCOMPARE(index->scan.events, scan.events);
    QVERIFY(index->scan.diagnostics.empty());
    QCOMPARE(stats.collections, uint64_t(index->collections.size()));
    QCOMPARE(stats.caps.size(), size_t(2));
}

void TestLoadJob::truncatedFileKeepsWhatWasDecoded()
{
    const auto bytes = readFile(QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/sparks-N2.eventlog"));
    const std::vector<uint8_t> cut(bytes.begin(), bytes.begin() + ptrdiff_t(bytes.size() * 2 / 3));
    QTemporaryFile file;
    const QString path = writeTemp(file, cut);
    LoadJob job(path);
    std::shared_ptr<const LogIndex> index;
    connect(&job, &LoadJob::indexReady, this, [&](std::shared_ptr<const LogIndex> ix) { index = ix; });
    job.start();
    QTRY_VERIFY_WITH_TIMEOUT(index != nullptr, 20000);
    QVERIFY(index->scan.truncated);
    QVERIFY(!index->scan.hasError);
    QCOMPARE(index->scan.diagnostics.size(), size_t(1));
    MemorySource source(cut);
    QCOMPARE(index->scan.events, scanLog(source).events);
    QVERIFY(index->scan.events > 100);
}

void TestLoadJob::missingFileFails()
{
    LoadJob job(QStringLiteral("/nonexistent/file.eventlog"));
    QSignalSpy failed(&job, &LoadJob::failed);
    QSignalSpy ready(&job, &LoadJob::indexReady);
    job.start();
    QTRY_COMPARE_WITH_TIMEOUT(failed.size(), 1, 20000);
    QVERIFY(failed.at(0).at(0).toString().contains(QStringLiteral("/nonexistent/file.eventlog")));
    QCOMPARE(ready.size(), 0);
}

void TestLoadJob::cancelStopsAndEmitsNothing()
{
    // 64 MiB: loading takes far longer than the first progress report.
    QTemporaryFile file;
    const QString path = writeTemp(file, synthesizeSchedulerLog(64 << 20));
    auto job = std::make_unique<LoadJob>(path);
    QSignalSpy progress(job.get(), &LoadJob::progressChanged);
    QSignalSpy ready(job.get(), &LoadJob::indexReady);
    QSignalSpy stats(job.get(), &LoadJob::statisticsReady);
    job->start();
    QTRY_VERIFY_WITH_TIMEOUT(progress.size() > 0, 20000);
    job->cancel();
    QTRY_VERIFY_WITH_TIMEOUT(!job->isRunning(), 20000);
    QVERIFY(job->bytesRead() < quint64(64 << 20)); // it stopped before the end
    // Its thread has ended: whatever it sent is queued already; delivered
    // now, not after a wait.
    QCoreApplication::sendPostedEvents();
    QCOMPARE(ready.size(), 0);
    QCOMPARE(stats.size(), 0);
    job.reset();
}

QTEST_GUILESS_MAIN(TestLoadJob)
#include "tst_loadjob.moc"
