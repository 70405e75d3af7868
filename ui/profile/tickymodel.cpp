#include "ui/profile/tickymodel.h"

#include "ui/formatting.h"

#include <QLocale>

#include <algorithm>
#include <map>
#include <tuple>

namespace hecscope {

void TickyModel::setRows(std::vector<TickyRow> rows)
{
    beginResetModel();
    m_rows = std::move(rows);
    applySort();
    endResetModel();
}

int TickyModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int TickyModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

namespace {

QString delta(const TickyRow& r, int64_t d)
{
    if (!r.hasPrevious)
        return QStringLiteral("–");
    return (d > 0 ? QStringLiteral("+") : QString()) + QLocale().toString(qlonglong(d));
}

} // namespace

QVariant TickyModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || size_t(index.row()) >= m_rows.size())
        return {};
    const TickyRow& r = m_rows[size_t(index.row())];
    if (role == Qt::TextAlignmentRole)
        return index.column() == Name || index.column() == Kinds ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && index.column() == Name)
        return tr("%1\ncounter %2%3").arg(QString::fromStdString(r.name)).arg(r.id)
            .arg(r.sampled ? QString() : tr("\nnot sampled in this dump"));
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Name: return QString::fromStdString(r.name);
    case Arity: return r.arity;
    case Kinds: return QString::fromStdString(r.kinds);
    case Entries: return r.sampled ? countText(r.entries) : QStringLiteral("–");
    case Allocs: return r.sampled ? countText(r.allocs) : QStringLiteral("–");
    case Allocd: return r.sampled ? countText(r.allocd) : QStringLiteral("–");
    case DEntries: return delta(r, r.dEntries);
    case DAllocs: return delta(r, r.dAllocs);
    case DAllocd: return delta(r, r.dAllocd);
    default: return {};
    }
}

QVariant TickyModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    static const char* const names[] = {"Counter", "Arity", "Kinds", "Entries", "Allocs",
                                        "Allocd", "Δ entries", "Δ allocs", "Δ allocd"};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

void TickyModel::sort(int column, Qt::SortOrder order)
{
    emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    // The selection and current row stay on their counters (ids are unique).
    const QModelIndexList before = persistentIndexList();
    std::vector<uint64_t> ids;
    for (const QModelIndex& ix : before)
        ids.push_back(m_rows[size_t(ix.row())].id);
    m_sortColumn = column;
    m_sortOrder = order;
    applySort();
    std::map<uint64_t, int> rowOf;
    for (size_t r = 0; r < m_rows.size(); ++r)
        rowOf[m_rows[r].id] = int(r);
    QModelIndexList after;
    for (size_t k = 0; k < ids.size(); ++k)
        after.push_back(index(rowOf.at(ids[k]), before[int(k)].column()));
    changePersistentIndexList(before, after);
    emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

void TickyModel::applySort()
{
    auto key = [c = m_sortColumn](const TickyRow& r) {
        switch (c) {
        case Arity: return std::tuple<int64_t, std::string>(r.arity, r.name);
        case Kinds: return std::tuple<int64_t, std::string>(0, r.kinds + r.name);
        case Entries: return std::tuple<int64_t, std::string>(int64_t(r.entries), r.name);
        case Allocs: return std::tuple<int64_t, std::string>(int64_t(r.allocs), r.name);
        case Allocd: return std::tuple<int64_t, std::string>(int64_t(r.allocd), r.name);
        case DEntries: return std::tuple<int64_t, std::string>(r.dEntries, r.name);
        case DAllocs: return std::tuple<int64_t, std::string>(r.dAllocs, r.name);
        case DAllocd: return std::tuple<int64_t, std::string>(r.dAllocd, r.name);
        default: return std::tuple<int64_t, std::string>(0, r.name);
        }
    };
    std::stable_sort(m_rows.begin(), m_rows.end(), [&](const TickyRow& a, const TickyRow& b) {
        return m_sortOrder == Qt::AscendingOrder ? key(a) < key(b) : key(b) < key(a);
    });
}

} // namespace hecscope
