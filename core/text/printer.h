#pragma once

#include "core/format/event.h"
#include "core/format/logformat.h"
#include "core/text/textbuffer.h"

namespace hecscope {

// Which `ghc-events show` to imitate (eventlog-format.md 3.0).
enum class PrinterStyle : uint8_t {
    Head,   // ghc-events development head: the conformance references
    Legacy, // ghc-events <= 0.17 (2022): no block lines, older stop texts
};

// Formats events as `ghc-events show` does. Where ghc-events head would abort
// (unknown stop codes, heap breakdowns, Eden tags) or cannot decode at all
// (GHC 6.12 sizes, 6-byte STOP_THREAD, 7.8.2 stop codes) it prints what the
// older releases print. Stateless apart from the log's format; thread-safe.
class EventPrinter {
public:
    EventPrinter(const LogFormat& format, PrinterStyle style = PrinterStyle::Head);

    // "Event Types:" with one line per declaration, then "\nEvents:\n".
    void printHeader(TextBuffer& out) const;
    // One event line: "time: [cap N: ]text\n". Legacy style skips block markers.
    void printEvent(const Event& e, TextBuffer& out) const;
    // The event's text alone, without time or capability.
    void printText(const Event& e, TextBuffer& out) const;
    // The text after the last event (putStrLn's newline).
    static void printFooter(TextBuffer& out) { out.append('\n'); }

private:
    void printStopThread(const Event& e, TextBuffer& out) const;
    void printCostCentreStack(const Event& e, TextBuffer& out) const;

    const LogFormat& m_format;
    PrinterStyle m_style;
};

// Haskell `show` of a list of strings, as ghc-events prints PROGRAM_ARGS/ENV
// from a NUL-separated vector.
void appendShownStringVector(std::string_view nulSeparated, TextBuffer& out);
// USER_BINARY_MSG text: lenient UTF-8 with invalid bytes and non-printable
// characters replaced by '.'.
void appendPrintableBinary(std::string_view bytes, TextBuffer& out);

} // namespace hecscope
