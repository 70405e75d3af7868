#pragma once

#include <cstdint>

namespace hecscope {

// One capability's GC_START..GC_END (ns), as SchedulerBuilder hands them to
// CollectionsBuilder: the only thing the two share.
struct GcSpan {
    uint64_t start, end;
    uint16_t cap;
};

} // namespace hecscope
