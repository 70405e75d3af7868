#include "ui/threads/threadrows.h"

#include "core/text/units.h"
#include "core/threads/threadstats.h"
#include "core/threads/userspans.h"

#include <QFontMetrics>
#include <QObject>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace hecscope {

namespace {

constexpr int kBarTop = 2, kBarHeight = 10;     // the state bar within a row
constexpr int kSpanTop = 13, kSpanHeight = 3;   // span bars, one level per depth
constexpr int kSpanLevels = 3;                  // deeper spans share the last level
constexpr int kSamplesPerPixel = 8;             // segments read per pixel before skipping to the next
constexpr int kMarkGap = 5;                     // pixels between marks of one kind

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

// Span colours: a hue per name, stable across runs.
QColor spanColour(uint32_t name)
{
    return QColor::fromHsv(int((name * 137u) % 360u), 110, 215);
}

} // namespace

int ThreadRowsView::shownRows() const
{
    if (collapsed)
        return 0;
    return int(std::min<size_t>(size_t(std::max(visibleRows, 1)), order.size()));
}

std::optional<uint32_t> ThreadRowsView::threadAtRow(int row) const
{
    if (row < 0 || row >= shownRows() || first + size_t(row) >= order.size())
        return std::nullopt;
    return order[first + size_t(row)];
}

std::shared_ptr<const ThreadRowsView> ThreadRowsView::makeDefault(const LogIndex& ix)
{
    auto v = std::make_shared<ThreadRowsView>();
    v->indexSerial = ix.serial;
    v->order.resize(ix.threadStates.count());
    for (size_t k = 0; k < v->order.size(); ++k)
        v->order[k] = uint32_t(k);
    v->total = v->order.size();
    v->sortName = QObject::tr("id");
    v->spans = ix.userSpans;
    return v;
}

QColor threadColour(int colour)
{
    switch (colour) {
    case ColourRunning: return QColor(0x2e, 0x9d, 0x5b); // as running on the HEC rows
    case ColourRunnable: return QColor(0xf1, 0xc4, 0x0f);
    case ColourUnknown: return QColor(0xb0, 0xb0, 0xb0);
    default: break;
    }
    // Blocked: blues and cool hues, apart from the GC oranges and reds of
    // the capability rows; light for waits that are usually idle (delay).
    static const QColor blocked[kBlockReasons] = {
        QColor(0x2f, 0x6f, 0xb0), // MVar
        QColor(0x7f, 0xb0, 0xe0), // MVar read
        QColor(0x2c, 0x3e, 0x50), // black hole
        QColor(0x16, 0xa0, 0x85), // read
        QColor(0x0e, 0x6e, 0x5c), // write
        QColor(0xc5, 0xd3, 0xe0), // delay (sleeping)
        QColor(0x8e, 0x44, 0xad), // STM
        QColor(0x7f, 0x8c, 0x8d), // process
        QColor(0x79, 0x55, 0x48), // foreign call
        QColor(0xc2, 0x18, 0x5b), // throwTo
        QColor(0x9e, 0x9e, 0x9e), // other
    };
    const int r = colour - ColourBlocked;
    return r >= 0 && r < int(kBlockReasons) ? blocked[r] : QColor(Qt::gray);
}

QString threadColourName(int colour)
{
    switch (colour) {
    case ColourRunning: return QObject::tr("running");
    case ColourRunnable: return QObject::tr("runnable");
    case ColourUnknown: return QObject::tr("no stop event");
    default: break;
    }
    static const char* const names[kBlockReasons] = {
        QT_TRANSLATE_NOOP("ThreadRows", "MVar"),         QT_TRANSLATE_NOOP("ThreadRows", "MVar read"),
        QT_TRANSLATE_NOOP("ThreadRows", "black hole"),   QT_TRANSLATE_NOOP("ThreadRows", "read"),
        QT_TRANSLATE_NOOP("ThreadRows", "write"),        QT_TRANSLATE_NOOP("ThreadRows", "delay"),
        QT_TRANSLATE_NOOP("ThreadRows", "STM"),          QT_TRANSLATE_NOOP("ThreadRows", "process"),
        QT_TRANSLATE_NOOP("ThreadRows", "foreign call"), QT_TRANSLATE_NOOP("ThreadRows", "throwTo"),
        QT_TRANSLATE_NOOP("ThreadRows", "blocked (other)")};
    const int r = colour - ColourBlocked;
    return r >= 0 && r < int(kBlockReasons) ? QObject::tr(names[r]) : QString();
}

