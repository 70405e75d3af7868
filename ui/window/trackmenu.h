#pragma once

#include <QObject>
#include <QString>
#include <QStringList>

#include <vector>

class QAction;
class QMenu;
class QWidget;

namespace hecscope {

// View ▸ Tracks: a checkable entry per registered track (trackregistry.h)
// in display order, and Arrange Tracks… (drag to reorder, tick to show).
// The order and the hidden tracks persist in the settings.
class TrackMenu : public QObject {
    Q_OBJECT
public:
    // Adds the Tracks submenu and the Arrange entry to `view`; restores the
    // saved order and visibility.
    TrackMenu(QMenu* view, QWidget* dialogParent);

    // Tracks top to bottom by id; ids left out keep their place after the
    // named ones.
    void setOrder(const QStringList& ids);
    // The order saved in the settings (emits tracksChanged).
    void restore() { setOrder(m_saved); }
    // The shown tracks' ids, top to bottom.
    std::vector<QString> shown() const;
    void arrange();

signals:
    void tracksChanged(const std::vector<QString>& shown);

private:
    void apply();

    QMenu* m_menu;
    QWidget* m_dialogParent;
    std::vector<QAction*> m_actions; // in display order
    QStringList m_saved;
};

} // namespace hecscope
