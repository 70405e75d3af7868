#include "core/detail/detailstore.h"

#include "core/detail/recordwalk.h"
#include "core/format/eventtags.h"
#include "core/format/recorddecoder.h"
#include "core/index/instantsbuilder.h"

#include <algorithm>

namespace hecscope {

std::string changedAt(uint64_t offset, const std::string& what)
{
    return "The log file changed since it was opened: " + what + " at byte " + std::to_string(offset)
        + " (open it again)";
}

namespace {

// The state SchedulerBuilder keeps that decides an instant's thread: the
// thread running on the capability and whether it is inside a collection.
void track(const Event& e, uint32_t& running, bool& inGc)
{
    switch (e.tag) {
    case tag::RunThread: running = uint32_t(e.n[0]); break;
    case tag::StopThread: running = 0; break;
    case tag::GcStart:
        if (!inGc) {
            running = 0;
            inGc = true;
        }
        break;
    case tag::GcWork:
    case tag::GcIdle:
    case tag::GcDone:
        running = 0;
        inGc = true;
        break;
    case tag::GcEnd:
        if (inGc) {
            running = 0;
            inGc = false;
        }
        break;
    default: break;
    }
}

} // namespace

InstantUnit readInstantUnit(ByteSource& source, const LogIndex& index, uint16_t cap, uint64_t unit)
{
    InstantUnit out;
    if (cap >= index.instants.size() || !index.scan.format) {
        out.error = "No instants on capability " + std::to_string(cap);
        return out;
    }
    const CapInstantMarks& marks = index.instants[cap];
    const uint64_t want = marks.unitCount(unit);
    if (want == 0)
        return out;
    const size_t firstMark = size_t(unit * CapInstantMarks::kUnitMarks);
    const InstantMark& start = marks.mark(firstMark);
    uint32_t running = start.running;
    bool inGc = start.inGc;
    std::vector<uint8_t> buffer;
    uint64_t got = 0;
    out.error = walkCapabilityBlocks(
        source, index, cap, start.offset, buffer, "fewer instants on capability " + std::to_string(cap) + " than indexed",
        [&](const Event& e, std::string& error) {
            if (e.tag == tag::BlockMarker || !e.known)
                return WalkOn::Next;
            InstantsBuilder::Instant in;
            if (!InstantsBuilder::classify(e, running, in)) {
                track(e, running, inGc);
                return WalkOn::Next;
            }
            if (e.time > CapInstants::kMaxTime)
                return WalkOn::Next;
            if (got % CapInstantMarks::kMarkEvery == 0) {
                const InstantMark& m = marks.mark(firstMark + size_t(got / CapInstantMarks::kMarkEvery));
                if (m.offset != e.offset || m.time != e.time) {
                    error = changedAt(e.offset, "another event than the index holds");
                    return WalkOn::Stop;
                }
            }
            out.instants.append(e.time, in.kind, in.arg, in.other);
            return ++got == want ? WalkOn::Stop : WalkOn::Next;
        });
    if (!out.error.empty())
        out.instants = CapInstants{};
    return out;
}

DetailStore::DetailStore(std::shared_ptr<ByteSource> source, size_t budgetBytes)
    : m_source(std::move(source))
    , m_budget(budgetBytes)
{
}

std::shared_ptr<const InstantUnit> DetailStore::find(const InstantUnitKey& key)
{
    std::lock_guard lock(m_mutex);
    const auto it = m_units.find(key);
    if (it == m_units.end())
        return nullptr;
    m_lru.splice(m_lru.begin(), m_lru, it->second.lru);
    it->second.view = m_view;
    return it->second.unit;
}

void DetailStore::beginView()
{
    std::lock_guard lock(m_mutex);
    ++m_view;
}

bool DetailStore::ask(const InstantUnitKey& key)
{
    std::lock_guard lock(m_mutex);
    if (m_units.count(key))
        return false;
    return m_asked.insert(key).second;
}

void DetailStore::forget(const InstantUnitKey& key)
{
    std::lock_guard lock(m_mutex);
    m_asked.erase(key);
}

std::shared_ptr<const InstantUnit> DetailStore::load(const LogIndex& index, const InstantUnitKey& key)
{
    if (auto found = find(key))
        return found;
    auto unit = std::make_shared<InstantUnit>(
        m_source ? readInstantUnit(*m_source, index, key.cap, key.unit)
                 : InstantUnit{{}, "The log's file is not open: its detail cannot be read"});
    std::lock_guard lock(m_mutex);
    m_asked.erase(key);
    const auto it = m_units.find(key);
    if (it != m_units.end()) // another thread read it meanwhile
        return it->second.unit;
    insertLocked(key, unit);
    return unit;
}

void DetailStore::insertLocked(const InstantUnitKey& key, std::shared_ptr<const InstantUnit> unit)
{
    const size_t bytes = sizeof(InstantUnit) + unit->instants.memoryBytes() + unit->error.size() + 64;
    m_lru.push_front(key);
    m_units.emplace(key, Entry{std::move(unit), bytes, m_lru.begin(), m_view});
    m_bytes += bytes;
    ++m_generation;
    // Over budget: the least recently used go, but none the current view
    // found or read (the one just read included).
    for (auto it = m_lru.end(); m_bytes > m_budget && it != m_lru.begin();) {
        --it;
        const auto entry = m_units.find(*it);
        if (entry->second.view == m_view)
            continue;
        m_bytes -= entry->second.bytes;
        m_units.erase(entry);
        it = m_lru.erase(it);
    }
}

uint64_t DetailStore::generation() const
{
    std::lock_guard lock(m_mutex);
    return m_generation;
}

namespace {

// Whether window `w` holds [t0, t1) and the threads of `need`.
bool windowHolds(const ThreadDetail& w, uint64_t t0, uint64_t t1, const std::vector<uint32_t>& need)
{
    if (!(w.from <= t0 && t1 <= w.to))
        return false;
    return std::all_of(need.begin(), need.end(), [&](uint32_t id) { return w.holds(id); });
}

} // namespace

std::shared_ptr<const ThreadDetail> DetailStore::findThreads(uint64_t t0, uint64_t t1, const std::vector<uint32_t>& need)
{
    std::lock_guard lock(m_mutex);
    for (auto it = m_threadWindows.begin(); it != m_threadWindows.end(); ++it)
        if (windowHolds(*it->detail, t0, t1, need)) {
            it->view = m_view;
            m_threadWindows.splice(m_threadWindows.begin(), m_threadWindows, it);
            return m_threadWindows.front().detail;
        }
    return nullptr;
}

bool DetailStore::askThreads(const ThreadWindowKey& key)
{
    std::lock_guard lock(m_mutex);
    for (const ThreadWindow& w : m_threadWindows)
        if (windowHolds(*w.detail, key.from, key.to, key.threads))
            return false;
    return m_threadsAsked.insert(key).second;
}

std::shared_ptr<const ThreadDetail> DetailStore::loadThreads(const LogIndex& index, const ThreadWindowKey& key,
                                                             const std::function<bool()>& cancelled)
{
    if (auto found = findThreads(key.from, key.to, key.threads)) {
        std::lock_guard lock(m_mutex);
        m_threadsAsked.erase(key);
        return found;
    }
    auto detail = std::make_shared<ThreadDetail>();
    if (m_source) {
        *detail = readThreadSegments(*m_source, index, key.from, key.to, &key.threads, cancelled);
    } else {
        detail->from = key.from;
        detail->to = key.to;
        detail->everyThread = false;
        detail->threads = key.threads;
        detail->error = "The log's file is not open: its detail cannot be read";
    }
    std::lock_guard lock(m_mutex);
    m_threadsAsked.erase(key);
    if (cancelled && cancelled())
        return nullptr; // (not kept: asked again when still wanted)
    const size_t bytes = sizeof(ThreadDetail) + detail->states.memoryBytes() + detail->threads.capacity() * sizeof(uint32_t)
        + detail->error.size() + 64;
    m_threadWindows.push_front({detail, bytes, m_view});
    m_bytes += bytes;
    ++m_threadGeneration;
    // Too many: the least recently used go, but none the current view found or read.
    size_t kept = 0;
    for (auto it = m_threadWindows.begin(); it != m_threadWindows.end();) {
        if (++kept > kThreadWindows && it->view != m_view) {
            m_bytes -= it->bytes;
            it = m_threadWindows.erase(it);
        } else {
            ++it;
        }
    }
    return detail;
}

uint64_t DetailStore::threadGeneration() const
{
    std::lock_guard lock(m_mutex);
    return m_threadGeneration;
}

size_t DetailStore::cachedBytes() const
{
    std::lock_guard lock(m_mutex);
    return m_bytes;
}

ViewInstants viewInstants(DetailStore& store, const LogIndex& index, uint16_t cap, uint64_t t0, uint64_t t1, bool wait)
{
    ViewInstants out;
    if (cap >= index.instants.size())
        return out;
    const CapInstantMarks& marks = index.instants[cap];
    const auto [u0, u1] = marks.unitsFor(t0, t1);
    std::vector<std::shared_ptr<const InstantUnit>> units;
    for (uint64_t u = u0; u < u1; ++u) {
        const InstantUnitKey key{cap, u, marks.unitCount(u)};
        auto unit = wait ? store.load(index, key) : store.find(key);
        if (!unit) {
            out.missing.push_back(key);
            continue;
        }
        if (!unit->error.empty() && out.error.empty())
            out.error = unit->error;
        units.push_back(std::move(unit));
    }
    if (!out.missing.empty() || !out.error.empty())
        return out;
    CapInstants all;
    for (const auto& unit : units) {
        const CapInstants& in = unit->instants;
        for (size_t i = 0; i < in.size(); ++i) {
            const uint64_t t = in.time(i);
            if (t >= t0 && t < t1)
                all.append(t, in.kind(i), in.arg(i), in.other(i));
        }
    }
    all.sortByTime();
    out.instants = std::move(all);
    return out;
}

} // namespace hecscope
