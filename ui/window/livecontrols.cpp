#include "ui/window/livecontrols.h"

#include "ui/document/logdocument.h"
#include "ui/jobs/settings.h"

#include "ui/formatting.h"
#include "ui/jobs/livejob.h"
#include "ui/document/viewcontroller.h"
#include "ui/window/focusreturn.h"

#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QDoubleSpinBox>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStatusBar>
#include <QToolBar>

namespace hecscope {

LiveControls::LiveControls(QMainWindow* window, QMenu* fileMenu, QAction* insertBefore, ViewController* controller)
    : QObject(window), m_window(window), m_controller(controller)
{
    QAction* connectAction = new QAction(tr("&Connect to a Running Program…"), this);
    connectAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    connect(connectAction, &QAction::triggered, this, &LiveControls::connectDialog);
    m_save = new QAction(tr("Save &Received Bytes As…"), this);
    connect(m_save, &QAction::triggered, this, &LiveControls::saveReceived);
    fileMenu->insertAction(insertBefore, connectAction);
    fileMenu->insertAction(insertBefore, m_save);

    m_bar = new QToolBar(tr("Live"), window);
    m_bar->setObjectName(QStringLiteral("liveToolbar"));
    window->addToolBar(m_bar);
    m_follow = m_bar->addAction(tr("Follow"));
    m_follow->setCheckable(true);
    m_follow->setChecked(true);
    m_follow->setShortcut(QKeySequence(Qt::Key_F));
    m_follow->setToolTip(tr("Keep the latest seconds in view (F). Moving or zooming the view pauses it."));
    connect(m_follow, &QAction::toggled, this, &LiveControls::setFollowing);
    m_seconds = new QSpinBox(m_bar);
    m_seconds->setRange(1, 3600);
    m_seconds->setSuffix(tr(" s"));
    m_seconds->setPrefix(tr("latest "));
    m_seconds->setValue(Settings::value(QStringLiteral("live/seconds"), 10).toInt());
    m_seconds->setToolTip(tr("How much of the newest data Follow keeps in view"));
    connect(m_seconds, &QSpinBox::valueChanged, this, [this](int v) {
        Settings::setValue(QStringLiteral("live/seconds"), v);
        applyFollow();
    });
    m_bar->addWidget(m_seconds);
    m_keep = new QDoubleSpinBox(m_bar);
    m_keep->setRange(0, 24 * 60);
    m_keep->setDecimals(2);
    m_keep->setPrefix(tr("keep "));
    m_keep->setSuffix(tr(" min"));
    m_keep->setSpecialValueText(tr("keep all"));
    m_keep->setValue(Settings::value(QStringLiteral("live/keepMinutes"), 0.0).toDouble());
    m_keep->setToolTip(tr("Keep only the latest minutes in memory: older detail is dropped, the whole run's "
                          "totals stay, and the recording keeps every byte. Memory then stays bounded."));
    connect(m_keep, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        Settings::setValue(QStringLiteral("live/keepMinutes"), v);
        if (m_job)
            m_job->setKeep(keepNs());
    });
    m_bar->addWidget(m_keep);
    m_stop = m_bar->addAction(tr("Stop"), this, [this] {
        if (m_job)
            m_job->stop();
    });
    m_stop->setToolTip(tr("Stop following: keep what was received"));
    m_reconnect = m_bar->addAction(tr("Reconnect"), this, [this] {
        if (m_job)
            m_job->reconnect();
    });
    m_reconnect->setToolTip(tr("Connect again and append to the same timeline"));
    m_bar->addSeparator();
    const std::pair<QString, ControlCommand> controls[] = {
        {tr("Start Profiling"), ControlCommand::StartProfiling},
        {tr("Stop Profiling"), ControlCommand::StopProfiling},
        {tr("Start Heap Profiling"), ControlCommand::StartHeapProfiling},
        {tr("Stop Heap Profiling"), ControlCommand::StopHeapProfiling},
        {tr("Heap Census"), ControlCommand::RequestHeapCensus},
    };
    for (const auto& [text, command] : controls) {
        QAction* a = m_bar->addAction(text, this, [this, c = command] { sendControl(c); });
        a->setToolTip(tr("Ask the program to %1 (ghc-eventlog-socket's control protocol)")
                          .arg(QString::fromLatin1(controlCommandName(command))));
        m_controls.emplace_back(a, command);
    }
    m_bar->hide();
    m_status = new QLabel(window);
    window->statusBar()->addWidget(m_status, 1);
    m_status->hide();
    // A change of view the window did not make pauses following.
    connect(m_controller, &ViewController::viewChanged, this, [this] {
        if (!m_moving && m_job && m_following && !isFinal(m_last.state))
            m_follow->setChecked(false);
    });
    refreshActions();
}

