#include "ui/timeline/timelinerenderer.h"

#include "core/text/units.h"
#include "core/stats/stats.h"

#include <QFontMetrics>
#include <QObject>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace hecscope {

namespace {

constexpr int kActivityHeight = 48;
constexpr int kCapHeight = 30; // run lane 18, GC lane 8, gaps
constexpr int kGcHeight = 34;
constexpr int kMarkersHeight = 22;
constexpr int kSparksHeight = 44;
constexpr int kHeapHeight = 84;
constexpr int kHeapProfileHeight = 200;
constexpr int kNoteHeight = 24;
const QColor kParallelGc(0xe6, 0x7e, 0x22);
const QColor kSequentialGc(0xa0, 0x40, 0x00);
const QColor kMarkerColour(0x8e, 0x44, 0xad);
const QColor kMessageColour(0x29, 0x80, 0xb9);
const QColor kBookmarkColour(0x16, 0xa0, 0x85);

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

// Span [a, b) in pixels, at least one pixel wide, clipped to the plot.
QRectF spanRect(const TimeMapping& m, uint64_t a, uint64_t b, double top,
                double height)
{
    double x0 = std::max(m.toPixel(a), m.x0() - 1);
    double x1 = std::min(m.toPixel(b), m.x0() + m.width() + 1);
    if (x1 - x0 < 1)
        x1 = x0 + 1;
    return QRectF(x0, top, x1 - x0, height);
}

} // namespace

QString trackName(Track t)
{
    switch (t) {
    case Track::Activity:
        return QStringLiteral("activity");
    case Track::Capabilities:
        return QStringLiteral("hecs");
    case Track::Gc:
        return QStringLiteral("gc");
    case Track::Sparks:
        return QStringLiteral("sparks");
    case Track::Heap:
        return QStringLiteral("heap");
    case Track::HeapProfile:
        return QStringLiteral("heap-profile");
    case Track::Markers:
        return QStringLiteral("markers");
    }
    return {};
}

std::optional<Track> trackFromName(const QString& name)
{
    for (Track t : kAllTracks)
        if (trackName(t) == name.trimmed().toLower())
            return t;
    return std::nullopt;
}

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

QColor TimelineRenderer::threadColor(uint32_t thread)
{
    // Golden-ratio hues: neighbouring thread ids get distant colours.
    const double hue = std::fmod(double(thread) * 0.6180339887, 1.0);
    return QColor::fromHsvF(float(hue), 0.55f, 0.80f);
}

QColor TimelineRenderer::spanColor(SpanKind kind)
{
    switch (kind) {
    case SpanKind::Running:
        return QColor(0x2e, 0x9d, 0x5b);
    case SpanKind::Gc:
        return QColor(0xd3, 0x54, 0x00);
    case SpanKind::GcSync:
        return QColor(0xc0, 0x39, 0x2b);
    case SpanKind::GcWork:
        return QColor(0xe6, 0x7e, 0x22);
    case SpanKind::GcIdle:
        return QColor(0xf0, 0xb2, 0x7a);
    case SpanKind::GcDone:
        return QColor(0x95, 0xa5, 0xa6);
    }
    return Qt::gray;
}

void TimelineRenderer::setIndex(std::shared_ptr<const LogIndex> index)
{
    m_index = std::move(index);
    m_defaultHeap.reset();
}

const HeapView& TimelineRenderer::heapViewFor(const RenderOptions& o) const
{
    // A view made for another index (a reload, a new file) is not this one's.
    if (o.heapView && o.heapView->selection && o.heapView->index == m_index.get())
        return *o.heapView;
    if (!m_defaultHeap) {
        auto view = std::make_shared<HeapView>();
        view->index = m_index.get();
        view->selection = m_index->defaultBands;
        m_defaultHeap = std::move(view);
    }
    return *m_defaultHeap;
}

