// Live sessions on real GHC programs while they run (GHC 9.0.2, compiled
// here from testdata/programs/live.hs): the program writes its eventlog into
// a named pipe (+RTS -l -ol<fifo>), or serves it on a Unix socket through the
// RTS's own endEventLogging/startEventLogging with an EventLogWriter of the
// project's own (testdata/programs/eventlogwriter.c). The program blocks
// half-way until told to go on: its events must be on view before it ends,
// and at the end the index must equal a one-shot load of the recording.
// The same program's .hp heap profile is followed the same way.
#include "livetestsupport.h"
#include "testsupport.h"

#include "core/load/hpfile.h"
#include "core/index/logindex.h"
#include "core/load/loader.h"
#include "core/stats/stats.h"
#include "core/report/info.h"

#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace hecscope;
using namespace hecscope::test;

class TestLiveGhc : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void fifoWhileTheProgramRuns();
    void socketWhileTheProgramRuns();
    void heapProfileWhileTheProgramRuns();

private:
    void watchWhileRunning(const std::string& source, const QStringList& args, const std::string& recording);
    QTemporaryDir m_dir;
    QString m_program;
};

// Compiles the program (a few seconds). GHC is installed by tools/dev test.
void TestLiveGhc::initTestCase()
{
    const QString ghc = QStandardPaths::findExecutable(QStringLiteral("ghc"));
    QVERIFY2(!ghc.isEmpty(), "ghc not found on PATH: tools/dev test installs it (tools/dev ghc)");
    const QString src = QStringLiteral(HECSCOPE_TESTDATA_DIR "/programs/");
    m_program = m_dir.filePath(QStringLiteral("live"));
    QProcess build;
    build.setProcessChannelMode(QProcess::MergedChannels);
    build.start(ghc, {QStringLiteral("-O"), QStringLiteral("-threaded"), QStringLiteral("-eventlog"), QStringLiteral("-rtsopts"),
                      QStringLiteral("-outputdir"), m_dir.path(), src + QStringLiteral("live.hs"),
                      src + QStringLiteral("eventlogwriter.c"), QStringLiteral("-o"), m_program});
    QVERIFY(build.waitForFinished(300000));
    QVERIFY2(build.exitCode() == 0, build.readAll().constData());
}

void TestLiveGhc::watchWhileRunning(const std::string& source, const QStringList& args, const std::string& recording)
{
    UpdateCollector collector;
    LiveOptions options;
    options.recordPath = recording;
    options.publishIntervalMs = 50;
    std::string error;
    auto address = parseSourceAddress(source, error);
    QVERIFY2(address, error.c_str());
    auto live = openLiveSource(*address, error);
    QVERIFY2(live, error.c_str());
    LiveSession session(std::move(live), options, collector.notifier());
    QVERIFY2(session.start(error), error.c_str());

    QProcess program;
    program.start(m_program, args);
    QVERIFY(program.waitForStarted());
    // Phase 1 done: it waits for a line on standard input.
    while (!program.canReadLine())
        QVERIFY2(program.waitForReadyRead(60000), "the program never got to its pause");
    QCOMPARE(program.readLine(), QByteArray("waiting\n"));
    // Its events (a few MB: the RTS writes a capability's buffer when full)
    // reach the view while it is still running, both capabilities' (an
    // update may come between their blocks).
    std::optional<LiveUpdate> seen;
    while (!seen) {
        std::optional<LiveUpdate> u = collector.next(session);
        QVERIFY2(u, "no events of both capabilities while the program ran");
        QVERIFY(!isFinal(u->status.state));
        if (u->status.events > 100000 && u->status.capabilities == 2)
            seen = std::move(u);
    }
    QCOMPARE(program.state(), QProcess::Running);
    QCOMPARE(seen->status.state, LiveState::Receiving);
    QCOMPARE(seen->status.capabilities, 2u);
    QVERIFY(seen->index->threadCount() >= 8);
    QVERIFY(seen->status.mergedTime <= seen->status.newestTime);

    program.write("go\n");
    QVERIFY(program.waitForBytesWritten(10000));
    program.closeWriteChannel();
    const std::vector<LiveUpdate> rest = collector.untilFinal(session);
    QVERIFY(program.waitForFinished(60000));
    QCOMPARE(program.exitCode(), 0);
    QVERIFY(!rest.empty());
    const LiveUpdate& last = rest.back();
    QVERIFY2(last.status.state == LiveState::Ended, last.status.message.c_str());
    QVERIFY(last.index->scan.diagnostics.empty());
    QVERIFY(last.status.events > seen->status.events);
    // Both phases' markers are there.
    QCOMPARE(last.index->tagCounts[58], uint64_t(2)); // EVENT_USER_MARKER
    const std::vector<uint8_t> bytes = readFile(QString::fromStdString(recording));
    MemorySource memory(bytes);
    const auto oneShot = loadIndex(memory).index;
    compareIndexes(*last.index, *oneShot);
    QCOMPARE(infoJson(*last.index, computeStats(*last.index), "x"), infoJson(*oneShot, computeStats(*oneShot), "x"));
}

