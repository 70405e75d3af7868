#include "core/text/units.h"
#include "ui/timeline/timelinerenderer.h"
#include "ui/timeline/tracks/heapprofilechart.h"

#include <QFontMetrics>
#include <QObject>
#include <QPainter>

#include <algorithm>

namespace hecscope {

namespace {

struct HeapProfileList final : DrawList {
    HeapProfileChart data;
};

// The heap-profile bands of the Heap Profile pane's view (stacked,
// normalised or lines), drawn with QCustomPlot; their names in a legend of
// their own, so exported pictures name them.
class HeapProfileTrack final : public TimelineTrack {
public:
    QString id() const override { return QStringLiteral("heap-profile"); }
    QString title() const override { return QObject::tr("Heap profile"); }
    QString menuText() const override { return QObject::tr("Heap p&rofile"); }
    int rowHeight(const TrackContext&) const override { return 200; }
    QString emptyNote(const TrackContext& ctx) const override
    {
        return ctx.index.heapBands.empty()
            ? QObject::tr("no heap profile in this log (run with +RTS -hT, or -hc, -hy, … when built with -prof)")
            : QString();
    }

    // The view in use: a new band selection, mode or emphasis is a new
    // HeapView object, kept alive by the draw list made from it.
    const void* variant(const TrackContext& ctx) const override
    {
        return ctx.index.heapBands.empty() ? nullptr : ctx.resources.heapView(ctx.options).get();
    }

    std::shared_ptr<const DrawList> prepare(const TrackContext& ctx, ViewRange view, int width) const override
    {
        auto list = std::make_shared<HeapProfileList>();
        if (!ctx.index.heapBands.empty())
            list->data = HeapProfileChart::prepare(ctx.index, ctx.resources.heapView(ctx.options), view, width);
        return list;
    }

    void paint(QPainter& p, const TrackRowGeometry& g, const DrawList& d, const TrackContext& ctx) const override
    {
        if (ctx.index.heapBands.empty())
            paintTrackNote(p, g.plot, ctx.options.palette, emptyNote(ctx), ctx.resources.text());
        else
            static_cast<const HeapProfileList&>(d).data.paint(ctx.resources.charts(), p, g.plot, ctx.options.palette);
    }

    bool drawsState(const std::type_info& type) const override { return type == typeid(HeapView); }

    std::optional<SelectedItem> itemAt(const TrackRowGeometry& g, QPoint pos, const DrawList& d,
                                       const TrackContext& ctx) const override
    {
        const auto& data = static_cast<const HeapProfileList&>(d).data;
        if (!data.view)
            return std::nullopt;
        const auto column = data.columnAt(g.plot, pos);
        if (!column)
            return std::nullopt;
        const HeapBands& bands = ctx.index.heapBands;
        const size_t census = nearestCensus(bands, g.mapping.toTime(pos.x()));
        SelectedItem item{id(), -1, false, bands.times[census], bands.times[census]};
        item.item = int64_t(*column);
        item.heapColumn = *column;
        if (const BandSelection& sel = *data.view->selection; *column < sel.labels.size())
            item.heapBand = sel.labels[*column];
        return item;
    }

    QString describe(const TrackRowGeometry& g, QPoint pos, const DrawList& d, const TrackContext& ctx) const override
    {
        const auto& data = static_cast<const HeapProfileList&>(d).data;
        if (!data.view)
            return {};
        const HeapBands& bands = ctx.index.heapBands;
        const HeapView& hv = *data.view;
        const BandSelection& sel = *hv.selection;
        const size_t pos0 = nearestCensus(bands, g.mapping.toTime(pos.x()));
        const uint64_t* row = sel.row(pos0);
        std::vector<size_t> order;
        for (size_t k = 0; k < sel.columns(); ++k)
            if (row[k] > 0)
                order.push_back(k);
        std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) { return row[x] > row[y]; });
        QString s = QObject::tr("Census %1 of %2 at %3: %4 MB")
                        .arg(pos0 + 1)
                        .arg(bands.times.size())
                        .arg(QString::fromStdString(formatTimestamp(bands.times[pos0])))
                        .arg(double(bands.totals[pos0]) / 1e6, 0, 'f', 3);
        const size_t shown = std::min<size_t>(order.size(), 10);
        for (size_t i = 0; i < shown; ++i) {
            const size_t k = order[i];
            s += QStringLiteral("\n%1%2  %3 MB (%4 %)")
                     .arg(hv.isHidden(k) ? QObject::tr("(hidden) ") : QString())
                     .arg(columnName(sel, bands, k).left(80))
                     .arg(double(row[k]) / 1e6, 0, 'f', 3)
                     .arg(100.0 * double(row[k]) / double(std::max<uint64_t>(1, bands.totals[pos0])), 0, 'f', 1);
        }
        if (order.size() > shown)
            s += QObject::tr("\n… %n more", nullptr, int(order.size() - shown));
        return s;
    }

