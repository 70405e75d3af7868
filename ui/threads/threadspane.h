#pragma once

#include "core/io/bytesource.h"
#include "core/index/logindex.h"
#include "core/threads/threadstats.h"
#include "core/time/viewrange.h"
#include "ui/jobs/jobrunner.h"

#include <QAbstractTableModel>
#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTableView;

namespace hecscope {

class LogDocument;
class ViewController;

class ThreadRowsController;

// One row per thread: its figures for the whole run or a range. Sorts
// itself (a proxy is too slow for 100,000 rows).
class ThreadsTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Id, Label, Created, Finished, Running, Runnable, Blocked, BlockedMVar, BlockedMVarRead,
                  BlockedBlackHole, BlockedStm, BlockedDelay, BlockedForeign, BlockedThrowTo, BlockedOther,
                  Runs, Migrations, Wakeups, ColumnCount };
    static constexpr int kNumberRole = Qt::UserRole + 10; // the thread's number (its row in ThreadStates)

    using QAbstractTableModel::QAbstractTableModel;
    void setFigures(std::shared_ptr<const LogIndex> index, std::vector<ThreadFigures> figures);
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;
    // The row showing thread `number`, or -1.
    int rowOfThread(uint32_t number) const;

private:
    uint64_t value(const ThreadFigures& f, int column) const;
    void applySort();
    std::shared_ptr<const LogIndex> m_index; // keeps the labels alive
    std::vector<ThreadFigures> m_figures;
    std::vector<uint32_t> m_rows; // figure shown in each row
    int m_sortColumn = Id;
    Qt::SortOrder m_sortOrder = Qt::AscendingOrder;
};

// The Threads pane: every thread's figures for the run or the selected
// range, filtered by the same expression as the Threads track, with the
// track's row order and height; choosing a thread picks out its row on the
// timeline. Figures are computed off the UI thread.
class ThreadsPane : public QWidget {
    Q_OBJECT
public:
    explicit ThreadsPane(ThreadRowsController* rows, QWidget* parent = nullptr);
    void setIndex(std::shared_ptr<const LogIndex> index);
    // The document's log as it changes (a grown one keeps the user's
    // choices), for the selection `view` has.
    void follow(const LogDocument* doc, const ViewController* view);
    // Where a range's thread segments are read back from (set before the index).
    void setSource(std::shared_ptr<ByteSource> source);
    // The same log grown (a live update): the table keeps showing the last
    // figures until the new ones land.
    void updateIndex(std::shared_ptr<const LogIndex> index);
    void setRange(std::optional<ViewRange> range);
    QTableView* table() const { return m_table; }
    ThreadsTableModel* model() const { return m_model; }
    QLineEdit* filterField() const { return m_filter; }
    QString statusText() const;
    // Selects thread `number`'s row, if shown.
    void selectThread(uint32_t number);

signals:
    void threadChosen(uint32_t number, uint32_t id);
    void figuresShown(); // a computation landed (tests)

private:
    void recompute();
    void show(std::vector<ThreadFigures> all);
    void contextMenu(const QPoint& pos);

    ThreadRowsController* m_rows;
    ThreadsTableModel* m_model;
    QTableView* m_table;
    QLineEdit* m_filter;
    QComboBox* m_sort;
    QSpinBox* m_rowCount;
    QLabel* m_status;
    std::shared_ptr<const LogIndex> m_index;
    std::shared_ptr<ByteSource> m_source;
    std::optional<ViewRange> m_range;
    JobRunner m_runner; // last: destroyed first
};

} // namespace hecscope
