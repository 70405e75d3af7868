#include "ui/timeline/legendwriter.h"

#include <QFontMetrics>
#include <QPainter>

namespace hecscope {

LegendWriter::LegendWriter(QPainter& p, const QRect& r, const QPalette& pal, int lines)
    : m_p(p)
    , m_rect(r)
    , m_palette(pal)
    , m_lines(lines)
    , m_lineHeight(r.height() / std::max(1, lines))
    , m_x(r.left() + 6)
{
    p.fillRect(r, pal.color(QPalette::Window));
}

void LegendWriter::entry(const QString& text, const Swatch& swatch)
{
    (m_charts ? m_chartEntries : m_entries).push_back({text, swatch});
}

void LegendWriter::finish()
{
    for (const Entry& e : m_entries)
        write(e);
    if (!m_chartEntries.empty() && m_x > m_rect.left() + 6 && m_line + 1 < m_lines) {
        ++m_line; // the charts' colours on a line of their own
        m_x = m_rect.left() + 6;
    }
    for (const Entry& e : m_chartEntries)
        write(e);
    m_entries.clear();
    m_chartEntries.clear();
}

void LegendWriter::write(const Entry& e)
{
    const QFontMetrics fm(m_p.font());
    const int w = fm.horizontalAdvance(e.text);
    if (m_x + 14 + w > m_rect.right() && m_line + 1 < m_lines) {
        ++m_line; // wrap
        m_x = m_rect.left() + 6;
    }
    if (m_x + 14 + w > m_rect.right())
        return;
    const int y = m_rect.top() + m_line * m_lineHeight;
    m_p.save();
    e.swatch(m_p, QRect(m_x, y + (m_lineHeight - 10) / 2, 10, 10));
    m_p.restore();
    m_p.setPen(m_palette.color(QPalette::WindowText));
    m_p.drawText(QRect(m_x + 14, y, w + 2, m_lineHeight), Qt::AlignVCenter | Qt::AlignLeft, e.text);
    m_x += 14 + w + 14;
}

void LegendWriter::solid(const QString& text, QColor colour)
{
    entry(text, [colour](QPainter& p, QRect box) { p.fillRect(box, colour); });
}

void LegendWriter::stroke(const QString& text, QColor colour, Qt::PenStyle style)
{
    entry(text, [colour, style](QPainter& p, QRect box) {
        p.setPen(QPen(colour, 2, style));
        p.drawLine(box.left(), box.center().y(), box.right(), box.center().y());
    });
}

} // namespace hecscope
