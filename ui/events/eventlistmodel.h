#pragma once

#include "core/index/logindex.h"
#include "core/io/bytesource.h"
#include "core/query/eventquery.h"
#include "ui/jobs/jobrunner.h"

#include <QAbstractTableModel>
#include <QSet>

#include <list>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

namespace hecscope {

// Every event of a log in time order, as a table (time, capability, thread,
// type, details), without holding the events: rows are read from the file
// in pages through the index's sparse event index, on worker threads, and
// show "…" until their page arrives. With a filter, a background scan
// collects the positions of the matching events and rows appear as it
// finds them. The UI thread never reads the file.
class EventListModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { TimeColumn,
                  CapColumn,
                  ThreadColumn,
                  TypeColumn,
                  DetailsColumn,
                  ColumnCount };
    static constexpr int kPageRows = 128;
    static constexpr size_t kMaxMatches = 10'000'000; // 160 MB of matches at most

    explicit EventListModel(QObject* parent = nullptr);
    ~EventListModel() override;

    // Rows are read from `source`, the open file the index was made from,
    // shared by every worker (never reopened by path).
    void setLog(std::shared_ptr<ByteSource> source, std::shared_ptr<const LogIndex> index);
    // Opens `path` here (tests and tools; the window passes the load's source).
    void setLog(const QString& path, std::shared_ptr<const LogIndex> index);
    // `path` opened for reading; null when it cannot be (or is empty).
    static std::shared_ptr<ByteSource> openSource(const QString& path);
    // With `highlight`, every event stays listed and the matching ones are
    // marked (BackgroundRole) for nextMatch to step through; else only the
    // matching events are listed.
    void setFilter(const EventFilter& filter, bool highlight = false);
    bool isHighlighting() const { return m_highlight && !m_filter.empty(); }
    // Matches found so far (the rows, when filtering).
    size_t matchCount() const { return m_matches.size(); }
    // Whether `row` is a match (every row, when filtering).
    bool isMatch(int row) const;
    // The next (or previous) matching row after `row` (-1: before the
    // first); when filtering, the neighbouring row.
    std::optional<int> nextMatch(int row, bool forward) const;
    const EventFilter& filter() const { return m_filter; }
    bool isScanning() const { return m_scanning; }
    // The event of a row once its page has arrived.
    const EventRow* eventAt(int row) const;
    // Asks for the row of the event nearest to time `t` (at or after it,
    // else the last before it); answered by rowForTimeFound.
    // With `cap`: the event at exactly `t` on that capability when there is
    // one (a run's own RUN_THREAD, not another capability's event at the
    // same moment), else as without. A later call supersedes one whose
    // answer has not arrived.
    void findRowAt(uint64_t t, std::optional<uint16_t> cap = std::nullopt);
    // Waits for background work (tests and shutdown).
    void waitForIdle();

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

signals:
    void scanFinished(quint64 matches, bool truncated);
    void rowForTimeFound(int row);

private:
    struct Match {
        uint64_t position; // in time order
        uint64_t time;     // ns: where a page's re-scan starts
    };
    struct Shared; // what the workers read: path, index, time order
    struct Page {
        std::vector<EventRow> rows;
    };
    void requestPage(qint64 page) const;
    void pageArrived(qint64 page, std::shared_ptr<Page> rows);
    void matchesArrived(std::vector<Match> matches, bool done, bool truncated);
    void reset();

    std::shared_ptr<Shared> m_shared;
    bool listsMatches() const { return !m_filter.empty() && !m_highlight; }

    EventFilter m_filter;
    bool m_highlight = false;
    std::vector<Match> m_matches; // filtered: the matching events in time order
    bool m_scanning = false;
    // Finds run side by side: only the latest one's answer selects a row
    // (a click asks for the nearest event, then for the run's own event).
    uint64_t m_finds = 0;
    mutable std::unordered_map<qint64, std::shared_ptr<Page>> m_pages;
    mutable std::list<qint64> m_lru;
    mutable QSet<qint64> m_pending;
    // One thread for a filter scan, one for pages and lookups; a new log or
    // filter starts a new generation. Last member: destroyed first.
    mutable JobRunner m_jobs{2};
};

} // namespace hecscope
