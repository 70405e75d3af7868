#pragma once

#include <QObject>

class QAction;
class QMenu;
class QToolBar;

namespace hecscope {

class ViewController;

// The timeline's navigation as actions, in the View menu and on the
// toolbar: zoom in and out (around the middle), fit all, zoom to the
// selection, back and forward through the view history (enabled as the
// history allows), clear the selection.
class ViewActions : public QObject {
    Q_OBJECT
public:
    ViewActions(ViewController* controller, QMenu* menu, QToolBar* bar, QObject* parent);

private:
    void updateHistory();
    ViewController* m_controller;
    QAction* m_back = nullptr;
    QAction* m_forward = nullptr;
};

} // namespace hecscope
