#include "ui/profile/flameexport.h"

#include "ui/profile/flamepainter.h"
#include "ui/timeline/imageexport.h"

#include <QObject>
#include <QPainter>

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

void paintFlamePicture(QPainter& p, const QRect& area, const CostCentreProfile& profile,
                       const FlameExportRequest& rq)
{
    const QColor background = Qt::white;
    p.fillRect(area, background);
    QFont titleFont = p.font();
    titleFont.setBold(true);
    p.setFont(titleFont);
    const int titleHeight = p.fontMetrics().height() + 8;
    const QRect titleRect = area.adjusted(6, 0, -6, 0).intersected(QRect(area.left(), area.top(), area.width(), titleHeight));
    p.setPen(QColor(0x20, 0x20, 0x20));
    p.drawText(titleRect, Qt::AlignLeft | Qt::AlignVCenter,
               p.fontMetrics().elidedText(rq.title, Qt::ElideRight, titleRect.width()));
    titleFont.setBold(false);
    p.setFont(titleFont);
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
    o.rowHeight = std::max(16, p.fontMetrics().height() + 4);
    paintFlame(p, frames, profile, layout, o);
}

QString exportFlameImage(const CostCentreProfile& profile, const FlameExportRequest& rq)
{
    return writePicture(rq.path, rq.size, QStringLiteral("Hecscope flame graph"), Qt::white,
                        [&](QPainter& p, const QRect& area) { paintFlamePicture(p, area, profile, rq); });
}

} // namespace hecscope
