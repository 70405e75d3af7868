// Damaged, truncated and unusual input: what is not an eventlog, headers and
// records cut anywhere, undeclared tags, impossible lengths, data after the
// end marker, capability ownership at block edges (eventlog-format.md 1.7),
// the stable time order of the dump, and a deterministic mutation fuzz over
// the real logs. Every case must end in the documented diagnostic at the
// right byte offset with everything before it delivered, and never crash.
#include "tst_badinput.h"

namespace badinputtest {

Outcome decode(const std::vector<uint8_t>& bytes, const std::vector<size_t>& chunks)
{
    RecordingSink sink;
    StreamDecoder decoder(sink);
    size_t pos = 0;
    for (size_t k = 0; pos < bytes.size(); ++k) {
        const size_t c = chunks[k % chunks.size()];
        const size_t n = c == 0 ? bytes.size() - pos : std::min(c, bytes.size() - pos);
        decoder.feed({bytes.data() + pos, n});
        pos += n;
    }
    decoder.finish();
    return {sink.format, std::move(sink.records), decoder.diagnostics(), decoder.decodedBytes(),
            decoder.hasError(), decoder.truncated()};
}

std::string expectedDump(const Outcome& o)
{
    if (!o.format)
        return {};
    TextBuffer header;
    EventPrinter(*o.format).printHeader(header);
    std::vector<Record> sorted = o.events;
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const Record& a, const Record& b) { return a.time < b.time; });
    std::string out(header.text());
    for (const Record& r : sorted)
        out += r.line;
    return out + "\n";
}

QString firstDifference(const std::string& got, const std::string& want)
{
    size_t i = 0;
    while (i < got.size() && i < want.size() && got[i] == want[i])
        ++i;
    const size_t lineStart = got.rfind('\n', i == 0 ? 0 : i - 1);
    const size_t from = lineStart == std::string::npos ? 0 : lineStart + 1;
    auto line = [&](const std::string& s) {
        return QString::fromStdString(s.substr(from, s.find('\n', from) - from));
    };
    return QStringLiteral("dumps differ at byte %1:\n  got:  %2\n  want: %3").arg(i).arg(line(got), line(want));
}

std::unique_ptr<EventlogWriter> startLog(int count)
{
    auto w = std::make_unique<EventlogWriter>(EventlogWriter::allDeclarations());
    w->beginBlock(0, 100);
    for (int i = 0; i < count; ++i) {
        OwnedEvent run(tag::RunThread, 100 + uint64_t(i), {uint64_t(i + 1)});
        w->write(run.event);
    }
    w->endBlock(100 + uint64_t(count));
    return w;
}

} // namespace badinputtest

namespace {

void putBE(std::vector<uint8_t>& out, uint64_t v, int bytes)
{
    for (int i = bytes - 1; i >= 0; --i)
        out.push_back(uint8_t(v >> (8 * i)));
}

// A record written by hand, so that it can be as wrong as needed.
void appendRecord(std::vector<uint8_t>& out, uint16_t t, uint64_t time,
                  const std::vector<uint8_t>& payload, bool variable)
{
    putBE(out, t, 2);
    putBE(out, time, 8);
    if (variable)
        putBE(out, payload.size(), 2);
    out.insert(out.end(), payload.begin(), payload.end());
}

// Small real logs for the every-offset tests (a 6.12 log among them for its
// header quirks).
QStringList smallLogs()
{
    QStringList out;
    for (const QString& log : conformanceLogs(QStringLiteral("ghc-events")) + conformanceLogs(QStringLiteral("legacy")))
        for (const char* name : {"nonmoving-gc.eventlog", "trace-binary-event.eventlog",
                                 "queens-ghc-6.12.1.eventlog"})
            if (QFileInfo(log).fileName() == QLatin1String(name))
                out << log;
    return out;
}

} // namespace

