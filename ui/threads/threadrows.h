#pragma once

#include "core/detail/detailstore.h"
#include "core/index/logindex.h"
#include "ui/colours.h"
#include "core/time/viewrange.h"

#include <QColor>
#include <QImage>
#include <QPalette>
#include <QRect>
#include <QString>

#include <memory>
#include <optional>
#include <vector>

class QFontMetrics;
class QPainter;

namespace hecscope {

class ThreadRowsController;

// Which threads the Threads track shows, in what order, scrolled how far:
// an immutable snapshot made by ThreadRowsController (the renderer caches
// draw lists by its address). Threads are numbered as in ThreadStates.
struct ThreadRowsView {
    static constexpr int kRowHeight = 22; // state bar on top, span bars (3 levels) below
    static constexpr int kHeaderHeight = 20;

    uint64_t indexSerial = 0;
    std::vector<uint32_t> order;  // thread numbers, top to bottom (filtered and sorted)
    std::vector<uint32_t> pinned; // shown next to the capabilities (the Pinned threads track)
    size_t first = 0;             // the row of `order` at the top
    int visibleRows = 16;         // the track's height in rows
    bool collapsed = false;
    size_t total = 0;             // threads before the filter
    QString sortName;             // "creation", "run time", … for the header
    QString filter;               // the label filter, as typed
    std::optional<uint32_t> chosen; // highlighted thread number
    std::shared_ptr<const UserSpans> spans; // drawn on the rows (null: none)
    // Acts on the rows (the tracks' clicks, wheel and menus); null: a
    // picture of them (an export), which nothing changes.
    ThreadRowsController* owner = nullptr;

    // Rows shown now (0 when collapsed).
    int shownRows() const;
    // The thread of shown row `row` (0 = the top), if any.
    std::optional<uint32_t> threadAtRow(int row) const;
    // The rows within `screens` screens of the shown ones, shown or not
    // (none when collapsed), then the pinned threads: what a window of
    // segments read for either track holds besides its own rows
    // (threadDetailFor), the same for both, so that one read serves them.
    std::vector<uint32_t> nearbyRows(int screens = 4) const;
    // The default: every thread by id, 16 rows, the index's spans.
    static std::shared_ptr<const ThreadRowsView> makeDefault(const LogIndex& ix);
};

// A thread row prepared for one (view, width): state segments (exact, or
// one pixel's dominant state), marks and span bars, in pixels from the
// plot's left edge. Built on the UI thread from the index's segments;
// at most a few items per pixel.
struct ThreadRowItem {
    float x0, x1;
    uint8_t colour;   // ThreadColour
    uint16_t cap;     // exact Running items: the capability
    uint32_t segment; // index within the thread's segments; UINT32_MAX: several in one pixel
};
struct ThreadMark {
    float x;
    uint8_t kind;     // ThreadCause: Created, Wakeup or Migrate
    uint32_t segment;
};
struct SpanBar {
    float x0, x1;
    uint16_t depth;
    uint32_t span; // index into UserSpans::spans; UINT32_MAX: several in one pixel
    uint32_t name; // the span's name (its colour)
};
struct PreparedThreadRow {
    uint32_t number = 0;
    // Where the items' segments are: `detail` (read back from the file;
    // the thread is number `detailNumber` there, SIZE_MAX: no segment in
    // the window) or, when null, the index.
    std::shared_ptr<const ThreadDetail> detail;
    size_t detailNumber = SIZE_MAX;
    bool pending = false; // drawn from bins until the segments are read back
    // Drawn from bins wider than a pixel: the view is too wide for its
    // segments to be read back (DetailStore::maxThreadWindowBytes).
    bool coarse = false;
    QString error;        // why they could not be
    std::vector<ThreadRowItem> items; // by x
    std::vector<ThreadMark> marks;    // by x
    std::vector<SpanBar> spans;       // by depth, then x
    float finishedAt = -1;            // x of THREAD finished, if in view
    // The items and span bars as pixels, one line for the states and one
    // per span level: painting scales it to the row's height (one image
    // draw however dense the row is).
    QImage strip;
};

// Where a thread row draws (pixels from its top): the state bar, then a
// line of span bars per nesting level (deeper spans share the last).
namespace threadrow {
constexpr int kBarTop = 2, kBarHeight = 10;
constexpr int kSpanTop = 13, kSpanHeight = 3, kSpanLevels = 3;
} // namespace threadrow

QString threadColourName(int colour);
uint8_t threadColourOf(const ThreadSegment& s);

// Whether thread `number`'s row needs its segments read back from the file
// for (view, width): they are in the file only and the view is zoomed in
// past its bins.
bool threadRowNeedsDetail(const LogIndex& ix, uint32_t number, ViewRange view, int width);
// The window of segments the rows `numbers` need for (view, width): null
// when none needs one, else a cached window holding the view and those
// rows' threads; if none is cached, read now when `wait` (exports), else
// null with the window to read added to `wanted` (the view has it read
// and paints again). A window read holds half a view more on each side
// and the threads of every row (shown or not) that needs its segments at
// this zoom and has bins in it: panning or scrolling a little reads
// nothing, and a window holds few segments of each thread (a row needs
// them when its bins are wider than a pixel), never every event of a
// wide view. The rows of `nearby` that need them are in it too
// (ThreadRowsView::nearbyRows: the Threads track's and the pinned rows',
// so that both ask for one window); and when more than kMostWindowThreads
// threads need them and have bins in the window (a log of tens of
// thousands of threads alive at once: a read costs about a microsecond a
// thread), only those: scrolling farther reads another window.
// A view over more of the file than the store's maxThreadWindowBytes is
// `tooWide`: nothing is read, and the rows draw from their finest bins.
struct RowsDetail {
    std::shared_ptr<const ThreadDetail> window;
    bool tooWide = false;
};
inline constexpr size_t kMostWindowThreads = 2048;
RowsDetail threadDetailFor(const LogIndex& ix, DetailStore* store, bool wait, const std::vector<uint32_t>& numbers,
                           ViewRange view, int width, std::vector<ThreadWindowKey>* wanted,
                           const std::vector<uint32_t>* nearby = nullptr);
// `detail`: from threadDetailFor (or none).
PreparedThreadRow prepareThreadRow(const LogIndex& ix, const UserSpans* spans, uint32_t number, ViewRange view,
                                   int width, const RowsDetail& detail = {});
// Draws the row into `plot` (its time area); `chosen` tints it.
void paintThreadRow(QPainter& p, const QRect& plot, const PreparedThreadRow& row, const QPalette& pal, bool chosen);
// Tooltip text at x (pixels from the plot's left), y (from the row's top).
QString describeThreadRow(const LogIndex& ix, const UserSpans* spans, const PreparedThreadRow& row, double x, int y,
                          int rowHeight);
// The segment (or span) under x, y as [start, end) ns, for selection.
std::optional<std::pair<uint64_t, uint64_t>> threadRowItemAt(const LogIndex& ix, const UserSpans* spans,
                                                             const PreparedThreadRow& row, double x, int y,
                                                             int rowHeight);
// "worker-3 (17)" or "thread 17".
QString threadName(const LogIndex& ix, uint32_t id);
// The width of the widest threadName of the log in `fm`'s font (each
// distinct label measured once, with the widest id).
int threadNamesWidth(const LogIndex& ix, const QFontMetrics& fm);

} // namespace hecscope
