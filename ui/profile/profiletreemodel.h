#pragma once

#include "core/profile/profile.h"

#include <QAbstractItemModel>
#include <QRegularExpression>

#include <memory>
#include <vector>

namespace hecscope {

// Which nodes a ProfileTreeModel shows under which, in order: made off the
// UI thread for a big profile (makeShape), then handed to setProfile.
struct ProfileTreeShape {
    std::vector<uint32_t> first;    // per node: where its children start in `children` (nodes + 1 entries)
    std::vector<uint32_t> children; // shown children, node by node, sorted
    std::vector<uint32_t> row;      // per node: its row under its parent
    QString filter;                 // what it was made for
    int column = -1;
    Qt::SortOrder order = Qt::DescendingOrder;
};

// A call tree (top-down, bottom-up, callers or callees: any
// CostCentreProfile) as a Qt tree: cost centre, module, self and inclusive
// time and allocation (each with its share of the whole profile), entries,
// source location. Columns the source has no figures for are empty (the
// pane hides them). It sorts itself, every level by the same column, and
// filters by a regular expression over label and module: a node is shown
// when it or a descendant matches.
class ProfileTreeModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { Name, Module, SelfTime, InclTime, SelfAlloc, InclAlloc, Entries, Source, ColumnCount };
    static constexpr int kNodeRole = Qt::UserRole + 20;       // node index (uint)
    static constexpr int kCostCentreRole = Qt::UserRole + 21; // cost-centre index (uint)

    using QAbstractItemModel::QAbstractItemModel;
    // `shareOf` is the profile whose totals the percentages divide by (the
    // whole profile for callers/callees; the tree itself otherwise).
    void setProfile(std::shared_ptr<const CostCentreProfile> p, std::shared_ptr<const CostCentreProfile> shareOf = {},
                    std::shared_ptr<const ProfileTreeShape> shape = {});
    // The shape setProfile would make with the current filter and sort: any
    // thread (the pattern is compiled afresh there).
    static ProfileTreeShape makeShape(const CostCentreProfile& p, const QString& filter, int column, Qt::SortOrder order);
    QString filterPattern() const { return m_filter.pattern(); }
    // A tree that runs from a cost centre to its callers (bottom-up,
    // callers): a node's figure is the first cost centre's cost spent under
    // that chain, so there is no self column and the figure is named so.
    void setInverted(bool inverted) { m_inverted = inverted; }
    int sortColumn() const { return m_sortColumn; }
    Qt::SortOrder sortOrder() const { return m_sortOrder; }
    std::shared_ptr<const CostCentreProfile> profile() const { return m_profile; }
    void setFilter(const QRegularExpression& re);
    bool hasColumn(int column) const;
    QModelIndex indexOfNode(uint32_t node) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

private:
    void rebuild();
    QString figure(uint32_t node, int metric, bool self) const;

    std::shared_ptr<const CostCentreProfile> m_profile, m_shareOf;
    QRegularExpression m_filter;
    std::shared_ptr<const ProfileTreeShape> m_shape;
    bool m_inverted = false;
    int m_sortColumn = InclTime;
    Qt::SortOrder m_sortOrder = Qt::DescendingOrder;
};

} // namespace hecscope
