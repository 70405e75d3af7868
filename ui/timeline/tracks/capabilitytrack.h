#pragma once

#include "core/index/timeline.h"

#include <QColor>
#include <QString>

#include <cstdint>

namespace hecscope {

// Colours of the HEC rows, shared with the activity track and the legend.
QColor threadColor(uint32_t thread); // golden-ratio hues: neighbouring ids differ
QColor spanColor(SpanKind kind);
// What a GC-lane span is, for tooltips and Details ("GC: working", "parked after …").
QString gcPhaseText(SpanKind kind);

} // namespace hecscope
