// Live sources on real logs: a file that grows (appends of every size),
// shrinks or is replaced; a socket served the way ghc-eventlog-socket serves
// it, in random-size chunks, disconnecting and re-sending the header on every
// new connection; control commands; cancelling at any time. The final index
// must equal a one-shot load of the same bytes, and the recording must be the
// log itself.
#include "tst_live.h"

namespace livetest {

std::unique_ptr<LiveSession> sessionOn(const std::string& text, LiveOptions options, UpdateCollector& collector,
                                       LiveClock clock)
{
    std::string error;
    const std::optional<SourceAddress> address = parseSourceAddress(text, error);
    if (!address)
        return nullptr;
    std::unique_ptr<LiveSource> source = openLiveSource(*address, error, std::move(clock));
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

QString threadsLog()
{
    return QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/threads-N2.eventlog");
}

} // namespace livetest

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
        QRandomGenerator rng(seedOf(log));
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
    // Every update's thread segments (sharing chunks the session's builder
    // went on appending to) are still those of an index of the bytes it
    // had, now that the session is over.
    size_t compared = 0;
    for (size_t u = 0; u + 1 < updates.size(); u += std::max<size_t>(1, updates.size() / 16)) {
        const LiveUpdate& up = updates[u];
        if (up.status.bytes < 1000)
            continue;
        IndexBuilder fresh;
        fresh.feed(std::span(bytes).first(size_t(up.status.bytes)));
        const ThreadStates &x = up.index->threadStates, &y = fresh.publish(false).threadStates;
        const QString where = QStringLiteral("update %1 (%2 bytes)").arg(u).arg(up.status.bytes);
        QVERIFY2(x.ids == y.ids, qPrintable(where));
        for (size_t k = 0; k < x.count(); ++k) {
            QVERIFY2(x.of(k).size() == y.of(k).size(), qPrintable(where));
            for (size_t i = 0; i < x.of(k).size(); ++i)
                QVERIFY2(x.of(k)[i] == y.of(k)[i], qPrintable(where + QStringLiteral(", thread %1 segment %2").arg(x.ids[k]).arg(i)));
        }
        compared += x.segmentCount() > 0;
    }
    QVERIFY(compared >= (maxChunk == 64 ? 3u : 1u)); // (1-byte appends: many updates)
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
    SteppedClock clock;
    auto session = sessionOn(path, {}, collector, clock.clock());
    QVERIFY(session);
    std::optional<LiveUpdate> u;
    while (!u || u->status.bytes < bytes.size() / 2) {
        u = collector.next(*session);
        QVERIFY2(u, "no update with the first half");
    }
    // While the writer keeps it open, a pause in growth (1.5 s on the
    // follower's clock) does not end it.
    QVERIFY2(clock.advance(std::chrono::milliseconds(1500)), "the follower stopped reading");
    while (std::optional<LiveUpdate> more = session->takeUpdate())
        u = std::move(more);
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

// The threads of this process (Linux: /proc/self/task) and each one's
// nice value (the 19th field of its stat, after the name in parentheses).
static std::map<int, int> threadNiceValues()
{
    std::map<int, int> out;
    for (const QString& tid : QDir(QStringLiteral("/proc/self/task")).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QFile stat(QStringLiteral("/proc/self/task/%1/stat").arg(tid));
        if (!stat.open(QIODevice::ReadOnly))
            continue; // ended meanwhile
        const QByteArray text = stat.readAll();
        const QList<QByteArray> fields = text.mid(text.lastIndexOf(')') + 2).split(' ');
        if (fields.size() > 16)
            out[tid.toInt()] = fields[16].toInt(); // field 19 of the whole line
    }
    return out;
}

// LiveOptions::niceIncrement: the session's thread runs that many steps
// below the thread that started it (the window's sessions: as its jobs),
// and the starting thread keeps its own.
void TestLive::sessionThreadRunsNicer()
{
    const std::vector<uint8_t> bytes = readFile(threadsLog());
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("log.eventlog")).toStdString();
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const auto closeIt = qScopeGuard([fd] { ::close(fd); });
    QVERIFY(writeAll(fd, bytes.data(), bytes.size() / 2)); // kept open: the session follows it
    errno = 0;
    const int mine = getpriority(PRIO_PROCESS, 0);
    QCOMPARE(errno, 0);
    QVERIFY2(mine + 3 <= 19, "run below nice 17: three steps more must be possible to be seen");
    const std::map<int, int> before = threadNiceValues();
    QVERIFY(before.count(int(gettid())) && before.at(int(gettid())) == mine); // the reading works
    UpdateCollector collector;
    SteppedClock clock;
    LiveOptions options;
    options.niceIncrement = 3;
    auto session = sessionOn(path, options, collector, clock.clock());
    QVERIFY(session);
    QVERIFY2(collector.next(*session), "no update");
    int started = 0;
    for (const auto& [tid, nice] : threadNiceValues())
        if (!before.count(tid)) {
            ++started;
            QCOMPARE(nice, mine + 3);
        }
    QVERIFY(started >= 1);
    QCOMPARE(getpriority(PRIO_PROCESS, 0), mine);
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
    // Each thread's segments, or its summary (segments in the file).
    QVERIFY(x.segmentCount() > 0 || !x.summarised.empty());
    QVERIFY(x.summarised == y.summarised);
    QVERIFY(x.wholeRun == y.wholeRun);
    QVERIFY(x.overviewKeys == y.overviewKeys);
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
    // The session says it waits before the writer comes.
    const std::optional<LiveUpdate> waiting = collector.next(*session);
    QVERIFY(waiting);
    QCOMPARE(waiting->status.state, LiveState::Waiting);
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

QTEST_GUILESS_MAIN(TestLive)
