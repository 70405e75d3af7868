#include "core/index/collectionspart.h"

#include "core/index/varint.h"

namespace hecscope {

namespace {

// Signed differences (zigzag): a time before the one it is counted from.
uint64_t zig(uint64_t from, uint64_t to)
{
    return zigzag(int64_t(to - from));
}

uint64_t unzig(uint64_t from, uint64_t z)
{
    return from + uint64_t(unzigzag(z));
}

// A time that may be kNoTime: 0 for none, else its difference + 1.
uint64_t optional(uint64_t from, uint64_t t)
{
    return t == kNoTime ? 0 : zig(from, t) + 1;
}

uint64_t unoptional(uint64_t from, uint64_t v)
{
    return v == 0 ? kNoTime : unzig(from, v - 1);
}

} // namespace

void CollectionList::assign(std::span<const Collection> all)
{
    clear();
    m_bytes.reserve(all.size() * 40);
    m_groupStarts.reserve((all.size() + kGroup - 1) / kGroup);
    for (const Collection& c : all)
        push_back(c);
    shrink_to_fit();
}

void CollectionList::clear()
{
    m_bytes.clear();
    m_groupStarts.clear();
    m_size = 0;
    m_lastStart = 0;
    m_maxGeneration = -1;
}

// Per collection: start (from the one before; a group's first from 0),
// end, leader's start and end, request and sync (from start), the six
// byte counts, generation + 1, GC threads, leader's and requester's
// capability + 1, capabilities, the three flags.
void CollectionList::push_back(const Collection& c)
{
    if (m_size % kGroup == 0) {
        m_groupStarts.push_back(m_bytes.size());
        m_lastStart = 0;
    }
    std::vector<uint8_t>& o = m_bytes;
    putVarint(o, zig(m_lastStart, c.start));
    putVarint(o, zig(c.start, c.end));
    putVarint(o, zig(c.start, c.leaderStart));
    putVarint(o, zig(c.leaderStart, c.leaderEnd));
    putVarint(o, optional(c.start, c.request));
    putVarint(o, optional(c.start, c.sync));
    for (const uint64_t bytes : {c.copied, c.slop, c.fragmentation, c.parMaxCopied, c.parTotCopied, c.parBalancedCopied})
        putVarint(o, bytes);
    putVarint(o, uint64_t(int64_t(c.generation) + 1)); // (-1: none)
    putVarint(o, c.parThreads);
    putVarint(o, uint16_t(c.leaderCap + 1)); // (UINT16_MAX: none, 0)
    putVarint(o, uint16_t(c.requestCap + 1));
    putVarint(o, c.caps);
    o.push_back(uint8_t(c.parallelRequest | c.hasStats << 1 | c.hasBalanced << 2));
    m_lastStart = c.start;
    m_maxGeneration = std::max(m_maxGeneration, c.generation);
    ++m_size;
}

Collection CollectionList::decode(const uint8_t*& p, uint64_t previousStart)
{
    Collection c;
    c.start = unzig(previousStart, getVarint(p));
    c.end = unzig(c.start, getVarint(p));
    c.leaderStart = unzig(c.start, getVarint(p));
    c.leaderEnd = unzig(c.leaderStart, getVarint(p));
    c.request = unoptional(c.start, getVarint(p));
    c.sync = unoptional(c.start, getVarint(p));
    for (uint64_t* bytes : {&c.copied, &c.slop, &c.fragmentation, &c.parMaxCopied, &c.parTotCopied, &c.parBalancedCopied})
        *bytes = getVarint(p);
    c.generation = int(int64_t(getVarint(p)) - 1);
    c.parThreads = uint32_t(getVarint(p));
    c.leaderCap = uint16_t(getVarint(p) - 1);
    c.requestCap = uint16_t(getVarint(p) - 1);
    c.caps = uint16_t(getVarint(p));
    const uint8_t flags = *p++;
    c.parallelRequest = flags & 1;
    c.hasStats = (flags >> 1) & 1;
    c.hasBalanced = (flags >> 2) & 1;
    return c;
}

Collection CollectionList::operator[](size_t i) const
{
    Cursor c;
    Collection out;
    seek(c, i, out);
    return out;
}

size_t CollectionList::firstStartingFrom(uint64_t t) const
{
    // The last group whose first starts before t, then along it.
    size_t lo = 0, hi = m_groupStarts.size();
    while (lo < hi) {
        const size_t mid = (lo + hi) / 2;
        const uint8_t* p = m_bytes.data() + m_groupStarts[mid];
        if (decode(p, 0).start < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t i = lo == 0 ? 0 : (lo - 1) * kGroup;
    for (auto it = at(i); i < m_size && it->start < t; ++it)
        ++i;
    return i;
}

std::vector<Collection> CollectionList::toVector() const
{
    return std::vector<Collection>(begin(), end());
}

void CollectionList::shrink_to_fit()
{
    m_bytes.shrink_to_fit();
    m_groupStarts.shrink_to_fit();
}

size_t CollectionList::memoryBytes() const
{
    return m_bytes.capacity() + m_groupStarts.capacity() * sizeof(uint64_t);
}

void CollectionList::seek(Cursor& c, size_t i, Collection& out) const
{
    c.at = m_bytes.data() + m_groupStarts[i / kGroup];
    uint64_t start = 0;
    for (size_t skip = i % kGroup; skip > 0; --skip)
        start = decode(c.at, start).start;
    out = decode(c.at, start);
}

void CollectionList::next(Cursor& c, size_t i, Collection& out) const
{
    // A group's first is counted from 0, the others from the one before.
    out = decode(c.at, i % kGroup == 0 ? 0 : out.start);
}

} // namespace hecscope
