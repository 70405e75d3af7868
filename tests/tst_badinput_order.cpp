// tst_badinput: capabilities' ownership and the order of events: ties,
// out-of-order and shuffled blocks, hostile orders and tiny blocks.
#include "tst_badinput.h"

// eventlog-format.md 1.7: events before any marker and in the global block
// have no capability; a block's events (the marker included) get its cap,
// up to its declared size; the record after a block has none.
void TestBadInput::capabilityOwnership()
{
    EventlogWriter w(EventlogWriter::allDeclarations());
    std::vector<uint16_t> want;
    auto put = [&](std::initializer_list<uint64_t> n, uint16_t t, uint64_t time, uint16_t cap) {
        OwnedEvent e(t, time, n);
        w.write(e.event);
        want.push_back(cap);
    };
    put({0, 2}, tag::CapsetCreate, 1, kNoCap);          // before any block
    put({0, 1700000000, 5}, tag::WallClockTime, 2, kNoCap);
    w.beginBlock(3, 10);
    want.push_back(3);                                   // the marker itself
    put({1}, tag::RunThread, 11, 3);
    put({1, 5, 0}, tag::StopThread, 12, 3);              // last of the block
    w.endBlock(13);
    put({1}, tag::CapCreate, 14, kNoCap);                // after the block
    // A block whose size covers only the first two of its three runs.
    put({24 + 14 + 14, 30, 5}, tag::BlockMarker, 20, 5);
    put({2}, tag::RunThread, 21, 5);
    put({2}, tag::RunThread, 22, 5);
    put({2}, tag::RunThread, 23, kNoCap);
    w.beginBlock(kNoCap, 40);                            // the global buffer
    want.push_back(kNoCap);
    put({0, 4096}, tag::HeapSize, 41, kNoCap);
    put({0xabc, 0, 77}, tag::TaskCreate, 42, kNoCap);
    w.endBlock(43);
    w.beginBlock(0, 50);                                 // cap 0 is a cap
    want.push_back(0);
    put({3}, tag::RunThread, 51, 0);
    w.endBlock(52);
    // An empty block: the pseudo-code of 1.7 still gives the next record
    // its cap (the cap is dropped only after a record is counted).
    put({24, 60, 6}, tag::BlockMarker, 60, 6);
    put({4}, tag::RunThread, 61, 6);
    put({4}, tag::RunThread, 62, kNoCap);
    w.writeDataEnd();

    for (const auto& chunks : kChunkings) {
        const Outcome o = decode(w.bytes(), chunks);
        QVERIFY(o.diagnostics.empty());
        QCOMPARE(o.events.size(), want.size());
        for (size_t i = 0; i < want.size(); ++i)
            QVERIFY2(o.events[i].cap == want[i],
                     qPrintable(QStringLiteral("event %1 (tag %2): cap %3, wanted %4")
                                    .arg(i).arg(o.events[i].tag).arg(o.events[i].cap).arg(want[i])));
    }
    const std::string dump = dumpBytes(w.bytes());
    for (const char* line : {"\n1: created capset 0 of type CapsetOsProcess\n", "\n11: cap 3: running thread 1\n",
                             "\n12: cap 3: stopping thread 1 (thread finished)\n", "\n14: created cap 1\n",
                             "\n22: cap 5: running thread 2\n", "\n23: running thread 2\n",
                             "\n40: event block: cap 65535, end time: 43\n\n",
                             "\n42: task 0xabc created on cap 0 with OS kernel thread 77\n",
                             "\n51: cap 0: running thread 3\n"})
        QVERIFY2(dump.find(line) != std::string::npos, line);
}

