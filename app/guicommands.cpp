// `hecscope export` and the drawing half of `hecscope bench`: both use the
// window's renderer on the offscreen platform.
#include "app/commands.h"
#include "app/stallmeter.h"
#include "core/detail/threaddetail.h"
#include "core/load/loader.h"
#include "core/text/units.h"
#include "core/threads/threadstats.h"
#include "core/threads/userspans.h"
#include "ui/threads/spanspane.h"
#include "ui/threads/threadspane.h"

#include "core/stats/stats.h"
#include "ui/heap/heappanel.h"
#include "ui/profile/profilepane.h"
#include "ui/timeline/exportchoices.h"
#include "ui/timeline/imageexport.h"
#include "ui/timeline/timelineview.h"
#include "ui/window/mainwindow.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QElapsedTimer>
#include <QImage>
#include <QPainter>
#include <QSettings>
#include <QSpinBox>
#include <QStringList>
#include <QTimer>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <random>

namespace hecscope::cli {

namespace {

// %s: the track ids of the registry.
const char* const kExportUsage =
    "Usage: hecscope export FILE -o OUT.(png|svg|pdf) [--view timeline|flame]\n"
    "                       [--size WxH] [--range START:END]\n"
    "         timeline:     [--tracks LIST] [--bands N] [--order ORDER] [--reverse]\n"
    "                       [--heap-mode stacked|normalised|lines]\n"
    "         flame:        [--cap N] [--alloc] [--icicle] [--hide-rts]\n"
    "\n"
    "Loads the eventlog FILE and draws its timeline, as the window does, or the\n"
    "flame graph of its cost-centre samples (a program run with +RTS -p -l),\n"
    "into OUT: a PNG, SVG or PDF picture chosen by OUT's suffix. Needs no display.\n"
    "\n"
    "Options:\n"
    "  -o OUT            the picture to write\n"
    "  --view VIEW       timeline (default) or flame\n"
    "  --size WxH        its size in pixels (default 1600x1000); a flame graph\n"
    "                    is W wide and as tall as its rows need, at most H\n"
    "                    (default: at most 8000)\n"
    "  --range START:END the time range shown, or whose samples the flame graph\n"
    "                    counts (default: the whole log). Times take a unit: ns,\n"
    "                    us, ms or s (a bare number is in seconds); either end\n"
    "                    may be left out: 1.5s: or :200ms\n"
    "Timeline:\n"
    "  --tracks LIST     the tracks, top to bottom, comma-separated, from\n"
    "                    %s\n"
    "                    (default: all)\n"
    "  --bands N, --order ORDER, --reverse\n"
    "                    the heap-profile bands, as for `hecscope heap`\n"
    "                    (default: the top 15 by size)\n"
    "  --heap-mode MODE  stacked (default), normalised (100 %%) or lines (each\n"
    "                    band scaled to its own peak)\n"
    "Flame graph (a title line names the program, what a frame's width\n"
    "counts, the total and the range):\n"
    "  --cap N           only capability N's samples (default: every one)\n"
    "  --alloc           widths by bytes allocated (reports that have them;\n"
    "                    an eventlog's samples count time only)\n"
    "  --icicle          the root at the top (default: at the bottom)\n"
    "  --hide-rts        leave out the time the RTS gives its own cost centres\n"
    "                    (GC, IDLE, SYSTEM, ...), as the Profile pane's switch\n"
    "  -h, --help        show this help\n"
    "\n"
    "Exit status: 0 written (a truncated log is drawn up to its last event,\n"
    "with a warning); 1 the log or the picture could not be read or written,\n"
    "or the log has no cost-centre samples for --view flame; 2 usage error.\n";

QByteArray exportUsage()
{
    QStringList ids;
    for (const QString& id : defaultTrackIds())
        ids << id;
    return QString::asprintf(kExportUsage, qPrintable(ids.join(QStringLiteral(", ")))).toLocal8Bit();
}

int usageError(const QString& why)
{
    std::fprintf(stderr, "hecscope export: %s\n\n%s", qPrintable(why), exportUsage().constData());
    return 2;
}

} // namespace

int exportImage(int argc, char** argv)
{
    QString file, out;
    QSize size(1600, 1000);
    bool sizeGiven = false;
    QString range;
    ExportChoices choices; // the timeline's, as the window's Export Image… makes them
    FlameExportOptions flame;
    bool flameView = false;
    QString timelineOnly, flameOnly; // an option given that the other view has no use for
    for (int i = 0; i < argc; ++i) {
        const QString arg = QString::fromLocal8Bit(argv[i]);
        auto value = [&]() -> std::optional<QString> {
            if (i + 1 >= argc)
                return std::nullopt;
            return QString::fromLocal8Bit(argv[++i]);
        };
        if (arg == QLatin1String("-h") || arg == QLatin1String("--help")) {
            std::fputs(exportUsage().constData(), stdout);
            return 0;
        }
        if (arg == QLatin1String("-o")) {
            const auto v = value();
            if (!v)
                return usageError(QStringLiteral("-o needs a file name"));
            out = *v;
        } else if (arg == QLatin1String("--view")) {
            const auto v = value();
            if (v != QLatin1String("timeline") && v != QLatin1String("flame"))
                return usageError(QStringLiteral("--view needs timeline or flame"));
            flameView = v == QLatin1String("flame");
        } else if (arg == QLatin1String("--cap")) {
            const auto v = value();
            bool ok = false;
            const int cap = v ? v->toInt(&ok) : -1;
            if (!ok || cap < 0)
                return usageError(QStringLiteral("--cap needs a capability number"));
            flame.cap = cap;
            flameOnly = arg;
        } else if (arg == QLatin1String("--alloc")) {
            flame.metric = ProfileMetric::Alloc;
            flameOnly = arg;
        } else if (arg == QLatin1String("--icicle")) {
            flame.icicle = true;
            flameOnly = arg;
        } else if (arg == QLatin1String("--hide-rts")) {
            flame.hideRts = true;
            flameOnly = arg;
        } else if (arg == QLatin1String("--size")) {
            const auto v = value();
            const QStringList wh = v ? v->split(QLatin1Char('x')) : QStringList();
            bool okW = false, okH = false;
            if (wh.size() == 2)
                size = QSize(wh[0].toInt(&okW), wh[1].toInt(&okH));
            sizeGiven = true;
            if (!okW || !okH)
                return usageError(
                    QStringLiteral("--size needs WIDTHxHEIGHT, e.g. 1600x1000"));
        } else if (arg == QLatin1String("--range")) {
            const auto v = value();
            if (!v || !v->contains(QLatin1Char(':')))
                return usageError(
                    QStringLiteral("--range needs START:END, e.g. 1.5s:2s"));
            range = *v;
        } else if (arg == QLatin1String("--tracks")) {
            timelineOnly = arg;
            const auto v = value();
            if (!v)
                return usageError(
                    QStringLiteral("--tracks needs a list, e.g. hecs,gc"));
            QString why;
            const auto ids = parseTrackList(*v, &why);
            if (!ids)
                return usageError(QStringLiteral("--tracks: %1").arg(why));
            choices.tracks = *ids;
        } else if (arg == QLatin1String("--bands")) {
            timelineOnly = arg;
            const auto v = value();
            bool ok = false;
            const qulonglong n = v ? v->toULongLong(&ok) : 0;
            if (!ok)
                return usageError(QStringLiteral("--bands needs a number (0 = every band)"));
            choices.bands = size_t(n);
        } else if (arg == QLatin1String("--order")) {
            timelineOnly = arg;
            const auto v = value();
            const auto o = v ? bandOrderFromName(v->toStdString()) : std::nullopt;
            if (!o)
                return usageError(QStringLiteral("--order needs one of size, stddev, name, number, growth"));
            choices.order = *o;
        } else if (arg == QLatin1String("--reverse")) {
            timelineOnly = arg;
            choices.reversed = true;
        } else if (arg == QLatin1String("--heap-mode")) {
            timelineOnly = arg;
            const auto v = value();
            if (v == QLatin1String("stacked"))
                choices.heapMode = HeapChartMode::Stacked;
            else if (v == QLatin1String("normalised") || v == QLatin1String("normalized"))
                choices.heapMode = HeapChartMode::Normalised;
            else if (v == QLatin1String("lines"))
                choices.heapMode = HeapChartMode::Lines;
            else
                return usageError(QStringLiteral("--heap-mode needs stacked, normalised or lines"));
        } else if (arg.size() > 1 && arg.startsWith(QLatin1Char('-'))) {
            return usageError(QStringLiteral("unknown option %1").arg(arg));
        } else if (file.isEmpty()) {
            file = arg;
        } else {
            return usageError(QStringLiteral("more than one FILE given"));
        }
    }
    if (file.isEmpty())
        return usageError(QStringLiteral("no FILE given"));
    if (out.isEmpty())
        return usageError(
            QStringLiteral("no output given (-o OUT.png, .svg or .pdf)"));
    if (!isExportFormat(out))
        return usageError(
            QStringLiteral("%1: the output must end in .png, .svg or .pdf")
                .arg(out));
    if (flameView && !timelineOnly.isEmpty())
        return usageError(QStringLiteral("%1 is for --view timeline").arg(timelineOnly));
    if (!flameView && !flameOnly.isEmpty())
        return usageError(QStringLiteral("%1 is for --view flame").arg(flameOnly));
    if (flameView) {
        flame.file = file.toStdString();
        flame.out = out.toStdString();
        flame.range = range.toStdString();
        flame.width = size.width();
        if (sizeGiven) // else as tall as the graph needs
            flame.height = size.height();
        return exportFlame(flame);
    }

    std::shared_ptr<ByteSource> source = openOrComplain(file.toStdString());
    if (!source)
        return 1;
    LoadResult loaded = loadIndex(*source);
    std::shared_ptr<const LogIndex> index(std::move(loaded.index));
    for (const Diagnostic& d : index->scan.diagnostics)
        std::fprintf(stderr, "hecscope export: %s: %s\n", qPrintable(file),
                     d.message().c_str());

    choices.path = out;
    choices.size = size;
    if (!range.isEmpty()) {
        QString why;
        choices.range = parseExportRange(range, TimelineRenderer::boundsOf(index.get()), &why);
        if (!choices.range)
            return usageError(QStringLiteral("bad --range: %1").arg(why));
    }
    RenderOptions base;
    base.palette = exportPalette();
    base.detail = std::make_shared<DetailStore>(source);
    base.waitForDetail = true;
    const ExportRequest rq = makeExportRequest(*index, choices, base);
    const QString error = hecscope::exportImage(index, rq);
    if (!error.isEmpty()) {
        std::fprintf(stderr, "hecscope export: %s\n", qPrintable(error));
        return 1;
    }
    return index->scan.hasError ? 1 : 0;
}

namespace {

double percentile(std::vector<double> v, double q)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    const size_t i = std::min(v.size() - 1, size_t(std::ceil(q * double(v.size())) - 1));
    return v[i];
}

// Longest gap between ticks of a 1 ms timer while the window opens `path`
// (loading, then showing the index and the statistics, painting at
// 1600x1000): how long the event loop was ever kept from running.
double uiMaxStallMs(const std::string& path)
{
    MainWindow window;
    window.resize(1600, 1000);
    window.show();
    QEventLoop loop;
    bool done = false;
    auto finish = [&] {
        done = true;
        // Let the repaints that follow the last result run before stopping.
        QTimer::singleShot(300, &loop, &QEventLoop::quit);
    };
    QObject::connect(&window, &MainWindow::statisticsShown, &loop, finish);
    QObject::connect(&window, &MainWindow::loadFinished, &loop, [&] {
        if (!window.index())
            finish(); // could not be opened: no statistics will come
    });
    StallMeter stalls;
    QTimer::singleShot(120000, &loop,
                       &QEventLoop::quit); // a hung load still ends the bench
    stalls.start();
    window.openFile(QString::fromStdString(path));
    loop.exec();
    stalls.stop();
    return done ? stalls.worstMs() : -1.0;
}

} // namespace

