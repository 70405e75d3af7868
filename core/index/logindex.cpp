#include "core/index/logindex.h"

#include "core/format/eventtags.h"
#include "core/heap/hpfile.h"

#include <algorithm>
#include <chrono>
#include <future>

namespace hecscope {
namespace {

constexpr uint32_t kMaxDenseThread = 1u << 24; // larger ids go to a map

std::vector<std::string> splitNul(std::string_view s)
{
    std::vector<std::string> out;
    while (!s.empty()) {
        const size_t nul = s.find('\0');
        out.emplace_back(s.substr(0, nul));
        if (nul == std::string_view::npos)
            break;
        s.remove_prefix(nul + 1);
    }
    return out;
}

class Indexer final : public EventSink {
public:
    explicit Indexer(LogIndex& index) : m_ix(index) { m_ix.tagCounts.assign(65536, 0); }

    void onHeader(const std::shared_ptr<const LogFormat>& format) override
    {
        m_encoding = format->stopEncoding();
    }

    void onEvent(const Event& e) override;
    // Makes the index consistent: open spans and collections end at the
    // last event. Unless `final`, unseal() takes that back.
    void seal(bool final);
    void unseal();

private:
    struct CapState {
        bool open = false;
        bool inGc = false;
        SpanKind kind = SpanKind::Running;
        uint32_t thread = 0;
        uint64_t start = 0;
        uint64_t gcStart = 0;
        uint64_t last = 0;
    };
    struct GcSpan {
        uint64_t start, end;
        uint16_t cap;
    };
    struct Request {
        uint64_t time;
        uint16_t cap;
        bool parallel;
    };
    struct Stats {
        uint64_t time;
        uint64_t n[9];
        bool balanced;
        uint16_t cap;
    };

    Capability& cap(uint16_t c)
    {
        if (c >= m_ix.caps.size()) [[unlikely]]
            addCapabilities(c);
        return m_ix.caps[c];
    }
    void addCapabilities(uint16_t upTo)
    {
        m_ix.caps.resize(size_t(upTo) + 1);
        m_state.resize(size_t(upTo) + 1);
    }
    ThreadInfo& thread(uint64_t id)
    {
        auto& threads = m_ix.threads;
        if (id < threads.size() && threads[id].seen) [[likely]]
            return threads[id];
        return newThread(id);
    }
    ThreadInfo& newThread(uint64_t id);
    void open(uint16_t c, SpanKind kind, uint64_t t, uint32_t thread = 0);
    void close(uint16_t c, uint64_t t, uint8_t stop);
    void appendSpan(uint16_t c, SpanKind kind, uint32_t thread, uint64_t start, uint64_t t, uint8_t stop);
    void capEvent(const Event& e);
    void globalEvent(const Event& e);
    void buildCollections(const std::vector<GcSpan>& provisional);
    TextRef keep(std::string_view s)
    {
        TextRef r{m_ix.text.size(), uint32_t(s.size())};
        m_ix.text.append(s);
        return r;
    }
    Capset& capset(uint64_t id)
    {
        const auto [it, inserted] = m_capsetIndex.try_emplace(uint32_t(id), m_ix.capsets.size());
        if (inserted) {
            m_ix.capsets.push_back(Capset{});
            m_ix.capsets.back().id = uint32_t(id);
        }
        return m_ix.capsets[it->second];
    }
    uint32_t heapLabel(std::string_view label)
    {
        auto [it, inserted] = m_labels.try_emplace(std::string(label), uint32_t(m_ix.heapProfile.labels.size()));
        if (inserted) {
            m_ix.heapProfile.labels.emplace_back(label);
            m_ix.heapProfile.stacks.emplace_back();
        }
        return it->second;
    }
    // The band of a cost-centre stack, keyed by its ids (names can repeat).
    uint32_t stackBand(const Event& e);
    std::string stackLabel(const Event& e) const;
    uint32_t timeStack(const Event& e);

