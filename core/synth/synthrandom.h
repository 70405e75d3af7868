#pragma once

#include <cstddef>
#include <cstdint>

namespace hecscope::synth {

// xorshift64*: small, fast and deterministic, so a synthetic log is the same
// bytes on every machine.
struct Rng {
    uint64_t state;
    uint64_t next()
    {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        return state * 0x2545F4914F6CDD1DULL;
    }
    uint32_t below(uint32_t n) { return uint32_t(next() % n); }
    double unit() { return double(next() >> 11) * 0x1.0p-53; } // [0, 1)
};

inline constexpr size_t kBlockBytes = 2 << 20; // GHC's default per-capability buffer

} // namespace hecscope::synth
