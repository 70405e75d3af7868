// tst_index: what spills to files (thread segments, sorted runs,
// checkpoints, capability spans), reading it back or the log again, and
// the detail store.
#include "tst_index.h"

namespace {

// A growing log's snapshot: its threads' settled segments (in the chunks
// it shares with its builder, the rest in its tail), and how many chunks
// hold them.
size_t settledSegments(const ThreadStates& states)
{
    return states.segmentCount() - states.tail.size();
}
size_t settledChunks(const ThreadStates& states)
{
    size_t chunks = 0;
    for (size_t k = 0; k < states.count(); ++k) {
        const size_t settled = size_t(states.offsets[k + 1] - states.offsets[k])
            - size_t(states.tailOffsets[k + 1] - states.tailOffsets[k]);
        chunks += (settled + SegmentChunks::kChunk - 1) / SegmentChunks::kChunk;
    }
    return chunks;
}

// The spill file of this process (unlinked: "/…/hecscope-spill-XXXXXX
// (deleted)" under /proc/self/fd), or -1.
// (Of `size` bytes, if not 0.)
int openSpillFile(uint64_t size = 0)
{
    const QDir fds(QStringLiteral("/proc/self/fd"));
    for (const QString& name : fds.entryList(QDir::NoDotAndDotDot | QDir::System | QDir::Files)) {
        const QString target = QFileInfo(fds.filePath(name)).symLinkTarget();
        struct stat st {};
        if (target.contains(QLatin1String("hecscope-spill-"))
            && (size == 0 || (::fstat(name.toInt(), &st) == 0 && uint64_t(st.st_size) == size)))
            return name.toInt();
    }
    return -1;
}

// Feeds `bytes` and makes the final seal with the process's files limited
// to `limit` bytes (as a full disk would be: a write past it fails with
// EFBIG). False if the limit could not be set.
bool sealUnderFileSizeLimit(IndexBuilder& builder, const std::vector<uint8_t>& bytes, rlim_t limit, bool& sealed)
{
    rlimit old{};
    if (::getrlimit(RLIMIT_FSIZE, &old) != 0)
        return false;
    const auto oldHandler = std::signal(SIGXFSZ, SIG_IGN);
    rlimit small = old;
    small.rlim_cur = limit;
    if (::setrlimit(RLIMIT_FSIZE, &small) != 0)
        return false;
    builder.feed(bytes);
    sealed = builder.publish(true, nullptr);
    ::setrlimit(RLIMIT_FSIZE, &old);
    std::signal(SIGXFSZ, oldHandler);
    return true;
}

} // namespace

// A load's settled thread segments that fill a chunk go to a temporary
// file as they do: a snapshot taken on the way reads them back, and the
// final seal reads them thread by thread. Both equal what a load that
// keeps every event in memory makes at the same point: the snapshot every
// segment, the final index every part (the segments left in the file).
void TestIndex::settledSegmentsSpillToAFile()
{
    const std::vector<uint8_t> bytes = synthesizeThreadsLog(4, 40000, 2);
    const size_t half = bytes.size() / 2;
    IndexBuilder spilling, keeping;
    spilling.settleThreadEventsEvery(4096);
    keeping.settleThreadEventsEvery(0);
    spilling.feed(std::span(bytes).first(half));
    keeping.feed(std::span(bytes).first(half));
    const LogIndex a = spilling.publish(false), b = keeping.publish(false);
    QVERIFY(spilling.threadSegmentsSpilled() > 0); // (else this log does not test it; counted once the walks are done)
    QVERIFY(!spilling.threadEventsLost());
    QCOMPARE(a.threadStates.segmentCount(), b.threadStates.segmentCount());
    compareThreadParts(a, b);
    spilling.feed(std::span(bytes).subspan(half));
    QVERIFY(spilling.publish(true, nullptr));
    QVERIFY(!spilling.threadEventsLost());
    QVERIFY(spilling.threadSegmentsSpilled() >= bytes.size() / 4); // (3.5 MB of 7.9)
    const auto raw = loadWith(bytes, KeepInMemory{false, true});
    compareIndexes(spilling.index(), *raw);
    compareThreadParts(spilling.index(), *raw);
    QVERIFY(raw->threadStates.segmentsInFile && raw->threadStates.summarised.size() == 4);
    // The snapshot is untouched by what came after it.
    compareThreadParts(a, b);
}

// A spill file that cannot take more (here the process's file size limit,
// as a full disk would) keeps what it took: the rest of the segments stay
// in memory and the index is the same.
void TestIndex::aSpillFileThatFillsUpKeepsTheRestInMemory()
{
    const std::vector<uint8_t> bytes = synthesizeThreadsLog(4, 40000, 2);
    IndexBuilder builder;
    builder.settleThreadEventsEvery(4096);
    bool sealed = false;
    QVERIFY(sealUnderFileSizeLimit(builder, bytes, 3 * 128 * 1024, sealed)); // twelve chunks
    QVERIFY(sealed);
    QVERIFY(!builder.threadEventsLost());
    QCOMPARE(builder.threadSegmentsSpilled(), uint64_t(3 * 128 * 1024));
    const auto raw = loadWith(bytes, KeepInMemory{false, true});
    compareIndexes(builder.index(), *raw);
    compareThreadParts(builder.index(), *raw);
}

