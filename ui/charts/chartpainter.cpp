#include "ui/charts/chartpainter.h"

#include <QImage>
#include <QPaintEngine>
#include <QPainter>
#include <QPicture>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace hecscope {

namespace {
// QPicture::play scales what it replays by the device's logical dpi over
// the default (SVG and PDF: 72 / 96); undone, one pixel of the picture is
// one of the device, and a chart fills its track.
void drawPicture(QPainter& p, QPoint at, const QPicture& picture)
{
    p.save();
    p.translate(at);
    if (const QPaintDevice* device = p.device(); device && device->logicalDpiX() > 0 && device->logicalDpiY() > 0)
        p.scale(double(picture.logicalDpiX()) / device->logicalDpiX(),
                double(picture.logicalDpiY()) / device->logicalDpiY());
    p.drawPicture(0, 0, picture);
    p.restore();
}

} // namespace

ChartPainter::ChartPainter() = default;
ChartPainter::~ChartPainter() = default;

// A value axis from 0 with one labelled gridline, at the largest round
// value (1, 2 or 5 times a power of ten) not above `max`, with its unit:
// rows are 40 pixels tall, where three labels collide. Headroom above the
// largest value keeps the label inside the row. The label is drawn by
// plotInto, on a box of its own (QCustomPlot's would lie on the lines).
void ChartPainter::setValueAxis(QCPAxis* axis, double max, const QString& unit)
{
    max = std::max(max, 1e-9);
    axis->setRange(0, max * 1.35);
    const double power = std::pow(10.0, std::floor(std::log10(max)));
    double tick = power;
    for (double m : {2.0, 5.0, 10.0})
        if (m * power <= max * (1 + 1e-9))
            tick = m * power;
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    ticker->addTick(tick, QString());
    axis->setTicker(ticker);
    axis->setTickLabels(false);
    const QString value = tick >= 1 ? QString::number(tick, 'f', 0) : QString::number(tick, 'g', 3);
    std::erase_if(m_labels, [&](const PendingLabel& l) { return l.right == (axis == m_plot->yAxis2); });
    m_labels.push_back({axis == m_plot->yAxis2, tick, unit.isEmpty() ? value : value + QLatin1Char(' ') + unit});
}

void ChartPainter::plotInto(QCPPainter& cp, int w, int h, QPointF at)
{
    m_plot->toPainter(&cp, w, h);
    // The axis rect's margins (reset): 2 pixels above, 1 below.
    const double top = 2, bottom = h - 1.0;
    cp.save();
    cp.setRenderHint(QPainter::Antialiasing, false);
    cp.setFont(m_plot->yAxis->tickLabelFont());
    const QFontMetricsF fm(cp.font());
    for (const PendingLabel& l : m_labels) {
        const QCPAxis* axis = l.right ? m_plot->yAxis2 : m_plot->yAxis;
        if (!axis->visible())
            continue;
        const QCPRange range = axis->range();
        if (range.upper <= range.lower || l.value > range.upper)
            continue;
        const double y = bottom - (l.value - range.lower) / (range.upper - range.lower) * (bottom - top);
        const QSizeF size(std::ceil(fm.horizontalAdvance(l.text)) + 4, std::ceil(fm.height()));
        const double x = l.right ? w - 3 - size.width() : 3;
        // Whole pixels: the box covers exactly what its fill paints.
        const QRectF box(QPointF(std::round(x), std::round(std::clamp(y - size.height() / 2, 0.0,
                                                                      std::max(0.0, h - size.height())))),
                         size);
        cp.fillRect(box, m_palette.color(QPalette::Base));
        cp.setPen(m_palette.color(QPalette::Text));
        cp.drawText(box, Qt::AlignCenter, l.text);
        m_drawn.push_back({l.text, box.translated(at)});
    }
    cp.restore();
}

