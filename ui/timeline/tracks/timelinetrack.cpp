#include "ui/timeline/tracks/timelinetrack.h"

#include "ui/timeline/timelinerenderer.h"

#include <QFontMetrics>
#include <QPainter>

#include <algorithm>

namespace hecscope {

void paintTrackNote(QPainter& p, const QRect& r, const QPalette& pal, const QString& text, TextCache& cache)
{
    p.setPen(pal.color(QPalette::PlaceholderText));
    cache.draw(p, r.adjusted(8, 0, 0, 0), Qt::AlignVCenter | Qt::AlignLeft, text);
}

QString displayedLabel(const QString& label, const QFontMetrics& fm, int width)
{
    QStringList lines = label.split(QLatin1Char('\n'));
    for (QString& line : lines)
        if (fm.horizontalAdvance(line) > width)
            line = fm.elidedText(line, Qt::ElideMiddle, width);
    return lines.join(QLatin1Char('\n'));
}

int labelTextWidth(const QString& label, const QFontMetrics& fm)
{
    int w = 0;
    for (const QString& line : label.split(QLatin1Char('\n')))
        w = std::max(w, fm.horizontalAdvance(line));
    return w;
}

int TimelineTrack::labelWidth(const TrackContext& ctx, const QFont& font) const
{
    const QFontMetrics fm(font);
    int w = 0;
    const bool numbered = rowsAreCapabilities(ctx);
    const int n = emptyNote(ctx).isEmpty() ? rowCount(ctx) : 1;
    for (int i = 0; i < n; ++i)
        w = std::max(w, labelTextWidth(rowLabel(ctx, numbered ? i : -1), fm));
    return w + 14;
}

QString TimelineTrack::labelTip(const TrackRowGeometry& g, QPoint pos, const TrackContext& ctx,
                                const QFontMetrics& fm) const
{
    (void)pos;
    const QString label = rowLabel(ctx, g.row);
    return displayedLabel(label, fm, g.plot.left() - g.rect.left() - 14) == label ? QString() : label;
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
