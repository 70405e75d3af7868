#pragma once

#include "core/profile/profile.h"

#include <QSize>
#include <QString>

class QPainter;
class QRect;

namespace hecscope {

// A picture of a profile's flame graph: a title line, then the frames of the
// whole profile, as the flame graph view paints them. PNG, SVG or PDF by the
// path's suffix; needs a QGuiApplication (offscreen will do).
struct FlameExportRequest {
    QString path;
    // The width, and with fitHeight the most height: the picture is as tall
    // as the title and the rows drawn at that width (flameRowsDrawn) need,
    // deeper rows beyond size.height() left out.
    QSize size{1600, 8000};
    bool fitHeight = true;
    ProfileMetric metric = ProfileMetric::Time;
    bool icicle = false;
    QString title;     // the first line; flameTitle() makes the usual one
    QString emptyText; // drawn instead of frames when there is nothing to draw
};

// Empty on success, else why the file could not be written.
QString exportFlameImage(const CostCentreProfile& profile, const FlameExportRequest& request);
// The picture's size for `request`: its size, or with fitHeight the
// height the graph needs (at least 50 pixels, at most size.height()).
QSize flamePictureSize(const CostCentreProfile& profile, const FlameExportRequest& request);
// The title and frames into `area`, as exportFlameImage draws them.
void paintFlamePicture(QPainter& p, const QRect& area, const CostCentreProfile& profile,
                       const FlameExportRequest& request);
// "leak: width = samples, total 1,234 samples, range 0 s – 2.5 s": the
// program, what a frame's width counts, the total and `scope` (the range, the
// capability; left out when empty).
QString flameTitle(const CostCentreProfile& profile, ProfileMetric metric, const QString& scope);

} // namespace hecscope
