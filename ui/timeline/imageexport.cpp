#include "ui/timeline/imageexport.h"

#include <QFileInfo>
#include <QImage>
#include <QPainter>

namespace hecscope {

namespace {

bool sizeInRange(QSize size)
{
    return size.width() >= 200 && size.height() >= 50 && size.width() <= 20000 && size.height() <= 20000;
}

bool isVector(const QString& path)
{
    return QFileInfo(path).suffix().toLower() != QLatin1String("png");
}

} // namespace

PreparedExport prepareExport(const std::shared_ptr<const LogIndex>& index, const ExportRequest& request)
{
    PreparedExport prepared{request, nullptr};
    prepared.request.options.fill = true; // the chosen tracks take the whole picture
    auto charts = std::make_shared<ChartRecording>();
    charts->vector = isVector(request.path);
    if (sizeInRange(request.size)) { // else writeExport says so
        // The whole paint, onto a pixel: only the charts are kept.
        TimelineRenderer renderer;
        renderer.setIndex(index);
        prepared.request.options = renderer.fitted(QRect(QPoint(0, 0), request.size), prepared.request.options);
        renderer.recordCharts(charts);
        QImage pixel(1, 1, QImage::Format_ARGB32_Premultiplied);
        QPainter p(&pixel);
        RenderOptions chartsOnly = prepared.request.options;
        chartsOnly.waitForDetail = false; // (this thread never reads the file; writeExport does)
        renderer.paint(p, QRect(QPoint(0, 0), request.size), request.range, chartsOnly);
    }
    prepared.charts = std::move(charts);
    return prepared;
}

QString writeExport(std::shared_ptr<const LogIndex> index, const PreparedExport& prepared,
                    const std::function<bool(int)>& progress)
{
    const ExportRequest& rq = prepared.request;
    auto goOn = [&](int percent) { return !progress || progress(percent); };
    TimelineRenderer renderer;
    renderer.setIndex(std::move(index));
    renderer.replayCharts(prepared.charts);
    if (sizeInRange(rq.size)) {
        // The draw lists first: the part that grows with the log.
        const QRect area(QPoint(0, 0), rq.size);
        const auto rows = renderer.layout(area, rq.options);
        for (size_t i = 0; i < rows.size(); ++i) {
            renderer.drawList(*rows[i].track, rq.options, rq.range, renderer.plotArea(area, rq.options).width());
            if (!goOn(int(50 * (i + 1) / rows.size())))
                return QObject::tr("cancelled");
        }
    }
    if (!goOn(50))
        return QObject::tr("cancelled");
    const QString error = writePicture(rq.path, rq.size, QStringLiteral("Hecscope timeline"),
                                       rq.options.palette.color(QPalette::Base), [&](QPainter& p, const QRect& area) {
                                           renderer.paint(p, area, rq.range, rq.options);
                                           goOn(80); // then written
                                       });
    goOn(100);
    return error;
}

QString exportImage(std::shared_ptr<const LogIndex> index, const ExportRequest& request)
{
    return writeExport(index, prepareExport(index, request));
}

} // namespace hecscope
