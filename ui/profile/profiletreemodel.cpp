#include "ui/profile/profiletreemodel.h"

#include "core/profile/profileviews.h"
#include "ui/formatting.h"

#include <algorithm>

namespace hecscope {

void ProfileTreeModel::setProfile(std::shared_ptr<const CostCentreProfile> p, std::shared_ptr<const CostCentreProfile> shareOf)
{
    beginResetModel();
    m_profile = std::move(p);
    m_shareOf = shareOf ? std::move(shareOf) : m_profile;
    rebuild();
    endResetModel();
}

void ProfileTreeModel::setFilter(const QRegularExpression& re)
{
    beginResetModel();
    m_filter = re;
    rebuild();
    endResetModel();
}

bool ProfileTreeModel::hasColumn(int column) const
{
    if (!m_profile)
        return column == Name;
    switch (column) {
    case SelfTime: case InclTime: return m_profile->hasMetric[0];
    case SelfAlloc: case InclAlloc: return m_profile->hasMetric[1];
    case Entries: return m_profile->hasEntries;
    case Source: return m_profile->source != ProfileSource::Eventlog
            || std::any_of(m_profile->costCentres.begin(), m_profile->costCentres.end(),
                           [](const ProfileCostCentre& c) { return !c.srcLoc.empty(); });
    default: return true;
    }
}

void ProfileTreeModel::rebuild()
{
    m_children.clear();
    m_row.clear();
    if (!m_profile)
        return;
    const auto& nodes = m_profile->nodes;
    std::vector<char> shown(nodes.size(), 1);
    if (m_filter.isValid() && !m_filter.pattern().isEmpty()) {
        std::vector<char> ccMatch(m_profile->costCentres.size(), 0);
        for (size_t c = 0; c < ccMatch.size(); ++c) {
            const auto& cc = m_profile->costCentres[c];
            ccMatch[c] = m_filter.match(QString::fromStdString(cc.label)).hasMatch()
                || m_filter.match(QString::fromStdString(cc.module)).hasMatch();
        }
        std::fill(shown.begin(), shown.end(), 0);
        for (size_t i = nodes.size(); i-- > 1;) {
            if (nodes[i].cc != kNoCostCentre && ccMatch[nodes[i].cc])
                shown[i] = 1;
            if (shown[i])
                shown[nodes[i].parent] = 1;
        }
        shown[0] = 1;
    }
    m_children.resize(nodes.size());
    m_row.assign(nodes.size(), 0);
    for (uint32_t i = 1; i < nodes.size(); ++i)
        if (shown[i])
            m_children[nodes[i].parent].push_back(i);
    for (auto& kids : m_children) {
        std::stable_sort(kids.begin(), kids.end(), [&](uint32_t a, uint32_t b) {
            if (m_sortColumn == Name || m_sortColumn == Module || m_sortColumn == Source) {
                const QString va = data(createIndex(0, m_sortColumn, a), Qt::DisplayRole).toString();
                const QString vb = data(createIndex(0, m_sortColumn, b), Qt::DisplayRole).toString();
                return m_sortOrder == Qt::AscendingOrder ? va < vb : vb < va;
            }
            const uint64_t va = sortValue(a, m_sortColumn), vb = sortValue(b, m_sortColumn);
            return m_sortOrder == Qt::AscendingOrder ? va < vb : vb < va;
        });
        for (size_t r = 0; r < kids.size(); ++r)
            m_row[kids[r]] = uint32_t(r);
    }
}

void ProfileTreeModel::sort(int column, Qt::SortOrder order)
{
    if (column == m_sortColumn && order == m_sortOrder)
        return;
    emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    const QModelIndexList before = persistentIndexList();
    std::vector<uint32_t> nodes;
    for (const QModelIndex& ix : before)
        nodes.push_back(uint32_t(ix.internalId()));
    m_sortColumn = column;
    m_sortOrder = order;
    rebuild();
    QModelIndexList after;
    for (size_t k = 0; k < nodes.size(); ++k)
        after.push_back(createIndex(int(m_row[nodes[k]]), before[int(k)].column(), nodes[k]));
    changePersistentIndexList(before, after);
    emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

uint64_t ProfileTreeModel::sortValue(uint32_t node, int column) const
{
    const ProfileNode& n = m_profile->nodes[node];
    switch (column) {
    case SelfTime: return n.self[0];
    case InclTime: return n.incl[0];
    case SelfAlloc: return n.self[1];
    case InclAlloc: return n.incl[1];
    case Entries: return n.entries;
    default: return node;
    }
}

QModelIndex ProfileTreeModel::indexOfNode(uint32_t node) const
{
    if (!m_profile || node == 0 || node >= m_profile->nodes.size())
        return {};
    const uint32_t parent = m_profile->nodes[node].parent;
    const auto& kids = m_children[parent];
    const uint32_t row = m_row[node];
    if (row >= kids.size() || kids[row] != node)
        return {}; // filtered out
    return createIndex(int(row), 0, node);
}

QModelIndex ProfileTreeModel::index(int row, int column, const QModelIndex& parent) const
{
    if (!m_profile || row < 0 || column < 0 || column >= ColumnCount)
        return {};
    const uint32_t p = parent.isValid() ? uint32_t(parent.internalId()) : 0;
    if (p >= m_children.size() || size_t(row) >= m_children[p].size())
        return {};
    return createIndex(row, column, m_children[p][size_t(row)]);
}

QModelIndex ProfileTreeModel::parent(const QModelIndex& child) const
{
    if (!child.isValid() || !m_profile)
        return {};
    const uint32_t p = m_profile->nodes[child.internalId()].parent;
    if (p == 0)
        return {};
    return createIndex(int(m_row[p]), 0, p);
}

int ProfileTreeModel::rowCount(const QModelIndex& parent) const
{
    if (!m_profile || (parent.isValid() && parent.column() != 0))
        return 0;
    const uint32_t p = parent.isValid() ? uint32_t(parent.internalId()) : 0;
    return p < m_children.size() ? int(m_children[p].size()) : 0;
}

int ProfileTreeModel::columnCount(const QModelIndex&) const
{
    return ColumnCount;
}

QString ProfileTreeModel::figure(uint32_t node, int metric, bool self) const
{
    const ProfileNode& n = m_profile->nodes[node];
    const uint64_t v = self ? n.self[metric] : n.incl[metric];
    if (!m_profile->hasMetric[metric])
        return {};
    const QString value = QString::fromStdString(formatProfileValue(*m_profile, ProfileMetric(metric), v));
    if (m_profile->unit[metric] == ProfileUnit::PercentTenths)
        return value;
    return QStringLiteral("%1  (%2)").arg(value, percentText(v, m_shareOf->total(ProfileMetric(metric))));
}

QVariant ProfileTreeModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || !m_profile)
        return {};
    const uint32_t node = uint32_t(index.internalId());
    const ProfileNode& n = m_profile->nodes[node];
    static const ProfileCostCentre kNone;
    const ProfileCostCentre& cc = n.cc == kNoCostCentre ? kNone : m_profile->costCentres[n.cc];
    if (role == kNodeRole)
        return node;
    if (role == kCostCentreRole)
        return n.cc;
    if (role == Qt::TextAlignmentRole)
        return index.column() >= SelfTime && index.column() <= Entries ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                                                          : QVariant();
    if (role == Qt::ToolTipRole && index.column() == Name)
        return QStringLiteral("%1\n%2  %3").arg(QString::fromStdString(cc.label), QString::fromStdString(cc.module),
                                                QString::fromStdString(cc.srcLoc));
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Name: return QString::fromStdString(cc.label) + (cc.caf ? tr(" (CAF)") : QString());
    case Module: return QString::fromStdString(cc.module);
    case SelfTime: return figure(node, 0, true);
    case InclTime: return figure(node, 0, false);
    case SelfAlloc: return figure(node, 1, true);
    case InclAlloc: return figure(node, 1, false);
    case Entries: return m_profile->hasEntries ? countText(n.entries) : QString();
    case Source: return QString::fromStdString(cc.srcLoc);
    default: return {};
    }
}

QVariant ProfileTreeModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    const bool samples = m_profile && m_profile->unit[0] == ProfileUnit::Samples;
    switch (section) {
    case Name: return tr("Cost centre");
    case Module: return tr("Module");
    case SelfTime: return samples ? tr("Self samples") : tr("Self time");
    case InclTime: return samples ? tr("Inclusive samples") : tr("Inclusive time");
    case SelfAlloc: return tr("Self alloc");
    case InclAlloc: return tr("Inclusive alloc");
    case Entries: return tr("Entries");
    case Source: return tr("Source");
    default: return {};
    }
}

} // namespace hecscope
