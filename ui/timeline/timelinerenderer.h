#pragma once

#include "core/detail/detailstore.h"
#include "core/index/logindex.h"
#include "core/time/viewrange.h"
#include "ui/heap/heapview.h"
#include "ui/profile/profilehighlight.h"
#include "ui/timeline/legendpicture.h"
#include "ui/timeline/tracks/timelinetrack.h"
#include "ui/timeline/tracks/trackstates.h"
#include "ui/timeline/tracks/trackregistry.h"
#include "ui/timeline/tracks/trackresources.h"

#include <cstdint>
#include <map>

#include <QFont>
#include <QPalette>
#include <QRect>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>
#include <vector>

class QPainter;

class QMenu;

namespace hecscope {

struct RenderOptions {
    std::vector<QString> tracks = defaultTrackIds(); // top to bottom, by TimelineTrack::id()
    // The label column at least this wide: two runs' timelines stacked on
    // one time axis take the wider of their columns, so that a time is at
    // the same x in both.
    int minLabelWidth = 0;
    // Pixels between the label column and the plot where the log has no
    // time yet: a run placed later on an axis it shares with another
    // (TimelineView::setTimeBias). Drawn blank, hatched.
    int leadingBlank = 0;
    // The part of the area on screen (a view in a scroll area): the rows
    // wholly outside it are neither prepared nor painted. None: all of it
    // (an export).
    std::optional<QRect> visible;
    QPalette palette;
    QFont font; // the labels' (the widget's; the application's by default)
    std::optional<ViewRange> selection;
    std::optional<uint64_t> cursor;       // ns: the cursor line
    std::optional<uint64_t> highlight;    // ns: a search hit or selected event
    std::vector<uint64_t> bookmarks;      // ns: the user's bookmarks, flagged on the ruler
    std::optional<SelectedItem> selected; // outlined
    // A live log: from here on, some capability's events have not arrived
    // yet (they come in per-capability blocks). Hatched and said on the
    // ruler, so that a half-merged stretch is never taken for idle time.
    std::optional<uint64_t> pendingFrom;
    // A live session keeping only its latest stretch: before this, events
    // were dropped from the index.
    std::optional<uint64_t> droppedBefore;
    bool legend = true;                   // a row explaining every colour, below the tracks
    // The tracks fill the area (exports): the rows of tracks that stretch
    // share the height the others and a legend sized to its entries leave,
    // in proportion to their natural heights.
    bool fill = false;
    // What the user chose for each track (the heap bands and mode, the
    // thread rows, the chosen profile frame, the instant kinds shown, …),
    // by its type; none: the track's default (TrackResources::heapView,
    // threadRows).
    TrackStates states;
    // Drawn in every track's rows instead of its data when set: the index
    // is not there yet ("loading…") or there is none to show.
    QString placeholder;
    // The open log's detail read back from its file (instants), shared with
    // the view's workers; null: none is drawn. `waitForDetail`: read what
    // is missing while preparing (exports), else draw what is cached and
    // leave the rest in TimelineRenderer::takeWantedInstants.
    std::shared_ptr<DetailStore> detail;
    bool waitForDetail = false;
    // Row heights the user chose by dragging a row's bottom edge, by track
    // id (tracks that stretch only); absent: the track's own.
    std::map<QString, int> rowHeights;
};

// One row of the layout: a row of a track (a track may have one per
// capability).
struct TrackRow {
    const TimelineTrack* track = nullptr;
    int cap = -1; // the row within its track; -1 for a track of one row
    QRect rect;   // whole row, label column included
    QString id() const { return track ? track->id() : QString(); }
};

// What the legend below the tracks lists: the names of its entries, then
// the ids of the tracks that add a block of their own (the heap-profile
// bands).
struct LegendContent {
    QStringList entries;
    std::vector<QString> blocks;
};

// Draws the timeline of an index onto any QPainter (widget, image, SVG, PDF)
// by iterating the tracks of RenderOptions: the ruler on top, each track's
// rows, the legend, then the selection, bookmarks and cursor over them.
// Each track's draw list is prepared once per (view, width, index, variant)
// and cached, so a cursor move or a hover repaints without new
// level-of-detail queries; hit tests and tooltips read the same lists.
// One renderer per canvas (the window's view, an export, the benchmark);
// not thread-safe.
class TimelineRenderer {
public:
    // The label column: as wide as the shown labels need (labelWidth),
    // from kLabelWidth up to kMaxLabelWidth; wider labels are elided and
    // their tooltip (labelTipAt) says them whole.
    static constexpr int kLabelWidth = 96;
    static constexpr int kMaxLabelWidth = 160;
    // A track without data in this log (TimelineTrack::emptyNote): one line.
    static constexpr int kCollapsedHeight = 18;
    static constexpr int kRulerHeight = 26;
    static constexpr int kLegendHeight = 60; // up to three lines (RenderOptions::fill: as many as it needs)