// A spill file cut short under the builder (as a failing disk would): the
// final seal cannot read a thread back, says the thread events are lost,
// and the loader would read the log again (as
// aLateCapabilityWithoutRunsReadsTheLogAgain shows it does).
void TestIndex::aSpillFileThatCannotBeReadReadsTheLogAgain()
{
    const std::vector<uint8_t> bytes = synthesizeThreadsLog(4, 40000, 2);
    QCOMPARE(openSpillFile(), -1); // (no other builder's left open: the one found below is this one's)
    IndexBuilder builder;
    builder.settleThreadEventsEvery(4096);
    builder.feed(bytes);
    const LogIndex half = builder.publish(false); // (a snapshot reads chunks back: still all there)
    QVERIFY(!builder.threadEventsLost());
    QVERIFY(builder.threadSegmentsSpilled() > 0);
    // (The segments' file: the one of their size, not the runs that
    // insure the events walked, nor the capability spans'.)
    const int fd = openSpillFile(builder.threadSegmentsSpilled());
    QVERIFY(fd >= 0);
    QVERIFY(::ftruncate(fd, 1000) == 0);
    QVERIFY(!builder.publish(true, nullptr));
    QVERIFY(builder.threadEventsLost());
}

// A late capability's events (aLateCapabilityAfterSettlingIsMergedFromItsRuns)
// when the runs that insure the events walked could not be written (the
// process may write no file: a full disk): the builder says the thread
// events are lost, and a load reads the log again, declining to settle
// (its runs cannot be written either: they stay in memory). The index is
// the one a load keeping every event makes.
void TestIndex::aLateCapabilityWithoutRunsReadsTheLogAgain()
{
    const std::vector<uint8_t> bytes = lateCapabilityLog();
    const auto raw = loadWith(bytes, KeepInMemory{false, true});
    IndexBuilder builder;
    builder.settleThreadEventsEvery(8, 0);
    bool sealed = true;
    QVERIFY(sealUnderFileSizeLimit(builder, bytes, 0, sealed));
    QVERIFY(!sealed);
    QVERIFY(builder.threadEventsLost());
    QVERIFY(!builder.threadEventsMergedFromInsurance());
    rlimit old{};
    QVERIFY(::getrlimit(RLIMIT_FSIZE, &old) == 0);
    const auto oldHandler = std::signal(SIGXFSZ, SIG_IGN);
    rlimit none = old;
    none.rlim_cur = 0;
    QVERIFY(::setrlimit(RLIMIT_FSIZE, &none) == 0);
    const auto again = loadWith(bytes, KeepInMemory{false, false, 8, 0});
    ::setrlimit(RLIMIT_FSIZE, &old);
    std::signal(SIGXFSZ, oldHandler);
    compareIndexes(*again, *raw);
    compareThreadParts(*again, *raw);
}

// A run file that fills up keeps the events it could not take in memory
// (the index is the same); one cut short under the builder makes the seal
// say the events are lost, so that the loader reads the log again.
void TestIndex::runsThatCannotBeWrittenOrReadLoseNothing()
{
    const std::vector<uint8_t> bytes = synthesizeSchedulerLog(size_t(8) << 20, 2, 7);
    const auto raw = loadWith(bytes, KeepInMemory{false, true});
    {
        constexpr rlim_t kLimit = 1 << 20; // (about half the runs: 2.25 MB as written)
        IndexBuilder builder;
        builder.settleThreadEventsEvery(4096, 256, 5000);
        bool sealed = false;
        QVERIFY(sealUnderFileSizeLimit(builder, bytes, kLimit, sealed));
        QVERIFY(sealed);
        QVERIFY(!builder.threadEventsLost());
        // Full: the next run (at most 5,000 + 4,095 events, at most 20
        // bytes each as written) did not fit.
        const uint64_t inRuns = builder.threadRunBytes();
        QVERIFY(builder.threadEventsInRuns() > 0);
        QVERIFY2(inRuns <= kLimit && inRuns + 9095 * 20 > kLimit, qPrintable(QString::number(inRuns)));
        compareIndexes(builder.index(), *raw);
        compareThreadParts(builder.index(), *raw);
    }
    IndexBuilder builder;
    builder.settleThreadEventsEvery(4096, 256, 5000);
    builder.feed(bytes);
    const LogIndex snapshot = builder.publish(false); // (the last run written: the seal waits for it)
    QVERIFY(builder.threadEventsInRuns() > 0);
    // (The run file is the one of exactly the runs' size: the capability
    // spans may have a spill file of their own.)
    const int fd = openSpillFile(builder.threadRunBytes());
    QVERIFY(fd >= 0);
    QVERIFY(::ftruncate(fd, 1000) == 0);
    QVERIFY(!builder.publish(true, nullptr));
    QVERIFY(builder.threadEventsLost());
    // (And a load of it would read it again: loadIndex does on threadEventsLost,
    // as aLateCapabilityWithoutRunsReadsTheLogAgain shows.)
}

