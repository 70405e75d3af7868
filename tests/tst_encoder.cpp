// The encoder and the decoder agree on every layout: events of every declared
// type written with EventlogWriter decode to the same fields, unknown and
// trailing bytes survive a decode/encode cycle, the printer produces the texts
// of eventlog-format.md 3.2-3.4, and re-encoding every real log reproduces its
// bytes exactly. The field layouts below are transcribed from the spec (2.1),
// not taken from the code, so that a disagreement shows up as a failure.
#include "testsupport.h"

#include "core/format/encoder.h"
#include "core/format/eventtags.h"

#include <QFileInfo>
#include <QTest>

#include <array>
#include <memory>

using namespace hecscope;
using namespace hecscope::test;

namespace {

// Wire fields of a known layout (eventlog-format.md 2.1): '1' '2' '4' '8'
// unsigned big-endian integers (in n[]), 'S' raw text running to the payload
// end, 'Z' NUL-terminated text (in s[]), 'I' the cost-centre ids. nullptr:
// no layout (the event is skipped as unknown). TICKY_COUNTER_DEF has optional
// fields and is handled separately.
const char* wireFields(uint16_t t, uint16_t layout)
{
    switch (t) {
    case 0: case 1: case 3: case 5: case 15: case 26: case 62: case 63: case 110: case 201:
        return "4";
    case 2: return layout >= 10 ? "424" : "42";
    case 4: case 6: case 8: case 25: case 27: case 28: return "42";
    case 7: case 9: case 10: case 11: case 12: case 20: case 21: case 22: case 35: case 36:
    case 37: case 38: case 40: case 41: case 54: case 60: case 61: case 108: case 109:
    case 111: case 112: case 113: case 200: case 202: case 203: case 204: case 205: case 212:
        return "";
    case 17: case 39: case 45: case 46: case 47: case 48: case 66: case 206: return "2";
    case 16: case 19: case 23: case 24: case 58: case 181: return "S";
    case 18: return "482";
    case 29: case 30: case 31: case 44: case 140: return "4S";
    case 32: case 33: case 64: case 208: return "44";
    case 34: return "8888888";
    case 42: return "S4";
    case 43: return "484";
    case 49: case 50: case 51: case 91: case 142: return "48";
    case 52: return "428888";
    case 53: return layout >= 58 ? "428884888" : "42888488";
    case 55: return "828";
    case 56: return "822";
    case 57: case 101: case 102: case 105: case 106: case 107: case 162: case 165: case 168:
        return "8";
    case 65: return "28";
    case 67: return "144244";
    case 68: return "1442444";
    case 69: return "14444";
    case 90: return "4444";
    case 100: case 103: case 104: return "84";
    case 141: return "488";
    case 160: return "184ZZZZZZZ";
    case 161: return "4ZZZ1";
    case 163: return "181I";
    case 164: return "18Z";
    case 166: return "88";
    case 167: return "481I";
    case 169: return "8ZZZZZZ";
    case 207: return layout >= 14 ? "2444" : "1444";
    case 211: return "8888";
    default: return nullptr; // 59 (HACK_BUG_T9003) and foreign tags
    }
}

// What a decoded event held, copied while it was being delivered. Only the
// fields its layout defines are copied: the others are unspecified.
struct Copied {
    uint64_t time = 0;
    uint64_t offset = 0;
    uint32_t recordSize = 0;
    uint16_t tag = 0;
    uint16_t cap = 0;
    uint16_t layout = 0;
    bool known = false;
    std::array<uint64_t, 10> n{};
    std::vector<std::string> s;
    std::vector<uint32_t> ids;
    std::vector<uint8_t> payload;
    std::vector<uint8_t> trailing;
};

Copied copyEvent(const Event& e)
{
    Copied c;
    c.time = e.time;
    c.offset = e.offset;
    c.recordSize = e.recordSize;
    c.tag = e.tag;
    c.cap = e.cap;
    c.layout = e.layout;
    c.known = e.known;
    c.payload.assign(e.payload.begin(), e.payload.end());
    c.trailing.assign(e.trailing.begin(), e.trailing.end());
    if (!e.known)
        return c;
    std::copy(std::begin(e.n), std::end(e.n), c.n.begin());
    size_t strings = 0;
    if (e.tag == tag::TickyCounterDef) {
        strings = e.n[4] ? 3 : 2;
    } else if (const char* f = wireFields(e.tag, e.layout)) {
        for (; *f; ++f)
            strings += *f == 'S' || *f == 'Z';
    }
    for (size_t i = 0; i < strings; ++i)
        c.s.emplace_back(e.s[i]);
    for (size_t i = 0; i < e.depth; ++i)
        c.ids.push_back(e.ccId(i));
    return c;
}

struct CopySink final : EventSink {
    void onEvent(const Event& e) override { events.push_back(copyEvent(e)); }
    std::vector<Copied> events;
};

struct DecodeResult {
    std::vector<Copied> events;
    std::vector<Diagnostic> diagnostics;
};

DecodeResult decodeAll(const std::vector<uint8_t>& bytes)
{
    CopySink sink;
    StreamDecoder decoder(sink);
    decoder.feed(bytes);
    decoder.finish();
    return {std::move(sink.events), decoder.diagnostics()};
}

// Re-encodes, in file order, every event a decode delivers into a writer
// declaring the same types: decoding and encoding are inverses only if the
// result is the original byte for byte.
struct ReencodingSink final : EventSink {
    void onHeader(const std::shared_ptr<const LogFormat>& format) override
    {
        writer = std::make_unique<EventlogWriter>(format->declarations());
    }
    void onEvent(const Event& e) override { writer->write(e); }
    std::unique_ptr<EventlogWriter> writer;
};

struct Reencoded {
    std::vector<uint8_t> bytes;
    uint64_t decodedBytes = 0;
    bool hasError = false;
};

Reencoded reencode(const std::vector<uint8_t>& original)
{
    ReencodingSink sink;
    StreamDecoder decoder(sink);
    decoder.feed(original);
    decoder.finish();
    Reencoded r;
    r.decodedBytes = decoder.decodedBytes();
    r.hasError = decoder.hasError();
    if (!sink.writer)
        return r;
    if (decoder.sawDataEnd())
        sink.writer->writeDataEnd();
    r.bytes = sink.writer->takeBytes();
    return r;
}

// An OwnedEvent built from run-time lists (the constructor takes
// initializer lists only).
std::unique_ptr<OwnedEvent> makeEvent(uint16_t t, uint64_t time, const std::vector<uint64_t>& n,
                                      const std::vector<std::string>& s = {},
                                      const std::vector<uint32_t>& ids = {})
{
    auto e = std::make_unique<OwnedEvent>(t, time);
    std::copy(n.begin(), n.end(), e->event.n);
    e->strings = s;
    for (size_t i = 0; i < e->strings.size(); ++i)
        e->event.s[i] = e->strings[i];
    for (uint32_t id : ids)
        for (int shift = 24; shift >= 0; shift -= 8)
            e->idBytes.push_back(uint8_t(id >> shift));
    e->event.depth = uint16_t(ids.size());
    e->event.ids = e->idBytes.data();
    return e;
}

std::vector<EventTypeDecl> declarationsWith(std::initializer_list<std::pair<uint16_t, uint16_t>> sizes)
{
    std::vector<EventTypeDecl> decls = EventlogWriter::allDeclarations();
    for (auto [t, size] : sizes)
        for (EventTypeDecl& d : decls)
            if (d.tag == t)
                d.size = size;
    return decls;
}

uint64_t mix(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

uint64_t widthMask(char width)
{
    const int bytes = width - '0';
    return bytes == 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * bytes)) - 1;
}

