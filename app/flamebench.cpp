// The cost-centre profiles' part of `hecscope bench`: the profile and
// flame-graph figures of an eventlog's samples, and of a .prof or -pj report.
#include "app/commands.h"
#include "core/profile/profileviews.h"
#include "core/profile/profreport.h"
#include "core/timeprofile/sampleprofile.h"
#include "ui/profile/flamepainter.h"
#include "ui/profile/profilepane.h"
#include "ui/window/mainwindow.h"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QImage>
#include <QPainter>
#include <QTimer>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>

namespace hecscope::cli {
namespace {

double msSince(const QElapsedTimer& t)
{
    return double(t.nsecsElapsed()) / 1e6;
}

// The flame graph's figures for one profile, whatever its source: the
// layout with the root and, at a few depths, the frame with the most time as
// the focus, then about 50 repaints at 1600x1000 as the view does them,
// flame and icicle. Prints flame_*; returns the root's layout time in ms.
double benchFlameOf(const CostCentreProfile& whole)
{
    QElapsedTimer t;
    t.start();
    const FlameLayout root = layoutFlame(whole, 0, ProfileMetric::Time);
    const double layoutMs = msSince(t);
    std::vector<uint32_t> focuses{0};
    for (uint32_t depth : {5u, 10u, 20u, 30u}) {
        uint32_t best = 0;
        for (const FlameFrame& f : root.frames)
            if (f.depth == depth && (best == 0 || whole.nodes[f.node].incl[0] > whole.nodes[best].incl[0]))
                best = f.node;
        if (best)
            focuses.push_back(best);
    }
    std::vector<FlameLayout> layouts;
    double layoutMax = layoutMs;
    for (uint32_t focus : focuses) {
        t.start();
        layouts.push_back(layoutFlame(whole, focus, ProfileMetric::Time));
        layoutMax = std::max(layoutMax, msSince(t));
    }
    QImage image(1600, 1000, QImage::Format_ARGB32_Premultiplied);
    std::vector<double> paintMs;
    int framesMax = 0, labelsMax = 0;
    for (int round = 0; paintMs.size() < 50; ++round)
        for (const FlameLayout& layout : layouts)
            for (bool icicle : {false, true}) {
                FlamePaintStats stats;
                FlamePaintOptions o;
                o.icicle = icicle;
                o.stats = &stats;
                o.hoveredFrame = layout.frames.size() > 1 ? uint32_t(round % layout.frames.size()) : UINT32_MAX;
                t.start();
                QPainter p(&image);
                paintFlame(p, image.rect(), whole, layout, o);
                p.end();
                paintMs.push_back(msSince(t));
                framesMax = std::max(framesMax, stats.frames);
                labelsMax = std::max(labelsMax, stats.labels);
            }
    std::printf("flame_frames: %zu\n", root.frames.size());
    std::printf("flame_layout_ms: %.3f\n", layoutMs);
    std::printf("flame_layout_max_ms: %.3f\n", layoutMax);
    std::printf("flame_focuses: %zu\n", focuses.size());
    std::printf("flame_repaint_views: %zu\n", paintMs.size());
    std::printf("flame_repaint_p50_ms: %.3f\n", percentile(paintMs, 0.50));
    std::printf("flame_repaint_p95_ms: %.3f\n", percentile(paintMs, 0.95));
    std::printf("flame_repaint_max_ms: %.3f\n", percentile(paintMs, 1.0));
    std::printf("flame_painted_frames_max: %d\n", framesMax);
    std::printf("flame_labels_max: %d\n", labelsMax);
    return layoutMs;
}

} // namespace

void benchFlame(const LogIndex& ix)
{
    const TimeProfileData& tp = ix.timeProfile;
    if (tp.samples.empty())
        return;
    // The profile of the whole run, then of 20 ranges of a tenth of it.
    QElapsedTimer t;
    t.start();
    const CostCentreProfile whole = *sampleProfile(ix, SampleFilter{});
    const double wholeMs = msSince(t);
    const uint64_t first = tp.samples.front().time, last = tp.samples.back().time;
    const uint64_t span = last - first, width = std::max<uint64_t>(1, span / 10);
    std::mt19937_64 rng(11);
    std::vector<double> rangeMs;
    for (int i = 0; i < 20; ++i) {
        SampleFilter f;
        f.t0 = first + (span > width ? rng() % (span - width) : 0);
        f.t1 = f.t0 + width;
        t.start();
        const auto p = sampleProfile(ix, f);
        rangeMs.push_back(msSince(t));
    }
    std::printf("profile_samples: %zu\n", tp.samples.size());
    std::printf("profile_stacks: %zu\n", tp.stacks.size());
    std::printf("profile_nodes: %zu\n", whole.nodes.size());
    std::printf("profile_whole_ms: %.3f\n", wholeMs);
    std::printf("profile_range_views: %zu\n", rangeMs.size());
    std::printf("profile_range_p50_ms: %.3f\n", percentile(rangeMs, 0.50));
    std::printf("profile_range_ms: %.3f\n", percentile(rangeMs, 0.95));
    std::printf("profile_range_max_ms: %.3f\n", percentile(rangeMs, 1.0));
    benchFlameOf(whole);
    std::fflush(stdout);
}

int benchReport(const std::string& path)
{
    // Opening as the window does: the whole file read, then parsed; 5 times.
    std::vector<double> openMs;
    CostCentreProfile p;
    uint64_t bytes = 0;
    for (int i = 0; i < 5; ++i) {
        QElapsedTimer t;
        t.start();
        ProfReportFile file = readProfReportFile(path);
        openMs.push_back(msSince(t));
        if (!file.profile) {
            std::fprintf(stderr, "hecscope bench: %s: %s\n", path.c_str(), file.error.c_str());
            return 1;
        }
        p = std::move(*file.profile);
        bytes = file.bytes;
    }
    if (p.error)
        std::fprintf(stderr, "hecscope bench: %s: %s\n", path.c_str(),
                     problemText(p, "timed").c_str());
    QElapsedTimer t;
    t.start();
    const CostCentreProfile up = bottomUp(p);
    const double bottomUpMs = msSince(t);
    std::printf("report_bytes: %lld\n", static_cast<long long>(bytes));
    std::printf("report_open_ms: %.3f\n", percentile(openMs, 0.5));
    std::printf("report_open_max_ms: %.3f\n", percentile(openMs, 1.0));
    std::printf("report_nodes: %zu\n", p.nodes.size());
    std::printf("report_bottom_up_ms: %.3f\n", bottomUpMs);
    std::printf("report_bottom_up_nodes: %zu\n", up.nodes.size());
    const double layoutMs = benchFlameOf(p);
    std::printf("report_flame_layout_ms: %.3f\n", layoutMs);
    // The window: File ▸ Open of the report until its flame graph and call
    // tree are shown (read and parsed on a worker, as the user waits).
    {
        MainWindow window;
        QEventLoop loop;
        QObject::connect(window.profilePane(), &ProfilePane::profileShown, &loop, &QEventLoop::quit);
        QTimer::singleShot(60000, &loop, &QEventLoop::quit); // a hung open still ends the bench
        t.start();
        window.openFile(QString::fromStdString(path));
        loop.exec();
        std::printf("report_window_ms: %.3f\n", msSince(t));
        std::printf("report_window_ui_ms: %.3f\n", window.profilePane()->lastApplyMs());
    }
    std::fflush(stdout);
    return p.error ? 1 : 0;
}

} // namespace hecscope::cli
