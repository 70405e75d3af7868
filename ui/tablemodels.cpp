#include "ui/tablemodels.h"

#include "core/viewrange.h"

#include <QLocale>

#include <climits>

namespace hecscope {

namespace {

QString bytesText(uint64_t b)
{
    return QLocale().toString(qulonglong(b));
}

QString percent(uint64_t part, uint64_t whole)
{
    return whole ? QStringLiteral("%1 %").arg(100.0 * double(part) / double(whole), 0, 'f', 1) : QStringLiteral("–");
}

} // namespace

void GcTableModel::setIndex(std::shared_ptr<const LogIndex> index)
{
    beginResetModel();
    m_index = std::move(index);
    endResetModel();
}

int GcTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_index ? 0 : int(std::min<size_t>(m_index->collections.size(), INT_MAX));
}

int GcTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant GcTableModel::data(const QModelIndex& ix, int role) const
{
    if (!ix.isValid() || !m_index || ix.row() >= rowCount() || ix.column() >= ColumnCount)
        return {};
    // Rows in time order (the index keeps collections in grouping order).
    const uint32_t i = m_index->collectionsByStart.size() == m_index->collections.size()
        ? m_index->collectionsByStart[size_t(ix.row())]
        : uint32_t(ix.row());
    const Collection& c = m_index->collections[i];
    const uint64_t start = c.leaderStart; // the pause ([start, end] without a known leader)
    if (role == kTimeRole)
        return QVariant::fromValue<qulonglong>(start);
    if (role == Qt::TextAlignmentRole)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    const double balance = c.parallel() && c.parMaxCopied > 0 && c.parThreads > 1
        ? (double(c.parTotCopied) / double(c.parMaxCopied) - 1.0) / double(c.parThreads - 1)
        : -1.0;
    if (role == kSortRole) {
        switch (ix.column()) {
        case Number: return ix.row();
        case Start: return qulonglong(start);
        case Pause: return qulonglong(c.pause());
        case Generation: return c.generation;
        case Threads: return c.parThreads;
        case Copied: return qulonglong(c.copied);
        case Slop: return qulonglong(c.slop);
        case Balance: return balance;
        case Caps: return c.caps;
        }
        return {};
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (ix.column()) {
    case Number: return ix.row() + 1;
    case Start: return QString::fromStdString(formatDuration(start));
    case Pause: return QString::fromStdString(formatDuration(c.pause()));
    case Generation: return c.generation < 0 ? QStringLiteral("?") : QString::number(c.generation);
    case Threads: return c.hasStats ? QString::number(c.parThreads) : QStringLiteral("–");
    case Copied: return c.hasStats ? bytesText(c.copied) : QStringLiteral("–");
    case Slop: return c.hasStats ? bytesText(c.slop) : QStringLiteral("–");
    case Balance: return balance < 0 ? QStringLiteral("–") : QStringLiteral("%1 %").arg(100 * balance, 0, 'f', 1);
    case Caps: return c.caps;
    }
    return {};
}

QVariant GcTableModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, o, role);
    static const char* const names[] = {"#", "Start", "Pause", "Gen", "GC threads", "Copied (B)", "Slop (B)", "Balance", "Caps"};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

void CapabilityTableModel::setStats(const RangeStats& stats)
{
    beginResetModel();
    m_stats = stats;
    endResetModel();
}

int CapabilityTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_stats.caps.size());
}

int CapabilityTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant CapabilityTableModel::data(const QModelIndex& ix, int role) const
{
    if (!ix.isValid() || ix.row() >= rowCount() || ix.column() >= ColumnCount)
        return {};
    const CapStats& c = m_stats.caps[size_t(ix.row())];
    const uint64_t total = m_stats.totalNs;
    if (role == Qt::TextAlignmentRole)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    const uint64_t values[] = {c.cap, c.running, c.gc, c.idle, c.runs, c.sparks.created, c.sparks.converted,
                               c.sparks.overflowed, c.sparks.dud, c.sparks.gcd, c.sparks.fizzled};
    if (role == kSortRole)
        return qulonglong(values[ix.column()]);
    if (role != Qt::DisplayRole)
        return {};
    switch (ix.column()) {
    case Running:
    case Gc:
    case Idle: return percent(values[ix.column()], total);
    default: return QLocale().toString(qulonglong(values[ix.column()]));
    }
}

QVariant CapabilityTableModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, o, role);
    static const char* const names[] = {"Cap", "Running", "GC", "Idle", "Runs", "Sparks created",
                                        "Converted", "Overflowed", "Dud", "GC'd", "Fizzled"};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

} // namespace hecscope
