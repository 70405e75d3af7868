#pragma once

#include <QPoint>
#include <QTransform>

#include <optional>

class QImage;
class QPainter;

namespace hecscope {

// Where a painter paints an image's pixels one for one from `logical` on:
// the raster engine on a QImage (a window's backing store, a picture), a
// transform that is a translation by whole device pixels at a scale of 1
// or 2, full opacity, SourceOver. Else none (SVG, PDF, a QPicture, …):
// a picture painted beforehand would not give the same pixels there.
struct PixelTarget {
    const QImage* image; // what the painter paints on
    QTransform toDevice; // the painter's device transform
    int ratio;           // device pixels per unit: 1 or 2
    QPoint corner;       // `logical` in device pixels
};
std::optional<PixelTarget> pixelTarget(const QPainter& p, QPoint logical);

} // namespace hecscope