    LogIndex& m_ix;
    StopEncoding m_encoding = StopEncoding::Standard;
    std::vector<CapState> m_state;
    struct Provisional {
        uint16_t cap;
        size_t spansBefore;
        uint32_t thread;
        uint64_t runTimeBefore, lastStopBefore, unrepresentableBefore, clippedBefore, continuationsBefore;
    };
    std::vector<Provisional> m_provisional; // what the last non-final seal() added
    std::vector<GcSpan> m_gcSpans;
    std::vector<Request> m_requests;
    struct Sync {
        uint64_t time;
        uint16_t cap;
    };
    std::vector<Sync> m_syncs;
    std::vector<Stats> m_stats;
    std::unordered_map<std::string, uint32_t> m_labels;
    std::unordered_map<std::string, uint32_t> m_timeStacks;
    std::unordered_map<std::string, uint32_t> m_stackBands; // id bytes -> label
    std::vector<uint64_t> m_labelEntry; // per label: its sample in the open census
    bool m_censusOpen = false;
    std::array<size_t, 3> m_openConcurrent{SIZE_MAX, SIZE_MAX, SIZE_MAX}; // per kind: open span
    std::unordered_map<uint32_t, size_t> m_capsetIndex;                    // id -> index in capsets
    size_t m_threadsSeen = 0;
    uint64_t m_events = 0;
    uint64_t m_continuations = 0; // spans added by splitting long runs
};

// Thread ids are dense in practice (GHC counts up from 1); an id far beyond
// those seen so far (or beyond 2^24) goes to a map, so that one stray id
// cannot make the table huge.
ThreadInfo& Indexer::newThread(uint64_t id)
{
    auto& threads = m_ix.threads;
    // An id first met far away stays in the map even once the table grows
    // past it.
    if (!m_ix.largeThreads.empty() && id <= UINT32_MAX) {
        const auto it = m_ix.largeThreads.find(uint32_t(id));
        if (it != m_ix.largeThreads.end())
            return it->second;
    }
    const bool dense = id < kMaxDenseThread && id < 2 * m_threadsSeen + 65536;
    if (dense && id >= threads.size())
        threads.resize(std::min<size_t>(kMaxDenseThread, std::max<size_t>(size_t(id) + 1, threads.size() * 3 / 2)));
    ThreadInfo& t = id < threads.size() ? threads[id]
                                        : m_ix.largeThreads[uint32_t(std::min<uint64_t>(id, UINT32_MAX))];
    if (!t.seen) {
        t.id = uint32_t(std::min<uint64_t>(id, UINT32_MAX));
        t.seen = true;
        ++m_threadsSeen;
    }
    return t;
}

void Indexer::open(uint16_t c, SpanKind kind, uint64_t t, uint32_t threadId)
{
    CapState& s = m_state[c];
    s.open = true;
    s.kind = kind;
    s.start = t;
    s.thread = threadId;
}

void Indexer::close(uint16_t c, uint64_t t, uint8_t stop)
{
    CapState& s = m_state[c];
    if (!s.open)
        return;
    s.open = false;
    appendSpan(c, s.kind, s.thread, s.start, t, stop);
}

void Indexer::appendSpan(uint16_t c, SpanKind kind, uint32_t threadId, uint64_t start, uint64_t t,
                         uint8_t stop)
{
    uint64_t end = std::max(t, start);
    if (kind == SpanKind::Running) {
        ThreadInfo& th = thread(threadId);
        th.runTime += end - start;
        th.lastStop = end;
    } else if (end == start) {
        return; // an empty GC phase is not worth a span
    }
    if (start > Span::kMaxStart || end > Span::kMaxStart) {
        ++m_ix.unrepresentableSpans;
        return;
    }
    CapTimeline& tl = m_ix.caps[c].timeline;
    // Runs over 2^32 ns are stored as several spans. Real logs need a few
    // per hour of running; a damaged timestamp could ask for 65536 per
    // capability, so beyond a budget long spans are clipped (and counted).
    const uint64_t pieces = (end - start) / Span::kMaxLength;
    if (pieces > 0 && m_continuations + pieces > 1'000'000 + 2 * m_events) {
        ++m_ix.clippedSpans;
        end = start + Span::kMaxLength;
    } else {
        m_continuations += pieces;
    }
    bool continued = false;
    do {
        const uint64_t length = std::min<uint64_t>(end - start, Span::kMaxLength);
        const bool last = start + length == end;
        tl.append(Span(start, uint32_t(length), kind, threadId, last ? stop : kStopClosedByOther,
                       continued));
        start += length;
        continued = true;
    } while (start < end);
}

void Indexer::onEvent(const Event& e)
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
    if (e.cap != kNoCap)
        capEvent(e);
    else
        ++m_ix.eventsWithoutCap;
    globalEvent(e);
}

// Events that shape a capability's timeline, in the capability's own order.
void Indexer::capEvent(const Event& e)
{
    const uint16_t c = e.cap;
    Capability& capability = cap(c);
    CapState& s = m_state[c];
    ++capability.events;
    capability.firstEvent = std::min(capability.firstEvent, e.time);
    capability.lastEvent = std::max(capability.lastEvent, e.time);
    // Spans must not overlap: a timeline event earlier than the previous
    // one on its capability is placed at the previous time. (Only timeline
    // events: GHC stamps GC_END before writing the GC_GLOBAL_SYNC and
    // GC_STATS_GHC that precede it in the buffer.)
    uint64_t t = e.time;
    switch (e.tag) {
    case tag::RunThread:
    case tag::StopThread:
    case tag::GcStart:
    case tag::GcWork:
    case tag::GcIdle:
    case tag::GcDone:
    case tag::GcEnd:
        if (t < s.last) {
            ++capability.outOfOrder;
            t = s.last;
        }
        s.last = t;
        break;
    default:
        break;
    }

    switch (e.tag) {
    case tag::RunThread: {
        if (s.open)
            close(c, t, kStopClosedByOther);
        ThreadInfo& th = thread(e.n[0]);
        ++th.runs;
        th.firstRun = std::min(th.firstRun, t);
        open(c, SpanKind::Running, t, uint32_t(e.n[0]));
        break;
    }
    case tag::StopThread: {
        const uint64_t code = standardStopCode(e.n[1], m_encoding);
        if (s.open && s.kind == SpanKind::Running)
            close(c, t, uint8_t(std::min<uint64_t>(code, 253)));
        ThreadInfo& th = thread(e.n[0]);
        switch (stopClass(uint8_t(std::min<uint64_t>(code, 253)))) {
        case StopClass::HeapOverflow: ++th.heapOverflows; break;
        case StopClass::StackOverflow: ++th.stackOverflows; break;
        case StopClass::Yield: ++th.yields; break;
        case StopClass::ForeignCall: ++th.foreignCalls; break;
        case StopClass::Finished: th.finished = t; break;
        case StopClass::Blocked: ++th.blocked[size_t(blockReason(uint8_t(code)))]; break;
        case StopClass::Other: break;
        }
        break;
    }
    case tag::GcStart:
        if (s.inGc)
            break;
        if (s.open)
            close(c, t, kStopClosedByOther);
        s.inGc = true;
        s.gcStart = t;
        open(c, SpanKind::Gc, t);
        break;
    case tag::GcWork:
    case tag::GcIdle:
    case tag::GcDone: {
        const SpanKind phase = e.tag == tag::GcWork ? SpanKind::GcWork
            : e.tag == tag::GcIdle                  ? SpanKind::GcIdle
                                                    : SpanKind::GcDone;
        if (!s.inGc) { // the log began inside a collection
            if (s.open)
                close(c, t, kStopClosedByOther);
            s.inGc = true;
            s.gcStart = t;
        } else if (s.open) {
            if (s.kind == SpanKind::Gc)
                s.kind = SpanKind::GcSync;
            close(c, t, 0);
        }
        open(c, phase, t);
        break;
    }
    case tag::GcEnd:
        if (!s.inGc)
            break;
        close(c, t, 0);
        s.inGc = false;
        m_gcSpans.push_back({s.gcStart, t, c});
        break;
    case tag::SparkCounters:
        capability.sparks.push_back(
            {e.time, e.n[0], e.n[1], e.n[2], e.n[3], e.n[4], e.n[5], e.n[6]});
        break;
    case tag::SparkCreate:
    case tag::SparkDud:
    case tag::SparkOverflow:
    case tag::SparkRun:
    case tag::SparkSteal:
    case tag::SparkFizzle:
    case tag::SparkGc:
        ++capability.sparkEvents[e.tag - tag::SparkCreate];
        m_ix.sparkEvents.push_back(
            {e.time, e.tag == tag::SparkSteal ? uint32_t(e.n[0]) : 0u, c, e.tag});
        break;
    default:
        break;
    }
}

// Everything else: threads, GC bookkeeping, heap, profiles, process facts.
void Indexer::globalEvent(const Event& e)
{
    const uint64_t t = e.time;
    const auto& n = e.n;
    switch (e.tag) {
    case tag::CreateThread: {
        ThreadInfo& th = thread(n[0]);
        th.created = std::min(th.created, t);
        th.createdOn = e.cap;
        break;
    }
    case tag::ThreadRunnable: ++thread(n[0]).runnable; break;
    case tag::MigrateThread: ++thread(n[0]).migrations; break;
    case tag::ThreadWakeup: ++thread(n[0]).wakeups; break;
    case tag::ThreadLabel: thread(n[0]).label = std::string(e.s[0]); break;
    case tag::RequestSeqGc:
    case tag::RequestParGc: m_requests.push_back({t, e.cap, e.tag == tag::RequestParGc}); break;
    case tag::GcGlobalSync: m_syncs.push_back({t, e.cap}); break;
    case tag::GcStatsGhc: {
        Stats st{t, {}, e.layout >= 58, e.cap};
        std::copy(n, n + 9, st.n);
        m_stats.push_back(st);
        break;
    }
    case tag::HeapAllocated: m_ix.heapAllocated.push_back({t, n[1], uint32_t(n[0]), e.cap}); break;
    case tag::HeapSize: m_ix.heapSize.push_back({t, n[1], uint32_t(n[0]), e.cap}); break;
    case tag::HeapLive: m_ix.heapLive.push_back({t, n[1], uint32_t(n[0]), e.cap}); break;
    case tag::BlocksSize: m_ix.blocksSize.push_back({t, n[1], uint32_t(n[0]), e.cap}); break;
    case tag::HeapInfoGhc:
        m_ix.heapInfo.push_back({t, uint32_t(n[0]), uint32_t(n[1]), n[2], n[3], n[4], n[5]});
        break;
    case tag::MemReturn:
        m_ix.memReturns.push_back({t, uint32_t(n[0]), uint32_t(n[1]), uint32_t(n[2]), uint32_t(n[3])});
        break;
    case tag::CapCreate: cap(uint16_t(n[0])).created = t; break;
    case tag::CapDelete: cap(uint16_t(n[0])).deleted = t; break;
    case tag::CapsetCreate: {
        Capset& cs = capset(n[0]);
        cs.type = uint16_t(n[1]);
        cs.created = t;
        break;
    }
    case tag::CapsetDelete: capset(n[0]).deleted = t; break;
    case tag::CapsetAssignCap: capset(n[0]).caps.push_back(uint16_t(n[1])); break;
    case tag::CapsetRemoveCap: std::erase(capset(n[0]).caps, uint16_t(n[1])); break;
    case tag::RtsIdentifier: capset(n[0]).rtsIdentifier = std::string(e.s[0]); break;
    case tag::ProgramArgs: capset(n[0]).args = splitNul(e.s[0]); break;
    case tag::ProgramEnv: capset(n[0]).env = splitNul(e.s[0]); break;
    case tag::OsProcessPid: {
        Capset& cs = capset(n[0]);
        cs.pid = n[1];
        cs.hasPid = true;
        break;
    }
    case tag::OsProcessPpid: {
        Capset& cs = capset(n[0]);
        cs.ppid = n[1];
        cs.hasPpid = true;
        break;
    }
    case tag::WallClockTime: {
        Capset& cs = capset(n[0]);
        cs.wallSeconds = n[1];
        cs.wallNanoseconds = n[2];
        cs.wallAt = t;
        break;
    }
    case tag::TaskCreate: ++m_ix.tasks; break;
    case tag::UserMarker: m_ix.messages.push_back({t, e.cap, Message::Marker, keep(e.s[0])}); break;
    case tag::UserMsg: m_ix.messages.push_back({t, e.cap, Message::User, keep(e.s[0])}); break;
    case tag::LogMsg: m_ix.messages.push_back({t, e.cap, Message::Log, keep(e.s[0])}); break;
    case tag::UserBinaryMsg: m_ix.messages.push_back({t, e.cap, Message::Binary, keep(e.s[0])}); break;
    case tag::HeapProfBegin: {
        HeapProfileData& hp = m_ix.heapProfile;
        hp.present = true;
        hp.profile = uint8_t(n[0]);
        hp.period = n[1];
        hp.breakdown = uint32_t(n[2]);
        for (size_t i = 0; i < hp.filters.size(); ++i)
            hp.filters[i] = std::string(e.s[i]);
        break;
    }
    case tag::HeapProfCostCentre: {
        CostCentre& cc = m_ix.costCentres[uint32_t(n[0])];
        cc.id = uint32_t(n[0]);
        cc.label = std::string(e.s[0]);
        cc.module = std::string(e.s[1]);
        cc.srcloc = std::string(e.s[2]);
        cc.caf = n[1] & 1;
        break;
    }
    case tag::HeapProfSampleBegin:
    case tag::HeapBioProfSampleBegin: {
        auto& censuses = m_ix.heapProfile.censuses;
        Census c;
        c.time = t;
        c.era = n[0];
        if (e.tag == tag::HeapBioProfSampleBegin)
            c.bioTime = n[1];
        c.firstSample = m_ix.heapProfile.samples.size();
        censuses.push_back(c);
        m_censusOpen = true;
        break;
    }
    case tag::HeapProfSampleCostCentre:
    case tag::HeapProfSampleString: {
        if (!m_censusOpen)
            break;
        HeapProfileData& hp = m_ix.heapProfile;
        const uint32_t label = e.tag == tag::HeapProfSampleString ? heapLabel(e.s[0]) : stackBand(e);
        Census& c = hp.censuses.back();
        // A label repeated within one census (-hd/-hy key bands by string
        // pointer, so equal strings can come twice) is one band: add.
        if (label < m_labelEntry.size() && m_labelEntry[label] != UINT64_MAX && m_labelEntry[label] >= c.firstSample) {
            hp.samples[m_labelEntry[label]].bytes += n[1];
            ++hp.repeatedLabels;
        } else {
            if (label >= m_labelEntry.size())
                m_labelEntry.resize(label + 1, UINT64_MAX);
            m_labelEntry[label] = hp.samples.size();
            hp.samples.push_back({label, n[1]});
            ++c.count;
        }
        c.profile = uint8_t(n[0]);
        c.total += n[1];
        break;
    }
    case tag::HeapProfSampleEnd:
        if (m_censusOpen)
            m_ix.heapProfile.censuses.back().endTime = t;
        m_censusOpen = false;
        break;
    case tag::ProfBegin: m_ix.timeProfile.tickInterval = n[0]; break;
    case tag::ProfSampleCostCentre:
        m_ix.timeProfile.samples.push_back({t, n[1], timeStack(e), uint16_t(n[0])});
        break;
    case tag::Ipe:
        m_ix.ipes.push_back({n[0], std::string(e.s[0]), std::string(e.s[1]), std::string(e.s[2]),
                             std::string(e.s[3]), std::string(e.s[4]), std::string(e.s[5])});
        break;
    case tag::TickyCounterDef:
        m_ix.tickyCounters.push_back({n[0], uint16_t(n[1]), std::string(e.s[0]), std::string(e.s[1])});
        break;
    case tag::TickyCounterSample: m_ix.tickySamples.push_back({t, n[0], n[1], n[2], n[3]}); break;
    case tag::ConcMarkBegin:
    case tag::ConcSyncBegin:
    case tag::ConcSweepBegin: {
        const auto kind = e.tag == tag::ConcMarkBegin ? ConcurrentSpan::Mark
            : e.tag == tag::ConcSyncBegin             ? ConcurrentSpan::Sync
                                                      : ConcurrentSpan::Sweep;
        m_openConcurrent[kind] = m_ix.concurrent.size();
        m_ix.concurrent.push_back({t, kNoTime, kind, 0});
        break;
    }
    case tag::ConcMarkEnd:
    case tag::ConcSyncEnd:
    case tag::ConcSweepEnd: {
        const auto kind = e.tag == tag::ConcMarkEnd ? ConcurrentSpan::Mark
            : e.tag == tag::ConcSyncEnd             ? ConcurrentSpan::Sync
                                                    : ConcurrentSpan::Sweep;
        const size_t open = m_openConcurrent[kind];
        if (open != SIZE_MAX) {
            ConcurrentSpan& span = m_ix.concurrent[open];
            span.end = std::max(t, span.start);
            if (kind == ConcurrentSpan::Mark)
                span.markedObjects = uint32_t(n[0]);
            m_openConcurrent[kind] = SIZE_MAX;
        }
        break;
    }
    default:
        break;
    }
}

uint32_t Indexer::stackBand(const Event& e)
{
    HeapProfileData& hp = m_ix.heapProfile;
    const std::string key(reinterpret_cast<const char*>(e.ids), size_t(e.depth) * 4);
    auto [it, inserted] = m_stackBands.try_emplace(key, uint32_t(hp.labels.size()));
    if (inserted) {
        std::string name = stackLabel(e);
        // Two stacks of equal names (cost centres of the same name in
        // different modules) stay apart: the later one gets a suffix.
        if (!m_labels.try_emplace(name, it->second).second) {
            for (int k = 2;; ++k) {
                std::string alt = name + " #" + std::to_string(k);
                if (m_labels.try_emplace(alt, it->second).second) {
                    name = std::move(alt);
                    break;
                }
            }
        }
        hp.labels.push_back(std::move(name));
        std::vector<uint32_t> stack(e.depth);
        for (size_t i = 0; i < e.depth; ++i)
            stack[i] = e.ccId(i);
        hp.stacks.push_back(std::move(stack));
    }
    return it->second;
}

// As GHC's .hp files name stacks: innermost first, joined by '/', a CAF as
// Module.CAF, the empty stack MAIN (without the .hp's "(ccsID)" prefix,
// which the eventlog does not carry, and without its -L truncation).
std::string Indexer::stackLabel(const Event& e) const
{
    std::string label;
    for (size_t i = 0; i < e.depth; ++i) {
        if (i > 0)
            label += '/';
        const auto it = m_ix.costCentres.find(e.ccId(i));
        if (it == m_ix.costCentres.end())
            label += "cc" + std::to_string(e.ccId(i));
        else if (it->second.caf || it->second.label == "CAF")
            label += it->second.module + ".CAF";
        else
            label += it->second.label;
    }
    return label.empty() ? std::string("MAIN") : label;
}

uint32_t Indexer::timeStack(const Event& e)
{
    const std::string key(reinterpret_cast<const char*>(e.ids), size_t(e.depth) * 4);
    auto [it, inserted] = m_timeStacks.try_emplace(key, uint32_t(m_ix.timeProfile.stacks.size()));
    if (inserted) {
        std::vector<uint32_t> stack(e.depth);
        for (size_t i = 0; i < e.depth; ++i)
            stack[i] = e.ccId(i);
        m_ix.timeProfile.stacks.push_back(std::move(stack));
    }
    return it->second;
}

void Indexer::seal(bool final)
{
    unseal();
    const uint64_t end = m_ix.lastTime;
    std::vector<GcSpan> openGcs;
    for (size_t c = 0; c < m_state.size(); ++c) {
        CapState& s = m_state[c];
        if (s.inGc)
            openGcs.push_back({s.gcStart, std::max(end, s.gcStart), uint16_t(c)});
        if (!s.open)
            continue;
        if (final) {
            close(uint16_t(c), std::max(end, s.start), kStopAtEnd);
            continue;
        }
        const ThreadInfo* th = s.kind == SpanKind::Running ? &thread(s.thread) : nullptr;
        m_provisional.push_back({uint16_t(c), m_ix.caps[c].timeline.size(), s.thread,
                                 th ? th->runTime : 0, th ? th->lastStop : 0, m_ix.unrepresentableSpans,
                                 m_ix.clippedSpans, m_continuations});
        appendSpan(uint16_t(c), s.kind, s.thread, s.start, std::max(end, s.start), kStopAtEnd);
    }
    if (final) {
        m_gcSpans.insert(m_gcSpans.end(), openGcs.begin(), openGcs.end());
        openGcs.clear();
        for (CapState& s : m_state)
            s.inGc = false;
    }
    buildCollections(openGcs);
}

void Indexer::unseal()
{
    for (const Provisional& p : m_provisional) {
        CapTimeline& tl = m_ix.caps[p.cap].timeline;
        while (tl.size() > p.spansBefore)
            tl.popBack();
        if (m_state[p.cap].kind == SpanKind::Running) {
            ThreadInfo& th = thread(p.thread);
            th.runTime = p.runTimeBefore;
            th.lastStop = p.lastStopBefore;
        }
    }
    if (!m_provisional.empty()) {
        m_ix.unrepresentableSpans = m_provisional.front().unrepresentableBefore;
        m_ix.clippedSpans = m_provisional.front().clippedBefore;
        m_continuations = m_provisional.front().continuationsBefore;
    }
    m_provisional.clear();
}

// Groups the capabilities' GC spans into collections (overlapping spans are
// one collection) and attaches requests, syncs and GC_STATS_GHC by time.
void Indexer::buildCollections(const std::vector<GcSpan>& provisional)
{
    std::vector<GcSpan> spans = m_gcSpans;
    spans.insert(spans.end(), provisional.begin(), provisional.end());
    std::sort(spans.begin(), spans.end(),
              [](const GcSpan& a, const GcSpan& b) { return a.start < b.start; });
    auto& out = m_ix.collections;
    out.clear();
    std::vector<uint16_t> capsIn; // of the current collection (few: no per-capability table)
    std::vector<size_t> firstSpan; // per collection: its first span in `spans`
    for (size_t k = 0; k < spans.size(); ++k) {
        const GcSpan& g = spans[k];
        if (out.empty() || g.start > out.back().end) {
            out.push_back(Collection{});
            out.back().start = g.start;
            out.back().end = g.end;
            firstSpan.push_back(k);
            capsIn.clear();
        }
        Collection& col = out.back();
        col.end = std::max(col.end, g.end);
        if (std::find(capsIn.begin(), capsIn.end(), g.cap) == capsIn.end()) {
            capsIn.push_back(g.cap);
            ++col.caps;
        }
    }
    // Requests: the last one at or before the start, after the previous end.
    size_t r = 0, sy = 0, st = 0;
    std::sort(m_requests.begin(), m_requests.end(),
              [](const Request& a, const Request& b) { return a.time < b.time; });
    std::sort(m_syncs.begin(), m_syncs.end(), [](const Sync& a, const Sync& b) { return a.time < b.time; });
    std::stable_sort(m_stats.begin(), m_stats.end(),
                     [](const Stats& a, const Stats& b) { return a.time < b.time; });
    uint64_t previousEnd = 0;
    for (size_t i = 0; i < out.size(); ++i) {
        Collection& col = out[i];
        while (r < m_requests.size() && m_requests[r].time <= col.start) {
            if (m_requests[r].time >= previousEnd) {
                col.request = m_requests[r].time;
                col.requestCap = m_requests[r].cap;
                col.parallelRequest = m_requests[r].parallel;
            }
            ++r;
        }
        while (sy < m_syncs.size() && m_syncs[sy].time < col.start)
            ++sy;
        uint16_t leader = col.caps == 1 ? spans[firstSpan[i]].cap : UINT16_MAX;
        if (sy < m_syncs.size() && m_syncs[sy].time <= col.end) {
            col.sync = m_syncs[sy].time;
            leader = m_syncs[sy].cap;
        }
        // GC_STATS_GHC is written by the leader just before or after its
        // GC_END: the first record from the start on, before the next one.
        const uint64_t nextStart = i + 1 < out.size() ? out[i + 1].start : kNoTime;
        while (st < m_stats.size() && m_stats[st].time < col.start)
            ++st;
        if (st < m_stats.size() && m_stats[st].time < nextStart) {
            const Stats& s = m_stats[st++];
            col.hasStats = true;
            col.generation = int(s.n[1]);
            col.copied = s.n[2];
            col.slop = s.n[3];
            col.fragmentation = s.n[4];
            col.parThreads = uint32_t(s.n[5]);
            col.parMaxCopied = s.n[6];
            col.parTotCopied = s.n[7];
            col.parBalancedCopied = s.balanced ? s.n[8] : 0;
            col.hasBalanced = s.balanced;
            if (leader == UINT16_MAX)
                leader = s.cap;
        }
        // The leader's own GC_START..GC_END is the pause +RTS -s and
        // ThreadScope report; without a known leader, the whole collection.
        col.leaderCap = leader;
        col.leaderStart = col.start;
        col.leaderEnd = col.end;
        const size_t spansEnd = i + 1 < out.size() ? firstSpan[i + 1] : spans.size();
        for (size_t k = firstSpan[i]; k < spansEnd; ++k) {
            if (spans[k].cap == leader) {
                col.leaderStart = spans[k].start;
                col.leaderEnd = spans[k].end;
                break;
            }
        }
        previousEnd = col.end;
    }
}

} // namespace

