#pragma once

#include "core/format/event.h"
#include "core/format/eventtags.h"
#include "core/format/logformat.h"
#include "core/index/collectionspart.h"
#include "core/index/gcspan.h"
#include "core/index/schedulerpart.h"
#include "core/index/threadruns.h"
#include "core/io/spillfile.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace hecscope {

// Builds SchedulerPart: each capability's timeline of runs and GC phases
// from RUN_THREAD, STOP_THREAD and GC_*, its spark counters and spark
// events, CAP_CREATE/DELETE and per-capability event facts. Timeline
// events earlier than the capability's previous one are placed at the
// previous time (spans never overlap) and counted as out of order.
// Runs are reported to `threads`; closed GC spans are kept for
// CollectionsBuilder. seal(false) ends open spans at the last event
// provisionally; unseal() takes exactly that back. seal() also splits each
// closed GC span by its collection once that is known (see SpanKind):
// GcSync before the collection's start, GcParked after its end. Decoding
// thread only.
class SchedulerBuilder {
public:
    // IndexBuilders: the tags it consumes (CAP_CREATE / CAP_DELETE: they
    // name the capability in a field), and the start-up records it reads
    // (CAP_DISABLE / CAP_ENABLE through consumeCapEvent).
    static constexpr uint16_t kTags[]{tag::CapCreate, tag::CapDelete};
    static constexpr uint16_t kStartupTags[]{tag::CapCreate, tag::CapDelete, tag::CapDisable, tag::CapEnable};
    // `eventsSoFar`: every event the log has given (bounds the budget for
    // splitting long runs).
    SchedulerBuilder(SchedulerPart& part, ThreadRuns& threads, const uint64_t& eventsSoFar);

    void setEncoding(StopEncoding e) { m_encoding = e; }
    // Events with a capability (e.cap != kNoCap).
    void consumeCapEvent(const Event& e);
    // CAP_CREATE / CAP_DELETE.
    void consume(const Event& e);
    // The GC spans open now, as if they ended at `end` (after unseal()).
    std::vector<GcSpan> openGcSpans(uint64_t end) const;
    // Ends open spans at `end` (ns). `final`: for good; else provisionally.
    // Splits the closed GC spans whose collection `collections` knows (one
    // with a GC_STATS_GHC record) at its start and end, once each, and only
    // when that can no longer change (every collection that began by the
    // span's end is known): so a grown log's index equals one made at
    // once. `settled`: every capability's events are in up to this time.
    void seal(uint64_t end, bool final, const CollectionList& collections, uint64_t settled);
    // A capability's spans from a GC_START on are held back from its
    // timeline until that GC span's collection is known, then split as
    // seal() would and appended: the timeline is not written twice (a
    // rewrite of every span from the first split cost the 1.1 GB log 0.9 s
    // at its end). Held spans, all capabilities'.
    size_t heldSpans() const { return m_heldCount; }
    // Appends the held spans whose GC spans' collections are known by now
    // (as seal() would split them: `leaders` as CollectionsBuilder::leaders
    // gives them, `settled` as for seal()). Beyond kHeldMost held spans,
    // the rest go into the timeline whole (releaseHeld).
    void placeHeld(const std::vector<GcLeader>& leaders, uint64_t settled);
    // Every held span into the timeline whole, as a seal shows them: split
    // in place once its collection is known (rewriting the timeline from
    // there, as every split was made before spans were held).
    void releaseHeld();
    static constexpr size_t kHeldMost = size_t(1) << 16;
    // Beyond this many GC spans nothing is held any more: finding the
    // leaders goes through every collection (a log of 460 K collections
    // took 40 % longer), and the timeline is split in place as before.
    static constexpr size_t kHoldGcSpansMost = size_t(1) << 15;
    // What a final seal does first, callable before it (after unseal()):
    // the open spans end at `end` for good, and the open GC spans join the
    // closed ones (gcSpans()). The final seal then finds nothing open.
    void endOpenSpans(uint64_t end);
    void unseal();
    // Moves each capability's encoded spans but the newest to a temporary
    // file, mapped back in their place (CapTimeline::spillTo): the index's
    // memory then holds the timelines' block summaries. Once the file
    // fails, the spans stay in memory.
    void spillSpans();
    void setSpill(bool on) { m_spillFailed = !on; }
    const std::vector<GcSpan>& gcSpans() const { return m_gcSpans; }
    // Capability `c` is inside a collection now (GC_START or a GC phase,
    // until its GC_END).
    bool inGc(uint16_t c) const { return c < m_state.size() && m_state[c].inGc; }
    // The thread running on capability `c` now (0: none, or not a capability).
    uint32_t runningThread(uint16_t c) const
    {
        return c < m_state.size() && m_state[c].open && m_state[c].kind == SpanKind::Running ? m_state[c].thread : 0;
    }

private:
    struct CapState {
        bool open = false;
        bool inGc = false;
        SpanKind kind = SpanKind::Running;
        uint32_t thread = 0;
        uint64_t start = 0;
        uint64_t gcStart = 0;
        uint64_t last = 0;
        // After GC_END (and GC_GLOBAL_SYNC): a leader's GC_STATS_GHC may
        // still come. Since the GC_START of that span (lastGcStart).
        bool statsMayFollow = false;
        uint64_t lastGcStart = 0;
    };
    struct Provisional {
        uint16_t cap;
        bool open; // an open span was added (a run's thread has its runs restored)
        size_t spansBefore;
        uint32_t thread;
        uint64_t unrepresentableBefore, clippedBefore, continuationsBefore;
        ThreadRuns::Mark runs;
    };

    Capability& cap(uint16_t c)
    {
        if (c >= m_part.caps.size()) [[unlikely]]
            addCapabilities(c);
        return m_part.caps[c];
    }
    void addCapabilities(uint16_t upTo);
    void open(uint16_t c, SpanKind kind, uint64_t t, uint32_t thread = 0);
    void close(uint16_t c, uint64_t t, uint8_t stop);
    void appendSpan(uint16_t c, SpanKind kind, uint32_t thread, uint64_t start, uint64_t t, uint8_t stop);
    void placeInCollections(std::vector<GcLeader> leaders, uint64_t before);
    // Onto capability `c`'s timeline, or held (see heldSpans()).
    void put(uint16_t c, const Span& s)
    {
        if (!m_direct && !m_holdingOff && (m_state[c].inGc || !m_held[c].empty())) {
            m_held[c].push_back(s);
            ++m_heldCount;
        } else {
            m_part.caps[c].timeline.append(s);
        }
    }
    // Where seal() would place the spans: `settled`, or earlier while a
    // capability is in a collection or its record may still come.
    uint64_t placedBefore(uint64_t settled) const;

    SchedulerPart& m_part;
    ThreadRuns& m_threads;
    const uint64_t& m_events;
    StopEncoding m_encoding = StopEncoding::Standard;
    std::vector<CapState> m_state;
    std::vector<Provisional> m_provisional; // what the last non-final seal() added
    std::vector<GcSpan> m_gcSpans;          // closed, in order of GC_END
    std::vector<uint8_t> m_placed;          // [i]: m_gcSpans[i] split by its collection (or needs none)
    std::vector<std::vector<Span>> m_held;  // [c]: see heldSpans()
    size_t m_heldCount = 0;
    bool m_direct = false;                  // put() to the timeline (a provisional seal's)
    bool m_holdingOff = false;              // see kHoldGcSpansMost
    uint64_t m_continuations = 0;           // spans added by splitting long runs
    std::unique_ptr<SpillFile> m_spill;     // spillSpans()'s
    bool m_spillFailed = false; // (or turned off)
};

} // namespace hecscope
