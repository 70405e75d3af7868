#include "ui/timeline/tracks/timelinetrack.h"

#include <QPainter>

#include <algorithm>

namespace hecscope {

void paintTrackNote(QPainter& p, const QRect& r, const QPalette& pal, const QString& text)
{
    p.setPen(pal.color(QPalette::PlaceholderText));
    p.drawText(r.adjusted(8, 0, 0, 0), Qt::AlignVCenter | Qt::AlignLeft, text);
}

QRectF spanRect(const TimeMapping& m, uint64_t a, uint64_t b, double top, double height)
{
    double x0 = std::max(m.toPixel(a), m.x0() - 1);
    double x1 = std::min(m.toPixel(b), m.x0() + m.width() + 1);
    if (x1 - x0 < 1)
        x1 = x0 + 1;
    return QRectF(x0, top, x1 - x0, height);
}

void paintSelectionOutline(QPainter& p, const TimeMapping& m, uint64_t a, uint64_t b, double top, double height,
                           const QPalette& pal)
{
    p.setPen(QPen(pal.color(QPalette::Highlight), 2));
    p.setBrush(Qt::NoBrush);
    p.drawRect(spanRect(m, a, b, top, height));
}

} // namespace hecscope