std::optional<size_t> TimelineRenderer::heapColumnAt(QPoint pos, const QRect& area, ViewRange view,
                                                     const RenderOptions& o) const
{
    if (!m_index || m_index->heapBands.empty())
        return std::nullopt;
    const QRect plot = plotArea(area);
    const auto rows = layout(area, o);
    const auto row = std::find_if(rows.begin(), rows.end(), [](const TrackRow& r) { return r.track == Track::HeapProfile; });
    if (row == rows.end())
        return std::nullopt;
    const QRect r(plot.left(), row->rect.top(), plot.width(), row->rect.height());
    const ChartPainter::HeapFrame& frame = m_charts.lastHeapFrame();
    if (!r.contains(pos) || frame.rect != r || frame.view != view || frame.top <= 0)
        return std::nullopt;
    const HeapBands& bands = m_index->heapBands;
    const HeapView& hv = heapViewFor(o);
    const BandSelection& sel = *hv.selection;
    // The value at the pointer, and the census nearest to it.
    const double top = r.top() + 2.0, bottom = r.bottom() - 1.0;
    const auto valueAt = [&](double y) { return (bottom - y) / std::max(1.0, bottom - top) * frame.top; };
    const TimeMapping m(view, plot.left(), plot.width());
    const uint64_t t = m.toTime(pos.x());
    // The bands' values as drawn at the pointer's column: zoomed out (more
    // than two censuses a pixel), the column's census of the largest total,
    // or each band's maximum in the column (lines); else the line between
    // the censuses either side. Nothing is drawn outside the censuses.
    if (t < bands.times.front() || t > bands.times.back())
        return std::nullopt;
    const size_t cols = sel.columns();
    std::vector<double> at(cols, 0.0);
    const int w = std::max(1, r.width());
    const auto [a, b] = bands.censusesIn(view.start, view.end + 1);
    bool done = false;
    if (b - a > size_t(2 * w)) {
        const int column = std::clamp(pos.x() - r.left(), 0, w - 1);
        const double duration = double(std::max<uint64_t>(1, view.duration()));
        const uint64_t from = view.start + uint64_t(duration * column / w);
        const uint64_t to = column + 1 == w ? view.end + 1 : view.start + uint64_t(duration * (column + 1) / w);
        const auto [c0, c1] = bands.censusesIn(from, to);
        if (c1 > c0) {
            size_t best = c0;
            for (size_t c = c0; c < c1; ++c) {
                if (bands.totals[c] > bands.totals[best])
                    best = c;
                if (hv.mode == HeapChartMode::Lines)
                    for (size_t k = 0; k < cols; ++k)
                        at[k] = std::max(at[k], double(sel.row(c)[k]));
            }
            if (hv.mode != HeapChartMode::Lines)
                for (size_t k = 0; k < cols; ++k)
                    at[k] = double(sel.row(best)[k]);
            done = true;
        }
    }
    if (!done) {
        const size_t c0 = *bands.censusAtOrBefore(t);
        const size_t c1 = std::min(c0 + 1, bands.times.size() - 1);
        const double f = c1 > c0 ? double(t - bands.times[c0]) / double(bands.times[c1] - bands.times[c0]) : 0.0;
        for (size_t k = 0; k < cols; ++k)
            at[k] = double(sel.row(c0)[k]) + f * (double(sel.row(c1)[k]) - double(sel.row(c0)[k]));
    }
    const double v = valueAt(pos.y());
    if (hv.mode == HeapChartMode::Lines) {
        const double slack = 5.0 / std::max(1.0, bottom - top) * frame.top;
        std::optional<size_t> best;
        double bestDistance = slack;
        for (size_t k = 0; k < sel.columns(); ++k) {
            if (hv.isHidden(k))
                continue;
            const double y = 100.0 * at[k] / double(std::max<uint64_t>(1, sel.columnPeak[k]));
            if (std::abs(y - v) <= bestDistance) {
                bestDistance = std::abs(y - v);
                best = k;
            }
        }
        return best;
    }
    double total = 0;
    for (size_t k = 0; k < sel.columns(); ++k)
        if (!hv.isHidden(k))
            total += at[k];
    const double scale = hv.mode == HeapChartMode::Normalised ? (total > 0 ? 100.0 / total : 0.0) : 1e-6;
    double cum = 0;
    for (size_t k = 0; k < sel.columns(); ++k) {
        if (hv.isHidden(k))
            continue;
        cum += at[k] * scale;
        if (v <= cum && at[k] > 0)
            return k;
    }
    return std::nullopt;
}

int TimelineRenderer::legendHeight(const RenderOptions& o) const
{
    if (!o.legend)
        return 0;
    const bool bands = m_index && !m_index->heapBands.empty()
        && std::find(o.tracks.begin(), o.tracks.end(), Track::HeapProfile) != o.tracks.end();
    return kLegendHeight + (bands ? kHeapLegendHeight : 0);
}

// The heap-profile bands below the other colours, largest first (OTHER
// last), as many as fit in two lines: exported pictures must name them.
void TimelineRenderer::paintHeapLegend(QPainter& p, const QRect& r, const HeapView& hv, const QPalette& pal) const
{
    p.fillRect(r, pal.color(QPalette::Window));
    const BandSelection& sel = *hv.selection;
    const HeapBands& bands = m_index->heapBands;
    std::vector<size_t> shown;
    for (size_t k = 0; k < sel.columns(); ++k)
        if (!hv.isHidden(k))
            shown.push_back(k);
    const auto rank = [&](size_t k) { return k < sel.labels.size() ? bands.sizeRank[sel.labels[k]] : UINT32_MAX; };
    std::sort(shown.begin(), shown.end(), [&](size_t a, size_t b) { return rank(a) < rank(b); });
    const QFontMetrics fm(p.font());
    constexpr int kLines = 2;
    const int lineHeight = r.height() / kLines;
    const QString title = QObject::tr("Heap profile:");
    int x = r.left() + 6 + fm.horizontalAdvance(title) + 10, line = 0;
    p.setPen(pal.color(QPalette::WindowText));
    p.drawText(QRect(r.left() + 6, r.top(), x - r.left(), lineHeight), Qt::AlignVCenter | Qt::AlignLeft, title);
    const int maxText = std::max(60, r.width() / 4);
    for (size_t i = 0; i < shown.size(); ++i) {
        const QString text = fm.elidedText(columnName(sel, bands, shown[i]), Qt::ElideMiddle, maxText);
        const int w = fm.horizontalAdvance(text);
        // Room for "+ n more" on the last line.
        const int reserve = line + 1 == kLines && i + 1 < shown.size() ? fm.horizontalAdvance(QStringLiteral("+ 9999 more")) + 10 : 0;
        if (x + 14 + w + reserve > r.right()) {
            if (line + 1 < kLines) {
                ++line;
                x = r.left() + 6;
            } else {
                p.drawText(QRect(x, r.top() + line * lineHeight, r.right() - x, lineHeight), Qt::AlignVCenter | Qt::AlignLeft,
                           QObject::tr("+ %n more", nullptr, int(shown.size() - i)));
                return;
            }
        }
        const int y = r.top() + line * lineHeight;
        p.fillRect(QRect(x, y + (lineHeight - 10) / 2, 10, 10), columnColour(sel, bands, shown[i]));
        p.setPen(pal.color(QPalette::WindowText));
        p.drawText(QRect(x + 14, y, w + 2, lineHeight), Qt::AlignVCenter | Qt::AlignLeft, text);
        x += 14 + w + 14;
    }
}

