#pragma once

#include "core/io/bytesource.h"
#include "core/index/logindex.h"
#include "core/profile/profile.h"

#include <memory>

class QApplication;
#include <optional>
#include <vector>
#include <string>

// Command-line commands that need no display. Each returns the process exit
// status: 0 success, 1 bad or corrupt input, 2 usage error.
namespace hecscope::cli {

int dump(int argc, char** argv);
int info(int argc, char** argv);
int bench(int argc, char** argv);
int heap(int argc, char** argv);       // heapcommand.cpp
int synthesize(int argc, char** argv); // heapcommand.cpp
int threads(int argc, char** argv);    // threadcommands.cpp
int spans(int argc, char** argv);      // threadcommands.cpp
int profile(int argc, char** argv);    // profilecommand.cpp
int sparks(int argc, char** argv);     // sparkscommand.cpp
int watch(int argc, char** argv);      // watchcommand.cpp
int diff(int argc, char** argv);       // diffcommand.cpp
// Spark-size timings for `bench` (only when FILE has -lf spark events).
void benchSparkSizes(const LogIndex& index, ByteSource& source); // bench.cpp
// The top-level usage: `hecscope --help`, and the window's options.
const char* usage();
// The window while a log arrives (livebench.cpp): first_paint_ms of a
// progressive open, and a live session fed through a local socket.
void benchProgressiveOpen(const std::string& path);
void benchLive(const std::string& path);
// `bench A --compare B` (comparebench.cpp): `info` of each and `diff` of
// the two, each a child process: compare_* keys. Returns bench's status.
int benchCompare(const std::string& a, const std::string& b, const std::string& windowPart = {});
// `--cap N`'s value: a capability number (0..65535), else none.
std::optional<int> capabilityArg(const std::string& value);
// The benchmarks' quantiles: the nearest-rank q-quantile of `v` (q = 1:
// the maximum); 0 for none.
double percentile(std::vector<double> v, double q);
// bench: where the index's bytes are, by part (keys after `prefix`).
void printIndexParts(const LogIndex& ix, const char* prefix);
// The file (or - for stdin) as a byte source; null after printing why not.
std::unique_ptr<ByteSource> openOrComplain(const std::string& path);

// Commands that draw (guicommands.cpp); they need a QApplication, which
// they start once their arguments are right, on the offscreen platform
// when there is no display. `name`: the settings' application name.
int exportImage(int argc, char** argv);
std::unique_ptr<QApplication> drawingApplication(const char* name);
// Render and UI-responsiveness timings for `bench`: prints render_* and
// ui_max_stall_ms lines.
void benchGui(std::shared_ptr<const LogIndex> index, const std::string& path, bool drawingOnly = false);

// `export --view flame` (flamecommands.cpp): the options the export
// command parsed for it.
struct FlameExportOptions {
    std::string file, out;
    std::string range; // START:END as for the timeline; empty: the whole run
    int width = 1600, height = 8000; // the picture is as tall as the graph needs, at most `height`
    int cap = -1; // one capability's samples, or all
    ProfileMetric metric = ProfileMetric::Time;
    bool icicle = false;
    bool hideRts = false; // the RTS's own cost centres left out (withoutRtsFrames)
};
int exportFlame(const FlameExportOptions& options);
// Profile and flame-graph timings for `bench` (flamebench.cpp; only when FILE has
// cost-centre samples): profile_*, flame_layout_ms, flame_repaint_*.
void benchFlame(const LogIndex& index);
// `bench` of a .prof or -pj report (FILE found to be one by content):
// report_* (reading, bottom-up view, flame layout) and flame_repaint_*.
// Returns bench's exit status.
int benchReport(const std::string& path);

} // namespace hecscope::cli
