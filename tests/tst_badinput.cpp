// Damaged, truncated and unusual input: what is not an eventlog, headers and
// records cut anywhere, undeclared tags, impossible lengths, data after the
// end marker, capability ownership at block edges (eventlog-format.md 1.7),
// the stable time order of the dump, and a deterministic mutation fuzz over
// the real logs. Every case must end in the documented diagnostic at the
// right byte offset with everything before it delivered, and never crash.
#include "testsupport.h"

#include "core/format/encoder.h"
#include "core/format/eventtags.h"
#include "core/load/indexbuilder.h"
#include "core/load/loader.h"
#include "core/io/bytesource.h"
#include "core/text/printer.h"

#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include "core/order/timeorder.h"

#include <algorithm>
#include <iterator>
#include <memory>

using namespace hecscope;
using namespace hecscope::test;

namespace {

// One delivered event: where it was, what it was, and its `show` line.
struct Record {
    uint64_t offset = 0;
    uint32_t size = 0;
    uint64_t time = 0;
    uint16_t tag = 0;
    uint16_t cap = 0;
    std::string line;
    bool operator==(const Record&) const = default;
};

struct RecordingSink final : EventSink {
    void onHeader(const std::shared_ptr<const LogFormat>& f) override
    {
        format = f;
        printer = std::make_unique<EventPrinter>(*f);
    }
    void onEvent(const Event& e) override
    {
        TextBuffer text;
        printer->printEvent(e, text);
        records.push_back({e.offset, e.recordSize, e.time, e.tag, e.cap, std::string(text.text())});
    }
    std::shared_ptr<const LogFormat> format;
    std::unique_ptr<EventPrinter> printer;
    std::vector<Record> records;
};

struct Outcome {
    std::shared_ptr<const LogFormat> format;
    std::vector<Record> events;
    std::vector<Diagnostic> diagnostics;
    uint64_t decodedBytes = 0;
    bool hasError = false;
    bool truncated = false;
};

// Decodes `bytes` fed in chunks of the given sizes (cycled; 0 = one chunk).
Outcome decode(const std::vector<uint8_t>& bytes, const std::vector<size_t>& chunks = {0})
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

// What `hecscope dump` must print for these decoded events: the header, the
// event lines stably sorted by time (ties in file order), the final newline.
// Computed with std::stable_sort, independently of the dump's k-way merge.
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

// Reports the first differing line of two dumps.
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

std::vector<uint8_t> bytesOf(std::string_view s)
{
    return std::vector<uint8_t>(s.begin(), s.end());
}

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

// A short, valid log: a block of cap 0 with `count` RUN_THREAD events,
// without DATA_END. Returns the writer to continue with.
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

const std::vector<std::vector<size_t>> kChunkings = {{0}, {1}, {7, 3, 64}};

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

class TestBadInput : public QObject {
    Q_OBJECT
private slots:
    void notAnEventlog_data();
    void notAnEventlog();
    void headerCutAtEveryOffset_data();
    void headerCutAtEveryOffset();
    void undeclaredTag_data();
    void undeclaredTag();
    void shortPayload_data();
    void shortPayload();
    void badBlockSize_data();
    void badBlockSize();
    void timeAgainstItsBlock_data();
    void timeAgainstItsBlock();
    void garbageTimeInRealLog_data();
    void garbageTimeInRealLog();
    void trailingDataAfterEnd();
    void trailingDataWherever_data();
    void trailingDataWherever();
    void missingDataEnd();
    void truncatedAtEveryOffset_data();
    void truncatedAtEveryOffset();
    void capabilityOwnership();
    void tiesKeepFileOrder();
    void outOfOrderBlocksAreSorted();
    void largeShuffledLogIsSorted_data();
    void largeShuffledLogIsSorted();
    void hostileOrderKeepsMemorySmall_data();
    void hostileOrderKeepsMemorySmall();
    void tinyBlocksGiveUpPieces();
    void extremeTimestamps();
    void mutationFuzz();
};

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

QTEST_GUILESS_MAIN(TestBadInput)
#include "tst_badinput.moc"
