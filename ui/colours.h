#pragma once

#include "core/index/timeline.h"

#include <QColor>

#include <cstdint>

namespace hecscope {

// Colours of the HEC rows, shared by the capability and activity tracks,
// the thread rows and the legend.
QColor threadColor(uint32_t thread); // golden-ratio hues: neighbouring ids differ
QColor spanColor(SpanKind kind);

} // namespace hecscope
