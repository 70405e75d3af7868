#pragma once

#include <QFont>
#include <QString>

#include <memory>
#include <unordered_map>
#include <vector>

class QPainter;
class QRectF;
class QTextLayout;

namespace hecscope {

// Draws what `p.drawText(r, flags, text)` draws, the same pixels, from a
// text laid out once and kept across paints: a repaint draws the same row
// labels, thread names, ruler figures and notes again, and laying them out
// (HarfBuzz shaping) took about a sixth of a wide repaint of the big log.
// Left to right, with flags of alignment, Qt::TextSingleLine and
// Qt::TextDontClip (labels of several lines too). Any other flag, a tab,
// right-to-left letters or bidi controls, characters outside the Basic
// Multilingual Plane, a decorated font (underline, …), a right-to-left
// painter, an empty rectangle or a vector engine (SVG, PDF, a QPicture) goes
// to drawText itself, as does everything once the cache is off (tests
// compare the two). It measures texts once as well. One per renderer, on its
// thread; it keeps at most kMaxTexts laid-out and kMaxTexts measured texts a
// font (then starts again), and lets all go when the font database changes.
class TextCache {
public:
    TextCache();
    ~TextCache();
    TextCache(const TextCache&) = delete;
    TextCache& operator=(const TextCache&) = delete;

    void draw(QPainter& p, const QRectF& r, int flags, const QString& text);
    // p.fontMetrics().horizontalAdvance(text)
    int advance(const QPainter& p, const QString& text);
    // displayedLabel(label, p.fontMetrics(), width) (timelinetrack.h)
    QString displayedLabel(const QPainter& p, const QString& label, int width);
    // p.fontMetrics().elidedText(text, Qt::ElideRight, width)
    QString elidedRight(const QPainter& p, const QString& text, int width);
    void setEnabled(bool on) { m_enabled = on; }
    size_t size() const; // texts kept (tests)

    static constexpr size_t kMaxTexts = 1024;
    static constexpr size_t kMaxFonts = 8;

private:
    struct Laid;
    struct Hash {
        size_t operator()(const QString& s) const noexcept;
    };
    struct Measured {
        int advance = -1;
        bool hasShown = false, hasElided = false;
        int width = 0, elidedWidth = 0; // of `shown` (displayedLabel), of `elided`
        QString shown, elided;
    };
    struct FontTexts {
        QFont font;
        int dpi = 0; // the device's, x and y
        std::unordered_map<QString, std::unique_ptr<Laid>, Hash> texts;
        std::unordered_map<QString, Measured, Hash> measured;
    };
    FontTexts& fontTexts(const QPainter& p);
    const Laid& laid(FontTexts& f, const QString& text);
    Measured& measured(FontTexts& f, const QString& text);

    std::vector<std::unique_ptr<FontTexts>> m_fonts; // most recently used first
    unsigned m_fontGeneration = 0;                   // of the font database they were laid out with
    bool m_enabled = true;
};

} // namespace hecscope
