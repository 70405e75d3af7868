#include "core/threads/userspans.h"
#include "ui/threads/threadrows.h"
#include "ui/threads/threadrowscontroller.h"
#include "ui/timeline/legendwriter.h"
#include "ui/timeline/timelinerenderer.h"
#include "ui/timeline/tracks/trackresources.h"

#include <QFontMetrics>
#include <QObject>
#include <QPainter>

#include <algorithm>

namespace hecscope {

namespace {

// The shown rows of a ThreadRowsView, prepared for one (view, width).
struct ThreadsList final : DrawList {
    std::shared_ptr<const ThreadRowsView> rows;
    std::vector<PreparedThreadRow> prepared; // one per shown row, top to bottom
};

// A ThreadsList's rows, prepared on a worker and the painting thread: a
// unit a row. The detail (what was read back, what is wanted) is looked
// up before, on the painting thread.
struct ThreadRowsWork final : SharedWork {
    ThreadRowsWork(std::shared_ptr<const LogIndex> ix, std::shared_ptr<ThreadsList> l, std::vector<uint32_t> t,
                   ViewRange v, int w, RowsDetail d)
        : SharedWork(t.size()), index(std::move(ix)), list(std::move(l)), threads(std::move(t)), view(v), width(w),
          detail(std::move(d))
    {
        list->prepared.resize(threads.size());
    }
    void unit(size_t i) override
    {
        list->prepared[i] = prepareThreadRow(*index, list->rows->spans.get(), threads[i], view, width, detail);
    }
    std::shared_ptr<const LogIndex> index;
    std::shared_ptr<ThreadsList> list;
    std::vector<uint32_t> threads;
    ViewRange view;
    int width;
    RowsDetail detail;
};

// One row per Haskell thread: its state over time (running on which
// capability, runnable, blocked and why, finished), marks for creation,
// wake-ups and migrations, and its user spans. For 100,000 threads: the
// track shows a window of rows (ThreadRowsView::first, visibleRows) and
// prepares only those; the wheel over the names scrolls it.
class ThreadsTrack final : public TimelineTrack {
public:
    static constexpr int kNameMargins = 16; // 10 before a name, 6 after (the scroll bar)
    QString id() const override { return QStringLiteral("threads"); }
    QString title() const override { return QObject::tr("Threads"); }
    QString menuText() const override { return QObject::tr("T&hreads"); }
    QString rowLabel(const TrackContext&, int) const override { return {}; } // painted per thread row
    // Its title, and the names (indented by 10, a scroll bar of 6 at the
    // right; bold, as the chosen thread's).
    int labelWidth(const TrackContext& ctx, const QFont& font) const override
    {
        QFont bold = font;
        bold.setBold(true);
        return std::max(QFontMetrics(font).horizontalAdvance(QStringLiteral("▾ ") + title()) + 10,
                        threadNamesWidth(ctx.index, QFontMetrics(bold)) + kNameMargins);
    }
    QString labelTip(const TrackRowGeometry& g, QPoint pos, const TrackContext& ctx,
                     const QFontMetrics& fm) const override
    {
        const auto rows = ctx.resources.threadRows(ctx.options);
        const int y = pos.y() - g.rect.top() - ThreadRowsView::kHeaderHeight;
        const auto thread = y < 0 ? std::nullopt : rows->threadAtRow(y / ThreadRowsView::kRowHeight);
        if (!thread || *thread >= ctx.index.threadStates.count())
            return {};
        const QString name = threadName(ctx.index, ctx.index.threadStates.ids[*thread]);
        return displayedLabel(name, fm, g.plot.left() - g.rect.left() - kNameMargins) == name ? QString() : name;
    }

