#include "ui/timeline/timelinerenderer.h"

#include "core/text/units.h"
#include "ui/formatting.h"
#include "ui/timeline/legendpicture.h"
#include "ui/timeline/legendwriter.h"

#include <QFontMetrics>
#include <QObject>
#include <QPaintEngine>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace hecscope {

namespace {

const QColor kBookmarkColour(0x16, 0xa0, 0x85);
// A filled area's legend takes the lines it needs, up to these.
constexpr int kMaxFillLegendLines = 8;
// Tracks that stretch shrink to fit a filled area down to this share of
// their natural heights; what is still too tall is cut at the legend.
constexpr double kMinStretch = 0.4;

} // namespace

QString stopReasonText(uint8_t stop)
{
    if (stop == kStopAtEnd)
        return QObject::tr("still running at the end of the log");
    if (stop == kStopClosedByOther)
        return QObject::tr("no stop event (next run or GC)");
    switch (stopClass(stop)) {
    case StopClass::HeapOverflow:
        return QObject::tr("heap overflow");
    case StopClass::StackOverflow:
        return QObject::tr("stack overflow");
    case StopClass::Yield:
        return QObject::tr("yield");
    case StopClass::Finished:
        return QObject::tr("finished");
    case StopClass::ForeignCall:
        return QObject::tr("foreign call");
    case StopClass::Blocked:
        return QObject::tr("blocked (%1)")
            .arg(QString::fromLatin1(blockReasonName(blockReason(stop))));
    case StopClass::Other:
        break;
    }
    return QObject::tr("status %1").arg(stop);
}

void TimelineRenderer::setIndex(std::shared_ptr<const LogIndex> index)
{
    m_resources.setIndex(std::move(index));
    m_cache.clear();
}

ViewRange TimelineRenderer::boundsOf(const LogIndex* ix)
{
    if (!ix || ix->firstTime == kNoTime)
        return {0, 1000};
    const uint64_t end = std::max(ix->lastTime, uint64_t(1));
    return {0, std::max(end, kMinViewDuration)};
}

QRect TimelineRenderer::plotArea(const QRect& area, const RenderOptions& o) const
{
    return area.adjusted(labelWidth(o) + o.leadingBlank, kRulerHeight, 0, 0);
}

// Measured once per (index, tracks, font, pins, spans): layout() asks for
// it at every paint and pointer move.
int TimelineRenderer::labelWidth(const RenderOptions& o) const
{
    const TrackContext ctx = context(o);
    const auto rows = m_resources.threadRows(o);
    LabelWidthEntry key{index(), index() ? index()->serial : 0, o.tracks, o.font.key(), rows->pinned.size(),
                        rows->spans.get(), -1};
    if (m_labelWidth.width >= 0 && key.index == m_labelWidth.index && key.serial == m_labelWidth.serial
        && key.tracks == m_labelWidth.tracks && key.font == m_labelWidth.font && key.pinned == m_labelWidth.pinned
        && key.spans == m_labelWidth.spans)
        return std::max(m_labelWidth.width, o.minLabelWidth);
    int width = kLabelWidth;
    for (const QString& id : o.tracks)
        if (const TimelineTrack* track = findTrack(id))
            width = std::max(width, track->labelWidth(ctx, o.font));
    key.width = std::min(width, kMaxLabelWidth);
    m_labelWidth = std::move(key);
    return std::max(m_labelWidth.width, o.minLabelWidth);
}

bool TimelineRenderer::rowStretches(const TimelineTrack& track, const RenderOptions& o) const
{
    const TrackContext ctx = context(o);
    return track.stretches(ctx) && track.emptyNote(ctx).isEmpty();
}

