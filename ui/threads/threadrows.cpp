#include "ui/threads/threadrows.h"

#include "core/text/units.h"
#include "core/threads/threadstats.h"
#include "core/threads/userspans.h"
#include "ui/colours.h"
#include "ui/formatting.h"

#include <QFontMetrics>
#include <QObject>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>
#include <string_view>

namespace hecscope {

using namespace threadrow;

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

std::vector<uint32_t> ThreadRowsView::nearbyRows(int screens) const
{
    const size_t shown = size_t(shownRows()), margin = size_t(std::max(screens, 0)) * shown;
    const size_t top = std::min(first, order.size());
    const size_t from = top - std::min(top, margin), to = shown ? std::min(order.size(), top + shown + margin) : from;
    std::vector<uint32_t> rows(order.begin() + ptrdiff_t(from), order.begin() + ptrdiff_t(to));
    rows.insert(rows.end(), pinned.begin(), pinned.end());
    return rows;
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
    if (const ThreadLabel label = ix.labelOf(id); !label.empty())
        return QObject::tr("%1 (%2)").arg(qs(label)).arg(id);
    return QObject::tr("thread %1").arg(id);
}

int threadNamesWidth(const LogIndex& ix, const QFontMetrics& fm)
{
    if (ix.threads.empty())
        return 0;
    const uint32_t maxId = uint32_t(ix.threads.size() - 1); // by id
    // Measured: the distinct labels of the longest few lengths (a log may
    // label 100,000 threads, and a live one asks again at every update).
    // (The labelled threads only: ThreadTable keeps them apart.)
    size_t longest = 0;
    for (const auto& [id, label] : ix.threads.labels())
        longest = std::max(longest, label.size());
    std::set<std::string_view> labels;
    for (const auto& [id, label] : ix.threads.labels())
        if (label.size() + 4 >= longest && labels.size() < 64)
            labels.insert(label);
    int w = fm.horizontalAdvance(QObject::tr("thread %1").arg(maxId));
    for (std::string_view label : labels)
        w = std::max(w, fm.horizontalAdvance(
                            QObject::tr("%1 (%2)").arg(QString::fromUtf8(label.data(), qsizetype(label.size()))).arg(maxId)));
    return w;
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
    int capTextWidth = -1; // measured once a run may need it (zoomed out, the items are bins)
    for (const ThreadRowItem& item : row.items) {
        if (item.colour != ColourRunning || item.segment == UINT32_MAX)
            continue;
        const QRectF r(left + item.x0, top + kBarTop, std::max(1.0f, item.x1 - item.x0), kBarHeight);
        if (capTextWidth < 0)
            capTextWidth = QFontMetrics(p.font()).horizontalAdvance(QStringLiteral("00")) + 6;
        // Running: on which capability, where there is room.
        if (r.width() >= capTextWidth) {
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

// The segments a row's items index: read back, or the index's.
std::pair<const ThreadStates*, SegmentView> rowSegments(const LogIndex& ix, const PreparedThreadRow& row)
{
    if (row.detail)
        return {&row.detail->states, row.detailNumber == SIZE_MAX ? SegmentView() : row.detail->states.of(row.detailNumber)};
    return {&ix.threadStates, ix.threadStates.of(row.number)};
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
                text += QObject::tr("\nnever stopped: drawn to the end of the log, left out of the span figures");
            return text;
        }
    const ThreadRowItem* item = itemAtX(row, x);
    if (!item)
        return name;
    if (item->segment == UINT32_MAX) {
        if (!row.error.isEmpty())
            return QObject::tr("%1\nmostly %2 here; its states could not be read: %3").arg(name, threadColourName(item->colour), row.error);
        if (row.pending)
            return QObject::tr("%1\nmostly %2 here (reading each state from the file…)").arg(name, threadColourName(item->colour));
        if (row.coarse)
            return QObject::tr("%1\nmostly %2 here (zoom in for each state)").arg(name, threadColourName(item->colour));
        return QObject::tr("%1\nmostly %2 in this pixel (zoom in for each state)").arg(name, threadColourName(item->colour));
    }
    const auto [from, segs] = rowSegments(ix, row);
    const ThreadSegment& s = segs[item->segment];
    const uint64_t end = from->segmentEnd(segs, item->segment);
    // The last segment of a window read back may go on past it.
    const bool past = row.detail && item->segment + 1 == segs.size() && end < ix.lastTime;
    if (past)
        return QObject::tr("%1: %2, at least %3 (from %4 on, past the stretch read around the view)\nbegan: %5")
            .arg(name, QString::fromLatin1(threadStateName(s)), dur(end - s.time), dur(s.time), causeText(s));
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
    const auto [from, segs] = rowSegments(ix, row);
    return std::pair{segs[item->segment].time, from->segmentEnd(segs, item->segment)};
}

} // namespace hecscope