uint8_t threadColourOf(const ThreadSegment& s)
{
    switch (s.state) {
    case ThreadState::Running: return ColourRunning;
    case ThreadState::Runnable: return ColourRunnable;
    case ThreadState::Blocked: return uint8_t(ColourBlocked + int(blockReasonOf(s)));
    default: return ColourUnknown;
    }
}

QString threadName(const LogIndex& ix, uint32_t id)
{
    const ThreadInfo* t = ix.thread(id);
    if (t && !t->label.empty())
        return QObject::tr("%1 (%2)").arg(qs(t->label)).arg(id);
    return QObject::tr("thread %1").arg(id);
}

namespace {

// Pixel columns [first, last) of the view covered by [start, end).
std::pair<int, int> pixelsOf(const TimeMapping& m, int width, uint64_t start, uint64_t end)
{
    const double a = std::max(m.toPixel(start), 0.0), b = std::min(m.toPixel(end), double(width));
    return {int(a), std::max(int(std::ceil(b)), int(a))};
}

// The time at each pixel column's left edge, and one more at the right.
std::vector<uint64_t> pixelEdges(const TimeMapping& m, int width)
{
    std::vector<uint64_t> edges(size_t(width) + 1);
    const double start = double(m.range().start), step = m.nsPerPixel();
    for (int px = 0; px <= width; ++px)
        edges[size_t(px)] = uint64_t(std::max(0.0, start + step * px));
    return edges;
}

// The bins [b0, b1) a pixel column covers.
std::pair<uint64_t, uint64_t> binsOf(const std::vector<uint64_t>& edges, int px, uint64_t start, uint64_t binWidth,
                                     uint64_t bins)
{
    const uint64_t t0 = std::max(edges[size_t(px)], start), t1 = std::max(edges[size_t(px) + 1], start);
    const uint64_t b0 = std::min<uint64_t>((t0 - start) / binWidth, bins);
    return {b0, std::clamp<uint64_t>((t1 - start + binWidth - 1) / binWidth, b0 + 1, bins)};
}

// Zoomed out past a bin per pixel: each pixel shows the commonest state of
// its bins; marks for creation and the end only.
void prepareFromOverview(const ThreadStates& states, uint32_t number, int level, const TimeMapping& m, int width,
                         const std::vector<uint64_t>& edges, PreparedThreadRow& row)
{
    const auto segs = states.of(number);
    const BinPyramid& ov = states.overviews[number];
    const uint8_t* keys = states.overviewKeys.data() + ov.offset + ov.levelOffset(level);
    const uint64_t binWidth = ov.levelWidth(level), bins = ov.levelBins(level);
    const auto [p0, p1] = pixelsOf(m, width, ov.start, ov.start + bins * binWidth);
    for (int px = p0; px < p1; ++px) {
        const auto [b0, b1] = binsOf(edges, px, ov.start, binWidth, bins);
        uint8_t colour = keys[b0]; // keys and colours share their numbering
        if (b1 - b0 > 1) {
            std::array<uint16_t, kThreadColours> votes{};
            for (uint64_t b = b0; b < b1; ++b)
                if (keys[b] != ThreadStates::kNoKey)
                    ++votes[keys[b]];
            const auto best = std::max_element(votes.begin(), votes.end());
            colour = *best ? uint8_t(best - votes.begin()) : ThreadStates::kNoKey;
        }
        if (colour == ThreadStates::kNoKey)
            continue;
        if (!row.items.empty() && row.items.back().colour == colour && row.items.back().x1 == float(px))
            row.items.back().x1 = float(px + 1);
        else
            row.items.push_back({float(px), float(px + 1), colour, 0, UINT32_MAX});
    }
    const ViewRange view = m.range();
    if (segs.front().cause == ThreadCause::Created && segs.front().time >= view.start && segs.front().time < view.end)
        row.marks.push_back({float(m.toPixel(segs.front().time)), uint8_t(ThreadCause::Created), 0});
    if (segs.back().state == ThreadState::Finished && segs.back().time >= view.start && segs.back().time < view.end)
        row.finishedAt = float(m.toPixel(segs.back().time));
}

// The same for span bars: per level, the name of a span in the pixel's bins.
void spansFromOverview(const UserSpans& spans, const BinPyramid& ov, int pyramidLevel, const TimeMapping& m, int width,
                       const std::vector<uint64_t>& edges, PreparedThreadRow& row)
{
    const uint32_t* names = spans.overviewNames.data() + ov.offset + ov.levelOffset(pyramidLevel) * UserSpans::kLevels;
    const uint64_t binWidth = ov.levelWidth(pyramidLevel), bins = ov.levelBins(pyramidLevel);
    const auto [p0, p1] = pixelsOf(m, width, ov.start, ov.start + bins * binWidth);
    for (size_t level = 0; level < UserSpans::kLevels; ++level)
        for (int px = p0; px < p1; ++px) {
            const auto [b0, b1] = binsOf(edges, px, ov.start, binWidth, bins);
            uint32_t name = 0;
            for (uint64_t b = b0; b < b1 && !name; ++b)
                name = names[b * UserSpans::kLevels + level];
            if (!name)
                continue;
            SpanBar* before = row.spans.empty() ? nullptr : &row.spans.back();
            if (before && before->depth == level && before->x1 == float(px) && before->name == name - 1)
                before->x1 = float(px + 1);
            else
                row.spans.push_back({float(px), float(px + 1), uint16_t(level), UINT32_MAX, name - 1});
        }
}

} // namespace