    int rowHeight(const TrackContext& ctx) const override
    {
        const auto rows = ctx.resources.threadRows(ctx.options);
        return ThreadRowsView::kHeaderHeight + rows->shownRows() * ThreadRowsView::kRowHeight;
    }
    bool stretches(const TrackContext&) const override { return false; } // bars of fixed pixels
    // As many thread rows as fit, from the same first row when they all
    // can be shown, else ending at the last.
    void fitHeight(RenderOptions& o, const TrackContext& ctx, int height) const override
    {
        auto v = std::make_shared<ThreadRowsView>(*ctx.resources.threadRows(ctx.options));
        v->visibleRows = std::max(1, (height - ThreadRowsView::kHeaderHeight) / ThreadRowsView::kRowHeight);
        v->first = std::min(v->first, v->order.size() - std::min(v->order.size(), size_t(v->visibleRows)));
        o.states.set<ThreadRowsView>(std::move(v));
    }
    // The rows shown, and the windows of segments read back so far.
    const void* variant(const TrackContext& ctx) const override { return ctx.resources.threadRowsVariant(ctx.options); }

    // The rows' preparing, begun on a worker: the rows before this track's
    // are painted meanwhile.
    bool prefetch(const TrackContext& ctx, ViewRange view, int width) const override
    {
        const void* v = variant(ctx);
        if (ctx.resources.preparing(this, view, width, v))
            return true;
        if (!ctx.resources.sharedIndex())
            return false;
        std::shared_ptr<ThreadRowsWork> work = begin(ctx, view, width);
        std::shared_ptr<const DrawList> list = work->list;
        ctx.resources.startPrepare(this, view, width, v, std::move(work), std::move(list));
        return true;
    }

    std::shared_ptr<const DrawList> prepare(const TrackContext& ctx, ViewRange view, int width) const override
    {
        if (auto list = ctx.resources.finishPrepare(this, view, width, variant(ctx)))
            return list;
        const std::shared_ptr<ThreadRowsWork> work = begin(ctx, view, width);
        work->work();
        return work->list;
    }

    // The rows shown and their detail, to be prepared.
    static std::shared_ptr<ThreadRowsWork> begin(const TrackContext& ctx, ViewRange view, int width)
    {
        auto list = std::make_shared<ThreadsList>();
        list->rows = ctx.resources.threadRows(ctx.options);
        const int shown = list->rows->shownRows();
        std::vector<uint32_t> threads;
        for (int r = 0; r < shown; ++r)
            if (const auto thread = list->rows->threadAtRow(r))
                threads.push_back(*thread);
        // (On a log of very many threads, what a window read for these
        // rows holds besides.)
        const std::vector<uint32_t> nearby = list->rows->nearbyRows();
        RowsDetail detail = threadDetailFor(ctx.index, ctx.options.detail.get(), ctx.options.waitForDetail, threads,
                                            view, width, &ctx.resources.wantedThreads(), &nearby);
        // (An index of its own for the worker; none set: the empty one,
        // which outlives every paint.)
        std::shared_ptr<const LogIndex> index = ctx.resources.sharedIndex();
        if (!index)
            index = std::shared_ptr<const LogIndex>(std::shared_ptr<const LogIndex>(), &ctx.index);
        return std::make_shared<ThreadRowsWork>(std::move(index), std::move(list), std::move(threads), view, width,
                                                std::move(detail));
    }

