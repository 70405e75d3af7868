#include "core/index/indexdispatcher.h"

#include "core/format/eventtags.h"

#include <algorithm>
#include <cstdint>
#include <future>
#include <system_error>

namespace hecscope {

namespace {

// Tags no builder reads but that later records refer to: start-up records
// all the same.
constexpr uint16_t kOtherStartupTags[]{tag::InternString, tag::PerfName};

template <class Set>
struct Tables;

template <class... B>
struct Tables<BuilderSet<B...>> {
    static_assert(sizeof...(B) <= 32, "a route is a bit of a uint32_t per builder");

    static constexpr size_t limit()
    {
        size_t n = 0;
        auto grow = [&n](const auto& tags) {
            for (const auto t : tags)
                n = std::max(n, size_t(t) + 1);
        };
        (grow(B::kTags), ...);
        (grow(B::kStartupTags), ...);
        grow(kOtherStartupTags);
        return n;
    }
    static constexpr size_t kLimit = limit();

    // Per tag: bit i set when the i-th builder listed consumes it.
    static constexpr std::array<uint32_t, kLimit> routes()
    {
        std::array<uint32_t, kLimit> r{};
        uint32_t bit = 1;
        auto add = [&](const auto& tags) {
            for (const auto t : tags)
                r[size_t(t)] |= bit;
            bit <<= 1;
        };
        (add(B::kTags), ...);
        return r;
    }

    static constexpr std::array<uint8_t, kLimit> startup()
    {
        std::array<uint8_t, kLimit> s{};
        auto add = [&s](const auto& tags) {
            for (const auto t : tags)
                s[size_t(t)] = 1;
        };
        (add(B::kStartupTags), ...);
        add(kOtherStartupTags);
        return s;
    }
};

constexpr auto kRoutes = Tables<IndexBuilders>::routes();
constexpr auto kStartupTags = Tables<IndexBuilders>::startup();

} // namespace

// How the builders that need more than their part are made (the others:
// from the index, that is their part).
struct IndexDispatcher::Make {
    IndexDispatcher& d;

