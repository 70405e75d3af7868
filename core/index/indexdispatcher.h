#pragma once

#include "core/format/decoder.h"
#include "core/index/collectionsbuilder.h"
#include "core/index/concurrentgcbuilder.h"
#include "core/index/heapprofilebuilder.h"
#include "core/index/heapsamplesbuilder.h"
#include "core/index/instantsbuilder.h"
#include "core/index/loadobserver.h"
#include "core/index/logindex.h"
#include "core/index/messagesbuilder.h"
#include "core/index/processbuilder.h"
#include "core/index/schedulerbuilder.h"
#include "core/index/threadsbuilder.h"
#include "core/index/threadstatesbuilder.h"
#include "core/index/tickybuilder.h"
#include "core/index/timeprofilebuilder.h"

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <tuple>
#include <type_traits>
#include <utility>

namespace hecscope {

// A set of builders, each made by `make(std::type_identity<B>{})` in the
// order listed (a builder may refer to one listed before it).
template <class B>
struct BuilderSlot {
    template <class Make>
    explicit BuilderSlot(Make& make)
        : builder(make(std::type_identity<B>{}))
    {
    }
    B builder;
};

template <class... B>
struct BuilderSet : BuilderSlot<B>... {
    static constexpr size_t kCount = sizeof...(B);
    template <size_t I>
    using At = std::tuple_element_t<I, std::tuple<B...>>;

    template <class Make>
    explicit BuilderSet(Make&& make)
        : BuilderSlot<B>(make)...
    {
    }
    template <class T>
    T& get()
    {
        return static_cast<BuilderSlot<T>&>(*this).builder;
    }
    template <class T>
    const T& get() const
    {
        return static_cast<const BuilderSlot<T>&>(*this).builder;
    }
};

// Every builder of the index, once, in the order an event of several
// builders' tags reaches them. Each has
//   static constexpr uint16_t kTags[]: the tags whose events it consumes;
//   static constexpr uint16_t kStartupTags[]: the records it reads that say
//     what the program is (a live session that keeps only its latest
//     stretch reads them again: LogScan::startupRecords); may be empty;
//   void consume(const Event&).
// The dispatch table (which builders each tag goes to) and the start-up
// tags are made from these lists. A builder whose constructor takes more
// than its part says so in IndexDispatcher's Make (indexdispatcher.cpp).
using IndexBuilders = BuilderSet<ThreadStatesBuilder, ThreadsBuilder, SchedulerBuilder, InstantsBuilder,
                                 CollectionsBuilder, HeapSamplesBuilder, ProcessBuilder, MessagesBuilder,
                                 HeapProfileBuilder, TimeProfileBuilder, TickyBuilder, ConcurrentGcBuilder>;

// The EventSink that builds a LogIndex: counts every event per tag, keeps
// the first and last time (ns), gives every event with a capability to the
// scheduler first (SchedulerBuilder::consumeCapEvent), and routes each
// decoded event to the builders that list its tag (one lookup in a table
// made from IndexBuilders: no call for a tag no builder reads).
// Each builder fills one part of the index. seal() makes every part
// consistent (open spans and collections end at the last event); unless
// `final`, unseal() takes that back before more events come.
// Decoding thread only.
class IndexDispatcher final : public EventSink {
public:
    explicit IndexDispatcher(LogIndex& index);

