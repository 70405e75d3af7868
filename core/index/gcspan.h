#pragma once

#include <cstdint>

namespace hecscope {

// One capability's GC_START..GC_END (ns), as SchedulerBuilder hands them to
// CollectionsBuilder: the only thing the two share.
struct GcSpan {
    uint64_t start, end;
    uint16_t cap;
};

// A collection's leader span (CollectionsBuilder: the span of the
// capability that wrote its GC_STATS_GHC around the record), which the
// other capabilities' spans of that collection are split by
// (SchedulerBuilder).
struct GcLeader {
    uint64_t start, end;
    uint16_t cap;
};

} // namespace hecscope