std::vector<TrackRow> TimelineRenderer::layout(const QRect& area, const RenderOptions& o) const
{
    const TrackContext ctx = context(o);
    std::vector<TrackRow> rows;
    int y = area.top() + kRulerHeight;
    for (const QString& id : o.tracks) {
        const TimelineTrack* track = findTrack(id);
        if (!track)
            continue;
        if (!track->emptyNote(ctx).isEmpty()) { // one line saying why, whatever the heights
            rows.push_back({track, -1, QRect(area.left(), y, area.width(), kCollapsedHeight)});
            y += kCollapsedHeight;
            continue;
        }
        const int n = track->rowCount(ctx);
        const auto chosen = o.rowHeights.find(id);
        const int h = chosen != o.rowHeights.end() && track->stretches(ctx) ? chosen->second : track->rowHeight(ctx);
        const bool numbered = track->rowsAreCapabilities(ctx);
        for (int i = 0; i < n; ++i) {
            rows.push_back({track, numbered ? i : -1, QRect(area.left(), y, area.width(), h)});
            y += h;
        }
    }
    if (o.fill)
        stretchRows(rows, area, o);
    return rows;
}

RenderOptions TimelineRenderer::fitted(const QRect& area, const RenderOptions& o) const
{
    if (!o.fill || !index())
        return o;
    RenderOptions natural = o;
    natural.fill = false;
    const auto rows = layout(area, natural);
    const int room = area.height() - kRulerHeight - legendHeight(o, area.width());
    if (rows.empty() || room <= 0)
        return o;
    const double scale = double(room) / double(rows.back().rect.bottom() + 1 - rows.front().rect.top());
    const TrackContext ctx = context(o);
    RenderOptions out = o;
    for (const QString& id : o.tracks)
        if (const TimelineTrack* t = findTrack(id); t && !t->stretches(ctx)) {
            int height = 0;
            for (const TrackRow& row : rows)
                if (row.track == t)
                    height += row.rect.height();
            t->fitHeight(out, ctx, int(height * scale));
        }
    return out;
}

// Rounding the running position keeps the rows edge to edge, the last one
// ending at the legend.
void TimelineRenderer::stretchRows(std::vector<TrackRow>& rows, const QRect& area, const RenderOptions& o) const
{
    int fixed = 0, stretching = 0;
    for (const TrackRow& row : rows)
        (rowStretches(*row.track, o) ? stretching : fixed) += row.rect.height();
    const int room = area.height() - kRulerHeight - legendHeight(o, area.width());
    if (stretching == 0 || room <= 0)
        return;
    const double scale = std::max(kMinStretch, double(room - fixed) / double(stretching));
    double y = area.top() + kRulerHeight;
    for (TrackRow& row : rows) {
        const double next = y + (rowStretches(*row.track, o) ? row.rect.height() * scale : row.rect.height());
        row.rect.setTop(int(std::lround(y)));
        row.rect.setBottom(int(std::lround(next)) - 1);
        y = next;
    }
}

std::optional<TrackRow> TimelineRenderer::rowAt(QPoint pos, const QRect& area, const RenderOptions& o) const
{
    if (!index())
        return std::nullopt;
    for (const TrackRow& row : layout(area, o))
        if (row.rect.contains(pos))
            return row;
    return std::nullopt;
}

bool TimelineRenderer::labelClicked(QPoint pos, QPoint global, const QRect& area, const RenderOptions& o) const
{
    const auto row = rowAt(pos, area, o);
    return row && row->track->labelClicked({row->cap, pos - row->rect.topLeft(), global}, context(o));
}

bool TimelineRenderer::labelWheel(QPoint pos, QPoint global, int delta, const QRect& area, const RenderOptions& o) const
{
    const auto row = rowAt(pos, area, o);
    return row && row->track->labelWheel({row->cap, pos - row->rect.topLeft(), global}, delta, context(o));
}

void TimelineRenderer::addContextActions(QMenu& menu, QPoint pos, QPoint global, const QRect& area,
                                         const RenderOptions& o, TrackStatesEdit editStates) const
{
    if (const auto row = rowAt(pos, area, o))
        row->track->addContextActions(menu, {row->cap, pos - row->rect.topLeft(), global, std::move(editStates)},
                                      context(o));
}

