#include "ui/timeline/viewactions.h"

#include "ui/document/viewcontroller.h"

#include <QAction>
#include <QKeySequence>
#include <QMenu>
#include <QToolBar>

namespace hecscope {

ViewActions::ViewActions(ViewController* controller, QMenu* menu, QToolBar* bar, QObject* parent)
    : QObject(parent)
    , m_controller(controller)
{
    auto add = [&](const QString& text, QKeySequence key, auto slot) {
        QAction* a = menu->addAction(text, this, slot);
        a->setShortcut(key);
        bar->addAction(a);
        return a;
    };
    add(tr("Zoom &In"), QKeySequence::ZoomIn, [this] {
        const ViewRange r = m_controller->range();
        m_controller->zoom(0.5, r.start + r.duration() / 2, true);
    });
    add(tr("Zoom &Out"), QKeySequence::ZoomOut, [this] {
        const ViewRange r = m_controller->range();
        m_controller->zoom(2.0, r.start + r.duration() / 2, true);
    });
    add(tr("&Fit All"), QKeySequence(Qt::CTRL | Qt::Key_0), [this] { m_controller->fitAll(); });
    add(tr("Zoom to &Selection"), QKeySequence(Qt::CTRL | Qt::Key_J), [this] { m_controller->zoomToSelection(); });
    m_back = add(tr("&Back"), QKeySequence::Back, [this] { m_controller->back(); });
    m_back->setShortcuts({QKeySequence::Back, QKeySequence(Qt::Key_Backspace)});
    m_forward = add(tr("For&ward"), QKeySequence::Forward, [this] { m_controller->forward(); });
    menu->addAction(tr("&Clear Selection"), this, [this] { m_controller->setSelection(std::nullopt); });
    connect(controller, &ViewController::historyChanged, this, &ViewActions::updateHistory);
    updateHistory();
}

void ViewActions::updateHistory()
{
    m_back->setEnabled(m_controller->canGoBack());
    m_forward->setEnabled(m_controller->canGoForward());
}

} // namespace hecscope
