#include "ui/timeline/tracks/rectbatch.h"

#include "ui/timeline/pixeltarget.h"

#include <QColor>
#include <QImage>
#include <QPaintEngine>
#include <QPainter>

#include <algorithm>

namespace hecscope {

namespace {

// One image per thread, reused from paint to paint (a new one of a row's
// size is a fresh mapping to fault in and zero at every paint); kept all
// transparent between uses. A second batch alive at once on the thread
// takes an image of its own.
struct Scratch {
    QImage image;
    bool inUse = false;
};
thread_local Scratch t_scratch;

// QRasterPaintEngine's rounding of a rectangle to fill without
// antialiasing (toNormalizedFillRect): each edge to the nearest pixel.
// (Edges clamped first to kFar pixels off the device's origin, where no
// image reaches: an edge billions of pixels away is no int.)
constexpr qreal kFar = 1 << 24;
int roundedEdge(qreal v)
{
    return v == v ? qRound(std::clamp(v, -kFar, kFar)) : 0; // (NaN: no pixel of it)
}

QRect fillPixels(const QRectF& device)
{
    int x1 = roundedEdge(device.x()), y1 = roundedEdge(device.y());
    int x2 = roundedEdge(device.right()), y2 = roundedEdge(device.bottom());
    if (x2 < x1)
        std::swap(x1, x2);
    if (y2 < y1)
        std::swap(y1, y2);
    return QRect(x1, y1, x2 - x1, y2 - y1);
}

} // namespace

RectBatch::RectBatch(QPainter& p, const QRect& area)
    : m_p(p)
{
    if (p.testRenderHint(QPainter::Antialiasing) || area.isEmpty())
        return;
    const std::optional<PixelTarget> target = pixelTarget(p, area.topLeft());
    if (!target)
        return;
    // 32 bits a pixel: other formats convert a fill's colour and an image's
    // pixels differently.
    const QImage& pixels = *target->image;
    if (pixels.format() != QImage::Format_RGB32 && pixels.format() != QImage::Format_ARGB32
        && pixels.format() != QImage::Format_ARGB32_Premultiplied)
        return;
    m_toDevice = target->toDevice;
    m_scale = target->ratio;
    // Only what can show: the area within the target and the clip (an
    // export's layout pass paints a picture of any size onto one pixel).
    // A fill reaching out of it goes through the painter.
    QRect device(target->corner, area.size() * target->ratio);
    device &= pixels.rect();
    if (directInto(p, pixels, device))
        return;
    if (p.hasClipping())
        device &= fillPixels(m_toDevice.mapRect(p.clipBoundingRect())).adjusted(-1, -1, 1, 1);
    if (device.isEmpty() || qint64(device.width()) * device.height() > kMaxPixels)
        return;
    m_origin = device.topLeft();
    m_size = device.size();
    m_at = m_toDevice.inverted().map(QPointF(m_origin));
    if (!t_scratch.inUse) {
        t_scratch.inUse = m_ownsScratch = true;
        QImage& s = t_scratch.image;
        if (s.width() < m_size.width() || s.height() < m_size.height()) {
            s = QImage(std::max(s.width(), m_size.width()), std::max(s.height(), m_size.height()),
                       QImage::Format_ARGB32_Premultiplied);
            if (s.isNull()) { // out of memory: the painter, then
                t_scratch.inUse = m_ownsScratch = false;
                return;
            }
            s.fill(0);
        }
        m_image = &s;
    } else {
        m_local = QImage(m_size, QImage::Format_ARGB32_Premultiplied);
        if (m_local.isNull())
            return;
        m_local.fill(0);
        m_image = &m_local;
    }
    m_bits = reinterpret_cast<QRgb*>(m_image->bits()); // not shared: no copy
    m_stride = m_image->bytesPerLine() / int(sizeof(QRgb));
    m_batching = true;
}

bool RectBatch::directInto(const QPainter& p, const QImage& pixels, QRect device)
{
    // The target's pixels are this painter's alone (not shared with a
    // copy of the image) ...
    if (!pixels.isDetached())
        return false;
    // ... and every pixel of `device` that a fill may reach is one the
    // painter would paint: within a clip of one whole-pixel rectangle (if
    // any) and within the system clip (a window's update region, which
    // leaves out what lies over the widget).
    if (p.hasClipping()) {
        if (p.clipRegion().rectCount() > 1)
            return false;
        const QRectF clip = m_toDevice.mapRect(p.clipBoundingRect());
        if (clip != QRectF(clip.toRect()))
            return false;
        device &= clip.toRect();
    }
    if (const QRegion system = p.paintEngine()->systemClip(); !system.isEmpty()) {
        if (system.rectCount() > 1)
            return false;
        device &= system.boundingRect();
    }
    if (device.isEmpty())
        return false;
    m_origin = device.topLeft();
    m_size = device.size();
    m_stride = int(pixels.bytesPerLine() / qsizetype(sizeof(QRgb)));
    // (Written as the raster engine writes them: its buffer is the image's,
    // taken when it began.)
    m_bits = reinterpret_cast<QRgb*>(const_cast<uchar*>(pixels.constBits())) + ptrdiff_t(m_origin.y()) * m_stride
        + m_origin.x();
    m_direct = m_batching = true;
    return true;
}

RectBatch::~RectBatch()
{
    flush();
    if (m_ownsScratch)
        t_scratch.inUse = false;
}

void RectBatch::fill(const QRectF& r, const QColor& colour)
{
    if (!m_batching || colour.alpha() != 255) {
        flush();
        m_p.fillRect(r, colour);
        return;
    }
    // As m_toDevice.mapRect(r) (a scale of 1 or 2 and a translation, see
    // pixelTarget): the same arithmetic, without the call.
    const qreal sx = m_toDevice.m11(), sy = m_toDevice.m22();
    qreal left = sx * r.x() + m_toDevice.dx(), top = sy * r.y() + m_toDevice.dy(), w = sx * r.width(),
          h = sy * r.height();
    if (w < 0) {
        w = -w;
        left -= w;
    }
    if (h < 0) {
        h = -h;
        top -= h;
    }
    const QRect px = fillPixels(QRectF(left, top, w, h)).translated(-m_origin);
    if (px.isEmpty())
        return;
    if (px.left() < 0 || px.top() < 0 || px.right() >= m_size.width() || px.bottom() >= m_size.height()) {
        flush();
        // (Within kFar pixels: the painter rounds to ints too.)
        const QRectF near = QRectF(left, top, w, h) & QRectF(-kFar, -kFar, 2 * kFar, 2 * kFar);
        if (!near.isEmpty())
            m_p.fillRect(near == QRectF(left, top, w, h) ? r : m_toDevice.inverted().mapRect(near), colour);
        return;
    }
    const QRgb value = colour.rgba(); // opaque: premultiplied as it is
    QRgb* line = m_bits + ptrdiff_t(px.top()) * m_stride + px.left();
    if (px.width() == 1) { // a pixel column (most fills of a wide view)
        for (int y = px.top(); y <= px.bottom(); ++y, line += m_stride)
            *line = value;
    } else {
        for (int y = px.top(); y <= px.bottom(); ++y, line += m_stride)
            std::fill_n(line, px.width(), value);
    }
    if (!m_direct)
        m_dirty |= px;
}

void RectBatch::flush()
{
    if (m_dirty.isEmpty())
        return;
    // The dirty part alone, pixel for pixel: at a scale of 2 the raster
    // engine copies a rectangle twice the size of its target unscaled.
    const QRectF target(m_at + QPointF(m_dirty.topLeft()) / m_scale, QSizeF(m_dirty.size()) / m_scale);
    m_p.drawImage(target, *m_image, QRectF(m_dirty));
    QRgb* line = m_bits + ptrdiff_t(m_dirty.top()) * m_stride + m_dirty.left();
    for (int y = m_dirty.top(); y <= m_dirty.bottom(); ++y, line += m_stride)
        std::fill_n(line, m_dirty.width(), QRgb(0));
    m_dirty = QRect();
}

} // namespace hecscope
