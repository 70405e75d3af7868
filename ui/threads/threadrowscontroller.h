#pragma once

#include "core/index/logindex.h"
#include "core/threads/threadstats.h"
#include "ui/jobs/jobrunner.h"
#include "ui/threads/threadrows.h"

#include <QObject>
#include <QString>

#include <memory>
#include <optional>
#include <vector>

class QMenu;

namespace hecscope {

class LogDocument;

// Owns what the Threads track shows: the order of the thread rows (sorted
// and filtered off the UI thread), the window of rows in sight, the pinned
// threads, the chosen one and the spans drawn on them; hands the renderer
// an immutable ThreadRowsView after every change. UI thread.
class ThreadRowsController : public QObject {
    Q_OBJECT
public:
    enum class Sort { Id, Creation, Label, RunTime, BlockedTime, RunnableTime };
    static QString sortName(Sort s);

    explicit ThreadRowsController(QObject* parent = nullptr);

    void setIndex(std::shared_ptr<const LogIndex> index);
    void follow(const LogDocument* doc); // the document's log, as it changes
    std::shared_ptr<const ThreadRowsView> view() const { return m_view; }

    void setSort(Sort s);
    Sort sort() const { return m_sort; }
    // A regular expression over labels and ids ("worker-\d+", "17");
    // case-insensitive. An invalid one matches nothing and says why.
    void setFilter(const QString& pattern);
    QString filterError() const { return m_filterError; }
    void setVisibleRows(int rows);
    void setCollapsed(bool collapsed);
    void toggleCollapsed() { setCollapsed(!m_collapsed); }
    // Scrolls the window of rows (positive: down).
    void scrollBy(int rows);
    void setPinned(uint32_t thread, bool pinned);
    bool isPinned(uint32_t thread) const;
    // Highlights a thread (by number) and scrolls its row into sight; a
    // thread filtered out is not shown but stays chosen.
    void choose(std::optional<uint32_t> thread);
    // A thread picked on a track or in a pane (by number): chosen here, and
    // said to whoever follows (threadPicked: the Threads pane selects it;
    // with `filterEvents`, the event list shows its events only).
    void pick(uint32_t thread, bool filterEvents);
    // A thread's actions on a track's context menu: pin or unpin it, show
    // it in the panes.
    void addThreadActions(QMenu& menu, uint32_t thread);
    // The Threads track's own menu: a thread's actions (if `thread`), the
    // sort, the filter, collapse.
    void addRowsActions(QMenu& menu, std::optional<uint32_t> thread);
    void setSpans(std::shared_ptr<const UserSpans> spans);
    // Whole-run figures of every thread (by number), once computed
    // (shared: a worker may read them while the next index's are made).
    const std::vector<ThreadFigures>& wholeRun() const { return *m_whole; }
    std::shared_ptr<const std::vector<ThreadFigures>> wholeRunShared() const { return m_whole; }
    // True while a new order is being computed.
    bool busy() const { return m_busy; }
    // The filter and index of the order published next (busy) or now.
    const QString& pendingFilter() const { return m_filter; }
    const std::shared_ptr<const LogIndex>& pendingIndex() const { return m_index; }

signals:
    void viewChanged(std::shared_ptr<const hecscope::ThreadRowsView> view);
    void threadPicked(uint32_t thread, bool filterEvents);
    // The user asked for the Threads pane (with the event list, showing a
    // thread; or its filter field, to filter the rows).
    void panesWanted(bool filterField);
    void orderChanged(); // a new filtered order arrived

private:
    void reorder();
    void publish();

    std::shared_ptr<const LogIndex> m_index;
    std::shared_ptr<const UserSpans> m_spans;
    std::shared_ptr<const std::vector<ThreadFigures>> m_whole = std::make_shared<const std::vector<ThreadFigures>>();
    std::vector<uint32_t> m_order;
    std::vector<uint32_t> m_pinned;
    Sort m_sort = Sort::Id;
    QString m_filter, m_filterError;
    size_t m_first = 0;
    int m_visibleRows = 16;
    bool m_collapsed = false;
    bool m_busy = false;
    std::optional<uint32_t> m_chosen;
    std::shared_ptr<const ThreadRowsView> m_view;
    JobRunner m_runner; // last: destroyed first
};

} // namespace hecscope