// One event of the sweep plus what the decoder must give back for it.
struct Expected {
    std::unique_ptr<OwnedEvent> owned;
    const char* fields = nullptr; // wireFields(), nullptr for unknown
    uint16_t cap = kNoCap;
    uint32_t recordSize = 0;
};

// Variant 0: hashed values and ASCII text, depth 3; 1: every integer at its
// maximum, empty strings, depth 0; 2: zeros, non-ASCII text (raw text also
// with embedded NULs), depth 255 (the largest a u8 depth allows).
Expected sweepEvent(const EventTypeDecl& d, int variant, uint64_t time, uint16_t cap)
{
    Expected x;
    x.cap = cap;
    x.fields = wireFields(d.tag, d.size);
    std::vector<uint64_t> n;
    std::vector<std::string> s;
    std::vector<uint32_t> ids;
    size_t payload = 0;
    const char* f = x.fields ? x.fields : "";
    for (size_t k = 0; f[k]; ++k) {
        const char c = f[k];
        if (c == 'S' || c == 'Z') {
            std::string text;
            if (variant == 0)
                text = (c == 'S' ? "raw text of " : "cstr of ") + std::to_string(d.tag) + "/"
                    + std::to_string(k);
            else if (variant == 2)
                text = c == 'S' ? std::string("\xCE\xBB\0x\0\0\xFF\n", 8)
                                : std::string("\xC3\xBCnic\xC3\xB6" "de \xE2\x9C\x93");
            payload += text.size() + (c == 'Z');
            s.push_back(text);
        } else if (c == 'I') {
            const size_t depth = variant == 0 ? 3 : variant == 1 ? 0 : 255;
            for (size_t i = 0; i < depth; ++i)
                ids.push_back(variant == 0 ? uint32_t(mix(i + d.tag)) : uint32_t(i * 0x01010101u));
            n.back() = depth; // the u8 before the ids is their count
            payload += 4 * depth;
        } else {
            const uint64_t v = variant == 0 ? mix(d.tag * 16 + k) : variant == 1 ? ~uint64_t(0) : 0;
            n.push_back(v & widthMask(c));
            payload += size_t(c - '0');
        }
    }
    x.owned = makeEvent(d.tag, time, n, s, ids);
    x.recordSize = uint32_t(10 + (d.isVariable() ? 2 + payload : d.size));
    return x;
}

QString describe(const Copied& e)
{
    return QStringLiteral("tag %1 at offset %2").arg(e.tag).arg(e.offset);
}

// Compares one decoded event with what was written, field by field.
void compareFields(const Copied& got, const Expected& want)
{
    const Event& w = want.owned->event;
    const QString what = describe(got);
    QVERIFY2(got.tag == w.tag, qPrintable(what + QStringLiteral(": wrong tag, wanted %1").arg(w.tag)));
    QVERIFY2(got.time == w.time, qPrintable(what + QStringLiteral(": time")));
    QVERIFY2(got.cap == want.cap, qPrintable(what + QStringLiteral(": cap %1").arg(got.cap)));
    QVERIFY2(got.recordSize == want.recordSize,
             qPrintable(what + QStringLiteral(": record size %1, wanted %2")
                                   .arg(got.recordSize).arg(want.recordSize)));
    QVERIFY2(got.known == (want.fields != nullptr), qPrintable(what + QStringLiteral(": known")));
    QVERIFY2(got.trailing.empty(), qPrintable(what + QStringLiteral(": unexpected trailing bytes")));
    if (!want.fields)
        return;
    size_t ni = 0;
    size_t si = 0;
    for (const char* f = want.fields; *f; ++f) {
        if (*f == 'S' || *f == 'Z') {
            QVERIFY2(si < got.s.size() && got.s[si] == want.owned->strings[si],
                     qPrintable(what + QStringLiteral(": string %1").arg(si)));
            ++si;
        } else if (*f == 'I') {
            std::vector<uint32_t> ids;
            for (size_t i = 0; i < w.depth; ++i)
                ids.push_back(w.ccId(i));
            QVERIFY2(got.ids == ids, qPrintable(what + QStringLiteral(": cost-centre ids")));
        } else {
            QVERIFY2(got.n[ni] == w.n[ni],
                     qPrintable(what + QStringLiteral(": n[%1] = %2, wanted %3")
                                           .arg(ni).arg(got.n[ni]).arg(w.n[ni])));
            ++ni;
        }
    }
}

