#include "ui/events/eventlistmodel.h"

#include "core/io/bytesource.h"
#include "ui/formatting.h"
#include "core/order/timeorder.h"

#include <QColor>
#include <QCoreApplication>
#include <QMetaObject>

#include <algorithm>
#include <climits>

namespace hecscope {

namespace {

constexpr size_t kMaxCachedPages = 256;

// Turns delivered events into rows; positions count on from `first`, or
// come from the caller for single-event visits.
class RowSink final : public EventSink {
public:
    RowSink(std::vector<EventRow>& out, const EventPrinter& printer, const LogIndex& index)
        : m_out(out)
        , m_printer(printer)
        , m_index(index)
    {
    }
    void onEvent(const Event& e) override
    {
        m_out.push_back(eventRow(e, position++, m_printer, *m_index.scan.format, &m_index));
    }
    uint64_t position = 0;

private:
    std::vector<EventRow>& m_out;
    const EventPrinter& m_printer;
    const LogIndex& m_index;
};

} // namespace

struct EventListModel::Shared {
    std::shared_ptr<ByteSource> source;
    std::shared_ptr<const LogIndex> index;
    std::unique_ptr<TimeOrder> order;
    std::unique_ptr<EventPrinter> printer;
};

EventListModel::EventListModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

EventListModel::~EventListModel() = default; // m_jobs cancels and waits

void EventListModel::waitForIdle()
{
    m_jobs.waitForDone();
}

void EventListModel::reset()
{
    m_jobs.cancel(); // running scans stop at their next batch
    m_pages.clear();
    m_lru.clear();
    m_pending.clear();
    m_matches.clear();
    m_scanning = false;
}

std::shared_ptr<ByteSource> EventListModel::openSource(const QString& path)
{
    std::string error;
    return path.isEmpty() ? nullptr : std::shared_ptr<ByteSource>(FileSource::open(path.toStdString(), error));
}

void EventListModel::setLog(const QString& path, std::shared_ptr<const LogIndex> index)
{
    setLog(openSource(path), std::move(index));
}

void EventListModel::setLog(std::shared_ptr<ByteSource> source, std::shared_ptr<const LogIndex> index)
{
    beginResetModel();
    reset();
    m_shared.reset();
    if (source && index && index->scan.format) {
        auto shared = std::make_shared<Shared>();
        shared->source = std::move(source);
        shared->index = std::move(index);
        shared->order = std::make_unique<TimeOrder>(shared->index->scan);
        shared->printer = std::make_unique<EventPrinter>(*shared->index->scan.format);
        m_shared = std::move(shared);
    }
    endResetModel();
    if (!m_filter.empty())
        setFilter(m_filter, m_highlight);
}

void EventListModel::setFilter(const EventFilter& filter, bool highlight)
{
    beginResetModel();
    reset();
    m_filter = filter;
    m_highlight = highlight;
    endResetModel();
    if (!m_shared || filter.empty())
        return;
    m_scanning = true;
    auto shared = m_shared;
    m_jobs.run([this, shared, filter](const JobContext& ctx) {
        ByteSource* source = shared->source.get();
        EventMatcher match(filter, *shared->index);
        uint64_t from = 0, found = 0;
        std::optional<uint64_t> lastPosition;
        uint64_t batch = 4096;
        bool truncated = false;
        while (!ctx.isCancelled()) {
            std::vector<Match> positions;
            uint64_t lastTime = from;
            const uint64_t delivered = shared->order->find(
                *source, from, [&](const Event& e) { return match(e); },
                [&](const Event& e, uint64_t position) {
                    lastTime = e.time;
                    // Resuming at the last time found re-delivers its ties.
                    if (!lastPosition || position > *lastPosition) {
                        positions.push_back({position, e.time});
                        lastPosition = position;
                    }
                },
                batch, filter.tagHint());
            found += positions.size();
            if (found > kMaxMatches) {
                positions.resize(positions.size() - size_t(found - kMaxMatches));
                truncated = true;
            }
            const bool done = delivered < batch || truncated;
            ctx.post([this, positions = std::move(positions), done, truncated]() mutable {
                matchesArrived(std::move(positions), done, truncated);
            });
            if (done)
                return 0;
            if (lastTime == from)
                batch *= 2; // a batch of ties on one time: read further next time
            from = lastTime;
        }
        return 0;
    }, [](int) {});
}

void EventListModel::matchesArrived(std::vector<Match> positions, bool done, bool truncated)
{
    const size_t room = size_t(INT_MAX) - m_matches.size();
    if (positions.size() > room)
        positions.resize(room);
    if (m_highlight && !positions.empty()) { // every row stays: the matches are marked
        const int first = int(std::min<uint64_t>(positions.front().position, INT_MAX));
        const int last = int(std::min<uint64_t>(positions.back().position, INT_MAX));
        m_matches.insert(m_matches.end(), positions.begin(), positions.end());
        emit dataChanged(index(first, 0), index(last, ColumnCount - 1), {Qt::BackgroundRole});
    } else if (!positions.empty()) {
        beginInsertRows({}, int(m_matches.size()), int(m_matches.size() + positions.size() - 1));
        m_matches.insert(m_matches.end(), positions.begin(), positions.end());
        endInsertRows();
    }
    if (done) {
        m_scanning = false;
        emit scanFinished(m_matches.size(), truncated);
    }
}

int EventListModel::rowCount(const QModelIndex& parent) const
{
    if (parent.isValid() || !m_shared)
        return 0;
    if (listsMatches())
        return int(m_matches.size());
    return int(std::min<uint64_t>(m_shared->index->scan.events, INT_MAX));
}

int EventListModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

void EventListModel::requestPage(qint64 page) const
{
    if (!m_shared || m_pending.contains(page))
        return;
    m_pending.insert(page);
    auto shared = m_shared;
    const qint64 first = page * kPageRows;
    // Filtered pages re-run the filter from the page's first match: one
    // pass over that stretch of the log rather than a lookup per row.
    std::optional<EventFilter> filter;
    Match from{};
    uint64_t lastPosition = 0, limit = 0;
    if (listsMatches()) {
        const size_t end = std::min(m_matches.size(), size_t(first + kPageRows));
        if (size_t(first) >= end) {
            m_pending.remove(page);
            return;
        }
        filter = m_filter;
        from = m_matches[size_t(first)];
        lastPosition = m_matches[end - 1].position;
        // Matches at the same time before the page come first: count them in.
        size_t ties = 0;
        for (size_t i = size_t(first); i > 0 && m_matches[i - 1].time == from.time; --i)
            ++ties;
        limit = end - size_t(first) + ties;
    }
    auto* self = const_cast<EventListModel*>(this);
    m_jobs.run([shared, first, filter, from, lastPosition, limit](const JobContext&) {
        auto rows = std::make_shared<Page>();
        if (ByteSource* source = shared->source.get()) {
            RowSink sink(rows->rows, *shared->printer, *shared->index);
            if (!filter) {
                sink.position = uint64_t(first);
                shared->order->visitRange(*source, sink, uint64_t(first), kPageRows);
            } else {
                EventMatcher match(*filter, *shared->index);
                shared->order->find(
                    *source, from.time, [&](const Event& e) { return match(e); },
                    [&](const Event& e, uint64_t position) {
                        if (position >= from.position && position <= lastPosition) {
                            sink.position = position;
                            sink.onEvent(e);
                        }
                    },
                    limit, filter->tagHint());
            }
        }
        return rows;
    }, [self, page](std::shared_ptr<Page> rows) { self->pageArrived(page, std::move(rows)); });
}

void EventListModel::pageArrived(qint64 page, std::shared_ptr<Page> rows)
{
    m_pending.remove(page);
    m_pages[page] = std::move(rows);
    m_lru.push_front(page);
    while (m_lru.size() > kMaxCachedPages) {
        m_pages.erase(m_lru.back());
        m_lru.pop_back();
    }
    const int first = int(page * kPageRows);
    const int last = std::min(rowCount() - 1, first + kPageRows - 1);
    if (first <= last)
        emit dataChanged(index(first, 0), index(last, ColumnCount - 1));
}

const EventRow* EventListModel::eventAt(int row) const
{
    const qint64 page = row / kPageRows;
    const auto it = m_pages.find(page);
    if (it == m_pages.end())
        return nullptr;
    const size_t i = size_t(row % kPageRows);
    return i < it->second->rows.size() ? &it->second->rows[i] : nullptr;
}

QVariant EventListModel::data(const QModelIndex& ix, int role) const
{
    if (!ix.isValid() || ix.row() >= rowCount() || ix.column() >= ColumnCount)
        return {};
    if (role == Qt::BackgroundRole) // known before the row's page arrives
        return m_highlight && isMatch(ix.row()) ? QVariant(QColor(0xff, 0xe0, 0x82)) : QVariant();
    if (role == Qt::ForegroundRole) // readable on that in a dark theme too
        return m_highlight && isMatch(ix.row()) ? QVariant(QColor(Qt::black)) : QVariant();
    if (role == Qt::TextAlignmentRole)
        return ix.column() <= ThreadColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole && role != Qt::UserRole)
        return {};
    const EventRow* e = eventAt(ix.row());
    if (!e) {
        requestPage(ix.row() / kPageRows);
        return role == Qt::DisplayRole && ix.column() == TimeColumn ? QVariant(QStringLiteral("…")) : QVariant();
    }
    if (role == Qt::UserRole)
        return QVariant::fromValue<qulonglong>(e->time);
    if (role == Qt::ToolTipRole)
        return ix.column() == DetailsColumn ? QVariant(QString::fromStdString(e->details)) : QVariant();
    switch (ix.column()) {
    case TimeColumn: return timeText(e->time);
    case CapColumn: return e->cap == kNoCap ? QStringLiteral("–") : QString::number(e->cap);
    case ThreadColumn: return e->thread ? QString::number(*e->thread) : QString();
    case TypeColumn: return QString::fromStdString(e->type);
    case DetailsColumn: return QString::fromStdString(e->details);
    }
    return {};
}

