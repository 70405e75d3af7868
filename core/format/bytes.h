#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

// Big-endian readers. Every multi-byte number in an eventlog is big-endian,
// whatever machine wrote it. Callers guarantee the bytes are in bounds. One
// unaligned load and a byte swap each: the decoder's hot path.
namespace hecscope {

template <typename T>
inline T readBigEndian(const uint8_t* p)
{
    T v;
    std::memcpy(&v, p, sizeof v);
    if constexpr (std::endian::native == std::endian::little) {
        if constexpr (sizeof(T) == 2)
            v = T(__builtin_bswap16(v));
        else if constexpr (sizeof(T) == 4)
            v = __builtin_bswap32(v);
        else
            v = __builtin_bswap64(v);
    }
    return v;
}

inline uint16_t readU16(const uint8_t* p) { return readBigEndian<uint16_t>(p); }
inline uint32_t readU32(const uint8_t* p) { return readBigEndian<uint32_t>(p); }
inline uint64_t readU64(const uint8_t* p) { return readBigEndian<uint64_t>(p); }

} // namespace hecscope
