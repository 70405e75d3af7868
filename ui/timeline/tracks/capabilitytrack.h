#pragma once

#include "core/index/timeline.h"

#include <QString>

#include <cstdint>

namespace hecscope {

// What a GC-lane span is, for tooltips and Details ("GC: working", "parked after …").
QString gcPhaseText(SpanKind kind);

} // namespace hecscope
