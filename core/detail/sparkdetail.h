#pragma once

#include "core/format/eventtags.h"
#include "core/index/logindex.h"
#include "core/io/bytesource.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace hecscope {

// Spark events read back from the file (issue #26: the index keeps only
// each capability's counts, Capability::sparkEvents). The spark events a
// capability's instant marks cover, SPARK_CREATE, SPARK_RUN, SPARK_FIZZLE
// and SPARK_STEAL (+RTS -lf), are found again through those marks
// (CapInstantMarks: every 128th instant by time and byte offset) and the
// capability's blocks (LogScan::blocks), so reading a time range decodes
// only the records of its stretch of each capability's blocks. (Events
// later than 78 hours are not instants, so not read back.)

// One spark event: kind is the tag.
struct SparkEvent {
    uint64_t time = 0;  // ns
    uint32_t other = 0; // SPARK_STEAL: the victim capability
    uint16_t cap = 0;
    uint16_t tag = 0;
};

struct SparkEventsRead {
    std::vector<SparkEvent> events; // by time, then capability (file order within one)
    std::string error;              // "" when read; else the problem and its byte offset (then no events)
    bool cancelled = false;
};

// The SPARK_CREATE/RUN/FIZZLE/STEAL events of every capability with times
// in [t0, t1), from `source`, the file `index` was made from (a live
// log's recording may have grown past it: what the index does not know is
// left out). Every mark passed is checked against the record read (its time
// and offset), and a capability read to its last indexed instant must hold
// them all: a file changed, cut or replaced since it was indexed gives an
// error naming the byte, never other events.
// `tags`: which of them, as sparkTagBit(tag)s.
constexpr uint32_t sparkTagBit(uint16_t t) { return 1u << (t - tag::SparkCreate); }
constexpr uint32_t kSparkInstantTags = sparkTagBit(tag::SparkCreate) | sparkTagBit(tag::SparkRun)
    | sparkTagBit(tag::SparkFizzle) | sparkTagBit(tag::SparkSteal);
SparkEventsRead readSparkEvents(ByteSource& source, const LogIndex& index, uint64_t t0, uint64_t t1,
                                const std::function<bool()>& cancelled = {}, uint32_t tags = kSparkInstantTags);

} // namespace hecscope