int TimelineRenderer::naturalHeight(const RenderOptions& o) const
{
    const auto rows = layout(QRect(0, 0, 100, 100), o);
    return (rows.empty() ? kRulerHeight : rows.back().rect.bottom() + 1) + legendHeight(o, 1000);
}

bool TimelineRenderer::hasDrawList(const TimelineTrack& track, const RenderOptions& o, ViewRange view,
                                   int width) const
{
    const void* variant = track.variant(context(o));
    return std::any_of(m_cache.begin(), m_cache.end(), [&](const CacheEntry& e) {
        return e.track == &track && e.view == view && e.width == width && e.variant == variant;
    });
}

std::shared_ptr<const DrawList> TimelineRenderer::drawList(const TimelineTrack& track, const RenderOptions& o,
                                                           ViewRange view, int width) const
{
    const TrackContext ctx = context(o);
    const void* variant = track.variant(ctx);
    auto entry = std::find_if(m_cache.begin(), m_cache.end(), [&](const CacheEntry& e) { return e.track == &track; });
    if (entry != m_cache.end() && entry->view == view && entry->width == width && entry->variant == variant)
        return entry->list;
    auto list = track.prepare(ctx, view, width);
    ++m_prepared;
    if (entry == m_cache.end())
        m_cache.push_back({&track, view, width, variant, list});
    else
        *entry = {&track, view, width, variant, list};
    return list;
}