    int ownLegendHeight(const TrackContext& ctx) const override { return ctx.index.heapBands.empty() ? 0 : 40; }

    // The bands in the chosen order (the selection's columns: by size,
    // growth, name, …, reversed or not; OTHER last), as many as fit in two
    // lines.
    void paintOwnLegend(QPainter& p, const QRect& r, const TrackContext& ctx) const override
    {
        const QPalette& pal = ctx.options.palette;
        p.fillRect(r, pal.color(QPalette::Window));
        const auto view = ctx.resources.heapView(ctx.options);
        const BandSelection& sel = *view->selection;
        const HeapBands& bands = ctx.index.heapBands;
        std::vector<size_t> shown;
        for (size_t k = 0; k < sel.columns(); ++k)
            if (!view->isHidden(k))
                shown.push_back(k);
        const QFontMetrics fm(p.font());
        constexpr int kLines = 2;
        const int lineHeight = r.height() / kLines;
        const QString title = QObject::tr("Heap profile:");
        int x = r.left() + 6 + fm.horizontalAdvance(title) + 10, line = 0;
        p.setPen(pal.color(QPalette::WindowText));
        ctx.resources.text().draw(p, QRect(r.left() + 6, r.top(), x - r.left(), lineHeight), Qt::AlignVCenter | Qt::AlignLeft, title);
        const int maxText = std::max(60, r.width() / 4);
        for (size_t i = 0; i < shown.size(); ++i) {
            const QString text = fm.elidedText(columnName(sel, bands, shown[i]), Qt::ElideMiddle, maxText);
            const int w = fm.horizontalAdvance(text);
            // Room for "+ n more" on the last line.
            const int reserve = line + 1 == kLines && i + 1 < shown.size()
                ? fm.horizontalAdvance(QStringLiteral("+ 9999 more")) + 10
                : 0;
            if (x + 14 + w + reserve > r.right()) {
                if (line + 1 < kLines) {
                    ++line;
                    x = r.left() + 6;
                } else {
                    ctx.resources.text().draw(p, QRect(x, r.top() + line * lineHeight, r.right() - x, lineHeight),
                               Qt::AlignVCenter | Qt::AlignLeft, QObject::tr("+ %n more", nullptr, int(shown.size() - i)));
                    return;
                }
            }
            const int y = r.top() + line * lineHeight;
            p.fillRect(QRect(x, y + (lineHeight - 10) / 2, 10, 10), columnColour(sel, bands, shown[i]));
            p.setPen(pal.color(QPalette::WindowText));
            ctx.resources.text().draw(p, QRect(x + 14, y, w + 2, lineHeight), Qt::AlignVCenter | Qt::AlignLeft, text);
            x += 14 + w + 14;
        }
    }

private:
    // The census nearest to t (the first before the first census).
    static size_t nearestCensus(const HeapBands& bands, uint64_t t)
    {
        const auto before = bands.censusAtOrBefore(t);
        size_t pos = before ? *before : 0;
        if (before && pos + 1 < bands.times.size() && bands.times[pos + 1] - t < t - bands.times[pos])
            pos = pos + 1;
        return pos;
    }
};

} // namespace

std::unique_ptr<TimelineTrack> makeHeapProfileTrack()
{
    return std::make_unique<HeapProfileTrack>();
}

} // namespace hecscope
