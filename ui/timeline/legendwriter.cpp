#include "ui/timeline/legendwriter.h"

#include <QFontMetrics>
#include <QPainter>

#include <algorithm>

namespace hecscope {

void LegendWriter::entry(const QString& text, const Swatch& swatch)
{
    (m_charts ? m_chartEntries : m_entries).push_back({text, swatch, m_track, 0, false, false, QString()});
}

void LegendWriter::solid(const QString& text, QColor colour)
{
    entry(text, [colour](QPainter& p, QRect box) { p.fillRect(box, colour); });
    Entry& e = m_charts ? m_chartEntries.back() : m_entries.back();
    e.solid = colour.rgba();
    e.hasSolid = true;
}

void LegendWriter::solidUnlessNamed(const QString& text, QColor colour)
{
    solid(text, colour);
    (m_charts ? m_chartEntries.back() : m_entries.back()).unlessNamed = true;
}

void LegendWriter::stroke(const QString& text, QColor colour, Qt::PenStyle style)
{
    entry(text, [colour, style](QPainter& p, QRect box) {
        p.setPen(QPen(colour, 2, style));
        p.drawLine(box.left(), box.center().y(), box.right(), box.center().y());
    });
    (m_charts ? m_chartEntries.back() : m_entries.back()).look =
        QStringLiteral("%1 %2").arg(colour.rgba(), 0, 16).arg(int(style));
}

std::vector<const LegendWriter::Entry*> LegendWriter::ordered() const
{
    const auto namedByAnother = [this](const Entry& e) {
        for (const auto* list : {&m_entries, &m_chartEntries})
            for (const Entry& f : *list)
                if (f.track != e.track && f.hasSolid && !f.unlessNamed && f.solid == e.solid)
                    return true;
        return false;
    };
    std::vector<const Entry*> all;
    for (const auto* list : {&m_entries, &m_chartEntries})
        for (const Entry& e : *list)
            if (!e.unlessNamed || !namedByAnother(e))
                all.push_back(&e);
    return all;
}

QStringList LegendWriter::names() const
{
    QStringList out;
    for (const Entry* e : ordered())
        out << e->text;
    return out;
}

QString LegendWriter::key() const
{
    QString out;
    for (const Entry* e : ordered()) {
        if (!m_chartEntries.empty() && e == &m_chartEntries.front())
            out += QStringLiteral("[charts]\n");
        out += e->text + QLatin1Char('\t') + (e->hasSolid ? QString::number(e->solid, 16) : e->look) + QLatin1Char('\n');
    }
    return out;
}

// Left to right from x = 6, a swatch (10 px), 4 px, the text, 14 px; the
// charts' entries start a line of their own when one is left.
std::vector<LegendWriter::Placed> LegendWriter::place(const QFontMetrics& fm, int width, int maxLines) const
{
    std::vector<Placed> out;
    const int right = width - 1;
    int x = 6, line = 0;
    for (const Entry* e : ordered()) {
        const bool firstChart = !m_chartEntries.empty() && e == &m_chartEntries.front();
        if (firstChart && x > 6 && line + 1 < maxLines) {
            ++line;
            x = 6;
        }
        const int w = fm.horizontalAdvance(e->text);
        if (x + 14 + w > right && line + 1 < maxLines) {
            ++line; // wrap
            x = 6;
        }
        if (x + 14 + w > right)
            continue; // no room left: left out
        out.push_back({e, line, x, w});
        x += 14 + w + 14;
    }
    return out;
}

int LegendWriter::lines(const QFont& font, int width, int maxLines) const
{
    const auto placed = place(QFontMetrics(font), width, std::max(1, maxLines));
    return placed.empty() ? 1 : placed.back().line + 1;
}

void LegendWriter::paint(QPainter& p, const QRect& r, const QPalette& pal, int lines) const
{
    p.fillRect(r, pal.color(QPalette::Window));
    lines = std::max(1, lines);
    const int lineHeight = r.height() / lines;
    for (const Placed& e : place(QFontMetrics(p.font()), r.width(), lines)) {
        const int x = r.left() + e.x, y = r.top() + e.line * lineHeight;
        p.save();
        e.entry->swatch(p, QRect(x, y + (lineHeight - 10) / 2, 10, 10));
        p.restore();
        p.setPen(pal.color(QPalette::WindowText));
        p.drawText(QRect(x + 14, y, e.textWidth + 2, lineHeight), Qt::AlignVCenter | Qt::AlignLeft, e.entry->text);
    }
}

} // namespace hecscope
