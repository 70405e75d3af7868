#pragma once

#include "core/index/logindex.h"
#include "core/stats/stats.h"

#include <QAbstractTableModel>

#include <memory>
#include <vector>

class QTableView;

namespace hecscope {

class LogDocument;

// Role holding a cell's value as a number, for sorting (QSortFilterProxyModel
// sorts by it: sortRole = kSortRole).
constexpr int kSortRole = Qt::UserRole + 1;
// Role holding the row's time (ns) for jumping the timeline there.
constexpr int kTimeRole = Qt::UserRole + 2;

// Every garbage collection of a log, one row each: start, pause, generation,
// parallel GC threads, bytes copied, slop and fragmentation, work balance,
// capabilities taking part. Sorts itself (sort(), as a QTableView with
// sorting enabled calls it) on raw values: a proxy comparing QVariants
// takes a tenth of a second on a log of 100,000 collections.
class GcTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Number,
                  Start,
                  Pause,
                  Generation,
                  Threads,
                  Copied,
                  Slop,
                  Balance,
                  Caps,
                  ColumnCount };
    using QAbstractTableModel::QAbstractTableModel;
    void setIndex(std::shared_ptr<const LogIndex> index);
    void follow(const LogDocument* doc); // the document's log, as it changes
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

private:
    void applySort();
    std::shared_ptr<const LogIndex> m_index;
    std::vector<uint32_t> m_rows;   // collection shown in each row
    std::vector<uint32_t> m_number; // per collection: its place in time order (the # column)
    int m_sortColumn = Number;
    Qt::SortOrder m_sortOrder = Qt::AscendingOrder;
};

// Per capability, for the whole run or a range: time running, collecting,
// waiting for a collection, parked after one, idle, thread runs, and sparks (created, converted, overflowed, dud, GC'd,
// fizzled).
class CapabilityTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Cap,
                  Running,
                  Gc,     // collecting, inside its collections
                  GcWait, // stopped for a collection not begun yet
                  Parked, // stopped after a collection ended (not GC)
                  Idle,
                  Runs,
                  Created,
                  Converted,
                  Overflowed,
                  Dud,
                  Gcd,
                  Fizzled,
                  ColumnCount };
    using QAbstractTableModel::QAbstractTableModel;
    void setStats(const RangeStats& stats);
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

private:
    RangeStats m_stats;
};

// A table pane's view of `model`, as every table of the window has it:
// sorted through a proxy by kSortRole (unless the model sorts itself: a
// proxy is too slow for the GC table's 100,000 rows), whole rows
// selected, compact rows, and headers never cut (each column at least as
// wide as its title and the sort arrow, whatever the title says now).
void setUpTable(QTableView* view, QAbstractItemModel* model, bool sortsItself = false);

} // namespace hecscope
