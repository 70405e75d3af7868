#pragma once

#include <QObject>

#include <vector>

class QAction;
class QMenu;

namespace hecscope {

class TimelineView;

// What the timeline shows besides its tracks, in the View menu and kept in
// the settings: the instant events on the HEC rows (a switch per kind),
// row heights dragged on the timeline (and Reset Track Heights), the time
// format of every time shown, and the activity track's "running only".
class DisplayMenu : public QObject {
    Q_OBJECT
public:
    // Adds its entries to `view`, restores the saved choices into `timeline`.
    DisplayMenu(QMenu* view, TimelineView* timeline, QObject* parent);

signals:
    // The lists and tables showing times repaint (the timeline does itself).
    void timeFormatChanged();

private:
    TimelineView* m_view;
    std::vector<QAction*> m_instantActions; // one per InstantKind
};

} // namespace hecscope
