#pragma once

#include "core/diagnostic.h"
#include "core/logformat.h"

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

HeaderParse parseHeader(const uint8_t* data, size_t size);

// Writes a header declaring `declarations` (the encoder's half).
void appendHeader(std::vector<uint8_t>& out, const std::vector<EventTypeDecl>& declarations);

} // namespace hecscope
