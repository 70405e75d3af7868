#include "ui/window/loadprogress.h"

#include "ui/document/logdocument.h"
#include "ui/jobs/settings.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QMenu>
#include <QProgressBar>
#include <QPushButton>

#include <utility>

namespace hecscope {

namespace {

constexpr int kMaxRecent = 10;

void putFirst(QStringList& recent, const QString& path)
{
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
}

} // namespace

LoadProgress::LoadProgress(QWidget* parent)
    : QWidget(parent)
    , m_bar(new QProgressBar)
    , m_cancel(new QPushButton(tr("Cancel")))
{
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(m_bar, 1);
    row->addWidget(m_cancel);
    m_bar->setRange(0, 1000);
    hide();
}

void LoadProgress::setBar(int value, const QString& text)
{
    // QProgressBar::setValue repaints at once (QWidget::repaint), and that
    // paints everything else waiting in the window with it, the timeline's
    // new snapshot too, inside the handling of the load's results: with
    // updates off it only asks for a paint, which the window's next repaint
    // does (setUpdatesEnabled(true) calls update()).
    m_bar->setUpdatesEnabled(false);
    m_bar->setValue(value);
    m_bar->setFormat(text);
    m_bar->setUpdatesEnabled(true);
}

void LoadProgress::follow(LogDocument* doc)
{
    connect(m_cancel, &QPushButton::clicked, this, [this, doc] {
        doc->cancelByUser();
        emit cancelled();
    });
    connect(doc, &LogDocument::loadStarted, this, [this](const QString& path) {
        setBar(0, tr("Opening %1").arg(QFileInfo(path).fileName()));
        show();
    });
    connect(doc, &LogDocument::progress, this, [this](quint64 done, quint64 total) {
        setBar(total ? int(done * 1000 / total) : 0,
               tr("Reading %1 of %2 MB").arg(double(done) / 1e6, 0, 'f', 0).arg(double(total) / 1e6, 0, 'f', 0));
    });
    connect(doc, &LogDocument::loadEnded, this, &QWidget::hide);
}

RecentFiles::RecentFiles(QMenu* menu, QObject* parent)
    : QObject(parent)
    , m_menu(menu)
    , m_paths(Settings::value(QStringLiteral("recentFiles")).toStringList())
{
    rebuild();
}

RecentFiles::~RecentFiles()
{
    Settings::waitForWrites();
}

void RecentFiles::add(const QString& path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    putFirst(m_paths, absolute);
    rebuild();
    // (Onto the list as the file holds it then: another process's files
    // stay.)
    Settings::update(QStringLiteral("recentFiles"), [absolute](const QVariant& inFile) {
        QStringList recent = inFile.toStringList();
        putFirst(recent, absolute);
        return QVariant(recent);
    });
}

void RecentFiles::rebuild()
{
    m_menu->clear();
    for (const QString& path : std::as_const(m_paths))
        m_menu->addAction(QFileInfo(path).fileName() + QStringLiteral("  —  ") + path, this,
                          [this, path] { emit chosen(path); });
    m_menu->setEnabled(!m_paths.isEmpty());
}

Banner::Banner(QWidget* parent)
    : QLabel(parent)
{
    setWordWrap(true);
    setTextInteractionFlags(Qt::TextSelectableByMouse);
    setText(tr("Open an eventlog with File ▸ Open (Ctrl+O), or drop one here."));
    setContentsMargins(6, 4, 6, 4);
}

void Banner::follow(LogDocument* doc)
{
    connect(doc, &LogDocument::notice, this, &Banner::say);
    connect(doc, &LogDocument::noticeCleared, this, &QWidget::hide);
}

void Banner::say(const QString& text, NoticeKind kind)
{
    const char* style = "";
    switch (kind) {
    case NoticeKind::Note: break;
    case NoticeKind::Info: style = "background:#d6eaf8;color:#000"; break;
    case NoticeKind::Warning: style = "background:#fcf3cf;color:#000"; break;
    case NoticeKind::Error: style = "background:#f5b7b1;color:#000"; break;
    }
    setText(text);
    setStyleSheet(QString::fromLatin1(style));
    show();
}

} // namespace hecscope
