#include "app/cli.h"
#include "app/commands.h"

#include <QStringList>

#include <cstdio>

namespace hecscope::cli {
namespace {

// Arguments are parsed as Latin-1, one character per byte, so that a value
// converts back to exactly the bytes given (option names are ASCII).
QString fromBytes(const char* text)
{
    return QString::fromLatin1(text);
}

std::string toBytes(const QString& text)
{
    return text.toLatin1().toStdString();
}

// "--name=value" or "-name" -> "name".
QString nameIn(const QString& arg)
{
    qsizetype from = 0;
    while (from < arg.size() && from < 2 && arg[from] == QLatin1Char('-'))
        ++from;
    return arg.mid(from).section(QLatin1Char('='), 0, 0);
}

} // namespace

int usageError(const std::string& command, const std::string& why)
{
    const std::string prefix = command.empty() ? "hecscope" : "hecscope " + command;
    std::fprintf(stderr, "%s: %s\nRun `%s --help` for the usage.\n", prefix.c_str(), why.c_str(), prefix.c_str());
    return 2;
}

CommandLine::CommandLine(std::string command, const std::vector<CliOption>& options, Positionals positionals)
    : m_command(std::move(command))
    , m_positionals(positionals)
{
    // -name is --name, as the hand-written loops had only -h and -o as
    // single-dash options (no bundles of one-letter switches).
    m_parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    m_parser.addOption(QCommandLineOption(QStringList{QStringLiteral("h"), QStringLiteral("help")}));
    for (const CliOption& o : options) {
        QCommandLineOption option(QString::fromLatin1(o.name));
        option.setValueName(QString::fromLatin1(o.valueName));
        m_parser.addOption(option);
        if (*o.valueName)
            m_valueOptions << option.names().front();
    }
}

std::optional<int> CommandLine::parse(int argc, char** argv, const std::string& usage)
{
    QStringList args{QStringLiteral("hecscope")}; // (what parse takes for the program's name)
    for (int i = 0; i < argc; ++i)
        args << fromBytes(argv[i]);
    const bool parsed = m_parser.parse(args);
    if (m_parser.isSet(QStringLiteral("help"))) {
        std::fputs(usage.c_str(), stdout);
        return 0;
    }
    if (!parsed) {
        // The first unknown option as it was spelled; else an option missing
        // its value (only the last argument can) or a switch given one.
        const QStringList unknown = m_parser.unknownOptionNames();
        for (const QString& arg : args.mid(1))
            if (!unknown.isEmpty() && arg.startsWith(QLatin1Char('-')) && nameIn(arg) == unknown.front())
                return usageError("unknown option " + toBytes(arg.section(QLatin1Char('='), 0, 0)));
        for (const QString& arg : args.mid(1))
            if (arg.startsWith(QLatin1Char('-')) && arg.contains(QLatin1Char('=')) && !m_valueOptions.contains(nameIn(arg)))
                return usageError(toBytes(arg.section(QLatin1Char('='), 0, 0)) + " takes no value");
        if (unknown.isEmpty() && argc > 0 && args.back().startsWith(QLatin1Char('-'))
            && m_valueOptions.contains(nameIn(args.back())))
            return usageError(toBytes(args.back()) + " needs a value");
        return usageError(toBytes(m_parser.errorText()));
    }
    for (const QString& p : m_parser.positionalArguments())
        m_positional.push_back(toBytes(p));
    const int count = int(m_positional.size());
    if (count < m_positionals.least)
        return usageError(m_positionals.missing);
    if (count > m_positionals.most) {
        std::string why = m_positionals.surplus;
        if (const size_t at = why.find("%s"); at != std::string::npos)
            why.replace(at, 2, m_positional[size_t(m_positionals.most)]);
        return usageError(why);
    }
    return std::nullopt;
}

bool CommandLine::isSet(const char* name) const
{
    return m_parser.isSet(QString::fromLatin1(name));
}

std::string CommandLine::value(const char* name) const
{
    return toBytes(m_parser.value(QString::fromLatin1(name)));
}

std::vector<std::string> CommandLine::values(const char* name) const
{
    std::vector<std::string> out;
    for (const QString& v : m_parser.values(QString::fromLatin1(name)))
        out.push_back(toBytes(v));
    return out;
}

std::string CommandLine::lastOf(std::initializer_list<const char*> names) const
{
    const QStringList given = m_parser.optionNames();
    for (qsizetype i = given.size() - 1; i >= 0; --i)
        for (const char* name : names)
            if (given[i] == QLatin1String(name))
                return name;
    return {};
}

int CommandLine::usageError(const std::string& why) const
{
    return cli::usageError(m_command, why);
}

std::optional<int> CommandLine::capability(int& cap) const
{
    if (!isSet("cap"))
        return std::nullopt;
    const std::string v = value("cap");
    const std::optional<int> n = capabilityArg(v);
    if (!n)
        return usageError("bad --cap '" + v + "' (a capability number)");
    cap = *n;
    return std::nullopt;
}

} // namespace hecscope::cli