QString TimelineRenderer::describeHeapProfile(uint64_t t, const RenderOptions& o) const
{
    const HeapBands& bands = m_index->heapBands;
    const HeapView& hv = heapViewFor(o);
    const BandSelection& sel = *hv.selection;
    // The census nearest to t.
    const auto before = bands.censusAtOrBefore(t);
    size_t pos = before ? *before : 0; // before the first census: the first
    if (before && pos + 1 < bands.times.size() && bands.times[pos + 1] - t < t - bands.times[pos])
        pos = pos + 1;
    const uint64_t* row = sel.row(pos);
    std::vector<size_t> order;
    for (size_t k = 0; k < sel.columns(); ++k)
        if (row[k] > 0)
            order.push_back(k);
    std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) { return row[x] > row[y]; });
    QString s = QObject::tr("Census %1 of %2 at %3: %4 MB")
                    .arg(pos + 1)
                    .arg(bands.times.size())
                    .arg(qs(formatDuration(bands.times[pos])))
                    .arg(double(bands.totals[pos]) / 1e6, 0, 'f', 3);
    const size_t shown = std::min<size_t>(order.size(), 10);
    for (size_t i = 0; i < shown; ++i) {
        const size_t k = order[i];
        s += QStringLiteral("\n%1%2  %3 MB (%4 %)")
                 .arg(hv.isHidden(k) ? QObject::tr("(hidden) ") : QString())
                 .arg(columnName(sel, bands, k).left(80))
                 .arg(double(row[k]) / 1e6, 0, 'f', 3)
                 .arg(100.0 * double(row[k]) / double(std::max<uint64_t>(1, bands.totals[pos])), 0, 'f', 1);
    }
    if (order.size() > shown)
        s += QObject::tr("\n… %n more", nullptr, int(order.size() - shown));
    return s;
}

ViewRange TimelineRenderer::bounds() const
{
    if (!m_index || m_index->firstTime == kNoTime)
        return {0, 1000};
    const uint64_t end = std::max(m_index->lastTime, uint64_t(1));
    return {0, std::max(end, kMinViewDuration)};
}

int TimelineRenderer::rowHeight(Track t) const
{
    switch (t) {
    case Track::Activity:
        return kActivityHeight;
    case Track::Capabilities:
        return kCapHeight;
    case Track::Gc:
        return kGcHeight;
    case Track::Sparks:
        return kSparksHeight;
    case Track::Heap:
        return kHeapHeight;
    case Track::HeapProfile:
        return m_index && !m_index->heapBands.empty() ? kHeapProfileHeight : kNoteHeight;
    case Track::Markers:
        return kMarkersHeight;
    }
    return 0;
}

QRect TimelineRenderer::plotArea(const QRect& area)
{
    return area.adjusted(kLabelWidth, kRulerHeight, 0, 0);
}

std::vector<TrackRow> TimelineRenderer::layout(const QRect& area,
                                               const RenderOptions& o) const
{
    std::vector<TrackRow> rows;
    int y = area.top() + kRulerHeight;
    const int caps = m_index ? int(m_index->caps.size()) : 0;
    const bool sparks = hasSparkCounters();
    for (Track t : o.tracks) {
        // One row per capability; a single row saying why when a log has no
        // spark counters at all.
        const bool perCap = t == Track::Capabilities || (t == Track::Sparks && sparks);
        const int n = perCap ? caps : 1;
        for (int i = 0; i < n; ++i) {
            rows.push_back({t, perCap ? i : -1,
                            QRect(area.left(), y, area.width(), rowHeight(t))});
            y += rowHeight(t);
        }
    }
    return rows;
}

// Spark rows are worth a row per capability only when some spark was made:
// every RTS samples the counters, most programs never spark.
bool TimelineRenderer::hasSparkCounters() const
{
    if (!m_index)
        return false;
    for (const Capability& c : m_index->caps)
        if (!c.sparks.empty()) {
            const SparkCounters& last = c.sparks.back();
            if (last.created + last.dud + last.overflowed + last.converted + last.fizzled + last.gcd > 0)
                return true;
        }
    return false;
}

int TimelineRenderer::naturalHeight(const RenderOptions& o) const
{
    const auto rows = layout(QRect(0, 0, 100, 100), o);
    return (rows.empty() ? kRulerHeight : rows.back().rect.bottom() + 1) + legendHeight(o);
}

