#include "ui/sparks/sparksizeschart.h"

#include "ui/colours.h"
#include "ui/formatting.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace hecscope {

namespace {

// The bars are the Sparks track's converted green (kSparksConverted).
const QColor kBarHover{0x58, 0xd6, 0x8d};
const QColor kMedian{0xc0, 0x39, 0x2b};

// A 1-2-5 step giving about `ticks` intervals up to `max`.
double niceStep(double max, int ticks, bool integral)
{
    const double raw = std::max(max / ticks, integral ? 1.0 : 1e-9);
    const double p = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (raw <= m * p)
            return m * p;
    return 10 * p;
}

double log2Of(uint64_t ns)
{
    return ns < 1 ? 0.0 : std::log2(double(ns));
}

} // namespace

SparkSizesChart::SparkSizesChart(QWidget* parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void SparkSizesChart::setSizes(std::shared_ptr<const SparkSizes> sizes)
{
    m_sizes = std::move(sizes);
    m_message.clear();
    m_hover = -1;
    update();
}

void SparkSizesChart::setMessage(const QString& message)
{
    m_sizes.reset();
    m_message = message;
    m_hover = -1;
    update();
}

void SparkSizesChart::setBars(Bars bars)
{
    m_bars = bars;
    update();
}

double SparkSizesChart::value(const SparkSizeBin& b) const
{
    return m_bars == Bars::Count ? double(b.count) : double(b.total);
}

QString SparkSizesChart::valueText(double v) const
{
    return m_bars == Bars::Count ? countText(uint64_t(std::llround(v))) : durationText(uint64_t(std::llround(v)));
}

SparkSizesChart::Layout SparkSizesChart::layout() const
{
    Layout l;
    if (!m_sizes || m_sizes->bins.empty())
        return l;
    const auto& bins = m_sizes->bins;
    // Half a bin either side, and at least six bins wide so that one or
    // two bars still sit on a readable axis.
    l.lo = bins.front().log2 - 0.5;
    l.hi = bins.back().log2 + 1.5;
    if (const double missing = 6 - (l.hi - l.lo); missing > 0) {
        l.lo -= missing / 2;
        l.hi += missing / 2;
    }
    if (l.lo < 0) {
        l.hi -= l.lo;
        l.lo = 0;
    }
    double highest = 0;
    for (const SparkSizeBin& b : bins)
        highest = std::max(highest, value(b));
    const double step = niceStep(highest, 4, true);
    l.yStep = step;
    l.yMax = std::max(step, std::ceil(highest / step) * step);

    const QFontMetrics fm = fontMetrics();
    int labelWidth = 0;
    for (double v = 0; v <= l.yMax + step / 2; v += step)
        labelWidth = std::max(labelWidth, fm.horizontalAdvance(valueText(v)));
    const double left = fm.height() + 8 + labelWidth + 6; // axis title, labels, tick
    const double bottom = 2 * fm.height() + 12;           // tick labels, axis title
    const double top = fm.height() + 8;                   // the median's label
    l.plot = QRectF(left, top, std::max(10.0, width() - left - 24), std::max(10.0, height() - top - bottom));
    return l;
}

QRect SparkSizesChart::barRect(int bin) const
{
    if (!m_sizes || bin < 0 || size_t(bin) >= m_sizes->bins.size())
        return {};
    const Layout l = layout();
    const SparkSizeBin& b = m_sizes->bins[size_t(bin)];
    const auto x = [&](double v) { return l.plot.left() + (v - l.lo) / (l.hi - l.lo) * l.plot.width(); };
    // A bin with any spark is at least 2 px tall: one spark among thousands
    // must not vanish.
    double h = value(b) / l.yMax * l.plot.height();
    if (b.count > 0)
        h = std::max(h, 2.0);
    const QRectF r(QPointF(x(b.log2) + 1, l.plot.bottom() - h), QPointF(x(b.log2 + 1) - 1, l.plot.bottom()));
    return r.toAlignedRect();
}

int SparkSizesChart::binAt(QPoint pos) const
{
    if (!m_sizes)
        return -1;
    const Layout l = layout();
    if (!l.plot.contains(pos))
        return -1;
    // The whole column above a bar counts: short bars stay easy to point at.
    const double v = l.lo + (pos.x() - l.plot.left()) / l.plot.width() * (l.hi - l.lo);
    const int k = int(std::floor(v));
    const auto& bins = m_sizes->bins;
    if (bins.empty() || k < bins.front().log2 || k > bins.back().log2)
        return -1;
    return k - bins.front().log2;
}

QString SparkSizesChart::binToolTip(int bin) const
{
    if (!m_sizes || bin < 0 || size_t(bin) >= m_sizes->bins.size())
        return {};
    const SparkSizes& s = *m_sizes;
    const SparkSizeBin& b = s.bins[size_t(bin)];
    const QString range = b.hi == UINT64_MAX ? tr("%1 or more").arg(durationText(b.lo))
                                             : tr("%1 – %2").arg(durationText(b.lo), durationText(b.hi));
    return tr("Evaluation time %1\n%2 (%3 of %4 sparks)\nTotal %5 (%6 of all evaluation time)")
        .arg(range, b.count == 1 ? tr("1 spark") : tr("%1 sparks").arg(countText(b.count)),
             percentText(b.count, s.count), countText(s.count), durationText(b.total), percentText(b.total, s.total));
}

void SparkSizesChart::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    p.setPen(palette().text().color());
    if (!m_sizes || m_sizes->bins.empty()) {
        p.drawText(rect().adjusted(24, 12, -24, -12), Qt::AlignCenter | Qt::TextWordWrap, m_message);
        return;
    }
    const Layout l = layout();
    const QFontMetrics fm = fontMetrics();
    const QColor grid = palette().mid().color();
    const QColor text = palette().text().color();
    const auto x = [&](double v) { return l.plot.left() + (v - l.lo) / (l.hi - l.lo) * l.plot.width(); };

    // Horizontal grid and the value axis.
    const double step = l.yStep;
    double lastLabel = 1e9; // labels closer than a line of text are left out (the grid stays)
    for (double v = 0; v <= l.yMax + step / 2; v += step) {
        const double y = l.plot.bottom() - v / l.yMax * l.plot.height();
        p.setPen(QPen(grid, 0, v == 0 ? Qt::SolidLine : Qt::DotLine));
        p.drawLine(QPointF(l.plot.left(), y), QPointF(l.plot.right(), y));
        if (lastLabel - y < fm.height())
            continue;
        lastLabel = y;
        p.setPen(text);
        const QString label = valueText(v);
        p.drawText(QPointF(l.plot.left() - 6 - fm.horizontalAdvance(label), y + fm.ascent() / 2.0 - 1), label);
    }
    p.save();
    p.translate(fm.ascent(), l.plot.center().y());
    p.rotate(-90);
    const QString yTitle = m_bars == Bars::Count ? tr("Sparks") : tr("Total evaluation time");
    p.drawText(QPointF(-fm.horizontalAdvance(yTitle) / 2.0, 0), yTitle);
    p.restore();

    // Bars.
    for (size_t i = 0; i < m_sizes->bins.size(); ++i) {
        if (m_sizes->bins[i].count == 0)
            continue;
        const QRect r = barRect(int(i));
        p.fillRect(r, int(i) == m_hover ? kBarHover : kSparksConverted);
        p.setPen(kSparksConverted.darker(140));
        p.drawRect(r.adjusted(0, 0, -1, -1));
    }

    // The time axis: decades labelled; 2 and 5 times a decade marked (and
    // labelled too when the axis spans less than two decades).
    const double decade = std::log2(10.0);
    int labelled = 0;
    for (int k = 0; k <= 13; ++k)
        labelled += x(k * decade) >= l.plot.left() && x(k * decade) <= l.plot.right();
    double lastLabelRight = -1e9;
    p.setPen(text);
    for (int k = 0; k <= 13; ++k) {
        for (int m : {1, 2, 5}) {
            const double ns = m * std::pow(10.0, k);
            const double px = x(std::log2(ns));
            if (px < l.plot.left() - 0.5 || px > l.plot.right() + 0.5)
                continue;
            const bool major = m == 1;
            p.drawLine(QPointF(px, l.plot.bottom()), QPointF(px, l.plot.bottom() + (major ? 5 : 3)));
            if (!major && labelled >= 2)
                continue;
            const QString label = durationText(uint64_t(ns));
            const double w = fm.horizontalAdvance(label);
            if (px - w / 2 < lastLabelRight + 6)
                continue;
            p.drawText(QPointF(px - w / 2, l.plot.bottom() + 6 + fm.ascent()), label);
            lastLabelRight = px + w / 2;
        }
    }
    const QString xTitle = tr("Evaluation time per spark (log scale)");
    p.drawText(QPointF(l.plot.center().x() - fm.horizontalAdvance(xTitle) / 2.0, l.plot.bottom() + 10 + fm.height() + fm.ascent()), xTitle);

    // The median.
    const double mx = x(log2Of(m_sizes->median));
    p.setPen(QPen(kMedian, 1.5, Qt::DashLine));
    p.drawLine(QPointF(mx, l.plot.top() - 2), QPointF(mx, l.plot.bottom()));
    const QString median = tr("median %1").arg(durationText(m_sizes->median));
    const double mw = fm.horizontalAdvance(median);
    const double mLeft = std::clamp(mx - mw / 2, 2.0, width() - mw - 2);
    p.setPen(kMedian);
    p.drawText(QPointF(mLeft, l.plot.top() - 6), median);
}

bool SparkSizesChart::event(QEvent* e)
{
    if (e->type() == QEvent::ToolTip) {
        const auto* help = static_cast<QHelpEvent*>(e);
        const QString tip = binToolTip(binAt(help->pos()));
        if (tip.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), tip, this);
        return true;
    }
    return QWidget::event(e);
}

void SparkSizesChart::mouseMoveEvent(QMouseEvent* e)
{
    const int bin = binAt(e->position().toPoint());
    if (bin != m_hover) {
        m_hover = bin;
        update();
    }
}

void SparkSizesChart::leaveEvent(QEvent*)
{
    if (m_hover != -1) {
        m_hover = -1;
        update();
    }
}

} // namespace hecscope