    void paint(QPainter& p, const TrackRowGeometry& g, const DrawList& d, const TrackContext& ctx) const override
    {
        const auto& list = static_cast<const ThreadsList&>(d);
        const ThreadRowsView& v = *list.rows;
        const QPalette& pal = ctx.options.palette;
        const QRect header(g.rect.left(), g.rect.top(), g.rect.width(), ThreadRowsView::kHeaderHeight);
        p.fillRect(header, pal.color(QPalette::Window));
        p.setPen(pal.color(QPalette::WindowText));
        const int column = g.plot.left() - g.rect.left();
        ctx.resources.text().draw(p, QRect(header.left() + 4, header.top(), column - 6, header.height()),
                   Qt::AlignVCenter | Qt::AlignLeft,
                   (v.collapsed ? QStringLiteral("▸ ") : QStringLiteral("▾ ")) + title());
        QString summary;
        if (v.total == 0)
            summary = QObject::tr("no thread events in this log");
        else if (v.order.empty())
            summary = QObject::tr("no thread matches “%1” (of %2)").arg(v.filter).arg(v.total);
        else {
            summary = v.order.size() == v.total ? QObject::tr("%1 threads").arg(v.total)
                                                : QObject::tr("%1 of %2 threads match “%3”").arg(v.order.size()).arg(v.total).arg(v.filter);
            if (!v.collapsed && size_t(v.shownRows()) < v.order.size())
                summary += QObject::tr(", rows %1–%2").arg(v.first + 1).arg(v.first + size_t(v.shownRows()));
            summary += QObject::tr(", by %1").arg(v.sortName);
            if (!v.collapsed && size_t(v.shownRows()) < v.order.size())
                summary += QObject::tr(" · wheel over the names scrolls");
        }
        p.setPen(pal.color(QPalette::PlaceholderText));
        ctx.resources.text().draw(p, QRect(g.plot.left() + 6, header.top(), g.plot.width() - 8, header.height()),
                   Qt::AlignVCenter | Qt::AlignLeft, ctx.resources.text().elidedRight(p, summary, g.plot.width() - 8));
        for (size_t r = 0; r < list.prepared.size(); ++r) {
            const PreparedThreadRow& row = list.prepared[r];
            const int top = g.rect.top() + ThreadRowsView::kHeaderHeight + int(r) * ThreadRowsView::kRowHeight;
            const QRect plot(g.plot.left(), top, g.plot.width(), ThreadRowsView::kRowHeight);
            const bool chosen = v.chosen && *v.chosen == row.number;
            if (r % 2)
                p.fillRect(QRect(g.rect.left(), top, g.rect.width(), ThreadRowsView::kRowHeight),
                           pal.color(QPalette::AlternateBase));
            paintThreadRow(p, plot, row, pal, chosen);
            const ThreadStates& states = ctx.index.threadStates;
            const QString name = row.number < states.count() ? threadName(ctx.index, states.ids[row.number]) : QString();
            QFont f = p.font();
            f.setBold(chosen);
            p.setFont(f);
            p.setPen(pal.color(QPalette::Text));
            ctx.resources.text().draw(p, QRect(g.rect.left() + 10, top, column - kNameMargins, ThreadRowsView::kRowHeight),
                       Qt::AlignVCenter | Qt::AlignLeft, ctx.resources.text().displayedLabel(p, name, column - kNameMargins));
            f.setBold(false);
            p.setFont(f);
        }
        // Where the window of rows is in the whole list.
        if (!v.collapsed && size_t(v.shownRows()) < v.order.size() && !v.order.empty()) {
            const int h = v.shownRows() * ThreadRowsView::kRowHeight;
            const int top = g.rect.top() + ThreadRowsView::kHeaderHeight;
            const double scale = double(h) / double(v.order.size());
            const int y0 = top + int(double(v.first) * scale);
            const int len = std::max(6, int(double(v.shownRows()) * scale));
            QColor c = pal.color(QPalette::Mid);
            p.fillRect(QRect(g.plot.left() - 5, top, 3, h), pal.color(QPalette::Window));
            p.fillRect(QRect(g.plot.left() - 5, std::min(y0, top + h - len), 3, len), c);
        }
    }

    // The shown row under pos (its index in `prepared`), -1 for none.
    static int rowAt(const TrackRowGeometry& g, QPoint pos, const ThreadsList& list)
    {
        const int y = pos.y() - g.rect.top() - ThreadRowsView::kHeaderHeight;
        if (y < 0)
            return -1;
        const int r = y / ThreadRowsView::kRowHeight;
        return r < int(list.prepared.size()) ? r : -1;
    }

