#pragma once

#include "core/profile/profileviews.h"

#include <QColor>
#include <QPoint>
#include <QRect>

#include <cstdint>
#include <string>
#include <vector>

class QPainter;

namespace hecscope {

// What the last paintFlame drew, for tests and the bench.
struct FlamePaintStats {
    int frames = 0; // frames filled
    int labels = 0; // frames that got a label
};

struct FlamePaintOptions {
    bool icicle = false;                          // root at the top (icicle) or at the bottom (flame graph)
    const std::vector<bool>* highlight = nullptr; // search matches, per node: others drawn faded
    // Per node, the fill instead of the module's colour (a differential
    // flame graph's change against another run); 0: the usual colour.
    const std::vector<QRgb>* nodeColours = nullptr;
    uint32_t hoveredFrame = UINT32_MAX, chosenNode = UINT32_MAX;
    int rowHeight = 18;
    QColor background = Qt::white;
    FlamePaintStats* stats = nullptr;
};

// A frame narrower than this many pixels is not drawn, nor anything above it.
inline constexpr double kFlameMinFrameWidth = 0.5;
// A frame at least this wide gets its label, elided to fit.
inline constexpr int kFlameMinLabelWidth = 30;

// Paints the frames of `layout` into `area`: the focus across the whole width,
// rows deeper than the area are clipped. Reads the layout only.
void paintFlame(QPainter& p, const QRect& area, const CostCentreProfile& profile, const FlameLayout& layout,
                const FlamePaintOptions& o);
// How many rows paintFlame draws across `width` pixels with no height
// limit: one more than the depth of the deepest frame wide enough to be
// drawn (0 for no frame).
uint32_t flameRowsDrawn(const FlameLayout& layout, int width);
// The frame painted at `pos` (index into layout.frames), or -1.
int flameFrameAt(const QRect& area, const FlameLayout& layout, const FlamePaintOptions& o, QPoint pos);
// Where frame `frame` is painted (the pixels it owns, its 1 px gap included);
// empty when it is too narrow or too deep to be painted.
QRect flameFrameRect(const QRect& area, const FlameLayout& layout, const FlamePaintOptions& o, int frame);

// A stable warm colour per module (a hash of the name, so the same module has
// the same colour in every profile), light enough for black text.
QColor moduleColour(const std::string& module);
// The colour of a cost centre's frames: its module's, grey for the RTS's own.
QColor costCentreColour(const ProfileCostCentre& cc);
// WCAG contrast ratio of a colour against black (1 to 21).
double contrastWithBlack(const QColor& c);

} // namespace hecscope