QVariant EventListModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, o, role);
    switch (section) {
    case TimeColumn: return tr("Time");
    case CapColumn: return tr("Cap");
    case ThreadColumn: return tr("Thread");
    case TypeColumn: return tr("Event");
    case DetailsColumn: return tr("Details");
    }
    return {};
}

void EventListModel::findRowAt(uint64_t t, std::optional<uint16_t> cap)
{
    if (!m_shared)
        return;
    auto shared = m_shared;
    const uint64_t find = ++m_finds;
    m_jobs.run([shared, t, cap](const JobContext&) {
                   uint64_t position = shared->order->countBefore(*shared->source, t);
                   if (cap) // the first event at t on that capability; the search stops past t
                       shared->order->find(
                           *shared->source, t, [&](const Event& e) { return e.cap == *cap || e.time > t; },
                           [&](const Event& e, uint64_t at) {
                               if (e.cap == *cap && e.time == t)
                                   position = at;
                           },
                           1);
                   return position;
               },
               [this, find](uint64_t before) {
                if (rowCount() == 0 || find != m_finds)
                    return;
                uint64_t row = before;
                if (listsMatches())
                    row = uint64_t(std::lower_bound(m_matches.begin(), m_matches.end(), before,
                                                    [](const Match& m, uint64_t p) { return m.position < p; })
                                   - m_matches.begin());
                emit rowForTimeFound(int(std::min<uint64_t>(row, uint64_t(rowCount() - 1))));
            });
}

bool EventListModel::isMatch(int row) const
{
    if (!m_highlight)
        return listsMatches();
    const auto it = std::lower_bound(m_matches.begin(), m_matches.end(), uint64_t(row),
                                     [](const Match& m, uint64_t p) { return m.position < p; });
    return it != m_matches.end() && it->position == uint64_t(row);
}

std::optional<int> EventListModel::nextMatch(int row, bool forward) const
{
    if (!m_highlight) {
        const int next = forward ? row + 1 : row - 1;
        return next >= 0 && next < rowCount() ? std::optional<int>(next) : std::nullopt;
    }
    const auto it = std::upper_bound(m_matches.begin(), m_matches.end(), int64_t(row),
                                     [](int64_t r, const Match& m) { return r < int64_t(m.position); });
    if (forward)
        return it == m_matches.end() ? std::nullopt : std::optional<int>(int(it->position));
    auto before = std::lower_bound(m_matches.begin(), m_matches.end(), int64_t(row),
                                   [](const Match& m, int64_t r) { return int64_t(m.position) < r; });
    return before == m_matches.begin() ? std::nullopt : std::optional<int>(int(std::prev(before)->position));
}

} // namespace hecscope
