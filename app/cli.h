#pragma once

#include <QCommandLineParser>

#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

// The one argument parser of every command (QCommandLineParser, run on the
// arguments as given: no QCoreApplication is needed, so `dump` and `info`
// start no more than before). Every command behaves the same:
//   hecscope CMD --help | -h   its usage on stdout, exit 0;
//   a usage error              `hecscope CMD: what is wrong` and a pointer to
//                              `hecscope CMD --help` on stderr, exit 2.
// Options are spelled --name VALUE (also --name=VALUE); arguments keep their
// bytes (a file name need not be UTF-8).
namespace hecscope::cli {

struct CliOption {
    const char* name;           // without dashes: "range", or "o" for -o
    const char* valueName = ""; // empty: a switch
};

// How many positional arguments, and what is said when there are too few
// or too many.
struct Positionals {
    int least = 1, most = 1;
    const char* missing = "no FILE given";
    const char* surplus = "more than one FILE given";
};

class CommandLine {
public:
    // `command` as typed after hecscope ("dump"); empty for the window.
    CommandLine(std::string command, const std::vector<CliOption>& options, Positionals positionals = {});

    // Parses the arguments after the command. Empty: go on; otherwise the
    // command's exit status, after printing `usage` (--help: 0) or a usage
    // error (2).
    std::optional<int> parse(int argc, char** argv, const std::string& usage);

    bool isSet(const char* name) const;
    std::string value(const char* name) const;               // the last one given
    std::vector<std::string> values(const char* name) const; // each one given, in order
    const std::vector<std::string>& positional() const { return m_positional; }
    // Of `names`, the option given last ("" if none): for options that
    // override each other in the order given.
    std::string lastOf(std::initializer_list<const char*> names) const;

    // Prints `hecscope CMD: why` and the pointer to --help; returns 2.
    int usageError(const std::string& why) const;
    // --cap N into `cap` (left as it is when not given); a usage error's
    // exit status when N is not a capability number.
    std::optional<int> capability(int& cap) const;

private:
    std::string m_command;
    QCommandLineParser m_parser;
    QStringList m_valueOptions; // the names of the options that take a value
    Positionals m_positionals;
    std::vector<std::string> m_positional;
};

// The same message for a usage error found after parsing (e.g. a range the
// log does not have), where no CommandLine is at hand.
int usageError(const std::string& command, const std::string& why);

} // namespace hecscope::cli
