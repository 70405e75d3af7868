#pragma once

#include "core/index/loadobserver.h"

namespace hecscope {

struct LogIndex;

// Sorts what the views draw and computes the heap bands (done by publish(),
// on the loading thread).
void prepareForDrawing(LogIndex& ix);
// The same, giving up once `observer` says cancelled (checked between
// steps and inside the band computation): false then, and the drawing
// fields are incomplete.
bool prepareForDrawing(LogIndex& ix, const LoadObserver* observer);

} // namespace hecscope