// The text `hecscope dump` prints after "Events:\n" for these bytes.
std::string eventsSection(const std::vector<uint8_t>& bytes, bool legacy = false)
{
    const std::string dump = dumpBytes(bytes, legacy);
    const size_t at = dump.find("\nEvents:\n");
    return at == std::string::npos ? "<no events section>" : dump.substr(at + 9);
}

std::vector<uint8_t> bytesOf(std::string_view s)
{
    return std::vector<uint8_t>(s.begin(), s.end());
}

// A literal's bytes including embedded NULs (without the terminator).
template <size_t N>
QByteArray raw(const char (&literal)[N])
{
    return QByteArray(literal, qsizetype(N - 1));
}

} // namespace

class TestEncoder : public QObject {
    Q_OBJECT
private slots:
    void everyTypeRoundTrips();
    void olderLayoutsRoundTrip();
    void tickyOptionalFields();
    void trailingBytesSurvive();
    void unknownPayloadsSurvive();
    void unusualDeclarations();
    void oversizedPayloadKeepsLogReadable();
    void printedText_data();
    void printedText();
    void realLogsReencodeIdentically_data();
    void realLogsReencodeIdentically();
};

// Every declaration of allDeclarations(), three value variants each, in a
// per-capability block, the global block and a block of cap 0.
void TestEncoder::everyTypeRoundTrips()
{
    const std::vector<EventTypeDecl> decls = EventlogWriter::allDeclarations();
    EventlogWriter writer(decls);
    std::vector<Expected> expected;
    struct Block {
        size_t index; // into expected: the marker's position in the decode
        uint64_t offset;
        uint64_t size;
        uint64_t endTime;
        uint16_t cap;
    };
    std::vector<Block> blocks;
    const std::array<uint16_t, 3> caps = {7, kNoCap, 0};
    uint64_t time = 0x0123456789ABCDEFULL;
    for (int variant = 0; variant < 3; ++variant) {
        Block b{expected.size(), writer.bytes().size(), 0, 0, caps[size_t(variant)]};
        writer.beginBlock(b.cap, time);
        expected.emplace_back(); // the marker, checked separately
        for (const EventTypeDecl& d : decls) {
            if (d.tag == tag::BlockMarker || d.tag == tag::TickyCounterDef)
                continue; // the markers are the blocks; ticky has its own test
            const char* f = wireFields(d.tag, d.size);
            if (f && !d.isVariable()) {
                // Our transcription of the spec must agree with GHC's sizes.
                size_t size = 0;
                for (const char* c = f; *c; ++c)
                    size += size_t(*c - '0');
                QVERIFY2(size == d.size, qPrintable(QStringLiteral("tag %1 declared %2, spec %3")
                                                        .arg(d.tag).arg(d.size).arg(size)));
            }
            expected.push_back(sweepEvent(d, variant, time += 977, b.cap));
            writer.write(expected.back().owned->event);
        }
        b.endTime = time + 5;
        writer.endBlock(b.endTime);
        b.size = writer.bytes().size() - b.offset;
        blocks.push_back(b);
    }
    writer.writeDataEnd();

    const DecodeResult got = decodeAll(writer.bytes());
    QVERIFY2(got.diagnostics.empty(), got.diagnostics.empty() ? "" : got.diagnostics[0].message().c_str());
    QCOMPARE(got.events.size(), expected.size());
    for (const Block& b : blocks) {
        const Copied& m = got.events[b.index];
        QCOMPARE(m.tag, uint16_t(tag::BlockMarker));
        QCOMPARE(m.offset, b.offset);
        QCOMPARE(m.n[0], b.size);
        QCOMPARE(m.n[1], b.endTime);
        QCOMPARE(m.n[2], uint64_t(b.cap));
        QCOMPARE(m.cap, b.cap);
    }
    for (size_t i = 0; i < expected.size(); ++i) {
        if (!expected[i].owned)
            continue;
        compareFields(got.events[i], expected[i]);
        if (QTest::currentTestFailed())
            return;
    }
    // Consecutive records tile the data: no byte is skipped or read twice.
    for (size_t i = 1; i < got.events.size(); ++i)
        QCOMPARE(got.events[i].offset, got.events[i - 1].offset + got.events[i - 1].recordSize);
}

// The layouts older GHCs declare: 6-byte STOP_THREAD (no info), 50-byte
// GC_STATS_GHC (no balanced copied) and, the other way round, the 14-byte
// NONMOVING_HEAP_CENSUS of GHC 9.10 (u16 block size; the 13-byte u8 form is
// in the sweep above).
void TestEncoder::olderLayoutsRoundTrip()
{
    const auto decls = declarationsWith({{tag::StopThread, 6}, {tag::GcStatsGhc, 50},
                                         {tag::NonmovingHeapCensus, 14}});
    EventlogWriter writer(decls);
    writer.beginBlock(2, 10);
    OwnedEvent stop(tag::StopThread, 11, {0xDEADBEEF, 0xFEDC, 777});
    OwnedEvent gc(tag::GcStatsGhc, 12, {0xFFFFFFFF, 3, 1ULL << 63, 5, 6, 0xFFFFFFFE, 8, 9, 12345});
    OwnedEvent census(tag::NonmovingHeapCensus, 13, {0xBEEF, 0x10000001, 2, 0xFFFFFFFF});
    for (const OwnedEvent* e : {&stop, &gc, &census})
        writer.write(e->event);
    writer.endBlock(14);
    writer.writeDataEnd();

    const DecodeResult got = decodeAll(writer.bytes());
    QVERIFY(got.diagnostics.empty());
    QCOMPARE(got.events.size(), size_t(4));
    const Copied& s = got.events[1];
    QCOMPARE(s.layout, uint16_t(6));
    QCOMPARE(s.recordSize, uint32_t(16));
    QCOMPARE(s.n[0], uint64_t(0xDEADBEEF));
    QCOMPARE(s.n[1], uint64_t(0xFEDC));
    QCOMPARE(s.n[2], uint64_t(0)); // not in the 6-byte form
    QCOMPARE(s.cap, uint16_t(2));
    const Copied& g = got.events[2];
    QCOMPARE(g.layout, uint16_t(50));
    QCOMPARE(g.recordSize, uint32_t(60));
    for (int i = 0; i < 8; ++i)
        QCOMPARE(g.n[size_t(i)], gc.event.n[i]);
    QCOMPARE(g.n[8], uint64_t(0));
    const Copied& c = got.events[3];
    QCOMPARE(c.layout, uint16_t(14));
    QCOMPARE(c.recordSize, uint32_t(24));
    for (int i = 0; i < 4; ++i)
        QCOMPARE(c.n[size_t(i)], census.event.n[i]);
    QCOMPARE(reencode(writer.bytes()).bytes, writer.bytes());
}

