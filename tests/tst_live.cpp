// Live sources on real logs: a file that grows (appends of every size),
// shrinks or is replaced; a socket served the way ghc-eventlog-socket serves
// it, in random-size chunks, disconnecting and re-sending the header on every
// new connection; control commands; cancelling at any time. The final index
// must equal a one-shot load of the same bytes, and the recording must be the
// log itself.
#include "livetestsupport.h"
#include "testsupport.h"

#include "core/detail/detailstore.h"
#include "core/format/encoder.h"
#include "core/format/eventtags.h"
#include "core/load/indexbuilder.h"
#include "core/index/logindex.h"
#include "core/live/livesession.h"
#include "core/order/timeorder.h"
#include "core/stats/stats.h"
#include "core/report/info.h"

#include <QDir>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <fcntl.h>
#include <sys/stat.h>
#include <deque>
#include <thread>
#include <unistd.h>

using namespace hecscope;
using namespace hecscope::test;

namespace {

std::unique_ptr<LiveSession> sessionOn(const std::string& text, LiveOptions options, UpdateCollector& collector)
{
    std::string error;
    const std::optional<SourceAddress> address = parseSourceAddress(text, error);
    if (!address)
        return nullptr;
    std::unique_ptr<LiveSource> source = openLiveSource(*address, error);
    if (!source)
        return nullptr;
    auto session = std::make_unique<LiveSession>(std::move(source), std::move(options), collector.notifier());
    if (!session->start(error))
        return nullptr;
    return session;
}

std::vector<uint8_t> recorded(LiveSession& session)
{
    std::vector<uint8_t> out;
    uint8_t buf[65536];
    for (uint64_t pos = 0;;) {
        const size_t n = session.recording()->read(pos, buf, sizeof buf);
        if (n == 0)
            return out;
        out.insert(out.end(), buf, buf + n);
        pos += n;
    }
}

bool writeAll(int fd, const uint8_t* p, size_t n)
{
    while (n > 0) {
        const ssize_t w = ::write(fd, p, n);
        if (w <= 0)
            return false;
        p += w;
        n -= size_t(w);
    }
    return true;
}

// A .hp text cut where a reader that has seen `text` so far can know a
// sample is complete: after the last whole line outside a sample (header
// lines, END_SAMPLE lines with their newline). A plain line walk.
size_t hpSettledEnd(std::string_view text)
{
    size_t settled = 0;
    bool inSample = false;
    for (size_t pos = 0;;) {
        const size_t eol = text.find('\n', pos);
        if (eol == std::string_view::npos)
            return settled;
        const std::string_view line = text.substr(pos, eol - pos);
        if (line.starts_with("BEGIN_SAMPLE"))
            inSample = true;
        else if (line.starts_with("END_SAMPLE"))
            inSample = false;
        pos = eol + 1;
        if (!inSample)
            settled = pos;
    }
}

std::unique_ptr<LogIndex> loadText(std::string_view text)
{
    return indexOfBytes(std::vector<uint8_t>(text.begin(), text.end()));
}

// What a heap-profile index shows: the header, every census and sample,
// the bands and their figures (info --json), nothing else.
void compareHeapProfiles(const LogIndex& a, const LogIndex& b)
{
    QVERIFY(a.hpFile && b.hpFile);
    QCOMPARE(a.hpFile->job, b.hpFile->job);
    QCOMPARE(a.hpFile->date, b.hpFile->date);
    QCOMPARE(a.heapProfile.labels, b.heapProfile.labels);
    QCOMPARE(a.heapProfile.censuses.size(), b.heapProfile.censuses.size());
    for (size_t i = 0; i < a.heapProfile.censuses.size(); ++i) {
        const Census& x = a.heapProfile.censuses[i];
        const Census& y = b.heapProfile.censuses[i];
        QCOMPARE(x.time, y.time);
        QCOMPARE(x.firstSample, y.firstSample);
        QCOMPARE(x.count, y.count);
        QCOMPARE(x.total, y.total);
    }
    QCOMPARE(a.heapProfile.samples.size(), b.heapProfile.samples.size());
    for (size_t i = 0; i < a.heapProfile.samples.size(); ++i) {
        QCOMPARE(a.heapProfile.samples[i].label, b.heapProfile.samples[i].label);
        QCOMPARE(a.heapProfile.samples[i].bytes, b.heapProfile.samples[i].bytes);
    }
    QCOMPARE(a.heapBands.totals, b.heapBands.totals);
    QCOMPARE(infoJson(a, computeStats(a), "x"), infoJson(b, computeStats(b), "x"));
}

QString threadsLog()
{
    return QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/threads-N2.eventlog");
}

} // namespace

class TestLive : public QObject {
    Q_OBJECT
private slots:
    void addresses();
    void growingFileAppendsOfEverySize_data();
    void growingFileAppendsOfEverySize();
    void fileWithoutEndEndsWhenItsWriterIsGone();
    void shrinkingFileIsSaid();
    void replacedFileIsSaid();
    void pipeAndStandardInput();
    void socketReconnectsAndAppends_data();
    void socketReconnectsAndAppends();
    void socketCutInsideARecordKeepsAValidRecording();
    void reconnectionWithAnotherHeaderIsRefused();
    void disconnectWaitsForReconnect();
    void controlCommandsReachTheProgram();
    void cancelAtAnyTime();
    void watchPrintsUpdatesAndTheRecordingsSummary();
    void keepsOnlyTheLatestStretch();
    void lateCapabilityReadsTheRecordingAgain();
    void growingHeapProfileShowsCompleteCensuses_data();
    void growingHeapProfileShowsCompleteCensuses();
    void watchFollowsAHeapProfile();
};