    std::optional<SelectedItem> itemAt(const TrackRowGeometry& g, QPoint pos, const DrawList& d,
                                       const TrackContext& ctx) const override
    {
        const auto& list = static_cast<const ThreadsList&>(d);
        const int r = rowAt(g, pos, list);
        if (r < 0)
            return std::nullopt;
        const int y = pos.y() - g.rect.top() - ThreadRowsView::kHeaderHeight - r * ThreadRowsView::kRowHeight;
        const PreparedThreadRow& row = list.prepared[size_t(r)];
        const auto hit = threadRowItemAt(ctx.index, list.rows->spans.get(), row, pos.x() - g.plot.left(), y,
                                         ThreadRowsView::kRowHeight);
        if (!hit)
            return std::nullopt;
        SelectedItem item{id(), -1, false, hit->first, hit->second, int64_t(row.number)};
        item.thread = row.number;
        return item;
    }

    QString describe(const TrackRowGeometry& g, QPoint pos, const DrawList& d, const TrackContext& ctx) const override
    {
        const auto& list = static_cast<const ThreadsList&>(d);
        const int r = rowAt(g, pos, list);
        if (r < 0)
            return {};
        const int y = pos.y() - g.rect.top() - ThreadRowsView::kHeaderHeight - r * ThreadRowsView::kRowHeight;
        return describeThreadRow(ctx.index, list.rows->spans.get(), list.prepared[size_t(r)], pos.x() - g.plot.left(), y,
                                 ThreadRowsView::kRowHeight);
    }

    // The thread named at `pointer` (none on the header).
    static std::optional<uint32_t> threadAt(const TrackPointer& pointer, const ThreadRowsView& rows)
    {
        if (pointer.local.y() < ThreadRowsView::kHeaderHeight)
            return std::nullopt;
        return rows.threadAtRow((pointer.local.y() - ThreadRowsView::kHeaderHeight) / ThreadRowsView::kRowHeight);
    }
    // A click on the header collapses or expands; on a name, picks the thread.
    bool labelClicked(const TrackPointer& pointer, const TrackContext& ctx) const override
    {
        const auto rows = ctx.resources.threadRows(ctx.options);
        if (!rows->owner)
            return false;
        if (pointer.local.y() < ThreadRowsView::kHeaderHeight)
            rows->owner->toggleCollapsed();
        else if (const auto thread = threadAt(pointer, *rows))
            rows->owner->pick(*thread, true);
        return true;
    }
    bool labelWheel(const TrackPointer&, int delta, const TrackContext& ctx) const override
    {
        const auto rows = ctx.resources.threadRows(ctx.options);
        if (!rows->owner)
            return false;
        rows->owner->scrollBy(-delta / 40); // three rows a notch
        return true;
    }
    void addContextActions(QMenu& menu, const TrackPointer& pointer, const TrackContext& ctx) const override
    {
        const auto rows = ctx.resources.threadRows(ctx.options);
        if (rows->owner)
            rows->owner->addRowsActions(menu, threadAt(pointer, *rows));
    }

    void paintSelected(QPainter& p, const TrackRowGeometry& g, const SelectedItem& item,
                       const TrackContext& ctx) const override
    {
        const auto rows = ctx.resources.threadRows(ctx.options);
        for (int r = 0; r < rows->shownRows(); ++r)
            if (rows->threadAtRow(r) == uint32_t(item.item)) {
                const int top = g.rect.top() + ThreadRowsView::kHeaderHeight + r * ThreadRowsView::kRowHeight;
                paintSelectionOutline(p, g.mapping, item.start, item.end, top + 1, ThreadRowsView::kRowHeight - 2,
                                      ctx.options.palette);
            }
    }

    void addLegend(LegendWriter& legend, const TrackContext& ctx) const override
    {
        if (ctx.index.threadStates.count() == 0)
            return;
        for (int c : {int(ColourRunning), int(ColourRunnable), ColourBlocked + int(BlockReason::MVar),
                      ColourBlocked + int(BlockReason::BlackHole), ColourBlocked + int(BlockReason::Stm),
                      ColourBlocked + int(BlockReason::Delay), ColourBlocked + int(BlockReason::CCall)})
            legend.solid(threadColourName(c), threadColour(c));
    }
};

} // namespace

std::unique_ptr<TimelineTrack> makeThreadsTrack()
{
    return std::make_unique<ThreadsTrack>();
}

} // namespace hecscope
