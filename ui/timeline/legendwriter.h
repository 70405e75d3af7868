#pragma once

#include <QColor>
#include <QPalette>
#include <QRect>
#include <QString>

#include <functional>
#include <vector>

class QPainter;

namespace hecscope {

// Writes the legend below the tracks: a swatch and a name per colour, left
// to right, wrapping over a fixed number of lines; entries that do not fit
// are left out. Each track adds its own entries; the charts' entries (after
// startCharts) come after all the others, on a line of their own when there
// is one, whatever the order of the tracks. finish() draws them.
class LegendWriter {
public:
    using Swatch = std::function<void(QPainter&, QRect)>;
    LegendWriter(QPainter& p, const QRect& r, const QPalette& pal, int lines);

    void entry(const QString& text, const Swatch& swatch);
    void solid(const QString& text, QColor colour);
    void stroke(const QString& text, QColor colour, Qt::PenStyle style = Qt::SolidLine);
    // The next entries are one track's (or the renderer's own).
    void beginTrack() { m_charts = false; }
    // The following entries of this track are chart colours.
    void startCharts() { m_charts = true; }
    void finish();

private:
    struct Entry {
        QString text;
        Swatch swatch;
    };
    void write(const Entry& e);
    std::vector<Entry> m_entries, m_chartEntries;
    QPainter& m_p;
    QRect m_rect;
    QPalette m_palette;
    int m_lines, m_lineHeight;
    int m_x, m_line = 0;
    bool m_charts = false;
};

} // namespace hecscope