void TestLive::addresses()
{
    std::string error;
    auto a = parseSourceAddress("unix:/tmp/x.sock", error);
    QVERIFY(a && a->kind == SourceAddress::Kind::Unix && a->path == "/tmp/x.sock");
    a = parseSourceAddress("tcp:localhost:4242", error);
    QVERIFY(a && a->kind == SourceAddress::Kind::Tcp && a->host == "localhost" && a->port == 4242);
    QCOMPARE(a->text(), std::string("tcp:localhost:4242"));
    a = parseSourceAddress("tcp:[::1]:9", error);
    QVERIFY(a && a->host == "::1" && a->port == 9);
    QCOMPARE(a->text(), std::string("tcp:[::1]:9"));
    a = parseSourceAddress("-", error);
    QVERIFY(a && a->kind == SourceAddress::Kind::Stdin);
    for (const char* bad : {"tcp:localhost", "tcp:host:0", "tcp:host:70000", "tcp::4242", "unix:", ""}) {
        error.clear();
        QVERIFY2(!parseSourceAddress(bad, error), bad);
        QVERIFY2(!error.empty(), bad);
    }
    QTemporaryDir dir;
    const std::string fifo = dir.filePath(QStringLiteral("f")).toStdString();
    QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
    a = parseSourceAddress(fifo, error);
    QVERIFY(a && a->kind == SourceAddress::Kind::Pipe);
    a = parseSourceAddress(threadsLog().toStdString(), error);
    QVERIFY(a && a->kind == SourceAddress::Kind::File);
    // The control message as ghc-eventlog-socket reads it.
    const std::string m = controlMessage(ControlCommand::RequestHeapCensus);
    QCOMPARE(QByteArray::fromStdString(m).toHex(), QByteArray("f09e978c000f6576656e746c6f672d736f636b657405"));
}

void TestLive::growingFileAppendsOfEverySize_data()
{
    QTest::addColumn<QString>("log");
    QTest::addColumn<int>("maxChunk");
    QTest::newRow("spans-N2, 1..64-byte appends") << QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/spans-N2.eventlog") << 64;
    QTest::newRow("threads-N2, up to 64 KiB") << threadsLog() << 65536;
    QTest::newRow("leak-prof-hc, up to 4 KiB") << QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/leak-prof-hc.eventlog") << 4096;
}

// A writer appends a real log to a file in pieces of every size from one
// byte up, while a session follows it. Updates come while it grows, each
// with more events; the session ends at the end-of-data marker; the final
// index equals a one-shot load and the recording is the log.
void TestLive::growingFileAppendsOfEverySize()
{
    QFETCH(QString, log);
    QFETCH(int, maxChunk);
    const std::vector<uint8_t> bytes = readFile(log);
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("growing.eventlog")).toStdString();
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    QVERIFY(fd >= 0);
    // The first bytes are there before following starts (a file already
    // being written), the rest come after.
    QVERIFY(writeAll(fd, bytes.data(), 100));
    UpdateCollector collector;
    LiveOptions options;
    options.publishIntervalMs = 5;
    auto session = sessionOn(path, options, collector);
    QVERIFY(session);
    std::thread writer([&] {
        QRandomGenerator rng(uint32_t(qHash(log)));
        size_t pos = 100, size = 1;
        while (pos < bytes.size()) {
            // 1, 2, 3, … bytes, then random sizes up to maxChunk.
            const size_t n = std::min(bytes.size() - pos, size <= 64 ? size++ : 1 + rng.bounded(uint32_t(maxChunk)));
            if (!writeAll(fd, bytes.data() + pos, n))
                return;
            pos += n;
            if (maxChunk > 64 || rng.bounded(8u) == 0)
                std::this_thread::sleep_for(std::chrono::microseconds(maxChunk > 64 ? 1000 : 300));
        }
    });
    const std::vector<LiveUpdate> updates = collector.untilFinal(*session);
    writer.join();
    ::close(fd);
    QVERIFY2(!updates.empty(), "the session never ended");
    QVERIFY2(updates.size() >= 3, qPrintable(QString::number(updates.size())));
    uint64_t events = 0;
    for (const LiveUpdate& u : updates) {
        QVERIFY(u.status.events >= events);
        QVERIFY(u.status.mergedTime <= u.status.newestTime);
        events = u.status.events;
    }
    QVERIFY2(updates[updates.size() / 2].status.events < updates.back().status.events, "no update while it grew");
    const LiveUpdate& last = updates.back();
    QCOMPARE(last.status.state, LiveState::Ended);
    QVERIFY(last.status.message.find("end-of-data") != std::string::npos);
    QVERIFY(recorded(*session) == bytes);
    const auto oneShot = indexOfBytes(bytes);
    compareIndexes(*last.index, *oneShot);
    QCOMPARE(infoJson(*last.index, computeStats(*last.index), "x"), infoJson(*oneShot, computeStats(*oneShot), "x"));
}

// A log cut short (no end-of-data marker): the session follows it until it
// has stopped growing and no process has it open for writing.
void TestLive::fileWithoutEndEndsWhenItsWriterIsGone()
{
    std::vector<uint8_t> bytes = readFile(threadsLog());
    bytes.resize(bytes.size() * 2 / 3);
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("cut.eventlog")).toStdString();
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    QVERIFY(writeAll(fd, bytes.data(), bytes.size() / 2));
    UpdateCollector collector;
    auto session = sessionOn(path, {}, collector);
    QVERIFY(session);
    // While the writer keeps it open, a pause in growth does not end it.
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    std::optional<LiveUpdate> u;
    while (std::optional<LiveUpdate> more = session->takeUpdate())
        u = std::move(more);
    QVERIFY(u);
    QCOMPARE(u->status.state, LiveState::Receiving);
    QVERIFY(writeAll(fd, bytes.data() + bytes.size() / 2, bytes.size() - bytes.size() / 2));
    ::close(fd);
    const std::vector<LiveUpdate> updates = collector.untilFinal(*session);
    QVERIFY(!updates.empty());
    const LiveUpdate& last = updates.back();
    QCOMPARE(last.status.state, LiveState::Ended);
    QVERIFY2(last.status.message.find("no process has it open for writing") != std::string::npos, last.status.message.c_str());
    QVERIFY(last.index->scan.truncated);
    compareIndexes(*last.index, *indexOfBytes(bytes));
}

