#pragma once

#include "core/index/logindex.h"

#include <QAbstractTableModel>
#include <QTableView>
#include <QString>

#include <memory>
#include <vector>

namespace hecscope {

class LogDocument;

// Named times of a log: its markers (traceMarker), and the user's own,
// which are saved per file (QSettings, keyed by the file's absolute path)
// and can be renamed and removed. Rows in time order.
class BookmarkModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { TimeColumn,
                  NameColumn,
                  ColumnCount };
    struct Bookmark {
        uint64_t time = 0; // ns
        QString name;
        bool fromMarker = false;
    };

    using QAbstractTableModel::QAbstractTableModel;
    void setLog(const QString& path, const LogIndex* index);
    void follow(const LogDocument* doc); // the document's log (its saved bookmarks)
    // Adds a user bookmark; returns its row.
    int add(uint64_t time, const QString& name);
    bool removeUser(int row); // markers stay: they are the log's
    const Bookmark& at(int row) const { return m_marks[size_t(row)]; }
    std::vector<uint64_t> times() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

signals:
    void bookmarksChanged();

private:
    void save() const;
    QString settingsKey() const;

    QString m_path;
    std::vector<Bookmark> m_marks;
};

// The Bookmarks pane: the bookmarks and markers by time, the name
// editable, Delete removing a user's bookmark; a click or Enter jumps to
// one (jumped).
class BookmarkTable : public QTableView {
    Q_OBJECT
public:
    explicit BookmarkTable(BookmarkModel* model, QWidget* parent = nullptr);
    // Adds a bookmark at `time`, named after how many there are, and
    // starts editing its name (when shown).
    void addAt(uint64_t time);

signals:
    void jumped(uint64_t time);

private:
    BookmarkModel* m_model;
};

} // namespace hecscope
