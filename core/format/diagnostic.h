#pragma once

#include <cstdint>
#include <string>

namespace hecscope {

enum class DiagnosticKind : uint8_t {
    NotAnEventlog,       // the first bytes are not the eventlog magic
    MalformedHeader,     // a marker or length in the header is wrong
    TruncatedHeader,     // the input ends inside the header
    TruncatedEvent,      // the input ends inside an event record
    MissingDataEnd,      // the input ends between records, without DATA_END
    UndeclaredEventType, // a tag the header does not declare: length unknown
    ShortPayload,        // a length too small for the event's mandatory fields
    BadBlockSize,        // a block marker claiming fewer bytes than itself
    BadEventTime,        // a time outside its block's declared span, or going back in it
    TrailingData,        // bytes after the end-of-data marker (ignored)
    HpMalformed,         // .hp heap profile: a line that is not part of the format
    HpIncompleteSample,  // .hp heap profile: the last sample has no END_SAMPLE (dropped), or
                         // (detail "line") the file ends inside a line between samples
};

// A problem found in the input: what, where (byte offset from the start of
// the stream) and how many events had been decoded before it. Errors stop
// decoding; warnings do not lose anything.
struct Diagnostic {
    DiagnosticKind kind;
    uint64_t offset = 0;
    uint64_t eventsBefore = 0;
    std::string detail; // specifics (the tag, the bytes found, ...)

    bool isError() const;
    // Whether the log is incomplete (cut short) rather than corrupt.
    bool isTruncation() const;
    // One line for people, naming the problem and the byte offset.
    std::string message() const;
    bool operator==(const Diagnostic&) const = default;
};

} // namespace hecscope