// A session's builder lets go of the thread events it has walked for good
// at each update. A capability whose first block comes after that, with
// events earlier than those (here: no event names it before), cannot be
// walked with them: the builder says so, and the session reads its
// recording again into a builder that keeps them. The final index is the
// one-shot load's, every thread's segments included.
void TestLive::lateCapabilityReadsTheRecordingAgain()
{
    const std::vector<uint8_t> bytes = lateCapabilityLog();
    const size_t cut = layoutOf(bytes).blockStarts.at(1);
    {
        // (What the session meets: the builder's own account.)
        IndexBuilder builder;
        builder.releaseSettledThreadEvents();
        builder.feed(std::span(bytes).first(cut));
        builder.publish(false);
        QVERIFY(!builder.threadEventsLost());
        builder.feed(std::span(bytes).subspan(cut));
        builder.publish(false);
        QVERIFY(builder.threadEventsLost());
    }
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("late.eventlog")).toStdString();
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    QVERIFY(fd >= 0);
    QVERIFY(writeAll(fd, bytes.data(), cut));
    UpdateCollector collector;
    LiveOptions options;
    options.publishIntervalMs = 5;
    auto session = sessionOn(path, options, collector);
    QVERIFY(session);
    // An update with the first block in it (its thread events let go).
    for (;;) {
        const std::optional<LiveUpdate> u = collector.next(*session);
        QVERIFY2(u, "no update with the first block");
        QVERIFY(!isFinal(u->status.state));
        if (u->status.bytes >= cut && u->index->threadStates.segmentCount() > 0)
            break;
    }
    QVERIFY(writeAll(fd, bytes.data() + cut, bytes.size() - cut));
    ::close(fd);
    const std::vector<LiveUpdate> updates = collector.untilFinal(*session);
    QVERIFY(!updates.empty());
    const LogIndex& last = *updates.back().index;
    QCOMPARE(updates.back().status.state, LiveState::Ended);
    const auto oneShot = indexOfBytes(bytes);
    compareIndexes(last, *oneShot);
    const ThreadStates &x = last.threadStates, &y = oneShot->threadStates;
    QVERIFY(x.ids == y.ids);
    QVERIFY(x.segmentCount() > 0);
    for (size_t k = 0; k < x.count(); ++k) {
        QCOMPARE(x.of(k).size(), y.of(k).size());
        for (size_t i = 0; i < x.of(k).size(); ++i)
            QVERIFY2(x.of(k)[i] == y.of(k)[i], qPrintable(QStringLiteral("thread %1 segment %2").arg(x.ids[k]).arg(i)));
    }
    // So does every update after the second block came.
    for (const LiveUpdate& u : updates)
        if (u.status.bytes == bytes.size())
            QCOMPARE(u.index->threadStates.segmentCount(), y.segmentCount());
}

// A file that shrinks under the reader: said with the byte offset, and
// everything received before is kept.
void TestLive::shrinkingFileIsSaid()
{
    const std::vector<uint8_t> bytes = readFile(threadsLog());
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("shrink.eventlog")).toStdString();
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const size_t half = bytes.size() / 2;
    QVERIFY(writeAll(fd, bytes.data(), half));
    UpdateCollector collector;
    LiveOptions options;
    options.publishIntervalMs = 5;
    auto session = sessionOn(path, options, collector);
    QVERIFY(session);
    for (;;) {
        std::optional<LiveUpdate> u = collector.next(*session);
        QVERIFY(u);
        if (u->status.bytes == half)
            break;
    }
    QCOMPARE(::ftruncate(fd, off_t(half / 2)), 0);
    const std::vector<LiveUpdate> updates = collector.untilFinal(*session);
    ::close(fd);
    QVERIFY(!updates.empty());
    const LiveUpdate& last = updates.back();
    QCOMPARE(last.status.state, LiveState::Failed);
    QVERIFY2(last.status.message.find("shrank from " + std::to_string(half)) != std::string::npos, last.status.message.c_str());
    QVERIFY(last.status.message.find("byte offset " + std::to_string(half)) != std::string::npos);
    compareIndexes(*last.index, *indexOfBytes({bytes.begin(), bytes.begin() + ptrdiff_t(half)}));
}

void TestLive::replacedFileIsSaid()
{
    const std::vector<uint8_t> bytes = readFile(threadsLog());
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("a.eventlog")).toStdString();
    const std::string other = dir.filePath(QStringLiteral("b.eventlog")).toStdString();
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const size_t part = bytes.size() / 3;
    QVERIFY(writeAll(fd, bytes.data(), part));
    UpdateCollector collector;
    LiveOptions options;
    options.publishIntervalMs = 5;
    auto session = sessionOn(path, options, collector);
    QVERIFY(session);
    for (;;) {
        std::optional<LiveUpdate> u = collector.next(*session);
        QVERIFY(u);
        if (u->status.bytes == part)
            break;
    }
    const int fd2 = ::open(other.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    QVERIFY(writeAll(fd2, bytes.data(), bytes.size()));
    ::close(fd2);
    QCOMPARE(::rename(other.c_str(), path.c_str()), 0);
    const std::vector<LiveUpdate> updates = collector.untilFinal(*session);
    ::close(fd);
    QVERIFY(!updates.empty());
    QCOMPARE(updates.back().status.state, LiveState::Failed);
    QVERIFY2(updates.back().status.message.find("replaced") != std::string::npos, updates.back().status.message.c_str());
    compareIndexes(*updates.back().index, *indexOfBytes({bytes.begin(), bytes.begin() + ptrdiff_t(part)}));
}