// A load's final seal over sorted runs bins each thread of a pyramid as
// the merge gives it, and its segments wait for the checkpoint entries in
// a file of their own, not in memory: the index is the one a load keeping
// every event makes. A file that fills up (the process's file size limit,
// as a full disk) keeps its last buffer in memory, and the threads after
// it stay in memory until their entries are made: the same index again.
// Both for many short threads and for a few long ones (whose segments are
// written as they are, not through the buffer; runs forced: such a log
// settles).
void TestIndex::threadsOfRunsBinnedAsMerged()
{
    // Sealed over runs of `runEvents` (settles every `every` events,
    // declined below `perThread` events a thread), under a file size limit
    // if given: the threads binned so, and the index the same as `raw`.
    const auto sealOverRuns = [](const std::vector<uint8_t>& bytes, size_t every, size_t perThread, size_t runEvents,
                                 rlim_t limit, const LogIndex& raw, uint64_t& binned) {
        IndexBuilder builder;
        builder.settleThreadEventsEvery(every, perThread, runEvents);
        bool sealed = false;
        if (limit) {
            QVERIFY(sealUnderFileSizeLimit(builder, bytes, limit, sealed));
        } else {
            builder.feed(bytes);
            sealed = builder.publish(true, nullptr);
        }
        QVERIFY(sealed);
        QVERIFY(builder.threadEventsInRuns() > 0);
        QVERIFY(!builder.threadEventsLost());
        binned = builder.threadsBinnedAsMerged();
        compareIndexes(builder.index(), raw);
        compareThreadParts(builder.index(), raw);
    };
    // `threads` threads of `runs` runs each, every run blocked with an info
    // (as on a black hole), and every 5 runs blocked for 5 s: longer than a
    // packed segment's time offset reaches (far times). The checkpoint
    // entries are the segments in force over those 5 s: blocked, with an
    // info, and some far from their thread's check time.
    const auto farLog = [](uint64_t threads, int runs) {
        std::deque<OwnedEvent> events;
        uint64_t t = 1000;
        using Fields = std::initializer_list<uint64_t>;
        for (uint64_t k = 1; k <= threads; ++k)
            events.emplace_back(tag::CreateThread, t++, Fields{k});
        for (int i = 0; i < runs; ++i) {
            const bool last = i == runs - 1, beforeGap = i % 5 == 4;
            for (uint64_t k = 1; k <= threads; ++k) {
                if (i > 0 && i % 5 == 0)
                    events.emplace_back(tag::ThreadWakeup, t - 5, Fields{k, 0}); // (after the gap)
                events.emplace_back(tag::RunThread, t, Fields{k});
                events.emplace_back(tag::StopThread, t + 10, last ? Fields{k, 5, 0} : Fields{k, 7, 100 + k});
                if (!last && !beforeGap)
                    events.emplace_back(tag::ThreadWakeup, t + 15, Fields{k, 0});
                t += 20;
            }
            if (beforeGap)
                t += 5'000'000'000;
        }
        LogBuilder log;
        log.block(0, events);
        return log.bytes();
    };
    struct Case {
        const char* name;
        std::vector<uint8_t> bytes;
        size_t every, perThread, runEvents;
        uint64_t summarised; // at least
    };
    const Case cases[] = {
        {"long threads", synthesizeThreadsLog(8, 20000, 2), 4096, size_t(1) << 30, 5000, 8},
        {"short threads", synthesizeSchedulerLog(size_t(8) << 20, 2, 7), 4096, 256, 5000, 100},
        {"far times and infos", farLog(3, 100), 37, size_t(1) << 30, 50, 3},
        // (Kept whole: under 64 segments a thread, so their far times and
        // infos are the index's own, not a binned thread's file's.)
        {"far times and infos of short threads", farLog(12, 12), 37, size_t(1) << 30, 50, 0},
    };
    // (1 MB a file: the runs fit, encoded; the binned threads' segments
    // take more: each long thread's about 480 KB.)
    constexpr rlim_t kLimit = 1 << 20;
    for (const Case& c : cases) {
        const auto raw = loadWith(c.bytes, KeepInMemory{false, true});
        const uint64_t summarised = raw->threadStates.summarised.size();
        QVERIFY2(summarised >= c.summarised, c.name);
        uint64_t binned = 0;
        sealOverRuns(c.bytes, c.every, c.perThread, c.runEvents, 0, *raw, binned);
        if (QTest::currentTestFailed())
            QFAIL(c.name);
        QCOMPARE(binned, summarised);
        if (c.bytes.size() < 2 * kLimit)
            continue;
        sealOverRuns(c.bytes, c.every, c.perThread, c.runEvents, kLimit, *raw, binned);
        if (QTest::currentTestFailed())
            QFAIL(qPrintable(QStringLiteral("%1, a file size limit").arg(c.name)));
        QVERIFY2(binned > 0 && binned < summarised, qPrintable(QStringLiteral("%1: %2 of %3").arg(c.name).arg(binned).arg(summarised)));
    }
    // (The far times and infos are there to be binned, and the entries
    // made from them.)
    const auto raw = loadWith(cases[2].bytes, KeepInMemory{true});
    QVERIFY(!raw->threadStates.farTimes.empty() && !raw->threadStates.infos.empty());
    const ThreadCheckpoints& cp = raw->threadCheckpoints;
    bool farEntry = false, infoEntry = false;
    for (size_t k = 0; k < raw->threadStates.count(); ++k) {
        const SegmentView segs = raw->threadStates.of(k);
        for (uint64_t e = cp.entryOffsets[k]; e < cp.entryOffsets[k + 1]; ++e) {
            const ThreadSegment s = cp.entry(e);
            infoEntry = infoEntry || s.info != 0;
            const size_t i = ThreadStates::firstEndingAfter(segs, s.time);
            farEntry = farEntry || segs.packedAt(i).offset == PackedSegment::kFar;
        }
    }
    QVERIFY(farEntry && infoEntry);
}

