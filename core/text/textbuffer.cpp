#include "core/text/textbuffer.h"

#include <algorithm>

namespace hecscope {

void TextBuffer::grow(size_t n)
{
    const size_t used = size();
    const size_t capacity = size_t(m_capacityEnd - m_begin);
    const size_t wanted = std::max(used + n, capacity * 2);
    std::unique_ptr<char[]> storage(new char[wanted]); // uninitialised: no memset
    if (used > 0)
        std::memcpy(storage.get(), m_begin, used);
    m_storage = std::move(storage);
    m_begin = m_storage.get();
    m_end = m_begin + used;
    m_capacityEnd = m_begin + wanted;
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
    append(std::string_view(p, size_t(end - p)));
}

} // namespace hecscope
