#include "ui/timeline/pixeltarget.h"

#include <QImage>
#include <QPaintEngine>
#include <QPainter>

namespace hecscope {

std::optional<PixelTarget> pixelTarget(const QPainter& p, QPoint logical)
{
    const QPaintEngine* engine = p.paintEngine();
    const QPaintDevice* target = engine ? engine->paintDevice() : nullptr;
    if (!target || target->devType() != QInternal::Image || engine->type() != QPaintEngine::Raster
        || p.opacity() != 1.0 || p.compositionMode() != QPainter::CompositionMode_SourceOver)
        return std::nullopt;
    const QTransform toDevice = p.deviceTransform();
    const qreal ratio = toDevice.m11();
    if (toDevice.type() > QTransform::TxScale || toDevice.m22() != ratio || (ratio != 1 && ratio != 2))
        return std::nullopt;
    const QPointF corner = toDevice.map(QPointF(logical));
    if (corner != QPointF(corner.toPoint()))
        return std::nullopt;
    return PixelTarget{static_cast<const QImage*>(target), toDevice, int(ratio), corner.toPoint()};
}

} // namespace hecscope
