#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace hecscope {

// Append-only text buffer with fast decimal and hex formatting. The dump
// writes hundreds of megabytes through it, so formatting avoids iostreams and
// printf.
class TextBuffer {
public:
    void append(std::string_view s) { m_text.append(s); }
    void append(char c) { m_text.push_back(c); }
    void appendDecimal(uint64_t v);
    void appendHex(uint64_t v); // lowercase, no prefix, no padding

    const std::string& text() const { return m_text; }
    size_t size() const { return m_text.size(); }
    void clear() { m_text.clear(); }
    void reserve(size_t n) { m_text.reserve(n); }

private:
    std::string m_text;
};

} // namespace hecscope
