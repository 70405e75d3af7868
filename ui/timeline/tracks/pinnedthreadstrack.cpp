#include "ui/threads/threadrows.h"
#include "ui/threads/threadrowscontroller.h"
#include "ui/timeline/timelinerenderer.h"

#include <QObject>
#include <QPainter>

namespace hecscope {

namespace {

struct PinnedList final : DrawList {
    std::shared_ptr<const ThreadRowsView> rows;
    std::vector<PreparedThreadRow> prepared; // one per pinned thread
};

// The threads the user pinned (from the Threads track or pane), one row
// each, next to the capability rows, drawn as in the Threads track.
class PinnedThreadsTrack final : public TimelineTrack {
public:
    QString id() const override { return QStringLiteral("pinned-threads"); }
    QString title() const override { return QObject::tr("Pinned threads"); }
    QString menuText() const override { return QObject::tr("&Pinned threads"); }
    int rowCount(const TrackContext& ctx) const override
    {
        return int(ctx.resources.threadRows(ctx.options)->pinned.size());
    }
    bool rowsAreCapabilities(const TrackContext&) const override { return true; } // numbered rows
    int rowHeight(const TrackContext&) const override { return ThreadRowsView::kRowHeight; }
    bool stretches(const TrackContext&) const override { return false; } // bars of fixed pixels
    QString rowLabel(const TrackContext& ctx, int row) const override
    {
        const auto rows = ctx.resources.threadRows(ctx.options);
        if (row < 0 || size_t(row) >= rows->pinned.size() || rows->pinned[size_t(row)] >= ctx.index.threadStates.count())
            return {};
        return QStringLiteral("📌 ") + threadName(ctx.index, ctx.index.threadStates.ids[rows->pinned[size_t(row)]]);
    }
    // The rows shown, and the windows of segments read back so far.
    const void* variant(const TrackContext& ctx) const override { return ctx.resources.threadRowsVariant(ctx.options); }

    std::shared_ptr<const DrawList> prepare(const TrackContext& ctx, ViewRange view, int width) const override
    {
        auto list = std::make_shared<PinnedList>();
        list->rows = ctx.resources.threadRows(ctx.options);
        const std::vector<uint32_t> nearby = list->rows->nearbyRows(); // (the Threads track's too: one read)
        const auto detail = threadDetailFor(ctx.index, ctx.options.detail.get(), ctx.options.waitForDetail,
                                            list->rows->pinned, view, width, &ctx.resources.wantedThreads(), &nearby);
        for (uint32_t thread : list->rows->pinned)
            list->prepared.push_back(prepareThreadRow(ctx.index, list->rows->spans.get(), thread, view, width, detail));
        return list;
    }

    void paint(QPainter& p, const TrackRowGeometry& g, const DrawList& d, const TrackContext& ctx) const override
    {
        const auto& list = static_cast<const PinnedList&>(d);
        if (g.row < 0 || size_t(g.row) >= list.prepared.size())
            return;
        const PreparedThreadRow& row = list.prepared[size_t(g.row)];
        paintThreadRow(p, g.plot, row, ctx.options.palette,
                       list.rows->chosen && *list.rows->chosen == row.number);
    }

    std::optional<SelectedItem> itemAt(const TrackRowGeometry& g, QPoint pos, const DrawList& d,
                                       const TrackContext& ctx) const override
    {
        const auto& list = static_cast<const PinnedList&>(d);
        if (g.row < 0 || size_t(g.row) >= list.prepared.size())
            return std::nullopt;
        const PreparedThreadRow& row = list.prepared[size_t(g.row)];
        const auto hit = threadRowItemAt(ctx.index, list.rows->spans.get(), row, pos.x() - g.plot.left(),
                                         pos.y() - g.rect.top(), ThreadRowsView::kRowHeight);
        if (!hit)
            return std::nullopt;
        SelectedItem item{id(), g.row, false, hit->first, hit->second, int64_t(row.number)};
        item.thread = row.number;
        return item;
    }

    // A click on a pinned thread's name picks it; its menu: its actions.
    bool labelClicked(const TrackPointer& pointer, const TrackContext& ctx) const override
    {
        const auto rows = ctx.resources.threadRows(ctx.options);
        if (!rows->owner || pointer.row < 0 || size_t(pointer.row) >= rows->pinned.size())
            return false;
        rows->owner->pick(rows->pinned[size_t(pointer.row)], true);
        return true;
    }
    void addContextActions(QMenu& menu, const TrackPointer& pointer, const TrackContext& ctx) const override
    {
        const auto rows = ctx.resources.threadRows(ctx.options);
        if (rows->owner && pointer.row >= 0 && size_t(pointer.row) < rows->pinned.size())
            rows->owner->addThreadActions(menu, rows->pinned[size_t(pointer.row)]);
    }

    QString describe(const TrackRowGeometry& g, QPoint pos, const DrawList& d, const TrackContext& ctx) const override
    {
        const auto& list = static_cast<const PinnedList&>(d);
        if (g.row < 0 || size_t(g.row) >= list.prepared.size())
            return {};
        return describeThreadRow(ctx.index, list.rows->spans.get(), list.prepared[size_t(g.row)],
                                 pos.x() - g.plot.left(), pos.y() - g.rect.top(), ThreadRowsView::kRowHeight);
    }

    void paintSelected(QPainter& p, const TrackRowGeometry& g, const SelectedItem& item, const TrackContext& ctx) const override
    {
        paintSelectionOutline(p, g.mapping, item.start, item.end, g.rect.top() + 1, ThreadRowsView::kRowHeight - 2,
                              ctx.options.palette);
    }
};

} // namespace

std::unique_ptr<TimelineTrack> makePinnedThreadsTrack()
{
    return std::make_unique<PinnedThreadsTrack>();
}

} // namespace hecscope
