#include "ui/models/tablemodels.h"

#include <QHeaderView>
#include <QSortFilterProxyModel>
#include <QTableView>

#include "ui/document/logdocument.h"

#include "core/stats/stats.h"
#include "ui/formatting.h"
#include "core/time/viewrange.h"

#include <QLocale>

#include <algorithm>
#include <climits>

namespace hecscope {

namespace {

} // namespace

void GcTableModel::setIndex(std::shared_ptr<const LogIndex> index)
{
    beginResetModel();
    m_index = std::move(index);
    const size_t n = m_index ? m_index->collections.size() : 0;
    // Time order: the index keeps the collections by start.
    m_number.resize(n);
    m_rows.resize(n);
    for (size_t i = 0; i < n; ++i)
        m_number[i] = m_rows[i] = uint32_t(i);
    applySort();
    endResetModel();
}

void GcTableModel::sort(int column, Qt::SortOrder order)
{
    m_sortColumn = column;
    m_sortOrder = order;
    emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    const QModelIndexList before = persistentIndexList();
    std::vector<uint32_t> collectionOf;
    collectionOf.reserve(size_t(before.size()));
    for (const QModelIndex& ix : before)
        collectionOf.push_back(m_rows[size_t(ix.row())]);
    applySort();
    // Persistent indexes (the current row, selections) follow their rows.
    std::vector<uint32_t> rowOf(m_rows.size());
    for (size_t r = 0; r < m_rows.size(); ++r)
        rowOf[m_rows[r]] = uint32_t(r);
    QModelIndexList after;
    after.reserve(before.size());
    for (qsizetype i = 0; i < before.size(); ++i)
        after.push_back(index(int(rowOf[collectionOf[size_t(i)]]), before[i].column()));
    changePersistentIndexList(before, after);
    emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

void GcTableModel::applySort()
{
    if (!m_index)
        return;
    const auto& cs = m_index->collections;
    // By number (the default), the index's own order: nothing decoded or
    // sorted. A live log of 115,000 collections took 10–20 ms of the UI
    // thread at every update else.
    if (m_sortColumn == Number) {
        for (size_t r = 0; r < m_rows.size(); ++r)
            m_rows[r] = uint32_t(m_sortOrder == Qt::AscendingOrder ? r : m_rows.size() - 1 - r);
        return;
    }
    const auto balance = [](const Collection& c) {
        return c.parallel() ? workBalanceThreadScope(c.parTotCopied, c.parMaxCopied, c.parThreads) : -1.0;
    };
    const auto key = [&](uint32_t i, const Collection& c) -> double {
        switch (m_sortColumn) {
        case Start: return double(c.leaderStart);
        case Pause: return double(c.pause());
        case Generation: return c.generation;
        case Threads: return c.parThreads;
        case Copied: return double(c.copied);
        case Slop: return double(c.slop);
        case Balance: return balance(c);
        case Caps: return c.caps;
        default: return m_number[i];
        }
    };
    // (Each collection decoded once, in order: CollectionList.)
    std::vector<double> keys;
    keys.reserve(cs.size());
    for (const Collection& c : cs)
        keys.push_back(key(uint32_t(keys.size()), c));
    // Ties in time order, whichever direction.
    std::sort(m_rows.begin(), m_rows.end(), [&](uint32_t a, uint32_t b) {
        if (keys[a] != keys[b])
            return m_sortOrder == Qt::AscendingOrder ? keys[a] < keys[b] : keys[a] > keys[b];
        return m_number[a] < m_number[b];
    });
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
    const uint32_t i = m_rows[size_t(ix.row())];
    const Collection& c = m_index->collections[i];
    const uint64_t start = c.leaderStart; // the pause ([start, end] without a known leader)
    if (role == kTimeRole)
        return QVariant::fromValue<qulonglong>(start);
    if (role == Qt::TextAlignmentRole)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    const double balance = c.parallel() ? workBalanceThreadScope(c.parTotCopied, c.parMaxCopied, c.parThreads)
        : -1.0;
    if (role == kSortRole) {
        switch (ix.column()) {
        case Number: return m_number[i];
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
    case Number: return m_number[i] + 1;
    case Start: return timeText(start);
    case Pause: return durationText(c.pause());
    case Generation: return c.generation < 0 ? QStringLiteral("?") : QString::number(c.generation);
    case Threads: return c.hasStats ? QString::number(c.parThreads) : QStringLiteral("–");
    case Copied: return c.hasStats ? countText(c.copied) : QStringLiteral("–");
    case Slop: return c.hasStats ? countText(c.slop) : QStringLiteral("–");
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
    const uint64_t values[] = {c.cap, c.running, c.gc,
                               c.gcSync, c.parked, c.idle,
                               c.runs, c.sparks.created, c.sparks.converted,
                               c.sparks.overflowed, c.sparks.dud, c.sparks.gcd,
                               c.sparks.fizzled};
    if (role == kSortRole)
        return qulonglong(values[ix.column()]);
    if (role != Qt::DisplayRole)
        return {};
    switch (ix.column()) {
    case Running:
    case Gc:
    case GcWait:
    case Parked:
    case Idle: return percentText(values[ix.column()], total);
    default: return QLocale().toString(qulonglong(values[ix.column()]));
    }
}

QVariant CapabilityTableModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o == Qt::Horizontal && role == Qt::ToolTipRole) {
        switch (section) {
        case Gc: return tr("Collecting: inside its collections (the leaders' GC_START..GC_END, the GC time of +RTS -s)");
        case GcWait: return tr("Stopped for a collection that had not begun yet (waiting for the others to stop); not GC");
        case Parked:
            return tr("Stopped after a collection ended, until its own GC_END: its OS thread had not run again (an"
                      " idle capability's sleeps until the next collection); not GC");
        default: return {};
        }
    }
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, o, role);
    static const char* const names[] = {"Cap", "Running", "GC", "GC wait", "Parked", "Idle", "Runs", "Sparks created",
                                        "Converted", "Overflowed", "Dud", "GC'd", "Fizzled"};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

void GcTableModel::follow(const LogDocument* doc)
{
    connect(doc, &LogDocument::cleared, this, [this] { setIndex(nullptr); });
    connect(doc, &LogDocument::indexChanged, this, [this](const IndexChange& c) { setIndex(c.index); });
}

void setUpTable(QTableView* view, QAbstractItemModel* model, bool sortsItself)
{
    if (sortsItself) {
        view->setModel(model);
    } else {
        auto* proxy = new QSortFilterProxyModel(view);
        proxy->setSourceModel(model);
        proxy->setSortRole(kSortRole);
        view->setModel(proxy);
    }
    view->setSortingEnabled(true);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setAlternatingRowColors(true);
    view->verticalHeader()->hide();
    view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 4);
    view->horizontalHeader()->setStretchLastSection(true);
    auto fit = [view] {
        QHeaderView* header = view->horizontalHeader();
        const QFontMetrics fm(header->font());
        for (int i = 0; i < header->count(); ++i) {
            const QString title = view->model()->headerData(i, Qt::Horizontal).toString();
            const int needed = fm.horizontalAdvance(title) + 28;
            if (header->sectionSize(i) < needed)
                header->resizeSection(i, needed);
        }
    };
    QObject::connect(view->model(), &QAbstractItemModel::headerDataChanged, view, fit);
    QObject::connect(view->model(), &QAbstractItemModel::modelReset, view, fit);
    fit();
}

} // namespace hecscope
