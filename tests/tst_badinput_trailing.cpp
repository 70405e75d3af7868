// tst_badinput: garbage times, data after the end or no end, truncation
// at every offset, extreme timestamps, and mutated logs.
#include "tst_badinput.h"

namespace {

std::vector<uint8_t> bytesOf(std::string_view s)
{
    return std::vector<uint8_t>(s.begin(), s.end());
}

} // namespace

// A real log damaged in the middle (a copy written at test time): one
// event's time overwritten with 2.19 s, or a run of bytes overwritten from
// a timestamp on. The garbage time must not become the run's end: decoding
// ends at that record with a diagnostic naming it and its byte offset,
// everything before it is kept, and the loader, the live path
// (IndexBuilder fed in pieces) and the dump agree.
void TestBadInput::garbageTimeInRealLog_data()
{
    QTest::addColumn<bool>("runOfBytes");
    QTest::newRow("a timestamp overwritten") << false;
    QTest::newRow("40 bytes overwritten") << true;
}

void TestBadInput::garbageTimeInRealLog()
{
    QFETCH(bool, runOfBytes);
    const std::vector<uint8_t> original = readFile(QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/spans-N2.eventlog"));
    QVERIFY(original.size() > 100000);
    const Outcome whole = decode(original);
    QVERIFY(whole.diagnostics.empty());
    uint64_t realEnd = 0;
    for (const Record& r : whole.events)
        realEnd = std::max(realEnd, r.time);

    // The victim: the first record past the middle that lies inside a block
    // (not its marker, not a GC event, which may be stamped earlier).
    size_t victim = 0;
    uint64_t blockEnd = 0; // byte offset where the current block's bytes end
    for (size_t i = 0; i < whole.events.size(); ++i) {
        const Record& r = whole.events[i];
        if (r.tag == tag::BlockMarker) {
            blockEnd = r.offset + (uint64_t(original[r.offset + 10]) << 24 | uint64_t(original[r.offset + 11]) << 16
                                   | uint64_t(original[r.offset + 12]) << 8 | original[r.offset + 13]);
            continue;
        }
        if (r.offset >= original.size() / 2 && r.offset + r.size <= blockEnd && r.tag != tag::GcStart
            && r.tag != tag::GcEnd) {
            victim = i;
            break;
        }
    }
    QVERIFY(victim > 0);
    const uint64_t at = whole.events[victim].offset;
    std::vector<uint8_t> bytes = original;
    if (runOfBytes) {
        std::fill(bytes.begin() + ptrdiff_t(at + 2), bytes.begin() + ptrdiff_t(at + 42), uint8_t(0xA5));
    } else {
        const uint64_t garbage = 2'190'000'000;
        for (int k = 0; k < 8; ++k)
            bytes[at + 2 + uint64_t(k)] = uint8_t(garbage >> (8 * (7 - k)));
    }
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("corrupt.eventlog"));
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QCOMPARE(f.write(reinterpret_cast<const char*>(bytes.data()), qint64(bytes.size())), qint64(bytes.size()));
    }

    const std::vector<Record> kept(whole.events.begin(), whole.events.begin() + ptrdiff_t(victim));
    uint64_t keptEnd = 0;
    for (const Record& r : kept)
        keptEnd = std::max(keptEnd, r.time);
    QVERIFY(keptEnd <= realEnd);
    auto checkDiagnostics = [&](const std::vector<Diagnostic>& ds) {
        QVERIFY(!ds.empty());
        const Diagnostic& d = ds.back();
        QVERIFY2(d.kind == DiagnosticKind::BadEventTime, d.message().c_str());
        QCOMPARE(d.offset, at);
        QCOMPARE(d.eventsBefore, uint64_t(victim));
        QVERIFY2(d.message().find("at byte offset " + std::to_string(at)) != std::string::npos, d.message().c_str());
        QVERIFY2(d.message().find("after its block's end time") != std::string::npos, d.message().c_str());
    };

    // The decoder, in any chunking: everything before the record, as it was.
    for (const auto& chunks : kChunkings) {
        const Outcome o = decode(bytes, chunks);
        QVERIFY(o.events == kept);
        checkDiagnostics(o.diagnostics);
        QCOMPARE(o.diagnostics.size(), size_t(1));
    }
    // The loader, from the file.
    std::string error;
    auto source = FileSource::open(path.toStdString(), error);
    QVERIFY2(source, error.c_str());
    const LoadResult loaded = loadIndex(*source, bytes.size());
    QVERIFY(loaded.index);
    QCOMPARE(loaded.index->lastTime, keptEnd);
    QCOMPARE(loaded.index->scan.events, uint64_t(victim));
    QVERIFY(loaded.index->scan.hasError);
    checkDiagnostics(loaded.index->scan.diagnostics);
    // The live path: an IndexBuilder fed in pieces, published as it grows.
    IndexBuilder builder;
    for (size_t pos = 0; pos < bytes.size(); pos += 4096) {
        builder.feed({bytes.data() + pos, std::min<size_t>(4096, bytes.size() - pos)});
        (void)builder.publish(false);
        QVERIFY(builder.index().lastTime <= keptEnd);
    }
    QVERIFY(builder.failed());
    const LogIndex& live = builder.publish(true);
    QCOMPARE(live.lastTime, keptEnd);
    checkDiagnostics(live.scan.diagnostics);
    // The dump: the kept events, time-ordered.
    const Outcome o = decode(bytes);
    const std::string want = expectedDump(o);
    const std::string dump = dumpBytes(bytes, false, 2);
    QVERIFY2(dump == want, qPrintable(firstDifference(dump, want)));
    QVERIFY(dump.find("\n" + std::to_string(2'190'000'000ull) + ":") == std::string::npos);
}

// Bytes after DATA_END are ignored with a warning naming where they start.
void TestBadInput::trailingDataAfterEnd()
{
    auto w = startLog(4);
    w->writeDataEnd();
    std::vector<uint8_t> bytes = w->takeBytes();
    const uint64_t end = bytes.size();
    const std::vector<uint8_t> junk = bytesOf(std::string_view("\x00\x01garbage", 9));
    bytes.insert(bytes.end(), junk.begin(), junk.end());
    const Outcome clean = decode(std::vector<uint8_t>(bytes.begin(), bytes.begin() + ptrdiff_t(end)));
    QVERIFY(clean.diagnostics.empty());
    for (const auto& chunks : kChunkings) {
        const Outcome o = decode(bytes, chunks);
        QVERIFY(o.events == clean.events);
        QCOMPARE(o.diagnostics.size(), size_t(1));
        QCOMPARE(o.diagnostics[0].kind, DiagnosticKind::TrailingData);
        QCOMPARE(o.diagnostics[0].offset, end);
        QCOMPARE(o.diagnostics[0].detail, std::string("9 bytes"));
        QVERIFY(!o.hasError);
        QVERIFY(!o.truncated);
    }
    QCOMPARE(dumpBytes(bytes), dumpBytes(std::vector<uint8_t>(bytes.begin(), bytes.begin() + ptrdiff_t(end))));
}

void TestBadInput::trailingDataWherever_data()
{
    QTest::addColumn<int>("end"); // where DATA_END ends, from 1 MiB
    // The dump reads its input in large chunks (1 MiB today); the end marker
    // may fall anywhere relative to them.
    QTest::newRow("1 MiB - 1") << -1;
    QTest::newRow("1 MiB") << 0;
    QTest::newRow("1 MiB + 1") << 1;
    QTest::newRow("1 MiB + 1000") << 1000;
}

// The dump's pass over the input (scanLog) reports data after DATA_END as
// the decoder does given all the bytes: one warning counting all of them.
void TestBadInput::trailingDataWherever()
{
    QFETCH(int, end);
    const size_t target = (size_t(1) << 20) + size_t(end);
    auto w = startLog(0);
    uint64_t t = 200;
    w->beginBlock(1, t);
    while (w->bytes().size() + 2 + 1000 < target) {
        OwnedEvent run(tag::RunThread, ++t, {1});
        w->write(run.event);
    }
    // A message sized so that DATA_END ends exactly at `target`.
    const std::string text(target - w->bytes().size() - 2 - 12, 'x');
    OwnedEvent msg(tag::UserMsg, ++t, {}, {text});
    w->write(msg.event);
    w->endBlock(t);
    w->writeDataEnd();
    std::vector<uint8_t> bytes = w->takeBytes();
    QCOMPARE(bytes.size(), target);
    const std::vector<uint8_t> junk = bytesOf("junk");
    bytes.insert(bytes.end(), junk.begin(), junk.end());

    const Outcome whole = decode(bytes);
    QCOMPARE(whole.diagnostics.size(), size_t(1));
    QCOMPARE(whole.diagnostics[0].kind, DiagnosticKind::TrailingData);
    QCOMPARE(whole.diagnostics[0].detail, std::string("4 bytes"));
    MemorySource source(bytes);
    const LogScan scan = scanLog(source);
    // Regression: scanLog once stopped reading at the chunk holding
    // DATA_END, miscounting (or missing) the bytes after it.
    QVERIFY(scan.diagnostics == whole.diagnostics);
    QVERIFY(!scan.hasError);
}

// A log of a killed program: every event, then a warning at its end.
void TestBadInput::missingDataEnd()
{
    auto w = startLog(4);
    const std::vector<uint8_t> bytes = w->takeBytes();
    for (const auto& chunks : kChunkings) {
        const Outcome o = decode(bytes, chunks);
        QCOMPARE(o.events.size(), size_t(5));
        QCOMPARE(o.diagnostics.size(), size_t(1));
        QCOMPARE(o.diagnostics[0].kind, DiagnosticKind::MissingDataEnd);
        QCOMPARE(o.diagnostics[0].offset, uint64_t(bytes.size()));
        QCOMPARE(o.diagnostics[0].eventsBefore, uint64_t(5));
        QVERIFY(o.truncated);
        QVERIFY(!o.hasError);
    }
}

void TestBadInput::truncatedAtEveryOffset_data()
{
    headerCutAtEveryOffset_data();
}

// Cut after the header at every byte: exactly the records that end at or
// before the cut are delivered; a cut inside a record (or inside DATA_END) is
// TruncatedEvent at that record's offset, a cut between records
// MissingDataEnd there; never an error. The dump is the sorted prefix.
void TestBadInput::truncatedAtEveryOffset()
{
    QFETCH(QString, log);
    const std::vector<uint8_t> bytes = readFile(log);
    const Outcome full = decode(bytes);
    QVERIFY(full.diagnostics.empty());
    QVERIFY(!full.events.empty());
    const uint64_t headerLength = full.events.front().offset;
    for (uint64_t cut = headerLength; cut <= bytes.size(); ++cut) {
        const std::vector<uint8_t> prefix(bytes.begin(), bytes.begin() + ptrdiff_t(cut));
        const Outcome o = decode(prefix, {0});
        size_t complete = 0;
        uint64_t boundary = headerLength; // end of the last complete record
        while (complete < full.events.size()
               && full.events[complete].offset + full.events[complete].size <= cut) {
            boundary = full.events[complete].offset + full.events[complete].size;
            ++complete;
        }
        const QString where = QStringLiteral("cut at %1").arg(cut);
        QVERIFY2(o.events.size() == complete, qPrintable(where));
        QVERIFY2(std::equal(o.events.begin(), o.events.end(), full.events.begin()), qPrintable(where));
        QVERIFY2(!o.hasError, qPrintable(where));
        if (cut == bytes.size()) {
            QVERIFY(o.diagnostics.empty());
        } else {
            QVERIFY2(o.diagnostics.size() == 1, qPrintable(where));
            const Diagnostic& d = o.diagnostics[0];
            QVERIFY2(d.kind == (cut == boundary ? DiagnosticKind::MissingDataEnd
                                                : DiagnosticKind::TruncatedEvent),
                     qPrintable(where + QStringLiteral(": ") + QString::fromStdString(d.message())));
            QVERIFY2(d.offset == boundary, qPrintable(where));
            QVERIFY2(d.eventsBefore == complete, qPrintable(where));
            QVERIFY(o.truncated);
        }
        // Odd chunks give the same (the header in one piece: byte-wise header
        // feeds are covered above); the dump is the stably sorted prefix.
        QVERIFY2(decode(prefix, {size_t(headerLength), 5, 1, 17}).events == o.events, qPrintable(where));
        const std::string dump = dumpBytes(prefix);
        const std::string want = expectedDump(o);
        QVERIFY2(dump == want, qPrintable(where + QStringLiteral(": ") + firstDifference(dump, want)));
    }
}

// Timestamps are raw u64 (damaged logs hold anything): the smallest and the
// largest values are events like any other and must be printed.
void TestBadInput::extremeTimestamps()
{
    EventlogWriter w(EventlogWriter::allDeclarations());
    // In file order 6, MAX, MAX - 1, 0, MAX, each within its block's span.
    auto block = [&](uint16_t cap, uint64_t start, std::initializer_list<uint64_t> times) {
        w.beginBlock(cap, start);
        for (uint64_t t : times) {
            OwnedEvent run(tag::RunThread, t, {t & 0xFF});
            w.write(run.event);
        }
        w.endBlock(UINT64_MAX);
    };
    block(0, 5, {6, UINT64_MAX});
    block(1, UINT64_MAX - 1, {UINT64_MAX - 1});
    block(2, 0, {0});
    block(0, UINT64_MAX, {UINT64_MAX});
    w.writeDataEnd();
    const Outcome o = decode(w.bytes());
    QVERIFY(o.diagnostics.empty());
    QCOMPARE(o.events.size(), size_t(4 + 5));
    const std::string want = expectedDump(o);
    const std::string dump = dumpBytes(w.bytes(), false, 1);
    // Regression: the whole-log visit once ended at an exclusive UINT64_MAX,
    // silently dropping events stamped 0xFFFFFFFFFFFFFFFF.
    QVERIFY2(dump == want, qPrintable(firstDifference(dump, want)));
}

// Random damage to real logs (fixed seed): flipped bytes, overwritten
// 16-bit words, cuts, duplicated, deleted and inserted slices. Nothing may
// crash; decoding must not depend on chunking; at most one error, and last;
// every event takes at least 10 bytes; the dump is the stably sorted decode.
void TestBadInput::mutationFuzz()
{
    QStringList logs;
    for (const QString& log : conformanceLogs(QStringLiteral("ghc-events")) + conformanceLogs(QStringLiteral("legacy")))
        if (QFileInfo(log).size() < 512 * 1024)
            logs << log;
    if (logs.isEmpty())
        QSKIP("../shared/conformance is not present on this machine");
    std::vector<std::vector<uint8_t>> originals;
    for (const QString& log : logs)
        originals.push_back(readFile(log));

    QRandomGenerator rng(0x5eed);
    auto below = [&](size_t n) { return n == 0 ? size_t(0) : size_t(rng.bounded(quint64(n))); };
    int errors = 0;
    for (int iteration = 0; iteration < 2000; ++iteration) {
        const size_t which = below(originals.size());
        std::vector<uint8_t> bytes = originals[which];
        const int mutations = 1 + int(below(4));
        for (int m = 0; m < mutations && !bytes.empty(); ++m) {
            const size_t at = below(bytes.size());
            switch (below(6)) {
            case 0: // flip bits of a few bytes
                for (int k = 0; k < 1 + int(below(4)); ++k)
                    bytes[below(bytes.size())] ^= uint8_t(1 + below(255));
                break;
            case 1: { // an interesting 16-bit value (tags, lengths)
                static const uint16_t values[] = {0, 1, 3, 4, 0x0FFF, 0xFFFE, 0xFFFF, 0x0012, 0x00C4};
                const uint16_t v = values[below(std::size(values))];
                if (at + 1 < bytes.size()) {
                    bytes[at] = uint8_t(v >> 8);
                    bytes[at + 1] = uint8_t(v);
                }
                break;
            }
            case 2: // cut
                bytes.resize(at);
                break;
            case 3: { // duplicate a slice somewhere
                const size_t len = std::min(bytes.size() - at, 1 + below(300));
                const std::vector<uint8_t> slice(bytes.begin() + ptrdiff_t(at), bytes.begin() + ptrdiff_t(at + len));
                const size_t to = below(bytes.size() + 1);
                bytes.insert(bytes.begin() + ptrdiff_t(to), slice.begin(), slice.end());
                break;
            }
            case 4: { // delete a slice
                const size_t len = std::min(bytes.size() - at, 1 + below(64));
                bytes.erase(bytes.begin() + ptrdiff_t(at), bytes.begin() + ptrdiff_t(at + len));
                break;
            }
            default: // insert random bytes
                for (int k = 0; k < 1 + int(below(12)); ++k)
                    bytes.insert(bytes.begin() + ptrdiff_t(at), uint8_t(rng.bounded(256)));
                break;
            }
        }

        const QString where = QStringLiteral("iteration %1 (%2)").arg(iteration).arg(QFileInfo(logs[int(which)]).fileName());
        const Outcome whole = decode(bytes);
        std::vector<size_t> chunks(31);
        for (size_t& c : chunks)
            c = 1 + below(iteration % 2 ? 16 : 4096);
        const Outcome chunked = decode(bytes, chunks);
        QVERIFY2(chunked.events == whole.events, qPrintable(where));
        QVERIFY2(chunked.diagnostics == whole.diagnostics, qPrintable(where));
        QVERIFY2(whole.events.size() * 10 <= bytes.size(), qPrintable(where));
        size_t errorCount = 0;
        for (const Diagnostic& d : whole.diagnostics)
            errorCount += d.isError();
        QVERIFY2(errorCount <= 1, qPrintable(where));
        if (errorCount == 1)
            QVERIFY2(whole.diagnostics.back().isError(), qPrintable(where));
        errors += int(errorCount);
        // Records tile the input from the header on, in file order.
        for (size_t i = 1; i < whole.events.size(); ++i)
            QVERIFY2(whole.events[i].offset == whole.events[i - 1].offset + whole.events[i - 1].size,
                     qPrintable(where));

        const std::string dump = dumpBytes(bytes);
        const std::string want = expectedDump(whole);
        QVERIFY2(dump == want, qPrintable(where + QStringLiteral(": ") + firstDifference(dump, want)));
        if (iteration % 8 == 0)
            (void)dumpBytes(bytes, true); // the legacy printer must cope too
    }
    // The loop must really have met corrupt input, not only truncations.
    QVERIFY(errors > 100);
}