void TimelineRenderer::paint(QPainter& p, const QRect& area, ViewRange view, const RenderOptions& o) const
{
    const QPalette& pal = o.palette;
    p.save();
    p.setClipRect(area);
    p.setFont(o.font);
    const QRect plot = plotArea(area, o);
    const TimeMapping m(view, plot.left(), plot.width());
    const auto rows = layout(area, o);
    const TrackContext ctx = context(o);
    const auto painted = [&](size_t i) {
        return rows[i].rect.top() <= area.bottom()
            && !(o.visible && (rows[i].rect.bottom() < o.visible->top() || rows[i].rect.top() > o.visible->bottom()));
    };
    // A legend's lines, where it goes.
    const int legendLinesHeight = o.legend ? legendLines(o, area.width()) * LegendWriter::kLineHeight : 0;
    const int legendTop = !o.legend ? 0
        : o.fill                    ? area.bottom() + 1 - legendHeight(o, area.width())
        : rows.empty()              ? area.top() + kRulerHeight
                                    : rows.back().rect.bottom() + 1;
    if (const QPaintEngine* engine = p.paintEngine(); !engine || engine->type() != QPaintEngine::Raster) {
        // A vector picture (SVG, PDF) has no other background: one rectangle
        // under it all, no seams where a viewer antialiases strips' edges.
        p.fillRect(area, pal.color(QPalette::Base));
    } else {
        // Pixels: the base colour under all but what is painted over
        // opaquely (the rows in the alternate colour, the legend's lines): a
        // full-window fill costs about a millisecond.
        std::vector<std::pair<int, int>> covered; // [top, bottom + 1)
        if (pal.color(QPalette::AlternateBase).alpha() == 255)
            for (size_t i = 1; i < rows.size(); i += 2)
                if (painted(i))
                    covered.emplace_back(rows[i].rect.top(), rows[i].rect.bottom() + 1);
        if (legendLinesHeight > 0 && pal.color(QPalette::Window).alpha() == 255)
            covered.emplace_back(legendTop, legendTop + legendLinesHeight);
        std::sort(covered.begin(), covered.end());
        int y = area.top();
        for (const auto& [top, bottom] : covered) {
            if (top > y)
                p.fillRect(QRect(area.left(), y, area.width(), top - y), pal.color(QPalette::Base));
            y = std::max(y, bottom);
        }
        if (y <= area.bottom())
            p.fillRect(QRect(area.left(), y, area.width(), area.bottom() + 1 - y), pal.color(QPalette::Base));
    }
    const QRect tracksPlot(plot.left(), plot.top(), plot.width(),
                           rows.empty() ? 0 : rows.back().rect.bottom() - plot.top() + 1);
    const auto shown = [&](size_t i) { // painted from its draw list (not a note)
        return painted(i) && o.placeholder.isEmpty() && rows[i].track->emptyNote(ctx).isEmpty();
    };
    // Tracks whose preparing takes long start it on a worker now; their
    // rows are painted after the others (each row paints only its own
    // rectangle), so that it runs while they are.
    std::vector<bool> later(rows.size());
    std::vector<std::pair<const TimelineTrack*, bool>> prefetched; // a track's rows share its answer
    for (size_t i = 0; i < rows.size() && rows[i].rect.top() <= area.bottom(); ++i) {
        if (!shown(i))
            continue;
        const TimelineTrack* track = rows[i].track;
        auto it = std::find_if(prefetched.begin(), prefetched.end(), [&](const auto& t) { return t.first == track; });
        if (it == prefetched.end())
            it = prefetched.insert(prefetched.end(), {track, !hasDrawList(*track, o, view, plot.width())
                                                                 && track->prefetch(ctx, view, plot.width())});
        later[i] = it->second;
    }
    const auto paintRow = [&](size_t i) {
        const TrackRow& row = rows[i];
        if (i % 2)
            p.fillRect(row.rect, pal.color(QPalette::AlternateBase));
        const TrackRowGeometry g{row.cap, row.rect, QRect(plot.left(), row.rect.top(), plot.width(), row.rect.height()),
                                 tracksPlot, m};
        p.save();
        if (!o.placeholder.isEmpty()) // no data yet: not "no sparks in this log"
            paintTrackNote(p, g.plot, pal, o.placeholder, m_resources.text());
        else if (const QString note = row.track->emptyNote(ctx); !note.isEmpty())
            paintTrackNote(p, g.plot, pal, note, m_resources.text()); // collapsed to its line
        else
            row.track->paint(p, g, *drawList(*row.track, o, view, plot.width()), ctx);
        p.restore();
        p.setPen(pal.color(QPalette::Text));
        const int labelRoom = labelEdge(area, o) - row.rect.left() - 14;
        m_resources.text().draw(p, QRect(row.rect.left() + 6, row.rect.top(), labelRoom + 6, row.rect.height()),
                   Qt::AlignVCenter | Qt::AlignLeft, m_resources.text().displayedLabel(p, row.track->rowLabel(ctx, row.cap), labelRoom));
    };
    std::vector<size_t> waiting; // rows painted later, in order
    for (size_t i = 0; i < rows.size(); ++i) {
        if (rows[i].rect.top() > area.bottom())
            break;
        if (!painted(i))
            continue;
        if (later[i]) {
            waiting.push_back(i);
            continue;
        }
        if (shown(i) && rows[i].track->paintsAcrossRows(ctx)) // over the rows before it, under those after
            for (const size_t w : std::exchange(waiting, {})) {
                paintRow(w);
                ++m_paintedLater;
            }
        paintRow(i);
    }
    for (const size_t w : waiting) {
        paintRow(w);
        ++m_paintedLater;
    }
    if (o.legend) // a filled picture's legend is its last lines, over tracks still too tall
        paintLegend(p, QRect(area.left(), legendTop, area.width(), legendHeight(o, area.width())), o);
    if (o.leadingBlank > 0 && !rows.empty()) {
        // Before the log starts: hatched, nothing to show.
        const QRect blank(labelEdge(area, o), area.top(), o.leadingBlank, rows.back().rect.bottom() - area.top() + 1);
        p.fillRect(blank, QBrush(pal.color(QPalette::Midlight), Qt::BDiagPattern));
    }
    // Separator between labels and the plot.
    p.setPen(pal.color(QPalette::Mid));
    p.drawLine(labelEdge(area, o) - 1, area.top(), labelEdge(area, o) - 1, area.bottom());
    paintRuler(p, QRect(plot.left(), area.top(), plot.width(), kRulerHeight), m, pal);
    p.setClipRect(plot.adjusted(0, -kRulerHeight, 0, 0));
    paintOverlays(p, area, m, rows, o);
    p.restore();
}