    template <class B>
    B operator()(std::type_identity<B>)
    {
        return B(d.m_ix);
    }
    SchedulerBuilder operator()(std::type_identity<SchedulerBuilder>)
    {
        return SchedulerBuilder(d.m_ix, d.builder<ThreadsBuilder>(), d.m_events);
    }
    InstantsBuilder operator()(std::type_identity<InstantsBuilder>)
    {
        return InstantsBuilder(d.m_ix, d.builder<SchedulerBuilder>());
    }
    MessagesBuilder operator()(std::type_identity<MessagesBuilder>)
    {
        return MessagesBuilder(d.m_ix, d.builder<SchedulerBuilder>());
    }
};

std::span<const uint8_t> IndexDispatcher::startupTags()
{
    return kStartupTags;
}

IndexDispatcher::IndexDispatcher(LogIndex& index)
    : m_ix(index)
    , m_builders(Make{*this})
{
    m_ix.tagCounts.assign(65536, 0);
}

void IndexDispatcher::onHeader(const std::shared_ptr<const LogFormat>& format)
{
    builder<SchedulerBuilder>().setEncoding(format->stopEncoding());
    builder<ThreadStatesBuilder>().setEncoding(format->stopEncoding());
}

void IndexDispatcher::onEvent(const Event& e)
{
    ++m_ix.tagCounts[e.tag];
    ++m_events;
    if (e.tag == tag::BlockMarker)
        return;
    m_ix.firstTime = std::min(m_ix.firstTime, e.time);
    m_ix.lastTime = std::max(m_ix.lastTime, e.time);
    // An event whose declared size does not fit any layout of ours was
    // skipped by the decoder: its fields are not there to read.
    if (!e.known)
        return;
    // Every event with a capability shapes that capability's facts (and
    // its timeline, for RUN/STOP_THREAD and GC_*), before any other builder
    // sees it.
    if (e.cap != kNoCap)
        builder<SchedulerBuilder>().consumeCapEvent(e);
    else
        ++m_ix.eventsWithoutCap;
    if (builder<SchedulerBuilder>().heldSpans() >= m_nextPlacement) [[unlikely]]
        placeHeldSpans();
    if (m_events >= m_nextSpanSpill) [[unlikely]] {
        builder<SchedulerBuilder>().spillSpans();
        m_nextSpanSpill = m_events + kSpillSpansEvery;
    }
    const uint32_t routes = e.tag < kRoutes.size() ? kRoutes[e.tag] : 0;
    if (routes)
        route(routes, e, std::make_index_sequence<IndexBuilders::kCount>());
}

// The GC spans whose collections are known by now split and put in their
// timelines, with the spans after them: at most once per as many events
// as there are GC spans, at least kPlaceEvery (finding the leaders goes
// through every GC span: a log of 460 K collections took 60 % longer when
// it was looked for every 64 K held spans; beyond kHoldGcSpansMost GC
// spans nothing is held). More held than are kept, and not yet time to
// look: they go in whole, to be split in place later.
void IndexDispatcher::placeHeldSpans()
{
    SchedulerBuilder& scheduler = builder<SchedulerBuilder>();
    if (scheduler.gcSpans().size() > SchedulerBuilder::kHoldGcSpansMost) {
        scheduler.releaseHeld(); // (and holds no more)
        m_nextPlacement = SIZE_MAX;
        return;
    }
    if (m_events - m_eventsWhenPlaced >= std::max<uint64_t>(kPlaceEvery, scheduler.gcSpans().size())) {
        const std::vector<GcSpan> open = scheduler.openGcSpans(m_ix.lastTime);
        scheduler.placeHeld(builder<CollectionsBuilder>().leaders(scheduler.gcSpans(), open), settleBound());
        m_eventsWhenPlaced = m_events;
    } else if (scheduler.heldSpans() > SchedulerBuilder::kHeldMost) {
        scheduler.releaseHeld();
    }
    m_nextPlacement = std::min(scheduler.heldSpans() + kPlaceEvery, SchedulerBuilder::kHeldMost + 1);
}

// The builders whose bits `routes` has, in the order listed.
template <size_t... I>
void IndexDispatcher::route(uint32_t routes, const Event& e, std::index_sequence<I...>)
{
    ((routes & (uint32_t(1) << I) ? consume(builder<IndexBuilders::At<I>>(), e) : void()), ...);
}

template <class B>
void IndexDispatcher::consume(B& b, const Event& e)
{
    b.consume(e);
    if constexpr (std::is_same_v<B, ThreadStatesBuilder>) {
        if (m_settleEvery && ++m_sinceSettle >= m_settleEvery) {
            b.settle(settleBound());
            m_sinceSettle = 0;
        }
    }
}

// Every capability's events are in up to its newest one; one that the
// log names but whose events have not come holds everything back.
uint64_t IndexDispatcher::settleBound() const
{
    uint64_t settleBefore = m_ix.caps.empty() ? 0 : UINT64_MAX;
    for (size_t c = 0; c < std::max<size_t>(m_ix.caps.size(), m_ix.capsNamed); ++c) {
        const bool known = c < m_ix.caps.size();
        if (known && m_ix.caps[c].events > 0)
            settleBefore = std::min(settleBefore, m_ix.caps[c].lastEvent);
        else if (c < m_ix.capsNamed || (known && m_ix.caps[c].created != kNoTime))
            settleBefore = 0;
    }
    return settleBefore;
}

bool IndexDispatcher::seal(bool final, const LoadObserver* observer)
{
    ThreadStatesBuilder& threadStates = builder<ThreadStatesBuilder>();
    SchedulerBuilder& scheduler = builder<SchedulerBuilder>();
    const uint64_t settleBefore = settleBound();
    // A load's final seal: the thread states (their own part of the
    // index, from their own builder) on a thread of their own beside the
    // collections and timelines (on the 1.1 GB log these take 0.8 s).
    // (Waited for however this returns: the future's destructor.)
    std::future<bool> threads;
    if (final) {
        try {
            threads = std::async(std::launch::async,
                                 [&] { return threadStates.seal(m_ix.lastTime, true, observer, settleBefore); });
        } catch (const std::system_error&) {
            // (No thread to be had: sealed after the rest, on this one.)
        }
    }
    // The collections first: sealing the timelines splits each
    // capability's GC spans by its collection.
    scheduler.unseal();
    ThreadsBuilder& threadsBuilder = builder<ThreadsBuilder>();
    if (final) {
        // The runs still open end with the log, so the threads have all
        // theirs and are packed now, their builder's table let go (136
        // bytes a thread): not on top of the collections' build (112 bytes
        // a collection while it runs) or the thread states' seal. The open
        // GC spans are closed ones now, as the seal would make them.
        scheduler.endOpenSpans(m_ix.lastTime);
        threadsBuilder.flush();
        threadsBuilder.publish(true);
    }
    const std::vector<GcSpan> open = scheduler.openGcSpans(m_ix.lastTime); // (none when final)
    if (isCancelled(observer) || !builder<CollectionsBuilder>().build(scheduler.gcSpans(), open, observer))
        return false;
    scheduler.seal(m_ix.lastTime, final, m_ix.collections, settleBefore);
    if (!final) {
        threadsBuilder.flush(); // (the seal ran the open runs to the end)
        // (Packed now, while the thread states' seal is young.)
        threadsBuilder.publish(false);
    }
    scheduler.spillSpans();
    const bool threadsSealed = threads.valid() ? threads.get()
                                               : !isCancelled(observer)
            && threadStates.seal(m_ix.lastTime, final, observer, settleBefore);
    if (isCancelled(observer) || !threadsSealed)
        return false;
    if (final) {
        // Vectors that grew by doubling keep up to half their capacity
        // unused: on a 4 GB log the far segment times alone held 2 GB.
        ThreadStates& ts = m_ix.threadStates;
        if (!m_keepThreadSegments)
            ts.moveSegmentsToFile();
        for (auto* v : {&ts.offsets, &ts.checkTimes, &ts.checkOffsets})
            v->shrink_to_fit();
        ts.ids.shrink_to_fit();
        ts.farTimes.shrink_to_fit();
        ts.infos.shrink_to_fit();
        ts.overviews.shrink_to_fit();
        ts.overviewKeys.shrink_to_fit();
        m_ix.collections.shrink_to_fit();
    }
    return true;
}

void IndexDispatcher::unseal()
{
    builder<SchedulerBuilder>().unseal();
}

} // namespace hecscope
