#pragma once

#include "core/format/event.h"
#include "core/format/logformat.h"
#include "core/format/recorddecoder.h"
#include "core/index/logindex.h"
#include "core/io/bytesource.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

// Decoding the records of a stretch of the file again, for the detail read
// back from it (instants, spark events, thread segments): one loop over
// reads and records, and one way of saying that the file is not what the
// index was made from.
namespace hecscope {

// "The log file changed since it was opened: <what> at byte <offset> (open it again)".
std::string changedAt(uint64_t offset, const std::string& what);

// What a record's handler says: go on, or stop here.
enum class WalkOn : bool { Next, Stop };

// Decodes the records in [pos, end) of `source`, a stretch of one block of
// capability `cap` (kNoCap: records outside any), reading into `buffer`
// 64 KB at first, then twice as much each time up to `chunkBytes` (a walk
// that stops early, as most do, reads little more than it decodes), and
// more at once where a record is longer than a read. Each record, its offset and
// capability set, goes to `handle(e, error)`; a handler that sets `error`
// stops the walk with it. Returns "" or the problem, naming the byte; `pos`
// is left after the last record handed over, `stopped` set if the handler
// stopped, and `bytesRead` (if given) grown by the bytes read.
template <class Handle>
std::string walkRecords(ByteSource& source, const LogFormat& format, uint64_t& pos, uint64_t end, uint16_t cap,
                        std::vector<uint8_t>& buffer, size_t chunkBytes, Handle&& handle, bool& stopped,
                        uint64_t* bytesRead = nullptr)
{
    stopped = false;
    std::string error;
    // One Event for every record, as the loader's StreamDecoder keeps one:
    // decodeRecord sets every field but the two set below, and an Event
    // made afresh per record cleared its 170 bytes each time (half of a
    // thread window's read, profiled).
    Event e;
    size_t readBytes = std::min<size_t>(chunkBytes, size_t(64) << 10);
    while (pos < end) {
        const size_t chunk = size_t(std::min<uint64_t>(end - pos, readBytes));
        readBytes = std::max(readBytes, std::min(readBytes * 2, chunkBytes));
        buffer.resize(chunk);
        const size_t n = source.read(pos, buffer.data(), chunk);
        if (bytesRead)
            *bytesRead += n;
        if (n < chunk) {
            const std::string io = source.error();
            return io.empty() ? changedAt(pos + n, "it now ends")
                              : "Cannot read the log: " + io + " (at byte " + std::to_string(pos + n) + ")";
        }
        size_t at = 0;
        while (at < n) {
            const RecordResult r = decodeRecord(format, buffer.data() + at, n - at, e);
            if (r.status == RecordStatus::NeedMore) {
                if (at == 0 && chunk == end - pos) // a record longer than the rest of its block
                    return changedAt(pos, "a record runs past the end of its block");
                if (at == 0) // longer than a read (a message of up to 64 KB, and its header)
                    readBytes = std::max(readBytes, chunk * 2);
                break; // read again from this record
            }
            if (r.status != RecordStatus::Ok)
                return changedAt(pos + at, "a record that does not decode");
            e.offset = pos + at;
            e.cap = cap;
            at += r.size;
            if (handle(e, error) == WalkOn::Stop || !error.empty()) {
                pos += at;
                stopped = true;
                return error;
            }
        }
        pos += at;
    }
    return {};
}

// The records of capability `cap` from `offset` (inside one of its blocks,
// LogScan::blocks) on, block after block, through walkRecords, until the
// handler stops. Its blocks ending first gives changedAt(…, `atEnd`).
template <class Handle>
std::string walkCapabilityBlocks(ByteSource& source, const LogIndex& index, uint16_t cap, uint64_t offset,
                                 std::vector<uint8_t>& buffer, const std::string& atEnd, Handle&& handle)
{
    const auto& blocks = index.scan.blocks;
    size_t b = size_t(std::upper_bound(blocks.begin(), blocks.end(), offset,
                                       [](uint64_t o, const LogScan::Block& x) { return o < x.offset; })
                      - blocks.begin());
    if (b == 0 || blocks[b - 1].cap != cap || offset >= blocks[b - 1].end)
        return changedAt(offset, "no block of capability " + std::to_string(cap) + " there");
    --b;
    uint64_t pos = offset;
    for (;;) {
        bool stopped = false;
        const std::string error =
            walkRecords(source, *index.scan.format, pos, blocks[b].end, cap, buffer, size_t(1) << 20, handle, stopped);
        if (stopped || !error.empty())
            return error;
        // On to the capability's next block.
        do
            ++b;
        while (b < blocks.size() && blocks[b].cap != cap);
        if (b == blocks.size())
            return changedAt(pos, atEnd);
        pos = blocks[b].offset;
    }
}

} // namespace hecscope
