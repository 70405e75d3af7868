#pragma once

#include <QImage>
#include <QPointF>
#include <QRect>
#include <QTransform>

class QColor;
class QPainter;
class QRectF;

namespace hecscope {

// Opaque rectangles filled as QPainter::fillRect fills them without
// antialiasing (each edge rounded to the nearest device pixel), but
// written as pixels: a HEC row at a wide view is a few thousand fills,
// about 0.3 µs each through the painter. Straight into the target image's
// pixels where every pixel of `area` a fill may reach is one the painter
// would paint (the image not shared with a copy, a clip and a system clip
// of one rectangle each, or none; direct()), else into an image of `area`
// drawn once at flush(). Where an image
// would not give the same pixels the fills go through the painter as they
// come: not the raster engine (SVG, PDF, a QPicture), antialiasing, an
// opacity, a composition other than SourceOver, a transform other than a
// whole-pixel translation at a scale of 1 or 2, a colour that is not
// opaque, a rectangle reaching out of `area` (or of the target or the
// clip), a target that is not a 32-bit image. Whatever else is drawn with
// the painter goes after flush(), so that it lies over the fills as it
// would have. UI thread (or the thread painting: an export's worker).
class RectBatch {
public:
    RectBatch(QPainter& p, const QRect& area);
    ~RectBatch();
    RectBatch(const RectBatch&) = delete;
    RectBatch& operator=(const RectBatch&) = delete;

    void fill(const QRectF& r, const QColor& colour);
    // Draws what was filled (once) and starts again.
    void flush();
    // Whether fills go into an image, the target's own (direct) or one
    // drawn at flush() (for tests).
    bool batching() const { return m_batching; }
    bool direct() const { return m_direct; }
    // The most device pixels an image takes (a row of a window 8,000 wide
    // and 500 high; the scratch image stays with its thread): a bigger area
    // goes through the painter.
    static constexpr qint64 kMaxPixels = 4'000'000;

private:
    // Fills go straight into the target's pixels where that paints what
    // the painter would (see the .cpp): no image to draw, nothing to clear.
    bool directInto(const QPainter& p, const QImage& pixels, QRect device);

    QPainter& m_p;
    bool m_batching = false;
    bool m_direct = false; // m_bits are the target's
    bool m_ownsScratch = false; // this thread's scratch image, else m_local
    QImage m_local;
    QImage* m_image = nullptr; // transparent outside the dirty rectangle
    QRgb* m_bits = nullptr;
    int m_stride = 0; // pixels per line
    QTransform m_toDevice;
    QPoint m_origin;    // the image's (0, 0) in device pixels
    QSize m_size;       // of the area in device pixels (the image may be larger)
    QPointF m_at;       // the image's (0, 0) in the painter's coordinates
    double m_scale = 1; // device pixels per unit
    QRect m_dirty;      // in image pixels
};

} // namespace hecscope
