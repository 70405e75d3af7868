#pragma once

#include "core/compare/comparison.h"

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>

#include <functional>
#include <memory>

class QTableView;

namespace hecscope {

// The change from A to B as a share of A: +inf when A is 0 (or only B has
// the figure), -inf when only A has it.
double relativeChange(const ComparedFigure& f);

// The figures of both runs, one row per (group, key, figure).
class CompareFiguresModel : public QAbstractTableModel {
public:
    enum Column { Group, Key, Figure, A, B, Difference, Ratio, Change, Columns };
    static constexpr int SortRole = Qt::UserRole;

    using QAbstractTableModel::QAbstractTableModel;
    void setComparison(std::shared_ptr<const Comparison> c)
    {
        beginResetModel();
        m_comparison = std::move(c);
        endResetModel();
    }
    const ComparedFigure* figure(int row) const
    {
        return m_comparison && row >= 0 && size_t(row) < m_comparison->figures.size() ? &m_comparison->figures[size_t(row)]
                                                                                      : nullptr;
    }
    int rowCount(const QModelIndex& parent = {}) const override
    {
        return parent.isValid() || !m_comparison ? 0 : int(m_comparison->figures.size());
    }
    int columnCount(const QModelIndex& parent = {}) const override { return parent.isValid() ? 0 : Columns; }
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    QVariant data(const QModelIndex& index, int role) const override;

private:
    std::shared_ptr<const Comparison> m_comparison;
};

// Filters: a group, a text in key or figure, only what changed, a scope (a
// pane's figures); what is 0 or absent in both runs is never listed (the
// CSV has it).
class CompareFiguresFilter : public QSortFilterProxyModel {
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;
    QString group, text;
    bool changedOnly = false;
    std::function<bool(const ComparedFigure&)> scope; // none: every figure
    // One name column (a pane's narrow table): the key shows its figure
    // too ("gen 0 · collections"); the Group and Figure columns are hidden.
    bool joinNames = false;
    void refilter() { invalidateFilter(); }
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

protected:
    bool filterAcceptsRow(int row, const QModelIndex&) const override;
};

// A table of compared figures over `filter` (sorted by a clicked column,
// else in the runs' order).
QTableView* newFiguresTable(CompareFiguresFilter* filter);

} // namespace hecscope
