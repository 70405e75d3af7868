#include "ui/timeline/legendpicture.h"

#include "ui/timeline/legendwriter.h"
#include "ui/timeline/pixeltarget.h"

#include <QRect>

namespace hecscope {

void LegendPicture::paint(QPainter& p, const LegendWriter& legend, const QRect& r, const QPalette& pal, int lines)
{
    const std::optional<PixelTarget> target = pixelTarget(p, r.topLeft());
    if (!target || pal.color(QPalette::Window).alpha() != 255 || r.isEmpty()) {
        legend.paint(p, r, pal, lines);
        return;
    }
    const QImage::Format format = target->image->format();
    const int ratio = target->ratio;
    const QString key = legend.key() + QLatin1Char('|') + QString::number(pal.cacheKey()) + QLatin1Char('|')
        + QString::number(int(p.renderHints())) + QLatin1Char('|') + QString::number(int(p.layoutDirection()))
        + QLatin1Char('|') + QString::number(r.width()) + QLatin1Char('x') + QString::number(r.height())
        + QLatin1Char('|') + QString::number(ratio) + QLatin1Char('|') + QString::number(int(format))
        + QLatin1Char('|') + QString::number(lines);
    if (m_key != key || !(m_font == p.font())) {
        m_image = QImage(r.size() * ratio, format);
        if (m_image.isNull()) { // no memory for it: painted directly
            m_key.clear();
            legend.paint(p, r, pal, lines);
            return;
        }
        m_image.setDevicePixelRatio(ratio);
        QPainter ip(&m_image);
        ip.setFont(p.font());
        ip.setRenderHints(p.renderHints());
        ip.setLayoutDirection(p.layoutDirection());
        legend.paint(ip, QRect(QPoint(0, 0), r.size()), pal, lines);
        ip.end();
        m_key = key;
        m_font = p.font();
    }
    p.drawImage(QRectF(r), m_image);
}

} // namespace hecscope