PreparedThreadRow prepareThreadRow(const LogIndex& ix, const UserSpans* spans, uint32_t number, ViewRange view,
                                   int width)
{
    PreparedThreadRow row;
    row.number = number;
    const ThreadStates& states = ix.threadStates;
    if (number >= states.count())
        return row;
    const auto segs = states.of(number);
    width = std::max(width, 1);
    const TimeMapping m(view, 0, width);

    const double nsPerPixel = m.nsPerPixel();
    const int overviewLevel = states.overviews.empty() ? -1 : states.overviews[number].levelFor(nsPerPixel);
    std::vector<uint64_t> edges; // made when an overview is read
    if (overviewLevel >= 0) {
        edges = pixelEdges(m, width);
        prepareFromOverview(states, number, overviewLevel, m, width, edges, row);
    } else {
    // Segments: exact where one covers a pixel boundary, else the dominant
    // state of the pixel's segments (reading at most kSamplesPerPixel of
    // them before skipping to the next pixel).
    std::array<uint64_t, kThreadColours> pixelTime{};
    int pixel = INT32_MIN;
    int pixelSamples = 0;
    const auto flushPixel = [&] {
        if (pixel == INT32_MIN)
            return;
        const auto best = std::max_element(pixelTime.begin(), pixelTime.end());
        if (*best > 0)
        {
            const uint8_t colour = uint8_t(best - pixelTime.begin());
            // Runs of pixels of one dominant state are one item.
            if (!row.items.empty() && row.items.back().segment == UINT32_MAX && row.items.back().colour == colour
                && row.items.back().x1 == float(pixel))
                row.items.back().x1 = float(pixel + 1);
            else
                row.items.push_back({float(pixel), float(pixel + 1), colour, 0, UINT32_MAX});
        }
        pixelTime.fill(0);
        pixel = INT32_MIN;
        pixelSamples = 0;
    };
    int lastMark[3] = {INT32_MIN, INT32_MIN, INT32_MIN};
    for (size_t i = segs.empty() ? 0 : ThreadStates::firstEndingAfter(segs, view.start);
         i < segs.size() && segs[i].time < view.end; ++i) {
        const ThreadSegment& s = segs[i];
        const uint64_t end = states.segmentEnd(segs, i);
        const double x0 = m.toPixel(std::max(s.time, view.start));
        const double x1 = m.toPixel(std::min(end, view.end));
        // Marks, one per pixel and kind.
        if (s.time >= view.start) {
            const int k = s.cause == ThreadCause::Created ? 0 : s.cause == ThreadCause::Wakeup ? 1
                : s.cause == ThreadCause::Migrate                                           ? 2
                                                                                            : -1;
            // Marks closer than kMarkGap pixels to the last of their kind
            // would only cover each other.
            if (k >= 0 && (lastMark[k] == INT32_MIN || int(x0) - lastMark[k] >= kMarkGap)) {
                lastMark[k] = int(x0);
                row.marks.push_back({float(x0), uint8_t(s.cause), uint32_t(i)});
            }
        }
        if (s.state == ThreadState::Finished) {
            flushPixel();
            if (s.time >= view.start)
                row.finishedAt = float(x0);
            continue;
        }
        if (end <= s.time && end != states.end)
            continue; // zero length
        const uint8_t colour = threadColourOf(s);
        if (int(x0) == int(x1) && x1 - x0 < 1) {
            // Inside one pixel.
            if (int(x0) != pixel) {
                flushPixel();
                pixel = int(x0);
            }
            pixelTime[colour] += std::max<uint64_t>(end - std::max(s.time, view.start), 1);
            if (++pixelSamples >= kSamplesPerPixel) {
                // Skip to the segment covering the next pixel's start.
                const size_t j = states.firstEndingAfterFrom(number, i, m.toTime(pixel + 1));
                if (j > i + 1)
                    i = j - 1;
                flushPixel();
            }
            continue;
        }
        flushPixel();
        row.items.push_back({float(x0), float(std::max(x1, x0 + 1)), colour, s.cap, uint32_t(i)});
    }
    flushPixel();

    }

    // Span bars of this thread, one level at a time. A span inside one
    // pixel stands for every span of its level that ends in that pixel:
    // the running maximum of ends finds the next one to read.
    if (spans) {
        const uint32_t id = states.ids[number];
        const auto t = std::lower_bound(spans->threadIds.begin(), spans->threadIds.end(), id);
        if (t != spans->threadIds.end() && *t == id) {
            const size_t thread = size_t(t - spans->threadIds.begin());
            const BinPyramid& sov = spans->threadOverviews[thread];
            if (const int pyramidLevel = sov.levelFor(nsPerPixel); pyramidLevel >= 0) {
                if (edges.empty())
                    edges = pixelEdges(m, width);
                spansFromOverview(*spans, sov, pyramidLevel, m, width, edges, row);
            }
            else
            for (size_t level = 0; level < UserSpans::kLevels; ++level) {
                const size_t g0 = spans->levelOffsets[thread * UserSpans::kLevels + level];
                const size_t g1 = spans->levelOffsets[thread * UserSpans::kLevels + level + 1];
                const uint64_t* maxEnd = spans->levelMaxEnd.data();
                // The first span with an end after `t`, from g (galloping).
                const auto firstEndingAfter = [&](size_t g, uint64_t time) {
                    size_t step = 1, lo = g;
                    if (lo >= g1 || maxEnd[lo] > time)
                        return lo;
                    while (lo + step < g1 && maxEnd[lo + step] <= time) {
                        lo += step;
                        step *= 2;
                    }
                    return size_t(std::upper_bound(maxEnd + lo, maxEnd + std::min(lo + step + 1, g1), time) - maxEnd);
                };
                int lastPixel = INT32_MIN;
                for (size_t g = firstEndingAfter(g0, view.start); g < g1;) {
                    const UserSpans::Extent& s = spans->levelExtents[g];
                    if (s.start >= view.end)
                        break;
                    const double x0 = m.toPixel(std::max(s.start, view.start));
                    const double x1 = m.toPixel(std::min(s.end, view.end));
                    if (x1 - x0 >= 1) {
                        row.spans.push_back({float(x0), float(x1), uint16_t(level), s.span, s.name});
                        lastPixel = int(x1);
                        ++g;
                        continue;
                    }
                    const int px = int(x0);
                    if (px != lastPixel) {
                        // Adjacent one-pixel bars of one name make one bar.
                        SpanBar* before = row.spans.empty() ? nullptr : &row.spans.back();
                        if (before && before->depth == level && before->x1 == float(px) && before->name == s.name
                            && before->x1 - before->x0 >= 1) {
                            before->x1 = float(px + 1);
                            before->span = UINT32_MAX;
                        } else {
                            row.spans.push_back({float(px), float(px + 1), uint16_t(level), s.span, s.name});
                        }
                        lastPixel = px;
                    } else if (!row.spans.empty() && row.spans.back().span != s.span) {
                        row.spans.back().span = UINT32_MAX; // several spans in this pixel
                    }
                    g = firstEndingAfter(g + 1, m.toTime(px + 1));
                }
            }
        }
    }

    // Pixels: a pixel shows the last item or bar drawn over it.
    row.strip = QImage(width, 1 + kSpanLevels, QImage::Format_ARGB32_Premultiplied);
    row.strip.fill(Qt::transparent);
    const auto fill = [&](int line, float x0, float x1, QRgb rgb) {
        QRgb* px = reinterpret_cast<QRgb*>(row.strip.scanLine(line));
        const int a = std::clamp(int(x0), 0, width - 1);
        const int b = std::clamp(std::max(int(std::ceil(x1)), a + 1), a + 1, width);
        std::fill(px + a, px + b, rgb);
    };
    QRgb stateRgb[kThreadColours];
    for (int c = 0; c < kThreadColours; ++c)
        stateRgb[c] = threadColour(c).rgba();
    for (const ThreadRowItem& item : row.items)
        fill(0, item.x0, item.x1, stateRgb[item.colour]);
    if (spans) {
        std::vector<std::pair<uint32_t, QRgb>> colours[kSpanLevels]; // per level: (name, colour), made on first use
        for (const SpanBar& b : row.spans) {
            const uint32_t name = b.name;
            auto& list = colours[b.depth];
            auto it = std::find_if(list.begin(), list.end(), [&](const auto& e) { return e.first == name; });
            if (it == list.end())
                it = list.insert(list.end(), {name, spanColour(name).darker(100 + 15 * b.depth).rgba()});
            fill(1 + b.depth, b.x0, b.x1, it->second);
        }
    }
    return row;
}