StopClass stopClass(uint8_t code)
{
    switch (code) {
    case 1: return StopClass::HeapOverflow;
    case 2: return StopClass::StackOverflow;
    case 3: return StopClass::Yield;
    case 4: return StopClass::Blocked;
    case 5: return StopClass::Finished;
    case 6: return StopClass::ForeignCall;
    default: return code >= 7 && code <= 20 && code != 19 ? StopClass::Blocked : StopClass::Other;
    }
}

BlockReason blockReason(uint8_t code)
{
    switch (code) {
    case 7: return BlockReason::MVar;
    case 8: return BlockReason::BlackHole;
    case 9: return BlockReason::Read;
    case 10: return BlockReason::Write;
    case 11: return BlockReason::Delay;
    case 12: return BlockReason::Stm;
    case 13: return BlockReason::DoProc;
    case 16:
    case 17: return BlockReason::CCall;
    case 18: return BlockReason::ThrowTo;
    case 20: return BlockReason::MVarRead;
    default: return BlockReason::Other;
    }
}

const char* blockReasonName(BlockReason r)
{
    static const char* const names[kBlockReasons] = {
        "mvar", "mvar_read", "black_hole", "read", "write", "delay", "stm", "do_proc",
        "foreign_call", "throw_to", "other"};
    return names[size_t(r)];
}