    void onHeader(const std::shared_ptr<const LogFormat>& format) override;
    void onEvent(const Event& e) override;
    // False (and the index only fit to be thrown away) once `observer`
    // says cancelled.
    bool seal(bool final, const LoadObserver* observer = nullptr);
    void unseal();
    // Keep every instant in memory too (InstantsPart::keptInstants).
    void keepInstants() { builder<InstantsBuilder>().keepAll(); }
    // Every thread's segments stay in the final index (tests compare them).
    void keepThreadSegments()
    {
        m_keepThreadSegments = true;
        builder<ThreadStatesBuilder>().setSpill(false);
    }
    // (IndexBuilder::keepSpansInMemory)
    void keepSpansInMemory() { builder<SchedulerBuilder>().setSpill(false); }
    // Settle the thread events every `n` of them (0: never; see
    // ThreadStatesBuilder::settle): a whole log's load.
    void settleThreadEventsEvery(size_t n, size_t minEventsPerThread, size_t runEvents, size_t slice = 0)
    {
        m_settleEvery = n;
        m_sinceSettle = 0;
        ThreadStatesBuilder& states = builder<ThreadStatesBuilder>();
        states.setSettleEventsPerThread(minEventsPerThread);
        states.setRunEvents(runEvents);
        states.setSettleSlice(slice ? slice : ThreadStatesBuilder::kSettleSlice);
        states.setSpill(n > 0 && !m_keepThreadSegments);
    }
    // A live session's (ThreadStatesBuilder::setReleaseSettled).
    void releaseSettledThreadEvents()
    {
        builder<ThreadStatesBuilder>().setReleaseSettled(true);
        builder<ThreadStatesBuilder>().setSpill(!m_keepThreadSegments);
    }
    uint64_t threadSegmentsSpilled() const { return builder<ThreadStatesBuilder>().spilledBytes(); }
    bool threadSettlingDeclined() const { return builder<ThreadStatesBuilder>().settleDeclined(); }
    bool threadEventsMergedFromInsurance() const { return builder<ThreadStatesBuilder>().insuranceClaimed(); }
    bool threadEventsLost() const { return builder<ThreadStatesBuilder>().lostEvents(); }
    uint64_t threadEventsInRuns() const { return builder<ThreadStatesBuilder>().eventsInRuns(); }
    uint64_t threadEventsMostWaiting() const { return builder<ThreadStatesBuilder>().mostEventsWaiting(); }
    uint64_t threadEventsMostPacked() const { return builder<ThreadStatesBuilder>().mostEventsPacked(); }
    uint64_t threadRunBytes() const { return builder<ThreadStatesBuilder>().runBytes(); }
    size_t threadRawEventBytes() const { return builder<ThreadStatesBuilder>().rawEventBytes(); }
    void deferThreadCountsFrom(size_t threads) { builder<ThreadsBuilder>().setDeferFrom(threads); }
    uint64_t threadsBinnedAsMerged() const { return builder<ThreadStatesBuilder>().threadsBinnedAsMerged(); }

    // Per tag: whether its records say what the program is (the builders'
    // kStartupTags, and the records that later events refer to: interned
    // strings, perf event names). Indexed by tag, kTagLimit entries.
    static std::span<const uint8_t> startupTags();

private:
    template <class B>
    B& builder()
    {
        return m_builders.get<B>();
    }
    template <class B>
    const B& builder() const
    {
        return m_builders.get<B>();
    }
    struct Make;
    void placeHeldSpans();
    template <size_t... I>
    void route(uint32_t routes, const Event& e, std::index_sequence<I...>);
    template <class B>
    void consume(B& b, const Event& e);
    uint64_t settleBound() const;

    LogIndex& m_ix;
    uint64_t m_events = 0; // every event so far, block markers included
    bool m_keepThreadSegments = false;
    // (Counted here, on the decoding thread: the builder's own arrays
    // are a settle's walk's while it runs.)
    size_t m_settleEvery = 0, m_sinceSettle = 0;
    static constexpr uint64_t kSpillSpansEvery = uint64_t(1) << 20; // events
    uint64_t m_nextSpanSpill = kSpillSpansEvery;
    static constexpr size_t kPlaceEvery = size_t(1) << 14; // held spans (see placeHeldSpans)
    size_t m_nextPlacement = kPlaceEvery;
    uint64_t m_eventsWhenPlaced = 0;
    IndexBuilders m_builders;
};

} // namespace hecscope
