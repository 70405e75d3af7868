#pragma once

namespace hecscope {

struct LogIndex;

// Sorts what the views draw and computes the heap bands (done by publish(),
// on the loading thread).
void prepareForDrawing(LogIndex& ix);

} // namespace hecscope