size_t LogIndex::threadCount() const
{
    return size_t(std::count_if(threads.begin(), threads.end(), [](const ThreadInfo& t) { return t.seen; }))
        + largeThreads.size();
}

const ThreadInfo* LogIndex::thread(uint32_t id) const
{
    if (id < threads.size() && threads[id].seen)
        return &threads[id];
    const auto it = largeThreads.find(id);
    return it == largeThreads.end() ? nullptr : &it->second;
}

size_t LogIndex::memoryBytes() const
{
    size_t bytes = sizeof(LogIndex) + scan.pieces.capacity() * sizeof(Piece)
        + scan.checkpoints.capacity() * sizeof(Checkpoint) + tagCounts.capacity() * sizeof(uint64_t)
        + threads.capacity() * sizeof(ThreadInfo) + collections.capacity() * sizeof(Collection)
        + sparkEvents.capacity() * sizeof(SparkEvent) + messages.capacity() * sizeof(Message)
        + text.capacity() + heapProfile.samples.capacity() * sizeof(HeapProfileData::Entry)
        + timeProfile.samples.capacity() * sizeof(TimeProfileData::Sample)
        + (heapAllocated.capacity() + heapSize.capacity() + heapLive.capacity()
           + blocksSize.capacity()) * sizeof(Sample)
        + (messagesByTime.capacity() + collectionsByStart.capacity()) * sizeof(uint32_t)
        + (heap.size.capacity() + heap.blocks.capacity() + heap.live.capacity() + heap.allocated.capacity())
            * sizeof(SeriesPoint);
    for (const Capability& c : caps)
        bytes += sizeof(Capability) + c.timeline.memoryBytes() + c.sparks.capacity() * sizeof(SparkCounters);
    return bytes;
}

