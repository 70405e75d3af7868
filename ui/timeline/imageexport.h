#pragma once

#include "ui/picturewriter.h"
#include "ui/timeline/timelinerenderer.h"

#include <QSize>
#include <QString>

#include <functional>

namespace hecscope {

// A picture of the timeline: PNG, SVG or PDF chosen by the file's suffix,
// drawn by the same renderer as the window. Needs a QGuiApplication (the
// offscreen platform will do: no display).
struct ExportRequest {
    QString path;
    QSize size{1600, 1000};
    ViewRange range;
    RenderOptions options;
};

// Empty on success, else why the file could not be written.
// Drawn by a renderer of its own: an export never disturbs the window's
// cached draw lists. The chosen tracks fill the picture
// (RenderOptions::fill). GUI thread: prepareExport, then writeExport.
QString exportImage(std::shared_ptr<const LogIndex> index, const ExportRequest& request);

// An export in two halves, for the window to write it on a worker thread:
// prepareExport records the charts (QCustomPlot draws on the GUI thread
// only; about as long as one repaint of the window), writeExport draws
// everything else and writes the file (any thread).
struct PreparedExport {
    ExportRequest request;
    std::shared_ptr<const ChartRecording> charts;
};
PreparedExport prepareExport(const std::shared_ptr<const LogIndex>& index, const ExportRequest& request);
// `progress` hears how far it is (0 to 100: draw lists, painting, writing)
// and may stop it before the file is opened by returning false ("cancelled").
QString writeExport(std::shared_ptr<const LogIndex> index, const PreparedExport& prepared,
                    const std::function<bool(int percent)>& progress = {});

} // namespace hecscope