// A named pipe opened before its writer (as +RTS -ol/fifo needs): the
// session waits, takes what comes and ends when the writer closes it.
void TestLive::pipeAndStandardInput()
{
    const std::vector<uint8_t> bytes = readFile(threadsLog());
    QTemporaryDir dir;
    const std::string fifo = dir.filePath(QStringLiteral("fifo")).toStdString();
    QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
    UpdateCollector collector;
    LiveOptions options;
    options.publishIntervalMs = 5;
    options.recordPath = dir.filePath(QStringLiteral("rec.eventlog")).toStdString();
    auto session = sessionOn(fifo, options, collector);
    QVERIFY(session);
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    std::thread writer([&] {
        const int fd = ::open(fifo.c_str(), O_WRONLY);
        for (size_t pos = 0; pos < bytes.size();) {
            const size_t n = std::min<size_t>(bytes.size() - pos, 7919);
            if (!writeAll(fd, bytes.data() + pos, n))
                break;
            pos += n;
        }
        ::close(fd);
    });
    const std::vector<LiveUpdate> updates = collector.untilFinal(*session);
    writer.join();
    QVERIFY(!updates.empty());
    QCOMPARE(updates.front().status.state, LiveState::Waiting); // before the writer came
    QCOMPARE(updates.back().status.state, LiveState::Ended);
    QVERIFY(readFile(QString::fromStdString(options.recordPath)) == bytes);
    compareIndexes(*updates.back().index, *indexOfBytes(bytes));
    // Once over, the recording is no longer open for writing: opening it
    // is not following a growing file.
    session->wait();
    QVERIFY(!fileHasWriter(options.recordPath));

    // Standard input: hecscope watch - (in watchPrintsUpdates…) reads it
    // the same way; here a pipe stands in for it by its path.
}

void TestLive::socketReconnectsAndAppends_data()
{
    QTest::addColumn<QString>("log");
    QTest::addColumn<int>("connections");
    QTest::newRow("threads-N2, 3 connections") << threadsLog() << 3;
    QTest::newRow("spans-N2, 5 connections") << QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/spans-N2.eventlog") << 5;
    QTest::newRow("leak-prof-hc, 2 connections") << QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/leak-prof-hc.eventlog") << 2;
}

// The program's stream in connections cut at random events; every
// connection begins with the header again, and (as the RTS does on a new
// connection) a new block carries on where the cut one stopped. The socket
// is not there yet when the session starts (retry with backoff). Nothing is
// lost or duplicated: the recording is the served log byte for byte and the
// final index equals a one-shot load of it.
void TestLive::socketReconnectsAndAppends()
{
    QFETCH(QString, log);
    QFETCH(int, connections);
    const std::vector<uint8_t> original = readFile(log);
    const LogLayout before = layoutOf(original);
    QRandomGenerator rng(uint32_t(qHash(log)));
    std::vector<size_t> cuts;
    while (cuts.size() < size_t(connections - 1)) {
        const size_t c = before.eventStarts[rng.bounded(uint32_t(before.eventStarts.size()))];
        if (std::find(cuts.begin(), cuts.end(), c) == cuts.end())
            cuts.push_back(c);
    }
    std::vector<size_t> at;
    const std::vector<uint8_t> bytes = splitBlocksAt(original, cuts, &at);
    QCOMPARE(at.size(), cuts.size());
    // The split log has the same events in the same order, blocks aside.
    auto withoutBlocks = [](const std::string& dump) {
        std::string out;
        size_t pos = 0;
        while (pos < dump.size()) {
            const size_t nl = dump.find('\n', pos);
            const std::string line = dump.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos + 1);
            // A block's line and the blank line after it.
            if (line.find("event block:") == std::string::npos && line != "\n")
                out += line;
            pos = nl == std::string::npos ? dump.size() : nl + 1;
        }
        return out;
    };
    QCOMPARE(withoutBlocks(dumpBytes(bytes)), withoutBlocks(dumpBytes(original)));
    std::vector<std::pair<size_t, size_t>> segments;
    size_t from = layoutOf(bytes).headerSize;
    for (size_t c : at) {
        segments.emplace_back(from, c);
        from = c;
    }
    segments.emplace_back(from, bytes.size());
    QTemporaryDir dir;
    const std::string sock = dir.filePath(QStringLiteral("s.sock")).toStdString();
    ReplayServer server(sock, bytes, segments, rng.generate(), 50, 300);
    UpdateCollector collector;
    LiveOptions options;
    options.autoReconnect = true;
    options.publishIntervalMs = 5;
    auto session = sessionOn("unix:" + sock, options, collector);
    QVERIFY(session);
    server.start();
    const std::vector<LiveUpdate> updates = collector.untilFinal(*session);
    server.join();
    QVERIFY(!updates.empty());
    QVERIFY2(updates.front().status.message.find("waiting for unix:") != std::string::npos, updates.front().status.message.c_str());
    const LiveUpdate& last = updates.back();
    QCOMPARE(last.status.state, LiveState::Ended);
    QCOMPARE(last.status.connections, uint32_t(connections));
    QCOMPARE(server.connectionsServed(), connections);
    // Every cut was seen as a disconnect (an update showing one may be
    // replaced by the next before it is taken, so the count is compared).
    QCOMPARE(last.status.disconnects, uint32_t(connections - 1));
    QVERIFY(recorded(*session) == bytes);
    compareIndexes(*last.index, *indexOfBytes(bytes));
}