namespace {

std::vector<uint32_t> orderBy(size_t n, auto time)
{
    std::vector<uint32_t> order(n);
    for (size_t i = 0; i < n; ++i)
        order[i] = uint32_t(i);
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return time(a) < time(b); });
    return order;
}

} // namespace

void prepareForDrawing(LogIndex& ix)
{
    ix.messagesByTime = orderBy(ix.messages.size(), [&](uint32_t i) { return ix.messages[i].time; });
    ix.collectionsByStart = orderBy(ix.collections.size(), [&](uint32_t i) { return ix.collections[i].start; });
    ix.heap = heapSeries(ix);
    ix.heapBands = computeHeapBands(ix.heapProfile, ix.ipes);
    ix.defaultBands = std::make_shared<const BandSelection>(selectBands(ix.heapProfile, ix.heapBands));
}

struct IndexBuilder::Impl {
    Impl()
        : index(std::make_unique<LogIndex>())
        , indexer(*index)
        , pieces(index->scan, &indexer)
        , decoder(pieces)
    {
    }
    std::unique_ptr<LogIndex> index;
    Indexer indexer;
    PieceCollector pieces;
    StreamDecoder decoder;
    uint64_t bytes = 0;
    bool ended = false;
};

IndexBuilder::IndexBuilder() : m_impl(std::make_unique<Impl>()) {}
IndexBuilder::~IndexBuilder() = default;

