#pragma once

#include "core/format/logformat.h"

#include <cstdint>
#include <span>
#include <string_view>

namespace hecscope {

// One decoded event record. A plain view: the string fields and `ids` point
// into the decoder's buffer and are valid only while the event is being
// delivered (copy what you keep).
//
// Field numbering follows the wire order of each payload
// (eventlog-format.md 2.1); `n` holds every integer field, `s` every text
// field, both raw. Examples: RUN_THREAD n0=thread; STOP_THREAD n0=thread,
// n1=status, n2=info; BLOCK_MARKER n0=block_size, n1=end_time (ns), n2=cap;
// GC_STATS_GHC n0=capset ... n8=par_balanced_copied; HEAP_PROF_BEGIN
// n0=profile, n1=period (ns), n2=breakdown, s0..s6=filters; IPE n0=address,
// s0..s5 = name, closure desc, type, label, module, source location;
// TICKY_COUNTER_DEF n0=id, n1=arity, s0=kinds, s1=name, n2=info table,
// n3=info table present, n4=JSON present, s2=JSON.
struct Event {
    uint64_t time = 0;       // ns since RTS start-up
    uint64_t offset = 0;     // byte offset of the record's tag in the stream
    uint32_t recordSize = 0; // bytes of the whole record: tag, time, length, payload
    uint16_t tag = 0;
    uint16_t cap = kNoCap;   // owning capability from the enclosing block (1.7)
    uint16_t layout = 0;     // fixed layouts: payload size of the layout decoded
    bool known = false;      // false: an UnknownEvent, payload skipped
    bool variable = false;   // the record has a u16 length field
    uint16_t depth = 0;      // cost-centre ids in `ids` (tags 163, 167)
    const uint8_t* ids = nullptr; // `depth` big-endian u32 cost-centre ids
    uint64_t n[10];
    std::string_view s[7];
    std::span<const uint8_t> payload;  // the whole payload
    std::span<const uint8_t> trailing; // payload bytes after the decoded fields

    uint32_t ccId(size_t i) const;
};

} // namespace hecscope