QRect TimelineRenderer::pinnedRuler(const QRect& area, const QRect& visible) const
{
    if (visible.top() <= area.top())
        return {};
    return QRect(area.left(), visible.top(), area.width(), kRulerHeight);
}

QRect TimelineRenderer::pinnedLegend(const QRect& area, const QRect& visible, const RenderOptions& o) const
{
    if (!o.legend || o.fill)
        return {};
    const auto rows = layout(area, o);
    const int height = legendHeight(o, area.width());
    const int natural = rows.empty() ? area.top() + kRulerHeight : rows.back().rect.bottom() + 1;
    const int top = visible.bottom() + 1 - height;
    if (natural <= top || height <= 0 || height * 2 > visible.height())
        return {}; // in sight where it is, or it would hide most of what is shown
    return QRect(area.left(), top, area.width(), height);
}

QPoint TimelineRenderer::unpinned(QPoint pos, const QRect& area, const QRect& visible, const RenderOptions& o) const
{
    if (const QRect ruler = pinnedRuler(area, visible); ruler.contains(pos))
        return {pos.x(), area.top() + pos.y() - ruler.top()};
    if (const QRect legend = pinnedLegend(area, visible, o); legend.contains(pos)) {
        const auto rows = layout(area, o);
        const int natural = rows.empty() ? area.top() + kRulerHeight : rows.back().rect.bottom() + 1;
        return {pos.x(), natural + pos.y() - legend.top()};
    }
    return pos;
}

void TimelineRenderer::paintPinned(QPainter& p, const QRect& area, const QRect& visible, ViewRange view,
                                   const RenderOptions& o) const
{
    const QPalette& pal = o.palette;
    const QRect plot = plotArea(area, o);
    const TimeMapping m(view, plot.left(), plot.width());
    if (const QRect legend = pinnedLegend(area, visible, o); !legend.isEmpty()) {
        p.save();
        p.setClipRect(legend);
        p.fillRect(legend, pal.color(QPalette::Base));
        paintLegend(p, legend, o);
        p.setPen(pal.color(QPalette::Mid));
        p.drawLine(legend.topLeft(), legend.topRight());
        p.restore();
    }
    if (const QRect ruler = pinnedRuler(area, visible); !ruler.isEmpty()) {
        // The ruler strip of the whole picture, moved down to the top of
        // what is shown: its overlays (selection, cursor, bookmark flags)
        // are those of the ruler at the top.
        p.save();
        p.setClipRect(ruler);
        p.setFont(o.font);
        p.translate(0, ruler.top() - area.top());
        const QRect strip(area.left(), area.top(), area.width(), kRulerHeight);
        p.fillRect(strip, pal.color(QPalette::Base));
        paintRuler(p, QRect(plot.left(), area.top(), plot.width(), kRulerHeight), m, pal);
        p.setPen(pal.color(QPalette::Mid));
        p.drawLine(labelEdge(area, o) - 1, area.top(), labelEdge(area, o) - 1, area.top() + kRulerHeight);
        p.drawLine(area.left(), area.top() + kRulerHeight - 1, area.right(), area.top() + kRulerHeight - 1);
        p.setClipRect(QRect(plot.left(), area.top(), plot.width(), kRulerHeight), Qt::IntersectClip);
        paintOverlays(p, area, m, layout(area, o), o);
        p.restore();
    }
}

