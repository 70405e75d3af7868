#include "ui/window/trackmenu.h"

#include "ui/jobs/settings.h"
#include "ui/timeline/tracks/trackregistry.h"
#include "ui/window/focusreturn.h"

#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QVBoxLayout>

#include <algorithm>

namespace hecscope {

TrackMenu::TrackMenu(QMenu* view, QWidget* dialogParent)
    : QObject(view)
    , m_menu(view->addMenu(tr("&Tracks")))
    , m_dialogParent(dialogParent)
{
    const QStringList hidden = Settings::value(QStringLiteral("view/hiddenTracks")).toStringList();
    for (const TimelineTrack* t : timelineTracks()) {
        QAction* a = m_menu->addAction(t->menuText());
        a->setCheckable(true);
        a->setChecked(!hidden.contains(t->id()));
        a->setData(t->id());
        connect(a, &QAction::toggled, this, &TrackMenu::apply);
        m_actions.push_back(a);
    }
    view->addAction(tr("&Arrange Tracks…"), this, &TrackMenu::arrange);
    m_saved = Settings::value(QStringLiteral("view/trackOrder")).toStringList(); // see restore()
}

void TrackMenu::setOrder(const QStringList& ids)
{
    std::stable_sort(m_actions.begin(), m_actions.end(), [&](QAction* a, QAction* b) {
        auto rank = [&](QAction* x) {
            const qsizetype i = ids.indexOf(x->data().toString());
            return i < 0 ? ids.size() : i;
        };
        return rank(a) < rank(b);
    });
    for (QAction* a : m_actions) { // the menu follows the order
        m_menu->removeAction(a);
        m_menu->addAction(a);
    }
    apply();
}

std::vector<QString> TrackMenu::shown() const
{
    std::vector<QString> ids;
    for (QAction* a : m_actions)
        if (a->isChecked())
            ids.push_back(a->data().toString());
    return ids;
}

// A list of the tracks to drag into order and tick on or off.
void TrackMenu::arrange()
{
    const FocusReturn focus(m_dialogParent); // the window's shortcuts work again once it closes
    QDialog dialog(m_dialogParent);
    dialog.setWindowTitle(tr("Arrange Tracks"));
    auto* list = new QListWidget;
    list->setDragDropMode(QAbstractItemView::InternalMove);
    for (QAction* a : m_actions) {
        auto* item = new QListWidgetItem(a->text().remove(QLatin1Char('&')), list);
        item->setData(Qt::UserRole, a->data());
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable | Qt::ItemIsDragEnabled);
        item->setCheckState(a->isChecked() ? Qt::Checked : Qt::Unchecked);
    }
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    auto* layout = new QVBoxLayout(&dialog);
    layout->addWidget(new QLabel(tr("Drag to reorder; untick to hide.")));
    layout->addWidget(list);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    if (dialog.exec() != QDialog::Accepted)
        return;
    QStringList order;
    for (int i = 0; i < list->count(); ++i) {
        const QString id = list->item(i)->data(Qt::UserRole).toString();
        order << id;
        for (QAction* a : m_actions)
            if (a->data().toString() == id) {
                const QSignalBlocker block(a);
                a->setChecked(list->item(i)->checkState() == Qt::Checked);
            }
    }
    setOrder(order);
}

void TrackMenu::apply()
{
    QStringList hidden, order;
    for (QAction* a : m_actions) {
        order << a->data().toString();
        if (!a->isChecked())
            hidden << a->data().toString();
    }
    Settings::setValue(QStringLiteral("view/hiddenTracks"), hidden);
    Settings::setValue(QStringLiteral("view/trackOrder"), order);
    emit tracksChanged(shown());
}

} // namespace hecscope
