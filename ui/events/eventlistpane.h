#pragma once

#include "core/index/logindex.h"
#include "core/io/bytesource.h"
#include "core/query/eventquery.h"

#include <QWidget>

#include <functional>
#include <memory>
#include <optional>
#include <utility>

class QComboBox;
class QLabel;
class QLineEdit;
class QTimer;
class QToolButton;

namespace hecscope {

class LogDocument;

class EventListModel;
class EventTableView;

// The event list with its filters: a search box (event text, type names,
// thread labels), event type, capability and thread. Next/previous step
// through the listed events; choosing one reports its time.
class EventListPane : public QWidget {
    Q_OBJECT
public:
    explicit EventListPane(QWidget* parent = nullptr);

    // Rows are read from `source`, the open file of the load (see EventListModel).
    void setLog(std::shared_ptr<ByteSource> source, std::shared_ptr<const LogIndex> index);
    // Shows the document's log as it changes; a live log's newest events
    // stay in sight while `followNewest()` says so.
    void follow(const LogDocument* doc, std::function<bool()> followNewest);
    // Opens `path` here (tests and tools).
    void setLog(const QString& path, std::shared_ptr<const LogIndex> index);
    // The same log, grown (a live session, or a long load's index after a
    // partial one): the filters, the scroll position and the chosen event
    // (found again by its time and capability: rows move as events arrive)
    // stay; `toEnd` scrolls to the newest events instead.
    void updateLog(std::shared_ptr<ByteSource> source, std::shared_ptr<const LogIndex> index, bool toEnd);
    EventListModel* model() const { return m_model; }
    EventTableView* table() const { return m_table; }
    QLineEdit* searchField() const { return m_search; }
    QLineEdit* threadField() const { return m_thread; }
    QToolButton* highlightButton() const { return m_highlight; }
    // Shown while any filter is on: clears them all, in one click.
    QToolButton* clearFiltersButton() const { return m_clear; }
    // The count, and while filtered which filters are on (a thread chosen
    // elsewhere over an old search: the status names both).
    QString statusText() const;
    // Search text, type, capability and thread: every filter off.
    void clearFilters();
    // Selects the event nearest to time `t` (asynchronously), without
    // reporting it back as a choice.
    void selectNearest(uint64_t t);
    // Selects the event at `t` on capability `cap` (a run's own event), else
    // the nearest; without reporting it back.
    void selectEventOn(uint64_t t, uint16_t cap);
    void next();
    void previous();
    void applyFilter();
    // Lists only the events of thread `id` (the thread box says so).
    void filterToThread(uint32_t id);
    // What Details shows of an event: type, time, capability, thread (with
    // its label) and the event's text.
    QString describe(const EventRow& e) const;

signals:
    // A row chosen by the user: its time and a description for Details.
    void eventChosen(uint64_t time, const QString& details);

private:
    void selectRow(int row, bool report);
    void updateStatus();
    QString filterNames() const; // the filters on, as the status names them

    EventListModel* m_model;
    EventTableView* m_table;
    int m_awaiting = -1; // a chosen row whose page has not arrived
    QLineEdit* m_search;
    QComboBox* m_type;
    QComboBox* m_cap;
    QLineEdit* m_thread;
    QToolButton* m_highlight; // checked: matches are marked in the whole list, not filtered
    QLabel* m_status;
    QToolButton* m_clear;
    QString m_threadNote;  // which threads the thread box's label expression chose, or why none
    QString m_threadError; // the thread box holds neither an id nor a valid expression
    QTimer* m_debounce;
    std::shared_ptr<const LogIndex> m_index;
    bool m_reporting = true;
    bool m_truncated = false; // the last scan stopped at EventListModel::kMaxMatches
    // The chosen event of the list before updateLog, found again once a
    // filter's scan has finished (its row is not known before).
    std::optional<std::pair<uint64_t, uint16_t>> m_reselect;
};

} // namespace hecscope
