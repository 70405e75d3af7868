#pragma once

#include <QColor>
#include <QFont>
#include <QPalette>
#include <QRect>
#include <QString>
#include <QStringList>

#include <functional>
#include <vector>

class QFontMetrics;
class QPainter;

namespace hecscope {

// The legend below the tracks: a swatch and a name per colour, left to
// right, wrapping over a number of lines; entries that do not fit are left
// out. Each track adds its own entries; the charts' entries (after
// startCharts) come after all the others, on a line of their own when there
// is one, whatever the order of the tracks. Collecting the entries needs no
// painter, so the renderer can ask what a legend holds and how many lines
// it takes before it draws it.
class LegendWriter {
public:
    using Swatch = std::function<void(QPainter&, QRect)>;
    static constexpr int kLineHeight = 20; // px

    // `swatch` draws the same whenever `text` and the palette are the same
    // (a legend painted once is reused while its key() and palette are).
    void entry(const QString& text, const Swatch& swatch);
    void solid(const QString& text, QColor colour);
    void stroke(const QString& text, QColor colour, Qt::PenStyle style = Qt::SolidLine);
    // A solid swatch left out when another track names the same colour
    // with solid() (the Activity track's colours, which the HEC rows name
    // when they are shown): a legend names each colour once, and no track
    // needs to know which others are on screen.
    void solidUnlessNamed(const QString& text, QColor colour);
    // The next entries are one track's (or the renderer's own).
    void beginTrack()
    {
        m_charts = false;
        ++m_track;
    }
    // The following entries of this track are chart colours.
    void startCharts() { m_charts = true; }

    // The entries' names in the order they are written.
    QStringList names() const;
    // What paint() draws, as text: the entries, their colours where given,
    // where the charts' entries begin.
    QString key() const;
    // Lines the entries take at `width` px in `font`, at most `maxLines`
    // (at least one).
    int lines(const QFont& font, int width, int maxLines) const;
    // Writes them into `r`, `lines` lines of r.height() / lines each, on
    // the palette's window colour.
    void paint(QPainter& p, const QRect& r, const QPalette& pal, int lines) const;

private:
    struct Entry {
        QString text;
        Swatch swatch;
        int track = 0;
        QRgb solid = 0;       // the colour of a solid swatch (with hasSolid)
        bool hasSolid = false;
        bool unlessNamed = false;
        QString look; // what else the swatch draws from (a stroke's colour and style)
    };
    struct Placed {
        const Entry* entry;
        int line, x, textWidth; // x from the legend's left edge
    };
    std::vector<const Entry*> ordered() const;
    std::vector<Placed> place(const QFontMetrics& fm, int width, int maxLines) const;
    std::vector<Entry> m_entries, m_chartEntries;
    bool m_charts = false;
    int m_track = 0;
};

} // namespace hecscope
