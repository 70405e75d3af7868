#include "core/text/units.h"
#include "ui/formatting.h"
#include "ui/timeline/legendwriter.h"
#include "ui/timeline/timelinerenderer.h"

#include <QObject>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace hecscope {

namespace {

const QColor kParallelGc(0xe6, 0x7e, 0x22);
const QColor kSequentialGc(0xa0, 0x40, 0x00);
const QColor kBalanceBand(0x6e, 0x2c, 0x00);

// A bar: the pause of a collection (the oldest generation of those merged
// into its pixel), in pixels from the plot's left edge.
struct GcBar {
    double x0, x1;
    uint32_t collection; // index into LogIndex::collections
    uint32_t merged;     // collections drawn as this bar
    uint64_t pauseNs;    // their pauses, summed
    uint32_t majors;     // how many of them collected the oldest generation
};

struct GcList final : DrawList {
    std::vector<GcBar> bars;     // by x0
    std::vector<double> reach;   // running maximum of x1, for binary search
    double nsPerPixel = 1;
};

const QColor kMajorMark(0x6e, 0x1a, 0x00);

// Each collection as a bar over its pause: height by generation, colour by
// whether it was parallel. Collections in the same pixel are merged (the
// oldest generation wins) so there are never more bars than pixels.
class GcTrack final : public TimelineTrack {
public:
    QString id() const override { return QStringLiteral("gc"); }
    QString title() const override { return QObject::tr("GC"); }
    QString menuText() const override { return QObject::tr("&GC"); }
    int rowHeight(const TrackContext&) const override { return 34; }

    std::shared_ptr<const DrawList> prepare(const TrackContext& ctx, ViewRange view, int width) const override
    {
        auto list = std::make_shared<GcList>();
        const LogIndex& ix = ctx.index;
        const auto& cs = ix.collections;
        const TimeMapping m(view, 0, std::max(1, width));
        // The collections are in order of their start: the first ending
        // in the view (by a binary search, each step decoding one).
        size_t lo = 0, hi = cs.size();
        while (lo < hi) {
            const size_t mid = lo + (hi - lo) / 2;
            if (cs[mid].end < view.start)
                lo = mid + 1;
            else
                hi = mid;
        }
        // An earlier one may still reach into the view; a few steps back
        // cover the overlap of nested ones.
        const size_t first = lo - std::min<size_t>(lo, 4);
        list->nsPerPixel = m.nsPerPixel();
        const int oldest = std::max(0, cs.maxGeneration());
        int lastPx = INT32_MIN;
        int lastGen = -1;
        uint32_t index = uint32_t(first);
        for (auto it = cs.at(first); it != cs.end(); ++it, ++index) {
            const Collection& c = *it;
            if (c.start > view.end)
                break;
            // (Its bar is its leader's span, which may begin after the
            // view's end: its left edge, far right when zoomed in, no int.)
            if (c.end < view.start || c.leaderStart > view.end)
                continue;
            const QRectF full = spanRect(m, c.leaderStart, std::max(c.leaderEnd, c.leaderStart + 1), 0, 1);
            const int px = int(std::floor(full.left()));
            const int gen = std::max(0, c.generation);
            // Merged only with a bar of the same pixel that is a pixel wide
            // too: a wider bar keeps its own collection.
            if (full.width() <= 1.0 && px == lastPx && !list->bars.empty()
                && list->bars.back().x1 - list->bars.back().x0 <= 1.0) {
                ++list->bars.back().merged;
                list->bars.back().pauseNs += c.pause();
                list->bars.back().majors += gen == oldest && oldest > 0;
                if (gen > lastGen) { // the oldest generation stands for the pixel
                    list->bars.back().collection = index;
                    lastGen = gen;
                }
                continue;
            }
            lastPx = px;
            lastGen = gen;
            list->bars.push_back({full.left(), full.right(), index, 1, c.pause(), uint32_t(gen == oldest && oldest > 0)});
        }
        std::stable_sort(list->bars.begin(), list->bars.end(),
                         [](const GcBar& a, const GcBar& b) { return a.x0 < b.x0; });
        double reach = -1e300;
        for (const GcBar& b : list->bars)
            list->reach.push_back(reach = std::max(reach, b.x1));
        return list;
    }