bool IndexBuilder::feed(std::span<const uint8_t> bytes)
{
    Impl& d = *m_impl;
    if (d.ended)
        return false;
    d.indexer.unseal();
    d.bytes += bytes.size();
    return d.decoder.feed(bytes);
}

const LogIndex& IndexBuilder::publish(bool endOfInput)
{
    Impl& d = *m_impl;
    if (d.ended)
        return *d.index;
    if (endOfInput) {
        d.decoder.finish();
        d.ended = true;
    }
    d.indexer.seal(endOfInput);
    LogScan& scan = d.index->scan;
    scan.format = d.decoder.format();
    scan.diagnostics = d.decoder.diagnostics();
    scan.events = d.decoder.eventCount();
    scan.hasError = d.decoder.hasError();
    scan.truncated = d.decoder.truncated();
    scan.bytes = d.bytes;
    prepareForDrawing(*d.index);
    return *d.index;
}

bool IndexBuilder::failed() const
{
    return m_impl->decoder.state() == StreamDecoder::State::Failed;
}

const LogIndex& IndexBuilder::index() const
{
    return *m_impl->index;
}

std::unique_ptr<LogIndex> IndexBuilder::take()
{
    return std::move(m_impl->index);
}

LoadResult loadIndex(ByteSource& source, uint64_t totalBytes, LoadObserver* observer)
{
    using Clock = std::chrono::steady_clock;
    LoadResult result;
    IndexBuilder builder;
    const auto t0 = Clock::now();
    // The next chunk is read on another thread while this one is decoded:
    // copying from the page cache costs about as much as indexing.
    constexpr size_t kChunk = 1 << 20;
    std::vector<uint8_t> chunk(kChunk), next(kChunk);
    uint64_t pos = 0;
    auto readAt = [&source](uint64_t offset, std::vector<uint8_t>* into) {
        return source.read(offset, into->data(), into->size());
    };
    size_t got = readAt(0, &chunk);
    if (looksLikeHeapProfile({chunk.data(), got})) {
        std::string text(chunk.begin(), chunk.begin() + got);
        while (got > 0 && !(observer && observer->cancelled())) {
            got = readAt(text.size(), &chunk);
            text.append(chunk.begin(), chunk.begin() + got);
            if (observer)
                observer->progress(text.size(), totalBytes);
        }
        if (observer && observer->cancelled()) {
            result.cancelled = true;
            return result;
        }
        const auto t1 = Clock::now();
        result.index = parseHeapProfile(text);
        result.index->scan.ioError = source.error();
        result.decodeSeconds = std::chrono::duration<double>(Clock::now() - t0).count();
        result.finishSeconds = std::chrono::duration<double>(Clock::now() - t1).count();
        return result;
    }
    while (got > 0) {
        std::future<size_t> ahead = std::async(std::launch::async, readAt, pos + got, &next);
        pos += got;
        // After DATA_END the decoder only counts what follows (reported as
        // trailing data), so read on to the end; after an error, stop.
        bool stop = !builder.feed({chunk.data(), got}) && builder.failed();
        if (observer && !stop) {
            observer->progress(pos, totalBytes);
            if (observer->cancelled()) {
                result.cancelled = true;
                stop = true;
            }
        }
        const size_t following = ahead.get();
        if (stop)
            break;
        std::swap(chunk, next);
        got = following;
    }
    const auto t1 = Clock::now();
    builder.publish(true);
    const auto t2 = Clock::now();
    result.index = builder.take();
    result.index->scan.ioError = source.error();
    result.decodeSeconds = std::chrono::duration<double>(t1 - t0).count();
    result.finishSeconds = std::chrono::duration<double>(t2 - t1).count();
    return result;
}

} // namespace hecscope
