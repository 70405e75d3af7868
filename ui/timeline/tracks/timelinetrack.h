#pragma once

#include "core/index/logindex.h"
#include "core/time/viewrange.h"

#include <QPalette>
#include <QRect>
#include <QString>

#include <functional>
#include <typeinfo>
#include <memory>
#include <optional>
#include <vector>

class QFont;
class QMenu;
class QFontMetrics;
class QPainter;

namespace hecscope {

class LegendWriter;
struct RenderOptions;
class TextCache;
class TrackResources;

// A clicked item of a track: a span of a capability's lane, a collection, …
// `cap` is the row within its track (the capability for per-capability
// tracks, else -1), `start`..`end` in ns.
struct SelectedItem {
    QString track; // TimelineTrack::id()
    int cap = -1;
    bool gcLane = false;
    uint64_t start = 0, end = 0;
    int64_t item = -1; // the track's own key (the heap-profile track: the band's column)
    // What the item is of, for the panes that follow a click (each track
    // fills what applies, so that nobody outside it needs its id):
    std::optional<uint32_t> thread = std::nullopt; // a thread (ThreadStates number): the panes choose it
    bool eventOnCap = false;          // a capability's own event at `start` (a run, a collection) on row `cap`
    std::optional<size_t> heapColumn = std::nullopt; // a column of the heap-profile chart (OTHER included)
    std::optional<uint32_t> heapBand = std::nullopt; // its band's label (not OTHER)
    bool operator==(const SelectedItem&) const = default;
};

class TrackStates;
// Changes the view's track states from a track's own menu: `edit` is
// applied to them and the view draws again. Empty where nothing can change
// them (a picture).
using TrackStatesEdit = std::function<void(const std::function<void(TrackStates&)>& edit)>;

// The pointer over a track's label column: the row (as TrackRow::cap),
// where in the row (from its top left corner), and where on the screen;
// and how the track's own menu changes its state.
struct TrackPointer {
    int row = -1;
    QPoint local;
    QPoint global;
    TrackStatesEdit editStates = {};
};

// What a track prepared for one (view, width): its level-of-detail items,
// reduced chart columns, … Painting, hit tests and tooltips all read it, so
// what is described is what is drawn. Immutable once made.
class DrawList {
public:
    virtual ~DrawList() = default;
};

// What a track reads: the index, the render options, and the resources the
// renderer shares between tracks (queries several tracks need, the chart
// painter). UI thread.
struct TrackContext {
    const LogIndex& index;
    const RenderOptions& options;
    TrackResources& resources;
};

// Where one row of a track is drawn.
struct TrackRowGeometry {
    int row = 0;       // within the track
    QRect rect;        // the whole row, label column included
    QRect plot;        // the row's time area
    QRect tracksPlot;  // the time area of every track (for lines across them)
    TimeMapping mapping{ViewRange{}, 0, 1};
};

// One kind of timeline track (Tracy's TimelineItem, Qt Creator's
// TimelineModel): its rows, a draw list prepared off the paint for a
// (range, width), painting from it, the item under a point and its text.
// Nothing outside a track knows what kind it is: the renderer, the View
// menu, the legend and `export --tracks` iterate the registry
// (trackregistry.h). A track object is stateless and shared.
class TimelineTrack {
public:
    virtual ~TimelineTrack() = default;
    // Stable name for settings and `export --tracks` ("gc").
    virtual QString id() const = 0;
    // For row labels ("GC").
    virtual QString title() const = 0;
    // For the View ▸ Tracks menu, with its mnemonic ("&GC").
    virtual QString menuText() const { return title(); }
    virtual int rowCount(const TrackContext&) const { return 1; }
    // Rows numbered by capability (TrackRow::cap), not one row of -1.
    virtual bool rowsAreCapabilities(const TrackContext&) const { return false; }
    virtual int rowHeight(const TrackContext&) const = 0;
    // Whether its rows may be drawn taller or shorter than rowHeight when
    // the tracks fill an exported picture (RenderOptions::fill); rows laid
    // out in pixels of their own (a thread's bars) keep their height.
    virtual bool stretches(const TrackContext&) const { return true; }
    // For a track that does not stretch, when the tracks fill a picture:
    // changes `o` so the track takes about `height` px (the threads show
    // as many rows as fit). `ctx` reads the options before the change.
    virtual void fitHeight(RenderOptions& o, const TrackContext& ctx, int height) const
    {
        (void)o, (void)ctx, (void)height;
    }
    virtual QString rowLabel(const TrackContext&, int row) const { (void)row; return title(); }
    // The label column this track's labels need, padding included, in
    // `font`: by default its rows' labels (their widest line) after a
    // margin of 6 and before one of 8 pixels. The renderer widens the
    // column to fit every shown track's (up to kMaxLabelWidth).
    virtual int labelWidth(const TrackContext& ctx, const QFont& font) const;
    // The full label at `pos` (in the label column of the row `g`) when it
    // is drawn elided in `fm`'s font, for a tooltip; else empty.
    virtual QString labelTip(const TrackRowGeometry& g, QPoint pos, const TrackContext& ctx,
                             const QFontMetrics& fm) const;
    // Non-empty when this log has none of the track's data ("no sparks in
    // this log"): the track then takes one line (kCollapsedHeight) saying
    // so, whatever its rows and heights; its label stays. Whole-log, not
    // per view: a track with data outside the view keeps its rows.
    virtual QString emptyNote(const TrackContext&) const { return {}; }
    // Besides (index, view, width), what the draw list depends on; the
    // renderer caches draw lists by all of them.
    virtual const void* variant(const TrackContext&) const { return nullptr; }
    // Every row's draw list for `view` at `width` pixels: the index's
    // level-of-detail queries happen here, never in paint().
    virtual std::shared_ptr<const DrawList> prepare(const TrackContext&, ViewRange view, int width) const = 0;
    // Starts, on a worker, what prepare() for `view` at `width` will need
    // when that takes long (the levels of detail of a wide view): true when
    // such work is started or in flight. The renderer then paints this
    // track's rows after the others (up to a track that paints across
    // rows), so that the work overlaps their painting.
    virtual bool prefetch(const TrackContext&, ViewRange view, int width) const
    {
        (void)view, (void)width;
        return false;
    }
    // Whether paint() draws outside the row it is given (lines across every
    // track): rows are painted in order around it.
    virtual bool paintsAcrossRows(const TrackContext&) const { return false; }
    virtual void paint(QPainter&, const TrackRowGeometry&, const DrawList&, const TrackContext&) const = 0;
    // The item under `pos`, from the same draw list.
    virtual std::optional<SelectedItem> itemAt(const TrackRowGeometry&, QPoint, const DrawList&,
                                               const TrackContext&) const
    {
        return std::nullopt;
    }
    // Tooltip and Details text at `pos`; empty when nothing is there.
    virtual QString describe(const TrackRowGeometry&, QPoint, const DrawList&, const TrackContext&) const
    {
        return {};
    }
    // Outlines a selected item of this track in `row`.
    virtual void paintSelected(QPainter&, const TrackRowGeometry&, const SelectedItem&, const TrackContext&) const {}
    // The track's own label column: a click, the wheel (`delta` as
    // QWheelEvent::angleDelta().y()), its context menu (its actions added
    // to `menu`, which the view shows when any). True: handled; else a
    // wheel scrolls the page. A track acts on its user state's owner (the
    // Threads track: ThreadRowsView::owner), never on the view.
    virtual bool labelClicked(const TrackPointer&, const TrackContext&) const { return false; }
    virtual bool labelWheel(const TrackPointer&, int delta, const TrackContext&) const
    {
        (void)delta;
        return false;
    }
    virtual void addContextActions(QMenu&, const TrackPointer&, const TrackContext&) const {}
    // A track with a state of its own that the user chooses (in its menu)
    // puts what was chosen last time (the settings) into a new view's
    // states; it saves a choice when it is made.
    virtual void restoreState(TrackStates&) const {}
    // Whether it draws the state of this type (an export makes the states
    // of the tracks it draws).
    virtual bool drawsState(const std::type_info&) const { return false; }
    // The colours this track uses, for the legend below the tracks.
    virtual void addLegend(LegendWriter&, const TrackContext&) const {}
    // A legend block of its own below the common one (the heap bands).
    virtual int ownLegendHeight(const TrackContext&) const { return 0; }
    virtual void paintOwnLegend(QPainter&, const QRect&, const TrackContext&) const {}
};

// The note a track shows instead of data ("no sparks in this log").
void paintTrackNote(QPainter& p, const QRect& r, const QPalette& pal, const QString& text, TextCache& cache);
// A label as drawn in `width` pixels of `fm`'s font: each line whole when
// it fits, else elided in the middle (a thread's id at the end stays).
QString displayedLabel(const QString& label, const QFontMetrics& fm, int width);
// The width of a label's widest line.
int labelTextWidth(const QString& label, const QFontMetrics& fm);
// Span [a, b) in pixels, at least one pixel wide, clipped to the plot.
QRectF spanRect(const TimeMapping& m, uint64_t a, uint64_t b, double top, double height);
// The outline of a selected item [a, b) between `top` and top + height.
void paintSelectionOutline(QPainter& p, const TimeMapping& m, uint64_t a, uint64_t b, double top, double height,
                           const QPalette& pal);

} // namespace hecscope
