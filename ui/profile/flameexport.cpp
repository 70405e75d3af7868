#include "ui/profile/flameexport.h"

#include "ui/picturewriter.h"
#include "ui/profile/flamepainter.h"

#include <QFontMetrics>
#include <QGuiApplication>
#include <QObject>
#include <QPainter>

#include <algorithm>

namespace hecscope {

QString flameTitle(const CostCentreProfile& profile, ProfileMetric metric, const QString& scope)
{
    const QString program = profile.header.program.empty() ? QObject::tr("cost-centre profile")
                                                           : QString::fromStdString(profile.header.program);
    QString title = QObject::tr("%1: width = %2, total %3")
                        .arg(program, QString::fromStdString(profileUnitName(profile, metric)),
                             QString::fromStdString(formatProfileValue(profile, metric, profile.total(metric))));
    if (!scope.isEmpty())
        title += QStringLiteral(", ") + scope;
    return title;
}

namespace {

// Fonts in pixels: the same metrics on every device (a PDF is 72 dpi, a PNG
// 96), so the height measured before painting is the one painted.
QFont pictureFont(bool bold)
{
    QFont f = QGuiApplication::font();
    f.setPixelSize(12);
    f.setBold(bold);
    return f;
}

int titlePixels()
{
    return QFontMetrics(pictureFont(true)).height() + 8;
}

int rowPixels()
{
    return std::max(16, QFontMetrics(pictureFont(false)).height() + 4);
}

} // namespace

QSize flamePictureSize(const CostCentreProfile& profile, const FlameExportRequest& rq)
{
    if (!rq.fitHeight)
        return rq.size;
    const FlameLayout layout = profile.nodes.empty() ? FlameLayout{} : layoutFlame(profile, 0, rq.metric);
    const uint32_t rows = flameRowsDrawn(layout, rq.size.width());
    // No frame: room for the empty text.
    const int64_t wanted = titlePixels() + int64_t(rows ? rows : 3) * rowPixels() + 4;
    return QSize(rq.size.width(), int(std::clamp<int64_t>(wanted, 50, std::max(50, rq.size.height()))));
}

void paintFlamePicture(QPainter& p, const QRect& area, const CostCentreProfile& profile,
                       const FlameExportRequest& rq)
{
    const QColor background = Qt::white;
    p.fillRect(area, background);
    QFont titleFont = pictureFont(true);
    p.setFont(titleFont);
    const int titleHeight = titlePixels();
    const QRect titleRect = area.adjusted(6, 0, -6, 0).intersected(QRect(area.left(), area.top(), area.width(), titleHeight));
    p.setPen(QColor(0x20, 0x20, 0x20));
    p.drawText(titleRect, Qt::AlignLeft | Qt::AlignVCenter,
               p.fontMetrics().elidedText(rq.title, Qt::ElideRight, titleRect.width()));
    p.setFont(pictureFont(false));
    const QRect frames = area.adjusted(0, titleHeight, 0, 0);
    const FlameLayout layout = profile.nodes.empty() ? FlameLayout{} : layoutFlame(profile, 0, rq.metric);
    if (layout.frames.empty()) {
        p.setPen(QColor(0x70, 0x70, 0x70));
        p.drawText(frames, Qt::AlignCenter | Qt::TextWordWrap, rq.emptyText);
        return;
    }
    FlamePaintOptions o;
    o.icicle = rq.icicle;
    o.background = background;
    o.rowHeight = rowPixels();
    paintFlame(p, frames, profile, layout, o);
}

QString exportFlameImage(const CostCentreProfile& profile, const FlameExportRequest& rq)
{
    return writePicture(rq.path, flamePictureSize(profile, rq), QStringLiteral("Hecscope flame graph"), Qt::white,
                        [&](QPainter& p, const QRect& area) { paintFlamePicture(p, area, profile, rq); });
}

} // namespace hecscope