void paintThreadRow(QPainter& p, const QRect& plot, const PreparedThreadRow& row, const QPalette& pal, bool chosen)
{
    if (chosen) {
        QColor c = pal.color(QPalette::Highlight);
        c.setAlpha(40);
        p.fillRect(plot, c);
    }
    const double left = plot.left();
    const double top = plot.top();
    if (!row.strip.isNull()) {
        const int w = row.strip.width();
        // Each line drawn unscaled once per pixel row of its bar (scaling
        // a one-pixel-high image costs more than these plain copies).
        const QRect state(0, 0, w, 1);
        for (int y = 0; y < kBarHeight; ++y)
            p.drawImage(QPointF(left, top + kBarTop + y), row.strip, state);
        for (int level = 0; level < kSpanLevels; ++level)
            for (int y = 0; y < kSpanHeight; ++y)
                p.drawImage(QPointF(left, top + kSpanTop + level * kSpanHeight + y), row.strip, QRect(0, 1 + level, w, 1));
    }
    const QFontMetrics fm(p.font());
    const int capTextWidth = fm.horizontalAdvance(QStringLiteral("00")) + 6;
    for (const ThreadRowItem& item : row.items) {
        const QRectF r(left + item.x0, top + kBarTop, std::max(1.0f, item.x1 - item.x0), kBarHeight);
        // Running: on which capability, where there is room.
        if (item.colour == ColourRunning && item.segment != UINT32_MAX && r.width() >= capTextWidth) {
            QFont f = p.font();
            const QFont saved = f;
            f.setPixelSize(kBarHeight);
            p.setFont(f);
            p.setPen(Qt::white);
            p.drawText(r, Qt::AlignCenter, QString::number(item.cap));
            p.setFont(saved);
        }
    }
    for (const ThreadMark& mk : row.marks) {
        const double x = left + mk.x;
        switch (ThreadCause(mk.kind)) {
        case ThreadCause::Created: {
            const QPointF tri[] = {{x, top + kBarTop + kBarHeight}, {x - 3.5, top}, {x + 3.5, top}};
            p.setPen(Qt::NoPen);
            p.setBrush(pal.color(QPalette::Text));
            p.drawPolygon(tri, 3);
            break;
        }
        case ThreadCause::Wakeup: {
            // A small ring: a dark square with a light centre (as legible as
            // an ellipse at this size, and far cheaper to draw).
            const double y = top + kBarTop + kBarHeight / 2.0;
            p.fillRect(QRectF(x - 2, y - 2, 5, 5), pal.color(QPalette::Text));
            p.fillRect(QRectF(x - 1, y - 1, 3, 3), pal.color(QPalette::Base));
            break;
        }
        case ThreadCause::Migrate: {
            const double y = top + kBarTop + kBarHeight / 2.0;
            const QPointF diamond[] = {{x, y - 4}, {x + 3, y}, {x, y + 4}, {x - 3, y}};
            p.setPen(QPen(pal.color(QPalette::Base), 0.8));
            p.setBrush(QColor(0x8e, 0x44, 0xad));
            p.drawPolygon(diamond, 4);
            break;
        }
        default: break;
        }
    }
    if (row.finishedAt >= 0) {
        const double x = left + row.finishedAt;
        p.setPen(QPen(pal.color(QPalette::Text), 1.5));
        p.drawLine(QPointF(x, top + kBarTop - 1), QPointF(x, top + kBarTop + kBarHeight + 1));
        p.drawLine(QPointF(x - 3, top + kBarTop - 1), QPointF(x + 3, top + kBarTop - 1));
    }
}

