#include "ui/timeline/textcache.h"

#include "ui/timeline/tracks/timelinetrack.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QGuiApplication>
#include <QHashFunctions>
#include <QPaintEngine>
#include <QPainter>
#include <QRectF>
#include <QTextLayout>
#include <QTextLine>
#include <QTextOption>

#include <algorithm>
#include <atomic>
#include <cmath>

namespace hecscope {

// A text as QPainter::drawText lays it out (Qt's qt_format_text): lines of
// unbounded width, each at the height of the ones above it and the font's
// leading, rounded up to a whole pixel; a line's height is its ascent and
// descent. `bottom`: where each line ends.
struct TextCache::Laid {
    struct Line {
        qreal bottom = 0, width = 0, advance = 0; // width: the natural text width
    };
    QTextLayout layout;
    std::vector<Line> lines;
};

TextCache::TextCache() = default;
TextCache::~TextCache() = default;

size_t TextCache::Hash::operator()(const QString& s) const noexcept
{
    return qHash(s);
}

size_t TextCache::size() const
{
    size_t n = 0;
    for (const auto& f : m_fonts)
        n += f->texts.size();
    return n;
}

namespace {

// Counts QGuiApplication::fontDatabaseChanged (an application font added or
// removed, the system's fonts changed): kept layouts hold the font engines
// chosen before, which drawText would now choose again.
std::atomic<unsigned> g_fontGeneration{0};

unsigned fontGeneration()
{
    static const bool connected = [] {
        auto* app = qobject_cast<QGuiApplication*>(QCoreApplication::instance());
        if (app)
            QObject::connect(app, &QGuiApplication::fontDatabaseChanged, app, [] { ++g_fontGeneration; });
        return app != nullptr;
    }();
    (void)connected;
    return g_fontGeneration.load(std::memory_order_relaxed);
}

} // namespace

TextCache::FontTexts& TextCache::fontTexts(const QPainter& p)
{
    if (const unsigned generation = fontGeneration(); generation != m_fontGeneration) {
        m_fonts.clear();
        m_fontGeneration = generation;
    }
    // The font's texts (a renderer draws with two or three fonts: a
    // search from the last used). The painter's font is the device's
    // (QPainter::setFont), but QFont's == leaves the resolution out.
    const QFont& font = p.font();
    const QPaintDevice* device = p.device();
    const int dpi = device ? device->logicalDpiX() * 65536 + device->logicalDpiY() : 0;
    size_t k = 0;
    while (k < m_fonts.size() && !(m_fonts[k]->dpi == dpi && m_fonts[k]->font == font))
        ++k;
    if (k == m_fonts.size()) {
        if (m_fonts.size() >= kMaxFonts)
            m_fonts.pop_back();
        m_fonts.push_back(std::make_unique<FontTexts>());
        m_fonts.back()->font = font;
        m_fonts.back()->dpi = dpi;
        k = m_fonts.size() - 1;
    }
    std::rotate(m_fonts.begin(), m_fonts.begin() + std::ptrdiff_t(k), m_fonts.begin() + std::ptrdiff_t(k) + 1);
    return *m_fonts[0];
}

TextCache::Measured& TextCache::measured(FontTexts& f, const QString& text)
{
    if (f.measured.size() >= kMaxTexts && !f.measured.count(text))
        f.measured.clear();
    return f.measured[text];
}

int TextCache::advance(const QPainter& p, const QString& text)
{
    if (!m_enabled)
        return p.fontMetrics().horizontalAdvance(text);
    Measured& m = measured(fontTexts(p), text);
    if (m.advance < 0)
        m.advance = p.fontMetrics().horizontalAdvance(text);
    return m.advance;
}

QString TextCache::displayedLabel(const QPainter& p, const QString& label, int width)
{
    if (!m_enabled)
        return hecscope::displayedLabel(label, p.fontMetrics(), width);
    Measured& m = measured(fontTexts(p), label);
    if (!m.hasShown || m.width != width) {
        m.shown = hecscope::displayedLabel(label, p.fontMetrics(), width);
        m.width = width;
        m.hasShown = true;
    }
    return m.shown;
}

QString TextCache::elidedRight(const QPainter& p, const QString& text, int width)
{
    if (!m_enabled)
        return p.fontMetrics().elidedText(text, Qt::ElideRight, width);
    Measured& m = measured(fontTexts(p), text);
    if (!m.hasElided || m.elidedWidth != width) {
        m.elided = p.fontMetrics().elidedText(text, Qt::ElideRight, width);
        m.elidedWidth = width;
        m.hasElided = true;
    }
    return m.elided;
}

const TextCache::Laid& TextCache::laid(FontTexts& f, const QString& text)
{
    const QFont& font = f.font;
    if (const auto it = f.texts.find(text); it != f.texts.end())
        return *it->second;
    if (f.texts.size() >= kMaxTexts)
        f.texts.clear(); // (ruler figures change with every zoom)
    auto l = std::make_unique<Laid>();
    l->layout.setText(text);
    l->layout.setFont(font);
    QTextOption option = l->layout.textOption();
    option.setTextDirection(Qt::LeftToRight); // (the same as Auto for these texts)
    option.setAlignment(Qt::AlignLeft);
    l->layout.setTextOption(option);
    l->layout.setCacheEnabled(true);
    l->layout.beginLayout();
    const qreal leading = QFontMetricsF(font).leading();
    qreal height = -leading;
    for (QTextLine line = l->layout.createLine(); line.isValid(); line = l->layout.createLine()) {
        line.setLineWidth(0x01000000);
        height = std::ceil(height + leading);
        line.setPosition(QPointF(0., height));
        height += line.ascent() + line.descent();
        l->lines.push_back({height, line.naturalTextWidth(), line.horizontalAdvance()});
    }
    l->layout.endLayout();
    return *f.texts.emplace(text, std::move(l)).first->second;
}

void TextCache::draw(QPainter& p, const QRectF& r, int flags, const QString& text)
{
    constexpr int kAlign = Qt::AlignLeft | Qt::AlignRight | Qt::AlignHCenter | Qt::AlignTop | Qt::AlignBottom
        | Qt::AlignVCenter;
    const QPaintEngine* engine = p.paintEngine();
    const QFont& font = p.font();
    // (A painter's direction is Auto unless set: the text's own, left to
    // right when it has no right-to-left letters.)
    const Qt::LayoutDirection direction = p.layoutDirection();
    bool plain = m_enabled && engine && engine->type() == QPaintEngine::Raster
        && !(flags & ~(kAlign | Qt::TextSingleLine | Qt::TextDontClip))
        && (direction == Qt::LeftToRight || direction == Qt::LayoutDirectionAuto) && !font.underline()
        && !font.overline() && !font.strikeOut();
    // As qt_format_text: a carriage return is a space, and so is a line
    // break in a single line; others break the line.
    QString laidText = text;
    for (qsizetype i = 0; plain && i < text.size(); ++i) {
        const QChar c = text[i];
        if (c == u'\r' || (c == u'\n' && (flags & Qt::TextSingleLine)))
            laidText[i] = u' ';
        else if (c == u'\n')
            laidText[i] = QChar::LineSeparator;
        switch (c.direction()) {
        case QChar::DirR:
        case QChar::DirAL:
        case QChar::DirAN:
        case QChar::DirRLE:
        case QChar::DirRLO:
        case QChar::DirRLI:
        case QChar::DirFSI:
            plain = false;
            break;
        default:
            plain = !c.isSurrogate() && c != u'\t' && c != u'\x9c' && c != QChar::LineSeparator
                && c != QChar::ParagraphSeparator;
        }
    }
    // An empty rectangle (a label squeezed to nothing) as well: Qt 6.4
    // draws there, clipped to it, later versions draw nothing.
    const bool dontClip = flags & Qt::TextDontClip;
    if (!plain || (r.isEmpty() && !dontClip)) {
        p.drawText(r, flags, text);
        return;
    }
    // As QPainter::drawText: nothing for no text or no pen.
    if (text.isEmpty() || p.pen().style() == Qt::NoPen)
        return;
    const Laid& l = laid(fontTexts(p), laidText);
    // The lines down to the first that reaches the rectangle's bottom
    // (unless not clipped: all), their height and widest.
    size_t lines = 0;
    qreal height = 0, width = 0;
    while (lines < l.lines.size()) {
        height = l.lines[lines].bottom;
        width = std::max(width, l.lines[lines].width);
        ++lines;
        if (!dontClip && height >= r.height())
            break;
    }
    qreal yoff = 0, xoff = 0;
    if (flags & Qt::AlignBottom)
        yoff = r.height() - height;
    else if (flags & Qt::AlignVCenter)
        yoff = (r.height() - height) / 2;
    if (flags & Qt::AlignRight)
        xoff = r.width() - width;
    else if (flags & Qt::AlignHCenter)
        xoff = (r.width() - width) / 2;
    const bool clip = !dontClip && !r.contains(QRectF(r.x() + xoff, r.y() + yoff, width, height));
    if (clip) {
        p.save();
        p.setClipRect(r, Qt::IntersectClip);
    }
    // Each line placed by its advance (trailing spaces count).
    for (size_t i = 0; i < lines; ++i) {
        xoff = 0;
        if (flags & Qt::AlignRight)
            xoff = r.width() - l.lines[i].advance;
        else if (flags & Qt::AlignHCenter)
            xoff = (r.width() - l.lines[i].advance) / 2;
        l.layout.lineAt(int(i)).draw(&p, QPointF(r.x() + xoff, r.y() + yoff));
    }
    if (clip)
        p.restore();
}

} // namespace hecscope
