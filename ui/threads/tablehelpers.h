#pragma once

#include "core/time/viewrange.h"
#include "ui/formatting.h"

#include <QAbstractItemModel>
#include <QHeaderView>
#include <QObject>
#include <QTableView>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

// What the Threads and Spans panes' tables share: their look, the range
// they describe, and sorting that keeps the current row on its item.
namespace hecscope::tables {

inline void setUpTable(QTableView* view)
{
    view->setSortingEnabled(true);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setAlternatingRowColors(true);
    view->verticalHeader()->hide();
    view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 4);
    view->horizontalHeader()->setStretchLastSection(true);
    view->horizontalHeader()->setTextElideMode(Qt::ElideNone);
    view->setWordWrap(false);
}

inline QString rangeText(const std::optional<ViewRange>& r)
{
    return r ? QObject::tr("selection %1 – %2").arg(durationText(r->start), durationText(r->end))
             : QObject::tr("whole run");
}

// Sorts `rows` (indices) by `value`, ties in their order in `rows`, for a
// self-sorting model. Each row's value is taken once and sorted beside it
// (not taken twice a comparison: a live log of 12,800 threads sorted on
// the UI thread at every update took 20 ms that way).
template <class Value>
void sortRows(std::vector<uint32_t>& rows, Qt::SortOrder order, Value value)
{
    using Key = std::decay_t<decltype(value(uint32_t()))>;
    std::vector<std::pair<Key, uint32_t>> keyed;
    keyed.reserve(rows.size());
    for (uint32_t r : rows)
        keyed.emplace_back(value(r), r);
    std::stable_sort(keyed.begin(), keyed.end(), [&](const auto& a, const auto& b) {
        return order == Qt::AscendingOrder ? a.first < b.first : b.first < a.first;
    });
    for (size_t i = 0; i < rows.size(); ++i)
        rows[i] = keyed[i].second;
}

// Where a sort moves persistent indexes (the views' current and selected
// rows), so that they stay on their item: rowOf[old row] = new row.
inline QModelIndexList movedIndexes(const QAbstractItemModel& model, const QModelIndexList& before,
                             const std::vector<uint32_t>& rowOf)
{
    QModelIndexList after;
    after.reserve(before.size());
    for (const QModelIndex& ix : before)
        after.push_back(model.index(int(rowOf[size_t(ix.row())]), ix.column()));
    return after;
}

// rowOf[old row] = new row for a permutation `rows` (rows[new row] = old row).
inline std::vector<uint32_t> inverse(const std::vector<uint32_t>& rows)
{
    std::vector<uint32_t> rowOf(rows.size());
    for (size_t r = 0; r < rows.size(); ++r)
        rowOf[rows[r]] = uint32_t(r);
    return rowOf;
}

} // namespace hecscope::tables
