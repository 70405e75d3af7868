#include "core/text/units.h"
#include "ui/timeline/legendwriter.h"
#include "ui/timeline/timelinerenderer.h"

#include <QFontMetrics>
#include <QObject>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace hecscope {

namespace {

const QColor kMarkerColour(0x8e, 0x44, 0xad);
const QColor kMessageColour(0x29, 0x80, 0xb9);

// The messages drawn in view: one per pixel column and kind (markers
// first), in pixels from the plot's left edge.
struct MarkerItem {
    double x;
    uint32_t message;  // index into LogIndex::messages
    uint32_t more = 0; // further messages of its kind in its pixel column
};

struct MarkersList final : DrawList {
    std::vector<MarkerItem> items; // by x
};

// User markers as labelled lines across every track, other messages as
// ticks in the row.
class MarkersTrack final : public TimelineTrack {
public:
    QString id() const override { return QStringLiteral("markers"); }
    QString title() const override { return QObject::tr("Markers"); }
    QString menuText() const override { return QObject::tr("&Markers and messages"); }
    int rowHeight(const TrackContext&) const override { return 34; }
    QString emptyNote(const TrackContext& ctx) const override
    {
        return ctx.index.messages.empty()
            ? QObject::tr("no markers or messages in this log (traceMarker, traceEvent)")
            : QString();
    }

    bool paintsAcrossRows(const TrackContext&) const override { return true; } // a marker's line

    std::shared_ptr<const DrawList> prepare(const TrackContext& ctx, ViewRange view, int width) const override
    {
        auto list = std::make_shared<MarkersList>();
        const LogIndex& ix = ctx.index;
        const TimeMapping m(view, 0, std::max(1, width));
        auto it = std::partition_point(ix.messagesByTime.begin(), ix.messagesByTime.end(),
                                       [&](uint32_t i) { return ix.messages[i].time < view.start; });
        int lastMarker = INT32_MIN, lastMessage = INT32_MIN;
        size_t markerItem = 0, messageItem = 0;
        for (; it != ix.messagesByTime.end() && ix.messages[*it].time <= view.end; ++it) {
            const double x = m.toPixel(ix.messages[*it].time);
            const bool marker = ix.messages[*it].kind == Message::Marker;
            int& last = marker ? lastMarker : lastMessage;
            size_t& item = marker ? markerItem : messageItem;
            if (int(x) == last) {
                ++list->items[item].more;
                continue;
            }
            last = int(x);
            item = list->items.size();
            list->items.push_back({x, *it});
        }
        return list;
    }

    void paint(QPainter& p, const TrackRowGeometry& g, const DrawList& d, const TrackContext& ctx) const override
    {
        const LogIndex& ix = ctx.index;
        const QRect& r = g.plot;
        const QFontMetrics fm(p.font());
        // Labels never overlap: two staggered lanes, and a label with no
        // room in either is counted into the next one drawn ("+3 · …"), so
        // none is dropped without saying so.
        double laneEnd[2] = {-1e9, -1e9};
        int hidden = 0;
        const int laneHeight = (r.height() - 4) / 2;
        auto label = [&](double x, QString text) -> bool {
            for (int lane = 0; lane < 2; ++lane) {
                if (x <= laneEnd[lane])
                    continue;
                if (hidden > 0)
                    text = QObject::tr("+%1 · %2").arg(hidden).arg(text);
                text = fm.elidedText(text, Qt::ElideRight, std::max(40, int(r.right() - x - 6)));
                p.setPen(ctx.options.palette.color(QPalette::Text));
                p.drawText(QPointF(x + 3, r.top() + 2 + lane * laneHeight + fm.ascent()), text);
                laneEnd[lane] = x + 3 + fm.horizontalAdvance(text) + 6;
                hidden = 0;
                return true;
            }
            ++hidden;
            return false;
        };
        QColor markerLine = kMarkerColour;
        markerLine.setAlpha(150);
        for (const MarkerItem& item : static_cast<const MarkersList&>(d).items) {
            const Message& msg = ix.messages[item.message];
            const double x = r.left() + item.x;
            if (msg.kind != Message::Marker) {
                p.setPen(QPen(kMessageColour, 1));
                p.drawLine(QPointF(x, r.bottom() - 7), QPointF(x, r.bottom()));
                continue;
            }
            p.setPen(QPen(markerLine, 1));
            p.drawLine(QPointF(x, g.tracksPlot.top()), QPointF(x, g.tracksPlot.bottom()));
            QString text = fm.elidedText(QString::fromStdString(std::string(ix.textOf(msg.text))), Qt::ElideRight, 160);
            if (item.more) // the others in its pixel column
                text += QObject::tr(" (+%1 here)").arg(item.more);
            if (!label(x, text))
                hidden += int(item.more);
        }
        if (hidden > 0) { // after the last label drawn: said at the row's right end
            const QString more = QObject::tr("+%1 more (zoom in)").arg(hidden);
            const int w = fm.horizontalAdvance(more);
            p.fillRect(QRect(r.right() - w - 6, r.top() + 2 + laneHeight, w + 6, laneHeight), ctx.options.palette.color(QPalette::Base));
            p.setPen(ctx.options.palette.color(QPalette::Text));
            p.drawText(QPointF(r.right() - w - 3, r.top() + 2 + laneHeight + fm.ascent()), more);
        }
    }

    // The drawn message nearest to the pointer, within 3 pixels.
    QString describe(const TrackRowGeometry& g, QPoint pos, const DrawList& d, const TrackContext& ctx) const override
    {
        const auto& items = static_cast<const MarkersList&>(d).items;
        const double x = pos.x() - g.plot.left();
        auto it = std::lower_bound(items.begin(), items.end(), x - 3,
                                   [](const MarkerItem& i, double v) { return i.x < v; });
        const MarkerItem* best = nullptr;
        for (; it != items.end() && it->x <= x + 3; ++it)
            if (!best || std::abs(it->x - x) < std::abs(best->x - x))
                best = &*it;
        if (!best)
            return {};
        const Message& msg = ctx.index.messages[best->message];
        static const char* const kinds[] = {"Marker", "Message", "Log message", "Binary message"};
        return QObject::tr("%1 at %2 (HEC %3)\n%4")
            .arg(QString::fromLatin1(kinds[msg.kind]), QString::fromStdString(formatTimestamp(msg.time)))
            .arg(msg.cap == UINT16_MAX ? QStringLiteral("-") : QString::number(msg.cap))
            .arg(QString::fromStdString(std::string(ctx.index.textOf(msg.text))).left(500));
    }

    void addLegend(LegendWriter& legend, const TrackContext&) const override
    {
        legend.entry(QObject::tr("marker"), [](QPainter& p, QRect box) {
            p.fillRect(QRect(box.center().x(), box.top(), 2, box.height()), kMarkerColour);
        });
        legend.entry(QObject::tr("message"), [](QPainter& p, QRect box) {
            p.fillRect(QRect(box.center().x(), box.top() + 4, 1, box.height() - 4), kMessageColour);
        });
    }
};

} // namespace

std::unique_ptr<TimelineTrack> makeMarkersTrack()
{
    return std::make_unique<MarkersTrack>();
}

} // namespace hecscope
