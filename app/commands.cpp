#include "app/commands.h"

#include "core/bytesource.h"
#include "core/dump.h"

#include <cstdio>
#include <cstring>
#include <string>
#include <unistd.h>
#include <vector>

namespace hecscope::cli {
namespace {

const char* const kUsage =
    "Usage: hecscope [FILE]\n"
    "       hecscope dump [--legacy] FILE\n"
    "       hecscope --help | --version\n"
    "\n"
    "Hecscope views GHC eventlogs (+RTS -l).\n"
    "\n"
    "Commands:\n"
    "  (none)   open FILE (optional) in the viewer window\n"
    "  dump     print every event as `ghc-events show FILE` does\n"
    "\n"
    "Run `hecscope COMMAND --help` for a command's options.\n";

const char* const kDumpUsage =
    "Usage: hecscope dump [--legacy] FILE\n"
    "\n"
    "Prints the eventlog FILE (or - for standard input) exactly as\n"
    "`ghc-events show FILE` does: the event types, then every event in time\n"
    "order (ties in file order), one per line.\n"
    "\n"
    "Options:\n"
    "  --legacy   print as ghc-events <= 0.17 did (no block lines, older texts)\n"
    "  -h, --help show this help\n"
    "\n"
    "Exit status: 0 success (a truncated log is a success, with a warning on\n"
    "stderr); 1 the file is unreadable, not an eventlog, or corrupt (what was\n"
    "decoded before the fault is still printed; the reason and byte offset go\n"
    "to stderr); 2 usage error.\n";

bool writeAll(int fd, std::string_view text)
{
    while (!text.empty()) {
        const ssize_t n = ::write(fd, text.data(), text.size());
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        text.remove_prefix(size_t(n));
    }
    return true;
}

std::unique_ptr<ByteSource> openInput(const std::string& path, std::string& error)
{
    if (path != "-")
        return FileSource::open(path, error);
    std::vector<uint8_t> bytes;
    std::vector<uint8_t> chunk(1 << 20);
    for (;;) {
        const ssize_t n = ::read(STDIN_FILENO, chunk.data(), chunk.size());
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        bytes.insert(bytes.end(), chunk.begin(), chunk.begin() + n);
    }
    return std::make_unique<MemorySource>(std::move(bytes));
}

} // namespace

int printUsage(bool toStderr)
{
    std::fputs(kUsage, toStderr ? stderr : stdout);
    return toStderr ? 2 : 0;
}

int dump(int argc, char** argv)
{
    PrinterStyle style = PrinterStyle::Head;
    std::string path;
    for (int i = 0; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "-h" || arg == "--help") {
            std::fputs(kDumpUsage, stdout);
            return 0;
        }
        if (arg == "--legacy") {
            style = PrinterStyle::Legacy;
        } else if (arg.size() > 1 && arg[0] == '-') {
            std::fprintf(stderr, "hecscope dump: unknown option %s\n\n%s", arg.c_str(), kDumpUsage);
            return 2;
        } else if (path.empty()) {
            path = arg;
        } else {
            std::fprintf(stderr, "hecscope dump: more than one FILE given\n\n%s", kDumpUsage);
            return 2;
        }
    }
    if (path.empty()) {
        std::fprintf(stderr, "hecscope dump: no FILE given\n\n%s", kDumpUsage);
        return 2;
    }
    std::string error;
    auto source = openInput(path, error);
    if (!source) {
        std::fprintf(stderr, "hecscope: cannot open %s\n", error.c_str());
        return 1;
    }
    bool outputOk = true;
    const LogScan scan = dumpLog(*source, [&](std::string_view text) {
        outputOk = writeAll(STDOUT_FILENO, text);
        return outputOk;
    }, style);
    for (const Diagnostic& d : scan.diagnostics)
        std::fprintf(stderr, "hecscope: %s: %s: %s\n", path.c_str(),
                     d.isError() ? "error" : "warning", d.message().c_str());
    if (!scan.ioError.empty()) {
        std::fprintf(stderr, "hecscope: %s: read error: %s\n", path.c_str(), scan.ioError.c_str());
        return 1;
    }
    if (!outputOk) {
        std::fprintf(stderr, "hecscope: cannot write the output\n");
        return 1;
    }
    return scan.hasError ? 1 : 0;
}

} // namespace hecscope::cli