// Reads the detail `renderer`'s last paints wanted and did not find, as a
// view's worker does; true if there was some.
static bool readWanted(const TimelineRenderer& renderer, const RenderOptions& o)
{
    const std::vector<InstantUnitKey> wanted = renderer.takeWantedInstants();
    const auto windows = renderer.takeWantedThreads();
    if (!o.detail || !renderer.index())
        return false;
    for (const InstantUnitKey& k : wanted)
        o.detail->load(*renderer.index(), k);
    for (const auto& [from, to] : windows)
        o.detail->loadThreads(*renderer.index(), from, to);
    return !wanted.empty() || !windows.empty();
}

void benchGui(std::shared_ptr<const LogIndex> index, const std::string& path)
{
    // Full repaints at 1600x1000 over a sweep of zoom levels, halving from
    // the whole log down to a 1 µs window, at three places each.
    TimelineRenderer renderer;
    renderer.setIndex(index);
    const ViewRange bounds = renderer.bounds();
    RenderOptions options;
    options.palette = exportPalette();
    std::string openError;
    std::shared_ptr<ByteSource> source = FileSource::open(path, openError);
    options.detail = std::make_shared<DetailStore>(source);
    if (qEnvironmentVariableIsSet("HECSCOPE_BENCH_TRACKS")) { // to see which track costs what
        options.tracks.clear();
        for (const QString& name : qEnvironmentVariable("HECSCOPE_BENCH_TRACKS").split(QLatin1Char(',')))
            if (const TimelineTrack* t = findTrack(name))
                options.tracks.push_back(t->id());
    }
    QImage image(1600, 1000, QImage::Format_ARGB32_Premultiplied);
    auto sweep = [&](const RenderOptions& o) {
        std::mt19937_64 rng(7);
        std::vector<double> ms;
        for (uint64_t width = bounds.duration();;
             width = std::max<uint64_t>(1000, width / 2)) {
            for (int k = 0; k < 3; ++k) {
                const uint64_t slack = bounds.duration() - std::min(bounds.duration(), width);
                const uint64_t start = bounds.start + (slack ? rng() % (slack + 1) : 0);
                const ViewRange view = fitInto({start, start + width}, bounds);
                if (o.detail)
                    o.detail->beginView();
                QElapsedTimer t;
                t.start();
                {
                    QPainter p(&image);
                    renderer.paint(p, image.rect(), view, o);
                }
                ms.push_back(double(t.nsecsElapsed()) / 1e6);
                // What the paint found missing, read as the view's worker
                // would (not timed: off the UI thread), then the paint again.
                if (readWanted(renderer, o)) {
                    t.start();
                    QPainter p(&image);
                    renderer.paint(p, image.rect(), view, o);
                    p.end();
                    ms.push_back(double(t.nsecsElapsed()) / 1e6);
                }
                if (qEnvironmentVariableIsSet("HECSCOPE_BENCH_VERBOSE"))
                    std::fprintf(stderr, "render %llu..%llu: %.3f ms\n",
                                 (unsigned long long)view.start,
                                 (unsigned long long)view.end, ms.back());
            }
            if (width <= 1000)
                break;
        }
        return ms;
    };
    const std::vector<double> ms = sweep(options);
    std::printf("render_views: %zu\n", ms.size());
    std::printf("render_p50_ms: %.3f\n", percentile(ms, 0.50));
    std::printf("render_p95_ms: %.3f\n", percentile(ms, 0.95));
    std::printf("render_max_ms: %.3f\n", percentile(ms, 1.0));
    {
        // Cold jumps: 40 zoomed-in ranges (1/1000 to 1/100000 of the run)
        // with nothing read back yet, each from the jump until its detail is
        // on screen: the paint without it, reading it, the paint with it.
        RenderOptions cold = options;
        cold.detail = std::make_shared<DetailStore>(source);
        TimelineRenderer coldRenderer;
        coldRenderer.setIndex(index);
        std::mt19937_64 rng(11);
        std::vector<double> coldMs;
        for (int i = 0; i < 40; ++i) {
            const uint64_t width = std::max<uint64_t>(1000, uint64_t(double(bounds.duration()) * std::pow(10.0, -3.0 - double(i % 3))));
            const uint64_t slack = bounds.duration() - std::min(bounds.duration(), width);
            const uint64_t start = bounds.start + (slack ? rng() % (slack + 1) : 0);
            const ViewRange view = fitInto({start, start + width}, bounds);
            cold.detail->beginView();
            QElapsedTimer t;
            t.start();
            {
                QPainter p(&image);
                coldRenderer.paint(p, image.rect(), view, cold);
            }
            if (readWanted(coldRenderer, cold)) {
                QPainter p(&image);
                coldRenderer.paint(p, image.rect(), view, cold);
            }
            coldMs.push_back(double(t.nsecsElapsed()) / 1e6);
        }
        std::printf("render_cold_views: %zu\n", coldMs.size());
        std::printf("render_cold_p95_ms: %.3f\n", percentile(coldMs, 0.95));
        std::printf("render_cold_max_ms: %.3f\n", percentile(coldMs, 1.0));
        std::printf("detail_cache_mb: %.1f\n", double(cold.detail->cachedBytes()) / (1 << 20));
    }
    if (const size_t threads = index->threadStates.count()) {
        // The Threads track alone, as many rows as fill 1000 px, over the
        // zoom sweep at the top, middle and bottom of the thread list.
        RenderOptions t = options;
        t.tracks = {QStringLiteral("threads")};
        t.legend = false;
        const int rows = (1000 - TimelineRenderer::kRulerHeight - ThreadRowsView::kHeaderHeight) / ThreadRowsView::kRowHeight;
        std::vector<double> all;
        for (double where : {0.0, 0.5, 1.0}) {
            auto v = std::make_shared<ThreadRowsView>(*ThreadRowsView::makeDefault(*index));
            v->visibleRows = rows;
            v->first = threads > size_t(rows) ? size_t(where * double(threads - size_t(rows))) : 0;
            t.threadRows = v;
            const std::vector<double> m = sweep(t);
            all.insert(all.end(), m.begin(), m.end());
        }
        std::printf("thread_rows: %d of %zu\n", rows, threads);
        std::printf("thread_rows_render_views: %zu\n", all.size());
        std::printf("thread_rows_render_p50_ms: %.3f\n", percentile(all, 0.50));
        std::printf("thread_rows_render_p95_ms: %.3f\n", percentile(all, 0.95));
        std::printf("thread_rows_render_max_ms: %.3f\n", percentile(all, 1.0));
        // The Threads pane: every thread's figures, then its model filled
        // (and sorted), for the whole run and for the middle third.
        for (const bool ranged : {false, true}) {
            QElapsedTimer timer;
            timer.start();
            const std::optional<ViewRange> range = ranged
                ? std::optional<ViewRange>(ViewRange{bounds.start + bounds.duration() / 3, bounds.start + 2 * bounds.duration() / 3})
                : std::nullopt;
            ThreadsTableModel model;
            model.setFigures(index, threadFiguresIn(source.get(), *index, range));
            model.sort(ThreadsTableModel::Blocked, Qt::DescendingOrder);
            std::printf(ranged ? "threads_pane_range_ms: %.3f\n" : "threads_pane_ms: %.3f\n", double(timer.nsecsElapsed()) / 1e6);
        }
    }
    if (!index->timeProfile.samples.empty()) {
        // The Profile pane as the user waits for it: the whole run's profile
        // computed on a worker, then shown (models, flame layout) on this
        // thread; then a selection of a tenth of the run in the middle.
        ProfilePane pane;
        pane.resize(1600, 400);
        for (const bool ranged : {false, true}) {
            QEventLoop loop;
            QObject::connect(&pane, &ProfilePane::profileShown, &loop, &QEventLoop::quit);
            QElapsedTimer timer;
            timer.start();
            if (ranged)
                pane.setRange(ViewRange{bounds.start + bounds.duration() * 9 / 20, bounds.start + bounds.duration() * 11 / 20});
            else
                pane.setIndex(index);
            loop.exec();
            std::printf(ranged ? "profile_pane_range_ms: %.3f\n" : "profile_pane_ms: %.3f\n", double(timer.nsecsElapsed()) / 1e6);
            std::printf(ranged ? "profile_pane_range_ui_ms: %.3f\n" : "profile_pane_ui_ms: %.3f\n", pane.lastApplyMs());
            // The bottom-up tree follows on a worker.
            QEventLoop bottomUp;
            QObject::connect(&pane, &ProfilePane::bottomUpShown, &bottomUp, &QEventLoop::quit);
            bottomUp.exec();
            std::printf(ranged ? "profile_pane_range_bottom_up_ms: %.3f\n" : "profile_pane_bottom_up_ms: %.3f\n",
                        double(timer.nsecsElapsed()) / 1e6);
        }
    }
    if (index->userSpans && !index->userSpans->spans.empty()) {
        const auto& spans = index->userSpans;
        // The Spans pane: every name's figures, the names model filled and
        // the occurrences of the busiest name listed.
        QElapsedTimer timer;
        timer.start();
        SpanNamesModel names;
        names.setFigures(spans, spanFigures(*spans, std::nullopt));
        SpanOccurrencesModel occurrences;
        occurrences.setSpans(index, spans, spansOfName(*spans, spans->namesByTotal.front(), std::nullopt));
        std::printf("spans: %zu\n", spans->spans.size());
        std::printf("spans_pane_ms: %.3f\n", double(timer.nsecsElapsed()) / 1e6);
        // Span rows: the Spans track and the Threads track (which draws
        // each thread's spans) over the zoom sweep.
        RenderOptions s = options;
        s.tracks = {QStringLiteral("spans"), QStringLiteral("threads")};
        s.legend = false;
        auto v = std::make_shared<ThreadRowsView>(*ThreadRowsView::makeDefault(*index));
        v->visibleRows = 32;
        s.threadRows = v;
        const std::vector<double> m = sweep(s);
        std::printf("span_rows_render_views: %zu\n", m.size());
        std::printf("span_rows_render_p50_ms: %.3f\n", percentile(m, 0.50));
        std::printf("span_rows_render_p95_ms: %.3f\n", percentile(m, 0.95));
        std::printf("span_rows_render_max_ms: %.3f\n", percentile(m, 1.0));
    }
    if (!index->heapBands.empty()) {
        // The heap-profile track alone (1600 px wide), in each chart
        // mode with the default bands.
        RenderOptions heap = options;
        heap.tracks = {QStringLiteral("heap-profile")};
        heap.legend = false;
        std::vector<double> all;
        for (HeapChartMode mode : {HeapChartMode::Stacked, HeapChartMode::Normalised, HeapChartMode::Lines}) {
            auto view = std::make_shared<HeapView>();
            view->indexSerial = index->serial;
            view->mode = mode;
            view->selection = std::make_shared<const BandSelection>(selectBands(index->heapProfile, index->heapBands));
            heap.heapView = view;
            const std::vector<double> m = sweep(heap);
            all.insert(all.end(), m.begin(), m.end());
        }
        // Every band (--bands 0): a whole-run repaint in each mode.
        double allMax = 0;
        auto every = std::make_shared<const BandSelection>(selectBands(index->heapProfile, index->heapBands, 0));
        for (HeapChartMode mode : {HeapChartMode::Stacked, HeapChartMode::Normalised, HeapChartMode::Lines}) {
            auto view = std::make_shared<HeapView>();
            view->indexSerial = index->serial;
            view->mode = mode;
            view->selection = every;
            heap.heapView = view;
            QElapsedTimer t;
            t.start();
            QPainter p(&image);
            renderer.paint(p, image.rect(), bounds, heap);
            p.end();
            allMax = std::max(allMax, double(t.nsecsElapsed()) / 1e6);
        }
        std::printf("heap_render_views: %zu\n", all.size());
        std::printf("heap_render_p50_ms: %.3f\n", percentile(all, 0.50));
        std::printf("heap_render_p95_ms: %.3f\n", percentile(all, 0.95));
        std::printf("heap_render_max_ms: %.3f\n", percentile(all, 1.0));
        std::printf("heap_render_all_bands_max_ms: %.3f\n", allMax);

        // A change of band count, ordering or direction in the Heap Profile
        // pane until the timeline has repainted with it (whole run, all
        // tracks at 1600x1000).
        HeapPanel panel;
        panel.setIndex(index);
        RenderOptions o = options;
        double changeMax = 0;
        auto change = [&](auto&& apply) {
            QElapsedTimer t;
            t.start();
            apply();
            while (panel.isSelecting()) // a big profile selects on a worker
                QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
            o.heapView = panel.view();
            QPainter p(&image);
            renderer.paint(p, image.rect(), bounds, o);
            p.end();
            changeMax = std::max(changeMax, double(t.nsecsElapsed()) / 1e6);
        };
        for (int n : {5, 50, 15})
            change([&] { panel.bandsBox()->setValue(n); });
        for (BandOrder order : kBandOrders) {
            change([&] { panel.orderBox()->setCurrentIndex(panel.orderBox()->findData(int(order))); });
            change([&] { panel.reverseBox()->toggle(); });
        }
        std::printf("heap_change_max_ms: %.3f\n", changeMax);
        QSettings().remove(QStringLiteral("heap")); // the pane saved its choices
    }
    benchFlame(*index);
    std::printf("ui_max_stall_ms: %.1f\n", uiMaxStallMs(path));
    std::fflush(stdout);
    if (path != "-") {
        benchProgressiveOpen(path);
        benchLive(path);
    }
}

} // namespace hecscope::cli
