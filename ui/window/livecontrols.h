#pragma once

#include "core/live/livesession.h"
#include "core/time/viewrange.h"

#include <QObject>
#include <QString>

class QAction;
class QLabel;
class QMainWindow;
class QMenu;
class QSpinBox;
class QDoubleSpinBox;
class QToolBar;

namespace hecscope {

class LiveJob;
class LogDocument;
class ViewController;

// The live window's controls: the Live toolbar (follow, the window of the
// latest N seconds, stop, reconnect, the eventlog socket's control
// commands), File ▸ Connect… and Save Received Bytes As…, and the status
// bar's account of the session (source, bytes, events, rate, how far behind
// the newest event the view is, what is still pending).
//
// Follow mode keeps the latest N seconds in view, up to where every
// capability's events are in; moving or zooming the view pauses it, and
// Follow (F) resumes it.
class LiveControls : public QObject {
    Q_OBJECT
public:
    LiveControls(QMainWindow* window, QMenu* fileMenu, QAction* insertBefore, ViewController* controller);

    // A session began (its job) or ended for good (nullptr).
    void setJob(LiveJob* job);
    // The document's live sessions: their jobs and updates.
    void follow(const LogDocument* doc);
    // After the window showed an update's index: follows, says the status.
    void updated(const LiveStatus& status, uint64_t firstTime);
    bool following() const { return m_following; }
    // Keep only the latest minutes in the index (0: all), as the toolbar
    // says; setKeepMinutes (the command line's) is not saved.
    uint64_t keepNs() const;
    void setKeepMinutes(double minutes);
    void setFollowing(bool on);
    // Changes of the view made while moving (here, or the window growing
    // the bounds) do not pause following.
    void setMoving(bool on) { m_moving = on; }
    QString statusText() const;
    QToolBar* toolBar() const { return m_bar; }
    QAction* followAction() const { return m_follow; }
    int windowSeconds() const;

signals:
    void connectRequested(const QString& source, const QString& recordPath);

private:
    void connectDialog();
    void saveReceived();
    void sendControl(ControlCommand command);
    void applyFollow();
    void refreshActions();

    QMainWindow* m_window;
    ViewController* m_controller;
    LiveJob* m_job = nullptr;
    QToolBar* m_bar;
    QAction* m_follow;
    QSpinBox* m_seconds;
    QDoubleSpinBox* m_keep;
    QAction* m_stop;
    QAction* m_reconnect;
    QAction* m_save;
    std::vector<std::pair<QAction*, ControlCommand>> m_controls;
    QLabel* m_status;
    LiveStatus m_last;
    uint64_t m_firstTime = 0;
    bool m_following = true;
    bool m_moving = false;
};

} // namespace hecscope
