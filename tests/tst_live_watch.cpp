// tst_live: `hecscope watch`, keeping only the latest stretch, and heap
// profiles (.hp) being written.
#include "tst_live.h"

namespace {

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
    // Half the memory that grows with the log (the tables of counts by tag,
    // the index's and the dropped stretch's, are 512 KB each whatever the log).
    const auto growing = [](const LogIndex& x) {
        return x.memoryBytes() - (x.tagCounts.capacity() + x.dropped.tagCounts.capacity()) * sizeof(uint64_t);
    };
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
    SteppedClock clock;
    auto session = sessionOn(path, options, collector, clock.clock());
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
    // A pause in growth (1.5 s on the follower's clock) while the program
    // still has it open is not the end.
    QVERIFY2(clock.advance(std::chrono::milliseconds(1500)), "the follower stopped reading");
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