void TestBadInput::notAnEventlog_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<int>("kind");
    QTest::addColumn<qulonglong>("offset");

    // A valid header start, for damage further in.
    std::vector<uint8_t> prefix;
    {
        EventlogWriter w({{tag::RunThread, 4, "Run thread", {}}});
        prefix = w.bytes();
    }
    const QByteArray valid(reinterpret_cast<const char*>(prefix.data()), qsizetype(prefix.size()));
    const qsizetype declAt = 8; // after "hdrb" "hetb"
    const qsizetype heteAt = valid.size() - 12;

    QTest::newRow("empty") << QByteArray() << int(DiagnosticKind::NotAnEventlog) << 0ull;
    QTest::newRow("hdr") << QByteArray("hdr") << int(DiagnosticKind::TruncatedHeader) << 3ull;
    // Shorter than the magic, and no prefix of it: not an eventlog, not a
    // truncated one.
    QTest::newRow("x") << QByteArray("x") << int(DiagnosticKind::NotAnEventlog) << 0ull;
    QTest::newRow("ab newline") << QByteArray("ab\n") << int(DiagnosticKind::NotAnEventlog) << 0ull;
    QTest::newRow("text") << QByteArray("hello world\n") << int(DiagnosticKind::NotAnEventlog) << 0ull;
    QTest::newRow("gzip") << QByteArray("\x1f\x8b\x08\x00\x00\x00", 6) << int(DiagnosticKind::NotAnEventlog) << 0ull;
    QTest::newRow("hdrb then garbage") << QByteArray("hdrbgarbage!") << int(DiagnosticKind::MalformedHeader) << 4ull;
    QTest::newRow("bad declaration marker")
        << (valid.left(declAt) + "xxxx" + valid.mid(declAt + 4)) << int(DiagnosticKind::MalformedHeader)
        << qulonglong(declAt);
    QTest::newRow("bad end of declaration")
        << (valid.left(heteAt - 4) + "ete?" + valid.mid(heteAt)) << int(DiagnosticKind::MalformedHeader)
        << qulonglong(heteAt - 4);
    QTest::newRow("bad hdre") << (valid.left(heteAt + 4) + "hdrx" + valid.mid(heteAt + 8))
                              << int(DiagnosticKind::MalformedHeader) << qulonglong(heteAt + 4);
    QTest::newRow("bad datb") << (valid.left(heteAt + 8) + "data") << int(DiagnosticKind::MalformedHeader)
                              << qulonglong(heteAt + 8);
    // A description length of 4 GiB: rejected, not waited for.
    QTest::newRow("huge description length")
        << (valid.left(declAt + 8) + QByteArray("\xff\xff\xff\xf0", 4) + valid.mid(declAt + 12))
        << int(DiagnosticKind::MalformedHeader) << qulonglong(declAt + 8);
}

void TestBadInput::notAnEventlog()
{
    QFETCH(QByteArray, input);
    QFETCH(int, kind);
    QFETCH(qulonglong, offset);
    const std::vector<uint8_t> bytes(input.begin(), input.end());
    for (const auto& chunks : kChunkings) {
        const Outcome o = decode(bytes, chunks);
        QVERIFY(o.events.empty());
        QCOMPARE(o.diagnostics.size(), size_t(1));
        // Regression: 1-3 bytes that cannot start "hdrb" were once reported
        // as a truncated header rather than as not an eventlog.
        QCOMPARE(int(o.diagnostics[0].kind), kind);
        QCOMPARE(o.diagnostics[0].offset, uint64_t(offset));
        QVERIFY(o.hasError);
        QVERIFY(!o.format);
    }
    QCOMPARE(dumpBytes(bytes), std::string());
}

void TestBadInput::headerCutAtEveryOffset_data()
{
    QTest::addColumn<QString>("log");
    const QStringList logs = smallLogs();
    if (logs.isEmpty())
        QSKIP("../shared/conformance is not present on this machine");
    for (const QString& log : logs)
        QTest::newRow(qPrintable(QFileInfo(log).fileName())) << log;
}