    void setIndex(std::shared_ptr<const LogIndex> index);
    const LogIndex* index() const { return m_resources.indexOrNull(); }
    // The log's time span, for fitting the view.
    ViewRange bounds() const { return boundsOf(index()); }
    static ViewRange boundsOf(const LogIndex* index);

    std::vector<TrackRow> layout(const QRect& area, const RenderOptions& o) const;
    // `o` with the tracks that do not stretch fitted to `area`
    // (RenderOptions::fill): every track takes the share of the height its
    // natural height has, the threads in whole rows. Unchanged unless fill.
    RenderOptions fitted(const QRect& area, const RenderOptions& o) const;
    // The layout row at `pos` (label column included), if any.
    std::optional<TrackRow> rowAt(QPoint pos, const QRect& area, const RenderOptions& o) const;
    // The track under `pos` (in its label column) handles a click, the
    // wheel or its context menu (TimelineTrack::labelClicked, …); false:
    // no track there, or it does not.
    bool labelClicked(QPoint pos, QPoint global, const QRect& area, const RenderOptions& o) const;
    bool labelWheel(QPoint pos, QPoint global, int delta, const QRect& area, const RenderOptions& o) const;
    void addContextActions(QMenu& menu, QPoint pos, QPoint global, const QRect& area, const RenderOptions& o,
                           TrackStatesEdit editStates = {}) const;
    // Height the tracks need at their natural size.
    int naturalHeight(const RenderOptions& o) const;
    // The legend of `o`: only the shown tracks' colours, a bookmark's when
    // there are bookmarks.
    LegendContent legendContent(const RenderOptions& o) const;
    // The label column's width for `o` (its tracks' labels in o.font).
    int labelWidth(const RenderOptions& o) const;
    // The time area of `area` (right of the label column).
    QRect plotArea(const QRect& area, const RenderOptions& o) const;
    // The x where the label column ends (the plot starts there unless a
    // leading blank comes first).
    int labelEdge(const QRect& area, const RenderOptions& o) const { return area.left() + labelWidth(o); }
    // The full label under `pos` in the label column when it is drawn
    // elided there; else empty.
    QString labelTipAt(QPoint pos, const QRect& area, const RenderOptions& o) const;

