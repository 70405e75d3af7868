#include "ui/window/imageexporter.h"

#include <QProgressBar>
#include <QStatusBar>

#include <exception>

namespace hecscope {

namespace {

struct Requested {
    ExportRequest request;
    QString error;
};

} // namespace

ImageExporter::ImageExporter(QStatusBar* bar, QObject* parent)
    : QObject(parent)
    , m_bar(bar)
    , m_progress(new QProgressBar)
{
    m_progress->setRange(0, 100);
    m_progress->setMaximumWidth(160);
    m_progress->setFormat(tr("Export %p%"));
    m_progress->hide();
    bar->addPermanentWidget(m_progress);
}

void ImageExporter::start(std::shared_ptr<const LogIndex> index, const ExportChoices& choices,
                          const RenderOptions& base)
{
    const QString path = choices.path;
    m_clock.start();
    m_progress->setValue(0);
    m_progress->show();
    m_bar->showMessage(tr("Exporting %1…").arg(path));
    m_runner.start(
        [index, choices, base](const JobContext&) {
            try {
                return Requested{makeExportRequest(*index, choices, base), {}};
            } catch (const std::exception& e) {
                return Requested{{}, QString::fromLocal8Bit(e.what())};
            }
        },
        [this, index, path](Requested r) {
            if (!r.error.isEmpty())
                return finish(path, r.error);
            // The charts here (about one repaint), everything else there.
            PreparedExport prepared = prepareExport(index, r.request);
            m_runner.run(
                [index, prepared = std::move(prepared), this](const JobContext& job) {
                    int shown = -1; // posted only when it moves
                    return writeExport(index, prepared, [&](int percent) {
                        if (percent != shown) {
                            shown = percent;
                            job.post([this, percent] {
                                if (m_progress)
                                    m_progress->setValue(percent);
                            });
                        }
                        return !job.isCancelled();
                    });
                },
                [this, path](const QString& error) { finish(path, error); });
        });
}

void ImageExporter::finish(const QString& path, const QString& error)
{
    if (m_progress)
        m_progress->hide();
    if (m_bar)
        m_bar->showMessage(error.isEmpty() ? tr("Exported %1 in %2 ms").arg(path).arg(m_clock.elapsed())
                                           : tr("Export failed: %1").arg(error),
                           error.isEmpty() ? 8000 : 0);
    emit exportFinished(path, error);
}

} // namespace hecscope