namespace {

const ThreadRowItem* itemAtX(const PreparedThreadRow& row, double x)
{
    auto it = std::upper_bound(row.items.begin(), row.items.end(), x,
                               [](double v, const ThreadRowItem& i) { return v < i.x0; });
    if (it == row.items.begin())
        return nullptr;
    --it;
    return x < std::max(it->x1, it->x0 + 1) + 0.5 ? &*it : nullptr;
}

const SpanBar* spanAt(const PreparedThreadRow& row, double x, int y)
{
    if (y < kSpanTop)
        return nullptr;
    const int level = std::min((y - kSpanTop) / kSpanHeight, kSpanLevels - 1);
    const SpanBar* best = nullptr;
    for (const SpanBar& b : row.spans)
        if (b.depth == level && x >= b.x0 - 0.5 && x < std::max(b.x1, b.x0 + 1) + 0.5)
            best = &b; // the last drawn wins, as on screen
    return best;
}

QString causeText(const ThreadSegment& s)
{
    switch (s.cause) {
    case ThreadCause::Created: return QObject::tr("created on HEC %1").arg(s.cap);
    case ThreadCause::Run: return QObject::tr("run on HEC %1").arg(s.cap);
    case ThreadCause::Stop: return QObject::tr("stopped: %1").arg(QString::fromLatin1(threadStateName(s)));
    case ThreadCause::Wakeup: return QObject::tr("woken up (HEC %1)").arg(s.cap);
    case ThreadCause::Runnable: return QObject::tr("made runnable");
    case ThreadCause::Migrate: return QObject::tr("migrated to HEC %1").arg(s.cap);
    case ThreadCause::Replaced: return QObject::tr("another thread ran on its HEC without a stop event");
    }
    return {};
}

QString dur(uint64_t ns)
{
    return qs(formatDuration(ns));
}

} // namespace

