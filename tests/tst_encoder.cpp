// The encoder and the decoder agree on every layout: events of every declared
// type written with EventlogWriter decode to the same fields, unknown and
// trailing bytes survive a decode/encode cycle, the printer produces the texts
// of eventlog-format.md 3.2-3.4, and re-encoding every real log reproduces its
// bytes exactly. The field layouts below are transcribed from the spec (2.1),
// not taken from the code, so that a disagreement shows up as a failure.
#include "tst_encoder.h"

namespace encodertest {

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

std::unique_ptr<OwnedEvent> makeEvent(uint16_t t, uint64_t time, const std::vector<uint64_t>& n,
                                      const std::vector<std::string>& s,
                                      const std::vector<uint32_t>& ids)
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

std::string eventsSection(const std::vector<uint8_t>& bytes, bool legacy)
{
    const std::string dump = dumpBytes(bytes, legacy);
    const size_t at = dump.find("\nEvents:\n");
    return at == std::string::npos ? "<no events section>" : dump.substr(at + 9);
}

} // namespace encodertest

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

std::vector<uint8_t> bytesOf(std::string_view s)
{
    return std::vector<uint8_t>(s.begin(), s.end());
}

} // namespace

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

QTEST_GUILESS_MAIN(TestEncoder)
