// The drawing half of `hecscope bench`: the window's renderer on the
// offscreen platform (repaints over zoom sweeps, cold jumps, the thread and
// span rows, the heap-profile track), the panes' figures and how long the
// window's event loop was kept from running while it opened the log.
#include "app/commands.h"
#include "app/stallmeter.h"
#include "core/threads/threadstats.h"
#include "core/threads/userspans.h"
#include "ui/heap/heappanel.h"
#include "ui/profile/profilepane.h"
#include "ui/threads/spanspane.h"
#include "ui/threads/threadspane.h"
#include "ui/timeline/exportchoices.h"
#include "ui/timeline/timelineview.h"
#include "ui/window/mainwindow.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QImage>
#include <QPainter>
#include <QSettings>
#include <QSpinBox>
#include <QTimer>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <random>
#include <thread>

namespace hecscope::cli {

namespace {

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

// The windows of thread segments the paints had read: the largest in
// memory (ThreadStates::memoryBytes) and the most of the file one read.
struct ThreadWindowsRead {
    size_t count = 0, maxBytes = 0;
    uint64_t maxRead = 0;
};

// Reads the detail `renderer`'s last paints wanted and did not find, as a
// view's workers do (TimelineView::readWantedDetail: the instants on one
// thread while the windows of thread segments are read on another), adding
// the thread windows read to `read` (if given); true if there was some.
static bool readWanted(const TimelineRenderer& renderer, const RenderOptions& o, ThreadWindowsRead* read = nullptr)
{
    const std::vector<InstantUnitKey> wanted = renderer.takeWantedInstants();
    const auto windows = renderer.takeWantedThreads();
    if (!o.detail || !renderer.index())
        return false;
    double instantsMs = 0;
    std::jthread instants([&] { // (joined also when a read throws)
        QElapsedTimer t;
        t.start();
        for (const InstantUnitKey& k : wanted)
            o.detail->load(*renderer.index(), k);
        instantsMs = double(t.nsecsElapsed()) / 1e6;
    });
    for (const ThreadWindowKey& key : windows)
        if (const auto w = o.detail->loadThreads(*renderer.index(), key)) {
            if (qEnvironmentVariableIsSet("HECSCOPE_BENCH_VERBOSE"))
                std::fprintf(stderr, "read a window of %zu threads, %llu..%llu: %.1f MB of the file, %llu thread events, %zu segments\n",
                             key.threads.size(), (unsigned long long)key.from, (unsigned long long)key.to,
                             double(w->bytesRead) / (1 << 20), (unsigned long long)w->events, w->states.segmentCount());
            if (read) {
                ++read->count;
                read->maxBytes = std::max(read->maxBytes, w->states.memoryBytes());
                read->maxRead = std::max(read->maxRead, w->bytesRead);
            }
        }
    instants.join();
    if (qEnvironmentVariableIsSet("HECSCOPE_BENCH_VERBOSE") && (!wanted.empty() || !windows.empty()))
        std::fprintf(stderr, "read %zu units of instants in %.3f ms beside %zu windows of threads\n", wanted.size(),
                     instantsMs, windows.size());
    return !wanted.empty() || !windows.empty();
}

// The sweep's views: the whole log, then halving down to a 1 µs window,
// three places each (the same places on every run).
static std::vector<ViewRange> sweepViews(ViewRange bounds)
{
    std::vector<ViewRange> views;
    std::mt19937_64 rng(7);
    for (uint64_t width = bounds.duration();; width = std::max<uint64_t>(1000, width / 2)) {
        for (int k = 0; k < 3; ++k) {
            const uint64_t slack = bounds.duration() - std::min(bounds.duration(), width);
            const uint64_t start = bounds.start + (slack ? rng() % (slack + 1) : 0);
            views.push_back(fitInto({start, start + width}, bounds));
        }
        if (width <= 1000)
            break;
    }
    return views;
}

void benchGui(std::shared_ptr<const LogIndex> index, const std::string& path, bool drawingOnly)
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
    ThreadWindowsRead sweepWindows;
    const std::vector<ViewRange> views = sweepViews(bounds);
    auto sweep = [&](const RenderOptions& o) {
        std::vector<double> ms;
        for (const ViewRange& view : views) {
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
            if (readWanted(renderer, o, &sweepWindows)) {
                t.start();
                QPainter p(&image);
                renderer.paint(p, image.rect(), view, o);
                p.end();
                ms.push_back(double(t.nsecsElapsed()) / 1e6);
            }
            if (qEnvironmentVariableIsSet("HECSCOPE_BENCH_VERBOSE"))
                std::fprintf(stderr, "render %llu..%llu: %.3f ms\n", (unsigned long long)view.start,
                             (unsigned long long)view.end, ms.back());
        }
        return ms;
    };
    const std::vector<double> ms = sweep(options);
    std::printf("render_views: %zu\n", ms.size());
    std::printf("render_p50_ms: %.3f\n", percentile(ms, 0.50));
    std::printf("render_p95_ms: %.3f\n", percentile(ms, 0.95));
    std::printf("render_max_ms: %.3f\n", percentile(ms, 1.0));
    if (const int repeats = qEnvironmentVariableIntValue("HECSCOPE_BENCH_REPEAT"); repeats > 0) {
        // Each view painted again, its detail in memory (warm), `repeats`
        // times: its best time is steadier than one paint on a machine
        // whose speed varies from minute to minute. The N widest views only
        // with HECSCOPE_BENCH_WIDE=N (where render_p95_ms comes from); with
        // HECSCOPE_BENCH_DUMP=DIR each view's picture goes to DIR/vNNN.png,
        // to compare the pixels of two builds.
        std::vector<ViewRange> repeated = views;
        if (const int wide = qEnvironmentVariableIntValue("HECSCOPE_BENCH_WIDE"); wide > 0)
            repeated.resize(std::min(repeated.size(), size_t(wide)));
        const QString dump = qEnvironmentVariable("HECSCOPE_BENCH_DUMP");
        std::vector<double> best(repeated.size(), std::numeric_limits<double>::infinity());
        for (int r = 0; r < repeats; ++r)
            for (size_t v = 0; v < repeated.size(); ++v) {
                QElapsedTimer t;
                t.start();
                QPainter p(&image);
                renderer.paint(p, image.rect(), repeated[v], options);
                p.end();
                best[v] = std::min(best[v], double(t.nsecsElapsed()) / 1e6);
                if (r == 0 && !dump.isEmpty())
                    image.save(dump + QStringLiteral("/v%1.png").arg(v, 3, 10, QLatin1Char('0')));
                renderer.takeWantedInstants(); // not read: these paints time what is in memory
                renderer.takeWantedThreads();
            }
        std::printf("render_best_views: %zu, best of %d paints each\n", repeated.size(), repeats);
        std::printf("render_best_p50_ms: %.3f\n", percentile(best, 0.50));
        std::printf("render_best_p95_ms: %.3f\n", percentile(best, 0.95));
    }
    // What the sweep's thread rows zoomed in past their bins read back.
    std::printf("render_thread_windows: %zu, largest %.1f MB in memory, most read %.1f MB\n", sweepWindows.count,
                double(sweepWindows.maxBytes) / (1 << 20), double(sweepWindows.maxRead) / (1 << 20));
    {
        // Zooming into one place, as the wheel does: from the whole run,
        // halving about its middle down to 1 us, the windows read on the
        // way (each a read of the file on the view's worker).
        RenderOptions zoom = options;
        zoom.detail = std::make_shared<DetailStore>(source);
        TimelineRenderer zoomRenderer;
        zoomRenderer.setIndex(index);
        ThreadWindowsRead zoomWindows;
        const uint64_t middle = bounds.start + bounds.duration() / 2;
        for (uint64_t width = bounds.duration();; width = std::max<uint64_t>(1000, width / 2)) {
            const ViewRange view = fitInto({middle - std::min(middle, width / 2), middle - std::min(middle, width / 2) + width}, bounds);
            zoom.detail->beginView();
            QPainter p(&image);
            zoomRenderer.paint(p, image.rect(), view, zoom);
            p.end();
            readWanted(zoomRenderer, zoom, &zoomWindows);
            if (width <= 1000)
                break;
        }
        std::printf("render_zoom_in_thread_windows: %zu, largest %.1f MB in memory\n", zoomWindows.count,
                    double(zoomWindows.maxBytes) / (1 << 20));
    }
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
            const double firstMs = double(t.nsecsElapsed()) / 1e6;
            double readMs = 0;
            if (readWanted(coldRenderer, cold)) {
                readMs = double(t.nsecsElapsed()) / 1e6 - firstMs;
                QPainter p(&image);
                coldRenderer.paint(p, image.rect(), view, cold);
            }
            coldMs.push_back(double(t.nsecsElapsed()) / 1e6);
            if (qEnvironmentVariableIsSet("HECSCOPE_BENCH_VERBOSE"))
                std::fprintf(stderr, "cold %llu..%llu: %.3f ms (paint %.3f, read %.3f, paint again %.3f)\n",
                             (unsigned long long)view.start, (unsigned long long)view.end, coldMs.back(), firstMs, readMs,
                             coldMs.back() - firstMs - readMs);
        }
        std::printf("render_cold_views: %zu\n", coldMs.size());
        std::printf("render_cold_p95_ms: %.3f\n", percentile(coldMs, 0.95));
        std::printf("render_cold_max_ms: %.3f\n", percentile(coldMs, 1.0));
        std::printf("detail_cache_mb: %.1f\n", double(cold.detail->cachedBytes()) / (1 << 20));
    }
    if (drawingOnly)
        return;
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
            t.states.set<ThreadRowsView>(v);
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
        s.states.set<ThreadRowsView>(v);
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
            heap.states.set<HeapView>(view);
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
            heap.states.set<HeapView>(view);
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
            o.states.set<HeapView>(panel.view());
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