// Equal timestamps on several capabilities print in file order.
void TestBadInput::tiesKeepFileOrder()
{
    EventlogWriter w(EventlogWriter::allDeclarations());
    w.beginBlock(1, 100);
    OwnedEvent run1(tag::RunThread, 100, {1});
    OwnedEvent stop1(tag::StopThread, 100, {1, 5, 0});
    w.write(run1.event);
    w.write(stop1.event);
    w.endBlock(100);
    w.beginBlock(0, 100);
    OwnedEvent run2(tag::RunThread, 100, {2});
    w.write(run2.event);
    w.endBlock(100);
    w.beginBlock(kNoCap, 100);
    OwnedEvent capset(tag::CapsetCreate, 100, {0, 2});
    w.write(capset.event);
    w.endBlock(100);
    w.beginBlock(1, 100);
    OwnedEvent create(tag::CreateThread, 100, {3});
    w.write(create.event);
    w.endBlock(100);
    OwnedEvent early(tag::CapCreate, 99, {0}); // earlier, though last in the file
    w.write(early.event);
    w.writeDataEnd();

    const std::string want =
        "99: created cap 0\n"
        "100: cap 1: event block: cap 1, end time: 100\n\n"
        "100: cap 1: running thread 1\n"
        "100: cap 1: stopping thread 1 (thread finished)\n"
        "100: cap 0: event block: cap 0, end time: 100\n\n"
        "100: cap 0: running thread 2\n"
        "100: event block: cap 65535, end time: 100\n\n"
        "100: created capset 0 of type CapsetOsProcess\n"
        "100: cap 1: event block: cap 1, end time: 100\n\n"
        "100: cap 1: creating thread 3\n"
        "\n";
    for (unsigned threads : {1u, 4u}) {
        const std::string dump = dumpBytes(w.bytes(), false, threads);
        const size_t at = dump.find("\nEvents:\n");
        QVERIFY(at != std::string::npos);
        QCOMPARE(dump.substr(at + 9), want);
    }
}

// Blocks flushed out of time order (a cap's second block earlier than its
// first, the global block in between, times going back inside a block as
// GHC's GC_END does) print exactly as a stable sort of the file-order events
// by time.
void TestBadInput::outOfOrderBlocksAreSorted()
{
    EventlogWriter w(EventlogWriter::allDeclarations());
    uint32_t thread = 0;
    auto block = [&](uint16_t cap, std::initializer_list<uint64_t> times, uint16_t t = tag::RunThread) {
        w.beginBlock(cap, *std::min_element(times.begin(), times.end()));
        for (uint64_t time : times) {
            OwnedEvent e(cap == kNoCap ? uint16_t(tag::HeapLive) : t, time, {++thread, time});
            w.write(e.event);
        }
        w.endBlock(*std::max_element(times.begin(), times.end()));
    };
    block(0, {1000, 1010, 1010, 1100});
    block(kNoCap, {500, 1010, 1200});
    block(0, {200, 300, 1010});
    block(1, {250, 1010, 1010, 5000});
    block(1, {900, 800, 800, 700}, tag::GcEnd); // time runs backwards (stamped earlier)
    block(2, {1010});
    block(0, {1010, 1010, 6000});
    w.writeDataEnd();

    const Outcome o = decode(w.bytes());
    QVERIFY(o.diagnostics.empty());
    const std::string want = expectedDump(o);
    for (unsigned threads : {1u, 4u}) {
        const std::string dump = dumpBytes(w.bytes(), false, threads);
        QVERIFY2(dump == want, qPrintable(firstDifference(dump, want)));
    }
}

void TestBadInput::largeShuffledLogIsSorted_data()
{
    QTest::addColumn<int>("caps");
    QTest::addColumn<int>("backJumpPercent"); // blocks that start before their cap's last time
    QTest::addColumn<int>("eventsPerBlock");
    QTest::addColumn<bool>("mergeable"); // few enough runs for the k-way merge
    // Large enough (> 2 MiB) for the dump to print time slices in parallel.
    QTest::newRow("few runs") << 4 << 2 << 4000 << true;
    // More than 512 time-ordered runs: the dump sorts offsets instead.
    QTest::newRow("many runs") << 3 << 90 << 40 << false; // times fall block after block
}