// A final index's checkpoint entries (their segments and checkpoint
// numbers) are in a temporary file, mapped back chunk by chunk (not counted
// in memory): the same entries as ones made in memory. On a synthesized
// log as loaded, and on one thread of 40,000 wake-ups 1 us apart with a
// checkpoint every 1,024 ns (made here: no capability's stream to widen
// the spacing), an entry each, so that the numbers fill a chunk too.
void TestIndex::checkpointEntriesAreMappedFromAFile()
{
    const auto fullChunks = [](const ThreadCheckpoints& cp) {
        return cp.entrySegments.size() / EntrySegments::kChunk * EntrySegments::kChunk * sizeof(PackedSegment)
            + cp.entryChecks.size() / EntryChecks::kChunk * EntryChecks::kChunk * sizeof(uint16_t);
    };
    // `made` (to a file) against the same made in memory.
    const auto compare = [&](const ThreadCheckpoints& made, const ThreadStates& states, ThreadCheckpoints inMemory) {
        inMemory.makeThreadEntries(states, false);
        QCOMPARE(inMemory.mappedBytes(), size_t(0));
        QCOMPARE(made.mappedBytes(), fullChunks(made));
        QCOMPARE(inMemory.memoryBytes(), made.memoryBytes() + made.mappedBytes());
        QCOMPARE(inMemory.spacing, made.spacing);
        QVERIFY(inMemory.entryOffsets == made.entryOffsets);
        QCOMPARE(inMemory.entrySegments.size(), made.entrySegments.size());
        for (uint64_t e = 0; e < made.entrySegments.size(); ++e)
            QVERIFY2(made.entryChecks[e] == inMemory.entryChecks[e] && made.entry(e) == inMemory.entry(e),
                     qPrintable(QString::number(e)));
    };
    const std::vector<uint8_t> bytes = synthesizeSchedulerLog(size_t(24) << 20, 2, 7);
    const auto ix = loadWith(bytes, KeepInMemory{true});
    const ThreadCheckpoints& loaded = ix->threadCheckpoints;
    QVERIFY2(loaded.entrySegments.size() > 2 * EntrySegments::kChunk,
             qPrintable(QString::number(loaded.entrySegments.size())));
    compare(loaded, ix->threadStates, loaded);
    if (QTest::currentTestFailed())
        return;

    std::deque<OwnedEvent> events;
    events.emplace_back(tag::CreateThread, 1000, std::initializer_list<uint64_t>{1});
    for (uint64_t i = 1; i <= 40000; ++i)
        events.emplace_back(tag::ThreadWakeup, 1000 + i * 1024, std::initializer_list<uint64_t>{1, 0});
    LogBuilder b;
    b.block(0, events);
    const auto one = loadWith(b.bytes(), KeepInMemory{true});
    ThreadCheckpoints made;
    made.makeThreadEntries(one->threadStates, true);
    QCOMPARE(made.spacing, ThreadCheckpoints::kFirstSpacing);
    QVERIFY2(made.entryChecks.size() > EntryChecks::kChunk, qPrintable(QString::number(made.entryChecks.size())));
    compare(made, one->threadStates, ThreadCheckpoints{});
}

