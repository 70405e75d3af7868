#pragma once

#include <QFont>
#include <QImage>
#include <QPainter>
#include <QPalette>
#include <QString>

class QRect;

namespace hecscope {

class LegendWriter;

// The legend's lines as last painted on pixels, drawn again from the
// picture while nothing they show has changed (LegendWriter::paint
// measures and shapes every entry's text: about 0.6 ms a paint at
// 1600 px): the entries (LegendWriter::key), the palette, the font, the
// render hints and layout direction, the size, the device's pixels per
// unit and format (the text's antialiasing depends on it). The picture is
// painted as the legend would be there, so it gives the same pixels.
// Elsewhere (SVG, PDF, a transform, an opacity) the legend is painted.
// One per renderer: the thread painting.
class LegendPicture {
public:
    void paint(QPainter& p, const LegendWriter& legend, const QRect& r, const QPalette& pal, int lines);

private:
    QString m_key;
    QFont m_font;
    QImage m_image;
};

} // namespace hecscope