// A connection cut inside a record (the rest of the RTS's buffer is lost):
// the partial record is dropped, the recording stays one valid eventlog,
// and the live index equals a one-shot load of the recording.
void TestLive::socketCutInsideARecordKeepsAValidRecording()
{
    const std::vector<uint8_t> original = readFile(threadsLog());
    const LogLayout before = layoutOf(original);
    const size_t n = before.eventStarts.size();
    const size_t cutEvent = before.eventStarts[n / 3];
    const size_t cut = cutEvent + 3; // inside that event
    std::vector<size_t> at;
    const std::vector<uint8_t> bytes = splitBlocksAt(original, {before.eventStarts[n / 2]}, &at);
    QCOMPARE(at.size(), size_t(1));
    const std::vector<std::pair<size_t, size_t>> segments = {{before.headerSize, cut}, {at[0], bytes.size()}};
    QTemporaryDir dir;
    const std::string sock = dir.filePath(QStringLiteral("s.sock")).toStdString();
    ReplayServer server(sock, bytes, segments, 7, 0);
    server.start();
    UpdateCollector collector;
    LiveOptions options;
    options.autoReconnect = true;
    options.recordPath = dir.filePath(QStringLiteral("rec.eventlog")).toStdString();
    auto session = sessionOn("unix:" + sock, options, collector);
    QVERIFY(session);
    const std::vector<LiveUpdate> updates = collector.untilFinal(*session);
    server.join();
    QVERIFY(!updates.empty());
    QCOMPARE(updates.back().status.state, LiveState::Ended);
    const std::vector<uint8_t> recording = readFile(QString::fromStdString(options.recordPath));
    QVERIFY(recording.size() < bytes.size());
    const auto reloaded = indexOfBytes(recording);
    QVERIFY(!reloaded->scan.hasError);
    QVERIFY(!reloaded->scan.truncated);
    compareIndexes(*updates.back().index, *reloaded);
    // Everything before the cut record and after the lost stretch is there:
    // the recording is the log without the events in between.
    std::vector<uint8_t> expected(bytes.begin(), bytes.begin() + ptrdiff_t(cutEvent));
    expected.insert(expected.end(), bytes.begin() + ptrdiff_t(at[0]), bytes.end());
    QVERIFY(recording == expected);
}

void TestLive::reconnectionWithAnotherHeaderIsRefused()
{
    const std::vector<uint8_t> original = readFile(threadsLog());
    // Another GHC's header (a program of the same GHC declares the same).
    const QString otherLog = conformanceDir() + QStringLiteral("/ghc-events/ghc-9.2-events.eventlog");
    QVERIFY2(QFileInfo::exists(otherLog), qPrintable(otherLog));
    const std::vector<uint8_t> other = readFile(otherLog);
    const LogLayout before = layoutOf(original);
    std::vector<size_t> at;
    const std::vector<uint8_t> bytes = splitBlocksAt(original, {before.eventStarts[before.eventStarts.size() / 2]}, &at);
    const size_t cut = at[0];
    const LogLayout layout = layoutOf(bytes);
    QTemporaryDir dir;
    const std::string sock = dir.filePath(QStringLiteral("s.sock")).toStdString();
    ReplayServer server(sock, bytes, {{layout.headerSize, cut}, {cut, bytes.size()}}, 3, 0);
    server.replaceHeaderOf(1, std::vector<uint8_t>(other.begin(), other.begin() + ptrdiff_t(layoutOf(other).headerSize)));
    server.start();
    UpdateCollector collector;
    LiveOptions options;
    options.autoReconnect = true;
    auto session = sessionOn("unix:" + sock, options, collector);
    QVERIFY(session);
    const std::vector<LiveUpdate> updates = collector.untilFinal(*session);
    server.join();
    QVERIFY(!updates.empty());
    QVERIFY2(updates.back().status.state == LiveState::Failed, updates.back().status.message.c_str());
    QVERIFY2(updates.back().status.message.find("different eventlog header") != std::string::npos, updates.back().status.message.c_str());
    compareIndexes(*updates.back().index, *indexOfBytes({bytes.begin(), bytes.begin() + ptrdiff_t(cut)}));
}

// Without automatic reconnection a disconnect is said and waits; the
// user's Reconnect appends the next connection to the same timeline.
void TestLive::disconnectWaitsForReconnect()
{
    const std::vector<uint8_t> original = readFile(threadsLog());
    const LogLayout before = layoutOf(original);
    std::vector<size_t> at;
    const std::vector<uint8_t> bytes = splitBlocksAt(original, {before.eventStarts[before.eventStarts.size() / 3]}, &at);
    const size_t cut = at[0];
    const LogLayout layout = layoutOf(bytes);
    QTemporaryDir dir;
    const std::string sock = dir.filePath(QStringLiteral("s.sock")).toStdString();
    ReplayServer server(sock, bytes, {{layout.headerSize, cut}, {cut, bytes.size()}}, 11, 0);
    server.start();
    UpdateCollector collector;
    LiveOptions options;
    options.publishIntervalMs = 5;
    auto session = sessionOn("unix:" + sock, options, collector);
    QVERIFY(session);
    for (;;) {
        std::optional<LiveUpdate> u = collector.next(*session);
        QVERIFY(u);
        QVERIFY(!isFinal(u->status.state));
        if (u->status.state == LiveState::Disconnected) {
            QVERIFY2(u->status.message.find("closed the connection") != std::string::npos, u->status.message.c_str());
            compareIndexes(*u->index, *indexOfBytes({bytes.begin(), bytes.begin() + ptrdiff_t(cut)}));
            break;
        }
    }
    // It stays disconnected until asked.
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    QCOMPARE(server.connectionsServed(), 1);
    session->reconnect();
    const std::vector<LiveUpdate> updates = collector.untilFinal(*session);
    server.join();
    QVERIFY(!updates.empty());
    QCOMPARE(updates.back().status.state, LiveState::Ended);
    QVERIFY(recorded(*session) == bytes);
    compareIndexes(*updates.back().index, *indexOfBytes(bytes));
}