void TimelineRenderer::paint(QPainter& p, const QRect& area, ViewRange view,
                             const RenderOptions& o) const
{
    const QPalette& pal = o.palette;
    p.save();
    p.setClipRect(area);
    p.fillRect(area, pal.color(QPalette::Base));
    const QRect plot = plotArea(area);
    const TimeMapping m(view, plot.left(), plot.width());
    const auto rows = layout(area, o);
    // The capabilities' level-of-detail items, shared by their rows and the
    // activity track.
    const bool needLods = std::any_of(o.tracks.begin(), o.tracks.end(), [](Track t) {
        return t == Track::Activity || t == Track::Capabilities;
    });
    const auto lods = needLods ? capabilityLods(view, plot.width()) : std::vector<std::vector<LodItem>>{};

    for (size_t i = 0; i < rows.size(); ++i) {
        const TrackRow& row = rows[i];
        if (row.rect.top() > area.bottom())
            break;
        if (i % 2)
            p.fillRect(row.rect, pal.color(QPalette::AlternateBase));
        const QRect label(row.rect.left() + 6, row.rect.top(), kLabelWidth - 8,
                          row.rect.height());
        const QRect r(plot.left(), row.rect.top(), plot.width(), row.rect.height());
        p.setPen(pal.color(QPalette::Text));
        QString name;
        switch (row.track) {
        case Track::Activity:
            name = QObject::tr("Activity");
            paintActivity(p, r, activity(view, r.width(), lods));
            break;
        case Track::Capabilities:
            name = QObject::tr("HEC %1").arg(row.cap);
            paintCapability(p, r, m, row.cap, pal, lods[size_t(row.cap)]);
            break;
        case Track::Gc:
            name = QObject::tr("GC");
            paintGc(p, r, m);
            break;
        case Track::Markers:
            name = QObject::tr("Markers");
            paintMarkers(p, r, m, pal, QRect(plot.left(), plot.top(), plot.width(), rows.back().rect.bottom() - plot.top() + 1));
            break;
        case Track::Sparks:
            name = row.cap >= 0 ? QObject::tr("Sparks %1").arg(row.cap) : QObject::tr("Sparks");
            if (row.cap >= 0)
                m_charts.paintSparks(p, r, view, m_index->caps[size_t(row.cap)], pal);
            else
                paintNote(p, r, pal, QObject::tr("no sparks in this log"));
            break;
        case Track::Heap:
            name = QObject::tr("Heap");
            if (m_index && !m_index->heap.empty())
                m_charts.paintHeap(p, r, view, *m_index, pal);
            else
                paintNote(p, r, pal, QObject::tr("no heap figures in this log"));
            break;
        case Track::HeapProfile:
            name = QObject::tr("Heap profile");
            if (m_index && !m_index->heapBands.empty())
                m_charts.paintHeapProfile(p, r, view, *m_index, heapViewFor(o), pal);
            else
                paintNote(p, r, pal, QObject::tr("no heap profile in this log (run with +RTS -hT, or -hc, -hy, … when built with -prof)"));
            break;
        }
        p.setPen(pal.color(QPalette::Text));
        p.drawText(label, Qt::AlignVCenter | Qt::AlignLeft, name);
    }
    if (o.legend) {
        const int y = rows.empty() ? area.top() + kRulerHeight : rows.back().rect.bottom() + 1;
        paintLegend(p, QRect(area.left(), y, area.width(), kLegendHeight), pal);
        if (legendHeight(o) > kLegendHeight)
            paintHeapLegend(p, QRect(area.left(), y + kLegendHeight, area.width(), kHeapLegendHeight), heapViewFor(o), pal);
    }
    // Separator between labels and the plot.
    p.setPen(pal.color(QPalette::Mid));
    p.drawLine(plot.left() - 1, area.top(), plot.left() - 1, area.bottom());
    paintRuler(p, QRect(plot.left(), area.top(), plot.width(), kRulerHeight), m,
               pal);

    p.setClipRect(plot.adjusted(0, -kRulerHeight, 0, 0));
    if (o.selection) {
        const QRectF s = spanRect(m, o.selection->start, o.selection->end,
                                  area.top(), area.height());
        QColor c = pal.color(QPalette::Highlight);
        c.setAlpha(60);
        p.fillRect(s, c);
        c.setAlpha(200);
        p.setPen(QPen(c, 1));
        p.drawLine(s.topLeft(), s.bottomLeft());
        p.drawLine(s.topRight(), s.bottomRight());
    }
    if (o.selected) {
        // The clicked item, outlined in its row.
        for (const TrackRow& row : rows) {
            if (row.track != o.selected->track || row.cap != o.selected->cap)
                continue;
            const double top = row.track == Track::Gc ? row.rect.top() + 1.0
                : o.selected->gcLane                  ? row.rect.top() + 20.0
                                                      : row.rect.top() + 2.0;
            const double height = row.track == Track::Gc ? row.rect.height() - 2.0 : o.selected->gcLane ? 9.0
                                                                                                        : 19.0;
            const QRectF box = spanRect(m, o.selected->start, o.selected->end, top, height);
            p.setPen(QPen(pal.color(QPalette::Highlight), 2));
            p.setBrush(Qt::NoBrush);
            p.drawRect(box.adjusted(-1, -1, 1, 1));
        }
    }
    for (uint64_t b : o.bookmarks) {
        if (b < view.start || b > view.end)
            continue;
        const double x = m.toPixel(b);
        p.setPen(QPen(kBookmarkColour, 1, Qt::DotLine));
        p.drawLine(QPointF(x, area.top() + kRulerHeight), QPointF(x, area.bottom()));
        const QPointF flag[] = {{x, area.top() + kRulerHeight - 1.0}, {x - 5, area.top() + kRulerHeight - 9.0}, {x + 5, area.top() + kRulerHeight - 9.0}};
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
    p.restore();
}

void TimelineRenderer::paintNote(QPainter& p, const QRect& r, const QPalette& pal, const QString& text) const
{
    p.setPen(pal.color(QPalette::PlaceholderText));
    p.drawText(r.adjusted(8, 0, 0, 0), Qt::AlignVCenter | Qt::AlignLeft, text);
}

void TimelineRenderer::paintLegend(QPainter& p, const QRect& r, const QPalette& pal) const
{
    p.fillRect(r, pal.color(QPalette::Window));
    const QFontMetrics fm(p.font());
    constexpr int kLines = 3;
    const int lineHeight = r.height() / kLines;
    int x = r.left() + 6, line = 0;
    auto entry = [&](const QString& text, auto swatch) {
        const int w = fm.horizontalAdvance(text);
        if (x + 14 + w > r.right() && line + 1 < kLines) {
            ++line; // wrap
            x = r.left() + 6;
        }
        if (x + 14 + w > r.right())
            return;
        const int y = r.top() + line * lineHeight;
        swatch(QRect(x, y + (lineHeight - 10) / 2, 10, 10));
        p.setPen(pal.color(QPalette::WindowText));
        p.drawText(QRect(x + 14, y, w + 2, lineHeight), Qt::AlignVCenter | Qt::AlignLeft, text);
        x += 14 + w + 14;
    };
    auto solid = [&](QColor c) { return [&p, c](QRect box) { p.fillRect(box, c); }; };
    auto stroke = [&](QColor c, Qt::PenStyle style = Qt::SolidLine) {
        return [&p, c, style](QRect box) {
            p.setPen(QPen(c, 2, style));
            p.drawLine(box.left(), box.center().y(), box.right(), box.center().y());
        };
    };
    entry(QObject::tr("running (colour per thread)"), [&](QRect box) {
        for (int i = 0; i < 4; ++i)
            p.fillRect(QRect(box.left() + i * 3, box.top(), 3, box.height()), threadColor(uint32_t(i + 1)));
    });
    entry(QObject::tr("running, several per pixel"), solid(spanColor(SpanKind::Running)));
    entry(QObject::tr("GC"), solid(spanColor(SpanKind::Gc)));
    entry(QObject::tr("GC sync wait"), solid(spanColor(SpanKind::GcSync)));
    entry(QObject::tr("GC work"), solid(spanColor(SpanKind::GcWork)));
    entry(QObject::tr("GC idle"), solid(spanColor(SpanKind::GcIdle)));
    entry(QObject::tr("GC done"), solid(spanColor(SpanKind::GcDone)));
    entry(QObject::tr("collection: parallel / sequential (tall: major)"), [&](QRect box) {
        p.fillRect(QRect(box.left(), box.top(), 5, box.height()), kParallelGc);
        p.fillRect(QRect(box.left() + 5, box.top(), 5, box.height()), kSequentialGc);
    });
    entry(QObject::tr("marker"), [&](QRect box) { p.fillRect(QRect(box.center().x(), box.top(), 2, box.height()), kMarkerColour); });
    entry(QObject::tr("bookmark"), [&](QRect box) {
        const QPointF flag[] = {QPointF(box.center().x(), box.bottom()), QPointF(box.left(), box.top()), QPointF(box.right(), box.top())};
        p.setPen(Qt::NoPen);
        p.setBrush(kBookmarkColour);
        p.drawPolygon(flag, 3);
        p.setBrush(Qt::NoBrush);
    });
    entry(QObject::tr("message"), [&](QRect box) { p.fillRect(QRect(box.center().x(), box.top() + 4, 1, box.height() - 4), kMessageColour); });
    if (line + 1 < kLines) { // the charts' colours start a new line
        ++line;
        x = r.left() + 6;
    }
    entry(QObject::tr("heap size (MB)"), stroke(ChartPainter::heapSizeColour(pal)));
    entry(QObject::tr("blocks size (MB)"), stroke(ChartPainter::kBlocksSize));
    entry(QObject::tr("live (MB)"), solid(ChartPainter::kLive.lighter(130)));
    entry(QObject::tr("allocation rate (MB/s, right axis)"), stroke(ChartPainter::kAllocRate));
    entry(QObject::tr("sparks created (/ms)"), stroke(ChartPainter::kSparksCreated));
    entry(QObject::tr("converted (/ms)"), stroke(ChartPainter::kSparksConverted));
    entry(QObject::tr("spark pool (right axis)"), stroke(ChartPainter::kSparkPool, Qt::DashLine));
}

void TimelineRenderer::paintRuler(QPainter& p, const QRect& r,
                                  const TimeMapping& m,
                                  const QPalette& pal) const
{
    p.fillRect(r, pal.color(QPalette::Window));
    const QFontMetrics fm(p.font());
    const double spacing = fm.horizontalAdvance(QStringLiteral("000.000 ms")) + 16;
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
        const QRectF box(x + 3, r.top(), fm.horizontalAdvance(text) + 2, r.height() - 4);
        if (box.right() > r.right() + 1)
            continue; // no clipped labels at the right edge
        p.drawText(box, Qt::AlignLeft | Qt::AlignVCenter, text);
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

// Share of capabilities running a thread, and in GC, per pixel column:
// exact totals from the timelines' prefix sums, stacked (running below).
std::vector<std::vector<LodItem>> TimelineRenderer::capabilityLods(ViewRange view, int width) const
{
    std::vector<std::vector<LodItem>> lods;
    if (!m_index)
        return lods;
    lods.resize(m_index->caps.size());
    for (size_t c = 0; c < lods.size(); ++c)
        m_index->caps[c].timeline.lod(view.start, view.end, uint32_t(std::max(1, width)), lods[c]);
    return lods;
}

std::vector<ActivityColumn> TimelineRenderer::activity(ViewRange view, int width,
                                                       const std::vector<std::vector<LodItem>>& lods) const
{
    // Each capability's running and GC time in every pixel column, from the
    // level-of-detail items the HEC rows draw: exact spans are split over the
    // columns they cross, per-pixel aggregates carry their own totals.
    const int w = std::max(1, width);
    std::vector<ActivityColumn> out(static_cast<size_t>(w));
    if (!m_index || m_index->caps.empty())
        return out;
    const TimeMapping m(view, 0, w);
    std::vector<uint64_t> edges(size_t(w) + 1);
    for (int x = 0; x <= w; ++x)
        edges[size_t(x)] = m.toTime(x);
    edges[size_t(w)] = std::max(edges[size_t(w)], view.end);
    auto columnOf = [&](uint64_t t) {
        const auto it = std::upper_bound(edges.begin(), edges.end(), t);
        return std::clamp(int(it - edges.begin()) - 1, 0, w - 1);
    };
    for (const std::vector<LodItem>& items : lods)
        for (const LodItem& it : items) {
            const uint64_t a = std::max(it.start, view.start), b = std::min(it.end, view.end);
            if (b <= a)
                continue;
            if (it.aggregate) {
                ActivityColumn& col = out[size_t(columnOf(a))];
                col.running += double(it.totals.running());
                col.gc += double(it.totals.gc());
                continue;
            }
            for (int c = columnOf(a); c < w && edges[size_t(c)] < b; ++c) {
                // A column narrower than a nanosecond holds the nanosecond it is in.
                const uint64_t colEnd = std::max(edges[size_t(c) + 1], edges[size_t(c)] + 1);
                const uint64_t lo = std::max(a, edges[size_t(c)]), hi = std::min(b, colEnd);
                if (hi <= lo)
                    continue;
                (it.kind == SpanKind::Running ? out[size_t(c)].running : out[size_t(c)].gc) += double(hi - lo);
            }
        }
    const double caps = double(m_index->caps.size());
    for (int x = 0; x < w; ++x) {
        // A column narrower than a nanosecond holds the nanosecond it is in.
        const double span = double(std::max<uint64_t>(1, edges[size_t(x) + 1] - edges[size_t(x)]));
        out[size_t(x)].running /= span * caps;
        out[size_t(x)].gc /= span * caps;
    }
    return out;
}

void TimelineRenderer::paintActivity(QPainter& p, const QRect& r, const std::vector<ActivityColumn>& columns) const
{
    const int w = int(columns.size());
    const double h = r.height() - 4, base = r.bottom() - 1;
    // One bar per run of columns with the same heights (rounded to pixels):
    // at most two rectangles per pixel, however busy the log.
    int runStart = 0, runH = -1, gcH = -1;
    auto flush = [&](int x) {
        if (x > runStart && runH > 0)
            p.fillRect(QRectF(r.left() + runStart, base - runH, x - runStart, runH), spanColor(SpanKind::Running));
        if (x > runStart && gcH > 0)
            p.fillRect(QRectF(r.left() + runStart, base - runH - gcH, x - runStart, gcH), spanColor(SpanKind::Gc));
    };
    for (int x = 0; x < w; ++x) {
        const double run = columns[size_t(x)].running, g = columns[size_t(x)].gc;
        const int rh = int(std::lround(h * std::min(1.0, run)));
        const int gh = int(std::lround(h * std::min(1.0, run + g))) - rh;
        if (rh != runH || gh != gcH) {
            flush(x);
            runStart = x;
            runH = rh;
            gcH = gh;
        }
    }
    flush(w);
}

void TimelineRenderer::paintCapability(QPainter& p, const QRect& r,
                                       const TimeMapping& m, int cap,
                                       const QPalette& pal, const std::vector<LodItem>& items) const
{
    if (!m_index || cap < 0 || size_t(cap) >= m_index->caps.size())
        return;
    const double runTop = r.top() + 3, runH = 17, gcTop = r.top() + 21, gcH = 7;
    const QFontMetrics fm(p.font());
    const int digitW = fm.horizontalAdvance(QLatin1Char('0'));
    QFont small = p.font();
    for (const LodItem& it : items) {
        if (!it.aggregate) {
            if (it.kind == SpanKind::Running) {
                const QRectF rect = spanRect(m, it.start, it.end, runTop, runH);
                p.fillRect(rect, threadColor(it.thread));
                const QString id = QString::number(it.thread);
                if (rect.width() > digitW * id.size() + 6) {
                    p.setPen(Qt::black);
                    p.setFont(small);
                    p.drawText(rect, Qt::AlignCenter, id);
                }
            } else {
                p.fillRect(spanRect(m, it.start, it.end, gcTop, gcH),
                           spanColor(it.kind));
            }
            continue;
        }
        // Several spans inside one pixel: how much of it was running, and
        // how much GC, as the height of the mark.
        const double len = double(std::max<uint64_t>(1, it.end - it.start));
        const double run = std::min(1.0, double(it.totals.running()) / len);
        const double g = std::min(1.0, double(it.totals.gc()) / len);
        const QRectF px = spanRect(m, it.start, it.end, runTop, runH);
        if (run > 0) {
            const double hh = std::max(2.0, runH * run);
            p.fillRect(QRectF(px.left(), runTop + runH - hh, px.width(), hh),
                       spanColor(SpanKind::Running));
        }
        if (g > 0) {
            SpanKind k = SpanKind::Gc;
            uint64_t best = 0;
            for (size_t i = 1; i < kSpanKinds; ++i)
                if (it.totals.time[i] > best)
                    best = it.totals.time[i], k = SpanKind(i);
            const double hh = std::max(2.0, gcH * g);
            p.fillRect(QRectF(px.left(), gcTop + gcH - hh, px.width(), hh),
                       spanColor(k));
        }
    }
    p.setPen(pal.color(QPalette::Midlight));
    p.drawLine(r.left(), r.bottom(), r.right(), r.bottom());
}

// Each collection as a bar over its pause: height by generation, colour by
// whether it was parallel. Collections in the same pixel are merged (the
// oldest generation wins) so there are never more bars than pixels.
void TimelineRenderer::paintGc(QPainter& p, const QRect& r,
                               const TimeMapping& m) const
{
    if (!m_index)
        return;
    const auto& cs = m_index->collections;
    const ViewRange v = m.range();
    auto it = std::partition_point(m_index->collectionsByStart.begin(), m_index->collectionsByStart.end(),
                                   [&](uint32_t i) { return cs[i].end < v.start; });
    // Collections sorted by start may still have an earlier one reaching
    // into the view; a few steps back cover the overlap of nested ones.
    for (int back = 0; back < 4 && it != m_index->collectionsByStart.begin(); ++back)
        --it;
    int lastPx = INT32_MIN;
    int lastGen = -1;
    for (; it != m_index->collectionsByStart.end(); ++it) {
        const Collection& c = cs[*it];
        if (c.start > v.end)
            break;
        if (c.end < v.start)
            continue;
        const uint64_t a = c.leaderStart, b = c.leaderEnd; // the pause
        const QRectF full = spanRect(m, a, std::max(b, a + 1), r.top(), r.height());
        const int px = int(std::floor(full.left()));
        const int gen = std::max(0, c.generation);
        if (full.width() <= 1.0 && px == lastPx && gen <= lastGen)
            continue;
        lastPx = px;
        lastGen = gen;
        const double h = gen == 0 ? r.height() * 0.45 : r.height() - 6.0;
        const QRectF bar(full.left(), r.bottom() - 2 - h, full.width(), h);
        p.fillRect(bar, c.parallel() ? kParallelGc : kSequentialGc);
        // Parallel balance: the copied share of the busiest GC thread, as a
        // darker band at the bottom when the bar is wide enough to read.
        if (c.parallel() && c.parTotCopied > 0 && bar.width() >= 4) {
            const double share = double(c.parMaxCopied) / double(c.parTotCopied);
            p.fillRect(QRectF(bar.left(), bar.bottom() - 3, bar.width() * share, 3),
                       QColor(0x6e, 0x2c, 0x00));
        }
    }
}

void TimelineRenderer::paintMarkers(QPainter& p, const QRect& r,
                                    const TimeMapping& m, const QPalette& pal,
                                    const QRect& all) const
{
    if (!m_index)
        return;
    const auto& ms = m_index->messages;
    const ViewRange v = m.range();
    auto it = std::partition_point(m_index->messagesByTime.begin(), m_index->messagesByTime.end(),
                                   [&](uint32_t i) { return ms[i].time < v.start; });
    const QFontMetrics fm(p.font());
    double labelEnd = -1e9; // labels never overlap
    int lastPx = INT32_MIN;
    QColor markerLine = kMarkerColour;
    markerLine.setAlpha(150);
    for (; it != m_index->messagesByTime.end(); ++it) {
        const Message& msg = ms[*it];
        if (msg.time > v.end)
            break;
        const double x = m.toPixel(msg.time);
        const int px = int(x);
        if (msg.kind == Message::Marker) {
            if (px != lastPx) {
                p.setPen(QPen(markerLine, 1));
                p.drawLine(QPointF(x, all.top()), QPointF(x, all.bottom()));
            }
            if (x > labelEnd) {
                const QString text = fm.elidedText(
                    qs(std::string(m_index->textOf(msg.text))), Qt::ElideRight, 160);
                p.setPen(pal.color(QPalette::Text));
                p.drawText(QPointF(x + 3, r.top() + fm.ascent() + 3), text);
                labelEnd = x + 3 + fm.horizontalAdvance(text) + 6;
            }
        } else if (px != lastPx) {
            p.setPen(QPen(kMessageColour, 1));
            p.drawLine(QPointF(x, r.bottom() - 7), QPointF(x, r.bottom()));
        }
        lastPx = px;
    }
}

const Span* TimelineRenderer::spanNear(int cap, bool gcLane, uint64_t t, uint64_t slack) const
{
    const CapTimeline& tl = m_index->caps[size_t(cap)].timeline;
    for (size_t i = tl.firstEndingAfter(t > slack ? t - slack : 0); i < tl.size() && tl[i].start() <= t + slack; ++i)
        if (isGc(tl[i].kind()) == gcLane)
            return &tl[i];
    return nullptr;
}

const Collection* TimelineRenderer::collectionNear(uint64_t t, uint64_t slack) const
{
    for (uint32_t ci : m_index->collectionsByStart) {
        const Collection& c = m_index->collections[ci];
        if (c.start > t + slack)
            break;
        if (c.end + slack >= t)
            return &c;
    }
    return nullptr;
}

std::optional<SelectedItem> TimelineRenderer::itemAt(QPoint pos, const QRect& area, ViewRange view,
                                                     const RenderOptions& o) const
{
    const QRect plot = plotArea(area);
    if (!m_index || !plot.contains(pos))
        return std::nullopt;
    const TimeMapping m(view, plot.left(), plot.width());
    const uint64_t t = m.toTime(pos.x());
    const uint64_t slack = uint64_t(std::ceil(m.nsPerPixel() * 3));
    for (const TrackRow& row : layout(area, o)) {
        if (!row.rect.contains(pos))
            continue;
        const bool gcLane = pos.y() >= row.rect.top() + 20;
        if (row.track == Track::Capabilities) {
            if (const Span* s = spanNear(row.cap, gcLane, t, slack))
                return SelectedItem{Track::Capabilities, row.cap, gcLane, s->start(), s->end()};
        } else if (row.track == Track::Gc) {
            if (const Collection* c = collectionNear(t, slack))
                return SelectedItem{Track::Gc, -1, true, c->leaderStart, c->leaderEnd};
        }
        return std::nullopt;
    }
    return std::nullopt;
}

QString TimelineRenderer::describeAt(QPoint pos, const QRect& area,
                                     ViewRange view,
                                     const RenderOptions& o) const
{
    if (!m_index)
        return {};
    const QRect plot = plotArea(area);
    if (!plot.contains(pos))
        return {};
    const TimeMapping m(view, plot.left(), plot.width());
    const uint64_t t = m.toTime(pos.x());
    const uint64_t slack = uint64_t(std::ceil(m.nsPerPixel() * 3));
    for (const TrackRow& row : layout(area, o)) {
        if (!row.rect.contains(pos))
            continue;
        switch (row.track) {
        case Track::Activity: {
            const uint64_t a = m.toTime(pos.x() - 2),
                           b = std::max(a + 1, m.toTime(pos.x() + 3));
            SpanTotals sum;
            for (const Capability& c : m_index->caps)
                sum += c.timeline.totalsIn(a, b);
            const double d = double(b - a) * double(std::max<size_t>(1, m_index->caps.size()));
            return QObject::tr("At %1: %2 % running, %3 % GC")
                .arg(qs(formatDuration(t)))
                .arg(100.0 * double(sum.running()) / d, 0, 'f', 1)
                .arg(100.0 * double(sum.gc()) / d, 0, 'f', 1);
        }
        case Track::Capabilities: {
            const bool gcLane = pos.y() >= row.rect.top() + 20;
            if (const Span* found = spanNear(row.cap, gcLane, t, slack)) {
                const Span& s = *found;
                const QString when = QObject::tr("start %1, duration %2")
                                         .arg(qs(formatDuration(s.start())),
                                              qs(formatDuration(s.length())));
                if (!isGc(s.kind())) {
                    const ThreadInfo* th = m_index->thread(s.thread());
                    QString name = QObject::tr("Thread %1").arg(s.thread());
                    if (th && !th->label.empty())
                        name += QStringLiteral(" “%1”").arg(qs(th->label));
                    return QObject::tr("HEC %1: %2 running\n%3\nstopped: %4")
                        .arg(row.cap)
                        .arg(name, when, stopReasonText(s.stop()));
                }
                static const char* const phases[] = {
                    "", "GC", "GC: waiting for sync", "GC: working",
                    "GC: idle", "GC: done"};
                return QObject::tr("HEC %1: %2\n%3")
                    .arg(row.cap)
                    .arg(QString::fromLatin1(phases[size_t(s.kind())]), when);
            }
            return QObject::tr("HEC %1: idle at %2")
                .arg(row.cap)
                .arg(qs(formatDuration(t)));
        }
        case Track::Gc:
            if (const Collection* found = collectionNear(t, slack)) {
                const Collection& c = *found;
                QString s = QObject::tr(
                                "Collection: generation %1%2\nstart %3, pause %4, %5 "
                                "capabilities")
                                .arg(c.generation)
                                .arg(c.parallel() ? QObject::tr(", parallel (%1 threads)")
                                                        .arg(c.parThreads)
                                                  : QString())
                                .arg(qs(formatDuration(c.leaderStart)),
                                     qs(formatDuration(c.pause())))
                                .arg(c.caps);
                if (c.hasStats)
                    s += QObject::tr("\ncopied %1 bytes, slop %2 bytes")
                             .arg(c.copied)
                             .arg(c.slop);
                return s;
            }
            return {};
        case Track::HeapProfile:
            if (m_index->heapBands.empty())
                return {};
            return describeHeapProfile(t, o);
        case Track::Heap: {
            const HeapSeries& h = m_index->heap;
            if (h.empty())
                return {};
            // Figures held at t (the latest sample at or before it).
            auto at = [&](const Series& series) -> QString {
                auto it = std::upper_bound(series.begin(), series.end(), t, [](uint64_t v, const SeriesPoint& pt) { return v < pt.time; });
                if (it == series.begin())
                    return QStringLiteral("–");
                return QStringLiteral("%1 MB").arg((it - 1)->value / 1e6, 0, 'f', 2);
            };
            const uint64_t a = m.toTime(pos.x() - 2), b = std::max(a + 1, m.toTime(pos.x() + 3));
            const std::vector<double> rate = columnRates(h.allocated, a, b, 1);
            return QObject::tr("At %1\nheap size %2\nblocks size %3\nlive %4\nallocation rate %5")
                .arg(qs(formatDuration(t)), at(h.size), at(h.blocks), at(h.live),
                     rate.empty() || std::isnan(rate[0]) ? QStringLiteral("–") : QStringLiteral("%1 MB/s").arg(rate[0] / 1e6, 0, 'f', 1));
        }
        case Track::Sparks: {
            if (row.cap < 0)
                return {};
            const Capability& cap = m_index->caps[size_t(row.cap)];
            const uint64_t a = m.toTime(pos.x() - 2), b = std::max(a + 1, m.toTime(pos.x() + 3));
            const auto buckets = sparkBuckets(cap, a, b - a, 1);
            const SparkTotals st = buckets.empty() ? SparkTotals{} : buckets[0];
            const double perMs = 1e6 / double(b - a);
            auto it = std::upper_bound(cap.sparks.begin(), cap.sparks.end(), t, [](uint64_t v, const SparkCounters& c) { return v < c.time; });
            const QString pool = it == cap.sparks.begin() ? QStringLiteral("–") : QString::number((it - 1)->remaining);
            return QObject::tr("HEC %1 sparks at %2\ncreated %3 /ms, converted %4 /ms\nfizzled %5, GC'd %6, dud %7, overflowed %8 in %9\npool %10")
                .arg(row.cap)
                .arg(qs(formatDuration(t)))
                .arg(double(st.created) * perMs, 0, 'f', 2)
                .arg(double(st.converted) * perMs, 0, 'f', 2)
                .arg(st.fizzled)
                .arg(st.gcd)
                .arg(st.dud)
                .arg(st.overflowed)
                .arg(qs(formatDuration(b - a)))
                .arg(pool);
        }
        case Track::Markers: {
            const auto& ms = m_index->messages;
            auto it = std::partition_point(
                m_index->messagesByTime.begin(), m_index->messagesByTime.end(),
                [&](uint32_t i) { return ms[i].time + slack < t; });
            if (it != m_index->messagesByTime.end() && ms[*it].time <= t + slack) {
                const Message& msg = ms[*it];
                static const char* const kinds[] = {"Marker", "Message", "Log message",
                                                    "Binary message"};
                return QObject::tr("%1 at %2 (HEC %3)\n%4")
                    .arg(QString::fromLatin1(kinds[msg.kind]),
                         qs(formatDuration(msg.time)))
                    .arg(msg.cap == UINT16_MAX ? QStringLiteral("-")
                                               : QString::number(msg.cap))
                    .arg(qs(std::string(m_index->textOf(msg.text))).left(500));
            }
            return {};
        }
        }
    }
    return {};
}

} // namespace hecscope
