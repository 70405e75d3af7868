#include "core/timeprofile/ticky.h"

#include <map>

namespace hecscope {

std::vector<TickyDump> tickyDumps(const TickyPart& part)
{
    std::map<uint32_t, TickyDump> byGroup;
    for (const TickySample& s : part.tickySamples) {
        auto [it, inserted] = byGroup.try_emplace(s.group);
        TickyDump& d = it->second;
        if (inserted) {
            d.group = s.group;
            d.time = s.group > 0 && s.group <= part.tickyBegins.size() ? part.tickyBegins[s.group - 1] : s.time;
        }
        ++d.samples;
    }
    std::vector<TickyDump> dumps;
    for (const auto& [group, d] : byGroup)
        dumps.push_back(d);
    return dumps;
}

std::vector<TickyRow> tickyTable(const TickyPart& part, size_t dump)
{
    const std::vector<TickyDump> dumps = tickyDumps(part);
    std::map<uint64_t, TickyRow> rows;
    for (const TickyCounter& c : part.tickyCounters) {
        TickyRow& r = rows[c.id];
        r.id = c.id;
        r.name = c.name;
        r.kinds = c.kinds;
        r.arity = c.arity;
        r.defined = true;
    }
    if (dump < dumps.size()) {
        const uint32_t group = dumps[dump].group;
        for (const TickySample& s : part.tickySamples) {
            if (s.group > group)
                continue;
            TickyRow& r = rows[s.id];
            r.id = s.id;
            if (s.group == group) {
                r.sampled = true;
                r.entries = s.entries;
                r.allocs = s.allocs;
                r.allocd = s.allocd;
            } else {
                // The latest earlier dump's figures, kept in the deltas until the end.
                r.hasPrevious = true;
                r.dEntries = int64_t(s.entries);
                r.dAllocs = int64_t(s.allocs);
                r.dAllocd = int64_t(s.allocd);
            }
        }
    }
    std::vector<TickyRow> out;
    out.reserve(rows.size());
    for (auto& [id, r] : rows) {
        r.hasPrevious = r.hasPrevious && r.sampled; // a change needs figures in both dumps
        if (r.hasPrevious) {
            r.dEntries = int64_t(r.entries) - r.dEntries;
            r.dAllocs = int64_t(r.allocs) - r.dAllocs;
            r.dAllocd = int64_t(r.allocd) - r.dAllocd;
        } else {
            r.dEntries = r.dAllocs = r.dAllocd = 0;
        }
        if (r.name.empty())
            r.name = "<counter " + std::to_string(r.id) + ">";
        out.push_back(std::move(r));
    }
    return out;
}

} // namespace hecscope