// A header cut anywhere is a truncated header (at 0: an empty file), with the
// offset where the input ends; cut exactly after "datb" it is a complete log
// without events and without DATA_END.
void TestBadInput::headerCutAtEveryOffset()
{
    QFETCH(QString, log);
    const std::vector<uint8_t> bytes = readFile(log);
    const Outcome full = decode(bytes);
    QVERIFY(!full.events.empty());
    const uint64_t headerLength = full.events.front().offset;
    for (uint64_t cut = 0; cut <= headerLength; ++cut) {
        const std::vector<uint8_t> prefix(bytes.begin(), bytes.begin() + ptrdiff_t(cut));
        // Byte-wise feeding re-parses the header per field (quadratic), so
        // it samples the cuts; whole feeds cover every one.
        const bool byteWise = cut % 8 == 0 || cut + 16 > headerLength;
        for (const auto& chunks : {std::vector<size_t>{0}, std::vector<size_t>{byteWise ? 1u : 0u}}) {
            const Outcome o = decode(prefix, chunks);
            QVERIFY(o.events.empty());
            QCOMPARE(o.diagnostics.size(), size_t(1));
            const Diagnostic& d = o.diagnostics[0];
            const DiagnosticKind want = cut == 0 ? DiagnosticKind::NotAnEventlog
                : cut < headerLength              ? DiagnosticKind::TruncatedHeader
                                                  : DiagnosticKind::MissingDataEnd;
            QVERIFY2(d.kind == want, qPrintable(QStringLiteral("cut at %1: %2").arg(cut).arg(
                                         QString::fromStdString(d.message()))));
            QCOMPARE(d.offset, cut);
            QCOMPARE(o.hasError, cut < headerLength);
            QCOMPARE(o.truncated, cut > 0);
        }
        const std::string dump = dumpBytes(prefix);
        QCOMPARE(dump.empty(), cut < headerLength);
        if (cut == headerLength) // no events: the text ends "Events:\n\n" (3.1)
            QVERIFY(dump.size() > 10 && dump.compare(dump.size() - 10, 10, "\nEvents:\n\n") == 0);
    }
}

void TestBadInput::undeclaredTag_data()
{
    QTest::addColumn<int>("tag");
    // 13 lies inside the declared range but was never declared (obsolete
    // CREATE_SPARK); 0x0FFF is beyond the largest declared tag.
    QTest::newRow("gap in the declared range") << 13;
    QTest::newRow("beyond the declared range") << 0x0FFF;
    QTest::newRow("0xFFFE, next to DATA_END") << 0xFFFE;
}

void TestBadInput::undeclaredTag()
{
    QFETCH(int, tag);
    auto w = startLog(5);
    std::vector<uint8_t> bytes = w->takeBytes();
    const uint64_t at = bytes.size();
    appendRecord(bytes, uint16_t(tag), 200, {1, 2, 3, 4}, false);
    appendRecord(bytes, tag::RunThread, 201, {0, 0, 0, 9}, false);
    putBE(bytes, 0xFFFF, 2);
    for (const auto& chunks : kChunkings) {
        const Outcome o = decode(bytes, chunks);
        QCOMPARE(o.events.size(), size_t(6)); // the marker and five runs
        QCOMPARE(o.diagnostics.size(), size_t(1));
        const Diagnostic& d = o.diagnostics[0];
        QCOMPARE(d.kind, DiagnosticKind::UndeclaredEventType);
        QCOMPARE(d.offset, at);
        QCOMPARE(d.eventsBefore, uint64_t(6));
        QCOMPARE(d.detail, std::to_string(tag));
        QVERIFY(o.hasError);
        QCOMPARE(o.decodedBytes, at);
    }
    // The dump still prints what came before.
    const Outcome o = decode(bytes);
    QCOMPARE(dumpBytes(bytes), expectedDump(o));
}

void TestBadInput::shortPayload_data()
{
    QTest::addColumn<int>("tag");
    QTest::addColumn<QByteArray>("payload");
    QTest::newRow("THREAD_LABEL L=2") << int(tag::ThreadLabel) << QByteArray("ab");
    QTest::newRow("PROGRAM_ARGS L=0") << int(tag::ProgramArgs) << QByteArray();
    QTest::newRow("INTERN_STRING L=3") << int(tag::InternString) << QByteArray("abc");
    QTest::newRow("HEAP_PROF_BEGIN L=12") << int(tag::HeapProfBegin) << QByteArray(12, '\0');
    QTest::newRow("IPE L=7") << int(tag::Ipe) << QByteArray(7, '\1');
    QTest::newRow("TICKY_COUNTER_DEF L=9") << int(tag::TickyCounterDef) << QByteArray(9, '\1');
    // Depth 3 but room for two ids.
    QTest::newRow("HEAP_PROF_SAMPLE_COST_CENTRE short ids")
        << int(tag::HeapProfSampleCostCentre)
        << QByteArray("\0\0\0\0\0\0\0\0\x10\x03" "\0\0\0\1\0\0\0\2", 18);
    QTest::newRow("PROF_SAMPLE_COST_CENTRE L=12") << int(tag::ProfSampleCostCentre) << QByteArray(12, '\0');
}