// TICKY_COUNTER_DEF grew an info-table word (9.4) and a JSON string (9.6);
// their presence is read from the payload length.
void TestEncoder::tickyOptionalFields()
{
    EventlogWriter writer(EventlogWriter::allDeclarations());
    struct Case {
        std::unique_ptr<OwnedEvent> e;
        uint32_t payload;
    };
    std::vector<Case> cases;
    // n: id, arity, info table, info table present, JSON present.
    cases.push_back({makeEvent(tag::TickyCounterDef, 1, {0x1122334455667788, 0xFFFF, 0, 0, 0},
                               {"ppv", "Main.f"}), 8 + 2 + 4 + 7});
    cases.push_back({makeEvent(tag::TickyCounterDef, 2, {1, 2, 0x4a5b6c, 1, 0}, {"", ""}),
                     8 + 2 + 1 + 1 + 8});
    cases.push_back({makeEvent(tag::TickyCounterDef, 3, {~0ULL, 0, ~0ULL, 1, 1},
                               {"p", "g", R"({"type":"entCounter"})"}),
                     8 + 2 + 2 + 2 + 8 + 22});
    cases.push_back({makeEvent(tag::TickyCounterDef, 4, {9, 1, 7, 1, 1}, {"a", "b", ""}),
                     8 + 2 + 2 + 2 + 8 + 1});
    writer.beginBlock(kNoCap, 0);
    for (const Case& c : cases)
        writer.write(c.e->event);
    writer.endBlock(5);
    writer.writeDataEnd();

    const DecodeResult got = decodeAll(writer.bytes());
    QVERIFY(got.diagnostics.empty());
    QCOMPARE(got.events.size(), cases.size() + 1);
    for (size_t i = 0; i < cases.size(); ++i) {
        const Copied& g = got.events[i + 1];
        const Event& w = cases[i].e->event;
        QCOMPARE(g.recordSize, 12 + cases[i].payload);
        QVERIFY(g.known);
        for (int k = 0; k < 5; ++k)
            QCOMPARE(g.n[size_t(k)], w.n[k]);
        QCOMPARE(g.s.size(), size_t(w.n[4] ? 3 : 2));
        for (size_t k = 0; k < g.s.size(); ++k)
            QCOMPARE(g.s[k], cases[i].e->strings[k]);
        QVERIFY(g.trailing.empty());
    }
    QCOMPARE(reencode(writer.bytes()).bytes, writer.bytes());
}

// A newer GHC may append fields: declared sizes above our layouts, and
// variable payloads longer than the fields we read. The extra bytes must
// come back as `trailing` and be written again by the encoder.
void TestEncoder::trailingBytesSurvive()
{
    const auto decls = declarationsWith({{tag::CapCreate, 6}, {tag::GcStatsGhc, 66},
                                         {tag::NonmovingHeapCensus, 20}, {tag::StopThread, 12},
                                         {tag::Startup, 5}});
    const std::vector<uint8_t> extra{0xDE, 0xAD, 0x00, 0xBE, 0xEF, 0x01, 0x02, 0xFF};
    auto tail = [&](size_t n) { return std::span<const uint8_t>(extra.data(), n); };

    std::vector<std::unique_ptr<OwnedEvent>> events;
    std::vector<uint16_t> layouts;
    std::vector<size_t> tails;
    auto add = [&](std::unique_ptr<OwnedEvent> e, uint16_t layout, size_t tailBytes) {
        e->event.trailing = tail(tailBytes);
        events.push_back(std::move(e));
        layouts.push_back(layout);
        tails.push_back(tailBytes);
    };
    add(makeEvent(tag::CapCreate, 1, {0xABCD}), 2, 4);
    add(makeEvent(tag::GcStatsGhc, 2, {1, 2, 3, 4, 5, 6, 7, 8, 9}), 58, 8);
    add(makeEvent(tag::NonmovingHeapCensus, 3, {64, 5, 6, 7}), 14, 6);
    add(makeEvent(tag::StopThread, 4, {42, 8, 41}), 10, 2);
    add(makeEvent(tag::Startup, 5, {4}), 2, 3);
    add(makeEvent(tag::HeapProfSampleString, 6, {0, 4096}, {"label"}), 0, 5);
    add(makeEvent(tag::HeapProfSampleCostCentre, 7, {0, 100, 2}, {}, {1, 2}), 0, 8);
    add(makeEvent(tag::HeapProfCostCentre, 8, {3, 1}, {"f", "M", "M.hs:1:1"}), 0, 3);
    add(makeEvent(tag::Ipe, 9, {0x409f78}, {"t", "21", "ty", "lbl", "Mod", "M.hs:1"}), 0, 4);
    add(makeEvent(tag::HeapProfBegin, 10, {0, 100, 2}, {"a", "", "", "", "", "", "g"}), 0, 7);
    add(makeEvent(tag::ProfSampleCostCentre, 11, {1, 2, 1}, {}, {77}), 0, 1);

    EventlogWriter writer(decls);
    writer.beginBlock(1, 0);
    for (const auto& e : events)
        writer.write(e->event);
    writer.endBlock(20);
    writer.writeDataEnd();

    const DecodeResult got = decodeAll(writer.bytes());
    QVERIFY(got.diagnostics.empty());
    QCOMPARE(got.events.size(), events.size() + 1);
    for (size_t i = 0; i < events.size(); ++i) {
        const Copied& g = got.events[i + 1];
        const Event& w = events[i]->event;
        const QString what = describe(g);
        QVERIFY2(g.known, qPrintable(what));
        if (layouts[i] != 0)
            QCOMPARE(g.layout, layouts[i]);
        QVERIFY2(g.trailing == std::vector<uint8_t>(extra.begin(), extra.begin() + ptrdiff_t(tails[i])),
                 qPrintable(what + QStringLiteral(": trailing bytes")));
        const char* f = wireFields(w.tag, g.layout);
        QVERIFY(f);
        size_t ni = 0;
        for (; *f; ++f)
            if (*f >= '1' && *f <= '8') {
                QVERIFY2(g.n[ni] == w.n[ni], qPrintable(what + QStringLiteral(": n[%1]").arg(ni)));
                ++ni;
            }
        for (size_t k = 0; k < events[i]->strings.size(); ++k)
            QCOMPARE(g.s[k], events[i]->strings[k]);
        QCOMPARE(g.ids.size(), size_t(w.depth));
    }
    QCOMPARE(reencode(writer.bytes()).bytes, writer.bytes());
}

