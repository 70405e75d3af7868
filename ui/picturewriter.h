#pragma once

#include <QColor>
#include <QPalette>
#include <QRect>
#include <QSize>
#include <QString>

#include <functional>

class QPainter;

namespace hecscope {

// Whether the path's suffix is one writePicture writes (.png, .svg, .pdf).
bool isExportFormat(const QString& path);
// Writes the picture `paint` draws into (0, 0, size) as PNG, SVG or PDF by
// the path's suffix, on `background`. Empty on success, else why not. Shared
// by every kind of picture (the timeline, the flame graph).
QString writePicture(const QString& path, QSize size, const QString& title, const QColor& background,
                     const std::function<void(QPainter&, const QRect&)>& paint);
// The light palette exported pictures use unless the caller sets one.
QPalette exportPalette();

} // namespace hecscope
