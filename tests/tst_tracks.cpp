// The timeline's tracks behind one interface: the registry, the draw-list
// cache, and hit tests that read the prepared lists (never the last paint),
// on real logs from testdata.
#include "tst_tracks.h"

#include <QAction>
#include <QMenu>

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
        o.states.set(std::make_shared<const InstantKindsShown>(InstantKindsShown{mask}));
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
    o.states.set(std::make_shared<const InstantKindsShown>(InstantKindsShown{kAllInstantKinds & ~(1u << int(InstantKind::SparkCreate))}));
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
    // "Running Only" is the track's own state, chosen in its own menu.
    auto choose = [&](bool runningOnly) {
        QMenu menu;
        r.addContextActions(menu, QPoint(5, at.y()), QPoint(), area, o,
                            [&](const std::function<void(TrackStates&)>& edit) { edit(o.states); });
        QAction* action = nullptr;
        for (QAction* a : menu.actions())
            if (a->text() == QStringLiteral("Running Only"))
                action = a;
        QVERIFY(action);
        if (action->isChecked() != runningOnly)
            action->trigger();
    };
    auto draw = [&](bool runningOnly) {
        choose(runningOnly);
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
    // A picture's renderer has no menu to change it.
    QMenu none;
    r.addContextActions(none, QPoint(5, at.y()), QPoint(), area, o);
    QVERIFY(none.isEmpty());
    choose(false); // (the choice is saved: back to the default)
    // Its legend names running and GC, unless the HEC rows (in whichever
    // order) name those colours already: each colour is named once.
    RenderOptions l;
    auto named = [&](std::vector<QString> tracks) {
        l.tracks = std::move(tracks);
        const QStringList entries = r.legendContent(l).entries;
        return std::pair{entries.count(QStringLiteral("running")), entries.count(QStringLiteral("GC"))};
    };
    using Counts = std::pair<qsizetype, qsizetype>; // running, GC
    QCOMPARE(named({QStringLiteral("activity")}), Counts(1, 1));
    QCOMPARE(named({QStringLiteral("hecs"), QStringLiteral("activity")}), Counts(0, 1));
    QCOMPARE(named({QStringLiteral("activity"), QStringLiteral("hecs")}), Counts(0, 1));
    QCOMPARE(named({QStringLiteral("activity"), QStringLiteral("gc")}).first, qsizetype(1));
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

QTEST_MAIN(TestTracks)
