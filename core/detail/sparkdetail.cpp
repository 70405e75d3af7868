#include "core/detail/sparkdetail.h"

#include "core/format/eventtags.h"
#include "core/format/recorddecoder.h"
#include "core/index/instantsbuilder.h"

#include <algorithm>

namespace hecscope {
namespace {

std::string changedAt(uint64_t offset, const std::string& what)
{
    return "The log file changed since it was opened: " + what + " at byte " + std::to_string(offset)
        + " (open it again)";
}


struct CapReader {
    ByteSource& source;
    const LogIndex& index;
    const LogFormat& format;
    const std::function<bool()>& cancelled;
    uint32_t tags;
    std::vector<uint8_t> buffer;
    bool wasCancelled = false;

    // Capability `cap`'s spark events in [t0, t1) appended to `out`; "" or
    // the problem.
    std::string read(uint16_t cap, uint64_t t0, uint64_t t1, std::vector<SparkEvent>& out);
};

std::string CapReader::read(uint16_t cap, uint64_t t0, uint64_t t1, std::vector<SparkEvent>& out)
{
    const CapInstantMarks& marks = index.instants[cap];
    const uint64_t count = marks.count();
    if (count == 0 || t1 <= t0)
        return {};
    // From the last mark before t0 (its instant is before t0, the next
    // mark's at or after it): time ranges map to marks when sorted.
    size_t m0 = 0;
    if (marks.sorted()) {
        size_t lo = 0, hi = marks.marks();
        while (lo < hi) {
            const size_t mid = lo + (hi - lo) / 2;
            if (marks.mark(mid).time < t0)
                lo = mid + 1;
            else
                hi = mid;
        }
        m0 = lo == 0 ? 0 : lo - 1;
        if (marks.mark(m0).time >= t1)
            return {};
    }
    const InstantMark& start = marks.mark(m0);
    const auto& blocks = index.scan.blocks;
    size_t b = size_t(std::upper_bound(blocks.begin(), blocks.end(), start.offset,
                                       [](uint64_t o, const LogScan::Block& x) { return o < x.offset; })
                      - blocks.begin());
    if (b == 0 || blocks[b - 1].cap != cap || start.offset >= blocks[b - 1].end)
        return changedAt(start.offset, "no block of capability " + std::to_string(cap) + " there");
    --b;
    uint64_t got = uint64_t(m0) * CapInstantMarks::kMarkEvery; // instants of the capability before `pos`
    uint64_t pos = start.offset;
    for (;;) {
        const uint64_t end = blocks[b].end;
        // Decode the records in [pos, end), reading up to 1 MiB at a time.
        while (pos < end) {
            if (cancelled && cancelled()) {
                wasCancelled = true;
                return {};
            }
            const size_t chunk = size_t(std::min<uint64_t>(end - pos, uint64_t(1) << 20));
            buffer.resize(chunk);
            const size_t n = source.read(pos, buffer.data(), chunk);
            if (n < chunk) {
                const std::string io = source.error();
                return io.empty() ? changedAt(pos + n, "it now ends")
                                  : "Cannot read the log: " + io + " (at byte " + std::to_string(pos + n) + ")";
            }
            size_t at = 0;
            while (at < n) {
                Event e;
                const RecordResult r = decodeRecord(format, buffer.data() + at, n - at, e);
                if (r.status == RecordStatus::NeedMore) {
                    if (at == 0)
                        return changedAt(pos, "a record crosses its block's end");
                    break; // read again from this record
                }
                if (r.status != RecordStatus::Ok)
                    return changedAt(pos + at, "a record that does not decode");
                e.offset = pos + at;
                e.cap = cap;
                at += r.size;
                InstantsBuilder::Instant in;
                if (e.tag == tag::BlockMarker || !e.known || !InstantsBuilder::classify(e, 0, in)
                    || e.time > CapInstants::kMaxTime)
                    continue;
                if (got % CapInstantMarks::kMarkEvery == 0) {
                    const InstantMark& m = marks.mark(size_t(got / CapInstantMarks::kMarkEvery));
                    if (m.offset != e.offset || m.time != e.time)
                        return changedAt(e.offset, "another event than the index holds");
                }
                ++got;
                if (marks.sorted() && e.time >= t1)
                    return {};
                if (e.time >= t0 && e.time < t1 && e.tag >= tag::SparkCreate
                    && e.tag <= tag::SparkGc && (tags & sparkTagBit(e.tag)))
                    out.push_back({e.time, e.tag == tag::SparkSteal ? uint32_t(e.n[0]) : 0u, cap, e.tag});
                if (got == count)
                    return {}; // the last the index knows (a live recording may have more)
            }
            pos += at;
        }
        // On to the capability's next block.
        do
            ++b;
        while (b < blocks.size() && blocks[b].cap != cap);
        if (b == blocks.size())
            return changedAt(pos, "fewer instants on capability " + std::to_string(cap) + " than indexed");
        pos = blocks[b].offset;
    }
}

} // namespace

SparkEventsRead readSparkEvents(ByteSource& source, const LogIndex& index, uint64_t t0, uint64_t t1,
                                const std::function<bool()>& cancelled, uint32_t tags)
{
    SparkEventsRead out;
    if (!index.scan.format)
        return out;
    CapReader reader{source, index, *index.scan.format, cancelled, tags, {}};
    for (size_t c = 0; c < index.instants.size(); ++c) {
        out.error = reader.read(uint16_t(c), t0, t1, out.events);
        if (reader.wasCancelled || !out.error.empty()) {
            out.events.clear();
            out.cancelled = reader.wasCancelled;
            return out;
        }
    }
    std::stable_sort(out.events.begin(), out.events.end(), [](const SparkEvent& a, const SparkEvent& b) {
        return a.time != b.time ? a.time < b.time : a.cap < b.cap;
    });
    return out;
}

} // namespace hecscope
