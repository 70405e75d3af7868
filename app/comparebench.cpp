// `hecscope bench A --compare B`: what comparing two runs costs against
// loading one. Each measurement runs this binary as a child process of its
// own (`info`, `diff`), so that its peak RSS is its own and not the bench's.
#include "app/commands.h"

#include "ui/compare/comparepane.h"
#include "ui/compare/comparetimeline.h"
#include "ui/timeline/timelineview.h"
#include "ui/document/viewcontroller.h"
#include "ui/window/mainwindow.h"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QTimer>

#include <algorithm>
#include <random>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace hecscope::cli {
namespace {

struct ChildRun {
    bool ok = false;
    double seconds = 0;
    double peakRssMb = 0;
};

// This program with `args`: its standard output in `out` (thrown away
// without one).
ChildRun runSelf(const std::vector<std::string>& args, std::string* out = nullptr)
{
    ChildRun r;
    std::vector<char*> argv;
    std::string self = "/proc/self/exe";
    argv.push_back(self.data());
    std::vector<std::string> copy = args;
    for (std::string& a : copy)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    char outPath[] = "/tmp/hecscope-bench-XXXXXX";
    const int outFd = out ? ::mkstemp(outPath) : -1;
    if (out && outFd < 0)
        return r;
    const auto t0 = std::chrono::steady_clock::now();
    const pid_t pid = ::fork();
    if (pid < 0)
        return r;
    if (pid == 0) {
        if (outFd >= 0 ? ::dup2(outFd, STDOUT_FILENO) < 0 : std::freopen("/dev/null", "w", stdout) == nullptr)
            ::_exit(127);
        ::execv("/proc/self/exe", argv.data());
        ::_exit(127);
    }
    int status = 0;
    struct rusage usage {};
    if (::wait4(pid, &status, 0, &usage) != pid)
        return r;
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    r.peakRssMb = double(usage.ru_maxrss) / 1024.0;
    // (diff exits 1 for a corrupt input, whose figures it still prints.)
    r.ok = WIFEXITED(status) && (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 1);
    if (out) {
        out->clear();
        char buffer[4096];
        ::lseek(outFd, 0, SEEK_SET);
        for (ssize_t n; (n = ::read(outFd, buffer, sizeof buffer)) > 0;)
            out->append(buffer, size_t(n));
        ::close(outFd);
        ::unlink(outPath);
    }
    return r;
}

// The value of `key: value` in a child's output; -1 if absent.
double valueOf(const std::string& text, const std::string& key)
{
    const size_t at = text.find(key + ": ");
    return at == std::string::npos ? -1 : std::atof(text.c_str() + at + key.size() + 2);
}

double secondsOf(const QElapsedTimer& t)
{
    return double(t.nsecsElapsed()) / 1e9;
}

// Runs the event loop until `done` says so (or a generous guard passes).
template <class Done>
bool waitFor(Done done)
{
    QEventLoop loop;
    QTimer poll;
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        if (done())
            loop.quit();
    });
    poll.start(1);
    QTimer::singleShot(600000, &loop, &QEventLoop::quit);
    loop.exec();
    return done();
}

// One run alone in the window at 1600x1000 (File > Open until loaded):
// window_load_s.
void benchSingleWindow(const std::string& a)
{
    MainWindow window;
    window.resize(1600, 1000);
    window.show();
    QElapsedTimer t;
    t.start();
    bool loaded = false;
    QObject::connect(&window, &MainWindow::loadFinished, &window, [&] { loaded = true; });
    window.openFile(QString::fromStdString(a));
    waitFor([&] { return loaded; });
    std::printf("window_load_s: %.3f\n", secondsOf(t));
    std::fflush(stdout);
}