    void paint(QPainter& p, const TrackRowGeometry& g, const DrawList& d, const TrackContext& ctx) const override
    {
        const QRect& r = g.plot;
        const auto& list = static_cast<const GcList&>(d);
        for (const GcBar& b : list.bars) {
            const Collection& c = ctx.index.collections[b.collection];
            if (b.merged > 1 || b.x1 - b.x0 <= 1.0) {
                // A pixel or less (one collection or several): the share of
                // the column's time spent collecting as the height, a dark
                // cap when one was major. (A full-height bar per column
                // holding any collection drew a solid band at Fit All.)
                const double share = std::min(1.0, double(b.pauseNs) / std::max(1.0, list.nsPerPixel));
                const double h = std::max(2.0, share * (r.height() - 4.0));
                p.fillRect(QRectF(r.left() + b.x0, r.bottom() - 1 - h, 1, h), c.parallel() ? kParallelGc : kSequentialGc);
                if (b.majors > 0)
                    p.fillRect(QRectF(r.left() + b.x0, r.top() + 1, 1, 3), kMajorMark);
                continue;
            }
            const double h = c.generation <= 0 ? r.height() * 0.45 : r.height() - 6.0;
            const QRectF bar(r.left() + b.x0, r.bottom() - 2 - h, b.x1 - b.x0, h);
            p.fillRect(bar, c.parallel() ? kParallelGc : kSequentialGc);
            // Parallel balance: the copied share of the busiest GC thread,
            // as a darker band at the bottom when the bar is wide enough.
            if (c.parallel() && c.parTotCopied > 0 && bar.width() >= 4) {
                const double share = double(c.parMaxCopied) / double(c.parTotCopied);
                p.fillRect(QRectF(bar.left(), bar.bottom() - 3, bar.width() * share, 3), kBalanceBand);
            }
        }
    }

    // The bar under `pos` or the nearest within 3 pixels: a binary search
    // over the bars, never a scan of the collections.
    const GcBar* barNear(const TrackRowGeometry& g, QPoint pos, const DrawList& d) const
    {
        const auto& list = static_cast<const GcList&>(d);
        const double x = pos.x() - g.plot.left(), slack = 3;
        const size_t from = size_t(std::lower_bound(list.reach.begin(), list.reach.end(), x - slack) - list.reach.begin());
        const GcBar* best = nullptr;
        double bestDistance = slack + 1;
        for (size_t i = from; i < list.bars.size() && list.bars[i].x0 <= x + slack; ++i) {
            const GcBar& b = list.bars[i];
            const double distance = x < b.x0 ? b.x0 - x : x > b.x1 ? x - b.x1 : 0;
            if (distance <= slack && distance < bestDistance) {
                best = &b;
                bestDistance = distance;
            }
        }
        return best;
    }

    std::optional<SelectedItem> itemAt(const TrackRowGeometry& g, QPoint pos, const DrawList& d,
                                       const TrackContext& ctx) const override
    {
        const GcBar* b = barNear(g, pos, d);
        if (!b)
            return std::nullopt;
        const Collection& c = ctx.index.collections[b->collection];
        return SelectedItem{id(), -1, true, c.leaderStart, c.leaderEnd};
    }

    QString describe(const TrackRowGeometry& g, QPoint pos, const DrawList& d, const TrackContext& ctx) const override
    {
        const GcBar* b = barNear(g, pos, d);
        if (!b)
            return {};
        const Collection& c = ctx.index.collections[b->collection];
        QString s = QObject::tr("Collection: generation %1%2\nstart %3, pause %4, %5 capabilities")
                        .arg(c.generation)
                        .arg(c.parallel() ? QObject::tr(", parallel (%1 threads)").arg(c.parThreads) : QString())
                        .arg(qs(formatTimestamp(c.leaderStart)), qs(formatDuration(c.pause())))
                        .arg(c.caps);
        if (c.hasStats)
            s += QObject::tr("\ncopied %1 bytes, slop %2 bytes").arg(c.copied).arg(c.slop);
        if (b->merged > 1)
            s = QObject::tr("%1 collections in this pixel (%2 major): %3 % of its time collecting\n"
                            "the oldest generation's, for instance:\n")
                    .arg(b->merged)
                    .arg(b->majors)
                    .arg(100.0 * std::min(1.0, double(b->pauseNs) / std::max(1.0, static_cast<const GcList&>(d).nsPerPixel)), 0, 'f', 1)
                + s;
        return s;
    }

    void paintSelected(QPainter& p, const TrackRowGeometry& g, const SelectedItem& item,
                       const TrackContext& ctx) const override
    {
        p.setPen(QPen(ctx.options.palette.color(QPalette::Highlight), 2));
        p.setBrush(Qt::NoBrush);
        p.drawRect(spanRect(g.mapping, item.start, item.end, g.rect.top() + 1.0, g.rect.height() - 2.0).adjusted(-1, -1, 1, 1));
    }

    void addLegend(LegendWriter& legend, const TrackContext&) const override
    {
        legend.entry(QObject::tr("collection: parallel / sequential (tall: major)"), [](QPainter& p, QRect box) {
            p.fillRect(QRect(box.left(), box.top(), 5, box.height()), kParallelGc);
            p.fillRect(QRect(box.left() + 5, box.top(), 5, box.height()), kSequentialGc);
        });
        legend.entry(QObject::tr("a pixel or less: share of its time collecting, cap: major"), [](QPainter& p, QRect box) {
            for (int i = 0; i < 5; ++i)
                p.fillRect(QRect(box.left() + 2 * i, box.bottom() - 2 - 2 * i, 1, 3 + 2 * i), kParallelGc);
            p.fillRect(QRect(box.left() + 6, box.top(), 1, 2), kMajorMark);
        });
    }
};

} // namespace

std::unique_ptr<TimelineTrack> makeGcTrack()
{
    return std::make_unique<GcTrack>();
}

} // namespace hecscope
