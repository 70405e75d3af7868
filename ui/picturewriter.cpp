#include "ui/picturewriter.h"

#include <QFileInfo>
#include <QImage>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>

namespace hecscope {

bool isExportFormat(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    return suffix == QLatin1String("png") || suffix == QLatin1String("svg") || suffix == QLatin1String("pdf");
}

QPalette exportPalette()
{
    QPalette p;
    p.setColor(QPalette::Base, Qt::white);
    p.setColor(QPalette::AlternateBase, QColor(0xf4, 0xf6, 0xf7));
    p.setColor(QPalette::Window, QColor(0xec, 0xee, 0xf0));
    p.setColor(QPalette::WindowText, QColor(0x20, 0x20, 0x20));
    p.setColor(QPalette::Text, QColor(0x20, 0x20, 0x20));
    p.setColor(QPalette::Mid, QColor(0xa0, 0xa0, 0xa0));
    p.setColor(QPalette::Midlight, QColor(0xdd, 0xdd, 0xdd));
    p.setColor(QPalette::Highlight, QColor(0x30, 0x8c, 0xc6));
    return p;
}

QString writePicture(const QString& path, QSize size, const QString& title, const QColor& background,
                     const std::function<void(QPainter&, const QRect&)>& paint)
{
    if (size.width() < 200 || size.height() < 50 || size.width() > 20000 || size.height() > 20000)
        return QObject::tr(
                   "image size %1x%2 is out of range (200x50 to 20000x20000)")
            .arg(size.width())
            .arg(size.height());
    const QString suffix = QFileInfo(path).suffix().toLower();
    const QRect area(QPoint(0, 0), size);
    if (suffix == QLatin1String("png")) {
        QImage image(size, QImage::Format_ARGB32_Premultiplied);
        image.fill(background);
        {
            QPainter p(&image);
            paint(p, area);
        }
        if (!image.save(path, "PNG"))
            return QObject::tr("cannot write %1").arg(path);
        return {};
    }
    // Vector outputs: paint onto the device, then check the file was written.
    auto paintOnto = [&](QPaintDevice& device) {
        QPainter p;
        if (!p.begin(&device))
            return QObject::tr("cannot write %1").arg(path);
        paint(p, area);
        p.end();
        return QFileInfo(path).size() > 0 ? QString() : QObject::tr("cannot write %1").arg(path);
    };
    if (suffix == QLatin1String("svg")) {
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(size);
        svg.setViewBox(area);
        svg.setTitle(title);
        return paintOnto(svg);
    }
    if (suffix == QLatin1String("pdf")) {
        QPdfWriter pdf(path);
        pdf.setResolution(72); // one pixel per point: the page is the requested size
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        pdf.setPageSize(QPageSize(QSizeF(size), QPageSize::Point, QString(), QPageSize::ExactMatch));
        pdf.setTitle(title);
        pdf.setCreator(QStringLiteral("Hecscope"));
        return paintOnto(pdf);
    }
    return QObject::tr("unknown image format '%1' (use .png, .svg or .pdf)")
        .arg(suffix);
}

} // namespace hecscope