// The window at 1600x1000, A compared with B from the start: when A's
// timeline first has data, when B's timeline is under it, when both runs'
// figures are in the Compare pane; then repaints of the two stacked
// timelines over a zoom sweep.
void benchCompareWindow(const std::string& a, const std::string& b)
{
    MainWindow window;
    window.resize(1600, 1000);
    window.show();
    QElapsedTimer t;
    t.start();
    double firstA = -1, loadedA = -1, timelineB = -1, shown = -1;
    QObject::connect(&window, &MainWindow::partialShown, &window, [&] {
        if (firstA < 0)
            firstA = secondsOf(t);
    });
    QObject::connect(&window, &MainWindow::loadFinished, &window, [&] {
        loadedA = secondsOf(t);
        if (firstA < 0)
            firstA = loadedA;
    });
    QObject::connect(window.comparePane(), &ComparePane::runBReady, &window, [&] {
        if (timelineB < 0)
            timelineB = secondsOf(t);
    });
    QObject::connect(window.comparePane(), &ComparePane::comparisonShown, &window, [&] { shown = secondsOf(t); });
    window.openFile(QString::fromStdString(a));
    window.compareWith(QString::fromStdString(b));
    if (!waitFor([&] { return shown >= 0 && loadedA >= 0; })) {
        std::printf("compare_window_loaded_s: -1\n");
        return;
    }
    {
        // (Before the sweep reads detail back into the views' caches: the
        // window as loaded, as each single run's is measured.)
        struct rusage usage {};
        ::getrusage(RUSAGE_SELF, &usage);
        std::printf("compare_window_loaded_peak_rss_mb: %.1f\n", double(usage.ru_maxrss) / 1024.0);
    }
    std::printf("compare_first_tracks_a_s: %.3f\n", firstA);
    std::printf("compare_timeline_b_s: %.3f\n", timelineB);
    std::printf("compare_window_loaded_s: %.3f\n", shown);
    ViewController* c = window.controller();
    const ViewRange bounds = c->bounds();
    QWidget* central = window.centralWidget();
    std::mt19937_64 rng(7);
    std::vector<double> ms;
    // As render_p95_ms of one run: the repaint of a new view, and once what
    // it found missing is read (on the views' workers, not timed), the
    // repaint with it. First the load's last background work ends (the
    // statistics, the panes' figures): the repaints are timed alone.
    TimelineView* views[2] = {window.timeline(), window.compareTimeline()->view()};
    const auto reading = [&] { return views[0]->isReadingDetail() || views[1]->isReadingDetail(); };
    {
        struct rusage before {}, after {};
        ::getrusage(RUSAGE_SELF, &before);
        QElapsedTimer quiet;
        quiet.start();
        for (QElapsedTimer guard; !guard.isValid() || guard.elapsed() < 20000;) {
            if (!guard.isValid())
                guard.start();
            QEventLoop wait;
            QTimer::singleShot(250, &wait, &QEventLoop::quit);
            wait.exec();
            ::getrusage(RUSAGE_SELF, &after);
            const auto cpuUs = [](const struct rusage& u) {
                return int64_t(u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1000000 + u.ru_utime.tv_usec + u.ru_stime.tv_usec;
            };
            const bool idle = cpuUs(after) - cpuUs(before) < 25000; // under a tenth of a core
            before = after;
            if (idle)
                break;
        }
    }
    for (uint64_t width = bounds.duration();; width = std::max<uint64_t>(1000, width / 2)) {
        for (int k = 0; k < 3; ++k) {
            const uint64_t slack = bounds.duration() - std::min(bounds.duration(), width);
            const uint64_t start = bounds.start + (slack ? rng() % (slack + 1) : 0);
            c->setRange(fitInto({start, start + width}, bounds), false);
            QElapsedTimer r;
            r.start();
            central->repaint();
            ms.push_back(double(r.nsecsElapsed()) / 1e6);
            if (qEnvironmentVariableIsSet("HECSCOPE_BENCH_VERBOSE"))
                std::fprintf(stderr, "render width %llu: %.3f ms%s\n", (unsigned long long)width, ms.back(),
                             reading() ? " (reading)" : "");
            if (reading()) {
                waitFor([&] { return !reading(); });
                r.start();
                central->repaint();
                ms.push_back(double(r.nsecsElapsed()) / 1e6);
                if (qEnvironmentVariableIsSet("HECSCOPE_BENCH_VERBOSE"))
                    std::fprintf(stderr, "  with detail: %.3f ms\n", ms.back());
            }
        }
        if (width <= 1000)
            break;
    }
    std::sort(ms.begin(), ms.end());
    const auto at = [&](double q) { return ms[std::min(ms.size() - 1, size_t(q * double(ms.size())))]; };
    std::printf("compare_render_views: %zu\n", ms.size());
    std::printf("compare_render_p50_ms: %.3f\n", at(0.5));
    std::printf("compare_render_p95_ms: %.3f\n", at(0.95));
    std::printf("compare_render_max_ms: %.3f\n", ms.back());
    std::fflush(stdout);
}

} // namespace

