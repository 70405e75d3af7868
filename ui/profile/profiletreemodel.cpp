#include "ui/profile/profiletreemodel.h"

#include "core/profile/profileviews.h"
#include "ui/formatting.h"

#include <algorithm>

namespace hecscope {

void ProfileTreeModel::setProfile(std::shared_ptr<const CostCentreProfile> p, std::shared_ptr<const CostCentreProfile> shareOf,
                                  std::shared_ptr<const ProfileTreeShape> shape)
{
    beginResetModel();
    m_profile = std::move(p);
    m_shareOf = shareOf ? std::move(shareOf) : m_profile;
    if (shape && m_profile && shape->first.size() == m_profile->nodes.size() + 1 && shape->filter == m_filter.pattern()
        && shape->column == m_sortColumn && shape->order == m_sortOrder)
        m_shape = std::move(shape);
    else
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
    case SelfTime: return m_profile->hasMetric[0] && !m_inverted;
    case SelfAlloc: return m_profile->hasMetric[1] && !m_inverted;
    case InclTime: return m_profile->hasMetric[0];
    case InclAlloc: return m_profile->hasMetric[1];
    case Entries: return m_profile->hasEntries;
    case Source: return m_profile->source != ProfileSource::Eventlog
            || std::any_of(m_profile->costCentres.begin(), m_profile->costCentres.end(),
                           [](const ProfileCostCentre& c) { return !c.srcLoc.empty(); });
    default: return true;
    }
}

ProfileTreeShape ProfileTreeModel::makeShape(const CostCentreProfile& p, const QString& filter, int column,
                                             Qt::SortOrder order)
{
    ProfileTreeShape shape;
    shape.filter = filter;
    shape.column = column;
    shape.order = order;
    const auto& nodes = p.nodes;
    const size_t n = nodes.size();
    std::vector<char> shown(n, 1);
    const QRegularExpression re(filter, QRegularExpression::CaseInsensitiveOption);
    if (!filter.isEmpty() && re.isValid()) {
        std::vector<char> ccMatch(p.costCentres.size(), 0);
        for (size_t c = 0; c < ccMatch.size(); ++c) {
            const auto& cc = p.costCentres[c];
            ccMatch[c] = re.match(QString::fromStdString(cc.label)).hasMatch()
                || re.match(QString::fromStdString(cc.module)).hasMatch();
        }
        std::fill(shown.begin(), shown.end(), 0);
        for (size_t i = n; i-- > 1;) {
            if (nodes[i].cc != kNoCostCentre && ccMatch[nodes[i].cc])
                shown[i] = 1;
            if (shown[i])
                shown[nodes[i].parent] = 1;
        }
        if (n)
            shown[0] = 1;
    }
    // Children grouped by parent (counting sort), then each group sorted.
    shape.first.assign(n + 1, 0);
    for (size_t i = 1; i < n; ++i)
        if (shown[i])
            ++shape.first[nodes[i].parent + 1];
    for (size_t i = 0; i < n; ++i)
        shape.first[i + 1] += shape.first[i];
    shape.children.resize(shape.first[n]);
    std::vector<uint32_t> fill(shape.first.begin(), shape.first.end() - 1);
    for (uint32_t i = 1; i < n; ++i)
        if (shown[i])
            shape.children[fill[nodes[i].parent]++] = i;
    static const std::string kNone;
    auto text = [&](uint32_t node) -> const std::string& {
        const uint32_t cc = nodes[node].cc;
        if (cc == kNoCostCentre)
            return kNone;
        const ProfileCostCentre& c = p.costCentres[cc];
        return column == Module ? c.module : column == Source ? c.srcLoc : c.label;
    };
    auto value = [&](uint32_t node) -> uint64_t {
        const ProfileNode& x = nodes[node];
        switch (column) {
        case SelfTime: return x.self[0];
        case InclTime: return x.incl[0];
        case SelfAlloc: return x.self[1];
        case InclAlloc: return x.incl[1];
        case Entries: return x.entries;
        default: return node;
        }
    };
    const bool byText = column == Name || column == Module || column == Source;
    const bool ascending = order == Qt::AscendingOrder;
    shape.row.assign(n, 0);
    for (size_t i = 0; i < n; ++i) {
        const auto begin = shape.children.begin() + shape.first[i], end = shape.children.begin() + shape.first[i + 1];
        if (end - begin > 1)
            std::stable_sort(begin, end, [&](uint32_t a, uint32_t b) {
                if (byText) {
                    const int k = text(a).compare(text(b));
                    return ascending ? k < 0 : k > 0;
                }
                return ascending ? value(a) < value(b) : value(b) < value(a);
            });
        for (auto it = begin; it != end; ++it)
            shape.row[*it] = uint32_t(it - begin);
    }
    return shape;
}

void ProfileTreeModel::rebuild()
{
    m_shape = m_profile ? std::make_shared<const ProfileTreeShape>(makeShape(*m_profile, m_filter.pattern(), m_sortColumn, m_sortOrder))
                        : nullptr;
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
        after.push_back(createIndex(int(m_shape->row[nodes[k]]), before[int(k)].column(), nodes[k]));
    changePersistentIndexList(before, after);
    emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

QModelIndex ProfileTreeModel::indexOfNode(uint32_t node) const
{
    if (!m_profile || node == 0 || node >= m_profile->nodes.size())
        return {};
    const uint32_t parent = m_profile->nodes[node].parent;
    const uint32_t row = m_shape->row[node];
    const uint32_t at = m_shape->first[parent] + row;
    if (at >= m_shape->first[parent + 1] || m_shape->children[at] != node)
        return {}; // filtered out
    return createIndex(int(row), 0, node);
}

QModelIndex ProfileTreeModel::index(int row, int column, const QModelIndex& parent) const
{
    if (!m_profile || row < 0 || column < 0 || column >= ColumnCount)
        return {};
    const uint32_t p = parent.isValid() ? uint32_t(parent.internalId()) : 0;
    if (!m_shape || p + 1 >= m_shape->first.size() || m_shape->first[p] + uint32_t(row) >= m_shape->first[p + 1])
        return {};
    return createIndex(row, column, m_shape->children[m_shape->first[p] + uint32_t(row)]);
}

QModelIndex ProfileTreeModel::parent(const QModelIndex& child) const
{
    if (!child.isValid() || !m_profile)
        return {};
    const uint32_t p = m_profile->nodes[child.internalId()].parent;
    if (p == 0)
        return {};
    return createIndex(int(m_shape->row[p]), 0, p);
}

int ProfileTreeModel::rowCount(const QModelIndex& parent) const
{
    if (!m_profile || (parent.isValid() && parent.column() != 0))
        return 0;
    const uint32_t p = parent.isValid() ? uint32_t(parent.internalId()) : 0;
    return m_shape && p + 1 < m_shape->first.size() ? int(m_shape->first[p + 1] - m_shape->first[p]) : 0;
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
    case Name: return QString::fromStdString(cc.label) + (cc.caf && cc.label != "CAF" ? tr(" (CAF)") : QString());
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
    case InclTime: return m_inverted ? (samples ? tr("Samples") : tr("Time")) : samples ? tr("Inclusive samples") : tr("Inclusive time");
    case SelfAlloc: return tr("Self alloc");
    case InclAlloc: return m_inverted ? tr("Alloc") : tr("Inclusive alloc");
    case Entries: return tr("Entries");
    case Source: return tr("Source");
    default: return {};
    }
}

} // namespace hecscope