QString describeThreadRow(const LogIndex& ix, const UserSpans* spans, const PreparedThreadRow& row, double x, int y,
                          int rowHeight)
{
    (void)rowHeight;
    const ThreadStates& states = ix.threadStates;
    if (row.number >= states.count())
        return {};
    const uint32_t id = states.ids[row.number];
    const QString name = threadName(ix, id);
    if (spans)
        if (const SpanBar* b = spanAt(row, x, y)) {
            if (b->span == UINT32_MAX)
                return {};
            const UserSpan& s = spans->spans[b->span];
            QString text = QObject::tr("%1 — span \"%2\"\n%3, self %4 (from %5 to %6), depth %7")
                               .arg(name, qs(spans->names[s.name]), dur(s.duration()), dur(s.self), dur(s.start),
                                    dur(s.end))
                               .arg(s.depth);
            if (s.flags & UserSpan::OpenAtEnd)
                text += QObject::tr("\nnever stopped: ends with the log");
            return text;
        }
    const ThreadRowItem* item = itemAtX(row, x);
    if (!item)
        return name;
    if (item->segment == UINT32_MAX)
        return QObject::tr("%1\nmostly %2 in this pixel (zoom in for each state)").arg(name, threadColourName(item->colour));
    const auto segs = states.of(row.number);
    const ThreadSegment& s = segs[item->segment];
    const uint64_t end = states.segmentEnd(segs, item->segment);
    QString state = QString::fromLatin1(threadStateName(s));
    if (s.state == ThreadState::Running)
        state = QObject::tr("running on HEC %1").arg(s.cap);
    else if (s.state == ThreadState::Blocked && blockReason(s.stop) == BlockReason::BlackHole && s.info)
        state += QObject::tr(" owned by %1").arg(threadName(ix, s.info));
    QString text = QObject::tr("%1: %2, %3 (from %4 to %5)\nbegan: %6")
                       .arg(name, state, dur(end - s.time), dur(s.time), dur(end), causeText(s));
    if (item->segment + 1 < segs.size())
        text += QObject::tr("\nended: %1").arg(causeText(segs[item->segment + 1]));
    else if (s.state == ThreadState::Running)
        text += QObject::tr("\nstill running at the end of the log");
    else
        text += QObject::tr("\nunchanged until the end of the log");
    return text;
}

std::optional<std::pair<uint64_t, uint64_t>> threadRowItemAt(const LogIndex& ix, const UserSpans* spans,
                                                             const PreparedThreadRow& row, double x, int y,
                                                             int rowHeight)
{
    (void)rowHeight;
    if (spans)
        if (const SpanBar* b = spanAt(row, x, y); b && b->span != UINT32_MAX)
            return std::pair{spans->spans[b->span].start, spans->spans[b->span].end};
    const ThreadRowItem* item = itemAtX(row, x);
    if (!item || item->segment == UINT32_MAX)
        return std::nullopt;
    const auto segs = ix.threadStates.of(row.number);
    return std::pair{segs[item->segment].time, ix.threadStates.segmentEnd(segs, item->segment)};
}

} // namespace hecscope
