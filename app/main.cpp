#include "app/commands.h"
#include "ui/window/livecontrols.h"
#include "ui/window/mainwindow.h"

#include <QApplication>
#include <QIcon>

#include <cstdio>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string_view>

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
            if (std::strcmp(first, "bench") == 0 || std::strcmp(first, "export") == 0) {
                // Drawing needs a QApplication, not a display.
                if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY")
                    && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
                    qputenv("QT_QPA_PLATFORM", "offscreen");
                int qtArgc = 1;
                QApplication app(qtArgc, argv);
                // The bench opens a window: keep it away from the user's
                // recent files and window layout.
                QApplication::setApplicationName(QString::fromLatin1(first[0] == 'b' ? "Hecscope bench" : "Hecscope"));
                QApplication::setOrganizationName(QStringLiteral("Hecscope"));
                return first[0] == 'b' ? hecscope::cli::bench(argc - 2, argv + 2)
                                       : hecscope::cli::exportImage(argc - 2, argv + 2);
            }
        } catch (const std::exception& e) {
            std::fprintf(stderr, "hecscope: %s: %s\n", first, e.what());
            return 1;
        }
        if (std::strcmp(first, "-h") == 0 || std::strcmp(first, "--help") == 0)
            return hecscope::cli::printUsage(false);
        if (std::strcmp(first, "--version") == 0) {
            std::puts("hecscope " HECSCOPE_VERSION);
            return 0;
        }
    }
    // The window: [FILE | --connect SOURCE] [--record FILE] [--keep-minutes N]
    // [--compare B].
    QString open, record, compare;
    bool live = false;
    double keepMinutes = -1;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--keep-minutes" && i + 1 < argc) {
            char* end = nullptr;
            keepMinutes = std::strtod(argv[++i], &end);
            if (!end || *end || !(keepMinutes >= 0)) {
                std::fprintf(stderr, "hecscope: --keep-minutes needs a number of minutes (0: keep all), not \"%s\"\n\n", argv[i]);
                return hecscope::cli::printUsage(true);
            }
        } else if (arg == "--compare" && i + 1 < argc) {
            compare = QString::fromLocal8Bit(argv[++i]);
        } else if ((arg == "--connect" || arg == "--record") && i + 1 < argc) {
            (arg == "--record" ? record : open) = QString::fromLocal8Bit(argv[++i]);
            live = live || arg == "--connect";
        } else if (arg == "--connect" || arg == "--record" || arg == "--keep-minutes" || arg == "--compare") {
            std::fprintf(stderr, "hecscope: %s needs a value\n\n", argv[i]);
            return hecscope::cli::printUsage(true);
        } else if (arg.size() > 1 && arg[0] == '-') {
            std::fprintf(stderr, "hecscope: unknown option %s\n\n", argv[i]);
            return hecscope::cli::printUsage(true);
        } else if (open.isEmpty()) {
            open = QString::fromLocal8Bit(argv[i]);
        } else {
            std::fprintf(stderr, "hecscope: unknown command or too many files: %s\n\n", argv[i]);
            return hecscope::cli::printUsage(true);
        }
    }
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
    return app.exec();
}