void TestLive::controlCommandsReachTheProgram()
{
    const std::vector<uint8_t> bytes = readFile(threadsLog());
    const LogLayout layout = layoutOf(bytes);
    QTemporaryDir dir;
    const std::string sock = dir.filePath(QStringLiteral("s.sock")).toStdString();
    ReplayServer server(sock, bytes, {{layout.headerSize, layout.eventStarts[100]}}, 5, 0);
    server.holdOpen(0);
    server.start();
    UpdateCollector collector;
    auto session = sessionOn("unix:" + sock, {}, collector);
    QVERIFY(session);
    std::string error;
    // Before a connection there is nobody to send to.
    while (session->recording() && !session->sendControl(ControlCommand::StartHeapProfiling, error)) {
        QCOMPARE(error, std::string("not connected"));
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    QVERIFY(session->sendControl(ControlCommand::RequestHeapCensus, error));
    const std::string expected = controlMessage(ControlCommand::StartHeapProfiling) + controlMessage(ControlCommand::RequestHeapCensus);
    for (int i = 0; i < 2000 && server.received().size() < expected.size(); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    QCOMPARE(server.received(), expected);
    server.release();
    // A file takes no commands.
    UpdateCollector other;
    auto fileSession = sessionOn(threadsLog().toStdString(), {}, other);
    QVERIFY(!fileSession->sendControl(ControlCommand::RequestHeapCensus, error));
    QVERIFY(error.find("only an eventlog socket") != std::string::npos);
}

// Destroying a session at any moment (waiting for a writer, for a socket,
// mid-stream) returns promptly and publishes nothing more; stop() at any
// moment ends with what was received.
void TestLive::cancelAtAnyTime()
{
    const std::vector<uint8_t> bytes = readFile(threadsLog());
    QTemporaryDir dir;
    const std::string fifo = dir.filePath(QStringLiteral("fifo")).toStdString();
    QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
    const std::string file = dir.filePath(QStringLiteral("g.eventlog")).toStdString();
    QRandomGenerator rng(42);
    for (int round = 0; round < 24; ++round) {
        const int kind = round % 3;
        const std::string source = kind == 0 ? fifo : kind == 1 ? "unix:" + dir.filePath(QStringLiteral("none.sock")).toStdString() : file;
        int fd = -1;
        if (kind == 2) {
            fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
            QVERIFY(writeAll(fd, bytes.data(), bytes.size() / 2));
        }
        UpdateCollector collector;
        LiveOptions options;
        options.publishIntervalMs = 1;
        auto session = sessionOn(source, options, collector);
        QVERIFY(session);
        std::this_thread::sleep_for(std::chrono::milliseconds(rng.bounded(40u)));
        if (round % 2 == 0) {
            session.reset(); // cancel
        } else {
            session->stop();
            const std::vector<LiveUpdate> updates = collector.untilFinal(*session);
            QVERIFY(!updates.empty());
            QCOMPARE(updates.back().status.state, LiveState::Stopped);
            if (kind == 2)
                compareIndexes(*updates.back().index, *indexOfBytes({bytes.begin(), bytes.begin() + ptrdiff_t(updates.back().status.bytes)}));
        }
        if (fd >= 0)
            ::close(fd);
    }
}

// `hecscope watch`: one JSON line per update, then the summary, which
// equals `hecscope info --json` of the recording. Standard input here.
void TestLive::watchPrintsUpdatesAndTheRecordingsSummary()
{
    const QString log = threadsLog();
    QTemporaryDir dir;
    const QString rec = dir.filePath(QStringLiteral("rec.eventlog"));
    const std::vector<uint8_t> bytes = readFile(log);
    const QByteArray input(reinterpret_cast<const char*>(bytes.data()), qsizetype(bytes.size()));
    const Run watched = runHecscope({QStringLiteral("watch"), QStringLiteral("-"), QStringLiteral("--record"), rec}, input);
    QCOMPARE(watched.exitCode, 0);
    QList<QByteArray> lines = watched.out.split('\n');
    // Updates are a mailbox: the first one can be replaced by the next
    // before watch takes it (all of standard input may come at once).
    QVERIFY(lines.first().startsWith("{\"update\":"));
    int updates = 0;
    while (!lines.isEmpty() && lines.first().startsWith("{\"update\":")) {
        QVERIFY(lines.first().contains("\"events\":"));
        QVERIFY(lines.first().contains("\"pending_bytes\":"));
        lines.removeFirst();
        ++updates;
    }
    QVERIFY(updates >= 1);
    // JSON Lines: the summary is one more line, the object `info --json`
    // prints, its keys in the same order.
    QCOMPARE(lines.size(), 2);
    QVERIFY(lines.last().isEmpty());
    const QByteArray summary = lines.first();
    const Run info = runHecscope({QStringLiteral("info"), QStringLiteral("--json"), rec});
    QCOMPARE(info.exitCode, 0);
    QVERIFY(info.out.count('\n') > 1); // (info's own is for people too: indented)
    QCOMPARE(summary, QByteArray(jsonLine(info.out.toStdString()).c_str()).trimmed());
    QCOMPARE(QJsonDocument::fromJson(summary).object(), QJsonDocument::fromJson(info.out).object());
    QVERIFY(!QJsonDocument::fromJson(summary).object().isEmpty());
    QVERIFY(readFile(rec) == bytes);

    const Run usage = runHecscope({QStringLiteral("watch"), QStringLiteral("tcp:nohost")});
    QCOMPARE(usage.exitCode, 2);
    QVERIFY(usage.err.contains("HOST:PORT"));
}



namespace {

// Counts what TimeOrder delivers (the event list's way to the raw events).
class CountingSink final : public EventSink {
public:
    void onHeader(const std::shared_ptr<const LogFormat>&) override {}
    void onEvent(const Event& e) override
    {
        ordered = ordered && e.time >= last;
        last = e.time;
        ++events;
    }
    uint64_t events = 0, last = 0;
    bool ordered = true;
};

} // namespace

// With a stretch to keep, the index holds about that much of the log and
// the start-up records, and what it dropped is counted: the whole run's
// totals stay. Its raw events are read where the recording has them.
void TestLive::keepsOnlyTheLatestStretch()
{
    constexpr uint64_t kSlice = 10'000'000; // 10 ms per block
    const std::vector<uint8_t> bytes = longRunningLog(300, kSlice);
    const auto whole = indexOfBytes(bytes);
    QVERIFY(whole && whole->scan.diagnostics.empty());
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("growing.eventlog")).toStdString();
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    QVERIFY(fd >= 0);
    UpdateCollector collector;
    LiveOptions options;
    options.publishIntervalMs = 5;
    options.keepNs = 200'000'000; // 0.2 s of a 3 s log
    auto session = sessionOn(path, options, collector);
    QVERIFY(session);
    std::thread writer([&] {
        for (size_t pos = 0; pos < bytes.size();) {
            const size_t n = std::min<size_t>(bytes.size() - pos, 4099);
            if (!writeAll(fd, bytes.data() + pos, n))
                break;
            pos += n;
            // (Paced so that even a slow build, ThreadSanitizer's, publishes
            // several updates after the first rebuild.)
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
        ::close(fd);
    });
    const std::vector<LiveUpdate> updates = collector.untilFinal(*session);
    writer.join();
    QVERIFY(!updates.empty());
    const LiveUpdate& last = updates.back();
    QCOMPARE(last.status.state, LiveState::Ended);
    QVERIFY(readFile(QString::fromStdString(path)) == bytes);
    // Dropped along the way and at the end, never more than was sent.
    const auto dropping = std::count_if(updates.begin(), updates.end(), [](const LiveUpdate& u) { return u.status.droppedEvents > 0; });
    QVERIFY2(dropping >= 3, qPrintable(QStringLiteral("%1 of %2 updates").arg(dropping).arg(updates.size())));
    QCOMPARE(last.status.events, whole->scan.events);

    const LogIndex& ix = *last.index;
    QVERIFY(ix.dropped.fromByte > 0 && ix.dropped.before > 0);
    QCOMPARE(ix.dropped.events + ix.scan.events, whole->scan.events);
    // The whole run's count of every kind of event.
    for (size_t t = 0; t < whole->tagCounts.size(); ++t)
        QVERIFY2(ix.dropped.tagCounts[t] + ix.tagCounts[t] == whole->tagCounts[t], qPrintable(QString::number(t)));
    // About the stretch asked for (it is cut at a block, and rebuilt at the
    // end too if it is half as long again), and older detail gone.
    const uint64_t newest = whole->lastTime;
    QVERIFY2(ix.dropped.before + options.keepNs * 3 / 2 >= newest && ix.dropped.before + options.keepNs <= newest,
             qPrintable(QString::number(ix.dropped.before)));
    for (size_t c = 0; c < 2; ++c) {
        const CapTimeline& kept = ix.caps[c].timeline;
        const CapTimeline& all = whole->caps[c].timeline;
        QVERIFY(kept.size() > 0 && kept.size() < all.size() / 4);
        QVERIFY(kept[0].start() + kSlice >= ix.dropped.before);
        // ... and the spans kept are the log's own, to the end.
        const size_t first = all.firstStartingAt(kept[0].start());
        QCOMPARE(all.size() - first, kept.size());
        for (size_t i = 0; i < kept.size(); ++i)
            QVERIFY(kept[i].start() == all[first + i].start() && kept[i].end() == all[first + i].end()
                    && kept[i].thread() == all[first + i].thread() && kept[i].kind() == all[first + i].kind());
    }
    // Half the memory that grows with the log (the table of counts by tag
    // is 512 KB whatever the log).
    const auto growing = [](const LogIndex& x) { return x.memoryBytes() - x.tagCounts.capacity() * sizeof(uint64_t); };
    QVERIFY2(growing(ix) < growing(*whole) / 2, qPrintable(QStringLiteral("%1 of %2 bytes").arg(growing(ix)).arg(growing(*whole))));
    // What the program is stays known: its start-up records are read again.
    QCOMPARE(ix.capsets.size(), size_t(1));
    QCOMPARE(ix.capsets[0].rtsIdentifier, std::string("GHC-9.0.2 rts_thr_l"));
    QCOMPARE(ix.capsets[0].args, (std::vector<std::string>{"prog", "+RTS", "-l"}));
    QCOMPARE(ix.capsets[0].pid, uint64_t(4242));
    QVERIFY(ix.thread(1) && ix.thread(1)->label == "main");
    QVERIFY(ix.thread(2) && ix.thread(2)->label == "worker");
    QCOMPARE(ix.caps[1].created, uint64_t(0));
    // The event list reads the raw events where the index says they are.
    CountingSink sink;
    TimeOrder(ix.scan).visit(*session->recording(), sink);
    QCOMPARE(sink.events, ix.scan.events);
    QVERIFY(sink.ordered);
    // So do the HEC rows' instants: read back from the recording, they are
    // the whole log's from the stretch on, with the thread that ran.
    DetailStore store(session->recording());
    DetailStore wholeStore(std::make_shared<MemorySource>(bytes));
    for (uint16_t c = 0; c < 2; ++c) {
        const ViewInstants kept = viewInstants(store, ix, c, 0, UINT64_MAX, true);
        QVERIFY2(kept.error.empty(), kept.error.c_str());
        QCOMPARE(uint64_t(kept.instants.size()), ix.instants[c].count());
        QVERIFY(kept.instants.size() > 20);
        const ViewInstants all = viewInstants(wholeStore, *whole, c, kept.instants.time(0), UINT64_MAX, true);
        QCOMPARE(all.instants.size(), kept.instants.size());
        for (size_t i = 0; i < kept.instants.size(); ++i)
            QVERIFY(kept.instants.time(i) == all.instants.time(i) && kept.instants.arg(i) == all.instants.arg(i)
                    && kept.instants.arg(i) != 0);
    }
}

// GHC writes a .hp as the program runs, a census at a time (GHC's guide,
// "Viewing the heap profile of a running program"). The real .hp of the
// -hc run is written into a file in pieces cut in every kind of place (in
// the first word, in the header, in a band's name, after BEGIN_SAMPLE, in
// END_SAMPLE's time, before its newline), the writer keeping it open.
// After each piece the session's update holds exactly the complete
// censuses: a whole load of the text cut after the last one. A pause with
// the writer there does not end it; once the writer closes the file the
// session says the program has finished writing it, and the final index is
// a whole load of the file (a census the program left unfinished dropped
// and said).
void TestLive::growingHeapProfileShowsCompleteCensuses_data()
{
    QTest::addColumn<bool>("killed");
    QTest::newRow("the program ends") << false;
    QTest::newRow("the program is killed inside a census") << true;
}

void TestLive::growingHeapProfileShowsCompleteCensuses()
{
    QFETCH(bool, killed);
    std::string text = readText(QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/leak-prof-hc.hp"));
    QVERIFY(text.starts_with("JOB "));
    if (killed) // in the band name of the last census's second line
        text.resize(text.find('\n', text.rfind("BEGIN_SAMPLE")) + 5);
    std::vector<size_t> cuts = {2, text.find("DATE") + 3, text.find("BEGIN_SAMPLE")};
    const size_t second = text.find("BEGIN_SAMPLE", text.find("END_SAMPLE"));
    const size_t secondEnd = text.find("END_SAMPLE", second);
    cuts.push_back(text.find('\n', second) + 1);                 // after BEGIN_SAMPLE
    cuts.push_back(text.find('\n', second) + 6);                 // in a band's name
    cuts.push_back(secondEnd + 12);                               // in END_SAMPLE's time
    cuts.push_back(text.find('\n', secondEnd));                  // before its newline
    cuts.push_back(text.find('\n', secondEnd) + 1);              // after it
    for (size_t pos = cuts.back() + 700; pos < text.size(); pos += 700)
        cuts.push_back(pos);
    cuts.push_back(text.size());
    QVERIFY(std::is_sorted(cuts.begin(), cuts.end()));

    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("prog.hp")).toStdString();
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    QVERIFY(fd >= 0);
    UpdateCollector collector;
    LiveOptions options;
    options.publishIntervalMs = 5;
    auto session = sessionOn(path, options, collector);
    QVERIFY(session);
    size_t written = 0;
    int compared = 0;
    for (const size_t cut : cuts) {
        QVERIFY(writeAll(fd, reinterpret_cast<const uint8_t*>(text.data()) + written, cut - written));
        written = cut;
        if (written < 4) // not yet known to be a .hp ("JOB ")
            continue;
        std::optional<LiveUpdate> u;
        while (!u || u->status.bytes < written) {
            u = collector.next(*session);
            QVERIFY2(u, "no update after a piece");
            QVERIFY(!isFinal(u->status.state));
        }
        QCOMPARE(u->status.bytes, uint64_t(written));
        QVERIFY(u->status.heapProfile);
        const std::string_view prefix = std::string_view(text).substr(0, written);
        const size_t settled = hpSettledEnd(prefix);
        QCOMPARE(u->status.pendingBytes, uint64_t(written - settled));
        const auto whole = loadText(prefix.substr(0, settled));
        QVERIFY(whole->scan.diagnostics.empty());
        QVERIFY(u->index->scan.diagnostics.empty());
        QCOMPARE(u->status.censuses, uint64_t(whole->heapProfile.censuses.size()));
        QCOMPARE(u->status.events, u->status.censuses);
        compareHeapProfiles(*u->index, *whole);
        ++compared;
    }
    QCOMPARE(compared, int(cuts.size()) - 1);
    // A pause in growth while the program still has it open is not the end.
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    while (std::optional<LiveUpdate> more = session->takeUpdate())
        QVERIFY(!isFinal(more->status.state));
    ::close(fd);
    const std::vector<LiveUpdate> updates = collector.untilFinal(*session);
    QVERIFY(!updates.empty());
    const LiveUpdate& last = updates.back();
    QCOMPARE(last.status.state, LiveState::Ended);
    QVERIFY2(last.status.message.find("the program finished writing its heap profile") != std::string::npos,
             last.status.message.c_str());
    QCOMPARE(last.status.pendingBytes, uint64_t(0));
    QVERIFY(recorded(*session) == std::vector<uint8_t>(text.begin(), text.end()));
    const auto whole = loadText(text);
    QCOMPARE(last.index->scan.truncated, killed);
    QCOMPARE(last.index->scan.diagnostics.size(), whole->scan.diagnostics.size());
    if (killed)
        QCOMPARE(last.index->scan.diagnostics.front().kind, DiagnosticKind::HpIncompleteSample);
    compareHeapProfiles(*last.index, *whole);
    QCOMPARE(last.status.censuses, uint64_t(killed ? 14 : 15));
}

// `hecscope watch prog.hp`: followed as a heap profile (not "not a GHC
// eventlog"): update lines with its censuses, the end said, then the
// summary `info --json` gives for the file.
void TestLive::watchFollowsAHeapProfile()
{
    const QString hp = QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/leak-prof-hc.hp");
    const Run watched = runHecscope({QStringLiteral("watch"), hp});
    QVERIFY2(watched.exitCode == 0, watched.err.constData());
    QVERIFY2(watched.err.isEmpty(), watched.err.constData());
    QList<QByteArray> lines = watched.out.split('\n');
    QByteArray last;
    while (!lines.isEmpty() && lines.first().startsWith("{\"update\":")) {
        last = lines.takeFirst();
        QVERIFY(last.contains("\"censuses\":"));
    }
    QVERIFY2(last.contains("\"state\":\"ended\""), last.constData());
    QVERIFY(last.contains("\"events\":15,\"censuses\":15,\"bytes\":5230,"));
    QVERIFY(last.contains("the program finished writing its heap profile"));
    const Run info = runHecscope({QStringLiteral("info"), QStringLiteral("--json"), hp});
    QCOMPARE(info.exitCode, 0);
    QCOMPARE(lines.size(), 2); // (the summary, then the end of the last line)
    QCOMPARE(QJsonDocument::fromJson(lines.first()).object(), QJsonDocument::fromJson(info.out).object());
    QVERIFY(!QJsonDocument::fromJson(lines.first()).object().isEmpty());
}

QTEST_GUILESS_MAIN(TestLive)
#include "tst_live.moc"