void TimelineRenderer::paintOverlays(QPainter& p, const QRect& area, const TimeMapping& m,
                                     const std::vector<TrackRow>& rows, const RenderOptions& o) const
{
    const QPalette& pal = o.palette;
    const ViewRange view = m.range();
    // A stretch of a live log not (or no longer) shown in full: washed
    // out, then hatched, and said.
    const auto shade = [&](uint64_t from, uint64_t to, const QString& text) {
        const int bottom = rows.empty() ? area.top() + kRulerHeight : rows.back().rect.bottom() + 1;
        const QRectF s = spanRect(m, std::max(view.start, from), std::min(view.end, to), area.top(), bottom - area.top());
        QColor wash = pal.color(QPalette::Base);
        wash.setAlpha(110);
        p.fillRect(s, wash);
        QColor hatch = pal.color(QPalette::Text);
        hatch.setAlpha(70);
        p.fillRect(s, QBrush(hatch, Qt::BDiagPattern));
        p.setPen(pal.color(QPalette::Text));
        if (s.width() > 60)
            m_resources.text().draw(p, s.adjusted(4, 2, -2, 0), Qt::AlignLeft | Qt::AlignTop, text);
    };
    if (o.pendingFrom && *o.pendingFrom < view.end)
        shade(*o.pendingFrom, view.end, QObject::tr("pending: not every capability's events are in"));
    if (o.droppedBefore && *o.droppedBefore > view.start)
        shade(view.start, *o.droppedBefore,
              QObject::tr("dropped: only the latest stretch is kept in memory (the recording has it all)"));
    if (o.selection && o.selection->start <= view.end && o.selection->end >= view.start) {
        // Over the ruler and the tracks, not the legend below them. (A
        // selection off the view is not drawn: one far to the right gave
        // fillRect a left edge past any int.)
        int bottom = rows.empty() ? area.top() + kRulerHeight : rows.back().rect.bottom() + 1;
        if (o.legend && o.fill)
            bottom = std::min(bottom, area.bottom() + 1 - legendHeight(o, area.width()));
        if (!o.legend)
            bottom = area.bottom() + 1;
        const QRectF s = spanRect(m, o.selection->start, o.selection->end, area.top(), bottom - area.top());
        QColor c = pal.color(QPalette::Highlight);
        c.setAlpha(60);
        p.fillRect(s, c);
        c.setAlpha(200);
        p.setPen(QPen(c, 1));
        p.drawLine(s.topLeft(), s.bottomLeft());
        p.drawLine(s.topRight(), s.bottomRight());
    }
    if (o.selected) {
        // The clicked item, outlined in its row by its track.
        const QRect plot = plotArea(area, o);
        for (const TrackRow& row : rows)
            if (row.id() == o.selected->track && row.cap == o.selected->cap) {
                const TrackRowGeometry g{row.cap, row.rect,
                                         QRect(plot.left(), row.rect.top(), plot.width(), row.rect.height()), plot, m};
                p.save();
                row.track->paintSelected(p, g, *o.selected, context(o));
                p.restore();
            }
    }
    for (uint64_t b : o.bookmarks) {
        if (b < view.start || b > view.end)
            continue;
        const double x = m.toPixel(b);
        p.setPen(QPen(kBookmarkColour, 1, Qt::DotLine));
        p.drawLine(QPointF(x, area.top() + kRulerHeight), QPointF(x, area.bottom()));
        const QPointF flag[] = {{x, area.top() + kRulerHeight - 1.0},
                                {x - 5, area.top() + kRulerHeight - 9.0},
                                {x + 5, area.top() + kRulerHeight - 9.0}};
        p.setPen(Qt::NoPen);
        p.setBrush(kBookmarkColour);
        p.drawPolygon(flag, 3);
        p.setBrush(Qt::NoBrush);
    }
    if (o.highlight) {
        const double x = m.toPixel(*o.highlight);
        p.setPen(QPen(QColor(0xe7, 0x4c, 0x3c), 2));
        p.drawLine(QPointF(x, area.top()), QPointF(x, area.bottom()));
    }
    if (o.cursor) {
        const double x = m.toPixel(*o.cursor);
        p.setPen(QPen(pal.color(QPalette::Text), 1, Qt::DashLine));
        p.drawLine(QPointF(x, area.top()), QPointF(x, area.bottom()));
    }
}

