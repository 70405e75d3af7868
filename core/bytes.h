#pragma once

#include <cstddef>
#include <cstdint>

// Big-endian readers. Every multi-byte number in an eventlog is big-endian,
// whatever machine wrote it. Callers guarantee the bytes are in bounds.
namespace hecscope {

inline uint16_t readU16(const uint8_t* p)
{
    return static_cast<uint16_t>((p[0] << 8) | p[1]);
}

inline uint32_t readU32(const uint8_t* p)
{
    return (uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) | (uint32_t(p[2]) << 8) | uint32_t(p[3]);
}

inline uint64_t readU64(const uint8_t* p)
{
    return (uint64_t(readU32(p)) << 32) | readU32(p + 4);
}

} // namespace hecscope
