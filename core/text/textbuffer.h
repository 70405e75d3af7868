#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>

namespace hecscope {

// Append-only text buffer with fast decimal and hex formatting. The dump
// writes hundreds of megabytes through it, so every append is an inline
// bounds check plus a copy: no iostreams, no printf, no std::string growth
// bookkeeping.
class TextBuffer {
public:
    TextBuffer() { grow(4096); }
    TextBuffer(const TextBuffer&) = delete;
    TextBuffer& operator=(const TextBuffer&) = delete;

    void append(std::string_view s)
    {
        ensure(s.size());
        std::memcpy(m_end, s.data(), s.size());
        m_end += s.size();
    }
    void append(char c)
    {
        ensure(1);
        *m_end++ = c;
    }
    void appendDecimal(uint64_t v)
    {
        ensure(20);
        m_end = writeDecimal(m_end, v);
    }
    void appendHex(uint64_t v); // lowercase, no prefix, no padding

    std::string_view text() const { return {m_begin, size_t(m_end - m_begin)}; }
    size_t size() const { return size_t(m_end - m_begin); }
    void clear() { m_end = m_begin; }
    void reserve(size_t n) { ensure(n); }

    // Writes the decimal digits of `v` at `p`; returns the end.
    static char* writeDecimal(char* p, uint64_t v);

private:
    void ensure(size_t n)
    {
        if (size_t(m_capacityEnd - m_end) < n)
            grow(n);
    }
    void grow(size_t n);

    std::unique_ptr<char[]> m_storage;
    char* m_begin = nullptr;
    char* m_end = nullptr;
    char* m_capacityEnd = nullptr;
};

inline char* TextBuffer::writeDecimal(char* p, uint64_t v)
{
    static constexpr char kPairs[] =
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
        "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
        "8081828384858687888990919293949596979899";
    unsigned digits = 1;
    uint64_t x = v;
    while (x >= 10000) {
        x /= 10000;
        digits += 4;
    }
    digits += unsigned(x >= 10) + unsigned(x >= 100) + unsigned(x >= 1000);
    char* end = p + digits;
    char* q = end;
    while (v >= 100) {
        q -= 2;
        std::memcpy(q, kPairs + (v % 100) * 2, 2);
        v /= 100;
    }
    if (v >= 10) {
        q -= 2;
        std::memcpy(q, kPairs + v * 2, 2);
    } else {
        *--q = char('0' + v);
    }
    return end;
}

} // namespace hecscope