void TestBadInput::shortPayload()
{
    QFETCH(int, tag);
    QFETCH(QByteArray, payload);
    auto w = startLog(3);
    std::vector<uint8_t> bytes = w->takeBytes();
    const uint64_t at = bytes.size();
    appendRecord(bytes, uint16_t(tag), 300, std::vector<uint8_t>(payload.begin(), payload.end()), true);
    appendRecord(bytes, tag::RunThread, 301, {0, 0, 0, 9}, false);
    putBE(bytes, 0xFFFF, 2);
    for (const auto& chunks : kChunkings) {
        const Outcome o = decode(bytes, chunks);
        QCOMPARE(o.events.size(), size_t(4));
        QCOMPARE(o.diagnostics.size(), size_t(1));
        QCOMPARE(o.diagnostics[0].kind, DiagnosticKind::ShortPayload);
        QCOMPARE(o.diagnostics[0].offset, at);
        QCOMPARE(o.diagnostics[0].eventsBefore, uint64_t(4));
        QVERIFY(o.hasError);
    }
}

void TestBadInput::badBlockSize_data()
{
    QTest::addColumn<qulonglong>("blockSize");
    QTest::addColumn<bool>("bad");
    QTest::newRow("0") << 0ull << true;
    QTest::newRow("10") << 10ull << true;
    QTest::newRow("23") << 23ull << true;
    QTest::newRow("24: an empty block") << 24ull << false;
}

// A block size below the marker's own 24 bytes cannot be right.
void TestBadInput::badBlockSize()
{
    QFETCH(qulonglong, blockSize);
    QFETCH(bool, bad);
    auto w = startLog(2);
    std::vector<uint8_t> bytes = w->takeBytes();
    const uint64_t at = bytes.size();
    std::vector<uint8_t> marker;
    putBE(marker, blockSize, 4);
    putBE(marker, 500, 8);
    putBE(marker, 1, 2);
    appendRecord(bytes, tag::BlockMarker, 400, marker, false);
    putBE(bytes, 0xFFFF, 2);
    for (const auto& chunks : kChunkings) {
        const Outcome o = decode(bytes, chunks);
        if (!bad) {
            QVERIFY(o.diagnostics.empty());
            QCOMPARE(o.events.size(), size_t(4));
            continue;
        }
        QCOMPARE(o.events.size(), size_t(3));
        QCOMPARE(o.diagnostics.size(), size_t(1));
        QCOMPARE(o.diagnostics[0].kind, DiagnosticKind::BadBlockSize);
        QCOMPARE(o.diagnostics[0].offset, at);
        QCOMPARE(o.diagnostics[0].detail, std::to_string(blockSize));
    }
}

// eventlog-format.md 1.7: GHC stamps a block's marker with the time its
// buffer began and its end_time when flushed, and posts in between in time
// order. A time outside that span, or going back inside a block, is damage:
// decoding ends before that record, naming it and its byte offset. Except
// what GHC itself writes: GC_START / GC_END stamped with times taken earlier
// (even before a block begun meanwhile), Eden's CREATE_MACHINE with its own
// clock, and records outside any block, which declare no span.
void TestBadInput::timeAgainstItsBlock_data()
{
    QTest::addColumn<int>("shape");
    QTest::addColumn<QString>("fault"); // expected words of the message; empty: none
    QTest::newRow("back in time") << 0 << "earlier than the event before it in its block (110 ns)";
    QTest::newRow("past the block's end") << 1 << "after its block's end time (its block: cap 0, 100 to 150 ns, marker at byte";
    QTest::newRow("before the block's start") << 2 << "before its block's start time";
    QTest::newRow("global block, past its end") << 3 << "after its block's end time (the global block, 100 to 150 ns";
    QTest::newRow("marker ending before it starts") << 4 << "block marker of cap 1 ends (end time 50 ns) before it starts (100 ns)";
    QTest::newRow("GC_END stamped earlier, even before the block") << 5 << QString();
    QTest::newRow("at the span's edges") << 6 << QString();
    QTest::newRow("outside any block") << 7 << QString();
    QTest::newRow("Eden's CREATE_MACHINE") << 8 << QString();
    QTest::newRow("GC_END past the block's end") << 9 << "after its block's end time";
}

