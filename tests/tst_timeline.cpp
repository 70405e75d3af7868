// The timeline: the time↔pixel mapping and zoom arithmetic, the view
// controller's history, the window on real testdata logs (open, wheel zoom
// anchored at the pointer, keyboard, range selection → range statistics,
// tooltips), and export to PNG, SVG and PDF from the window's renderer and
// from `hecscope export`.
#include "testsupport.h"

#include "core/index/series.h"
#include "core/io/bytesource.h"
#include "core/load/loader.h"
#include "core/report/info.h"
#include "core/report/rtssummary.h"
#include "core/stats/stats.h"
#include "core/text/units.h"
#include "ui/models/tablemodels.h"
#include "ui/timeline/imageexport.h"
#include "ui/timeline/timelineview.h"
#include "ui/timeline/tracks/activitytrack.h"
#include "ui/timeline/viewcontroller.h"
#include "ui/window/bookmarks.h"
#include "ui/window/mainwindow.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QFile>
#include <QImage>
#include <QPainter>
#include <QProcess>
#include <QScrollArea>
#include <QSet>
#include <QSettings>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QWheelEvent>

#include <cmath>

using namespace hecscope;

class TestTimeline : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void mappingRoundTrips();
    void zoomKeepsAnchor();
    void fitAndPanStayInBounds();
    void rulerTicks125();
    void formatsTimes();
    void controllerHistory();
    void heapSeriesAgreeWithStatistics_data();
    void heapSeriesAgreeWithStatistics();
    void chartTracksDrawData();
    void activityMatchesTimelineTotals();
    void darkPaletteIsFollowed();
    void windowOpensAtWholeLog();
    void wheelZoomsAroundPointer();
    void dragARowsEdgeToResizeIt();
    void keyboardAndHistory();
    void reloadKeepsTheView();
    void selectionGivesRangeStatistics();
    void tooltipNamesThread();
    void rulerAndLegendStayInSight();
    void truncatedLogShowsWhatWasDecoded();
    void notAnEventlogSaysSo();
    void gcTableSortsAndJumps();
    void tracksSayWhileThereIsNoLog();
    void tracksReorderHideAndPersist();
    void bookmarksFromMarkersAndSavedPerFile();
    void capabilityAndProcessPanes();
    void exportFormats_data();
    void exportFormats();
    void exportCommand();
    void exportCommandErrors();

private:
    // The index of testdata/logs/NAME.eventlog, loaded without a window.
    static std::shared_ptr<const LogIndex> loadTestLog(const QString& name);
    // Opens `log` in `w` and waits for the index and the statistics.
    static bool openAndWait(MainWindow& w, const QString& log);
    // The index a window makes of `log` (null if it could not open it).
    static std::shared_ptr<const LogIndex> indexOf(const QString& log);
    // The same in a shown window of 1400x800.
    static bool showAndOpen(MainWindow& w, const QString& log);
    QString m_log = QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/sparks-N4.eventlog");
};

