#include "core/detail/sparkdetail.h"

#include "core/detail/recordwalk.h"
#include "core/format/eventtags.h"
#include "core/format/recorddecoder.h"
#include "core/index/instantsbuilder.h"

#include <algorithm>

namespace hecscope {
namespace {


struct CapReader {
    ByteSource& source;
    const LogIndex& index;
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
    uint64_t got = uint64_t(m0) * CapInstantMarks::kMarkEvery; // instants of the capability before this record
    uint64_t records = 0;
    return walkCapabilityBlocks(
        source, index, cap, start.offset, buffer, "fewer instants on capability " + std::to_string(cap) + " than indexed",
        [&](const Event& e, std::string& error) {
            if ((++records & 4095) == 0 && cancelled && cancelled()) {
                wasCancelled = true;
                return WalkOn::Stop;
            }
            InstantsBuilder::Instant in;
            if (e.tag == tag::BlockMarker || !e.known || !InstantsBuilder::classify(e, 0, in)
                || e.time > CapInstants::kMaxTime)
                return WalkOn::Next;
            if (got % CapInstantMarks::kMarkEvery == 0) {
                const InstantMark& m = marks.mark(size_t(got / CapInstantMarks::kMarkEvery));
                if (m.offset != e.offset || m.time != e.time) {
                    error = changedAt(e.offset, "another event than the index holds");
                    return WalkOn::Stop;
                }
            }
            ++got;
            if (marks.sorted() && e.time >= t1)
                return WalkOn::Stop;
            if (e.time >= t0 && e.time < t1 && e.tag >= tag::SparkCreate && e.tag <= tag::SparkGc
                && (tags & sparkTagBit(e.tag)))
                out.push_back({e.time, e.tag == tag::SparkSteal ? uint32_t(e.n[0]) : 0u, cap, e.tag});
            // The last the index knows (a live recording may have more).
            return got == count ? WalkOn::Stop : WalkOn::Next;
        });
}

} // namespace

SparkEventsRead readSparkEvents(ByteSource& source, const LogIndex& index, uint64_t t0, uint64_t t1,
                                const std::function<bool()>& cancelled, uint32_t tags)
{
    SparkEventsRead out;
    if (!index.scan.format)
        return out;
    CapReader reader{source, index, cancelled, tags, {}};
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