void TestIndex::aSpillFileReadsBackWhatItWrote()
{
    SpillFile file;
    QVERIFY2(file.open(), file.error().c_str());
    std::vector<uint32_t> one(100000), two(3);
    std::iota(one.begin(), one.end(), 7u);
    std::iota(two.begin(), two.end(), 1u);
    uint64_t at1 = 1, at2 = 0;
    QVERIFY(file.append(one.data(), one.size() * 4, at1) && file.append(two.data(), two.size() * 4, at2));
    QCOMPARE(at1, uint64_t(0));
    QCOMPARE(at2, uint64_t(400000));
    std::vector<uint32_t> back(one.size());
    QVERIFY(file.read(at2, back.data(), 12) && std::equal(two.begin(), two.end(), back.begin()));
    QVERIFY(file.read(at1, back.data(), 400000) && back == one);
    QVERIFY(!file.read(at2, back.data(), 16)); // past its end
    QCOMPARE(file.size(), uint64_t(400012));
}

// What SpillFile::map gives reads what was written there: in a window
// mapped before the bytes were written (the window reaches past the end),
// in the next window, across two windows, at any offset; still after the
// file is gone, and after its pages are let go.
void TestIndex::aSpillFileMapsWhatItWrote()
{
    constexpr size_t kPiece = 64 * 1024;
    const size_t pieces = SpillFile::kWindow / kPiece + 3; // into the second window
    std::vector<std::shared_ptr<const void>> views;
    std::vector<uint64_t> offsets;
    const auto fill = [](size_t i) {
        std::vector<uint32_t> v(kPiece / 4);
        std::iota(v.begin(), v.end(), uint32_t(i * 100000));
        return v;
    };
    {
        SpillFile file;
        QVERIFY2(file.open(), file.error().c_str());
        for (size_t i = 0; i < pieces; ++i) {
            const std::vector<uint32_t> v = fill(i);
            uint64_t at = 0;
            QVERIFY(file.append(v.data(), kPiece, at));
            offsets.push_back(at);
            views.push_back(file.map(at, kPiece));
            QVERIFY(views.back());
            QVERIFY(std::memcmp(views.back().get(), v.data(), kPiece) == 0);
        }
        // Across the first two windows.
        const uint64_t across = SpillFile::kWindow - kPiece;
        auto both = file.map(across, 2 * kPiece);
        QVERIFY(both);
        QVERIFY(std::memcmp(both.get(), fill(across / kPiece).data(), kPiece) == 0);
        QVERIFY(std::memcmp(static_cast<const char*>(both.get()) + kPiece, fill(across / kPiece + 1).data(), kPiece) == 0);
        // Anywhere, not only at a page: within a window, and across two.
        const auto inside = file.map(4100, 100);
        QVERIFY(inside);
        QVERIFY(std::memcmp(inside.get(), fill(0).data() + 4100 / 4, 100) == 0);
        const uint64_t straddle = SpillFile::kWindow - 6;
        const auto split = file.map(straddle, 12);
        QVERIFY(split);
        const std::vector<uint32_t> before = fill(straddle / kPiece), after = fill(straddle / kPiece + 1);
        QVERIFY(std::memcmp(split.get(), reinterpret_cast<const char*>(before.data()) + kPiece - 6, 6) == 0);
        QVERIFY(std::memcmp(static_cast<const char*>(split.get()) + 6, after.data(), 6) == 0);
        SpillFile::releasePages(split.get(), 12); // (not at a page either: the pages it touches)
        QVERIFY(std::memcmp(static_cast<const char*>(split.get()) + 6, after.data(), 6) == 0);
        QVERIFY(!file.map(file.size() - kPiece, 2 * kPiece)); // past what was written
    }
    for (size_t i = 0; i < pieces; ++i)
        QVERIFY(std::memcmp(views[i].get(), fill(i).data(), kPiece) == 0);
}