// Every shown track with data names its colours; the bookmark flag is
// named when there are bookmarks.
void TimelineRenderer::writeLegend(LegendWriter& legend, const RenderOptions& o) const
{
    const TrackContext ctx = context(o);
    for (const QString& id : o.tracks)
        if (const TimelineTrack* t = findTrack(id); t && t->emptyNote(ctx).isEmpty()) { // a collapsed one draws no colour
            legend.beginTrack();
            t->addLegend(legend, ctx);
        }
    legend.beginTrack();
    if (!o.bookmarks.empty())
        legend.entry(QObject::tr("bookmark"), [](QPainter& painter, QRect box) {
            const QPointF flag[] = {QPointF(box.center().x(), box.bottom()), QPointF(box.left(), box.top()),
                                    QPointF(box.right(), box.top())};
            painter.setPen(Qt::NoPen);
            painter.setBrush(kBookmarkColour);
            painter.drawPolygon(flag, 3);
        });
}

LegendContent TimelineRenderer::legendContent(const RenderOptions& o) const
{
    LegendContent content;
    if (!o.legend)
        return content;
    LegendWriter legend;
    writeLegend(legend, o);
    content.entries = legend.names();
    const TrackContext ctx = context(o);
    for (const QString& id : o.tracks)
        if (const TimelineTrack* t = findTrack(id); t && t->ownLegendHeight(ctx) > 0)
            content.blocks.push_back(t->id());
    return content;
}

// The window keeps three lines whatever the entries (its height does not
// follow its width); a filled area takes the lines its entries need.
int TimelineRenderer::legendLines(const RenderOptions& o, int width) const
{
    if (!o.fill)
        return kLegendHeight / LegendWriter::kLineHeight;
    LegendWriter legend;
    writeLegend(legend, o);
    return legend.lines(QFont(), width, kMaxFillLegendLines);
}

int TimelineRenderer::legendHeight(const RenderOptions& o, int width) const
{
    if (!o.legend)
        return 0;
    const TrackContext ctx = context(o);
    int height = legendLines(o, width) * LegendWriter::kLineHeight;
    for (const QString& id : o.tracks)
        if (const TimelineTrack* t = findTrack(id))
            height += t->ownLegendHeight(ctx);
    return height;
}

// Tracks with a legend of their own (the heap-profile bands) add it below
// the common one.
void TimelineRenderer::paintLegend(QPainter& p, const QRect& r, const RenderOptions& o) const
{
    const TrackContext ctx = context(o);
    LegendWriter legend;
    writeLegend(legend, o);
    const int lines = legendLines(o, r.width());
    m_legendPicture.paint(p, legend, QRect(r.left(), r.top(), r.width(), lines * LegendWriter::kLineHeight), o.palette, lines);
    int y = r.top() + lines * LegendWriter::kLineHeight;
    for (const QString& id : o.tracks)
        if (const TimelineTrack* t = findTrack(id))
            if (const int h = t->ownLegendHeight(ctx)) {
                t->paintOwnLegend(p, QRect(r.left(), y, r.width(), h), ctx);
                y += h;
            }
}

std::optional<TimelineRenderer::Hit> TimelineRenderer::hitAt(QPoint pos, const QRect& area, ViewRange view,
                                                             const RenderOptions& o) const
{
    const QRect plot = plotArea(area, o);
    if (!index() || !plot.contains(pos))
        return std::nullopt;
    const TimeMapping m(view, plot.left(), plot.width());
    const auto rows = layout(area, o);
    const QRect tracksPlot(plot.left(), plot.top(), plot.width(),
                           rows.empty() ? 0 : rows.back().rect.bottom() - plot.top() + 1);
    for (const TrackRow& row : rows)
        if (row.rect.contains(pos)) {
            if (!row.track->emptyNote(context(o)).isEmpty())
                return std::nullopt; // collapsed to its note: nothing to point at
            return Hit{row,
                       {row.cap, row.rect, QRect(plot.left(), row.rect.top(), plot.width(), row.rect.height()),
                        tracksPlot, m},
                       drawList(*row.track, o, view, plot.width())};
        }
    return std::nullopt;
}