// Types we have no layout for, under the declared size: a foreign fixed and
// a foreign variable tag, a known tag declared variable, a variable-only tag
// declared fixed, and a known tag declared shorter than its layout.
void TestEncoder::unknownPayloadsSurvive()
{
    const std::vector<EventTypeDecl> decls{
        {tag::CreateThread, 4, "Create thread", {}},
        {tag::BlockMarker, 14, "Block marker", {}},
        {150, 5, "Foreign fixed", {}},
        {151, kVariableSize, "Foreign variable", {}},
        {tag::RunThread, kVariableSize, "Run thread, variable here", {}},
        {tag::UserMsg, 3, "User message, fixed here", {}},
        {tag::HeapSize, 4, "Heap size, too short", {}},
    };
    struct Raw {
        uint16_t tag;
        std::vector<uint8_t> payload;
    };
    const std::vector<Raw> raws{
        {150, {0x00, 0xFF, 0x7F, 0x80, 0x01}},
        {151, bytesOf(std::string_view("xyz\0\xff", 5))},
        {151, {}},
        {tag::RunThread, {0, 0, 0, 9, 1, 2, 3}},
        {tag::UserMsg, {'h', 'i', 0}},
        {tag::HeapSize, {1, 2, 3, 4}},
    };
    EventlogWriter writer(decls);
    writer.beginBlock(2, 100);
    OwnedEvent create(tag::CreateThread, 100, {9});
    writer.write(create.event);
    std::vector<std::unique_ptr<OwnedEvent>> owned;
    for (const Raw& r : raws) {
        owned.push_back(makeEvent(r.tag, 101 + owned.size(), {}));
        owned.back()->event.trailing = r.payload;
        writer.write(owned.back()->event);
    }
    OwnedEvent again(tag::CreateThread, 101 + owned.size(), {9});
    writer.write(again.event); // still in step after them
    writer.endBlock(200);
    writer.writeDataEnd();

    const DecodeResult got = decodeAll(writer.bytes());
    QVERIFY(got.diagnostics.empty());
    QCOMPARE(got.events.size(), raws.size() + 3);
    for (size_t i = 0; i < raws.size(); ++i) {
        const Copied& g = got.events[i + 2];
        QCOMPARE(g.tag, raws[i].tag);
        QVERIFY(!g.known);
        QVERIFY(g.payload == raws[i].payload);
        QCOMPARE(g.cap, uint16_t(2));
    }
    QCOMPARE(got.events.back().tag, uint16_t(tag::CreateThread));
    QCOMPARE(got.events.back().n[0], uint64_t(9));
    QCOMPARE(reencode(writer.bytes()).bytes, writer.bytes());

    // `show` prints an unknown event as its header description.
    const std::string events = eventsSection(writer.bytes());
    QVERIFY(events.find("101: cap 2: Foreign fixed\n") != std::string::npos);
    QVERIFY(events.find("103: cap 2: Foreign variable\n") != std::string::npos);
    QVERIFY(events.find("105: cap 2: User message, fixed here\n") != std::string::npos);
}

// Header oddities of 1.3 and 5 (#22, #25): reserved extra-info bytes, and a
// tag declared twice (the last declaration decides the size and the text of
// an unknown event; `show` lists both). Declarations come back exactly.
void TestEncoder::unusualDeclarations()
{
    const std::vector<EventTypeDecl> decls{
        {tag::BlockMarker, 14, "Block marker", {}},
        {tag::RunThread, 4, "Run thread", {}},
        {tag::StopThread, 10, "Stop thread", std::string("\x01\0extra", 7)},
        {150, 2, "First", {}},
        {tag::RunThread, 6, "Run thread, newer", {}},
        {150, 3, "Second", {}},
    };
    EventlogWriter writer(decls);
    writer.beginBlock(1, 10);
    OwnedEvent run(tag::RunThread, 11, {77});
    OwnedEvent stop(tag::StopThread, 12, {77, 5, 0});
    OwnedEvent foreign(150, 13);
    const std::vector<uint8_t> foreignPayload{9, 8, 7};
    foreign.event.trailing = foreignPayload;
    for (const OwnedEvent* e : {&run, &stop, &foreign})
        writer.write(e->event);
    writer.endBlock(14);
    writer.writeDataEnd();

    CopySink sink;
    StreamDecoder decoder(sink);
    decoder.feed(writer.bytes());
    decoder.finish();
    QVERIFY(decoder.diagnostics().empty());
    QVERIFY(decoder.format()->declarations() == decls);
    QCOMPARE(sink.events.size(), size_t(4));
    QCOMPARE(sink.events[1].recordSize, uint32_t(16));
    QCOMPARE(sink.events[1].n[0], uint64_t(77));
    QVERIFY(sink.events[1].trailing == std::vector<uint8_t>(2, 0));
    QCOMPARE(sink.events[2].n[1], uint64_t(5));
    QVERIFY(sink.events[3].payload == foreignPayload);
    QCOMPARE(reencode(writer.bytes()).bytes, writer.bytes());

    const std::string dump = dumpBytes(writer.bytes());
    QVERIFY(dump.find("Event Types:\n18: Block marker (size 14)\n1: Run thread (size 4)\n"
                      "2: Stop thread (size 10)\n150: First (size 2)\n1: Run thread, newer (size 6)\n"
                      "150: Second (size 3)\n\nEvents:\n") == 0);
    QVERIFY(dump.find("\n13: cap 1: Second\n") != std::string::npos);
}

