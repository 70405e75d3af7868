// `hecscope export`: the window's renderer (or the flame graph's) on the
// offscreen platform.
#include "app/cli.h"
#include "app/commands.h"
#include "core/load/loader.h"
#include "core/heap/heapbands.h"
#include "ui/timeline/exportchoices.h"
#include "ui/timeline/imageexport.h"
#include "ui/timeline/timelineview.h"

#include <QApplication>
#include <QStringList>

#include <cstdio>
#include <optional>

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
    return cli::usageError("export", why.toLocal8Bit().toStdString());
}

} // namespace

std::unique_ptr<QApplication> drawingApplication(const char* name)
{
    // Drawing needs a QApplication, not a display.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY")
        && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    static int argc = 1;
    static char program[] = "hecscope";
    static char* argv[] = {program, nullptr};
    auto app = std::make_unique<QApplication>(argc, argv);
    QApplication::setApplicationName(QString::fromLatin1(name));
    QApplication::setOrganizationName(QStringLiteral("Hecscope"));
    return app;
}

int exportImage(int argc, char** argv)
{
    CommandLine cl("export", {{"o", "OUT"}, {"view", "VIEW"}, {"size", "WxH"}, {"range", "START:END"},
                              {"cap", "N"}, {"alloc"}, {"icicle"}, {"hide-rts"},
                              {"tracks", "LIST"}, {"bands", "N"}, {"order", "ORDER"}, {"reverse"}, {"heap-mode", "MODE"}});
    if (const auto status = cl.parse(argc, argv, exportUsage().toStdString()))
        return *status;
    const auto value = [&](const char* name) { return QString::fromLocal8Bit(cl.value(name)); };
    const QString file = QString::fromLocal8Bit(cl.positional().front()), out = value("o");
    QSize size(1600, 1000);
    const bool sizeGiven = cl.isSet("size");
    const QString range = value("range");
    ExportChoices choices; // the timeline's, as the window's Export Image… makes them
    FlameExportOptions flame;
    const bool flameView = value("view") == QLatin1String("flame");
    if (cl.isSet("view") && !flameView && value("view") != QLatin1String("timeline"))
        return usageError(QStringLiteral("--view needs timeline or flame"));
    if (cl.isSet("cap")) {
        bool ok = false;
        const int cap = value("cap").toInt(&ok);
        if (!ok || cap < 0)
            return usageError(QStringLiteral("--cap needs a capability number"));
        flame.cap = cap;
    }
    if (cl.isSet("alloc"))
        flame.metric = ProfileMetric::Alloc;
    flame.icicle = cl.isSet("icicle");
    flame.hideRts = cl.isSet("hide-rts");
    if (sizeGiven) {
        const QStringList wh = value("size").split(QLatin1Char('x'));
        bool okW = false, okH = false;
        if (wh.size() == 2)
            size = QSize(wh[0].toInt(&okW), wh[1].toInt(&okH));
        if (!okW || !okH)
            return usageError(QStringLiteral("--size needs WIDTHxHEIGHT, e.g. 1600x1000"));
    }
    if (cl.isSet("range") && !range.contains(QLatin1Char(':')))
        return usageError(QStringLiteral("--range needs START:END, e.g. 1.5s:2s"));
    if (cl.isSet("tracks")) {
        QString why;
        const auto ids = parseTrackList(value("tracks"), &why);
        if (!ids)
            return usageError(QStringLiteral("--tracks: %1").arg(why));
        choices.tracks = *ids;
    }
    if (cl.isSet("bands")) {
        bool ok = false;
        const qulonglong n = value("bands").toULongLong(&ok);
        if (!ok)
            return usageError(QStringLiteral("--bands needs a number (0 = every band)"));
        choices.bands = size_t(n);
    }
    if (cl.isSet("order")) {
        const auto o = bandOrderFromName(cl.value("order"));
        if (!o)
            return usageError(QStringLiteral("--order needs one of size, stddev, name, number, growth"));
        choices.order = *o;
    }
    choices.reversed = cl.isSet("reverse");
    if (cl.isSet("heap-mode")) {
        const QString v = value("heap-mode");
        if (v == QLatin1String("stacked"))
            choices.heapMode = HeapChartMode::Stacked;
        else if (v == QLatin1String("normalised") || v == QLatin1String("normalized"))
            choices.heapMode = HeapChartMode::Normalised;
        else if (v == QLatin1String("lines"))
            choices.heapMode = HeapChartMode::Lines;
        else
            return usageError(QStringLiteral("--heap-mode needs stacked, normalised or lines"));
    }
    // An option given that the other view has no use for (the last one).
    const QString timelineOnly = QString::fromLatin1(cl.lastOf({"tracks", "bands", "order", "reverse", "heap-mode"}).c_str());
    const QString flameOnly = QString::fromLatin1(cl.lastOf({"cap", "alloc", "icicle", "hide-rts"}).c_str());
    if (out.isEmpty())
        return usageError(
            QStringLiteral("no output given (-o OUT.png, .svg or .pdf)"));
    if (!isExportFormat(out))
        return usageError(
            QStringLiteral("%1: the output must end in .png, .svg or .pdf")
                .arg(out));
    if (flameView && !timelineOnly.isEmpty())
        return usageError(QStringLiteral("--%1 is for --view timeline").arg(timelineOnly));
    if (!flameView && !flameOnly.isEmpty())
        return usageError(QStringLiteral("--%1 is for --view flame").arg(flameOnly));
    const std::unique_ptr<QApplication> app = drawingApplication("Hecscope");
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

} // namespace hecscope::cli
