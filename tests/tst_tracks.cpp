// The timeline's tracks behind one interface: the registry, the draw-list
// cache, and hit tests that read the prepared lists (never the last paint),
// on real logs from testdata.
#include "testsupport.h"

#include "core/io/bytesource.h"
#include "core/format/eventtags.h"
#include "core/index/logindex.h"
#include "core/load/loader.h"
#include "core/timeprofile/sampleprofile.h"
#include "core/stats/stats.h"
#include "core/text/units.h"
#include "ui/colours.h"
#include "ui/heap/heapview.h"
#include "ui/timeline/imageexport.h"
#include "ui/timeline/timelinerenderer.h"
#include "ui/timeline/tracks/instantmarks.h"
#include "ui/threads/threadrows.h"

#include <QApplication>
#include <QFileInfo>
#include <QImage>
#include <QPainter>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <set>

using namespace hecscope;

class TestTracks : public QObject {
    Q_OBJECT
private slots:
    void registryIsComplete();
    void everyTrackDraws_data();
    void everyTrackDraws();
    void cursorAndHoverReuseDrawLists();
    void hitTestsDoNotDependOnPaint();
    void gcHitTestFindsTheDrawnCollection();
    void hecHitTestSelectsRealSpans();
    void instantsShowWhenZoomedIn();
    void activityHasACapabilityScale();
    void selectionTintsTheTracksNotTheLegend();
    void denseCollectionsShowTheirDensity();
    void zoomedOutGcIsProportionate();
    void nonmovingCollectorOnRealLogs_data();
    void nonmovingCollectorOnRealLogs();
    void heapBandUnderPointerIsTheDrawnOne_data();
    void heapBandUnderPointerIsTheDrawnOne();
    void cacheFollowsTheHeapViewAndTheIndex();
    void timeProfileBinsHoldTheirSamples();
    void activityIsTallWithItsScaleBesideTheData();
    void emptyTracksTakeOneLine();
    void threadNamesAreWholeWhereThereIsRoom();

private:
    // A log of testdata/logs by name, or any log by path.
    static std::shared_ptr<const LogIndex> load(const QString& name)
    {
        return loadPath(QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/%1.eventlog").arg(name));
    }
    static std::shared_ptr<const LogIndex> loadPath(const QString& path)
    {
        std::string error;
        const auto source = FileSource::open(path.toStdString(), error);
        if (!source)
            qFatal("%s", error.c_str());
        return std::shared_ptr<const LogIndex>(loadIndex(*source).index);
    }
    // The detail of a log of testdata/logs, read back from its file.
    static std::shared_ptr<DetailStore> detailOf(const QString& name)
    {
        return detailOfPath(QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/%1.eventlog").arg(name));
    }
    static std::shared_ptr<DetailStore> detailOfPath(const QString& path)
    {
        std::string error;
        std::shared_ptr<ByteSource> source = FileSource::open(path.toStdString(), error);
        if (!source)
            qFatal("%s", error.c_str());
        return std::make_shared<DetailStore>(source);
    }
    static int inked(const QImage& image, const QRect& r)
    {
        const QRgb background = image.pixel(r.left() + 1, r.top() + 1);
        int n = 0;
        for (int y = r.top(); y <= r.bottom(); ++y)
            for (int x = r.left(); x <= r.right(); ++x)
                n += image.pixel(x, y) != background;
        return n;
    }
};

void TestTracks::registryIsComplete()
{
    QSet<QString> ids;
    for (const TimelineTrack* t : timelineTracks()) {
        QVERIFY(!t->id().isEmpty());
        QVERIFY2(!ids.contains(t->id()), qPrintable(t->id()));
        ids.insert(t->id());
        QCOMPARE(findTrack(t->id()), t);
        QCOMPARE(findTrack(QStringLiteral(" ") + t->id().toUpper()), t);
        QVERIFY(!t->title().isEmpty() && !t->menuText().isEmpty());
    }
    QCOMPARE(ids.size(), 13);
    QCOMPARE(findTrack(QStringLiteral("nonsense")), nullptr);
    QCOMPARE(defaultTrackIds().front(), QStringLiteral("activity"));
    // The export command takes every registered id, and its help lists them.
    const test::Run help = test::runHecscope({QStringLiteral("export"), QStringLiteral("--help")});
    QCOMPARE(help.exitCode, 0);
    for (const QString& id : ids)
        QVERIFY2(help.out.contains(id.toUtf8()), qPrintable(id));
}

void TestTracks::everyTrackDraws_data()
{
    QTest::addColumn<QString>("track");
    QTest::addColumn<QString>("log");
    QTest::newRow("activity") << "activity" << "threads-N2";
    QTest::newRow("hecs") << "hecs" << "threads-N2";
    QTest::newRow("gc") << "gc" << "leak-hT";
    QTest::newRow("nonmoving") << "nonmoving" << "leak-nonmoving-N2";
    QTest::newRow("sparks") << "sparks" << "sparks-N4";
    QTest::newRow("heap") << "heap" << "leak-hT";
    QTest::newRow("nonmoving-heap") << "nonmoving-heap" << "leak-nonmoving-N2";
    QTest::newRow("heap-profile") << "heap-profile" << "leak-hT";
    QTest::newRow("markers") << "markers" << "threads-N2";
    QTest::newRow("time-profile") << "time-profile" << "leak-prof-p";
}

// Each track alone draws its data into its rows, and names its colours in
// the legend.
void TestTracks::everyTrackDraws()
{
    QFETCH(QString, track);
    QFETCH(QString, log);
    const auto index = load(log);
    TimelineRenderer r;
    r.setIndex(index);
    RenderOptions o;
    o.palette = exportPalette();
    o.tracks = {track};
    o.legend = false;
    const QRect area(0, 0, 1200, r.naturalHeight(o));
    QImage image(area.size(), QImage::Format_ARGB32_Premultiplied);
    {
        QPainter p(&image);
        r.paint(p, area, r.bounds(), o);
    }
    const auto rows = r.layout(area, o);
    QVERIFY(!rows.empty());
    for (const TrackRow& row : rows) {
        QCOMPARE(row.id(), track);
        const QRect plot = row.rect.adjusted(TimelineRenderer::kLabelWidth + 4, 1, -2, -1);
        QVERIFY2(inked(image, plot) > 20, qPrintable(QStringLiteral("%1 row %2").arg(track).arg(row.cap)));
    }
}

// A cursor move, a selection or a tooltip repaints from the cached draw
// lists; a new range or width prepares them again.
void TestTracks::cursorAndHoverReuseDrawLists()
{
    const auto index = load(QStringLiteral("leak-hT"));
    TimelineRenderer r;
    r.setIndex(index);
    RenderOptions o;
    o.palette = exportPalette();
    const QRect area(0, 0, 1000, r.naturalHeight(o));
    QImage image(area.size(), QImage::Format_ARGB32_Premultiplied);
    QPainter p(&image);
    const ViewRange view = r.bounds();
    r.paint(p, area, view, o);
    const uint64_t first = r.preparedCount();
    QSet<QString> shown; // tracks with data in this log (the others: a line with a note, no list)
    for (const TrackRow& row : r.layout(area, o))
        if (row.rect.height() > TimelineRenderer::kCollapsedHeight)
            shown.insert(row.id());
    QCOMPARE(first, uint64_t(shown.size()));
    o.cursor = view.start + view.duration() / 2;
    o.selection = ViewRange{view.start + view.duration() / 4, view.start + view.duration() / 3};
    r.paint(p, area, view, o);
    for (const TrackRow& row : r.layout(area, o))
        (void)r.describeAt(row.rect.center(), area, view, o);
    QCOMPARE(r.preparedCount(), first);
    const ViewRange half{view.start, view.start + view.duration() / 2};
    r.paint(p, area, half, o);
    QCOMPARE(r.preparedCount(), 2 * first);
    r.paint(p, area.adjusted(0, 0, -100, 0), half, o);
    QCOMPARE(r.preparedCount(), 3 * first);
}

// What is under a point is the same whether or not anything was painted
// before, and whatever another canvas or an export painted meanwhile.
void TestTracks::hitTestsDoNotDependOnPaint()
{
    const auto index = load(QStringLiteral("leak-hT"));
    TimelineRenderer painted, fresh;
    painted.setIndex(index);
    fresh.setIndex(index);
    RenderOptions o;
    o.palette = exportPalette();
    const QRect area(0, 0, 1100, painted.naturalHeight(o));
    const ViewRange view = painted.bounds();
    QImage image(area.size(), QImage::Format_ARGB32_Premultiplied);
    {
        QPainter p(&image);
        painted.paint(p, area, view, o);
    }
    QTemporaryDir dir;
    ExportRequest rq;
    rq.path = dir.filePath(QStringLiteral("other.png"));
    rq.size = QSize(500, 900);
    rq.range = ViewRange{view.start, view.start + view.duration() / 7};
    rq.options = o;
    QCOMPARE(exportImage(index, rq), QString());
    int described = 0;
    for (const TrackRow& row : painted.layout(area, o))
        for (int x = TimelineRenderer::kLabelWidth + 5; x < area.width(); x += 37) {
            const QPoint at(x, row.rect.top() + row.rect.height() / 3);
            const QString a = painted.describeAt(at, area, view, o), b = fresh.describeAt(at, area, view, o);
            QCOMPARE(a, b);
            QCOMPARE(painted.itemAt(at, area, view, o), fresh.itemAt(at, area, view, o));
            QCOMPARE(painted.heapColumnAt(at, area, view, o), fresh.heapColumnAt(at, area, view, o));
            described += !a.isEmpty();
        }
    QVERIFY(described > 50);
}

// Zoomed in on a collection, a click on its bar selects exactly it; zoomed
// out, the bar under the pointer stands for a collection it covers.
void TestTracks::gcHitTestFindsTheDrawnCollection()
{
    const auto index = load(QStringLiteral("leak-hT"));
    QVERIFY(index->collections.size() > 100);
    TimelineRenderer r;
    r.setIndex(index);
    RenderOptions o;
    o.tracks = {QStringLiteral("gc")};
    const QRect area(0, 0, 1000, r.naturalHeight(o));
    const QRect plot = r.plotArea(area, o);
    const TrackRow row = r.layout(area, o).front();
    for (size_t i = 0; i < index->collections.size(); i += 37) {
        const Collection& c = index->collections[i];
        const ViewRange view{c.leaderStart - c.pause(), c.leaderEnd + c.pause()};
        const QPoint middle(plot.left() + plot.width() / 2, row.rect.bottom() - 4);
        const auto item = r.itemAt(middle, area, view, o);
        QVERIFY(item);
        QCOMPARE(item->track, QStringLiteral("gc"));
        QCOMPARE(item->start, c.leaderStart);
        QCOMPARE(item->end, c.leaderEnd);
        QVERIFY(r.describeAt(middle, area, view, o).startsWith(QStringLiteral("Collection: generation %1").arg(c.generation)));
    }
    const ViewRange whole = r.bounds();
    const TimeMapping m(whole, plot.left(), plot.width());
    int found = 0;
    for (int x = plot.left(); x < plot.right(); x += 3) {
        const auto item = r.itemAt(QPoint(x, row.rect.bottom() - 4), area, whole, o);
        if (!item)
            continue;
        ++found;
        const double slack = 4 * m.nsPerPixel();
        QVERIFY(double(item->start) <= double(m.toTime(x)) + slack && double(item->end) + slack >= double(m.toTime(x)));
        const bool real = std::any_of(index->collections.begin(), index->collections.end(), [&](const Collection& c) {
            return c.leaderStart == item->start && c.leaderEnd == item->end;
        });
        QVERIFY(real);
    }
    QVERIFY(found > 20);
}

// Spark and thread instants on the HEC rows (sparks-lf-N2: 4,119 sparks
// created): zoomed in each is drawn and described, each kind hidden by its
// View switch; zoomed out, a kind denser than a mark per kInstantPixelsPerMark pixels is not
// drawn (ThreadScope, too, shows them only when zoomed in).
void TestTracks::instantsShowWhenZoomedIn()
{
    const auto index = load(QStringLiteral("sparks-lf-N2"));
    QVERIFY(index->instantCounts[size_t(InstantKind::SparkCreate)] > 1000);
    TimelineRenderer r;
    r.setIndex(index);
    RenderOptions o;
    o.tracks = {QStringLiteral("hecs")};
    o.legend = false;
    o.detail = detailOf(QStringLiteral("sparks-lf-N2"));
    o.waitForDetail = true;
    const QRect area(0, 0, 1000, r.naturalHeight(o));
    const QRect plot = r.plotArea(area, o);
    // The whole run: far more spark runs than pixels.
    const auto whole = collectInstants(*index, o.detail.get(), true, r.bounds(), plot.width());
    QVERIFY(whole[0].dense[size_t(InstantKind::SparkCreate)]);
    QVERIFY(whole[0].shown[size_t(InstantKind::SparkCreate)].empty());
    // Zoomed on one spark run of capability 1.
    const ViewInstants all1 = viewInstants(*o.detail, *index, 1, 0, UINT64_MAX, true);
    const CapInstants& cap1 = all1.instants;
    QCOMPARE(uint64_t(cap1.size()), index->instants.at(1).count());
    size_t run = cap1.size(); // a spark created
    for (size_t i = cap1.size() / 2; i < cap1.size() && run == cap1.size(); ++i)
        if (cap1.kind(i) == InstantKind::SparkCreate)
            run = i;
    QVERIFY(run < cap1.size());
    const uint64_t t = cap1.time(run);
    const ViewRange near{t - 20'000, t + 20'000};
    // Not read yet: the row says so and asks for its unit; read, it is drawn.
    auto fresh = detailOf(QStringLiteral("sparks-lf-N2"));
    std::vector<InstantUnitKey> missing;
    const auto before = collectInstants(*index, fresh.get(), false, near, plot.width(), &missing);
    QVERIFY(before[1].pending && !missing.empty());
    for (const InstantUnitKey& k : missing)
        fresh->load(*index, k);
    const auto rows = collectInstants(*index, fresh.get(), false, near, plot.width());
    QVERIFY(!rows[1].pending);
    const auto& shown = rows[1].shown[size_t(InstantKind::SparkCreate)];
    QVERIFY(std::find_if(shown.begin(), shown.end(), [&](uint32_t i) { return rows[1].instants.time(i) == t; })
            != shown.end());
    const auto layout = r.layout(area, o);
    const TrackRow* row1 = nullptr;
    for (const TrackRow& row : layout)
        if (row.cap == 1)
            row1 = &row;
    QVERIFY(row1);
    const TimeMapping m(near, plot.left(), plot.width());
    const QPoint at(int(std::floor(m.toPixel(t))), row1->rect.top() + 8);
    const QString said = r.describeAt(at, area, near, o);
    QVERIFY2(said.contains(QStringLiteral("spark created at %1").arg(QString::fromStdString(formatTimestamp(t)))), qPrintable(said));
    auto draw = [&](uint32_t mask) {
        o.instantKinds = mask;
        QImage image(area.size(), QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::white);
        QPainter p(&image);
        r.paint(p, area, near, o);
        return image;
    };
    const QImage all = draw(kAllInstantKinds), none = draw(0);
    QVERIFY(all != none);
    // Its mark: the spark-run colour at its column.
    QCOMPARE(all.pixelColor(at.x(), at.y()), instantColor(InstantKind::SparkCreate));
    QVERIFY(none.pixelColor(at.x(), at.y()) != instantColor(InstantKind::SparkCreate));
    // Hidden: not described either.
    o.instantKinds = kAllInstantKinds & ~(1u << int(InstantKind::SparkCreate));
    QVERIFY(!r.describeAt(at, area, near, o).contains(QStringLiteral("spark created at")));
}

// The activity track is on a scale of capabilities (a gridline each, the
// tooltip in capabilities); "running only" leaves GC out.
void TestTracks::activityHasACapabilityScale()
{
    const auto index = load(QStringLiteral("sparks-N4"));
    QCOMPARE(index->caps.size(), size_t(4));
    TimelineRenderer r;
    r.setIndex(index);
    RenderOptions o;
    o.tracks = {QStringLiteral("activity")};
    o.legend = false;
    const QRect area(0, 0, 1000, r.naturalHeight(o));
    const QRect plot = r.plotArea(area, o);
    const QPoint at(plot.left() + plot.width() / 2, area.top() + TimelineRenderer::kRulerHeight + 20);
    const QString said = r.describeAt(at, area, r.bounds(), o);
    QVERIFY2(said.contains(QStringLiteral("of 4 capabilities running")), qPrintable(said));
    auto draw = [&](bool runningOnly) {
        o.activityRunningOnly = runningOnly;
        QImage image(area.size(), QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::white);
        QPainter p(&image);
        r.paint(p, area, r.bounds(), o);
        return image;
    };
    const QImage both = draw(false), running = draw(true);
    auto count = [&](const QImage& image, QColor c) {
        int n = 0;
        for (int y = 0; y < image.height(); ++y)
            for (int x = plot.left(); x < plot.right(); ++x)
                n += image.pixelColor(x, y) == c;
        return n;
    };
    QVERIFY(count(both, spanColor(SpanKind::Gc)) > 0);
    QCOMPARE(count(running, spanColor(SpanKind::Gc)), 0);
    QCOMPARE(count(running, spanColor(SpanKind::Running)), count(both, spanColor(SpanKind::Running)));
}

// The selection is tinted over the ruler and the tracks; the legend below
// them keeps its own background, legible.
void TestTracks::selectionTintsTheTracksNotTheLegend()
{
    const auto index = load(QStringLiteral("sparks-N4"));
    TimelineRenderer r;
    r.setIndex(index);
    RenderOptions o;
    o.tracks = {QStringLiteral("gc")};
    o.palette = exportPalette();
    o.selection = r.bounds(); // all of it
    const QRect area(0, 0, 900, r.naturalHeight(o) + 40);
    QImage image(area.size(), QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter p(&image);
    r.paint(p, area, r.bounds(), o);
    p.end();
    const auto rows = r.layout(area, o);
    QCOMPARE(rows.size(), size_t(1));
    const QRect plot = r.plotArea(area, o);
    // Below the GC row: the legend. Its background, in the plot's columns,
    // is not tinted (a column where no legend text or swatch is).
    const int legendY = rows.back().rect.bottom() + 4;
    int plain = 0;
    for (int x = plot.left() + 1; x < plot.right(); ++x)
        plain += image.pixelColor(x, legendY) == o.palette.color(QPalette::Window);
    QVERIFY2(plain > plot.width() / 3, qPrintable(QString::number(plain)));
    // The track itself is tinted somewhere it is empty.
    QColor base = o.palette.color(QPalette::Base);
    int tinted = 0;
    for (int x = plot.left() + 1; x < plot.right(); ++x)
        tinted += image.pixelColor(x, rows.back().rect.top() + 1) != base;
    QVERIFY(tinted > plot.width() / 2);
}

// Zoomed in on a run, the HEC row's item is that run, as the timeline holds it.
void TestTracks::hecHitTestSelectsRealSpans()
{
    const auto index = load(QStringLiteral("threads-N2"));
    TimelineRenderer r;
    r.setIndex(index);
    RenderOptions o;
    o.tracks = {QStringLiteral("hecs")};
    const QRect area(0, 0, 1200, r.naturalHeight(o));
    const QRect plot = r.plotArea(area, o);
    const auto rows = r.layout(area, o);
    QCOMPARE(int(rows.size()), int(index->caps.size()));
    int checked = 0;
    for (const TrackRow& row : rows) {
        const CapTimeline& tl = index->caps[size_t(row.cap)].timeline;
        for (size_t i = 0; i < tl.size() && checked < 40 * (row.cap + 1); i += 11) {
            const Span s = tl[i];
            if (s.length() < 200)
                continue;
            const ViewRange view{s.start(), s.end()};
            const bool gc = isGc(s.kind());
            const QPoint at(plot.left() + plot.width() / 2, row.rect.top() + (gc ? 24 : 8));
            const auto item = r.itemAt(at, area, view, o);
            QVERIFY(item);
            QCOMPARE(item->cap, row.cap);
            QCOMPARE(item->gcLane, gc);
            QCOMPARE(item->start, s.start());
            QCOMPARE(item->end, s.end());
            if (!gc)
                QVERIFY(r.describeAt(at, area, view, o).contains(QStringLiteral("Thread %1").arg(s.thread())));
            ++checked;
        }
    }
    QVERIFY2(checked >= 60, qPrintable(QString::number(checked)));
}

// The band under the pointer is the band drawn there: the pixel's colour is
// that band's colour, over the whole stacked chart.
void TestTracks::heapBandUnderPointerIsTheDrawnOne_data()
{
    QTest::addColumn<int>("mode");
    QTest::newRow("stacked") << int(HeapChartMode::Stacked);
    QTest::newRow("normalised") << int(HeapChartMode::Normalised);
    QTest::newRow("lines") << int(HeapChartMode::Lines);
}

void TestTracks::heapBandUnderPointerIsTheDrawnOne()
{
    QFETCH(int, mode);
    const auto index = load(QStringLiteral("leak-hT"));
    TimelineRenderer r;
    r.setIndex(index);
    RenderOptions o;
    o.palette = exportPalette();
    o.tracks = {QStringLiteral("heap-profile")};
    o.legend = false;
    auto hview = std::make_shared<HeapView>();
    hview->indexSerial = index->serial;
    hview->selection = index->defaultBands;
    hview->mode = HeapChartMode(mode);
    o.heapView = hview;
    const QRect area(0, 0, 900, r.naturalHeight(o));
    QImage image(area.size(), QImage::Format_ARGB32_Premultiplied);
    const ViewRange view = r.bounds();
    {
        QPainter p(&image);
        r.paint(p, area, view, o);
    }
    const auto hv = r.heapViewFor(o);
    const TrackRow row = r.layout(area, o).front();
    int matched = 0, tried = 0;
    for (int x = TimelineRenderer::kLabelWidth + 10; x < area.width() - 10; x += 23)
        for (int y = row.rect.top() + 10; y < row.rect.bottom() - 5; y += 9) {
            const auto column = r.heapColumnAt(QPoint(x, y), area, view, o);
            if (!column)
                continue;
            ++tried;
            // Away from band edges (where outlines are drawn) the pixel has
            // the band's fill; a line passes within 5 pixels.
            const QColor fill = columnColour(*hv->selection, index->heapBands, *column);
            bool same = true;
            if (hview->mode == HeapChartMode::Lines) {
                same = false;
                for (int dy = -5; dy <= 5; ++dy)
                    same = same || QColor(image.pixel(x, y + dy)) == fill;
            } else {
                for (int dy : {-2, 0, 2})
                    same = same && QColor(image.pixel(x, y + dy)) == fill;
            }
            matched += same;
        }
    QVERIFY2(tried > (hview->mode == HeapChartMode::Lines ? 5 : 30), qPrintable(QString::number(tried)));
    QVERIFY2(matched * 10 >= tried * 6, qPrintable(QStringLiteral("%1 of %2").arg(matched).arg(tried)));
}

// A new heap view (another mode, a hidden band) prepares the heap-profile
// track again, and only it; a new index prepares every track again.
void TestTracks::cacheFollowsTheHeapViewAndTheIndex()
{
    const auto index = load(QStringLiteral("leak-hT"));
    TimelineRenderer r;
    r.setIndex(index);
    RenderOptions o;
    o.palette = exportPalette();
    const QRect area(0, 0, 800, r.naturalHeight(o));
    QImage image(area.size(), QImage::Format_ARGB32_Premultiplied);
    QPainter p(&image);
    r.paint(p, area, r.bounds(), o);
    const uint64_t first = r.preparedCount();
    auto view = std::make_shared<HeapView>();
    view->indexSerial = index->serial;
    view->selection = index->defaultBands;
    view->mode = HeapChartMode::Lines;
    o.heapView = view;
    r.paint(p, area, r.bounds(), o);
    QCOMPARE(r.preparedCount(), first + 1);
    auto hidden = std::make_shared<HeapView>(*view);
    hidden->hidden.assign(view->selection->columns(), 0);
    hidden->hidden[0] = 1;
    o.heapView = hidden;
    r.paint(p, area, r.bounds(), o);
    QCOMPARE(r.preparedCount(), first + 2);
    r.setIndex(index); // a reload
    r.paint(p, area, r.bounds(), o);
    QCOMPARE(r.preparedCount(), 2 * first + 2);
}

// 553 collections in 1,100 pixels: each column's bar is as tall as the
// share of its time spent collecting, so busy stretches stand out (not a
// solid bar), and its tooltip counts the collections in it.
void TestTracks::denseCollectionsShowTheirDensity()
{
    const auto index = loadPath(QStringLiteral(HECSCOPE_TESTDATA_DIR "/rts-summary/sparks-N3-A64k-s.eventlog"));
    QCOMPARE(index->collections.size(), size_t(553));
    TimelineRenderer r;
    r.setIndex(index);
    RenderOptions o;
    o.palette = exportPalette();
    o.tracks = {QStringLiteral("gc")};
    o.legend = false;
    const QRect area(0, 0, 1200, r.naturalHeight(o));
    QImage image(area.size(), QImage::Format_ARGB32_Premultiplied);
    {
        QPainter p(&image);
        r.paint(p, area, r.bounds(), o);
    }
    const TrackRow row = r.layout(area, o).front();
    const QRgb background = image.pixel(TimelineRenderer::kLabelWidth + 2, row.rect.top() + 2);
    QSet<int> heights;
    int tallest = -1, tallestHeight = 0;
    for (int x = TimelineRenderer::kLabelWidth + 1; x < area.width(); ++x) {
        int h = 0;
        for (int y = row.rect.top() + 5; y <= row.rect.bottom(); ++y)
            h += image.pixel(x, y) != background;
        if (h == 0)
            continue;
        heights.insert(h);
        if (h > tallestHeight)
            tallest = x, tallestHeight = h;
    }
    QVERIFY2(heights.size() >= 4, qPrintable(QString::number(heights.size())));
    const QString text = r.describeAt(QPoint(tallest, row.rect.bottom() - 3), area, r.bounds(), o);
    QVERIFY2(text.contains(QLatin1String("collections in this pixel")) || text.startsWith(QLatin1String("Collection")), qPrintable(text));
}

// Issue #25: parfib 34 at -N8 spends 2.4% of its run collecting (5.8 ms of
// 240 ms, 192 collections of ~30 us). At Fit All (1200 pixels, ~200 us
// each) the GC track draws each column's share of time collecting, so the
// mean drawn height over the columns stays within twice that share (it
// was a full-height bar per column holding a collection: a solid band);
// and the HEC rows draw their GC requests (one per collection) as short
// ticks, never lines across the run lane.
void TestTracks::zoomedOutGcIsProportionate()
{
    const auto index = loadPath(QStringLiteral(HECSCOPE_TESTDATA_DIR "/rts-summary/parfib-N8-s.eventlog"));
    const RangeStats st = computeStats(*index);
    const double gcShare = double(st.gcNs) / double(st.totalNs);
    QVERIFY(gcShare > 0.01 && gcShare < 0.05);
    TimelineRenderer r;
    r.setIndex(index);
    RenderOptions o;
    o.palette = exportPalette();
    o.legend = false;
    auto draw = [&](const QRect& area, ViewRange view) {
        QImage image(area.size(), QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::white);
        QPainter p(&image);
        r.paint(p, area, view, o);
        return image;
    };
    o.tracks = {QStringLiteral("gc")};
    const QRect area(0, 0, 1200, r.naturalHeight(o));
    const QImage gc = draw(area, r.bounds());
    const TrackRow row = r.layout(area, o).front();
    const QRect plot = row.rect.adjusted(TimelineRenderer::kLabelWidth + 4, 1, -2, -1);
    const QRgb background = gc.pixel(plot.left() + 1, plot.top() + 1);
    double drawn = 0;
    for (int x = plot.left(); x <= plot.right(); ++x) {
        int h = 0;
        for (int y = plot.top(); y <= plot.bottom(); ++y)
            h += gc.pixel(x, y) != background;
        drawn += double(h) / double(plot.height());
    }
    const double meanDrawn = drawn / double(plot.width());
    QVERIFY2(meanDrawn <= 2 * gcShare && meanDrawn >= gcShare / 2,
             qPrintable(QStringLiteral("mean drawn %1 vs GC share %2").arg(meanDrawn).arg(gcShare)));

    // GC requests on the HEC rows, alone.
    o.tracks = {QStringLiteral("hecs")};
    const QRect hecArea(0, 0, 1200, r.naturalHeight(o));
    const QRect hecPlot = r.plotArea(hecArea, o);
    o.detail = detailOfPath(QStringLiteral(HECSCOPE_TESTDATA_DIR "/rts-summary/parfib-N8-s.eventlog"));
    o.waitForDetail = true;
    const auto rows = collectInstants(*index, o.detail.get(), true, r.bounds(), hecPlot.width());
    uint64_t requests = 0;
    for (const InstantRow& in : rows)
        requests += in.count[size_t(InstantKind::GcRequest)];
    QVERIFY(requests >= 150);
    const QColor red = instantColor(InstantKind::GcRequest);
    auto longestRun = [&](const QImage& image) {
        int longest = 0;
        for (const TrackRow& hec : r.layout(hecArea, o))
            for (int x = hecPlot.left(); x < hecPlot.right(); ++x) {
                int run = 0;
                for (int y = hec.rect.top(); y < hec.rect.top() + 20; ++y) { // the run lane and the notch above it
                    run = image.pixelColor(x, y) == red ? run + 1 : 0;
                    longest = std::max(longest, run);
                }
            }
        return longest;
    };
    o.instantKinds = 1u << int(InstantKind::GcRequest);
    // The notch (3 pixels) and a short tick under it; a line across the
    // lane would be 20.
    const int zoomedOut = longestRun(draw(hecArea, r.bounds()));
    QVERIFY2(zoomedOut <= 8, qPrintable(QString::number(zoomedOut)));
    // Zoomed in on one request: a line across the lane again.
    uint64_t t = kNoTime;
    for (uint16_t c = 0; c < index->instants.size(); ++c) {
        const CapInstants in = viewInstants(*o.detail, *index, c, 0, UINT64_MAX, true).instants;
        for (size_t i = 0; i < in.size() && t == kNoTime; ++i)
            if (in.kind(i) == InstantKind::GcRequest)
                t = in.time(i);
    }
    QVERIFY(t != kNoTime);
    QVERIFY(longestRun(draw(hecArea, ViewRange{t - 50'000, t + 50'000})) >= 15);

    // Capability 7's time after a collection ended is named as parked in
    // its tooltip (and Details, the same text), not GC.
    const CapTimeline& tl = index->caps[7].timeline;
    size_t parked = tl.size();
    for (size_t i = 0; i < tl.size(); ++i)
        if (tl[i].kind() == SpanKind::GcParked && (parked == tl.size() || tl[i].length() > tl[parked].length()))
            parked = i;
    QVERIFY(parked < tl.size());
    const ViewRange around{tl[parked].start(), tl[parked].end()};
    const TrackRow* row7 = nullptr;
    const auto hecRows = r.layout(hecArea, o);
    for (const TrackRow& hec : hecRows)
        if (hec.cap == 7)
            row7 = &hec;
    QVERIFY(row7);
    const QString said = r.describeAt(QPoint(hecPlot.center().x(), row7->rect.top() + 24), hecArea, around, o);
    QVERIFY2(said.contains(QLatin1String("parked after the collection ended")), qPrintable(said));
}

void TestTracks::nonmovingCollectorOnRealLogs_data()
{
    QTest::addColumn<QString>("path");
    QTest::newRow("leak-nonmoving-N2") << QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/leak-nonmoving-N2.eventlog");
    QTest::newRow("nonmoving-N2-s") << QStringLiteral(HECSCOPE_TESTDATA_DIR "/rts-summary/nonmoving-N2-s.eventlog");
    for (const QString& log : test::conformanceLogs(QStringLiteral("ghc-events")))
        if (QFileInfo(log).fileName().startsWith(QLatin1String("nonmoving")))
            QTest::newRow(qPrintable(QFileInfo(log).fileName())) << log;
}

// The non-moving collector's events all reach the index (every mark, sweep
// and flush; syncs whose BEGIN GHC repeats once), nothing stays open in a
// complete log, censuses list their allocators in ascending size, and a
// click on a mark describes it with its objects marked.
void TestTracks::nonmovingCollectorOnRealLogs()
{
    QFETCH(QString, path);
    const auto ix = loadPath(path);
    const auto count = [&](ConcurrentSpan::Kind k) {
        return uint64_t(std::count_if(ix->concurrent.begin(), ix->concurrent.end(), [k](const ConcurrentSpan& s) { return s.kind == k; }));
    };
    QCOMPARE(count(ConcurrentSpan::Mark), ix->tagCounts[tag::ConcMarkBegin]);
    QCOMPARE(count(ConcurrentSpan::Sweep), ix->tagCounts[tag::ConcSweepBegin]);
    // GHC 9.0 nests a second BEGIN/END pair in each sync: one span each.
    QVERIFY(count(ConcurrentSpan::Sync) <= ix->tagCounts[tag::ConcSyncBegin]);
    QVERIFY(2 * count(ConcurrentSpan::Sync) >= ix->tagCounts[tag::ConcSyncBegin]);
    QCOMPARE(uint64_t(ix->remSetFlushes.size()), ix->tagCounts[tag::ConcUpdRemSetFlush]);
    QCOMPARE(uint64_t(ix->nonmovingCensus.size()), ix->tagCounts[tag::NonmovingHeapCensus]);
    if (!ix->scan.truncated)
        for (const ConcurrentSpan& s : ix->concurrent)
            QVERIFY(s.end != kNoTime && s.end >= s.start);
    // A mark long enough to click, zoomed in on.
    TimelineRenderer r;
    r.setIndex(ix);
    RenderOptions o;
    o.tracks = {QStringLiteral("nonmoving")};
    const QRect area(0, 0, 1000, r.naturalHeight(o));
    const auto rows = r.layout(area, o);
    QCOMPARE(int(rows.size()), ix->concurrent.empty() && ix->remSetFlushes.empty() ? 0 : 1);
    for (const ConcurrentSpan& s : ix->concurrent) {
        if (s.kind != ConcurrentSpan::Mark || s.end == kNoTime || s.end - s.start < 1000)
            continue;
        const QRect plot = r.plotArea(area, o);
        const QPoint at(plot.left() + plot.width() / 2, rows.front().rect.top() + 6);
        const QString text = r.describeAt(at, area, ViewRange{s.start, s.end}, o);
        QVERIFY2(text.contains(QStringLiteral("%1 objects marked").arg(QString::fromStdString(formatGrouped(s.markedObjects)))),
                 qPrintable(text));
        const auto item = r.itemAt(at, area, ViewRange{s.start, s.end}, o);
        QVERIFY(item && item->start == s.start && item->end == s.end);
        break;
    }
}

// The Time profile track: every bin a click selects holds exactly the
// samples of its time range, as its tooltip says; with a chosen frame the
// tooltip counts that frame's samples among them.
void TestTracks::timeProfileBinsHoldTheirSamples()
{
    const auto index = loadPath(QStringLiteral(HECSCOPE_TESTDATA_DIR "/profiles/profile-P.eventlog"));
    const auto& samples = index->timeProfile.samples;
    QVERIFY(samples.size() > 500);
    TimelineRenderer r;
    r.setIndex(index);
    RenderOptions o;
    o.tracks = {QStringLiteral("time-profile")};
    // The chosen frame: every stack whose innermost cost centre is "score".
    auto chosen = std::make_shared<ProfileHighlight>();
    chosen->label = QStringLiteral("score");
    for (size_t s = 0; s < index->timeProfile.stacks.size(); ++s) {
        const uint32_t cc = index->timeProfile.tree->stackLeading[s];
        chosen->stacks.push_back(cc != kNoCostCentre && index->timeProfile.tree->skeleton.costCentres[cc].label == "score");
    }
    o.profileHighlight = chosen;
    const QRect area(0, 0, 1200, r.naturalHeight(o));
    const QRect plot = r.plotArea(area, o);
    const TrackRow row = r.layout(area, o).front();
    const ViewRange whole = r.bounds();
    std::set<std::pair<uint64_t, uint64_t>> seen;
    uint64_t counted = 0;
    for (int x = plot.left(); x < plot.right(); ++x) {
        const QPoint at(x, row.rect.bottom() - 2);
        const auto item = r.itemAt(at, area, whole, o);
        if (!item || !seen.insert({item->start, item->end}).second)
            continue;
        QCOMPARE(item->track, QStringLiteral("time-profile"));
        uint64_t inBin = 0, inChosen = 0;
        for (const auto& s : samples)
            if (s.time >= item->start && s.time < item->end) {
                ++inBin;
                inChosen += chosen->stacks[s.stack];
            }
        QVERIFY(inBin > 0);
        counted += inBin;
        const QString text = r.describeAt(at, area, whole, o);
        QVERIFY2(text.contains(QStringLiteral(": %1 samples").arg(inBin)), qPrintable(text));
        if (inChosen)
            QVERIFY2(text.contains(QStringLiteral(", %1 in score").arg(inChosen)), qPrintable(text));
        else
            QVERIFY2(!text.contains(QLatin1String(" in score")), qPrintable(text));
    }
    QVERIFY(seen.size() > 20);
    QCOMPARE(counted, uint64_t(samples.size())); // every sample is in a bin that can be clicked
}

namespace {

// Near-black: text in the palette's Text colour (no track colour is this dark).
bool isText(QRgb c)
{
    return qRed(c) < 90 && qGreen(c) < 90 && qBlue(c) < 90;
}

int textPixels(const QImage& image, const QRect& r)
{
    int n = 0;
    for (int y = std::max(0, r.top()); y <= std::min(image.height() - 1, r.bottom()); ++y)
        for (int x = std::max(0, r.left()); x <= std::min(image.width() - 1, r.right()); ++x)
            n += isText(image.pixel(x, y));
    return n;
}

QImage paintTimeline(const TimelineRenderer& r, const QRect& area, const RenderOptions& o)
{
    QImage image(area.size(), QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter p(&image);
    r.paint(p, area, r.bounds(), o);
    return image;
}

} // namespace

// #25: the activity graph is read first for parallelism: as tall as
// ThreadScope's (100 px), its scale's numbers beside the data (in the label
// column, by their gridlines), none over the data.
void TestTracks::activityIsTallWithItsScaleBesideTheData()
{
    const auto index = load(QStringLiteral("sparks-N4")); // 4 capabilities, busy
    TimelineRenderer r;
    r.setIndex(index);
    RenderOptions o;
    o.tracks = {QStringLiteral("activity")};
    o.legend = false;
    const QRect area(0, 0, 1000, r.naturalHeight(o));
    const auto rows = r.layout(area, o);
    QCOMPARE(rows.size(), size_t(1));
    const QRect row = rows.front().rect;
    QVERIFY2(row.height() >= 100, qPrintable(QString::number(row.height())));
    const QImage image = paintTimeline(r, area, o);
    const QRect plot = r.plotArea(area, o);
    // The data under where the numbers used to be (the plot's left edge)
    // is there, and no text over it.
    QCOMPARE(textPixels(image, QRect(plot.left(), row.top(), 24, row.height())), 0);
    // A number beside each capability's gridline (4 of them, 22 px apart).
    const double h = row.height() - 4, base = row.bottom() - 1;
    for (int k = 1; k <= 4; ++k) {
        const int y = int(std::round(base - h * k / 4));
        const QRect beside(plot.left() - 16, y - 5, 14, 11);
        QVERIFY2(textPixels(image, beside) > 3, qPrintable(QStringLiteral("no number by gridline %1").arg(k)));
    }
}

// #25: a track whose data this log lacks takes one line saying so (its
// label kept), whatever height it has or the user dragged it to; a track
// with data keeps its rows. Emptiness is the whole log's: data outside the
// view is data.
void TestTracks::emptyTracksTakeOneLine()
{
    const auto threads = load(QStringLiteral("threads-N2")); // no sparks, heap profile or samples; heap figures
    QVERIFY(threads->heapBands.empty() && threads->timeProfile.samples.empty() && !threads->heap.empty());
    TimelineRenderer r;
    r.setIndex(threads);
    RenderOptions o;
    o.tracks = {QStringLiteral("sparks"), QStringLiteral("heap"), QStringLiteral("heap-profile"),
                QStringLiteral("time-profile")};
    o.legend = false;
    o.rowHeights = {{QStringLiteral("sparks"), 200}, {QStringLiteral("heap-profile"), 300},
                    {QStringLiteral("heap"), 120}};
    const QRect area(0, 0, 1000, r.naturalHeight(o));
    auto rows = r.layout(area, o);
    QCOMPARE(rows.size(), size_t(4));
    const int line = TimelineRenderer::kCollapsedHeight;
    QCOMPARE(rows[0].rect.height(), line);
    QCOMPARE(rows[1].rect.height(), 120); // the user's height: it has data
    QCOMPARE(rows[2].rect.height(), line);
    QCOMPARE(rows[3].rect.height(), line);
    QVERIFY(!r.resizable(rows[0], o));
    QVERIFY(r.resizable(rows[1], o));
    QCOMPARE(r.naturalHeight(o), TimelineRenderer::kRulerHeight + 3 * line + 120);
    // Each line: its label and its note.
    const auto labelAndNote = [&](const QImage& image, const QRect& plot, const TrackRow& collapsed) {
        const QRect row = collapsed.rect;
        QVERIFY2(textPixels(image, QRect(row.left(), row.top(), plot.left() - row.left(), row.height())) > 10,
                 qPrintable(collapsed.id()));
        const QRgb background = image.pixel(plot.right() - 2, row.center().y()); // past the note
        int noted = 0; // the note's text (its colour is the palette's, blended)
        for (int y = row.top(); y <= row.bottom(); ++y)
            for (int x = plot.left(); x < plot.left() + 200; ++x)
                noted += image.pixel(x, y) != background;
        QVERIFY2(noted > 10, qPrintable(collapsed.id()));
    };
    const QImage image = paintTimeline(r, area, o);
    for (size_t i : {size_t(0), size_t(2), size_t(3)})
        labelAndNote(image, r.plotArea(area, o), rows[i]);
    // A filled picture does not stretch them either.
    o.fill = true;
    rows = r.layout(QRect(0, 0, 1000, 900), o);
    QCOMPARE(rows[0].rect.height(), line);
    QVERIFY(rows[1].rect.height() > 120);
    QCOMPARE(rows[2].rect.height(), line);

    // A log with sparks keeps a chart per capability; one without
    // markers or messages says so in a line.
    const auto sparks = load(QStringLiteral("sparks-N4"));
    QVERIFY(sparks->messages.empty());
    r.setIndex(sparks);
    o = RenderOptions{};
    o.tracks = {QStringLiteral("sparks"), QStringLiteral("markers")};
    o.legend = false;
    const QRect sparksArea(0, 0, 1000, r.naturalHeight(o));
    rows = r.layout(sparksArea, o);
    QCOMPARE(rows.size(), sparks->caps.size() + 1);
    for (size_t c = 0; c < sparks->caps.size(); ++c)
        QVERIFY(rows[c].rect.height() > 40);
    QCOMPARE(rows.back().rect.height(), line);
    labelAndNote(paintTimeline(r, sparksArea, o), r.plotArea(sparksArea, o), rows.back());
    // Its colours are not in the legend (they are where markers are).
    o.legend = true;
    QVERIFY(!r.legendContent(o).entries.contains(QStringLiteral("marker")));
    r.setIndex(threads);
    QVERIFY(r.legendContent(o).entries.contains(QStringLiteral("marker")));
}

// #25: thread names were elided with room to spare ("IOMan...0 (2)"): the
// label column widens to the log's longest name (up to kMaxLabelWidth) and
// the names are drawn whole; one that does not fit even so is elided, and
// its tooltip says it whole.
void TestTracks::threadNamesAreWholeWhereThereIsRoom()
{
    const auto index = load(QStringLiteral("threads-N2"));
    TimelineRenderer r;
    r.setIndex(index);
    RenderOptions o;
    o.tracks = {QStringLiteral("activity"), QStringLiteral("hecs"), QStringLiteral("threads")};
    o.legend = false;
    const QFontMetrics fm(o.font);
    const int column = r.labelWidth(o);
    QVERIFY(column >= TimelineRenderer::kLabelWidth && column <= TimelineRenderer::kMaxLabelWidth);
    const ThreadStates& states = index->threadStates;
    int labelled = 0;
    QString longest;
    for (uint32_t i = 0; i < states.count(); ++i) {
        const ThreadInfo* t = index->thread(states.ids[i]);
        if (!t || t->label.empty())
            continue;
        ++labelled;
        const QString name = threadName(*index, states.ids[i]);
        if (fm.horizontalAdvance(name) > fm.horizontalAdvance(longest))
            longest = name;
        if (fm.horizontalAdvance(name) + 16 <= TimelineRenderer::kMaxLabelWidth)
            QVERIFY2(displayedLabel(name, fm, column - 16) == name, qPrintable(name));
    }
    QVERIFY(labelled >= 5); // IOManager on cap 0/1, TimerManager, main, pipe-…
    QCOMPARE(longest, QStringLiteral("IOManager on cap 0 (2)"));
    // Drawn whole: its row's text reaches past where the elided one ended.
    const QRect area(0, 0, 1200, r.naturalHeight(o));
    const auto rows = r.layout(area, o);
    const auto threadsRow = std::find_if(rows.begin(), rows.end(), [](const TrackRow& row) { return row.id() == QLatin1String("threads"); });
    QVERIFY(threadsRow != rows.end());
    const auto view = ThreadRowsView::makeDefault(*index);
    int shown = -1;
    for (int k = 0; k < view->shownRows(); ++k)
        if (threadName(*index, states.ids[*view->threadAtRow(k)]) == longest)
            shown = k;
    QVERIFY(shown >= 0);
    const int top = threadsRow->rect.top() + ThreadRowsView::kHeaderHeight + shown * ThreadRowsView::kRowHeight;
    const QImage image = paintTimeline(r, area, o);
    const int textEnd = 10 + fm.horizontalAdvance(longest);
    QVERIFY(textPixels(image, QRect(textEnd - 12, top, 12, ThreadRowsView::kRowHeight)) > 3);
    QVERIFY(textPixels(image, QRect(textEnd + 2, top, column - textEnd - 2, ThreadRowsView::kRowHeight)) == 0);
    // Whole: no tooltip; a font too big for the widest column: elided, and
    // the tooltip says it whole.
    const QPoint over(20, top + ThreadRowsView::kRowHeight / 2);
    QCOMPARE(r.labelTipAt(over, area, o), QString());
    o.font.setPixelSize(26);
    QCOMPARE(r.labelWidth(o), TimelineRenderer::kMaxLabelWidth);
    const auto big = r.layout(area, o);
    const auto bigThreads = std::find_if(big.begin(), big.end(), [](const TrackRow& row) { return row.id() == QLatin1String("threads"); });
    const QPoint overBig(20, bigThreads->rect.top() + ThreadRowsView::kHeaderHeight + shown * ThreadRowsView::kRowHeight + 5);
    QCOMPARE(r.labelTipAt(overBig, area, o), longest);
    QCOMPARE(r.labelTipAt(QPoint(overBig.x() + TimelineRenderer::kMaxLabelWidth, overBig.y()), area, o), QString()); // the plot
}

QTEST_MAIN(TestTracks)
#include "tst_tracks.moc"