// A live session's builder (releaseSettledThreadEvents) writes every
// settled segment to its spill file and maps the chunks back from there in
// their place, full or not: every snapshot reads the same segments as a
// builder that keeps them in memory, without counting them as the index's
// memory (its other arrays are the same), and stays as it was while the
// session goes on. Each snapshot's whole-run totals of its threads with
// segments in the file (ThreadStates::followed, counted as the segments
// settled) are what a walk of its segments counts.
void TestIndex::aLiveSessionsSpilledSegmentsAreMappedNotCopied()
{
    const std::vector<uint8_t> bytes = synthesizeThreadsLog(4, 40000, 2);
    IndexBuilder live, keeping;
    live.releaseSettledThreadEvents();
    const size_t step = bytes.size() / 8 + 1;
    std::vector<std::pair<LogIndex, LogIndex>> snapshots;
    size_t mapped = 0, followedMost = 0;
    for (size_t at = 0; at < bytes.size(); at += step) {
        const auto piece = std::span(bytes).subspan(at, std::min(step, bytes.size() - at));
        live.feed(piece);
        keeping.feed(piece);
        if (at + step >= bytes.size())
            break;
        LogIndex a = live.publish(false), b = keeping.publish(false);
        QVERIFY(!live.threadEventsLost());
        compareThreadParts(a, b);
        const ThreadStates& states = a.threadStates;
        QCOMPARE(states.followedTotals.size(), states.followed.size());
        followedMost = std::max(followedMost, states.followed.size());
        for (size_t i = 0; i < states.followed.size(); ++i) {
            const ThreadTotals walked = threadTotals(states, states.followed[i], 0, UINT64_MAX);
            QVERIFY(walked.runs > 0);
            QVERIFY2(states.followedTotals[i] == walked, qPrintable(QStringLiteral("thread %1").arg(states.ids[states.followed[i]])));
            QVERIFY(states.wholeRunOf(states.followed[i]) == walked);
        }
        QVERIFY(b.threadStates.followed.empty());
        QCOMPARE(b.threadStates.mappedBytes(), size_t(0));
        // (Both snapshots' settled segments in the chunks they share with
        // their builders: the live one's mapped, the other's in memory.)
        QVERIFY(states.chunked.empty() && b.threadStates.chunked.empty());
        QCOMPARE(states.sharedInMemory, size_t(0)); // (every settled segment mapped)
        const size_t settled = settledSegments(states);
        QCOMPARE(settledSegments(b.threadStates), settled);
        QVERIFY(b.threadStates.sharedInMemory >= settled * sizeof(PackedSegment));
        QCOMPARE(states.sharedChunks.size(), settledChunks(states));
        QVERIFY(states.sharedOwners.size() < states.sharedChunks.size() || settled == 0); // (a mapping holds many)
        QCOMPARE(states.memoryBytes() - states.followedBytes() - states.sharedBytes(),
                 b.threadStates.memoryBytes() - b.threadStates.sharedBytes());
        QCOMPARE(states.mappedBytes(), settled * sizeof(PackedSegment));
        mapped = std::max(mapped, states.mappedBytes());
        snapshots.emplace_back(std::move(a), std::move(b));
    }
    QVERIFY(mapped > 0); // (else this log does not test it)
    QVERIFY(live.threadSegmentsSpilled() >= mapped); // (each settled segment written once; a snapshot maps those before it)
    QCOMPARE(followedMost, size_t(4)); // (each of the 4 threads, once it has settled segments)
    QVERIFY(live.publish(true, nullptr));
    QVERIFY(!live.threadEventsLost());
    QCOMPARE(live.index().threadStates.mappedBytes(), size_t(0));
    QVERIFY(live.index().threadStates.followed.empty()); // (the final index keeps its summarised threads' totals)
    const auto raw = loadWith(bytes, KeepInMemory{false, true});
    compareIndexes(live.index(), *raw);
    compareThreadParts(live.index(), *raw);
    for (const auto& [a, b] : snapshots)
        compareThreadParts(a, b);
}

// A live session of thousands of threads, each with a few hundred
// segments (none fills a 4,096-segment chunk): every snapshot keeps none
// of their settled segments in memory (each thread's place in the spill
// file, mapped), reads what a builder that keeps them all in memory reads,
// and its whole-run figures are those of the walked segments. The final
// index's figures, segments and checkpoints are a load's (its pyramids
// grow from its snapshots', as a session's do).
void TestIndex::aLiveSessionOfManyThreadsKeepsNoSegmentInMemory()
{
    // (Blocks of 2 MiB a capability: a piece of 2 MB moves the bound.)
    const std::vector<uint8_t> bytes = synthesizeSchedulerLog(size_t(16) << 20, 2, 3);
    IndexBuilder live, keeping;
    live.releaseSettledThreadEvents();
    const size_t step = bytes.size() / 8 + 1;
    size_t mostThreads = 0, mostMapped = 0;
    std::vector<std::pair<LogIndex, LogIndex>> snapshots;
    size_t at = 0;
    for (; at + step < bytes.size(); at += step) {
        const auto piece = std::span(bytes).subspan(at, step);
        live.feed(piece);
        keeping.feed(piece);
        LogIndex a = live.publish(false), b = keeping.publish(false);
        QVERIFY(!live.threadEventsLost());
        compareThreadParts(a, b);
        const ThreadStates& states = a.threadStates;
        const size_t settled = settledSegments(states);
        QCOMPARE(states.sharedInMemory, size_t(0));
        QCOMPARE(states.sharedChunks.size(), settledChunks(states));
        QCOMPARE(states.mappedBytes(), settled * sizeof(PackedSegment));
        QVERIFY(b.threadStates.sharedInMemory >= settled * sizeof(PackedSegment)); // (the builder that keeps them: in memory)
        for (size_t i = 0; i < states.followed.size(); i += 37) {
            const ThreadTotals walked = threadTotals(states, states.followed[i], 0, UINT64_MAX);
            QVERIFY2(states.followedTotals[i] == walked, qPrintable(QStringLiteral("thread %1").arg(states.ids[states.followed[i]])));
        }
        mostThreads = std::max(mostThreads, states.count());
        mostMapped = std::max(mostMapped, states.mappedBytes());
        snapshots.emplace_back(std::move(a), std::move(b));
    }
    QVERIFY2(mostThreads > 1000, qPrintable(QString::number(mostThreads))); // (else this log does not test it)
    QVERIFY(mostMapped > 0);
    live.feed(std::span(bytes).subspan(at));
    QVERIFY(live.publish(true, nullptr));
    QVERIFY(!live.threadEventsLost());
    QCOMPARE(live.index().threadStates.mappedBytes(), size_t(0));
    const auto raw = loadWith(bytes, KeepInMemory{false, true});
    compareIndexes(live.index(), *raw);
    // (Not compareThreadParts: a session's final seal keeps growing the
    // pyramids its snapshots had, which a load shapes from the whole run.)
    const ThreadStates &x = live.index().threadStates, &y = raw->threadStates;
    QVERIFY(x.ids == y.ids && x.summarised == y.summarised && x.wholeRun == y.wholeRun);
    for (size_t k = 0; k < x.count(); ++k) {
        const SegmentView sx = x.of(k), sy = y.of(k);
        QVERIFY(std::equal(sx.begin(), sx.end(), sy.begin(), sy.end()));
    }
    QVERIFY(live.index().threadCheckpoints.entryOffsets == raw->threadCheckpoints.entryOffsets);
    for (const auto& [a, b] : snapshots)
        compareThreadParts(a, b); // (what they read has not changed since)
}

