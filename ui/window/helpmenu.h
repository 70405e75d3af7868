#pragma once

#include <QObject>
#include <QString>

class QMainWindow;
class QMenu;

namespace hecscope {

// The Help menu: Keys and Mouse (F1) — every shortcut of the window's menus,
// read from their actions so it cannot go stale, and the timeline's keys
// and mouse gestures —, About Hecscope and About Qt.
class HelpMenu : public QObject {
    Q_OBJECT
public:
    explicit HelpMenu(QMainWindow* window);

    // The Keys and Mouse text (HTML) as the dialog shows it.
    QString keysText() const;
    void showKeys();
    void showAbout();

private:
    QMainWindow* m_window;
};

} // namespace hecscope