void LiveControls::setJob(LiveJob* job)
{
    m_job = job;
    m_last = LiveStatus{};
    m_firstTime = 0;
    m_bar->setVisible(job != nullptr);
    m_status->setVisible(job != nullptr);
    m_status->clear();
    if (job)
        m_follow->setChecked(true);
    refreshActions();
}

uint64_t LiveControls::keepNs() const
{
    return uint64_t(m_keep->value() * 60e9);
}

void LiveControls::setKeepMinutes(double minutes)
{
    const QSignalBlocker block(m_keep);
    m_keep->setValue(minutes);
    if (m_job)
        m_job->setKeep(keepNs());
}

int LiveControls::windowSeconds() const
{
    return m_seconds->value();
}

void LiveControls::setFollowing(bool on)
{
    m_following = on;
    if (m_follow->isChecked() != on)
        m_follow->setChecked(on);
    applyFollow();
    m_status->setText(statusText());
}

void LiveControls::updated(const LiveStatus& status, uint64_t firstTime)
{
    m_last = status;
    m_firstTime = firstTime;
    applyFollow();
    refreshActions();
    m_status->setText(statusText());
}

// The latest N seconds up to the merged time: never the half-merged end.
void LiveControls::applyFollow()
{
    if (!m_job || !m_following || m_last.sequence == 0)
        return;
    const uint64_t end = isFinal(m_last.state) ? m_last.newestTime : m_last.mergedTime;
    if (end == 0)
        return;
    const uint64_t span = uint64_t(m_seconds->value()) * 1'000'000'000ull;
    const uint64_t start = end > span ? std::max(end - span, m_firstTime) : m_firstTime;
    m_moving = true;
    m_controller->setRange(ViewRange{start, std::max(end, start + 1)}, false);
    m_moving = false;
}

void LiveControls::refreshActions()
{
    const bool running = m_job && m_job->isRunning();
    const bool socket = m_job && m_job->isSocket();
    m_stop->setEnabled(running);
    m_reconnect->setVisible(socket);
    m_reconnect->setEnabled(socket && m_last.state == LiveState::Disconnected);
    for (auto& [action, command] : m_controls) {
        action->setVisible(socket);
        action->setEnabled(socket && running && m_last.state == LiveState::Receiving);
    }
    m_save->setEnabled(m_job != nullptr && m_last.bytes > 0);
}

QString LiveControls::statusText() const
{
    if (!m_job)
        return QString();
    const LiveStatus& s = m_last;
    QString text = m_job->sourceText() + QStringLiteral(" — ") + QString::fromLatin1(liveStateName(s.state));
    if (!s.message.empty())
        text += QStringLiteral(": ") + QString::fromStdString(s.message);
    text += s.heapProfile ? tr(" — %1, %2 complete censuses").arg(bytesText(double(s.bytes)), countText(s.censuses))
                          : tr(" — %1, %2 events").arg(bytesText(double(s.bytes)), countText(s.events));
    if (!isFinal(s.state))
        text += tr(", %1").arg(bytesText(s.bytesPerSecond, tr("/s")));
    if (!isFinal(s.state) && s.newestTime > 0) {
        const uint64_t viewEnd = m_controller->range().end;
        text += s.newestTime > viewEnd ? tr(" — view %1 behind the newest event").arg(durationText(s.newestTime - viewEnd))
                                       : tr(" — view at the newest event");
        if (s.mergedTime < s.newestTime)
            text += tr(" — pending: %1 of cap %2 not in yet").arg(durationText(s.newestTime - s.mergedTime)).arg(s.laggingCap);
        if (s.pendingBytes > 0)
            text += (s.heapProfile ? tr(", %1 of a census") : tr(", %1 of a record")).arg(bytesText(double(s.pendingBytes)));
        if (!m_following)
            text += tr(" — paused (F follows)");
    }
    if (s.droppedEvents > 0)
        text += tr(" — keeping the latest %1: %2 events before %3 dropped (the recording has them)")
                    .arg(durationText(uint64_t(m_keep->value() * 60e9)), countText(s.droppedEvents),
                         durationText(s.droppedBefore));
    return text;
}

