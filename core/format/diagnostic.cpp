#include "core/format/diagnostic.h"

namespace hecscope {

bool Diagnostic::isError() const
{
    switch (kind) {
    case DiagnosticKind::TruncatedEvent:
    case DiagnosticKind::MissingDataEnd:
    case DiagnosticKind::TrailingData:
    case DiagnosticKind::HpIncompleteSample:
        return false;
    default:
        return true;
    }
}

bool Diagnostic::isTruncation() const
{
    return kind == DiagnosticKind::TruncatedEvent || kind == DiagnosticKind::MissingDataEnd
        || kind == DiagnosticKind::TruncatedHeader || kind == DiagnosticKind::HpIncompleteSample;
}

std::string Diagnostic::message() const
{
    const std::string at = " at byte offset " + std::to_string(offset);
    const std::string count = " (" + std::to_string(eventsBefore) + " events decoded before it)";
    std::string text;
    switch (kind) {
    case DiagnosticKind::NotAnEventlog:
        text = "not a GHC eventlog: " + detail + at;
        break;
    case DiagnosticKind::MalformedHeader:
        text = "malformed eventlog header: " + detail + at;
        break;
    case DiagnosticKind::TruncatedHeader:
        text = "truncated eventlog: the file ends inside the header" + at;
        break;
    case DiagnosticKind::TruncatedEvent:
        return "truncated eventlog: the file ends inside an event record" + at + " ("
            + detail + "); every complete event before it (" + std::to_string(eventsBefore)
            + ") was decoded";
    case DiagnosticKind::MissingDataEnd:
        return "incomplete eventlog: no end-of-data marker, the log stops" + at
            + " after " + std::to_string(eventsBefore)
            + " events (the program was killed or is still writing)";
    case DiagnosticKind::UndeclaredEventType:
        text = "corrupt eventlog: event type " + detail + " is not declared in the header" + at;
        break;
    case DiagnosticKind::ShortPayload:
        text = "corrupt eventlog: " + detail + at;
        break;
    case DiagnosticKind::BadBlockSize:
        text = "corrupt eventlog: block marker with impossible block size " + detail + at;
        break;
    case DiagnosticKind::BadEventTime:
        text = "corrupt eventlog: " + detail + at;
        break;
    case DiagnosticKind::TrailingData:
        return detail + " after the end-of-data marker" + at + " were ignored";
    case DiagnosticKind::HpMalformed:
        return "malformed heap profile (.hp): " + detail + at + "; the " + std::to_string(eventsBefore)
            + " complete samples before it are shown";
    case DiagnosticKind::HpIncompleteSample:
        if (detail == "line")
            return "incomplete heap profile (.hp): the file ends inside a line" + at + " (still being written?); "
                + std::to_string(eventsBefore) + " complete samples are shown";
        return "incomplete heap profile (.hp): the last sample, begun" + at
            + ", has no END_SAMPLE (the program was killed or is still running) and was dropped; "
            + std::to_string(eventsBefore) + " complete samples are shown";
    }
    if (kind != DiagnosticKind::NotAnEventlog)
        text += count;
    return text;
}

} // namespace hecscope
