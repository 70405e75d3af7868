#pragma once

#include "core/timeprofile/ticky.h"

#include <QAbstractTableModel>

#include <vector>

namespace hecscope {

// The ticky-ticky counters of one dump: name, arity, kinds, entries,
// allocs, allocd and the change of each since the previous dump. Sorts
// itself.
class TickyModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Arity, Kinds, Entries, Allocs, Allocd, DEntries, DAllocs, DAllocd, ColumnCount };
    using QAbstractTableModel::QAbstractTableModel;
    void setRows(std::vector<TickyRow> rows);
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

private:
    void applySort();
    std::vector<TickyRow> m_rows;
    int m_sortColumn = Entries;
    Qt::SortOrder m_sortOrder = Qt::DescendingOrder;
};

} // namespace hecscope
