#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace hecscope {

// A visible stretch of the log's time axis, [start, end) in nanoseconds.
// Never empty: end > start.
struct ViewRange {
    uint64_t start = 0;
    uint64_t end = 1;

    uint64_t duration() const { return end - start; }
    bool operator==(const ViewRange&) const = default;
};

// The one mapping between time (ns) and pixels (double, left edge x0 of a
// `width` px wide area). toTime(toPixel(t)) is within half a nanosecond of
// `t` when a pixel is wider than a nanosecond, else within one pixel's time.
class TimeMapping {
public:
    TimeMapping(ViewRange range, double x0, double width);
    double toPixel(uint64_t t) const
    {
        return m_x0 + (double(t) - double(m_range.start)) * m_pxPerNs;
    }
    // Clamped to [0, UINT64_MAX].
    uint64_t toTime(double px) const;
    double nsPerPixel() const { return 1.0 / m_pxPerNs; }
    ViewRange range() const { return m_range; }
    double x0() const { return m_x0; }
    double width() const { return m_width; }

private:
    ViewRange m_range;
    double m_x0, m_width, m_pxPerNs;
};

// The shortest range the view zooms to (ns): a few pixels per nanosecond
// are pointless, timestamps are whole nanoseconds.
constexpr uint64_t kMinViewDuration = 100;

// `range` shrunk (factor < 1) or grown (factor > 1) keeping the time
// `anchor` at the same relative position, then fitted into `bounds` (moved
// inside them, and at most their length, at least kMinViewDuration).
ViewRange zoomAround(ViewRange range, uint64_t anchor, double factor,
                     ViewRange bounds);
// `range` moved by `deltaNs` (negative: earlier), kept inside `bounds`.
ViewRange panBy(ViewRange range, double deltaNs, ViewRange bounds);
// `range` fitted into `bounds` as zoomAround does.
ViewRange fitInto(ViewRange range, ViewRange bounds);

// Ruler ticks: a 1-2-5 step (ns) so that labels are at least `minSpacingPx`
// apart, and the tick times inside `range`.
struct Ticks {
    uint64_t step = 1;
    std::vector<uint64_t> times;
};
Ticks rulerTicks(ViewRange range, double widthPx, double minSpacingPx);

// How points in time read everywhere (ruler, event list, tables,
// tooltips): in the unit that suits each (Automatic) or always in one.
// One process-wide choice, set by the UI thread (View ▸ Time Format) before
// painting; read by whoever formats a time.
enum class TimeUnit : uint8_t { Automatic, Seconds, Milliseconds, Microseconds, Nanoseconds };
void setTimeUnit(TimeUnit unit);
TimeUnit timeUnit();

// "0", "12.5 µs", "3 ms", "1.250 s": `t` (ns) in the unit that suits `step`
// (the precision the reader needs), or the chosen TimeUnit, with as many
// decimals as the step has.
std::string formatTime(uint64_t t, uint64_t step);
// `t` (ns) exactly, to the nanosecond, in the chosen TimeUnit (Automatic:
// the unit of its magnitude): "366.501234 ms", "0.366501234 s", "830 ns".
std::string formatTimestamp(uint64_t t);
// `t` (ns) in seconds with the decimals `step` needs: "1.0000001 s" (in the
// chosen unit when it is not Automatic).
std::string formatSeconds(uint64_t t, uint64_t step);

} // namespace hecscope