void TestTimeline::initTestCase()
{
    QCoreApplication::setOrganizationName(QStringLiteral("HecscopeTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_timeline"));
    QSettings().clear();
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

void TestTimeline::windowOpensAtWholeLog()
{
    MainWindow w;
    QVERIFY(showAndOpen(w, m_log));
    const auto index = w.index();
    QCOMPARE(w.controller()->range(), (ViewRange{0, index->lastTime}));
    QVERIFY(w.statisticsText().startsWith(QStringLiteral("Whole run")));
    // One row per capability (4 in this log) below activity.
    const auto rows = w.timeline()->renderer().layout(w.timeline()->rect(), w.timeline()->options());
    QCOMPARE(int(std::count_if(rows.begin(), rows.end(), [](const TrackRow& r) { return r.id() == QLatin1String("hecs"); })),
             int(index->caps.size()));
    QCOMPARE(index->caps.size(), size_t(4));
    // The painted canvas is not blank: the HEC rows have thread colours.
    const QImage shot = w.timeline()->grab().toImage();
    QSet<QRgb> colours;
    for (const TrackRow& r : rows)
        if (r.id() == QLatin1String("hecs"))
            for (int x = TimelineRenderer::kLabelWidth; x < shot.width(); x += 3)
                colours.insert(shot.pixel(x, r.rect.top() + 10));
    QVERIFY2(colours.size() >= 5, qPrintable(QString::number(colours.size())));
}

void TestTimeline::wheelZoomsAroundPointer()
{
    MainWindow w;
    QVERIFY(showAndOpen(w, m_log));
    TimelineView* view = w.timeline();
    // The gesture is timed on the view's clock, which the test keeps.
    int64_t now = 1000;
    view->setClock([&now] { return now; });
    const QRect plot = view->renderer().plotArea(view->rect(), view->options());
    const QPointF at(plot.left() + plot.width() * 0.3, 80);
    const ViewRange before = w.controller()->range();
    const uint64_t anchor = TimeMapping(before, plot.left(), plot.width()).toTime(at.x());
    QWheelEvent wheel(at, view->mapToGlobal(at), QPoint(), QPoint(0, 360), Qt::NoButton, Qt::NoModifier,
                      Qt::NoScrollPhase, false);
    QApplication::sendEvent(view, &wheel);
    const ViewRange after = w.controller()->range();
    QVERIFY(after.duration() < before.duration() / 1.5);
    const double px = TimeMapping(after, plot.left(), plot.width()).toPixel(anchor);
    QVERIFY2(std::abs(px - at.x()) <= 1.0, qPrintable(QString::number(px - at.x())));
    // The notches of one gesture are one step of the Back history (each
    // within the gesture's time of the one before).
    for (int i = 0; i < 4; ++i) {
        now += TimelineView::kWheelGestureMs / 2;
        QWheelEvent more(at, view->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                         Qt::NoScrollPhase, false);
        QApplication::sendEvent(view, &more);
    }
    QVERIFY(w.controller()->range().duration() < after.duration());
    QVERIFY(w.controller()->canGoBack());
    w.controller()->back();
    QCOMPARE(w.controller()->range(), before);
    QVERIFY(!w.controller()->canGoBack());
    // A gesture after a pause is a step of its own.
    now += TimelineView::kWheelGestureMs + 100;
    QApplication::sendEvent(view, &wheel);
    now += TimelineView::kWheelGestureMs + 100;
    const ViewRange first = w.controller()->range();
    QApplication::sendEvent(view, &wheel);
    w.controller()->back();
    QCOMPARE(w.controller()->range(), first);
    w.controller()->back();
    QCOMPARE(w.controller()->range(), before);
}

// A track's row height follows a drag of its bottom edge, is kept in the
// settings for the next window, and View ▸ Reset Track Heights undoes it.
// Thread rows, drawn in whole bars, cannot be dragged.
void TestTimeline::dragARowsEdgeToResizeIt()
{
    QSettings().remove(QStringLiteral("view/rowHeights"));
    const QString log = QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/leak-hT.eventlog");
    int natural = 0;
    {
        MainWindow w;
        QVERIFY(showAndOpen(w, log));
        TimelineView* view = w.timeline();
        auto heapRow = [&] {
            for (const TrackRow& row : view->renderer().layout(view->rect(), view->options()))
                if (row.id() == QLatin1String("heap-profile"))
                    return row;
            return TrackRow{};
        };
        const TrackRow before = heapRow();
        QVERIFY(before.track);
        natural = before.rect.height();
        const QPoint edge(view->renderer().plotArea(view->rect(), view->options()).center().x(), before.rect.bottom());
        // The edge in sight, clear of the legend pinned to the bottom of the
        // tracks' viewport.
        if (auto* scroll = qobject_cast<QScrollArea*>(view->parentWidget()->parentWidget()))
            scroll->ensureVisible(edge.x(), edge.y(), 0, 300);
        QCoreApplication::processEvents();
        QMouseEvent hover(QEvent::MouseMove, edge, view->mapToGlobal(edge), Qt::NoButton, Qt::NoButton, Qt::NoModifier);
        QApplication::sendEvent(view, &hover);
        QCOMPARE(view->QWidget::cursor().shape(), Qt::SplitVCursor);
        QTest::mousePress(view, Qt::LeftButton, Qt::NoModifier, edge);
        QTest::mouseMove(view, edge + QPoint(0, 80));
        QTest::mouseRelease(view, Qt::LeftButton, Qt::NoModifier, edge + QPoint(0, 80));
        QCOMPARE(heapRow().rect.height(), natural + 80);
        QCOMPARE(view->rowHeights().at(QStringLiteral("heap-profile")), natural + 80);
        QVERIFY(view->minimumHeight() >= heapRow().rect.bottom());
        // The view did not pan or select meanwhile.
        QVERIFY(!w.controller()->selection());
        // Thread rows keep their bars.
        for (const TrackRow& row : view->renderer().layout(view->rect(), view->options()))
            if (row.id() == QLatin1String("threads")) {
                const QPoint threadEdge(edge.x(), row.rect.bottom());
                QTest::mousePress(view, Qt::LeftButton, Qt::NoModifier, threadEdge);
                QTest::mouseMove(view, threadEdge + QPoint(0, 40));
                QTest::mouseRelease(view, Qt::LeftButton, Qt::NoModifier, threadEdge + QPoint(0, 40));
                QVERIFY(!view->rowHeights().count(QStringLiteral("threads")));
            }
        w.close();
    }
    MainWindow again; // kept
    QCOMPARE(again.timeline()->rowHeights().at(QStringLiteral("heap-profile")), natural + 80);
    QAction* reset = nullptr;
    for (QAction* a : again.findChildren<QAction*>())
        if (a->text() == QStringLiteral("Reset Track &Heights"))
            reset = a;
    QVERIFY(reset);
    reset->trigger();
    QVERIFY(again.timeline()->rowHeights().empty());
    QVERIFY(!QSettings().contains(QStringLiteral("view/rowHeights")));
}

void TestTimeline::keyboardAndHistory()
{
    MainWindow w;
    QVERIFY(showAndOpen(w, m_log));
    TimelineView* view = w.timeline();
    const ViewRange whole = w.controller()->range();
    QTest::keyClick(view, Qt::Key_Plus);
    QCOMPARE(w.controller()->range().duration(), whole.duration() / 2);
    QTest::keyClick(view, Qt::Key_Right);
    QVERIFY(w.controller()->range().start > whole.start);
    QTest::keyClick(view, Qt::Key_Home);
    QCOMPARE(w.controller()->range(), whole);
    w.controller()->back();
    QVERIFY(w.controller()->range().duration() < whole.duration());
}

void TestTimeline::reloadKeepsTheView()
{
    MainWindow w;
    QVERIFY(showAndOpen(w, m_log));
    const uint64_t last = w.index()->lastTime;
    const ViewRange view{last / 5, last / 3};
    const ViewRange selection{last / 4, last / 4 + 1000};
    w.controller()->setRange(view);
    w.controller()->setSelection(selection);
    QVERIFY(openAndWait(w, m_log)); // File ▸ Reload
    QCOMPARE(w.controller()->range(), view);
    QCOMPARE(*w.controller()->selection(), selection);
    QVERIFY(w.statisticsText().startsWith(QStringLiteral("Selection")));
    // Another file starts at its whole run.
    const QString other = QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/threads-N2.eventlog");
    QVERIFY(openAndWait(w, other));
    QCOMPARE(w.controller()->range(), (ViewRange{0, w.index()->lastTime}));
    QVERIFY(!w.controller()->selection());
}

void TestTimeline::selectionGivesRangeStatistics()
{
    MainWindow w;
    QVERIFY(showAndOpen(w, m_log));
    TimelineView* view = w.timeline();
    const QRect plot = view->renderer().plotArea(view->rect(), view->options());
    const int y = plot.top() + 60;
    const QPoint from(plot.left() + plot.width() / 4, y), to(plot.left() + plot.width() / 2, y);
    QTest::mousePress(view, Qt::LeftButton, Qt::ShiftModifier, from);
    QTest::mouseMove(view, from + QPoint(20, 0));
    QTest::mouseMove(view, to);
    QTest::mouseRelease(view, Qt::LeftButton, Qt::ShiftModifier, to);
    const auto sel = w.controller()->selection();
    QVERIFY(sel);
    const TimeMapping m(w.controller()->range(), plot.left(), plot.width());
    QCOMPARE(sel->start, m.toTime(from.x()));
    QCOMPARE(sel->end, m.toTime(to.x()));
    // The pane shows the statistics of exactly that range, computed on a
    // worker (it says so meanwhile).
    QVERIFY(w.statisticsText().startsWith(QStringLiteral("Selection")));
    const RangeStats stats = computeStats(*w.index(), sel->start, sel->end);
    const QString expected = QString::fromStdString(infoText(*w.index(), stats, m_log.toStdString()));
    QTRY_VERIFY_WITH_TIMEOUT(w.statisticsText().endsWith(expected), 20000);
    // …with the range's +RTS -s table above them.
    QVERIFY(w.statisticsText().contains(QString::fromStdString(rtsSummaryText(*w.index(), stats, false))));
    // A click on a HEC row shows what is there in the Details pane, as the tooltip says it.
    const auto rows = view->renderer().layout(view->rect(), view->options());
    const auto hec1 = std::find_if(rows.begin(), rows.end(), [](const TrackRow& r) { return r.id() == QLatin1String("hecs") && r.cap == 1; });
    const QPoint click(plot.left() + plot.width() / 3, hec1->rect.top() + 8);
    const QString expectedDetails = view->renderer().describeAt(click, view->rect(), w.controller()->range(), view->options());
    QVERIFY(expectedDetails.startsWith(QStringLiteral("HEC 1")));
    QTest::mouseClick(view, Qt::LeftButton, Qt::NoModifier, click);
    QCOMPARE(w.detailsText(), expectedDetails);
    // …and it is selected: the item under the click, outlined.
    const auto item = view->selectedItem();
    QVERIFY(item);
    QCOMPARE(item->cap, 1);
    const uint64_t at = TimeMapping(w.controller()->range(), plot.left(), plot.width()).toTime(click.x());
    const double slack = 3 * TimeMapping(w.controller()->range(), plot.left(), plot.width()).nsPerPixel();
    QVERIFY(double(item->start) <= double(at) + slack && double(item->end) + slack >= double(at));
    // Escape clears it and the whole run is back.
    QTest::keyClick(view, Qt::Key_Escape);
    QVERIFY(!w.controller()->selection());
    QVERIFY(w.statisticsText().startsWith(QStringLiteral("Whole run")));
}

// Scrolled down a tall timeline, the ruler is painted again at the top of
// what is shown and the legend at its bottom, pixel for pixel as at their
// own places; the pointer over them reads the ruler and the legend, not the
// rows under them. Scrolled to the top, nothing is pinned.
void TestTimeline::rulerAndLegendStayInSight()
{
    TimelineRenderer r;
    const auto index = indexOf(m_log);
    QVERIFY(index);
    r.setIndex(index);
    RenderOptions o;
    const int height = r.naturalHeight(o);
    const QRect area(0, 0, 1200, height);
    const ViewRange view = r.bounds();
    const QRect visible(0, 300, 1200, 400);
    QVERIFY(height > visible.bottom() + 100); // the legend's own place is off screen
    QImage full(area.size(), QImage::Format_ARGB32_Premultiplied), pinned(full);
    {
        QPainter p(&full);
        r.paint(p, area, view, o);
    }
    {
        QPainter p(&pinned);
        r.paint(p, area, view, o);
        r.paintPinned(p, area, visible, view, o);
    }
    const QRect ruler = r.pinnedRuler(area, visible);
    QCOMPARE(ruler, QRect(0, visible.top(), area.width(), TimelineRenderer::kRulerHeight));
    const QRect plot = r.plotArea(area, o);
    // The ruler's strip right of the labels: the same pixels as at the top.
    const QRect tickStrip(plot.left(), 0, plot.width(), TimelineRenderer::kRulerHeight - 1);
    QCOMPARE(pinned.copy(tickStrip.translated(0, visible.top())), full.copy(tickStrip));
    QVERIFY(pinned.copy(tickStrip.translated(0, visible.top())) != full.copy(tickStrip.translated(0, visible.top())));
    const QRect legend = r.pinnedLegend(area, visible, o);
    QVERIFY(!legend.isEmpty());
    QCOMPARE(legend.bottom(), visible.bottom());
    const auto rows = r.layout(area, o);
    const int natural = rows.back().rect.bottom() + 1;
    // (At its own place the label column's separator runs through it.)
    for (const QRect part : {QRect(0, 1, plot.left() - 2, legend.height() - 1),
                             QRect(plot.left(), 1, area.width() - plot.left(), legend.height() - 1)})
        QCOMPARE(pinned.copy(part.translated(0, legend.top())), full.copy(part.translated(0, natural)));
    // Hit tests: the pinned strips stand for the ruler and the legend.
    QCOMPARE(r.unpinned(QPoint(600, visible.top() + 10), area, visible, o), QPoint(600, 10));
    QCOMPARE(r.unpinned(QPoint(600, legend.top() + 5), area, visible, o), QPoint(600, natural + 5));
    QCOMPARE(r.unpinned(QPoint(600, visible.top() + 100), area, visible, o), QPoint(600, visible.top() + 100));
    QVERIFY(r.describeAt(r.unpinned(QPoint(600, visible.top() + 10), area, visible, o), area, view, o).isEmpty());
    // At the top, nothing to pin.
    QVERIFY(r.pinnedRuler(area, QRect(0, 0, 1200, 400)).isEmpty());
}

void TestTimeline::tooltipNamesThread()
{
    TimelineRenderer r;
    const auto index = indexOf(m_log);
    QVERIFY(index);
    r.setIndex(index);
    const CapTimeline& tl = index->caps[0].timeline;
    size_t i = 0;
    while (i < tl.size() && (tl[i].kind() != SpanKind::Running || tl[i].length() < 1000))
        ++i;
    QVERIFY(i < tl.size());
    const Span s = tl[i];
    // A view of that span alone, so it fills the plot.
    const ViewRange view{s.start(), s.end()};
    const QRect area(0, 0, 1200, 400);
    RenderOptions o;
    const auto rows = r.layout(area, o);
    const auto hec0 = std::find_if(rows.begin(), rows.end(), [](const TrackRow& row) { return row.cap == 0; });
    QVERIFY(hec0 != rows.end());
    const QString text = r.describeAt(QPoint(600, hec0->rect.top() + 8), area, view, o);
    QVERIFY2(text.contains(QStringLiteral("Thread %1").arg(s.thread())), qPrintable(text));
    QVERIFY2(text.contains(stopReasonText(s.stop())), qPrintable(text));
    // The ruler and the label column describe nothing.
    QVERIFY(r.describeAt(QPoint(10, hec0->rect.top() + 8), area, view, o).isEmpty());
}

void TestTimeline::truncatedLogShowsWhatWasDecoded()
{
    std::vector<uint8_t> bytes = test::readFile(m_log);
    bytes.resize(bytes.size() * 2 / 3);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("cut.eventlog"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(reinterpret_cast<const char*>(bytes.data()), qint64(bytes.size()));
    f.close();
    MainWindow w;
    w.show();
    QVERIFY(openAndWait(w, path));
    const QString banner = w.bannerText();
    QVERIFY2(banner.contains(QStringLiteral("truncated")), qPrintable(banner));
    QVERIFY2(banner.contains(QStringLiteral("offset")), qPrintable(banner));
    QCOMPARE(w.diagnostics().size(), 1);
    QVERIFY(w.diagnostics()[0].contains(QStringLiteral("truncated")));
    // Every complete event before the cut is in, as a plain decode finds them.
    const test::Decoded plain = test::decodeInChunks(bytes);
    QVERIFY(plain.events.size() > 100);
    QCOMPARE(w.index()->scan.events, uint64_t(plain.events.size()));
    QVERIFY(w.index()->scan.truncated);
    // The timeline covers everything decoded before the cut.
    QCOMPARE(w.controller()->range().end, w.index()->lastTime);
    QVERIFY(w.index()->lastTime > 0);
}

void TestTimeline::notAnEventlogSaysSo()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("notes.txt"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("this is not an eventlog\n");
    f.close();
    MainWindow w;
    w.show();
    QSignalSpy shown(&w, &MainWindow::loadFinished);
    w.openFile(path);
    QVERIFY(shown.wait(10000));
    const QString banner = w.bannerText();
    QVERIFY2(banner.contains(QStringLiteral("offset 0")) || banner.contains(QStringLiteral("byte 0")), qPrintable(banner));
}

// Until a log is there the tracks say so ("no log open", "loading…"), not
// "no sparks in this log"; once it is, they draw it.
void TestTimeline::tracksSayWhileThereIsNoLog()
{
    MainWindow w;
    QCOMPARE(w.timeline()->options().placeholder, QStringLiteral("no log open"));
    QSignalSpy shown(&w, &MainWindow::loadFinished);
    w.openFile(m_log);
    QCOMPARE(w.timeline()->options().placeholder, QStringLiteral("loading…"));
    QVERIFY(shown.wait(10000));
    QVERIFY(w.index());
    QVERIFY(w.timeline()->options().placeholder.isEmpty());
    // Drawn in place of the tracks' own notes.
    TimelineRenderer r;
    r.setIndex(w.index());
    RenderOptions o;
    o.tracks = {QStringLiteral("sparks")};
    o.legend = false;
    o.placeholder = QStringLiteral("loading…");
    const QRect area(0, 0, 800, r.naturalHeight(o));
    QImage withNote(area.size(), QImage::Format_ARGB32_Premultiplied), withData(area.size(), QImage::Format_ARGB32_Premultiplied);
    {
        QPainter p(&withNote);
        r.paint(p, area, r.bounds(), o);
    }
    o.placeholder.clear();
    {
        QPainter p(&withData);
        r.paint(p, area, r.bounds(), o);
    }
    QVERIFY(withNote != withData);
}

void TestTimeline::tracksReorderHideAndPersist()
{
    {
        MainWindow w;
        w.setTrackOrder({QStringLiteral("heap"), QStringLiteral("hecs")});
        const std::vector<QString> expected{QStringLiteral("heap"), QStringLiteral("hecs"), QStringLiteral("activity"), QStringLiteral("pinned-threads"), QStringLiteral("gc"), QStringLiteral("nonmoving"), QStringLiteral("sparks"), QStringLiteral("nonmoving-heap"), QStringLiteral("heap-profile"), QStringLiteral("time-profile"), QStringLiteral("markers"), QStringLiteral("spans"), QStringLiteral("threads")};
        QCOMPARE(w.timeline()->tracks(), expected);
        // Hiding one through the View ▸ Tracks menu.
        const auto actions = w.findChildren<QAction*>();
        const auto gc = std::find_if(actions.begin(), actions.end(), [](QAction* a) { return a->data().toString() == QLatin1String("gc"); });
        QVERIFY(gc != actions.end());
        (*gc)->setChecked(false);
        QCOMPARE(w.timeline()->tracks(), (std::vector<QString>{QStringLiteral("heap"), QStringLiteral("hecs"), QStringLiteral("activity"), QStringLiteral("pinned-threads"), QStringLiteral("nonmoving"), QStringLiteral("sparks"), QStringLiteral("nonmoving-heap"), QStringLiteral("heap-profile"), QStringLiteral("time-profile"), QStringLiteral("markers"), QStringLiteral("spans"), QStringLiteral("threads")}));
    }
    MainWindow again; // both persist
    QCOMPARE(again.timeline()->tracks(), (std::vector<QString>{QStringLiteral("heap"), QStringLiteral("hecs"), QStringLiteral("activity"), QStringLiteral("pinned-threads"), QStringLiteral("nonmoving"), QStringLiteral("sparks"), QStringLiteral("nonmoving-heap"), QStringLiteral("heap-profile"), QStringLiteral("time-profile"), QStringLiteral("markers"), QStringLiteral("spans"), QStringLiteral("threads")}));
    again.setTrackOrder({});
    const auto actions = again.findChildren<QAction*>();
    for (QAction* a : actions)
        if (a->data().toString() == QLatin1String("gc"))
            a->setChecked(true);
    again.setTrackOrder({QStringLiteral("activity"), QStringLiteral("hecs"), QStringLiteral("pinned-threads"), QStringLiteral("gc"), QStringLiteral("nonmoving"), QStringLiteral("sparks"), QStringLiteral("heap"), QStringLiteral("nonmoving-heap"), QStringLiteral("heap-profile"), QStringLiteral("time-profile"), QStringLiteral("markers"), QStringLiteral("spans"), QStringLiteral("threads")});
    QCOMPARE(again.timeline()->tracks(), defaultTrackIds());
}

void TestTimeline::gcTableSortsAndJumps()
{
    MainWindow w;
    QVERIFY(showAndOpen(w, QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/leak-hT.eventlog")));
    QTableView* table = w.gcTable();
    QAbstractItemModelTester tester(table->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    const auto index = w.index();
    QCOMPARE(size_t(table->model()->rowCount()), index->collections.size());
    QVERIFY(index->collections.size() > 20);
    // Rows in time order by default; sorting by pause puts the longest first.
    uint64_t previous = 0;
    for (int row = 0; row < table->model()->rowCount(); ++row) {
        const uint64_t t = table->model()->index(row, 0).data(kTimeRole).toULongLong();
        QVERIFY(t >= previous);
        previous = t;
    }
    // The current row follows its collection through a sort.
    table->setCurrentIndex(table->model()->index(3, 0));
    const uint64_t current = table->currentIndex().data(kTimeRole).toULongLong();
    table->sortByColumn(GcTableModel::Pause, Qt::DescendingOrder);
    QCOMPARE(table->currentIndex().data(kTimeRole).toULongLong(), current);
    const RangeStats stats = computeStats(*index);
    QCOMPARE(table->model()->index(0, GcTableModel::Pause).data(kSortRole).toULongLong(), stats.maxPauseNs);
    for (int row = 1; row < table->model()->rowCount(); ++row)
        QVERIFY(table->model()->index(row - 1, GcTableModel::Pause).data(kSortRole).toULongLong()
                >= table->model()->index(row, GcTableModel::Pause).data(kSortRole).toULongLong());
    // The # column keeps each collection's place in time, whatever the order.
    const QModelIndex first = table->model()->index(0, GcTableModel::Number);
    const uint64_t firstStart = first.data(kTimeRole).toULongLong();
    const auto byStart = std::count_if(index->collections.begin(), index->collections.end(),
                                       [&](const Collection& c) { return c.leaderStart < firstStart; });
    QCOMPARE(first.data(kSortRole).toLongLong(), qlonglong(byStart));
    // Activating a collection shows it on the timeline.
    const QModelIndex longest = table->model()->index(0, GcTableModel::Start);
    emit table->activated(longest);
    const uint64_t start = longest.data(kTimeRole).toULongLong();
    const ViewRange r = w.controller()->range();
    QVERIFY(r.start <= start && start + stats.maxPauseNs <= r.end);
    QVERIFY(r.duration() < index->lastTime / 4);
}

void TestTimeline::bookmarksFromMarkersAndSavedPerFile()
{
    const QString log = QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/threads-N2.eventlog");
    uint64_t userTime = 0;
    {
        MainWindow w;
        QVERIFY(openAndWait(w, log));
        BookmarkModel* marks = w.bookmarks();
        QAbstractItemModelTester tester(marks, QAbstractItemModelTester::FailureReportingMode::QtTest);
        // The log's markers are there, in time order, and are not removable.
        QStringList names;
        for (int row = 0; row < marks->rowCount(); ++row)
            if (marks->at(row).fromMarker)
                names << marks->at(row).name;
        QCOMPARE(names, (QStringList{QStringLiteral("start"), QStringLiteral("pipeline done"), QStringLiteral("sleepers done"), QStringLiteral("end")}));
        QVERIFY(!marks->removeUser(0));
        // A user bookmark at the cursor, renamed.
        userTime = w.index()->lastTime / 3;
        w.timeline()->setCursorTime(userTime);
        w.addBookmark();
        int row = -1;
        for (int r = 0; r < marks->rowCount(); ++r)
            if (!marks->at(r).fromMarker)
                row = r;
        QVERIFY(row >= 0);
        QCOMPARE(marks->at(row).time, userTime);
        QVERIFY(marks->setData(marks->index(row, BookmarkModel::NameColumn), QStringLiteral("slow part")));
        QVERIFY(!marks->setData(marks->index(0, BookmarkModel::NameColumn), QStringLiteral("renamed marker")));
        QCOMPARE(w.timeline()->options().bookmarks, std::vector<uint64_t>{userTime});
        // Clicking it moves the cursor there.
        w.timeline()->setCursorTime(0);
        emit w.bookmarkTable()->clicked(marks->index(row, 0));
        QCOMPARE(*w.timeline()->cursor(), userTime);
    }
    {
        // Another window on the same file finds it again; another file does not.
        MainWindow w;
        QVERIFY(openAndWait(w, log));
        BookmarkModel* marks = w.bookmarks();
        int row = -1;
        for (int r = 0; r < marks->rowCount(); ++r)
            if (!marks->at(r).fromMarker)
                row = r;
        QVERIFY(row >= 0);
        QCOMPARE(marks->at(row).name, QStringLiteral("slow part"));
        QCOMPARE(marks->at(row).time, userTime);
        QVERIFY(marks->removeUser(row));
        MainWindow other;
        QVERIFY(openAndWait(other, m_log));
        for (int r = 0; r < other.bookmarks()->rowCount(); ++r)
            QVERIFY(other.bookmarks()->at(r).fromMarker);
    }
    MainWindow w;
    QVERIFY(openAndWait(w, log));
    for (int r = 0; r < w.bookmarks()->rowCount(); ++r)
        QVERIFY(w.bookmarks()->at(r).fromMarker); // the removal was saved
}

void TestTimeline::capabilityAndProcessPanes()
{
    MainWindow w;
    QVERIFY(showAndOpen(w, m_log));
    QTableView* caps = w.capabilityTable();
    QAbstractItemModelTester tester(caps->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    const auto index = w.index();
    QCOMPARE(size_t(caps->model()->rowCount()), index->caps.size());
    const RangeStats whole = computeStats(*index);
    QCOMPARE(caps->model()->index(2, CapabilityTableModel::Created).data(kSortRole).toULongLong(), whole.caps[2].sparks.created);
    // A selection shows that range's figures.
    const ViewRange sel{index->lastTime / 4, index->lastTime / 2};
    w.controller()->setSelection(sel);
    const RangeStats part = computeStats(*index, sel.start, sel.end);
    QTRY_VERIFY_WITH_TIMEOUT(!w.statisticsText().endsWith(QStringLiteral("computing…")), 20000);
    for (int c = 0; c < caps->model()->rowCount(); ++c)
        QCOMPARE(caps->model()->index(c, CapabilityTableModel::Running).data(kSortRole).toULongLong(),
                 part.caps[size_t(caps->model()->index(c, 0).data(kSortRole).toULongLong())].running);
    // Process facts and diagnostics.
    const Capset* withRts = nullptr;
    for (const Capset& c : index->capsets)
        if (!c.rtsIdentifier.empty())
            withRts = &c;
    QVERIFY(withRts);
    QVERIFY(w.processText().contains(QString::fromStdString(withRts->rtsIdentifier)));
    QVERIFY(w.processText().contains(QStringLiteral("Process id: %1").arg(withRts->pid)));
    // Every capability of the run, though the RTS removed them from the
    // capset at shutdown; and when it started (the clock-domain capset's
    // wall clock less the time it was read at).
    QVERIFY2(withRts->caps.empty() && withRts->assigned.size() == index->caps.size(), qPrintable(w.processText()));
    QVERIFY2(w.processText().contains(QStringLiteral("Capabilities: %1 (removed at shutdown").arg(index->caps.size())),
             qPrintable(w.processText()));
    const Capset* clock = nullptr;
    for (const Capset& c : index->capsets)
        if (c.wallAt != kNoTime)
            clock = &c;
    QVERIFY(clock);
    const QDateTime started = QDateTime::fromMSecsSinceEpoch(
        qint64((double(clock->wallSeconds) * 1e9 + double(clock->wallNanoseconds) - double(clock->wallAt)) / 1e6));
    QVERIFY2(w.processText().startsWith(QStringLiteral("Started: ")), qPrintable(w.processText()));
    QVERIFY2(w.processText().contains(started.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz UTC"))),
             qPrintable(w.processText()));
    QCOMPARE(w.diagnostics(), QStringList{QStringLiteral("No problems: the log decoded completely.")});
}

void TestTimeline::exportFormats_data()
{
    QTest::addColumn<QString>("suffix");
    QTest::newRow("png") << QStringLiteral("png");
    QTest::newRow("svg") << QStringLiteral("svg");
    QTest::newRow("pdf") << QStringLiteral("pdf");
}

void TestTimeline::exportFormats()
{
    QFETCH(QString, suffix);
    MainWindow w;
    QVERIFY(openAndWait(w, m_log));
    QTemporaryDir dir;
    ExportRequest rq;
    rq.path = dir.filePath(QStringLiteral("view.") + suffix);
    rq.size = QSize(1200, 500);
    rq.range = w.controller()->range();
    rq.options = w.timeline()->options();
    rq.options.palette = exportPalette();
    QCOMPARE(exportImage(w.index(), rq), QString());
    QFile f(rq.path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray bytes = f.readAll();
    if (suffix == QLatin1String("png")) {
        QImage image;
        QVERIFY(image.loadFromData(bytes, "PNG"));
        QCOMPARE(image.size(), QSize(1200, 500));
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 4)
            for (int x = 0; x < image.width(); x += 4)
                colours.insert(image.pixel(x, y));
        QVERIFY2(colours.size() >= 8, qPrintable(QString::number(colours.size())));
    } else if (suffix == QLatin1String("svg")) {
        QVERIFY(bytes.contains("<svg"));
        QVERIFY(bytes.contains("width=\"1200\"") || bytes.contains("width=\"1200px\"") || bytes.contains("viewBox=\"0 0 1200 500\""));
        QVERIFY2(bytes.count("<path") + bytes.count("<rect") + bytes.count("<polyline") > 50, "too few shapes");
        QVERIFY(bytes.contains("HEC 3"));
    } else {
        QVERIFY(bytes.startsWith("%PDF-"));
        QVERIFY(bytes.size() > 5000);
        QVERIFY(bytes.contains("/MediaBox [0 0 1200") && bytes.contains(" 500"));
    }
}

void TestTimeline::exportCommand()
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("cli.png"));
    QProcess p;
    p.start(QStringLiteral(HECSCOPE_BINARY),
            {QStringLiteral("export"), m_log, QStringLiteral("-o"), out, QStringLiteral("--size"), QStringLiteral("800x300"),
             QStringLiteral("--range"), QStringLiteral("50ms:150ms"), QStringLiteral("--tracks"), QStringLiteral("hecs,gc")});
    QVERIFY(p.waitForFinished(30000));
    QCOMPARE(p.exitCode(), 0);
    QImage image(out);
    QCOMPARE(image.size(), QSize(800, 300));
    // Same picture as the renderer draws for that range and those tracks.
    MainWindow w;
    QVERIFY(openAndWait(w, m_log));
    ExportRequest rq;
    rq.path = dir.filePath(QStringLiteral("direct.png"));
    rq.size = QSize(800, 300);
    rq.range = {50'000'000, 150'000'000};
    rq.options.tracks = {QStringLiteral("hecs"), QStringLiteral("gc")};
    rq.options.palette = exportPalette();
    std::string error;
    rq.options.detail = std::make_shared<DetailStore>(std::shared_ptr<ByteSource>(FileSource::open(m_log.toStdString(), error)));
    rq.options.waitForDetail = true; // the instants on the HEC rows, read back from the file
    QCOMPARE(exportImage(w.index(), rq), QString());
    QCOMPARE(image, QImage(rq.path));
}

void TestTimeline::exportCommandErrors()
{
    QTemporaryDir dir;
    auto run = [&](const QStringList& args) {
        QProcess p;
        p.start(QStringLiteral(HECSCOPE_BINARY), QStringList{QStringLiteral("export")} + args);
        p.waitForFinished(30000);
        return std::pair(p.exitCode(), QString::fromUtf8(p.readAllStandardError()));
    };
    const QString png = dir.filePath(QStringLiteral("x.png"));
    QCOMPARE(run({m_log}).first, 2); // no -o
    QCOMPARE(run({m_log, QStringLiteral("-o"), dir.filePath(QStringLiteral("x.bmp"))}).first, 2);
    QCOMPARE(run({m_log, QStringLiteral("-o"), png, QStringLiteral("--tracks"), QStringLiteral("nope")}).first, 2);
    QCOMPARE(run({m_log, QStringLiteral("-o"), png, QStringLiteral("--range"), QStringLiteral("2s:1s")}).first, 2);
    QCOMPARE(run({m_log, QStringLiteral("-o"), png, QStringLiteral("--size"), QStringLiteral("big")}).first, 2);
    const auto missing = run({dir.filePath(QStringLiteral("missing.eventlog")), QStringLiteral("-o"), png});
    QCOMPARE(missing.first, 1);
    QVERIFY(missing.second.contains(QStringLiteral("cannot open")));
    QVERIFY(!QFile::exists(png));
}

QTEST_MAIN(TestTimeline)
#include "tst_timeline.moc"