// A live session whose spill file fills up as its threads' segments go
// there (a file-size limit stands in for a full disk; the first of the
// file's 8 MB windows has its room, the next cannot): the write that fails
// makes the builder say it lost thread events (the session then reads its
// recording again), and nothing reads a page of the file that was not
// written (past the file's end, that would stop the process with SIGBUS),
// however much more comes: every seal after fails before it walks
// (ThreadStatesBuilder::seal). What the snapshots before showed is
// unchanged.
void TestIndex::aLiveSessionsSpillFileThatFillsUpLosesTheEvents()
{
    const std::vector<uint8_t> bytes = synthesizeSchedulerLog(size_t(24) << 20, 2, 3);
    rlimit old{};
    QVERIFY(::getrlimit(RLIMIT_FSIZE, &old) == 0);
    const auto oldHandler = std::signal(SIGXFSZ, SIG_IGN);
    struct Restore {
        rlimit limit;
        void (*handler)(int);
        ~Restore()
        {
            ::setrlimit(RLIMIT_FSIZE, &limit);
            std::signal(SIGXFSZ, handler);
        }
    } restore{old, oldHandler};
    rlimit small = old;
    small.rlim_cur = (size_t(9) << 20) + 4096;
    QVERIFY(::setrlimit(RLIMIT_FSIZE, &small) == 0);
    IndexBuilder live, keeping;
    live.releaseSettledThreadEvents();
    const size_t step = bytes.size() / 12 + 1;
    std::vector<std::pair<LogIndex, LogIndex>> shown;
    bool lost = false;
    size_t at = 0;
    for (; at + step < bytes.size() && !lost; at += step) {
        const auto piece = std::span(bytes).subspan(at, step);
        live.feed(piece);
        keeping.feed(piece);
        LogIndex a = live.publish(false), b = keeping.publish(false);
        lost = live.threadEventsLost();
        if (!lost) {
            compareThreadParts(a, b);
            shown.emplace_back(std::move(a), std::move(b));
        }
    }
    QVERIFY(lost);
    QVERIFY2(live.threadSegmentsSpilled() > (uint64_t(2) << 20), qPrintable(QString::number(live.threadSegmentsSpilled())));
    QVERIFY(shown.size() >= 2 && shown.back().first.threadStates.mappedBytes() > 0); // (else this does not test it)
    // The rest: walked in memory, every seal failing, nothing read past the
    // file's end.
    for (; at < bytes.size(); at += step) {
        live.feed(std::span(bytes).subspan(at, std::min(step, bytes.size() - at)));
        live.publish(false);
    }
    QVERIFY(!live.publish(true, nullptr) || live.threadEventsLost());
    QVERIFY(live.threadEventsLost());
    for (const auto& [a, b] : shown)
        compareThreadParts(a, b);
}

