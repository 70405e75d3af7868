#pragma once

#include "core/index/logindex.h"
#include "core/time/viewrange.h"

#include <QColor>
#include <QPalette>
#include <QRect>
#include <QString>

#include "ui/charts/chartpainter.h"

#include <memory>
#include <optional>
#include <vector>

class QPainter;

namespace hecscope {

// The tracks of the timeline, in their default order. The ruler is always
// drawn on top; `Capabilities` is one row per capability.
enum class Track { Activity,
                   Capabilities,
                   Gc,
                   Sparks,
                   Heap,
                   HeapProfile,
                   Markers };
constexpr Track kAllTracks[] = {Track::Activity, Track::Capabilities, Track::Gc, Track::Sparks,
                                Track::Heap, Track::HeapProfile, Track::Markers};
QString trackName(Track t);
std::optional<Track>
trackFromName(const QString& name); // "activity", "hecs", "gc", "sparks", "heap", "heap-profile", "markers"

// A clicked item: a span of a capability's lane, or a collection.
struct SelectedItem {
    Track track = Track::Capabilities;
    int cap = -1;
    bool gcLane = false;
    uint64_t start = 0, end = 0; // ns
    bool operator==(const SelectedItem&) const = default;
};

struct RenderOptions {
    std::vector<Track> tracks{std::begin(kAllTracks), std::end(kAllTracks)};
    QPalette palette;
    std::optional<ViewRange> selection;
    std::optional<uint64_t> cursor;       // ns: the cursor line
    std::optional<uint64_t> highlight;    // ns: a search hit or selected event
    std::vector<uint64_t> bookmarks;      // ns: the user's bookmarks, flagged on the ruler
    std::optional<SelectedItem> selected; // outlined
    bool legend = true;                   // a row explaining every colour, below the tracks
    // The heap-profile track's bands and mode; null: the top 15 by size, stacked.
    std::shared_ptr<const HeapView> heapView;
};

// One pixel column of the activity track: shares (0..1) of the capabilities'
// time spent running and in GC.
struct ActivityColumn {
    double running = 0;
    double gc = 0;
};

// One row of the layout: a track, or one capability of the Capabilities track.
struct TrackRow {
    Track track;
    int cap = -1;
    QRect rect; // whole row, label column included
};

// Draws the timeline of an index onto any QPainter (widget, image, SVG, PDF):
// the window, `hecscope export` and the render benchmark share it. Reads only
// the index's summaries and level-of-detail queries, so the work per paint is
// bounded by the width in pixels, not by the number of events.
class TimelineRenderer {
public:
    static constexpr int kLabelWidth = 96;
    static constexpr int kRulerHeight = 26;
    static constexpr int kLegendHeight = 60; // up to three lines
    static constexpr int kHeapLegendHeight = 40; // the heap-profile bands, two lines

    void setIndex(std::shared_ptr<const LogIndex> index);
    const LogIndex* index() const { return m_index.get(); }
    // The log's time span, for fitting the view.
    ViewRange bounds() const;

    std::vector<TrackRow> layout(const QRect& area, const RenderOptions& o) const;
    // Height the tracks need at their natural size.
    int naturalHeight(const RenderOptions& o) const;
    // The time area of `area` (right of the label column).
    static QRect plotArea(const QRect& area);

    void paint(QPainter& p, const QRect& area, ViewRange view,
               const RenderOptions& o) const;
    // The span or collection at `pos`, if any.
    std::optional<SelectedItem> itemAt(QPoint pos, const QRect& area, ViewRange view, const RenderOptions& o) const;
    // The heap view the track draws for `o`: its own when made for this
    // index, else the top 15 by size, stacked. Needs a heap profile.
    const HeapView& heapViewFor(const RenderOptions& o) const;
    // The column of the heap-profile selection drawn at `pos` (as last
    // painted): the band under it when stacked or normalised, the line
    // within 5 pixels in the lines mode.
    std::optional<size_t> heapColumnAt(QPoint pos, const QRect& area, ViewRange view, const RenderOptions& o) const;
    // Text for a tooltip at `pos`, empty when nothing is there.
    QString describeAt(QPoint pos, const QRect& area, ViewRange view,
                       const RenderOptions& o) const;

    // Every capability's level-of-detail items for `view` at `width` pixels.
    std::vector<std::vector<LodItem>> capabilityLods(ViewRange view, int width) const;
    // Share of the capabilities running and in GC in each pixel column,
    // computed from those items.
    std::vector<ActivityColumn> activity(ViewRange view, int width, const std::vector<std::vector<LodItem>>& lods) const;

    static QColor threadColor(uint32_t thread);
    static QColor spanColor(SpanKind kind);

private:
    int rowHeight(Track t) const;
    void paintRuler(QPainter& p, const QRect& r, const TimeMapping& m,
                    const QPalette& pal) const;
    void paintActivity(QPainter& p, const QRect& r, const std::vector<ActivityColumn>& columns) const;
    void paintCapability(QPainter& p, const QRect& r, const TimeMapping& m, int cap, const QPalette& pal,
                         const std::vector<LodItem>& items) const;
    void paintGc(QPainter& p, const QRect& r, const TimeMapping& m) const;
    void paintNote(QPainter& p, const QRect& r, const QPalette& pal, const QString& text) const;
    void paintLegend(QPainter& p, const QRect& r, const QPalette& pal) const;
    void paintMarkers(QPainter& p, const QRect& r, const TimeMapping& m,
                      const QPalette& pal, const QRect& all) const;
    bool hasSparkCounters() const;
    // The span of a capability's running or GC lane within `slack` ns of `t`.
    const Span* spanNear(int cap, bool gcLane, uint64_t t, uint64_t slack) const;
    // The earliest collection within `slack` ns of `t`.
    const Collection* collectionNear(uint64_t t, uint64_t slack) const;
    QString describeHeapProfile(uint64_t t, const RenderOptions& o) const;
    void paintHeapLegend(QPainter& p, const QRect& r, const HeapView& hv, const QPalette& pal) const;
    int legendHeight(const RenderOptions& o) const;
    std::shared_ptr<const LogIndex> m_index;
    mutable std::shared_ptr<const HeapView> m_defaultHeap; // made on first use
    mutable ChartPainter m_charts; // QCustomPlot, reused between paints
};

QString stopReasonText(uint8_t stop);

} // namespace hecscope
