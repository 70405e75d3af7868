#include "core/textbuffer.h"

#include <cstring>

namespace hecscope {
namespace {

constexpr char kDigitPairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

} // namespace

void TextBuffer::appendDecimal(uint64_t v)
{
    char buf[20];
    char* end = buf + sizeof buf;
    char* p = end;
    while (v >= 100) {
        const unsigned pair = unsigned(v % 100) * 2;
        v /= 100;
        p -= 2;
        std::memcpy(p, kDigitPairs + pair, 2);
    }
    if (v >= 10) {
        p -= 2;
        std::memcpy(p, kDigitPairs + v * 2, 2);
    } else {
        *--p = char('0' + v);
    }
    m_text.append(p, size_t(end - p));
}

void TextBuffer::appendHex(uint64_t v)
{
    char buf[16];
    char* end = buf + sizeof buf;
    char* p = end;
    do {
        *--p = "0123456789abcdef"[v & 15];
        v >>= 4;
    } while (v != 0);
    m_text.append(p, size_t(end - p));
}

} // namespace hecscope