// A load moves each capability's encoded spans, but its newest 64 KB, to
// a temporary file and maps them back: the index reads the same as one
// that keeps them in memory, and counts them apart. So do a live
// builder's snapshots (their provisional spans taken back at every update,
// GC spans split by their collection over spans already mapped).
void TestIndex::capabilitySpansSpillToAFile()
{
    const auto mappedOf = [](const LogIndex& ix) {
        size_t bytes = 0;
        for (const Capability& c : ix.caps)
            bytes += c.timeline.mappedBytes();
        return bytes;
    };
    const auto memoryOf = [](const LogIndex& ix) {
        size_t bytes = 0;
        for (const Capability& c : ix.caps)
            bytes += c.timeline.memoryBytes();
        return bytes;
    };
    // (The logs in testdata and the conformance set are too small to fill
    // a capability's 64 KB of spans twice.)
    {
        const std::vector<uint8_t> bytes = synthesizeThreadsLog(4, 40000, 2);
        const QString name = QStringLiteral("synthesized");
        const auto spilled = loadWith(bytes, KeepInMemory{});
        KeepInMemory keep;
        keep.spans = true;
        const auto kept = loadWith(bytes, keep);
        QCOMPARE(mappedOf(*kept), size_t(0));
        QVERIFY2(mappedOf(*spilled) >= 64 * 1024, qPrintable(name)); // (else this log does not test it)
        QCOMPARE(memoryOf(*spilled) + mappedOf(*spilled), memoryOf(*kept));
        compareIndexes(*spilled, *kept);
        for (size_t c = 0; c < kept->caps.size(); ++c) {
            const CapTimeline &x = spilled->caps[c].timeline, &y = kept->caps[c].timeline;
            std::vector<LodItem> a, b;
            const uint64_t end = y.endTime();
            for (uint64_t t0 = 0; t0 < end; t0 += end / 7 + 1) {
                x.lod(t0, end, 1600, a);
                y.lod(t0, end, 1600, b);
                QCOMPARE(a.size(), b.size());
                QCOMPARE(x.totalsIn(t0, end).time, y.totalsIn(t0, end).time);
            }
        }
        // The same log as a live session gets it: snapshots against a
        // builder that keeps its spans.
        IndexBuilder live, keeping;
        live.releaseSettledThreadEvents();
        keeping.releaseSettledThreadEvents();
        keeping.keepSpansInMemory();
        const size_t step = bytes.size() / 9 + 1;
        size_t mapped = 0;
        for (size_t at = 0; at < bytes.size(); at += step) {
            const auto piece = std::span(bytes).subspan(at, std::min(step, bytes.size() - at));
            live.feed(piece);
            keeping.feed(piece);
            const LogIndex a = live.publish(false), b = keeping.publish(false);
            compareIndexes(a, b);
            mapped = std::max(mapped, mappedOf(a));
        }
        QVERIFY(mapped > 0);
        QVERIFY(live.publish(true, nullptr) && keeping.publish(true, nullptr));
        compareIndexes(live.index(), keeping.index());
        compareIndexes(live.index(), *kept);
        if (QTest::currentTestFailed())
            return;
    }
}

// A view's workers and an export read units while the UI thread finds and
// asks (ThreadSanitizer runs this): every reader gets the same instants,
// each unit is cached once, a small budget keeps the cache under it.
void TestIndex::detailStoreServesSeveralThreads()
{
    const std::vector<uint8_t> bytes = readFile(QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/sparks-lf-N2.eventlog"));
    const auto ix = indexOfBytes(bytes);
    auto source = std::make_shared<MemorySource>(bytes);
    for (const size_t budget : {DetailStore::kDefaultBudget, size_t(64) << 10}) {
        DetailStore store(source, budget);
        std::vector<std::vector<size_t>> sizes(4);
        std::vector<std::thread> threads;
        for (size_t k = 0; k < sizes.size(); ++k)
            threads.emplace_back([&, k] {
                for (uint16_t c = 0; c < ix->instants.size(); ++c)
                    for (uint64_t u = 0; u < ix->instants[c].units(); ++u) {
                        const InstantUnitKey key{c, u, ix->instants[c].unitCount(u)};
                        store.beginView();
                        store.ask(key);
                        sizes[k].push_back(store.load(*ix, key)->instants.size());
                        store.find(key);
                    }
            });
        for (std::thread& t : threads)
            t.join();
        for (size_t k = 1; k < sizes.size(); ++k)
            QCOMPARE(sizes[k], sizes[0]);
        uint64_t total = 0;
        for (const size_t n : sizes[0])
            total += n;
        uint64_t want = 0;
        for (const CapInstantMarks& m : ix->instants)
            want += m.count();
        QCOMPARE(total, want);
        QVERIFY(store.cachedBytes() <= std::max<size_t>(budget, 200 << 10)); // (the units being shown stay)
    }
    // What one view shows stays cached over the budget (no view reads its
    // units forever); the next view's reads evict it.
    DetailStore small(source, 1);
    std::vector<InstantUnitKey> keys;
    for (uint16_t c = 0; c < ix->instants.size(); ++c)
        for (uint64_t u = 0; u < ix->instants[c].units(); ++u)
            keys.push_back({c, u, ix->instants[c].unitCount(u)});
    QVERIFY(keys.size() >= 3);
    small.beginView();
    for (size_t i = 0; i + 1 < keys.size(); ++i)
        small.load(*ix, keys[i]);
    for (size_t i = 0; i + 1 < keys.size(); ++i)
        QVERIFY(small.find(keys[i]));
    small.beginView();
    small.load(*ix, keys.back());
    for (size_t i = 0; i + 1 < keys.size(); ++i)
        QVERIFY(!small.find(keys[i])); // not shown by this view: over the budget, out
    QVERIFY(small.find(keys.back()));
}