void TestLiveGhc::fifoWhileTheProgramRuns()
{
    const std::string fifo = m_dir.filePath(QStringLiteral("fifo")).toStdString();
    QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
    watchWhileRunning(fifo,
                      {QStringLiteral("20000"), QStringLiteral("4"), QStringLiteral("+RTS"), QStringLiteral("-l"),
                       QStringLiteral("-N2"), QStringLiteral("-ol") + QString::fromStdString(fifo)},
                      m_dir.filePath(QStringLiteral("fifo.eventlog")).toStdString());
}

void TestLiveGhc::socketWhileTheProgramRuns()
{
    const QString sock = m_dir.filePath(QStringLiteral("live.sock"));
    // The session starts first and waits for the socket (retry with backoff).
    watchWhileRunning("unix:" + sock.toStdString(),
                      {QStringLiteral("20000"), QStringLiteral("4"), sock, QStringLiteral("+RTS"), QStringLiteral("-l"),
                       QStringLiteral("-N2"), QStringLiteral("-ol/dev/null")},
                      m_dir.filePath(QStringLiteral("socket.eventlog")).toStdString());
}

// The same program with a heap profile (+RTS -hT, no -l: GHC writes
// live.hp itself, a census at a time). Followed from its pause on, as
// `hecscope watch live.hp` or opening it in the window does: its censuses
// so far are on view while it waits, complete ones only; after it exits
// the session says it finished writing, and the index is a whole load of
// the file.
void TestLiveGhc::heapProfileWhileTheProgramRuns()
{
    QTemporaryDir run;
    QVERIFY(run.isValid());
    const std::string path = run.filePath(QStringLiteral("live.hp")).toStdString();
    QProcess program;
    program.setWorkingDirectory(run.path());
    program.start(m_program, {QStringLiteral("300000"), QStringLiteral("4"), QStringLiteral("+RTS"), QStringLiteral("-hT"),
                              QStringLiteral("-i0.02"), QStringLiteral("-N2")});
    QVERIFY(program.waitForStarted());
    while (!program.canReadLine())
        QVERIFY2(program.waitForReadyRead(60000), "the program never got to its pause");
    QCOMPARE(program.readLine(), QByteArray("waiting\n"));

    UpdateCollector collector;
    LiveOptions options;
    options.publishIntervalMs = 50;
    std::string error;
    auto address = parseSourceAddress(path, error);
    QVERIFY2(address, error.c_str());
    QVERIFY(fileHasWriter(path)); // the program has it open
    auto live = openLiveSource(*address, error);
    QVERIFY2(live, error.c_str());
    LiveSession session(std::move(live), options, collector.notifier());
    QVERIFY2(session.start(error), error.c_str());
    std::optional<LiveUpdate> seen = collector.next(session);
    QVERIFY2(seen, "no update while the program ran");
    QCOMPARE(program.state(), QProcess::Running);
    QCOMPARE(seen->status.state, LiveState::Receiving);
    QVERIFY(seen->status.heapProfile);
    QVERIFY(seen->index->hpFile);
    QCOMPARE(seen->index->hpFile->job, std::string("live"));
    // The census at start-up and those of phase 1 (every 20 ms of its run).
    QVERIFY2(seen->status.censuses >= 2, qPrintable(QString::number(seen->status.censuses)));
    QVERIFY(!seen->index->heapProfile.labels.empty());
    QVERIFY(seen->index->scan.diagnostics.empty());
    {
        // Exactly the complete censuses of the bytes it had read.
        const std::string text = readText(QString::fromStdString(path));
        QVERIFY(text.size() >= seen->status.bytes);
        const QByteArray read = QByteArray::fromStdString(text.substr(0, seen->status.bytes));
        QCOMPARE(seen->status.censuses, uint64_t(read.count("END_SAMPLE")));
    }

    program.write("go\n");
    QVERIFY(program.waitForBytesWritten(10000));
    program.closeWriteChannel();
    const std::vector<LiveUpdate> rest = collector.untilFinal(session);
    QVERIFY(program.waitForFinished(60000));
    QCOMPARE(program.exitCode(), 0);
    QVERIFY(!rest.empty());
    const LiveUpdate& last = rest.back();
    QVERIFY2(last.status.state == LiveState::Ended, last.status.message.c_str());
    QVERIFY2(last.status.message.find("the program finished writing its heap profile") != std::string::npos,
             last.status.message.c_str());
    QVERIFY(last.index->scan.diagnostics.empty());
    QVERIFY(last.status.censuses > seen->status.censuses);
    const std::string text = readText(QString::fromStdString(path));
    const auto whole = parseHeapProfile(text);
    QCOMPARE(last.status.censuses, uint64_t(whole->heapProfile.censuses.size()));
    QCOMPARE(last.index->heapProfile.labels, whole->heapProfile.labels);
    QCOMPARE(last.index->heapBands.totals, whole->heapBands.totals);
    QCOMPARE(infoJson(*last.index, computeStats(*last.index), "x"), infoJson(*whole, computeStats(*whole), "x"));
}

QTEST_GUILESS_MAIN(TestLiveGhc)
#include "tst_liveghc.moc"
