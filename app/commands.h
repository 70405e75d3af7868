#pragma once

// Command-line commands that need no display. Each returns the process exit
// status: 0 success, 1 bad or corrupt input, 2 usage error.
namespace hecscope::cli {

int dump(int argc, char** argv);
int info(int argc, char** argv);
int bench(int argc, char** argv);
int printUsage(bool toStderr);

} // namespace hecscope::cli
