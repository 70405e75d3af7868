#include "ui/profile/flamepainter.h"

#include <QFontMetrics>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace hecscope {
namespace {

const QColor kRootColour(0xd9, 0xd4, 0xcc);
const QColor kRtsColour(0xbb, 0xbb, 0xbb);
const QColor kChosenColour(0x30, 0x8c, 0xc6);

// Where rows and frames go: shared by painting and hit tests so that both
// agree to the pixel.
struct Geometry {
    Geometry(const QRect& a, const FlamePaintOptions& o)
        : area(a)
        , rowHeight(std::max(1, o.rowHeight))
        , icicle(o.icicle)
        , rows((a.height() + rowHeight - 1) / rowHeight)
    {
    }
    int rowTop(uint32_t depth) const
    {
        return icicle ? area.top() + int(depth) * rowHeight : area.bottom() + 1 - (int(depth) + 1) * rowHeight;
    }
    // The frame's pixel columns [left, right); false when narrower than
    // kFlameMinFrameWidth (and so is all of its subtree).
    bool columns(const FlameFrame& f, int& left, int& right) const
    {
        const double x0 = f.x0 * area.width(), x1 = f.x1 * area.width();
        if (x1 - x0 < kFlameMinFrameWidth)
            return false;
        left = area.left() + int(std::lround(x0));
        right = std::max(left + 1, area.left() + int(std::lround(x1)));
        return true;
    }
    QRect area;
    int rowHeight;
    bool icicle;
    int rows; // rows that show at least partly
};

QColor faded(const QColor& c, const QColor& background)
{
    auto mix = [](int a, int b) { return (a + 3 * b) / 4; };
    return QColor(mix(c.red(), background.red()), mix(c.green(), background.green()), mix(c.blue(), background.blue()));
}

// Relative luminance (WCAG 2) of an sRGB channel.
double linear(int channel)
{
    const double c = channel / 255.0;
    return c <= 0.03928 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

} // namespace

double contrastWithBlack(const QColor& c)
{
    const double l = 0.2126 * linear(c.red()) + 0.7152 * linear(c.green()) + 0.0722 * linear(c.blue());
    return (l + 0.05) / 0.05;
}

QColor moduleColour(const std::string& module)
{
    // FNV-1a: stable across runs and platforms (std::hash is neither).
    uint64_t h = 0xcbf29ce484222325ULL;
    for (unsigned char c : module)
        h = (h ^ c) * 0x100000001b3ULL;
    h ^= h >> 29;
    // Red to yellow, as flamegraph.pl's "hot" palette, with saturation and
    // lightness varied too so that neighbouring modules differ.
    const int hue = int(h % 56);
    const int saturation = 170 + int((h >> 8) % 86);
    int lightness = 140 + int((h >> 16) % 50);
    QColor c = QColor::fromHsl(hue, saturation, lightness);
    while (contrastWithBlack(c) < 4.5 && lightness < 235) { // WCAG AA for the labels
        lightness += 5;
        c = QColor::fromHsl(hue, saturation, lightness);
    }
    return c;
}

QColor costCentreColour(const ProfileCostCentre& cc)
{
    return cc.rts ? kRtsColour : moduleColour(cc.module);
}

QRect flameFrameRect(const QRect& area, const FlameLayout& layout, const FlamePaintOptions& o, int frame)
{
    if (frame < 0 || size_t(frame) >= layout.frames.size())
        return {};
    const Geometry g(area, o);
    const FlameFrame& f = layout.frames[size_t(frame)];
    int left = 0, right = 0;
    if (int(f.depth) >= g.rows || !g.columns(f, left, right))
        return {};
    // A frame is painted only when every ancestor is: they are at least as wide.
    return QRect(left, g.rowTop(f.depth), right - left, g.rowHeight).intersected(area);
}

uint32_t flameRowsDrawn(const FlameLayout& layout, int width)
{
    const Geometry g(QRect(0, 0, std::max(1, width), 1), FlamePaintOptions{});
    uint32_t rows = 0;
    const auto& frames = layout.frames;
    for (size_t i = 0; i < frames.size();) {
        int left = 0, right = 0;
        if (!g.columns(frames[i], left, right)) {
            i = frames[i].end; // nor anything above it
            continue;
        }
        rows = std::max(rows, frames[i].depth + 1);
        ++i;
    }
    return rows;
}

int flameFrameAt(const QRect& area, const FlameLayout& layout, const FlamePaintOptions& o, QPoint pos)
{
    if (!area.contains(pos))
        return -1;
    const Geometry g(area, o);
    const int fromEdge = o.icicle ? pos.y() - area.top() : area.bottom() - pos.y();
    const uint32_t depth = uint32_t(fromEdge / g.rowHeight);
    const auto& frames = layout.frames;
    for (size_t i = 0; i < frames.size();) {
        const FlameFrame& f = frames[i];
        int left = 0, right = 0;
        if (f.depth > depth || !g.columns(f, left, right) || pos.x() < left || pos.x() >= right) {
            i = f.end; // not on this frame: nor on anything above it
            continue;
        }
        if (f.depth == depth)
            return int(i);
        ++i; // under the point: look among its children
    }
    return -1;
}

void paintFlame(QPainter& p, const QRect& area, const CostCentreProfile& profile, const FlameLayout& layout,
                const FlamePaintOptions& o)
{
    FlamePaintStats stats;
    p.save();
    p.setClipRect(area);
    p.setRenderHint(QPainter::Antialiasing, false);
    p.fillRect(area, o.background);
    const Geometry g(area, o);
    const QFontMetrics fm(p.font());
    const int baseline = (g.rowHeight - 1 + fm.ascent() - fm.descent()) / 2;
    // Per cost centre, made when first needed: colour and label.
    std::vector<QRgb> colours(profile.costCentres.size(), 0);
    std::vector<QString> labels(profile.costCentres.size());
    std::vector<int> labelWidths(profile.costCentres.size(), -1);
    const QColor text(0x10, 0x10, 0x10), fadedText(0x80, 0x80, 0x80);
    bool fadedPen = false;
    p.setPen(text);
    QRect hovered, chosen;
    const auto& frames = layout.frames;
    for (size_t i = 0; i < frames.size();) {
        const FlameFrame& f = frames[i];
        int left = 0, right = 0;
        if (int(f.depth) >= g.rows || !g.columns(f, left, right)) {
            i = f.end;
            continue;
        }
        const ProfileNode& node = profile.nodes[f.node];
        const uint32_t cc = node.cc;
        QColor fill = kRootColour;
        if (o.nodeColours && f.node < o.nodeColours->size() && (*o.nodeColours)[f.node]) {
            fill = QColor::fromRgb((*o.nodeColours)[f.node]);
        } else if (cc != kNoCostCentre) {
            if (!colours[cc])
                colours[cc] = costCentreColour(profile.costCentres[cc]).rgb();
            fill = QColor::fromRgb(colours[cc]);
        }
        const bool dim = o.highlight && f.node < o.highlight->size() && !(*o.highlight)[f.node];
        if (dim)
            fill = faded(fill, o.background);
        const int top = g.rowTop(f.depth);
        const int width = right - left;
        p.fillRect(left, top, width >= 3 ? width - 1 : width, g.rowHeight - 1, fill);
        ++stats.frames;
        if (width >= kFlameMinLabelWidth) {
            static const QString all = QStringLiteral("all");
            const QString* label = &all;
            int labelWidth = -1;
            if (cc != kNoCostCentre) {
                if (labelWidths[cc] < 0) {
                    labels[cc] = QString::fromStdString(profile.costCentres[cc].label);
                    labelWidths[cc] = fm.horizontalAdvance(labels[cc]);
                }
                label = &labels[cc];
                labelWidth = labelWidths[cc];
            }
            const int room = width - 7;
            if (fadedPen != dim) {
                p.setPen(dim ? fadedText : text);
                fadedPen = dim;
            }
            const QPoint at(left + 3, top + baseline);
            if (labelWidth >= 0 && labelWidth <= room)
                p.drawText(at, *label);
            else
                p.drawText(at, fm.elidedText(*label, Qt::ElideRight, room));
            ++stats.labels;
        }
        if (i == o.hoveredFrame)
            hovered = QRect(left, top, width, g.rowHeight - 1);
        if (f.node == o.chosenNode)
            chosen = QRect(left, top, width, g.rowHeight - 1);
        ++i;
    }
    p.setBrush(Qt::NoBrush);
    if (!hovered.isEmpty()) {
        p.setPen(QPen(QColor(0x20, 0x20, 0x20), 1));
        p.drawRect(hovered.adjusted(0, 0, -1, -1));
    }
    if (!chosen.isEmpty()) {
        p.setPen(QPen(kChosenColour, 2));
        p.drawRect(chosen.adjusted(1, 1, -1, -1));
    }
    p.restore();
    if (o.stats)
        *o.stats = stats;
}

} // namespace hecscope
