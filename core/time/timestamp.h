#pragma once

#include <cstdint>

namespace hecscope {

// Times are nanoseconds since the RTS started (the eventlog's clock), as
// uint64_t. kNoTime marks "never happened" / "not known".
constexpr uint64_t kNoTime = UINT64_MAX;

} // namespace hecscope
