// `hecscope bench A --compare B`: what comparing two runs costs against
// loading one. Each measurement runs this binary as a child process of its
// own (`info`, `diff`), so that its peak RSS is its own and not the bench's.
#include "app/commands.h"

#include <chrono>
#include <cstdio>
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

// This program with `args`, its output thrown away.
ChildRun runSelf(const std::vector<std::string>& args)
{
    ChildRun r;
    std::vector<char*> argv;
    std::string self = "/proc/self/exe";
    argv.push_back(self.data());
    std::vector<std::string> copy = args;
    for (std::string& a : copy)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    const auto t0 = std::chrono::steady_clock::now();
    const pid_t pid = ::fork();
    if (pid < 0)
        return r;
    if (pid == 0) {
        if (std::freopen("/dev/null", "w", stdout) == nullptr)
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
    return r;
}

} // namespace

int benchCompare(const std::string& a, const std::string& b)
{
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
    return 0;
}

} // namespace hecscope::cli