int benchCompare(const std::string& a, const std::string& b, const std::string& windowPart)
{
    // (A child's part: one window's figures, its peak RSS its own.)
    if (windowPart == "single") {
        benchSingleWindow(a);
        return 0;
    }
    if (windowPart == "compare") {
        benchCompareWindow(a, b);
        return 0;
    }
    // The best of three of each: the machine's noise is larger than the
    // differences between runs.
    ChildRun infoA, infoB, diff;
    const auto best = [](ChildRun& keep, const ChildRun& r) {
        if (r.ok && (!keep.ok || r.seconds < keep.seconds))
            keep = r;
    };
    for (int i = 0; i < 3; ++i) {
        best(infoA, runSelf({"info", a}));
        best(infoB, runSelf({"info", b}));
        best(diff, runSelf({"diff", a, b}));
    }
    if (!infoA.ok || !infoB.ok || !diff.ok) {
        std::fprintf(stderr, "hecscope bench: --compare: `info` or `diff` of %s and %s failed\n", a.c_str(), b.c_str());
        return 1;
    }
    std::printf("compare_a: %s\n", a.c_str());
    std::printf("compare_b: %s\n", b.c_str());
    std::printf("compare_info_a_s: %.3f\n", infoA.seconds);
    std::printf("compare_info_b_s: %.3f\n", infoB.seconds);
    std::printf("compare_diff_s: %.3f\n", diff.seconds);
    std::printf("compare_diff_per_info: %.2f\n", diff.seconds / std::max(infoA.seconds, infoB.seconds));
    std::printf("compare_info_a_peak_rss_mb: %.1f\n", infoA.peakRssMb);
    std::printf("compare_info_b_peak_rss_mb: %.1f\n", infoB.peakRssMb);
    std::printf("compare_diff_peak_rss_mb: %.1f\n", diff.peakRssMb);
    std::fflush(stdout);
    // The window: each run alone, then both compared, each in a process of
    // its own.
    std::string singleA, singleB, compared;
    const ChildRun windowA = runSelf({"bench", a, "--compare", b, "--window-part", "single"}, &singleA);
    const ChildRun windowB = runSelf({"bench", b, "--compare", a, "--window-part", "single"}, &singleB);
    const ChildRun windowAB = runSelf({"bench", a, "--compare", b, "--window-part", "compare"}, &compared);
    if (!windowA.ok || !windowB.ok || !windowAB.ok || valueOf(compared, "compare_window_loaded_s") < 0) {
        std::fprintf(stderr, "hecscope bench: --compare: the window could not load %s or %s\n", a.c_str(), b.c_str());
        return 1;
    }
    const double single = valueOf(singleA, "window_load_s");
    std::printf("window_load_s: %.3f\n", single);
    std::fputs(compared.c_str(), stdout);
    std::printf("compare_window_per_single: %.2f\n", valueOf(compared, "compare_window_loaded_s") / std::max(single, 1e-9));
    std::printf("window_a_peak_rss_mb: %.1f\n", windowA.peakRssMb);
    std::printf("window_b_peak_rss_mb: %.1f\n", windowB.peakRssMb);
    // (Loaded: what the target compares; after the sweep: with what zooming
    // in read back into both views' detail caches.)
    std::printf("compare_window_after_sweep_peak_rss_mb: %.1f\n", windowAB.peakRssMb);
    std::printf("compare_window_rss_per_two_windows: %.2f\n",
                valueOf(compared, "compare_window_loaded_peak_rss_mb") / std::max(windowA.peakRssMb + windowB.peakRssMb, 1e-9));
    std::fflush(stdout);
    return 0;
}

} // namespace hecscope::cli