    void paint(QPainter& p, const QRect& area, ViewRange view, const RenderOptions& o) const;
    // After paint(), when only `visible` of `area` is on screen (a window
    // whose tracks scroll): the ruler (with the selection, cursor and
    // bookmarks on it) painted again at the top of `visible` and the legend
    // at its bottom, over the rows there, so that both stay in sight.
    void paintPinned(QPainter& p, const QRect& area, const QRect& visible, ViewRange view,
                     const RenderOptions& o) const;
    // The strips paintPinned() covers in `visible` (empty when not pinned):
    // the pointer there is over the ruler or the legend, not the rows under.
    QRect pinnedRuler(const QRect& area, const QRect& visible) const;
    QRect pinnedLegend(const QRect& area, const QRect& visible, const RenderOptions& o) const;
    // `pos` in a pinned strip moved to the same place of the ruler or legend
    // where they are in `area`, so that hit tests and tooltips read what is
    // drawn there; elsewhere `pos` itself.
    QPoint unpinned(QPoint pos, const QRect& area, const QRect& visible, const RenderOptions& o) const;
    // The item at `pos`, if any (from the draw list the paint used).
    std::optional<SelectedItem> itemAt(QPoint pos, const QRect& area, ViewRange view, const RenderOptions& o) const;
    // Text for a tooltip at `pos`, empty when nothing is there.
    QString describeAt(QPoint pos, const QRect& area, ViewRange view, const RenderOptions& o) const;
    // The heap view the heap-profile track draws for `o`.
    std::shared_ptr<const HeapView> heapViewFor(const RenderOptions& o) const;
    // The column of the heap-profile selection drawn at `pos`: the band
    // under it when stacked or normalised, the line within 5 pixels in the
    // lines mode.
    std::optional<size_t> heapColumnAt(QPoint pos, const QRect& area, ViewRange view, const RenderOptions& o) const;
    // A track's draw list for (view, width), from the cache or made now.
    std::shared_ptr<const DrawList> drawList(const TimelineTrack& track, const RenderOptions& o, ViewRange view,
                                             int width) const;
    // Draw lists prepared so far (for tests of the cache).
    uint64_t preparedCount() const { return m_prepared; }
    // Rows painted after the others so far, their track's preparing begun
    // on a worker (TimelineTrack::prefetch); for tests.
    uint64_t rowsPaintedLater() const { return m_paintedLater; }
    // Views with more spans than this get their levels of detail made on a
    // worker too (TrackResources::kParallelSpans; tests: 0 always).
    void setParallelSpans(size_t spans) { m_resources.setParallelSpans(spans); }
    // The charts (QCustomPlot: GUI thread only) recorded into `r` instead
    // of drawn, or drawn from `r`: an export painted on a worker thread.
    // The units of detail the last paints wanted and did not find cached
    // (RenderOptions::detail); emptied by the call.
    std::vector<InstantUnitKey> takeWantedInstants() const { return std::exchange(m_resources.wantedInstants(), {}); }
    std::vector<ThreadWindowKey> takeWantedThreads() const
    {
        return std::exchange(m_resources.wantedThreads(), {});
    }
    void recordCharts(std::shared_ptr<ChartRecording> r) const { m_resources.charts().recordInto(std::move(r)); }
    void replayCharts(std::shared_ptr<const ChartRecording> r) const { m_resources.charts().replayFrom(std::move(r)); }
    // Whether the user may set the row's height (RenderOptions::rowHeights).
    // Not a track collapsed to its note (TimelineTrack::emptyNote).
    bool resizable(const TrackRow& row, const RenderOptions& o) const { return rowStretches(*row.track, o); }

private:
    // Whether drawList(track, o, view, width) is cached.
    bool hasDrawList(const TimelineTrack& track, const RenderOptions& o, ViewRange view, int width) const;
    struct Hit {
        TrackRow row;
        TrackRowGeometry geometry;
        std::shared_ptr<const DrawList> list;
    };
    std::optional<Hit> hitAt(QPoint pos, const QRect& area, ViewRange view, const RenderOptions& o) const;
    TrackContext context(const RenderOptions& o) const { return {m_resources.index(), o, m_resources}; }
    bool rowStretches(const TimelineTrack& track, const RenderOptions& o) const;
    void writeLegend(LegendWriter& legend, const RenderOptions& o) const;
    int legendLines(const RenderOptions& o, int width) const;
    // `width`: the area's, for a legend sized to its entries (fill).
    int legendHeight(const RenderOptions& o, int width) const;
    void stretchRows(std::vector<TrackRow>& rows, const QRect& area, const RenderOptions& o) const;
    void paintRuler(QPainter& p, const QRect& r, const TimeMapping& m, const QPalette& pal) const;
    void paintLegend(QPainter& p, const QRect& r, const RenderOptions& o) const;
    void paintOverlays(QPainter& p, const QRect& area, const TimeMapping& m, const std::vector<TrackRow>& rows,
                       const RenderOptions& o) const;

    struct CacheEntry {
        const TimelineTrack* track;
        ViewRange view;
        int width;
        const void* variant;
        std::shared_ptr<const DrawList> list;
    };
    mutable TrackResources m_resources;
    mutable std::vector<CacheEntry> m_cache; // the latest list of each track
    mutable uint64_t m_prepared = 0;
    mutable uint64_t m_paintedLater = 0;
    struct LabelWidthEntry {
        const LogIndex* index = nullptr;
        uint64_t serial = 0;
        std::vector<QString> tracks;
        QString font;
        size_t pinned = 0;
        const void* spans = nullptr;
        int width = -1;
    };
    mutable LabelWidthEntry m_labelWidth; // the last one computed
    mutable LegendPicture m_legendPicture; // the legend's lines, painted once while they stay the same
};

QString stopReasonText(uint8_t stop);

} // namespace hecscope