void TestBadInput::timeAgainstItsBlock()
{
    QFETCH(int, shape);
    QFETCH(QString, fault);
    EventlogWriter w(EventlogWriter::allDeclarations());
    uint64_t faultAt = 0;
    auto put = [&](uint16_t t, uint64_t time, bool faulty = false) {
        if (faulty)
            faultAt = w.bytes().size();
        OwnedEvent e(t, time, {1, 0, 0});
        w.write(e.event);
    };
    // A good block first, of another capability, whose span the next ones
    // must not inherit.
    w.beginBlock(3, 10);
    put(tag::RunThread, 10);
    put(tag::RunThread, 1000);
    w.endBlock(1000);
    switch (shape) {
    case 0:
        w.beginBlock(0, 100);
        put(tag::RunThread, 100);
        put(tag::RunThread, 110);
        put(tag::RunThread, 105, true);
        put(tag::RunThread, 120);
        w.endBlock(200);
        break;
    case 1:
        w.beginBlock(0, 100);
        put(tag::RunThread, 120);
        put(tag::RunThread, 2'190'000'000, true);
        w.endBlock(150);
        break;
    case 2:
        w.beginBlock(0, 100);
        put(tag::RunThread, 90, true);
        w.endBlock(150);
        break;
    case 3:
        w.beginBlock(kNoCap, 100);
        put(tag::HeapSize, 140);
        put(tag::HeapSize, 151, true);
        w.endBlock(150);
        break;
    case 4:
        faultAt = w.bytes().size();
        w.beginBlock(1, 100);
        put(tag::RunThread, 100);
        w.endBlock(50);
        break;
    case 5:
        w.beginBlock(0, 100);
        put(tag::GcStart, 95); // posted after a flush began this block
        put(tag::RunThread, 130);
        put(tag::GcEnd, 120); // GC_STATS before it was later
        put(tag::RunThread, 130);
        w.endBlock(130);
        break;
    case 6:
        w.beginBlock(0, 100);
        put(tag::RunThread, 100);
        put(tag::RunThread, 100);
        put(tag::RunThread, 150);
        w.endBlock(150);
        w.beginBlock(0, 150); // empty: the record after it is outside
        w.endBlock(150);
        put(tag::RunThread, 7);
        break;
    case 7: // GHC 6.12's STARTUP, Mercury's start-up events
        put(tag::Startup, 0);
        put(tag::RunThread, 5000);
        put(tag::RunThread, 3);
        break;
    case 8:
        w.beginBlock(0, 1'016'685'948);
        put(tag::CreateMachine, 965);
        put(tag::RunThread, 1'016'690'000);
        w.endBlock(1'016'690'453);
        break;
    case 9:
        w.beginBlock(0, 100);
        put(tag::GcEnd, 151, true);
        w.endBlock(150);
        break;
    }
    w.writeDataEnd();

    for (const auto& chunks : kChunkings) {
        const Outcome o = decode(w.bytes(), chunks);
        if (fault.isEmpty()) {
            QVERIFY2(o.diagnostics.empty(), o.diagnostics.empty() ? "" : o.diagnostics[0].message().c_str());
            continue;
        }
        QCOMPARE(o.diagnostics.size(), size_t(1));
        const Diagnostic& d = o.diagnostics[0];
        QCOMPARE(d.kind, DiagnosticKind::BadEventTime);
        QVERIFY(d.isError());
        QCOMPARE(d.offset, faultAt);
        // Everything before the faulty record, nothing from it on.
        QVERIFY(!o.events.empty());
        QCOMPARE(o.events.back().offset + o.events.back().size, faultAt);
        QCOMPARE(d.eventsBefore, uint64_t(o.events.size()));
        QCOMPARE(o.decodedBytes, faultAt);
        const std::string message = d.message();
        QVERIFY2(message.find(fault.toStdString()) != std::string::npos, message.c_str());
        QVERIFY2(message.find("at byte offset " + std::to_string(faultAt)) != std::string::npos, message.c_str());
    }
    // The dump prints the events before the fault, time-ordered.
    const Outcome o = decode(w.bytes());
    const std::string want = expectedDump(o);
    const std::string dump = dumpBytes(w.bytes(), false, 1);
    QVERIFY2(dump == want, qPrintable(firstDifference(dump, want)));
}

QTEST_GUILESS_MAIN(TestBadInput)