// A variable payload cannot exceed the u16 length (1.4). Whatever the writer
// does with a longer one (cut it, drop it), the log it writes must stay
// decodable: the next event is intact and nothing is reported corrupt.
void TestEncoder::oversizedPayloadKeepsLogReadable()
{
    EventlogWriter writer(EventlogWriter::allDeclarations());
    const std::string text(70000, 'x');
    OwnedEvent msg(tag::UserMsg, 1, {}, {text});
    OwnedEvent run(tag::RunThread, 2, {5});
    writer.write(msg.event);
    writer.write(run.event);
    writer.writeDataEnd();
    const DecodeResult got = decodeAll(writer.bytes());
    // Regression: the writer once clamped the length field to 65535 but
    // appended all 70000 bytes, so the next tag was read from the text.
    QVERIFY2(got.diagnostics.empty(), got.diagnostics.empty() ? "" : got.diagnostics[0].message().c_str());
    QVERIFY(!got.events.empty());
    QCOMPARE(got.events.back().tag, uint16_t(tag::RunThread));
    QCOMPARE(got.events.back().n[0], uint64_t(5));
}

void TestEncoder::printedText_data()
{
    QTest::addColumn<bool>("legacy");    // PrinterStyle::Legacy (ghc-events <= 0.17)
    QTest::addColumn<bool>("shortStop"); // STOP_THREAD declared with 6 bytes
    QTest::addColumn<int>("tag");
    QTest::addColumn<QList<quint64>>("n");
    QTest::addColumn<QList<QByteArray>>("s");
    QTest::addColumn<QList<quint32>>("ids");
    QTest::addColumn<QByteArray>("expected"); // the event's output, time 77, no cap

    auto row = [](const char* name, int t, QList<quint64> n, QList<QByteArray> s,
                  QByteArray expected, QList<quint32> ids = {}, bool shortStop = false) {
        QTest::newRow(name) << false << shortStop << t << n << s << ids << expected;
    };
    auto legacyRow = [](const char* name, int t, QList<quint64> n, QByteArray expected) {
        QTest::newRow(name) << true << false << t << n << QList<QByteArray>{} << QList<quint32>{} << expected;
    };
    // 3.3: status texts, head's where head has one, the releases' otherwise.
    row("stop black hole", tag::StopThread, {5, 8, 23}, {},
        "77: stopping thread 5 (blocked on black hole owned by thread 23)\n");
    row("stop black hole unknown owner", tag::StopThread, {5, 8, 0}, {},
        "77: stopping thread 5 (blocked on black hole owned by thread 0)\n");
    row("stop blocked", tag::StopThread, {5, 4, 0}, {}, "77: stopping thread 5 (thread blocked)\n");
    row("stop stack overflow", tag::StopThread, {5, 2, 4096}, {},
        "77: stopping thread 5 (stack overflow, size 4096)\n");
    row("stop heap overflow", tag::StopThread, {1, 1, 0}, {}, "77: stopping thread 1 (heap overflow)\n");
    row("stop yielding", tag::StopThread, {1, 3, 0}, {}, "77: stopping thread 1 (thread yielding)\n");
    row("stop finished", tag::StopThread, {1, 5, 0}, {}, "77: stopping thread 1 (thread finished)\n");
    row("stop foreign call", tag::StopThread, {1, 6, 0}, {},
        "77: stopping thread 1 (making a foreign call)\n");
    row("stop mvar", tag::StopThread, {1, 7, 0}, {}, "77: stopping thread 1 (blocked on an MVar)\n");
    row("stop read", tag::StopThread, {1, 9, 0}, {}, "77: stopping thread 1 (blocked on I/O read)\n");
    row("stop delay", tag::StopThread, {1, 11, 0}, {},
        "77: stopping thread 1 (blocked on threadDelay)\n");
    row("stop stm", tag::StopThread, {1, 12, 0}, {}, "77: stopping thread 1 (blocked in STM retry)\n");
    row("stop foreign 14", tag::StopThread, {1, 14, 0}, {},
        "77: stopping thread 1 (blocked in a foreign call)\n");
    row("stop throwTo", tag::StopThread, {1, 18, 0}, {}, "77: stopping thread 1 (blocked in throwTo)\n");
    row("stop mvar read", tag::StopThread, {1, 20, 0}, {},
        "77: stopping thread 1 (blocked reading an MVar)\n");
    row("stop none", tag::StopThread, {1, 0, 0}, {}, "77: stopping thread 1 (No stop thread status)\n");
    row("stop 19", tag::StopThread, {1, 19, 0}, {}, "77: stopping thread 1 (No stop thread status)\n");
    row("stop beyond max", tag::StopThread, {1, 21, 0}, {},
        "77: stopping thread 1 (No stop thread status)\n");
    row("stop 6-byte black hole", tag::StopThread, {3, 8}, {},
        "77: stopping thread 3 (blocked on a black hole)\n", {}, true);
    row("stop 6-byte overflow", tag::StopThread, {3, 2}, {},
        "77: stopping thread 3 (stack overflow)\n", {}, true);

    // 3.4: Haskell `show` of the argument vector.
    row("args escapes", tag::ProgramArgs, {7},
        {raw("prog\0a\"b\0x\\y\0\xC3\xA9" "1\0\xCE\xBBx\0\x0EH\0\x7F\0\n\t\x01\0"
             "\xF0\x9F\x98\x80\0")},
        "77: capset 7: args: [\"prog\",\"a\\\"b\",\"x\\\\y\",\"\\233\\&1\",\"\\955x\","
        "\"\\SO\\&H\",\"\\DEL\",\"\\n\\t\\SOH\",\"\\128512\"]\n");
    row("env empty inner and trailing", tag::ProgramEnv, {0}, {raw("A=1\0\0B=2\0\0\0")},
        "77: capset 0: env: [\"A=1\",\"\",\"B=2\"]\n");
    row("env empty", tag::ProgramEnv, {0}, {QByteArray()}, "77: capset 0: env: [\"\"]\n");

    QByteArray allBytes;
    for (int b = 0; b < 256; ++b)
        allBytes.append(char(b));
    QByteArray printable;
    for (int c = 0x20; c < 0x7F; ++c)
        printable.append(char(c));
    row("binary all bytes", tag::UserBinaryMsg, {}, {allBytes},
        "77: binary message " + QByteArray(32, '.') + printable + QByteArray(129, '.') + "\n");
    row("binary utf-8", tag::UserBinaryMsg, {}, {raw("Hello, \xC3\xA9\xE3\x81\x93\0")},
        "77: binary message Hello, \xC3\xA9\xE3\x81\x93.\n");

    row("user msg empty", tag::UserMsg, {}, {QByteArray()}, "77: \n");
    row("log msg newline", tag::LogMsg, {}, {QByteArray("a\nb")}, "77: a\nb\n");
    row("marker", tag::UserMarker, {}, {QByteArray("phase 2")}, "77: marker: phase 2\n");
    row("marker empty", tag::UserMarker, {}, {QByteArray()}, "77: marker: \n");
    row("label", tag::ThreadLabel, {9}, {QByteArray("worker \"x\"")},
        "77: thread 9 has label \"worker \"x\"\"\n");
    row("rts id", tag::RtsIdentifier, {0}, {QByteArray("GHC-9.0.2 rts_l")},
        "77: capset 0: RTS version \"GHC-9.0.2 rts_l\"\n");
    row("intern", tag::InternString, {7}, {QByteArray("abc")},
        "77: Interned string: \"abc\" with id 7\n");
    row("task create", tag::TaskCreate, {0x7fdd0ee00460, 0, 4628350}, {},
        "77: task 0x7fdd0ee00460 created on cap 0 with OS kernel thread 4628350\n");
    row("task migrate", tag::TaskMigrate, {0xabc, 1, 2}, {}, "77: task 0xabc migrated from cap 1 to cap 2\n");
    row("task delete max", tag::TaskDelete, {~0ULL}, {}, "77: task 0xffffffffffffffff deleted\n");
    row("heap allocated max", tag::HeapAllocated, {1, ~0ULL}, {},
        "77: allocated on heap capset 1: 18446744073709551615 total bytes till now\n");
    row("perf counter", tag::PerfCounter, {3, 77, 9}, {},
        "77: perf event counter 3 incremented by 10 in OS thread 77\n");
    row("spark counters", tag::SparkCounters, {1, 2, 3, 4, 5, 6, 7}, {},
        "77: spark stats: 1 created, 4 converted, 7 remaining (3 overflowed, 2 dud, 5 GC'd, 6 fizzled)\n");
    row("capset os", tag::CapsetCreate, {3, 2}, {}, "77: created capset 3 of type CapsetOsProcess\n");
    row("capset unknown", tag::CapsetCreate, {3, 9}, {}, "77: created capset 3 of type CapsetUnknown\n");
    row("assign cap", tag::CapsetAssignCap, {3, 1}, {}, "77: assigned cap 1 to capset 3\n");
    row("wall clock", tag::WallClockTime, {0, 1700000000, 123}, {},
        "77: capset 0: wall clock time 1700000000s 123ns (unix epoch)\n");
    row("gc stats", tag::GcStatsGhc, {0, 1, 2, 3, 4, 5, 6, 7, 8}, {},
        "77: GC stats for heap capset 0: generation 1, 2 bytes copied, 3 bytes slop, 4 bytes "
        "fragmentation, 5 par threads, 6 bytes max par copied, 7 bytes total par copied, 8 bytes "
        "balanced par copied\n");
    row("mem return", tag::MemReturn, {0, 10, 20, 30}, {},
        "77: memory returned (mblocks): current(10) needed(20) returned(30)\n");
    row("heap prof begin", tag::HeapProfBegin, {0, 100000000, 6}, {"", "", "", "", "", "", ""},
        "77: start heap profiling 0 at sampling period 100000000 broken down by biography\n");
    row("heap prof begin filtered", tag::HeapProfBegin, {0, 5, 2},
        {"Main", "", "", "", "", "", "DRAG"},
        "77: start heap profiling 0 at sampling period 5 broken down by module filtered by Main, DRAG, \n");
    row("cost centre caf", tag::HeapProfCostCentre, {12, 1}, {"foo", "Main", "Main.hs:3:1"},
        "77: cost centre 12 foo in Main at Main.hs:3:1 CAF\n");
    row("ccs depth 0", tag::HeapProfSampleCostCentre, {0, 4096, 0}, {},
        "77: heap prof sample 0, residency 4096, cost centre stack \n");
    row("ccs depth 3", tag::HeapProfSampleCostCentre, {0, 4096, 3}, {},
        "77: heap prof sample 0, residency 4096, cost centre stack 7, 8, 9\n", {7, 8, 9});
    row("time prof sample", tag::ProfSampleCostCentre, {2, 100, 1}, {},
        "77: cap no 2, prof sample 100, cost centre stack 42\n", {42});
    row("time prof sample wide cap", tag::ProfSampleCostCentre, {0x12345, 1, 0}, {},
        "77: cap no 9029, prof sample 1, cost centre stack \n"); // truncated to 16 bits (5 #27)
    row("sample string", tag::HeapProfSampleString, {0, 48}, {"VOID"},
        "77: heap prof sample 0, residency 48, label VOID\n");
    row("bio sample", tag::HeapBioProfSampleBegin, {7, 866544061}, {},
        "77: start heap prof sample 7 at time 866544061\n");
    row("sample end", tag::HeapProfSampleEnd, {3}, {}, "77: end prof sample 3\n");
    row("ipe", tag::Ipe, {0x409f78}, {"sat_s154_info", "21", "ty", "lbl", "Main", "Test.hs:5:1-30"},
        "77: Info Table: 409f78:21:sat_s154_info - Test.hs:5:1-30\n");
    row("ipe closure number", tag::Ipe, {0xabc}, {"t_info", "021", "", "", "", "A.hs:1:1"},
        "77: Info Table: abc:21:t_info - A.hs:1:1\n"); // the number, parsed
    row("census 13", tag::NonmovingHeapCensus, {5, 1, 2, 3}, {},
        "77: nonmoving heap census 32: 1 active segments, 2 filled segments, 3 live blocks\n");
    row("ticky def", tag::TickyCounterDef, {5, 2, 0xabc, 1, 0}, {"pp", "f"},
        "77: ticky counter definition 5, arity: 2, def kinds: pp, name: f, itbl: abc\n");
    row("ticky def no itbl", tag::TickyCounterDef, {5, 2, 0, 0, 0}, {"pp", "f"},
        "77: ticky counter definition 5, arity: 2, def kinds: pp, name: f, itbl: 0\n");
    row("eden send", tag::SendMessage, {0x57, 1, 2, 3, 4, 5}, {},
        "77: sending message with tag DataMes from process 1, thread 2 to machine 3, process 4 on inport 5\n");
    row("mercury conj", tag::MerStartParConjunction, {0xff, 3}, {},
        "77: Start a parallel conjunction 0xff, static_id: 3\n");
    row("block marker", tag::BlockMarker, {24, 95662, 0}, {},
        "77: cap 0: event block: cap 0, end time: 95662\n\n");
    row("global block marker", tag::BlockMarker, {24, 90, 0xFFFF}, {},
        "77: event block: cap 65535, end time: 90\n\n");

    // 3.0 and 3.3: what ghc-events <= 0.17 printed differently.
    legacyRow("legacy block marker", tag::BlockMarker, {24, 90, 0}, ""); // not printed
    legacyRow("legacy stack overflow", tag::StopThread, {5, 2, 4096},
              "77: stopping thread 5 (stack overflow)\n");
    legacyRow("legacy blocked", tag::StopThread, {5, 4, 0}, "77: stopping thread 5 (thread blocked)\n");
    legacyRow("legacy 16", tag::StopThread, {5, 16, 0}, "77: stopping thread 5 (blocked in throwTo)\n");
    legacyRow("legacy 17", tag::StopThread, {5, 17, 0}, "77: stopping thread 5 (thread migrating)\n");
    legacyRow("legacy 18", tag::StopThread, {5, 18, 0},
              "77: stopping thread 5 (waiting for data to be globalised)\n");
    legacyRow("legacy run spark", tag::RunSpark, {3}, "77: running a local spark\n");
    legacyRow("legacy steal spark", tag::StealSpark, {3, 2}, "77: stealing a spark from cap 2\n");
    legacyRow("legacy shutdown", tag::Shutdown, {}, "77: shutting down\n");
    row("head run spark", tag::RunSpark, {3}, {}, "77: Run spark\n"); // no decoder: the description
    row("head shutdown", tag::Shutdown, {}, {}, "77: Shutdown\n");
}

