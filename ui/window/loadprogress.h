#pragma once

#include <QWidget>

class QMenu;
class QProgressBar;
class QPushButton;

namespace hecscope {

class LogDocument;

// Above the timeline while a file loads: how much is read, and Cancel
// (what was on screen before stays, or the tracks say it was cancelled).
// Hidden otherwise.
class LoadProgress : public QWidget {
    Q_OBJECT
public:
    explicit LoadProgress(QWidget* parent = nullptr);
    void follow(LogDocument* doc);

signals:
    void cancelled(); // by the user

private:
    QProgressBar* m_bar;
    QPushButton* m_cancel;
};

// File ▸ Open Recent: the last ten files opened, newest first, kept in
// the settings.
class RecentFiles : public QObject {
    Q_OBJECT
public:
    RecentFiles(QMenu* menu, QObject* parent);
    void add(const QString& path);

signals:
    void chosen(const QString& path);

private:
    void rebuild();
    QMenu* m_menu;
};

} // namespace hecscope
