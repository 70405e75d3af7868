#include "ui/window/docklayout.h"

#include <QDockWidget>
#include <QMainWindow>
#include <QResizeEvent>
#include <QTabBar>
#include <QTimer>

#include <algorithm>
#include <iterator>

namespace hecscope {

namespace {
const char* const kBottom[] = {"statistics", "events", "threads", "spans", "gc", "capabilities",
                               "profile", "spark-sizes", "heap-bands", "cost-centres", "compare"};
} // namespace

DockLayout::DockLayout(QMainWindow* window)
    : QObject(window)
    , m_window(window)
{
    window->installEventFilter(this);
}

QDockWidget* DockLayout::dock(const char* name) const
{
    QDockWidget* d = m_window->findChild<QDockWidget*>(QLatin1String(name), Qt::FindDirectChildrenOnly);
    Q_ASSERT(d);
    return d;
}

void DockLayout::arrange()
{
    QMainWindow* w = m_window;
    w->setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    w->setCorner(Qt::TopRightCorner, Qt::RightDockWidgetArea);
    QDockWidget* first = dock(kBottom[0]);
    w->addDockWidget(Qt::BottomDockWidgetArea, first);
    for (size_t i = 1; i < std::size(kBottom); ++i)
        w->tabifyDockWidget(dock(kBottom[i - 1]), dock(kBottom[i]));
    // Split first: a dock already in a tab group would take the other as a
    // tab, not as a neighbour.
    QDockWidget* details = dock("details");
    w->addDockWidget(Qt::RightDockWidgetArea, details);
    QDockWidget* bookmarks = dock("bookmarks");
    w->splitDockWidget(details, bookmarks, Qt::Vertical);
    w->tabifyDockWidget(details, dock("heap-profile"));
    w->tabifyDockWidget(bookmarks, dock("process"));
    w->tabifyDockWidget(dock("process"), dock("diagnostics"));
    first->raise();
    details->raise();
    bookmarks->raise();
    // A pane brought forward gets room to be useful: a bottom pane left a
    // sliver high grows to a third of the window when its tab is chosen.
    for (const char* name : kBottom) {
        QDockWidget* d = dock(name);
        connect(d, &QDockWidget::visibilityChanged, this, [this, d](bool visible) {
            if (visible && !d->isFloating() && m_window->dockWidgetArea(d) == Qt::BottomDockWidgetArea
                && d->height() < kUsefulPaneHeight && m_window->isVisible())
                QTimer::singleShot(0, this, [this, d] { growBottomPane(d); });
        });
    }
}

bool DockLayout::restore(const QByteArray& state)
{
    m_firstLayout = !m_window->restoreState(state, kVersion);
    return !m_firstLayout;
}

QByteArray DockLayout::save() const
{
    return m_window->saveState(kVersion);
}

void DockLayout::growBottomPane(QDockWidget* shown)
{
    if (shown->height() < kUsefulPaneHeight && m_window->dockWidgetArea(shown) == Qt::BottomDockWidgetArea)
        m_window->resizeDocks({shown}, {std::max(kUsefulPaneHeight, m_window->height() / 3)}, Qt::Vertical);
}

bool DockLayout::eventFilter(QObject* watched, QEvent* e)
{
    if (watched != m_window)
        return false;
    switch (e->type()) {
    case QEvent::Show:
        if (!m_firstLayout)
            break;
        m_firstLayout = false;
        // The window's size settles after it is shown (maximised by the
        // window manager): until then, and for the first half second, every
        // resize lays the panes out again.
        m_settling = true;
        QTimer::singleShot(500, this, [this] { m_settling = false; });
        QTimer::singleShot(0, this, &DockLayout::firstLayout);
        break;
    case QEvent::Resize:
        if (m_settling && static_cast<QResizeEvent*>(e)->size() != m_laidOutFor)
            QTimer::singleShot(0, this, &DockLayout::firstLayout);
        break;
    case QEvent::ChildAdded:
    case QEvent::LayoutRequest:
        // The tab bars QMainWindow makes as docks are tabified show whole
        // names and scroll, rather than eliding "Statistics" to "S…". Only
        // a bar not yet set is touched: each setter relayouts the bar even
        // when nothing changes, which posts the window another
        // LayoutRequest — setting them on every request kept the window
        // relayouting forever (a whole core, idle).
        for (QTabBar* bar : m_window->findChildren<QTabBar*>(Qt::FindDirectChildrenOnly)) {
            if (bar->elideMode() != Qt::ElideNone)
                bar->setElideMode(Qt::ElideNone);
            if (!bar->usesScrollButtons())
                bar->setUsesScrollButtons(true);
        }
        break;
    default:
        break;
    }
    return false;
}

// The first start's layout for the window's size: the column on the right
// a fifth of the width (its natural size is more: the timeline is what the
// user came for), the panes below the timeline a third of the height.
void DockLayout::firstLayout()
{
    QMainWindow* w = m_window;
    if (w->size() == m_laidOutFor)
        return;
    m_laidOutFor = w->size();
    QDockWidget* details = dock("details");
    w->resizeDocks({details}, {std::max(300, w->width() / 5)}, Qt::Horizontal);
    QList<QDockWidget*> bottom;
    for (QDockWidget* d : w->findChildren<QDockWidget*>())
        if (w->dockWidgetArea(d) == Qt::BottomDockWidgetArea && !d->isFloating())
            bottom << d;
    if (!bottom.isEmpty())
        w->resizeDocks(bottom, QList<int>(bottom.size(), std::max(kUsefulPaneHeight, w->height() / 3)), Qt::Vertical);
    // The right column: what was clicked over the log's facts.
    w->resizeDocks({details, dock("bookmarks")}, {w->height() * 3 / 5, w->height() * 2 / 5}, Qt::Vertical);
}

} // namespace hecscope
