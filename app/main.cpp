#include "app/cli.h"
#include "app/commands.h"
#include "ui/jobs/settings.h"
#include "ui/window/livecontrols.h"
#include "ui/window/mainwindow.h"

#include <QApplication>
#include <QIcon>

#include <cstdio>
#ifdef __GLIBC__
#include <gnu/libc-version.h>
#include <malloc.h>
#include <unistd.h>
#endif
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

// The window (and `bench`, which measures it): glibc's malloc asks for
// transparent huge pages (2 MB) for the memory it takes from the system
// (its tunable glibc.malloc.hugetlb=1, which it reads only as a process
// starts: so the process starts itself again with it set, once, which
// costs about 35 ms). The detail read back for a view is built in fresh
// memory, and a fault for each 4 KB page of it was about a quarter of a
// read: render_cold_p95_ms on the big log 20 -> 10 ms (besides
// allocateSegmentBlock's 30 -> 20), the window's peak RSS a few MB more
// (docs/architecture.md). The command-line commands only for logs of some
// size (hugePagesPayOff). Not when the
// system gives no huge pages, glibc is older than 2.35 (no such tunable),
// the tunable is set already (by the user: theirs holds), or under a
// sanitizer (its own allocator). The variable is put back as it was once
// started again, so that no program this one starts inherits it.
void startWithHugePages(char** argv)
{
#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
    constexpr const char* kSaved = "HECSCOPE_GLIBC_TUNABLES"; // (what it was: "=" and its value, or "" if unset)
    if (const char* saved = std::getenv(kSaved)) {
        if (saved[0] == '=')
            setenv("GLIBC_TUNABLES", saved + 1, 1);
        else
            unsetenv("GLIBC_TUNABLES");
        unsetenv(kSaved);
        return;
    }
    const char* tunables = std::getenv("GLIBC_TUNABLES");
    if (tunables && std::strstr(tunables, "glibc.malloc.hugetlb"))
        return;
    int major = 0, minor = 0;
    if (std::sscanf(gnu_get_libc_version(), "%d.%d", &major, &minor) != 2 || major < 2 || (major == 2 && minor < 35))
        return;
    std::string thp;
    std::getline(std::ifstream("/sys/kernel/mm/transparent_hugepage/enabled"), thp);
    if (thp.find("[always]") == std::string::npos && thp.find("[madvise]") == std::string::npos)
        return;
    std::string was, now;
    if (tunables) {
        was.append("=").append(tunables);
        if (*tunables)
            now.append(tunables).append(":");
    }
    now.append("glibc.malloc.hugetlb=1");
    setenv(kSaved, was.c_str(), 1);
    setenv("GLIBC_TUNABLES", now.c_str(), 1);
    execv("/proc/self/exe", argv);
    // (Not started again: on as it is.)
    if (tunables)
        setenv("GLIBC_TUNABLES", was.c_str() + 1, 1);
    else
        unsetenv("GLIBC_TUNABLES");
    unsetenv(kSaved);
#else
    (void)argv;
#endif
}

// A command that loads a log (`info`, `threads`, ...) starts with huge
// pages too, when the largest file it names is from kLeast to kMost bytes:
// there the faults they save outweigh starting twice (about 35 ms) and the
// memory they keep; above, they gain nothing and the 4 GB synthesized
// log's peak comes close to #26's 700 MB (the figures: docs/architecture.md).
bool hugePagesPayOff(const char* command, int argc, char** argv)
{
    constexpr uint64_t kLeast = uint64_t(32) << 20, kMost = uint64_t(2) << 30;
    bool loads = false;
    for (const char* c : {"info", "heap", "threads", "spans", "profile", "sparks", "diff", "export"})
        loads = loads || std::strcmp(command, c) == 0;
    if (!loads)
        return false;
    uint64_t largest = 0;
    for (int i = 2; i < argc; ++i) {
        std::error_code ec;
        const std::filesystem::path path(argv[i]);
        if (std::filesystem::is_regular_file(path, ec)) {
            const uintmax_t size = std::filesystem::file_size(path, ec);
            if (!ec)
                largest = std::max<uint64_t>(largest, uint64_t(size));
        }
    }
    return largest >= kLeast && largest <= kMost;
}

} // namespace

