#pragma once

#include <QByteArray>
#include <QObject>
#include <QSize>

class QDockWidget;
class QMainWindow;

namespace hecscope {

// The panes' one layout in the main window (ThreadScope's: the figures
// below the timeline, where the window is widest). Below the timeline, one
// row of tabs: Statistics (shown first), the event list and the tables; on
// the right, two short groups: what was clicked or drawn (Details, Heap
// Profile) over the log's facts (Bookmarks, Process, Diagnostics), the
// column running the window's full height. A bottom pane brought forward
// gets room to be useful. The dock areas' tab bars show whole names and
// scroll. It watches the window's events (a filter): nothing runs while
// the window is idle.
class DockLayout : public QObject {
    Q_OBJECT
public:
    // The panes' layout: a layout saved by an older version (other groups)
    // is not restored. 2: the tables below the timeline, two groups right.
    static constexpr int kVersion = 2;
    static constexpr int kUsefulPaneHeight = 240; // px: a bottom pane brought forward gets at least this

    explicit DockLayout(QMainWindow* window);
    // Groups the docks (found by object name) as above.
    void arrange();
    // The layout saved by save(); false when there is none (the first
    // start): the first show then sizes the docks so that the timeline
    // gets at least two thirds of the width.
    bool restore(const QByteArray& state);
    QByteArray save() const;

protected:
    bool eventFilter(QObject* watched, QEvent* e) override;

private:
    QDockWidget* dock(const char* name) const;
    void firstLayout();
    void growBottomPane(QDockWidget* shown);

    QMainWindow* m_window;
    bool m_firstLayout = false;
    bool m_settling = false; // the first half second after the first show: resizes lay the panes out again
    QSize m_laidOutFor;      // the window's size the first layout was made for
};

} // namespace hecscope
