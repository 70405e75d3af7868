#include "core/detail/detailstore.h"

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
    const LogFormat& format = *index.scan.format;
    const auto& blocks = index.scan.blocks;
    // The block holding the first instant's record.
    size_t b = size_t(std::upper_bound(blocks.begin(), blocks.end(), start.offset,
                                       [](uint64_t o, const LogScan::Block& x) { return o < x.offset; })
                      - blocks.begin());
    if (b == 0 || blocks[b - 1].cap != cap || start.offset >= blocks[b - 1].end) {
        out.error = changedAt(start.offset, "no block of capability " + std::to_string(cap) + " there");
        return out;
    }
    --b;
    uint32_t running = start.running;
    bool inGc = start.inGc;
    uint64_t pos = start.offset;
    std::vector<uint8_t> buffer;
    uint64_t got = 0;
    for (;;) {
        const uint64_t end = blocks[b].end;
        // Decode the records in [pos, end), reading up to 1 MiB at a time.
        while (pos < end && got < want) {
            const size_t chunk = size_t(std::min<uint64_t>(end - pos, uint64_t(1) << 20));
            buffer.resize(chunk);
            const size_t n = source.read(pos, buffer.data(), chunk);
            if (n < chunk) {
                const std::string io = source.error();
                out.error = io.empty() ? changedAt(pos + n, "it now ends") : "Cannot read the log: " + io
                        + " (at byte " + std::to_string(pos + n) + ")";
                return out;
            }
            size_t at = 0;
            while (at < n && got < want) {
                Event e;
                const RecordResult r = decodeRecord(format, buffer.data() + at, n - at, e);
                if (r.status == RecordStatus::NeedMore) {
                    if (at == 0) { // a record longer than the rest of the block
                        out.error = changedAt(pos, "a record crosses its block's end");
                        return out;
                    }
                    break; // read again from this record
                }
                if (r.status != RecordStatus::Ok) {
                    out.error = changedAt(pos + at, "a record that does not decode");
                    return out;
                }
                e.offset = pos + at;
                e.cap = cap;
                at += r.size;
                if (e.tag == tag::BlockMarker || !e.known)
                    continue;
                InstantsBuilder::Instant in;
                if (!InstantsBuilder::classify(e, running, in)) {
                    track(e, running, inGc);
                    continue;
                }
                if (e.time > CapInstants::kMaxTime)
                    continue;
                if (got % CapInstantMarks::kMarkEvery == 0) {
                    const InstantMark& m = marks.mark(firstMark + size_t(got / CapInstantMarks::kMarkEvery));
                    if (m.offset != e.offset || m.time != e.time) {
                        out.error = changedAt(e.offset, "another event than the index holds");
                        return out;
                    }
                }
                out.instants.append(e.time, in.kind, in.arg, in.other);
                ++got;
            }
            pos += at;
        }
        if (got == want)
            return out;
        // On to the capability's next block.
        do
            ++b;
        while (b < blocks.size() && blocks[b].cap != cap);
        if (b == blocks.size()) {
            out.error = changedAt(pos, "fewer instants on capability " + std::to_string(cap) + " than indexed");
            return out;
        }
        pos = blocks[b].offset;
    }
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

std::shared_ptr<const ThreadDetail> DetailStore::findThreads(uint64_t t0, uint64_t t1)
{
    std::lock_guard lock(m_mutex);
    for (auto it = m_threadWindows.begin(); it != m_threadWindows.end(); ++it)
        if (it->detail->from <= t0 && t1 <= it->detail->to) {
            it->view = m_view;
            m_threadWindows.splice(m_threadWindows.begin(), m_threadWindows, it);
            return m_threadWindows.front().detail;
        }
    return nullptr;
}

bool DetailStore::askThreads(uint64_t from, uint64_t to)
{
    std::lock_guard lock(m_mutex);
    for (const ThreadWindow& w : m_threadWindows)
        if (w.detail->from <= from && to <= w.detail->to)
            return false;
    return m_threadsAsked.emplace(from, to).second;
}

std::shared_ptr<const ThreadDetail> DetailStore::loadThreads(const LogIndex& index, uint64_t from, uint64_t to,
                                                             const std::function<bool()>& cancelled)
{
    if (auto found = findThreads(from, to)) {
        std::lock_guard lock(m_mutex);
        m_threadsAsked.erase({from, to});
        return found;
    }
    auto detail = std::make_shared<ThreadDetail>();
    if (m_source) {
        *detail = readThreadSegments(*m_source, index, from, to, nullptr, cancelled);
    } else {
        detail->from = from;
        detail->to = to;
        detail->error = "The log's file is not open: its detail cannot be read";
    }
    std::lock_guard lock(m_mutex);
    m_threadsAsked.erase({from, to});
    if (cancelled && cancelled())
        return nullptr; // (not kept: asked again when still wanted)
    const size_t bytes = sizeof(ThreadDetail) + detail->states.memoryBytes() + detail->error.size() + 64;
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
