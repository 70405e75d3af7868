#pragma once

#include <cstdint>
#include <vector>

namespace hecscope {

// LEB128 varints, as the index packs its numbers (the capability spans'
// blocks, the collections, the summarised threads' totals): seven bits a
// byte, low bits first, the top bit set on every byte but the last.
inline uint8_t* putVarint(uint8_t* p, uint64_t v)
{
    while (v >= 0x80) {
        *p++ = uint8_t(v) | 0x80;
        v >>= 7;
    }
    *p++ = uint8_t(v);
    return p;
}

inline void putVarint(std::vector<uint8_t>& out, uint64_t v)
{
    while (v >= 0x80) {
        out.push_back(uint8_t(v) | 0x80);
        v >>= 7;
    }
    out.push_back(uint8_t(v));
}

inline uint64_t getVarint(const uint8_t*& p)
{
    uint64_t v = 0;
    for (unsigned shift = 0;; shift += 7) {
        const uint8_t b = *p++;
        v |= uint64_t(b & 0x7F) << shift;
        if (!(b & 0x80))
            return v;
    }
}

// Signed numbers: small ones of either sign in few bytes.
inline uint64_t zigzag(int64_t v) { return (uint64_t(v) << 1) ^ uint64_t(v >> 63); }
inline int64_t unzigzag(uint64_t v) { return int64_t(v >> 1) ^ -int64_t(v & 1); }

} // namespace hecscope
