#pragma once

#include <QColor>
#include <QPalette>
#include <QRect>
#include <QString>

#include <functional>

class QPainter;

namespace hecscope {

// Writes the legend below the tracks: a swatch and a name per colour, left
// to right, wrapping over a fixed number of lines; entries that do not fit
// are left out. Each track adds its own entries.
class LegendWriter {
public:
    using Swatch = std::function<void(QPainter&, QRect)>;
    LegendWriter(QPainter& p, const QRect& r, const QPalette& pal, int lines);

    void entry(const QString& text, const Swatch& swatch);
    void solid(const QString& text, QColor colour);
    void stroke(const QString& text, QColor colour, Qt::PenStyle style = Qt::SolidLine);
    // The charts' colours start a new line (once, when there is one left).
    void startCharts();

private:
    QPainter& m_p;
    QRect m_rect;
    QPalette m_palette;
    int m_lines, m_lineHeight;
    int m_x, m_line = 0;
    bool m_charts = false;
};

} // namespace hecscope
