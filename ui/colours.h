#pragma once

#include "core/index/threadspart.h"
#include "core/index/timeline.h"

#include <QColor>

#include <cstdint>

namespace hecscope {

// Colours of the HEC rows, shared by the capability and activity tracks,
// the thread rows and the legend.
QColor threadColor(uint32_t thread); // golden-ratio hues: neighbouring ids differ
QColor spanColor(SpanKind kind);

// A user span name's colour: a hue per name, stable across runs.
QColor spanColour(uint32_t name);

// Colours of thread states (the thread rows and their legend): running,
// runnable, unknown, then one per BlockReason.
enum ThreadColour : uint8_t { ColourRunning, ColourRunnable, ColourUnknown, ColourBlocked };
constexpr int kThreadColours = ColourBlocked + int(kBlockReasons);
QColor threadColour(int colour);

} // namespace hecscope
