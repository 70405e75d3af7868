#pragma once

#include "core/format/event.h"
#include "core/format/bytes.h"
#include "core/format/eventtags.h"
#include "core/format/logformat.h"

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

namespace detail {
// Field decoders of the known layouts (recorddecoder.cpp). Return the end of
// the decoded fields, or nullptr for impossible input: a variable payload too
// short for its fields, a block marker smaller than itself.
const uint8_t* decodeFixedFields(uint16_t tag, uint16_t layout, const uint8_t* p, Event& e);
const uint8_t* decodeVariableFields(uint16_t tag, const uint8_t* p, const uint8_t* end, Event& e);
inline constexpr size_t kHeaderBytes = 10; // u16 tag + u64 timestamp
} // namespace detail

// Decodes the single record at `p` (at most `avail` bytes available) using the
// layouts chosen by `format`. Never reads outside [p, p + avail); never throws.
// On Ok fills every field of `e` except `offset` and `cap`. Inline: it is the
// per-event hot path of every reader.
inline RecordResult decodeRecord(const LogFormat& format, const uint8_t* p, size_t avail, Event& e)
{
    if (avail < 2)
        return {RecordStatus::NeedMore, 2};
    const uint16_t t = readU16(p);
    if (t == 0xFFFF)
        return {RecordStatus::DataEnd, 2};
    const TagInfo& info = format.info(t);
    if (info.kind == TagInfo::Undeclared)
        return {RecordStatus::UndeclaredTag, 0};
    const bool variable = info.kind == TagInfo::Variable;
    if (avail < detail::kHeaderBytes + (variable ? 2 : 0))
        return {RecordStatus::NeedMore, uint32_t(detail::kHeaderBytes + (variable ? 2 : 0))};

    size_t payloadSize;
    size_t payloadStart = detail::kHeaderBytes;
    if (variable) {
        payloadSize = readU16(p + detail::kHeaderBytes);
        payloadStart += 2;
    } else {
        payloadSize = info.payloadSize;
    }
    const size_t size = payloadStart + payloadSize;
    if (avail < size)
        return {RecordStatus::NeedMore, uint32_t(size)};

    e.tag = t;
    e.time = readU64(p + 2);
    e.recordSize = uint32_t(size);
    e.variable = variable;
    e.known = info.known;
    e.layout = info.layoutSize;
    e.depth = 0;
    e.ids = nullptr;
    const uint8_t* payload = p + payloadStart;
    const uint8_t* end = payload + payloadSize;
    e.payload = {payload, payloadSize};

    const uint8_t* decodedEnd = payload;
    if (info.known) {
        if (variable) {
            decodedEnd = detail::decodeVariableFields(t, payload, end, e);
            if (!decodedEnd)
                return {RecordStatus::ShortPayload, uint32_t(size)};
        } else if (t == tag::RunThread || t == tag::ThreadRunnable) {
            // The scheduler's most frequent events, decoded without a call.
            e.n[0] = readU32(payload);
            decodedEnd = payload + 4;
        } else {
            decodedEnd = detail::decodeFixedFields(t, info.layoutSize, payload, e);
            if (!decodedEnd)
                return {RecordStatus::BadBlockSize, uint32_t(size)};
        }
    }
    e.trailing = {decodedEnd, size_t(end - decodedEnd)};
    return {RecordStatus::Ok, uint32_t(size)};
}


} // namespace hecscope
