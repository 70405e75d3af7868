// tst_live on sockets: reconnection, a record cut by a disconnect,
// another header, waiting to reconnect, control commands; and cancelling
// at any time.
#include "tst_live.h"

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
    QRandomGenerator rng(seedOf(log));
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
