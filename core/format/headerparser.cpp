#include "core/format/headerparser.h"

#include "core/format/bytes.h"

#include <cstdio>

namespace hecscope {
namespace {

constexpr uint32_t kHeaderBegin = 0x68647262; // "hdrb"
constexpr uint32_t kHetBegin = 0x68657462;    // "hetb"
constexpr uint32_t kEtBegin = 0x65746200;     // "etb\0"
constexpr uint32_t kEtEnd = 0x65746500;       // "ete\0"
constexpr uint32_t kHetEnd = 0x68657465;      // "hete"
constexpr uint32_t kHeaderEnd = 0x68647265;   // "hdre"
constexpr uint32_t kDataBegin = 0x64617462;   // "datb"

// Descriptions are short sentences; a longer length field means the bytes are
// not a header (or are damaged), and waiting for gigabytes would be wrong.
constexpr uint32_t kMaxTextLength = 1 << 16;

std::string quoteMarker(uint32_t v)
{
    std::string s = "'";
    for (int shift = 24; shift >= 0; shift -= 8) {
        const unsigned char c = static_cast<unsigned char>(v >> shift);
        if (c >= 0x20 && c < 0x7f) {
            s += char(c);
        } else {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02x", c);
            s += buf;
        }
    }
    return s + "'";
}

void appendU16(std::vector<uint8_t>& out, uint16_t v)
{
    out.push_back(uint8_t(v >> 8));
    out.push_back(uint8_t(v));
}

void appendU32(std::vector<uint8_t>& out, uint32_t v)
{
    appendU16(out, uint16_t(v >> 16));
    appendU16(out, uint16_t(v));
}

} // namespace

HeaderParse parseHeader(const uint8_t* data, size_t size, HeaderResume* resume)
{
    HeaderParse r;
    size_t pos = 0;
    size_t declStart = 0; // start of the declaration being read, once in the list
    auto need = [&](size_t n) {
        if (size - pos >= n)
            return true;
        r.status = HeaderParse::NeedMore;
        r.needed = pos + n;
        return false;
    };
    auto fail = [&](DiagnosticKind kind, size_t offset, std::string detail) {
        r.status = HeaderParse::Failed;
        r.error = Diagnostic{kind, offset, 0, std::move(detail)};
        return r;
    };
    auto expect = [&](uint32_t marker, const char* what) {
        const uint32_t v = readU32(data + pos);
        if (v == marker) {
            pos += 4;
            return true;
        }
        fail(pos == 0 ? DiagnosticKind::NotAnEventlog : DiagnosticKind::MalformedHeader, pos,
             std::string("expected ") + what + " " + quoteMarker(marker) + ", found "
                 + quoteMarker(v));
        return false;
    };

    // An incomplete result inside the declaration list hands its progress
    // back to the caller's resume state.
    auto needMore = [&]() -> HeaderParse {
        if (resume && declStart > 0 && r.status == HeaderParse::NeedMore) {
            resume->pos = declStart;
            resume->declarations = std::move(r.declarations);
        }
        return std::move(r);
    };

    if (resume && resume->pos > 0 && resume->pos <= size) {
        pos = resume->pos;
        r.declarations = std::move(resume->declarations);
        *resume = {};
        goto declarations;
    }
    if (size == 0)
        return need(4), r;
    if (size < 4) {
        // Reject early what cannot become "hdrb".
        for (size_t i = 0; i < size; ++i)
            if (data[i] != uint8_t(kHeaderBegin >> (24 - 8 * i)))
                return fail(DiagnosticKind::NotAnEventlog, 0, "the file does not start with 'hdrb'");
        return need(4), r;
    }
    if (!expect(kHeaderBegin, "header magic"))
        return r;
    if (!need(4) || !expect(kHetBegin, "event type list"))
        return r;
declarations:
    for (;;) {
        declStart = pos;
        if (!need(4))
            return needMore();
        const uint32_t marker = readU32(data + pos);
        if (marker == kHetEnd) {
            pos += 4;
            break;
        }
        if (marker != kEtBegin)
            return fail(DiagnosticKind::MalformedHeader, pos,
                        "expected event type declaration 'etb\\0' or end of list 'hete', found "
                            + quoteMarker(marker));
        if (!need(4 + 2 + 2 + 4))
            return needMore();
        EventTypeDecl d;
        d.tag = readU16(data + pos + 4);
        d.size = readU16(data + pos + 6);
        pos += 8;
        // A u32 length, then that many bytes of text; false when incomplete or
        // implausible (r says which).
        auto lengthPrefixed = [&](const char* what, std::string& out) {
            const uint32_t length = readU32(data + pos);
            if (length > kMaxTextLength) {
                fail(DiagnosticKind::MalformedHeader, pos,
                     std::string("implausible ") + what + " length " + std::to_string(length)
                         + " for event type " + std::to_string(d.tag));
                return false;
            }
            pos += 4;
            if (!need(size_t(length) + 4)) // the text and the next u32
                return false;
            out.assign(reinterpret_cast<const char*>(data + pos), length);
            pos += length;
            return true;
        };
        if (!lengthPrefixed("description", d.description) || !lengthPrefixed("extra-info", d.extra))
            return needMore();
        if (!expect(kEtEnd, "end of declaration"))
            return r;
        r.declarations.push_back(std::move(d));
    }
    if (!need(4) || !expect(kHeaderEnd, "end of header"))
        return r;
    if (!need(4) || !expect(kDataBegin, "start of data"))
        return r;
    r.status = HeaderParse::Complete;
    r.consumed = pos;
    return r;
}

void appendHeader(std::vector<uint8_t>& out, const std::vector<EventTypeDecl>& declarations)
{
    appendU32(out, kHeaderBegin);
    appendU32(out, kHetBegin);
    for (const auto& d : declarations) {
        appendU32(out, kEtBegin);
        appendU16(out, d.tag);
        appendU16(out, d.size);
        appendU32(out, uint32_t(d.description.size()));
        out.insert(out.end(), d.description.begin(), d.description.end());
        appendU32(out, uint32_t(d.extra.size()));
        out.insert(out.end(), d.extra.begin(), d.extra.end());
        appendU32(out, kEtEnd);
    }
    appendU32(out, kHetEnd);
    appendU32(out, kHeaderEnd);
    appendU32(out, kDataBegin);
}

} // namespace hecscope
