// The timeline: the time↔pixel mapping and zoom arithmetic, the view
// controller's history, the window on real testdata logs (open, wheel zoom
// anchored at the pointer, keyboard, range selection → range statistics,
// tooltips), and export to PNG, SVG and PDF from the window's renderer and
// from `hecscope export`.
#include "tst_timeline.h"
#include "ui/jobs/settings.h"

void TestTimeline::initTestCase()
{
    QCoreApplication::setOrganizationName(QStringLiteral("HecscopeTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_timeline"));
    Settings::clear();
}

void TestTimeline::mappingRoundTrips()
{
    const uint64_t starts[] = {0, 12345, 1'000'000'007, uint64_t(1) << 47};
    const uint64_t lengths[] = {100, 1000, 999'983, 5'000'000'000ULL, uint64_t(1) << 40};
    for (uint64_t s : starts)
        for (uint64_t len : lengths) {
            const TimeMapping m({s, s + len}, 96, 1504);
            QCOMPARE(m.toPixel(s), 96.0);
            QVERIFY(std::abs(m.toPixel(s + len) - 1600.0) < 1e-6 * 1600);
            const double slack = std::max(0.5, m.nsPerPixel());
            for (int k = 0; k <= 16; ++k) {
                const uint64_t t = s + len / 16 * uint64_t(k);
                const double back = double(m.toTime(m.toPixel(t)));
                QVERIFY2(std::abs(back - double(t)) <= slack,
                         qPrintable(QStringLiteral("t=%1 back=%2").arg(t).arg(back)));
            }
        }
    // Far left of the plot clamps at 0 rather than wrapping.
    const TimeMapping m({10, 1010}, 0, 100);
    QCOMPARE(m.toTime(-1e9), uint64_t(0));
}

void TestTimeline::zoomKeepsAnchor()
{
    const ViewRange bounds{0, 10'000'000'000ULL};
    ViewRange r = bounds;
    const uint64_t anchor = 3'333'333'333ULL;
    const double px = TimeMapping(r, 0, 1000).toPixel(anchor);
    for (int i = 0; i < 70; ++i) {
        r = zoomAround(r, anchor, 0.7, bounds);
        QVERIFY(r.start >= bounds.start && r.end <= bounds.end);
        QVERIFY(r.duration() >= kMinViewDuration);
        // Within a pixel, or the width of a nanosecond when that is wider
        // (range ends are whole nanoseconds).
        const TimeMapping now(r, 0, 1000);
        if (r.duration() > kMinViewDuration)
            QVERIFY2(std::abs(now.toPixel(anchor) - px) <= std::max(1.0, 1.0 / now.nsPerPixel()),
                     qPrintable(QStringLiteral("step %1").arg(i)));
    }
    QCOMPARE(r.duration(), kMinViewDuration); // stops at the minimum
    // Zooming out from a narrow view near the end stays inside the log.
    r = zoomAround({bounds.end - 1000, bounds.end}, bounds.end - 10, 1e8, bounds);
    QCOMPARE(r, bounds);
}

void TestTimeline::fitAndPanStayInBounds()
{
    const ViewRange bounds{0, 1'000'000};
    QCOMPARE(fitInto({900'000, 1'200'000}, bounds), (ViewRange{700'000, 1'000'000}));
    QCOMPARE(fitInto({0, 5'000'000}, bounds), bounds);
    QCOMPARE(fitInto({500, 510}, bounds).duration(), kMinViewDuration);
    QCOMPARE(panBy({0, 1000}, -5000, bounds), (ViewRange{0, 1000}));
    QCOMPARE(panBy({0, 1000}, 2500, bounds), (ViewRange{2500, 3500}));
    QCOMPARE(panBy({998'000, 999'000}, 1e12, bounds), (ViewRange{999'000, 1'000'000}));
}

void TestTimeline::rulerTicks125()
{
    for (uint64_t len : {1000ULL, 73'000ULL, 1'000'000ULL, 4'321'000'000ULL, 90'000'000'000ULL}) {
        const Ticks t = rulerTicks({17, 17 + len}, 1500, 90);
        uint64_t mantissa = t.step;
        while (mantissa % 10 == 0)
            mantissa /= 10;
        QVERIFY2(mantissa == 1 || mantissa == 2 || mantissa == 5, qPrintable(QString::number(t.step)));
        QVERIFY(double(t.step) * 1500 / double(len) >= 90);      // labels at least 90 px apart
        QVERIFY(double(t.step) / 2.5 * 1500 / double(len) < 90); // and not needlessly sparse
        QVERIFY(!t.times.empty());
        for (uint64_t x : t.times)
            QVERIFY(x % t.step == 0 && x >= 17 && x <= 17 + len);
    }
}

void TestTimeline::formatsTimes()
{
    QCOMPARE(formatTime(0, 1000), std::string("0"));
    QCOMPARE(formatTime(1'400'000'000, 200'000'000), std::string("1.4 s"));
    QCOMPARE(formatTime(1'400'000'000, 1'000'000'000), std::string("1 s"));
    QCOMPARE(formatTime(25'000'000, 5'000'000), std::string("25 ms"));
    QCOMPARE(formatTime(12'500, 500), std::string("12.5 µs"));
    QCOMPARE(formatTime(40, 10), std::string("40 ns"));
    QCOMPARE(formatSeconds(1'000'000'100, 100), std::string("1.0000001 s"));
    QCOMPARE(formatSeconds(2'500'000'000, 500'000'000), std::string("2.5 s"));
    QCOMPARE(formatSeconds(7'000'000'000, 1'000'000'000), std::string("7 s"));
    // View ▸ Time Format: one unit for every time, exact to the nanosecond
    // where a point in time is shown (lists, tooltips).
    QCOMPARE(formatTimestamp(366'501'234), std::string("366.501234 ms"));
    QCOMPARE(formatTimestamp(1'500'000'000), std::string("1.500000000 s"));
    QCOMPARE(formatTimestamp(830), std::string("830 ns"));
    QCOMPARE(formatTimestamp(0), std::string("0 ns"));
    setTimeUnit(TimeUnit::Seconds);
    QCOMPARE(formatTimestamp(366'501'234), std::string("0.366501234 s"));
    QCOMPARE(formatTime(25'000'000, 5'000'000), std::string("0.025 s"));
    QCOMPARE(formatSeconds(2'500'000'000, 500'000'000), std::string("2.5 s"));
    setTimeUnit(TimeUnit::Milliseconds);
    QCOMPARE(formatTime(1'400'000'000, 200'000'000), std::string("1400 ms"));
    QCOMPARE(formatSeconds(1'000'000'100, 100), std::string("1000.0001 ms"));
    QCOMPARE(formatTimestamp(830), std::string("0.000830 ms"));
    setTimeUnit(TimeUnit::Nanoseconds);
    QCOMPARE(formatTime(12'500, 500), std::string("12500 ns"));
    QCOMPARE(formatTimestamp(366'501'234), std::string("366501234 ns"));
    setTimeUnit(TimeUnit::Automatic);
    QCOMPARE(formatDuration(830), std::string("830 ns"));
    QCOMPARE(formatDuration(12'400), std::string("12.4 µs"));
    QCOMPARE(formatDuration(1'530'000'000), std::string("1.530 s"));
}

void TestTimeline::controllerHistory()
{
    ViewController c;
    QSignalSpy views(&c, &ViewController::viewChanged);
    c.setBounds({0, 1'000'000});
    c.setRange({1000, 2000});
    c.zoom(0.5, 1500, true);
    QCOMPARE(c.range(), (ViewRange{1250, 1750}));
    QVERIFY(c.canGoBack());
    c.back();
    QCOMPARE(c.range(), (ViewRange{1000, 2000}));
    c.back();
    QCOMPARE(c.range(), (ViewRange{0, 1'000'000}));
    QVERIFY(!c.canGoBack());
    c.forward();
    QCOMPARE(c.range(), (ViewRange{1000, 2000}));
    // A new move drops the forward history.
    c.pan(500);
    c.setRange({5000, 9000});
    QVERIFY(!c.canGoForward());
    // Selections are clipped to the log; empty ones are none.
    c.setSelection(ViewRange{900'000, 2'000'000});
    QCOMPARE(*c.selection(), (ViewRange{900'000, 1'000'000}));
    c.zoomToSelection();
    QCOMPARE(c.range(), (ViewRange{900'000, 1'000'000}));
    c.setSelection(ViewRange{2'000'000, 3'000'000});
    QVERIFY(!c.selection());
    QVERIFY(views.count() >= 7);
}

void TestTimeline::heapSeriesAgreeWithStatistics_data()
{
    QTest::addColumn<QString>("log");
    for (const char* name : {"leak-hT", "sparks-N4", "threads-N2", "leak-prof-hc"})
        QTest::newRow(name) << QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/%1.eventlog").arg(QLatin1String(name));
}

void TestTimeline::heapSeriesAgreeWithStatistics()
{
    QFETCH(QString, log);
    const std::vector<uint8_t> bytes = test::readFile(log);
    MemorySource source(bytes);
    const LoadResult loaded = loadIndex(source);
    const LogIndex& ix = *loaded.index;
    const RangeStats stats = computeStats(ix);
    const HeapSeries& h = ix.heap;
    QVERIFY(!h.size.empty() && h.allocated.size() >= 2);
    for (const Series* s : {&h.size, &h.blocks, &h.live, &h.allocated})
        QVERIFY(std::is_sorted(s->begin(), s->end(), [](const SeriesPoint& a, const SeriesPoint& b) { return a.time < b.time; }));
    auto maxOf = [](const std::vector<double>& v) {
        double m = 0;
        for (double x : v)
            if (!std::isnan(x))
                m = std::max(m, x);
        return m;
    };
    // The cumulative total ends at the run's allocation.
    QCOMPARE(uint64_t(h.allocated.back().value), stats.allocatedBytes);
    // Peaks survive reduction to pixels at any width.
    for (uint32_t px : {7u, 997u, 1600u}) {
        QCOMPARE(uint64_t(maxOf(columnMaxima(h.size, 0, ix.lastTime + 1, px))), stats.maxHeapSizeBytes);
        QCOMPARE(uint64_t(maxOf(columnMaxima(h.live, 0, ix.lastTime + 1, px))), stats.maxLiveBytes);
    }
    // Rates integrate back to the growth between the first and last samples.
    const uint32_t px = 1000;
    const uint64_t t0 = h.allocated.front().time, t1 = h.allocated.back().time;
    const std::vector<double> rates = columnRates(h.allocated, t0, t1, px);
    double sum = 0;
    for (double r : rates)
        sum += std::isnan(r) ? 0 : r * (double(t1 - t0) / px) / 1e9;
    const double growth = h.allocated.back().value - h.allocated.front().value;
    QVERIFY2(std::abs(sum - growth) <= 1e-6 * std::max(1.0, growth), qPrintable(QStringLiteral("%1 vs %2").arg(sum).arg(growth)));
    // Between two samples the figure holds: a column inside the gap shows
    // the earlier sample's value; before the first sample, nothing.
    const SeriesPoint a = h.size[0];
    const auto later = std::find_if(h.size.begin(), h.size.end(), [&](const SeriesPoint& p) { return p.time > a.time + 2; });
    if (later != h.size.end()) {
        const std::vector<double> gap = columnMaxima(h.size, a.time + 1, later->time, 1);
        QCOMPARE(gap[0], (later - 1)->value);
    }
    if (a.time > 0)
        QVERIFY(std::isnan(columnMaxima(h.size, 0, a.time, 3)[1]));
}

void TestTimeline::chartTracksDrawData()
{
    const std::shared_ptr<const LogIndex> index = loadTestLog(QStringLiteral("sparks-N4"));
    TimelineRenderer r;
    r.setIndex(index);
    RenderOptions o;
    o.palette = exportPalette();
    o.tracks = {QStringLiteral("sparks"), QStringLiteral("heap")};
    o.legend = false;
    const QRect area(0, 0, 1200, r.naturalHeight(o));
    const auto rows = r.layout(area, o);
    // A spark row per capability (this program sparks), then the heap.
    QCOMPARE(int(rows.size()), int(index->caps.size()) + 1);
    QImage image(area.size(), QImage::Format_ARGB32_Premultiplied);
    {
        QPainter p(&image);
        r.paint(p, area, r.bounds(), o);
    }
    // Every chart row has drawn lines: pixels other than the row's background.
    for (const TrackRow& row : rows) {
        const QRect plot = row.rect.adjusted(TimelineRenderer::kLabelWidth + 30, 2, -30, -2);
        const QRgb background = image.pixel(plot.left() + 1, plot.top() + 1);
        int inked = 0;
        for (int y = plot.top(); y <= plot.bottom(); ++y)
            for (int x = plot.left(); x <= plot.right(); x += 2)
                inked += image.pixel(x, y) != background;
        QVERIFY2(inked > 50, qPrintable(QStringLiteral("row %1 (%2): %3").arg(row.id()).arg(row.cap).arg(inked)));
    }
}

// A heap line drawn from setColumnSteps's points (the first two and the
// last of each run of equal values) paints what the line of every
// column's point paints, line and fill: each real log's heap size and live
// series, over the whole run and a tenth of it, at several widths and
// heights, at pixel ratios 1 and 2.
void TestTimeline::columnStepsPaintEveryColumnsLine()
{
    int fewer = 0, compared = 0;
    for (const QString& log : test::testdataLogs() + test::conformanceLogs(QStringLiteral("ghc-events"))) {
        const std::unique_ptr<LogIndex> index = test::indexOfBytes(test::readFile(log));
        if (index->heap.size.empty())
            continue;
        const ViewRange whole = TimelineRenderer::boundsOf(index.get());
        const ViewRange tenth{whole.start + whole.duration() / 3, whole.start + whole.duration() / 3 + whole.duration() / 10};
        for (const ViewRange view : {whole, tenth})
            for (const int width : {97, 700, 1600}) {
                const HeapChart chart = HeapChart::prepare(*index, view, width);
                for (const QVector<double>* values : {&chart.size, &chart.live})
                    for (const std::pair<int, double>& size : {std::pair{40, 1.0}, std::pair{127, 1.0}, std::pair{40, 2.0}}) {
                        const int height = size.first; // not a structured binding: the lambda captures them
                        const double ratio = size.second;
                        if (values->isEmpty())
                            continue;
                        auto draw = [&](bool steps, int* points) {
                            QCustomPlot plot;
                            plot.setPlottingHints(QCP::phFastPolylines);
                            plot.setNotAntialiasedElements(QCP::aeAll);
                            plot.axisRect()->setAutoMargins(QCP::msNone);
                            plot.axisRect()->setMargins(QMargins(0, 2, 0, 1));
                            QCPGraph* g = plot.addGraph();
                            g->setPen(QPen(Qt::black, 0));
                            g->setBrush(QColor(0, 160, 0, 70));
                            if (steps) {
                                chartparts::setColumnSteps(g, *values);
                            } else {
                                g->setLineStyle(QCPGraph::lsStepLeft);
                                g->setData(chartparts::columns(int(values->size())), *values, true);
                            }
                            *points = g->dataCount();
                            plot.xAxis->setRange(0, width);
                            plot.yAxis->setRange(0, chartparts::maxOf(*values) * 1.35 + 1e-9);
                            QImage image(QSize(width, height) * ratio, QImage::Format_ARGB32_Premultiplied);
                            image.setDevicePixelRatio(ratio);
                            image.fill(Qt::white);
                            QCPPainter cp(&image);
                            plot.toPainter(&cp, width, height);
                            cp.end();
                            return image;
                        };
                        int all = 0, kept = 0;
                        const QImage expected = draw(false, &all), got = draw(true, &kept);
                        QVERIFY2(got == expected, qPrintable(QStringLiteral("%1, %2 px wide, %3 high, ratio %4, view %5..%6")
                                                                 .arg(log).arg(width).arg(height).arg(ratio)
                                                                 .arg(view.start).arg(view.end)));
                        fewer += kept < all;
                        ++compared;
                    }
            }
    }
    QVERIFY2(compared > 100 && fewer > compared / 2, qPrintable(QStringLiteral("%1 of %2").arg(fewer).arg(compared)));
}

// The base colour goes only where nothing opaque is painted over it (the
// rows in the alternate colour, the legend's lines): on a picture started
// in a colour no track uses, none of it is left, with and without a legend,
// filling an area or not, and with rows out of sight.
void TestTimeline::everyPixelIsPainted()
{
    const std::shared_ptr<const LogIndex> index = loadTestLog(QStringLiteral("threads-N2"));
    TimelineRenderer r;
    r.setIndex(index);
    const QRgb sentinel = qRgb(255, 0, 255);
    for (const bool legend : {true, false})
        for (const bool fill : {false, true})
            for (const bool culled : {false, true}) {
                RenderOptions o;
                o.palette = exportPalette();
                o.legend = legend;
                o.fill = fill;
                const QRect area(0, 0, 900, fill ? 700 : r.naturalHeight(o) + 40);
                if (culled) // as a scrolled view: the rows above and below it are not drawn
                    o.visible = QRect(0, area.height() / 3, area.width(), area.height() / 3);
                QImage image(area.size(), QImage::Format_ARGB32_Premultiplied);
                image.fill(sentinel);
                {
                    QPainter p(&image);
                    r.paint(p, area, r.bounds(), o);
                }
                const QRect checked = o.visible ? *o.visible : area;
                int left = 0;
                for (int y = checked.top(); y <= checked.bottom(); ++y)
                    for (int x = checked.left(); x <= checked.right(); ++x)
                        left += image.pixel(x, y) == sentinel;
                QVERIFY2(left == 0, qPrintable(QStringLiteral("legend %1, fill %2, culled %3: %4 pixels unpainted")
                                                   .arg(legend).arg(fill).arg(culled).arg(left)));
            }
}

// Rows whose draw lists a worker makes (the Activity and HEC rows' levels
// of detail, the thread rows) are painted after the others, up to the
// markers' row, whose lines cross every row: the pictures are those painted
// in order (a second paint of the view, its draw lists made), on logs with
// markers and without, zoomed out and in, the whole window and scrolled;
// and those of a renderer that makes the small logs' levels of detail in
// place.
void TestTimeline::rowsPaintedLaterLookTheSame()
{
    for (const char* name : {"threads-N2", "sparks-N4"}) {
        const std::shared_ptr<const LogIndex> index = loadTestLog(QLatin1String(name));
        QVERIFY(index->caps.size() >= 2);
        TimelineRenderer inOrder, later;
        inOrder.setIndex(index);
        later.setIndex(index);
        later.setParallelSpans(0);
        const ViewRange bounds = inOrder.bounds();
        const std::vector<ViewRange> views{bounds, fitInto({bounds.start, bounds.start + bounds.duration() / 2}, bounds),
                                           fitInto({bounds.start + bounds.duration() / 3,
                                                    bounds.start + bounds.duration() / 3 + bounds.duration() / 40},
                                                   bounds)};
        for (const bool culled : {false, true})
            for (const ViewRange& view : views) {
                RenderOptions o;
                o.palette = exportPalette();
                o.legend = true;
                const QRect area(0, 0, 1200, inOrder.naturalHeight(o));
                if (culled)
                    o.visible = QRect(0, area.height() / 4, area.width(), area.height() / 2);
                const auto paint = [&](const TimelineRenderer& r) {
                    QImage image(area.size(), QImage::Format_ARGB32_Premultiplied);
                    image.fill(Qt::magenta);
                    QPainter p(&image);
                    r.paint(p, area, view, o);
                    return image;
                };
                const uint64_t before = later.rowsPaintedLater();
                const QImage late = paint(later);
                if (!culled) // (the Activity and HEC rows at the top, the threads' at the bottom)
                    QVERIFY2(later.rowsPaintedLater() >= before + 1 + index->caps.size() + 1, name);
                QVERIFY2(late == paint(inOrder), name);
                const uint64_t second = later.rowsPaintedLater();
                QVERIFY2(late == paint(later), name);
                QCOMPARE(later.rowsPaintedLater(), second); // (in order)
            }
    }
}

// RectBatch (the HEC and Activity rows' fills) gives the pixels that
// QPainter::fillRect gives, drawn over what was there in the same order:
// rectangles at fractions of a pixel, reaching out of the area, a colour
// that is not opaque among them (it goes through the painter), at device
// pixel ratios 2 and 1 (the thread's image then wider than the area) and
// under a translation, with a clip region, and as a second batch alive at
// once (an image of its own); and it does batch there.
void TestTimeline::batchedFillsPaintWhatFillRectPaints()
{
    std::mt19937 rng(5);
    std::uniform_real_distribution<double> x(-10, 330), y(-6, 50), size(0, 40);
    // Clipped: to two rectangles (into an image drawn through the
    // painter); ClippedToOne: to a rectangle, and SystemClipped: a system
    // clip of a rectangle as a window's update region sets (both straight
    // into the target's pixels); Second: two batches at once.
    enum Setup { Plain, Clipped, ClippedToOne, SystemClipped, Second };
    for (const qreal ratio : {2.0, 1.0})
        for (const QPointF shift : {QPointF(0, 0), QPointF(7, 3), QPointF(2.5, 0)})
            for (const Setup setup : {Plain, Clipped, ClippedToOne, SystemClipped, Second})
                for (int round = 0; round < 10; ++round) {
                    std::vector<std::pair<QRectF, QColor>> fills;
                    for (int i = 0; i < 300; ++i) {
                        QColor c = QColor::fromRgb(rng() & 0xffffff);
                        if (i == 150)
                            c.setAlpha(120);
                        fills.emplace_back(QRectF(x(rng), y(rng), i % 3 ? 1.0 : size(rng), size(rng) / 2), c);
                    }
                    const QRect area(0, 0, 320, 40);
                    bool direct = false, systemClip = false;
                    auto picture = [&](bool batched, bool* batching) {
                        QImage image(QSize(340, 60) * ratio, QImage::Format_ARGB32_Premultiplied);
                        image.setDevicePixelRatio(ratio);
                        image.fill(qRgb(40, 50, 60));
                        if (setup == SystemClipped) // (in device pixels)
                            image.paintEngine()->setSystemClip(QRegion(QRect(QPoint(30, 8), QSize(200, 30) * ratio)));
                        QPainter p(&image);
                        systemClip = !p.paintEngine()->systemClip().isEmpty();
                        p.translate(shift);
                        if (setup == Clipped)
                            p.setClipRegion(QRegion(10, 5, 100, 20) + QRegion(150, 0, 60, 45));
                        if (setup == ClippedToOne)
                            p.setClipRect(QRect(12, 4, 200, 30));
                        if (batched) {
                            std::optional<RectBatch> first;
                            if (setup == Second)
                                first.emplace(p, area);
                            RectBatch batch(p, area);
                            *batching = batch.batching();
                            direct = batch.direct();
                            for (const auto& [r, c] : fills)
                                batch.fill(r, c);
                        } else {
                            for (const auto& [r, c] : fills)
                                p.fillRect(r, c);
                        }
                        p.end();
                        return image;
                    };
                    bool batching = false;
                    const QImage batched = picture(true, &batching);
                    QCOMPARE(batching, shift.x() * ratio == std::round(shift.x() * ratio)); // half a pixel: the painter
                    QCOMPARE(systemClip, setup == SystemClipped);
                    QCOMPARE(direct, batching && setup != Clipped);
                    QVERIFY2(batched == picture(false, nullptr),
                             qPrintable(QStringLiteral("ratio %1, shift %2,%3, setup %4, round %5")
                                            .arg(ratio).arg(shift.x()).arg(shift.y()).arg(int(setup)).arg(round)));
                }
    // Not pixels: through the painter.
    QPicture recorded;
    QPainter p(&recorded);
    QVERIFY(!RectBatch(p, QRect(0, 0, 10, 10)).batching());
}

// A fill reaching billions of pixels out of the image (a span far longer
// than the view, at a fine zoom) paints what the part of it on the image
// paints; one wholly that far away paints nothing. (Its edges were made
// ints unclamped: undefined, an abort under UBSan.)
void TestTimeline::batchedFillsFarOutPaintTheirPartOnTheImage()
{
    const QRect area(0, 0, 320, 40);
    qreal ratio = 1;
    const auto picture = [&](const std::vector<QRectF>& fills, bool batched) {
        QImage image(QSize(340, 60) * ratio, QImage::Format_ARGB32_Premultiplied);
        image.setDevicePixelRatio(ratio);
        image.fill(qRgb(40, 50, 60));
        QPainter p(&image);
        if (batched) {
            RectBatch batch(p, area);
            for (const QRectF& r : fills)
                batch.fill(r, QColor(200, 30, 90));
        } else {
            for (const QRectF& r : fills)
                p.fillRect(r, QColor(200, 30, 90));
        }
        p.end();
        return image;
    };
    // (Reaching out left, right, up and down, one of negative height, at
    // device pixel ratios 1 and 2.)
    const std::vector<QRectF> far{QRectF(-3e9, 5, 3e9 + 100, 10), QRectF(250, 20, 4e12, 6), QRectF(5e9, 0, 10, 40),
                                  QRectF(-7e15, 30, 10, 5),      QRectF(120, -2e10, 7, 2e10 + 9), QRectF(140, 30, 5, 8e11),
                                  QRectF(160, 12, 4, -5e9)};
    const std::vector<QRectF> near{QRectF(-10, 5, 110, 10), QRectF(250, 20, 200, 6), QRectF(120, -10, 7, 19),
                                   QRectF(140, 30, 5, 40), QRectF(160, -20, 4, 32)};
    for (const qreal r : {1.0, 2.0}) {
        ratio = r;
        QVERIFY2(picture(far, true) == picture(near, false), qPrintable(QString::number(r)));
    }
}

// Text drawn from the renderer's cache of laid-out texts gives the pixels
// drawText gives: random texts (spaces at either end, accents, other
// scripts, figures, line breaks), rectangles (fractional, too small, empty), flags
// (every alignment, clipped or not, and flags the cache leaves to drawText),
// ten fonts (more than the cache keeps), no pen now and then, pixel ratios 2
// and 1, two resolutions, a translation and a clip region; each text drawn
// twice, the second time from the cache, and measured.
void TestTimeline::cachedTextDrawsWhatDrawTextDraws()
{
    std::mt19937 rng(11);
    const QStringList words{QStringLiteral("HEC"), QStringLiteral("0"), QStringLiteral("12.5 ms"),
                            QStringLiteral("thread 4711"), QStringLiteral("é"), QStringLiteral("αβγ"),
                            QStringLiteral("名前"), QStringLiteral(" "), QStringLiteral("W"), QStringLiteral("…"),
                            QStringLiteral("no sparks in this log"), QStringLiteral("a&b"), QStringLiteral("x\ty"),
                            QStringLiteral("שלום"), QStringLiteral("٣"), QStringLiteral("\n"),
                            QStringLiteral("Activity\n(HECs)"), QStringLiteral("\r")};
    const int aligns[] = {int(Qt::AlignLeft), int(Qt::AlignRight), int(Qt::AlignHCenter), 0};
    const int valigns[] = {int(Qt::AlignTop), int(Qt::AlignBottom), int(Qt::AlignVCenter), 0};
    const int extras[] = {0, 0, 0, int(Qt::TextDontClip), int(Qt::TextSingleLine), int(Qt::TextWordWrap),
                          int(Qt::TextShowMnemonic)};
    std::uniform_real_distribution<double> x(-10, 300), y(-6, 50), w(-2, 120), h(-2, 30);
    struct Draw {
        QRectF r;
        int flags;
        QString text;
        int font;
    };
    QFont small = QApplication::font();
    small.setPointSizeF(small.pointSizeF() * 0.8);
    QFont bold = QApplication::font();
    bold.setBold(true);
    std::vector<QFont> fonts{QApplication::font(), small, bold};
    for (int points = 6; fonts.size() < TextCache::kMaxFonts + 2; ++points) {
        QFont f = QApplication::font();
        f.setPointSize(points);
        fonts.push_back(f);
    }
    TextCache cache;
    int mismatches = 0;
    for (const qreal ratio : {2.0, 1.0})
        for (const QPointF shift : {QPointF(0, 0), QPointF(7, 3), QPointF(2.5, 0.5)})
            for (const bool clipped : {false, true})
                for (int round = 0; round < 8; ++round) {
                    std::vector<Draw> draws;
                    for (int i = 0; i < 60; ++i) {
                        QString text;
                        for (int n = int(rng() % 4) + 1; n-- > 0;)
                            text += words[int(rng() % words.size())];
                        Draw d{QRectF(x(rng), y(rng), w(rng), h(rng)),
                               aligns[rng() % 4] | valigns[rng() % 4] | extras[rng() % 7], text,
                               int(rng() % fonts.size())};
                        if (i % 4 == 0)
                            d.r = d.r.toRect(); // (whole pixels, as most labels)
                        draws.push_back(d);
                        draws.push_back(d); // (from the cache)
                    }
                    auto picture = [&](bool cached) {
                        QImage image(QSize(340, 60) * ratio, QImage::Format_ARGB32_Premultiplied);
                        image.setDevicePixelRatio(ratio);
                        if (round % 2) { // (192 dpi: the same fonts, other pixel sizes)
                            image.setDotsPerMeterX(7559);
                            image.setDotsPerMeterY(7559);
                        }
                        image.fill(qRgb(240, 240, 230));
                        QPainter p(&image);
                        p.translate(shift);
                        if (clipped)
                            p.setClipRegion(QRegion(10, 5, 100, 20) + QRegion(150, 0, 60, 45));
                        if (round % 4 == 3)
                            p.setLayoutDirection(Qt::LeftToRight); // (else Auto: the text's own)
                        cache.setEnabled(cached);
                        for (size_t i = 0; i < draws.size(); ++i) {
                            const Draw& d = draws[i];
                            p.setFont(fonts[size_t(d.font)]);
                            if (i % 34 == 0)
                                p.setPen(Qt::NoPen);
                            else
                                p.setPen(QColor::fromRgb(uint32_t(i * 0x9e3779b9u) & 0x7f7f7f));
                            cache.draw(p, d.r, d.flags, d.text);
                            // Measured once too: the same figures.
                            const QFontMetrics fm = p.fontMetrics();
                            const int room = int(d.r.width());
                            if (cached
                                && (cache.advance(p, d.text) != fm.horizontalAdvance(d.text)
                                    || cache.displayedLabel(p, d.text, room) != displayedLabel(d.text, fm, room)
                                    || cache.elidedRight(p, d.text, room) != fm.elidedText(d.text, Qt::ElideRight, room))) {
                                qWarning() << "measured otherwise:" << d.text << room;
                                ++mismatches;
                            }
                        }
                        p.end();
                        return image;
                    };
                    const QImage cached = picture(true);
                    QVERIFY2(cached == picture(false),
                             qPrintable(QStringLiteral("ratio %1, shift %2,%3, clipped %4, round %5")
                                            .arg(ratio).arg(shift.x()).arg(shift.y()).arg(clipped).arg(round)));
                }
    QCOMPARE(mismatches, 0);
    // Laid out and kept, not left to drawText: with its font's texts in
    // the cache, a label drawn on an image adds one text, drawn again none.
    QImage image(100, 20, QImage::Format_ARGB32_Premultiplied);
    QPainter p(&image);
    cache.setEnabled(true);
    cache.draw(p, QRectF(0, 0, 100, 20), Qt::AlignVCenter | Qt::AlignLeft, QStringLiteral("HEC 0"));
    const size_t kept = cache.size();
    cache.draw(p, QRectF(0, 0, 100, 20), Qt::AlignVCenter | Qt::AlignLeft, QStringLiteral("HEC 0"));
    QCOMPARE(cache.size(), kept);
    cache.draw(p, QRectF(0, 0, 100, 20), Qt::AlignVCenter | Qt::AlignLeft, QStringLiteral("not drawn before"));
    QCOMPARE(cache.size(), kept + 1);
}

// The renderer keeps the legend it painted last as a picture: painting
// other entries, another palette, font or width, or at another pixel ratio
// with the same renderer gives what a fresh renderer paints, and so does
// going back.
void TestTimeline::legendPictureFollowsWhatItShows()
{
    const std::shared_ptr<const LogIndex> index = loadTestLog(QStringLiteral("threads-N2"));
    // Each differs from the one before in one thing.
    std::vector<std::pair<RenderOptions, int>> looks; // options, width
    RenderOptions plain;
    plain.palette = exportPalette();
    looks.emplace_back(plain, 900);
    RenderOptions dark = plain;
    dark.palette.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
    dark.palette.setColor(QPalette::WindowText, QColor(0xee, 0xee, 0xee));
    looks.emplace_back(dark, 900);
    looks.emplace_back(plain, 900);
    RenderOptions fewer = plain;
    fewer.tracks = {QStringLiteral("hecs"), QStringLiteral("gc")};
    looks.emplace_back(fewer, 900);
    RenderOptions flagged = plain;
    flagged.bookmarks = {TimelineRenderer::boundsOf(index.get()).start + 1000};
    looks.emplace_back(flagged, 900);
    RenderOptions big = plain;
    big.font.setPointSizeF(plain.font.pointSizeF() * 1.5);
    looks.emplace_back(big, 900);
    looks.emplace_back(plain, 900);
    looks.emplace_back(plain, 700);
    looks.emplace_back(plain, 900); // as the first: then the same at the other ratio
    auto paint = [&](const TimelineRenderer& r, const RenderOptions& o, int width, qreal ratio) {
        const QRect area(0, 0, width, r.naturalHeight(o));
        QImage image(area.size() * ratio, QImage::Format_ARGB32_Premultiplied);
        image.setDevicePixelRatio(ratio);
        QPainter p(&image);
        r.paint(p, area, r.bounds(), o);
        p.end();
        return image;
    };
    TimelineRenderer kept;
    kept.setIndex(index);
    for (int round = 0; round < 2; ++round) // the second time back to each
        for (const qreal ratio : {1.0, 2.0})
            for (size_t i = 0; i < looks.size(); ++i) {
                TimelineRenderer fresh;
                fresh.setIndex(index);
                const auto& [o, width] = looks[i];
                QVERIFY2(paint(kept, o, width, ratio) == paint(fresh, o, width, ratio),
                         qPrintable(QStringLiteral("look %1, ratio %2, round %3").arg(i).arg(ratio).arg(round)));
            }
    // The pictures differ where their legends do (the check above can fail).
    TimelineRenderer fresh;
    fresh.setIndex(index);
    QVERIFY(paint(fresh, plain, 900, 1) != paint(fresh, dark, 900, 1));
}

void TestTimeline::activityMatchesTimelineTotals()
{
    int exactViews = 0, aggregatedViews = 0;
    for (const char* name : {"threads-N2", "sparks-N4"}) {
        const std::shared_ptr<const LogIndex> index = loadTestLog(QLatin1String(name));
        TimelineRenderer r;
        r.setIndex(index);
        const ViewRange bounds = r.bounds();
        const int w = 997;
        std::vector<ViewRange> views{bounds};
        for (uint64_t len = bounds.duration() / 3; len >= 500; len /= 7)
            views.push_back(fitInto({bounds.start + len / 2, bounds.start + len / 2 + len}, bounds));
        for (const ViewRange& view : views) {
            TrackResources resources;
            resources.setIndex(index);
            const CapabilityLods& lods = *resources.capabilityLods(view, w);
            // Summarised on two threads (as a busy view is): the same items.
            {
                TrackResources shared;
                shared.setIndex(index);
                shared.setParallelSpans(0);
                const CapabilityLods& twice = *shared.capabilityLods(view, w);
                QCOMPARE(twice.size(), lods.size());
                for (size_t c = 0; c < lods.size(); ++c) {
                    QCOMPARE(twice[c].size(), lods[c].size());
                    for (size_t i = 0; i < lods[c].size(); ++i) {
                        const LodItem &x = lods[c][i], &y = twice[c][i];
                        QVERIFY(x.start == y.start && x.end == y.end && x.aggregate == y.aggregate && x.kind == y.kind
                                && x.count == y.count && x.totals.time == y.totals.time && x.thread == y.thread);
                    }
                }
            }
            const std::vector<ActivityColumn> columns = activityColumns(*index, view, w, lods);
            QCOMPARE(int(columns.size()), w);
            const TimeMapping m(view, 0, w);
            const double caps = double(index->caps.size());
            bool aggregated = false;
            for (const auto& items : lods)
                for (const LodItem& it : items)
                    aggregated = aggregated || it.aggregate;
            ++(aggregated ? aggregatedViews : exactViews);
            // The columns add up to the timelines' exact totals over the view.
            double run = 0, gc = 0, exactRun = 0, exactGc = 0;
            for (int x = 0; x < w; ++x) {
                const uint64_t a = m.toTime(x), b = x + 1 == w ? view.end : m.toTime(x + 1);
                const double span = double(std::max<uint64_t>(1, b - a)) * caps;
                run += columns[size_t(x)].running * span;
                gc += columns[size_t(x)].gc * span;
                double colRun = 0, colGc = 0;
                for (const Capability& c : index->caps) {
                    const SpanTotals t = c.timeline.totalsIn(a, std::max(b, a + 1));
                    colRun += double(t.running());
                    colGc += double(t.gc());
                }
                if (b > a) { // sub-nanosecond columns share their nanosecond
                    exactRun += colRun;
                    exactGc += colGc;
                } else {
                    run -= columns[size_t(x)].running * span;
                    gc -= columns[size_t(x)].gc * span;
                }
                // Where every item is an exact span, every column is exact too.
                if (!aggregated) {
                    QVERIFY(std::abs(columns[size_t(x)].running - colRun / span) < 1e-9);
                    QVERIFY(std::abs(columns[size_t(x)].gc - colGc / span) < 1e-9);
                }
            }
            QVERIFY2(std::abs(run - exactRun) <= 1e-6 * std::max(1.0, exactRun), qPrintable(QStringLiteral("%1 %2: %3 vs %4").arg(QLatin1String(name)).arg(view.duration()).arg(run).arg(exactRun)));
            QVERIFY(std::abs(gc - exactGc) <= 1e-6 * std::max(1.0, exactGc));
        }
    }
    QVERIFY(exactViews > 0 && aggregatedViews > 0); // both paths were checked
}

void TestTimeline::darkPaletteIsFollowed()
{
    const std::shared_ptr<const LogIndex> index = loadTestLog(QStringLiteral("leak-hT"));
    TimelineRenderer r;
    r.setIndex(index);
    RenderOptions o;
    QPalette dark;
    dark.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
    dark.setColor(QPalette::AlternateBase, QColor(0x26, 0x26, 0x26));
    dark.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
    dark.setColor(QPalette::Text, QColor(0xee, 0xee, 0xee));
    dark.setColor(QPalette::WindowText, QColor(0xee, 0xee, 0xee));
    o.palette = dark;
    o.tracks = {QStringLiteral("heap")};
    const QRect area(0, 0, 900, r.naturalHeight(o));
    QImage image(area.size(), QImage::Format_ARGB32_Premultiplied);
    {
        QPainter p(&image);
        r.paint(p, area, r.bounds(), o);
    }
    // The background is the palette's, and the heap size line and the
    // labels are drawn light on it.
    const auto rows = r.layout(area, o);
    QCOMPARE(QColor(image.pixel(area.right() - 2, rows[0].rect.top() + 1)).lightness() < 60, true);
    int light = 0;
    for (int y = rows[0].rect.top(); y <= rows[0].rect.bottom(); ++y)
        for (int x = TimelineRenderer::kLabelWidth; x < area.width(); ++x)
            light += QColor(image.pixel(x, y)).lightness() > 200;
    QVERIFY2(light > 200, qPrintable(QString::number(light)));
    int labelInk = 0; // the track name in the label column
    for (int y = rows[0].rect.top(); y <= rows[0].rect.bottom(); ++y)
        for (int x = 0; x < TimelineRenderer::kLabelWidth; ++x)
            labelInk += QColor(image.pixel(x, y)).lightness() > 150;
    QVERIFY(labelInk > 10);
}

std::shared_ptr<const LogIndex> TestTimeline::loadTestLog(const QString& name)
{
    const std::vector<uint8_t> bytes = test::readFile(QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/%1.eventlog").arg(name));
    MemorySource source(bytes);
    return std::shared_ptr<const LogIndex>(loadIndex(source).index.release());
}

bool TestTimeline::showAndOpen(MainWindow& w, const QString& log)
{
    w.resize(1400, 800);
    w.show();
    return openAndWait(w, log);
}

std::shared_ptr<const LogIndex> TestTimeline::indexOf(const QString& log)
{
    MainWindow w;
    return openAndWait(w, log) ? w.index() : nullptr;
}

bool TestTimeline::openAndWait(MainWindow& w, const QString& log)
{
    QSignalSpy stats(&w, &MainWindow::statisticsShown);
    w.openFile(log);
    return stats.wait(20000) && w.index();
}

QTEST_MAIN(TestTimeline)
