#include "core/index/threadspart.h"

#include "core/index/varint.h"

#include <algorithm>
#include <stdexcept>

namespace hecscope {

namespace {

// A thread's counters in a fixed order: runs, runnable, wake-ups,
// migrations, yields, heap and stack overflows, foreign calls, blocked by
// reason.
template <class Info, class F>
void forEachCounter(Info& t, F f)
{
    f(t.runs);
    f(t.runnable);
    f(t.wakeups);
    f(t.migrations);
    f(t.yields);
    f(t.heapOverflows);
    f(t.stackOverflows);
    f(t.foreignCalls);
    for (auto& b : t.blocked)
        f(b);
}

// A time that may be kNoTime: 0 for none, else its difference from `base`
// (zigzag) + 1; `base` moves to it.
void putTime(std::vector<uint8_t>& out, uint64_t& base, uint64_t t)
{
    if (t == kNoTime) {
        out.push_back(0);
        return;
    }
    putVarint(out, zigzag(int64_t(t - base)) + 1);
    base = t;
}

uint64_t getTime(const uint8_t*& p, uint64_t& base)
{
    const uint64_t v = getVarint(p);
    if (v == 0)
        return kNoTime;
    base += uint64_t(unzigzag(v - 1));
    return base;
}

} // namespace

void ThreadTable::assign(std::span<const ThreadInfo> dense)
{
    m_bytes.clear();
    m_groupStarts.clear();
    m_labels.clear();
    m_size = dense.size();
    m_seen = 0;
    m_bytes.reserve(dense.size() * 28);
    m_groupStarts.reserve((dense.size() + kGroup - 1) / kGroup);
    uint64_t ref = 0;
    for (size_t id = 0; id < dense.size(); ++id) {
        if (id % kGroup == 0) {
            m_groupStarts.push_back(m_bytes.size());
            ref = 0;
        }
        const ThreadInfo& t = dense[id];
        m_bytes.push_back(uint8_t(t.seen));
        if (!t.seen)
            continue;
        ++m_seen;
        if (!t.label.empty())
            m_labels.emplace_back(uint32_t(id), t.label);
        uint64_t base = ref;
        putTime(m_bytes, base, t.created);
        if (t.created != kNoTime)
            ref = t.created;
        putTime(m_bytes, base, t.firstRun);
        putTime(m_bytes, base, t.lastStop);
        putTime(m_bytes, base, t.finished);
        putVarint(m_bytes, t.runTime);
        putVarint(m_bytes, uint16_t(t.createdOn + 1)); // (UINT16_MAX, none: 0)
        uint32_t mask = 0;
        int bit = 0;
        forEachCounter(t, [&](uint32_t n) { mask |= uint32_t(n != 0) << bit++; });
        putVarint(m_bytes, mask);
        forEachCounter(t, [&](uint32_t n) {
            if (n)
                putVarint(m_bytes, n);
        });
    }
    m_bytes.shrink_to_fit();
    m_groupStarts.shrink_to_fit();
    m_labels.shrink_to_fit();
}

void ThreadTable::decode(const uint8_t*& p, uint64_t& ref, size_t id, ThreadInfo& t) const
{
    t = ThreadInfo{};
    if (!*p++)
        return; // a gap
    t.seen = true;
    t.id = uint32_t(id);
    uint64_t base = ref;
    t.created = getTime(p, base);
    if (t.created != kNoTime)
        ref = t.created;
    t.firstRun = getTime(p, base);
    t.lastStop = getTime(p, base);
    t.finished = getTime(p, base);
    t.runTime = getVarint(p);
    t.createdOn = uint16_t(getVarint(p) - 1);
    const uint64_t mask = getVarint(p);
    int bit = 0;
    forEachCounter(t, [&](uint32_t& n) { n = mask >> bit++ & 1 ? uint32_t(getVarint(p)) : 0; });
    if (!m_labels.empty())
        t.label = labelOf(id);
}

ThreadInfo ThreadTable::operator[](size_t id) const
{
    Cursor c;
    ThreadInfo t;
    seek(c, id, t);
    return t;
}

ThreadInfo ThreadTable::at(size_t id) const
{
    if (id >= m_size)
        throw std::out_of_range("ThreadTable::at");
    return (*this)[id];
}

ThreadLabel ThreadTable::labelOf(size_t id) const
{
    const auto it = std::lower_bound(m_labels.begin(), m_labels.end(), uint32_t(id),
                                     [](const auto& e, uint32_t at) { return e.first < at; });
    return it != m_labels.end() && it->first == id ? it->second : ThreadLabel{};
}

size_t ThreadTable::memoryBytes() const
{
    return m_bytes.capacity() + m_groupStarts.capacity() * sizeof(uint64_t) + m_labels.capacity() * sizeof(m_labels[0]);
}

void ThreadTable::seek(Cursor& c, size_t id, ThreadInfo& out) const
{
    // (From its group's first: the reference time needs every one before.)
    c.at = m_bytes.data() + m_groupStarts[id / kGroup];
    c.ref = 0;
    for (size_t k = id - id % kGroup; k <= id; ++k)
        decode(c.at, c.ref, k, out);
}

void ThreadTable::next(Cursor& c, size_t id, ThreadInfo& out) const
{
    if (id % kGroup == 0)
        c.ref = 0;
    decode(c.at, c.ref, id, out);
}

size_t ThreadsPart::threadCount() const
{
    return threads.seenCount() + largeThreads.size();
}

std::optional<ThreadInfo> ThreadsPart::thread(uint32_t id) const
{
    if (id < threads.size()) {
        ThreadInfo t = threads[id];
        if (t.seen)
            return t;
    }
    const auto it = largeThreads.find(id);
    return it == largeThreads.end() ? std::nullopt : std::optional<ThreadInfo>(it->second);
}

ThreadLabel ThreadsPart::labelOf(uint32_t id) const
{
    if (const auto it = largeThreads.find(id); it != largeThreads.end())
        return it->second.label;
    return id < threads.size() ? threads.labelOf(id) : ThreadLabel{};
}

} // namespace hecscope