void TestBadInput::largeShuffledLogIsSorted()
{
    QFETCH(int, caps);
    QFETCH(int, backJumpPercent);
    QFETCH(int, eventsPerBlock);
    QFETCH(bool, mergeable);
    QRandomGenerator rng(20240611);
    EventlogWriter w(EventlogWriter::allDeclarations());
    std::vector<uint64_t> capTime(size_t(caps) + 1, 0);
    uint32_t thread = 0;
    while (w.bytes().size() < (3u << 20)) {
        const int c = int(rng.bounded(caps + 1)); // caps = the global buffer
        const uint16_t cap = c == caps ? kNoCap : uint16_t(c);
        uint64_t& t = capTime[size_t(c)];
        if (rng.bounded(100) < backJumpPercent)
            t -= std::min<uint64_t>(t, rng.bounded(200000));
        w.beginBlock(cap, t);
        const int n = 1 + int(rng.bounded(eventsPerBlock));
        for (int i = 0; i < n; ++i) {
            t += 1000 * rng.bounded(3); // microsecond ticks: many ties
            OwnedEvent e(cap == kNoCap ? uint16_t(tag::HeapSize) : uint16_t(tag::RunThread), t, {++thread, t});
            w.write(e.event);
        }
        w.endBlock(t);
    }
    w.writeDataEnd();

    // The row exercises the path it is meant for.
    MemorySource source(w.bytes());
    const LogScan scan = scanLog(source);
    const TimeOrder order(scan);
    QCOMPARE(order.supportsRanges(), mergeable);
    QCOMPARE(!order.sliceBoundaries(2 << 20).empty(), mergeable);
    QCOMPARE(!order.sliceBoundaries(128 << 10).empty(), mergeable);

    const Outcome o = decode(w.bytes());
    QVERIFY(o.diagnostics.empty());
    const std::string want = expectedDump(o);
    for (unsigned threads : {1u, 4u}) {
        const std::string dump = dumpBytes(w.bytes(), false, threads);
        QVERIFY2(dump == want, qPrintable(firstDifference(dump, want)));
    }
}

// Orders no GHC writes, which the merge must not pay for per event: times
// that fall at every event (one run per event; outside any block, where no
// span forbids it) give up the pieces and sort 16 bytes per event; one
// timestamp shared by megabytes of events gives no useful slice boundary,
// so the dump reads one slice.
void TestBadInput::hostileOrderKeepsMemorySmall_data()
{
    QTest::addColumn<bool>("decreasing");
    QTest::newRow("every event earlier than the last") << true;
    QTest::newRow("every event at the same time") << false;
}

void TestBadInput::hostileOrderKeepsMemorySmall()
{
    QFETCH(bool, decreasing);
    EventlogWriter w(EventlogWriter::allDeclarations());
    uint64_t t = 1'000'000'000;
    uint32_t n = 0;
    if (!decreasing)
        w.beginBlock(0, t);
    while (w.bytes().size() < (3u << 20)) {
        OwnedEvent run(tag::RunThread, decreasing ? t-- : t, {++n});
        w.write(run.event);
    }
    if (!decreasing)
        w.endBlock(t);
    w.writeDataEnd();

    MemorySource source(w.bytes());
    const LogScan scan = scanLog(source);
    QVERIFY(scan.diagnostics.empty());
    QCOMPARE(scan.events, uint64_t(n) + (decreasing ? 0 : 1)); // and the block marker
    QCOMPARE(scan.ordered, !decreasing);
    QCOMPARE(scan.pieces.size(), size_t(decreasing ? 0 : 1));
    QVERIFY(scan.checkpoints.size() < 100);
    const TimeOrder order(scan);
    QCOMPARE(order.supportsRanges(), !decreasing);
    QVERIFY(order.sliceBoundaries(128 << 10).empty()); // 48 checkpoints, none a cut

    const Outcome o = decode(w.bytes());
    QVERIFY(o.diagnostics.empty());
    const std::string want = expectedDump(o);
    for (unsigned threads : {1u, 4u}) {
        const std::string dump = dumpBytes(w.bytes(), false, threads);
        QVERIFY2(dump == want, qPrintable(firstDifference(dump, want)));
    }
}

// One event per block, capabilities alternating, times rising: every event
// would be a piece of its own (56 bytes of bookkeeping for ~40 bytes of
// log), so the scan gives up pieces for the 16-byte sort.
void TestBadInput::tinyBlocksGiveUpPieces()
{
    EventlogWriter w(EventlogWriter::allDeclarations());
    uint64_t t = 1000;
    uint32_t n = 0;
    while (w.bytes().size() < (1u << 20)) {
        const uint16_t cap = uint16_t(n % 3);
        w.beginBlock(cap, t);
        OwnedEvent run(tag::RunThread, t, {++n});
        w.write(run.event);
        w.endBlock(t);
        t += 10;
    }
    w.writeDataEnd();
    MemorySource source(w.bytes());
    const LogScan scan = scanLog(source);
    QVERIFY(!scan.ordered);
    QVERIFY(scan.pieces.empty());
    const Outcome o = decode(w.bytes());
    const std::string want = expectedDump(o);
    const std::string dump = dumpBytes(w.bytes(), false, 2);
    QVERIFY2(dump == want, qPrintable(firstDifference(dump, want)));
}
