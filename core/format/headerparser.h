#pragma once

#include "core/format/diagnostic.h"
#include "core/format/logformat.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace hecscope {

// Parses the eventlog header (hdrb ... hete hdre datb) from the start of a
// buffer. Pure function of the bytes; never reads past `size`.
struct HeaderParse {
    enum Status : uint8_t { Complete, NeedMore, Failed };
    Status status = NeedMore;
    size_t consumed = 0; // Complete: header bytes including "datb"
    size_t needed = 0;   // NeedMore: total bytes to have before trying again
    std::vector<EventTypeDecl> declarations;
    Diagnostic error{DiagnosticKind::MalformedHeader, 0, 0, {}}; // Failed: what and where
};

// Where an incomplete parse stopped: the declarations complete so far and the
// offset of the first incomplete one. Passing it back to the next attempt on
// the same (grown) buffer resumes there, so a header taken in many small
// pieces is parsed in linear time.
struct HeaderResume {
    size_t pos = 0; // 0: start from the beginning
    std::vector<EventTypeDecl> declarations;
};

HeaderParse parseHeader(const uint8_t* data, size_t size, HeaderResume* resume = nullptr);

// Writes a header declaring `declarations` (the encoder's half).
void appendHeader(std::vector<uint8_t>& out, const std::vector<EventTypeDecl>& declarations);

} // namespace hecscope