// Each row: one event outside any block, printed by `hecscope dump`.
void TestEncoder::printedText()
{
    QFETCH(bool, legacy);
    QFETCH(bool, shortStop);
    QFETCH(int, tag);
    QFETCH(QList<quint64>, n);
    QFETCH(QList<QByteArray>, s);
    QFETCH(QList<quint32>, ids);
    QFETCH(QByteArray, expected);

    EventlogWriter writer(shortStop ? declarationsWith({{tag::StopThread, 6}})
                                    : EventlogWriter::allDeclarations());
    std::vector<std::string> strings;
    for (const QByteArray& b : s)
        strings.emplace_back(b.constData(), size_t(b.size()));
    auto e = makeEvent(uint16_t(tag), 77, std::vector<uint64_t>(n.begin(), n.end()), strings,
                       std::vector<uint32_t>(ids.begin(), ids.end()));
    writer.write(e->event);
    writer.writeDataEnd();
    // Legacy style: ghc-events <= 0.17 printed "waiting for data to be
    // globalised" for 18, head "blocked in throwTo" (eventlog-format.md 3.0).
    QCOMPARE(QByteArray::fromStdString(eventsSection(writer.bytes(), legacy)), expected + "\n");
}

void TestEncoder::realLogsReencodeIdentically_data()
{
    QTest::addColumn<QString>("log");
    QTest::addColumn<bool>("hasReference");
    const QStringList head = conformanceLogs(QStringLiteral("ghc-events"));
    const QStringList legacy = conformanceLogs(QStringLiteral("legacy"));
    if (head.isEmpty() && legacy.isEmpty())
        QSKIP("../shared/conformance is not present on this machine");
    for (const QString& log : head)
        QTest::newRow(qPrintable(QStringLiteral("ghc-events/") + QFileInfo(log).fileName())) << log << true;
    for (const QString& log : legacy)
        QTest::newRow(qPrintable(QStringLiteral("legacy/") + QFileInfo(log).fileName())) << log << false;
}

void TestEncoder::realLogsReencodeIdentically()
{
    QFETCH(QString, log);
    QFETCH(bool, hasReference);
    const std::vector<uint8_t> original = readFile(log);
    QVERIFY(!original.empty());
    const Reencoded r = reencode(original);
    QVERIFY(!r.hasError);
    QVERIFY(r.decodedBytes <= original.size());
    // Only the truncated sample ends early; all others decode to their end.
    if (!log.endsWith(QStringLiteral("testlog-part.eventlog")))
        QCOMPARE(r.decodedBytes, uint64_t(original.size()));
    const std::vector<uint8_t> prefix(original.begin(), original.begin() + ptrdiff_t(r.decodedBytes));
    QCOMPARE(r.bytes.size(), prefix.size());
    if (r.bytes != prefix) {
        size_t i = 0;
        while (r.bytes[i] == prefix[i])
            ++i;
        QFAIL(qPrintable(QStringLiteral("first differing byte at offset %1").arg(i)));
    }
    if (hasReference) {
        const std::string reference = readText(log + QStringLiteral(".reference"));
        QVERIFY(dumpBytes(r.bytes) == reference);
    }
}

QTEST_GUILESS_MAIN(TestEncoder)
#include "tst_encoder.moc"