int main(int argc, char** argv)
{
#ifdef __GLIBC__
    // The index is built in chunks of 256 KiB and some are freed as soon as
    // they are copied (the thread states' raw events). glibc raises its mmap
    // threshold after the first such free and then keeps freed memory in
    // the heap; a fixed threshold hands it back, which saves a third of the
    // peak memory on a 300 MB log.
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
    if (argc >= 2) {
        const char* first = argv[1];
        if (std::strcmp(first, "dump") == 0)
            return hecscope::cli::dump(argc - 2, argv + 2);
        // Commands never throw on bad input; running out of memory is the
        // one exception left, and gets a message rather than an abort.
        try {
            if (hugePagesPayOff(first, argc, argv))
                startWithHugePages(argv);
            if (std::strcmp(first, "info") == 0)
                return hecscope::cli::info(argc - 2, argv + 2);
            if (std::strcmp(first, "heap") == 0)
                return hecscope::cli::heap(argc - 2, argv + 2);
            if (std::strcmp(first, "threads") == 0)
                return hecscope::cli::threads(argc - 2, argv + 2);
            if (std::strcmp(first, "spans") == 0)
                return hecscope::cli::spans(argc - 2, argv + 2);
            if (std::strcmp(first, "profile") == 0)
                return hecscope::cli::profile(argc - 2, argv + 2);
            if (std::strcmp(first, "sparks") == 0)
                return hecscope::cli::sparks(argc - 2, argv + 2);
            if (std::strcmp(first, "diff") == 0)
                return hecscope::cli::diff(argc - 2, argv + 2);
            if (std::strcmp(first, "watch") == 0)
                return hecscope::cli::watch(argc - 2, argv + 2);
            if (std::strcmp(first, "synthesize") == 0)
                return hecscope::cli::synthesize(argc - 2, argv + 2);
            // (These two start a QApplication once their arguments are
            // known to be right: drawingApplication.)
            if (std::strcmp(first, "bench") == 0) {
                startWithHugePages(argv); // (as the window, which it measures)
                return hecscope::cli::bench(argc - 2, argv + 2);
            }
            if (std::strcmp(first, "export") == 0)
                return hecscope::cli::exportImage(argc - 2, argv + 2);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "hecscope: %s: %s\n", first, e.what());
            return 1;
        }
        if (std::strcmp(first, "-h") == 0 || std::strcmp(first, "--help") == 0) {
            std::fputs(hecscope::cli::usage(), stdout);
            return 0;
        }
        if (std::strcmp(first, "--version") == 0) {
            std::puts("hecscope " HECSCOPE_VERSION);
            return 0;
        }
    }
    // The window: [FILE | --connect SOURCE] [--record FILE] [--keep-minutes N]
    // [--compare B].
    hecscope::cli::CommandLine cl({}, {{"connect", "SOURCE"}, {"record", "FILE"}, {"keep-minutes", "N"}, {"compare", "B"}},
                                  {0, 1, "", "unknown command or more than one FILE: %s"});
    if (const auto status = cl.parse(argc - 1, argv + 1, hecscope::cli::usage()))
        return *status;
    if (!cl.positional().empty() && cl.isSet("connect"))
        return cl.usageError("FILE and --connect SOURCE exclude each other");
    double keepMinutes = -1;
    if (cl.isSet("keep-minutes")) {
        const std::string text = cl.value("keep-minutes");
        char* end = nullptr;
        keepMinutes = std::strtod(text.c_str(), &end);
        if (text.empty() || *end || !(keepMinutes >= 0))
            return cl.usageError("--keep-minutes needs a number of minutes (0: keep all), not \"" + text + "\"");
    }
    const bool live = cl.isSet("connect");
    const std::string file = cl.positional().empty() ? std::string() : cl.positional().front();
    const QString open = QString::fromLocal8Bit(live ? cl.value("connect") : file);
    const QString record = QString::fromLocal8Bit(cl.value("record")), compare = QString::fromLocal8Bit(cl.value("compare"));
    startWithHugePages(argv);
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Hecscope"));
    QApplication::setApplicationVersion(QStringLiteral(HECSCOPE_VERSION));
    QApplication::setOrganizationName(QStringLiteral("Hecscope"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/hecscope/hecscope.svg")));
    hecscope::MainWindow window;
    // The first start (no window saved) opens maximised: the timeline is
    // what the user came for.
    if (window.isFirstStart())
        window.showMaximized();
    else
        window.show();
    if (keepMinutes >= 0)
        window.liveControls()->setKeepMinutes(keepMinutes);
    if (live || !record.isEmpty())
        window.openLive(open, record);
    else if (!open.isEmpty())
        window.openFile(open);
    if (!compare.isEmpty())
        window.compareWith(compare);
    const int status = app.exec();
    hecscope::Settings::waitForWrites(); // (the window's layout, written as it closed)
    return status;
}
