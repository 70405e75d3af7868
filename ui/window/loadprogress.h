#pragma once

#include <QLabel>
#include <QWidget>

#include "ui/document/logdocument.h"

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
    // The bar's value and text, painted with the window's next repaint.
    void setBar(int value, const QString& text);
    QProgressBar* m_bar;
    QPushButton* m_cancel;
};

// File ▸ Open Recent: the last ten files opened, newest first, kept in
// the settings. Read as the window starts; each change is written by
// Settings' worker onto the list in the file (QSettings writes the file
// and syncs it to the disk under a lock file, which kept the window
// waiting as each log opened), in order, and the last is written before
// the window goes.
class RecentFiles : public QObject {
    Q_OBJECT
public:
    RecentFiles(QMenu* menu, QObject* parent);
    ~RecentFiles() override;
    void add(const QString& path);

signals:
    void chosen(const QString& path);

private:
    void rebuild();
    QMenu* m_menu;
    QStringList m_paths;
};

// Above the timeline: what the window says of the log (NoticeKind), each
// kind styled here only; the document's notices, hidden when it clears them.
class Banner : public QLabel {
    Q_OBJECT
public:
    explicit Banner(QWidget* parent = nullptr);
    void follow(LogDocument* doc);
    void say(const QString& text, NoticeKind kind);
    // What it says; empty when hidden.
    QString said() const { return isHidden() ? QString() : text(); }
};

} // namespace hecscope