QString TimelineRenderer::labelTipAt(QPoint pos, const QRect& area, const RenderOptions& o) const
{
    const QRect plot = plotArea(area, o);
    const int edge = labelEdge(area, o);
    if (!index() || pos.x() >= edge || pos.x() < area.left())
        return {};
    const TimeMapping m(ViewRange{0, 1}, edge, plot.width());
    for (const TrackRow& row : layout(area, o))
        if (row.rect.contains(pos)) {
            const TrackRowGeometry g{row.cap, row.rect,
                                     QRect(edge, row.rect.top(), plot.width(), row.rect.height()), plot, m};
            return row.track->labelTip(g, pos, context(o), QFontMetrics(o.font));
        }
    return {};
}

std::optional<SelectedItem> TimelineRenderer::itemAt(QPoint pos, const QRect& area, ViewRange view,
                                                     const RenderOptions& o) const
{
    const auto hit = hitAt(pos, area, view, o);
    return hit ? hit->row.track->itemAt(hit->geometry, pos, *hit->list, context(o)) : std::nullopt;
}

QString TimelineRenderer::describeAt(QPoint pos, const QRect& area, ViewRange view, const RenderOptions& o) const
{
    const auto hit = hitAt(pos, area, view, o);
    return hit ? hit->row.track->describe(hit->geometry, pos, *hit->list, context(o)) : QString();
}

std::shared_ptr<const HeapView> TimelineRenderer::heapViewFor(const RenderOptions& o) const
{
    return m_resources.heapView(o);
}

std::optional<size_t> TimelineRenderer::heapColumnAt(QPoint pos, const QRect& area, ViewRange view,
                                                     const RenderOptions& o) const
{
    const auto item = itemAt(pos, area, view, o);
    if (!item || !item->heapColumn)
        return std::nullopt;
    return *item->heapColumn;
}

void TimelineRenderer::paintRuler(QPainter& p, const QRect& r,
                                  const TimeMapping& m,
                                  const QPalette& pal) const
{
    p.fillRect(r, pal.color(QPalette::Window));
    const double spacing = m_resources.text().advance(p, QStringLiteral("000.000 ms")) + 16;
    const Ticks ticks = rulerTicks(m.range(), r.width(), spacing);
    p.setPen(pal.color(QPalette::WindowText));
    // Deep in a long log, absolute labels would all share their first
    // digits: the first tick says where we are, the others how far from it.
    const bool relative = !ticks.times.empty() && ticks.times.front() / 10000 >= ticks.step;
    for (uint64_t t : ticks.times) {
        const double x = m.toPixel(t);
        p.drawLine(QPointF(x, r.bottom() - 6), QPointF(x, r.bottom()));
        QString text;
        if (!relative)
            text = qs(formatTime(t, ticks.step));
        else if (t == ticks.times.front())
            text = qs(formatSeconds(t, ticks.step));
        else
            text = QStringLiteral("+") + qs(formatTime(t - ticks.times.front(), ticks.step));
        const QRectF box(x + 3, r.top(), m_resources.text().advance(p, text) + 2, r.height() - 4);
        if (box.right() > r.right() + 1)
            continue; // no clipped labels at the right edge
        m_resources.text().draw(p, box, Qt::AlignLeft | Qt::AlignVCenter, text);
    }
    // Minor ticks: five per step when there is room.
    if (ticks.step >= 5 && m.toPixel(ticks.step / 5) - m.toPixel(0) >= 6)
        for (uint64_t t : ticks.times)
            for (int k = 1; k < 5; ++k) {
                const double x = m.toPixel(t + ticks.step / 5 * k);
                p.drawLine(QPointF(x, r.bottom() - 3), QPointF(x, r.bottom()));
            }
    p.setPen(pal.color(QPalette::Mid));
    p.drawLine(r.bottomLeft(), r.bottomRight());
}

} // namespace hecscope
