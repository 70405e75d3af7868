#include "ui/threads/threadrowscontroller.h"

#include <QMenu>

#include "ui/document/logdocument.h"
#include "ui/jobs/settings.h"

#include <QRegularExpression>

#include <algorithm>

namespace hecscope {

QString ThreadRowsController::sortName(Sort s)
{
    switch (s) {
    case Sort::Id: return tr("id");
    case Sort::Creation: return tr("creation");
    case Sort::Label: return tr("label");
    case Sort::RunTime: return tr("run time");
    case Sort::BlockedTime: return tr("blocked time");
    case Sort::RunnableTime: return tr("runnable time");
    }
    return {};
}

ThreadRowsController::ThreadRowsController(QObject* parent)
    : QObject(parent)
{
    m_sort = Sort(std::clamp(Settings::value(QStringLiteral("threads/sort"), 0).toInt(), 0, int(Sort::RunnableTime)));
    m_visibleRows = std::clamp(Settings::value(QStringLiteral("threads/rows"), 16).toInt(), 1, 200);
    m_collapsed = Settings::value(QStringLiteral("threads/collapsed"), false).toBool();
    publish();
}

void ThreadRowsController::setIndex(std::shared_ptr<const LogIndex> index)
{
    m_runner.cancel();
    m_busy = false;
    m_index = std::move(index);
    m_spans = m_index ? m_index->userSpans : nullptr;
    m_whole = std::make_shared<const std::vector<ThreadFigures>>();
    m_order.clear();
    m_pinned.clear();
    m_chosen.reset();
    m_first = 0;
    if (m_index) {
        // Until the sorted order arrives: every thread by id.
        m_order.resize(m_index->threadStates.count());
        for (size_t k = 0; k < m_order.size(); ++k)
            m_order[k] = uint32_t(k);
    }
    publish();
    reorder();
}

void ThreadRowsController::setSort(Sort s)
{
    if (s == m_sort)
        return;
    m_sort = s;
    Settings::setValue(QStringLiteral("threads/sort"), int(s));
    reorder();
}

void ThreadRowsController::setFilter(const QString& pattern)
{
    if (pattern == m_filter)
        return;
    m_filter = pattern;
    reorder();
}

void ThreadRowsController::setVisibleRows(int rows)
{
    rows = std::clamp(rows, 1, 200);
    if (rows == m_visibleRows)
        return;
    m_visibleRows = rows;
    Settings::setValue(QStringLiteral("threads/rows"), rows);
    publish();
}

void ThreadRowsController::setCollapsed(bool collapsed)
{
    if (collapsed == m_collapsed)
        return;
    m_collapsed = collapsed;
    Settings::setValue(QStringLiteral("threads/collapsed"), collapsed);
    publish();
}

void ThreadRowsController::scrollBy(int rows)
{
    const size_t shown = size_t(std::max(1, m_visibleRows));
    const size_t maxFirst = m_order.size() > shown ? m_order.size() - shown : 0;
    const int64_t next = std::clamp<int64_t>(int64_t(m_first) + rows, 0, int64_t(maxFirst));
    if (size_t(next) == m_first)
        return;
    m_first = size_t(next);
    publish();
}

void ThreadRowsController::setPinned(uint32_t thread, bool pinned)
{
    const auto it = std::find(m_pinned.begin(), m_pinned.end(), thread);
    if (pinned == (it != m_pinned.end()))
        return;
    if (pinned)
        m_pinned.push_back(thread);
    else
        m_pinned.erase(it);
    publish();
}

bool ThreadRowsController::isPinned(uint32_t thread) const
{
    return std::find(m_pinned.begin(), m_pinned.end(), thread) != m_pinned.end();
}

void ThreadRowsController::choose(std::optional<uint32_t> thread)
{
    m_chosen = thread;
    if (thread) {
        const auto it = std::find(m_order.begin(), m_order.end(), *thread);
        if (it != m_order.end()) {
            const size_t row = size_t(it - m_order.begin());
            const size_t shown = size_t(std::max(1, m_visibleRows));
            if (row < m_first || row >= m_first + shown)
                m_first = row >= shown / 2 ? row - shown / 2 : 0;
            const size_t maxFirst = m_order.size() > shown ? m_order.size() - shown : 0;
            m_first = std::min(m_first, maxFirst);
        }
    }
    publish();
}

void ThreadRowsController::setSpans(std::shared_ptr<const UserSpans> spans)
{
    m_spans = std::move(spans);
    publish();
}

void ThreadRowsController::publish()
{
    auto v = std::make_shared<ThreadRowsView>();
    v->indexSerial = m_index ? m_index->serial : 0;
    v->order = m_order;
    v->pinned = m_pinned;
    v->first = m_first;
    v->visibleRows = m_visibleRows;
    v->collapsed = m_collapsed;
    v->total = m_index ? m_index->threadStates.count() : 0;
    v->sortName = sortName(m_sort);
    v->filter = m_filter;
    v->chosen = m_chosen;
    v->spans = m_spans;
    v->owner = this;
    m_view = std::move(v);
    emit viewChanged(m_view);
}

// Whole-run figures (once per index, for sorting by time), then the
// filter and the sort, on a worker.
void ThreadRowsController::reorder()
{
    if (!m_index)
        return;
    m_filterError.clear();
    QRegularExpression re;
    if (!m_filter.isEmpty()) {
        re = QRegularExpression(m_filter, QRegularExpression::CaseInsensitiveOption);
        if (!re.isValid())
            m_filterError = re.errorString();
    }
    m_busy = true;
    struct Result {
        std::shared_ptr<const std::vector<ThreadFigures>> whole;
        std::vector<uint32_t> order;
    };
    m_runner.start(
        [index = m_index, whole = m_whole, sort = m_sort, re, filtering = !m_filter.isEmpty()](
            const JobContext& ctx) mutable {
            Result r;
            if (whole->empty())
                whole = std::make_shared<const std::vector<ThreadFigures>>(
                    allThreadFigures(*index, std::nullopt, [&ctx] { return ctx.isCancelled(); }));
            const std::vector<ThreadFigures>& figures = *whole;
            r.order.reserve(figures.size());
            for (const ThreadFigures& f : figures) {
                if (filtering) {
                    if (!re.isValid())
                        continue;
                    const QString label = QString::fromUtf8(f.label.data(), qsizetype(f.label.size()));
                    if (!re.match(label).hasMatch() && !re.match(QString::number(f.id)).hasMatch())
                        continue;
                }
                r.order.push_back(uint32_t(f.number));
            }
            const auto key = [&](auto get, bool descending) {
                std::stable_sort(r.order.begin(), r.order.end(), [&](uint32_t a, uint32_t b) {
                    return descending ? get(figures[a]) > get(figures[b]) : get(figures[a]) < get(figures[b]);
                });
            };
            switch (sort) {
            case Sort::Id: break; // numbers are by id
            case Sort::Creation: key([](const ThreadFigures& f) { return f.created; }, false); break;
            case Sort::Label:
                key([](const ThreadFigures& f) { return std::pair(f.label.empty(), f.label); }, false);
                break;
            case Sort::RunTime: key([](const ThreadFigures& f) { return f.running(); }, true); break;
            case Sort::BlockedTime: key([](const ThreadFigures& f) { return f.blockedTotal(); }, true); break;
            case Sort::RunnableTime: key([](const ThreadFigures& f) { return f.runnable(); }, true); break;
            }
            r.whole = std::move(whole);
            return r;
        },
        [this](Result r) {
            m_busy = false;
            m_whole = std::move(r.whole);
            m_order = std::move(r.order);
            const size_t shown = size_t(std::max(1, m_visibleRows));
            m_first = std::min(m_first, m_order.size() > shown ? m_order.size() - shown : 0);
            publish();
            emit orderChanged();
        });
}

void ThreadRowsController::follow(const LogDocument* doc)
{
    connect(doc, &LogDocument::cleared, this, [this] { setIndex(nullptr); });
    connect(doc, &LogDocument::indexChanged, this, [this](const IndexChange& c) { setIndex(c.index); });
}

void ThreadRowsController::pick(uint32_t thread, bool filterEvents)
{
    if (!m_index || thread >= m_index->threadStates.count())
        return;
    choose(thread);
    emit threadPicked(thread, filterEvents);
}

void ThreadRowsController::addThreadActions(QMenu& menu, uint32_t thread)
{
    if (!m_index || thread >= m_index->threadStates.count())
        return;
    const bool pinned = isPinned(thread);
    menu.addSection(threadName(*m_index, m_index->threadStates.ids[thread]));
    menu.addAction(pinned ? tr("Unpin") : tr("Pin next to the capabilities"), this,
                   [this, thread, pinned] { setPinned(thread, !pinned); });
    menu.addAction(tr("Show in the Threads pane and the event list"), this, [this, thread] {
        pick(thread, true);
        emit panesWanted(false);
    });
}

void ThreadRowsController::addRowsActions(QMenu& menu, std::optional<uint32_t> thread)
{
    if (thread)
        addThreadActions(menu, *thread);
    menu.addSeparator();
    QMenu* sort = menu.addMenu(tr("Sort rows by"));
    for (auto s : {Sort::Id, Sort::Creation, Sort::Label, Sort::RunTime, Sort::BlockedTime, Sort::RunnableTime}) {
        QAction* a = sort->addAction(sortName(s), this, [this, s] { setSort(s); });
        a->setCheckable(true);
        a->setChecked(m_sort == s);
    }
    menu.addAction(tr("Filter…"), this, [this] { emit panesWanted(true); });
    menu.addAction(m_collapsed ? tr("Expand") : tr("Collapse"), this, &ThreadRowsController::toggleCollapsed);
}

} // namespace hecscope