void ChartPainter::reset(const QPalette& pal)
{
    if (!m_plot) {
        m_plot = std::make_unique<QCustomPlot>();
        m_plot->setNoAntialiasingOnDrag(true);
        m_plot->setPlottingHints(QCP::phFastPolylines);
        // One value per pixel column: antialiasing would only blur it, and costs.
        m_plot->setNotAntialiasedElements(QCP::aeAll);
        // Never shown (the timeline draws its own legend), yet a legend
        // item per graph is measured at every layout: about a tenth of a
        // heap chart's draw.
        m_plot->setAutoAddPlottableToLegend(false);
    }
    m_plot->clearPlottables();
    m_plot->setBackground(Qt::NoBrush);
    m_palette = pal;
    m_labels.clear();
    QCPAxisRect* rect = m_plot->axisRect();
    rect->setAutoMargins(QCP::msNone);
    rect->setMargins(QMargins(0, 2, 0, 1));
    QFont small = m_plot->font();
    small.setPointSizeF(std::max(6.0, small.pointSizeF() * 0.8));
    for (QCPAxis* axis : {m_plot->xAxis, m_plot->yAxis, m_plot->xAxis2, m_plot->yAxis2}) {
        axis->setBasePen(Qt::NoPen);
        axis->setTickPen(QPen(pal.color(QPalette::Mid)));
        axis->setSubTickPen(Qt::NoPen);
        axis->setTickLabelColor(pal.color(QPalette::Text));
        axis->setTickLabelFont(small);
        axis->grid()->setPen(QPen(pal.color(QPalette::Midlight), 0, Qt::DotLine));
        axis->grid()->setVisible(false);
        axis->setTickLabels(true);
    }
    m_plot->xAxis->setVisible(false);
    m_plot->yAxis->setVisible(true);
    m_plot->yAxis->setTickLabelSide(QCPAxis::lsInside);
    m_plot->yAxis->setTickLength(0, 3);
    m_plot->yAxis->grid()->setVisible(true);
    m_plot->yAxis2->setVisible(true);
    m_plot->yAxis2->setTickLabelSide(QCPAxis::lsInside);
    m_plot->yAxis2->setTickLength(0, 3);
    m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
    m_plot->yAxis2->setTicker(QSharedPointer<QCPAxisTicker>::create());
    m_plot->yAxis->ticker()->setTickCount(2);
    m_plot->yAxis2->ticker()->setTickCount(2);
}

QCustomPlot* ChartPainter::begin(QPainter& p, const QRect& r, const QPalette& pal)
{
    if (m_replay) {
        if (m_next < m_replay->charts.size()) {
            const ChartRecording::Chart& c = m_replay->charts[m_next++];
            if (m_replay->vector)
                drawPicture(p, r.topLeft(), c.picture);
            else
                p.drawImage(r.topLeft(), c.image);
        }
        return nullptr;
    }
    if (m_record)
        m_record->charts.emplace_back(); // filled by draw(), empty if the chart draws nothing
    reset(pal);
    return m_plot.get();
}

void ChartPainter::draw(QPainter& p, const QRect& r)
{
    m_plot->xAxis->setRange(0, r.width());
    m_drawn.clear();
    if (m_record) {
        ChartRecording::Chart& c = m_record->charts.back();
        if (m_record->vector) {
            QCPPainter cp(&c.picture);
            plotInto(cp, r.width(), r.height(), r.topLeft());
        } else {
            c.image = QImage(r.size(), QImage::Format_ARGB32_Premultiplied);
            c.image.fill(Qt::transparent);
            QCPPainter cp(&c.image);
            plotInto(cp, r.width(), r.height(), r.topLeft());
        }
        return;
    }
    const QPaintEngine* engine = p.paintEngine();
    if (engine && (engine->type() == QPaintEngine::Raster || engine->type() == QPaintEngine::OpenGL2)) {
        // Pixels: draw into an image at the device's resolution and blit it.
        const qreal dpr = p.device() ? p.device()->devicePixelRatioF() : 1.0;
        const QSize size(int(std::ceil(r.width() * dpr)), int(std::ceil(r.height() * dpr)));
        if (m_image.size() != size)
            m_image = QImage(size, QImage::Format_ARGB32_Premultiplied);
        m_image.setDevicePixelRatio(dpr);
        m_image.fill(Qt::transparent);
        {
            QCPPainter cp(&m_image);
            plotInto(cp, r.width(), r.height(), r.topLeft());
        }
        p.drawImage(r.topLeft(), m_image);
        return;
    }
    // Vectors (SVG, PDF): record the drawing and replay it onto the painter.
    QPicture picture;
    {
        QCPPainter cp(&picture);
        plotInto(cp, r.width(), r.height(), r.topLeft());
    }
    drawPicture(p, r.topLeft(), picture);
}

} // namespace hecscope
