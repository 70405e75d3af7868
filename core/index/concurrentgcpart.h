#pragma once

#include <cstdint>
#include <vector>

namespace hecscope {

// Non-moving collector phases (CONC_MARK/SYNC/SWEEP begin..end).
struct ConcurrentSpan {
    enum Kind : uint8_t { Mark,
                          Sync,
                          Sweep };
    uint64_t start = 0, end = 0; // ns; end is kNoTime while open
    Kind kind = Mark;
    uint32_t markedObjects = 0; // CONC_MARK_END
};

// What ConcurrentGcBuilder makes: the phases in order of their start.
struct ConcurrentGcPart {
    std::vector<ConcurrentSpan> concurrent;
};

} // namespace hecscope