void LiveControls::sendControl(ControlCommand command)
{
    QString error;
    if (!m_job || !m_job->sendControl(command, &error)) {
        m_window->statusBar()->showMessage(tr("Could not %1: %2").arg(QString::fromLatin1(controlCommandName(command)), error), 5000);
        return;
    }
    m_window->statusBar()->showMessage(tr("Sent: %1").arg(QString::fromLatin1(controlCommandName(command))), 3000);
}

void LiveControls::saveReceived()
{
    if (!m_job)
        return;
    const QString path = QFileDialog::getSaveFileName(m_window, tr("Save the bytes received"), QString(),
                                                      tr("Eventlogs (*.eventlog);;All files (*)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!m_job->saveReceived(path, &error))
        QMessageBox::warning(m_window, tr("Save Received Bytes"), tr("Could not save: %1").arg(error));
    else
        m_window->statusBar()->showMessage(tr("Saved %1 to %2").arg(bytesText(double(m_last.bytes)), path), 5000);
}

void LiveControls::connectDialog()
{
    const FocusReturn focus(m_window); // the window's shortcuts work again once it closes
    QDialog dialog(m_window);
    dialog.setWindowTitle(tr("Connect to a Running Program"));
    auto* form = new QFormLayout(&dialog);
    auto* source = new QLineEdit(Settings::value(QStringLiteral("live/source"), QStringLiteral("unix:/tmp/ghc-eventlog.sock")).toString());
    source->setToolTip(tr("unix:/path/to.sock or tcp:HOST:PORT (ghc-eventlog-socket), a named pipe (+RTS -l -ol/path/to/fifo), a growing file, or - for standard input"));
    source->setMinimumWidth(360);
    form->addRow(tr("Source:"), source);
    auto* record = new QLineEdit;
    record->setPlaceholderText(tr("(optional) keep the bytes received in this file"));
    auto* browse = new QPushButton(tr("Browse…"));
    auto* recordRow = new QHBoxLayout;
    recordRow->addWidget(record);
    recordRow->addWidget(browse);
    form->addRow(tr("Record to:"), recordRow);
    connect(browse, &QPushButton::clicked, &dialog, [&] {
        const QString path = QFileDialog::getSaveFileName(&dialog, tr("Record to"), QString(), tr("Eventlogs (*.eventlog)"));
        if (!path.isEmpty())
            record->setText(path);
    });
    auto* error = new QLabel;
    error->setStyleSheet(QStringLiteral("color:#b00"));
    error->setWordWrap(true);
    form->addRow(error);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Connect"));
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, [&] {
        std::string why;
        if (!parseSourceAddress(source->text().trimmed().toStdString(), why)) {
            error->setText(QString::fromStdString(why));
            return;
        }
        dialog.accept();
    });
    if (dialog.exec() != QDialog::Accepted)
        return;
    Settings::setValue(QStringLiteral("live/source"), source->text().trimmed());
    emit connectRequested(source->text().trimmed(), record->text().trimmed());
}

void LiveControls::follow(const LogDocument* doc)
{
    connect(doc, &LogDocument::liveJobChanged, this, &LiveControls::setJob);
    // The bounds grow with each update: not the user's move.
    connect(doc, &LogDocument::liveUpdateComing, this, [this] { setMoving(true); });
    connect(doc, &LogDocument::liveUpdated, this, [this, doc](const LiveStatus& status) {
        setMoving(false);
        const std::shared_ptr<const LogIndex> index = doc->index();
        updated(status, !index || index->firstTime == kNoTime ? 0 : index->firstTime);
    });
}

} // namespace hecscope
