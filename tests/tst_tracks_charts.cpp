// tst_tracks: the heap band under the pointer, the draw lists' cache,
// collections' density and proportions, the nonmoving collector, the time
// profile, the activity scale, empty tracks and thread names.
#include "tst_tracks.h"

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
    o.states.set<HeapView>(hview);
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
    o.states.set<HeapView>(view);
    r.paint(p, area, r.bounds(), o);
    QCOMPARE(r.preparedCount(), first + 1);
    auto hidden = std::make_shared<HeapView>(*view);
    hidden->hidden.assign(view->selection->columns(), 0);
    hidden->hidden[0] = 1;
    o.states.set<HeapView>(hidden);
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
    o.states.set(std::make_shared<const InstantKindsShown>(InstantKindsShown{1u << int(InstantKind::GcRequest)}));
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
    o.states.set<ProfileHighlight>(chosen);
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
        const std::optional<ThreadInfo> t = index->thread(states.ids[i]);
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
