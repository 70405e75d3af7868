#pragma once

#include "core/index/threadspart.h"
#include "core/index/timeline.h"

#include <QColor>
#include <QPalette>

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

// The chart tracks' lines. The heap track's (the heap-profile track draws
// its heap size and live lines over the bands in the same colours): the
// heap size in the text colour, to stand out on light and dark palettes
// alike.
inline QColor heapSizeColour(const QPalette& pal)
{
    return pal.color(QPalette::Text);
}
inline const QColor kBlocksSize{0x7f, 0x8c, 0x8d};
inline const QColor kLive{0x27, 0xae, 0x60};
inline const QColor kAllocRate{0xc0, 0x39, 0x2b};
// The sparks track's; the Spark Sizes pane's bars are the converted green.
inline const QColor kSparksCreated{0x29, 0x80, 0xb9};
inline const QColor kSparksConverted{0x27, 0xae, 0x60};
inline const QColor kSparkPool{0x8e, 0x44, 0xad};

} // namespace hecscope
