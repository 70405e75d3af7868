#pragma once

#include "core/format/event.h"
#include "core/format/eventtags.h"
#include "core/index/collectionspart.h"
#include "core/index/gcspan.h"
#include "core/index/loadobserver.h"

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace hecscope {

// Builds CollectionsPart: REQUEST_SEQ_GC/REQUEST_PAR_GC, GC_GLOBAL_SYNC and
// GC_STATS_GHC are kept as they come; build() groups the capabilities' GC
// spans (from SchedulerBuilder) into collections and attaches those records
// by time. build() replaces the collections every time, so a provisional
// build needs no taking back. Decoding thread only.
class CollectionsBuilder {
public:
    // IndexBuilders: the tags it consumes, and of those the start-up records.
    static constexpr uint16_t kTags[]{tag::RequestSeqGc, tag::RequestParGc, tag::GcGlobalSync, tag::GcStatsGhc};
    static constexpr std::array<uint16_t, 0> kStartupTags{};
    explicit CollectionsBuilder(CollectionsPart& part)
        : m_part(part)
    {
    }

    void consume(const Event& e);
    // `closed` and `open` (provisional, still running) GC spans. Stops early
    // (false, collections incomplete) once `observer` says cancelled.
    bool build(std::span<const GcSpan> closed, std::span<const GcSpan> open,
               const LoadObserver* observer = nullptr);
    // The leaders build() would give the collections with a GC_STATS_GHC
    // record now, by start (ties in the records' order), without building
    // the collections.
    std::vector<GcLeader> leaders(std::span<const GcSpan> closed, std::span<const GcSpan> open) const;

private:
    struct Request {
        uint64_t time; // ns
        uint16_t cap;
        bool parallel;
    };
    struct Sync {
        uint64_t time; // ns
        uint16_t cap;
    };
    // The spans' numbers (closed first, then open) by capability, then
    // start (the capability's from spans[capStart[c]]).
    struct SpansByCap {
        std::vector<uint32_t> spans;
        std::vector<size_t> capStart;
    };
    static SpansByCap byCap(std::span<const GcSpan> closed, std::span<const GcSpan> open);
    // Gives each collection in `out` (the records, sorted by start) its
    // leader span, marking the spans used.
    static bool lead(std::vector<Collection>& out, const SpansByCap& by, std::span<const GcSpan> closed,
                     std::span<const GcSpan> open, std::vector<char>& used, const LoadObserver* observer);

    CollectionsPart& m_part;
    std::vector<Request> m_requests;
    std::vector<Sync> m_syncs;
    // Each GC_STATS_GHC as the collection it makes (fromStats), at its
    // time, led by its capability, packed (about 20 bytes where the record
    // took 88: a log may have millions, kept for the whole load).
    CollectionList m_stats;
};

} // namespace hecscope
