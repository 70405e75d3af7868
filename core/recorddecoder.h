#pragma once

#include "core/event.h"
#include "core/logformat.h"

#include <cstddef>
#include <cstdint>

namespace hecscope {

enum class RecordStatus : uint8_t {
    Ok,            // one record decoded; `size` bytes consumed
    NeedMore,      // the bytes end inside the record
    DataEnd,       // the 0xFFFF end-of-data marker (2 bytes)
    UndeclaredTag, // tag not in the header: its length is unknown
    ShortPayload,  // a length too small for the event's mandatory fields
    BadBlockSize,  // a block marker whose block_size is below its own 24 bytes
};

struct RecordResult {
    RecordStatus status;
    // Ok, ShortPayload, BadBlockSize: bytes of the record. NeedMore: how many
    // bytes from `p` must be available before trying again (the whole record
    // once its length is known, else enough to learn it).
    uint32_t size;
};

// Decodes the single record at `p` (at most `avail` bytes available) using the
// layouts chosen by `format`. Never reads outside [p, p + avail); never throws.
// On Ok fills every field of `e` except `offset` and `cap`.
RecordResult decodeRecord(const LogFormat& format, const uint8_t* p, size_t avail, Event& e);

} // namespace hecscope
