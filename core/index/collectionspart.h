#pragma once

#include "core/index/packediterator.h"
#include "core/time/timestamp.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <span>
#include <vector>

namespace hecscope {

// One garbage collection, from the capabilities' GC_START/GC_END spans
// grouped by overlap, with the request, global sync and GC_STATS_GHC that
// belong to it. Times in ns.
struct Collection {
    // (Ordered by size: 112 bytes; a log may have millions.)
    uint64_t start = 0; // earliest GC_START
    uint64_t end = 0;   // latest GC_END
    // The collection as its leader saw it (the capability that wrote
    // GC_GLOBAL_SYNC, else GC_STATS_GHC): the pause +RTS -s and ThreadScope
    // report. [start, end] when no leader is known.
    uint64_t leaderStart = 0, leaderEnd = 0;
    uint64_t request = kNoTime;
    uint64_t sync = kNoTime; // GC_GLOBAL_SYNC
    uint64_t copied = 0, slop = 0, fragmentation = 0;
    uint64_t parMaxCopied = 0, parTotCopied = 0, parBalancedCopied = 0;
    int generation = -1;
    uint32_t parThreads = 0;
    uint16_t leaderCap = UINT16_MAX;
    uint16_t requestCap = UINT16_MAX;
    uint16_t caps = 0; // capabilities that took part
    bool parallelRequest : 1 = false;
    bool hasStats : 1 = false;
    bool hasBalanced : 1 = false;

    uint64_t pause() const { return leaderEnd - leaderStart; }
    // As GHC counts it: more than one GC thread (GC_STATS_GHC).
    bool parallel() const { return parThreads > 1; }
};

// The collections as the index keeps them: about 23 bytes each where a
// Collection takes 112 (a log may have millions: a synthesized 1 GB log
// has 450,000). Each is a run of LEB128 varints, most of them small
// differences (its start from the one before, the first of every 16 from
// 0; its end and leader's span from its start, its request and sync from
// its start), collection after collection, with where every 16th starts.
// Read by value: an index decodes up to 15 collections before it;
// iterating decodes each once. Written by CollectionsBuilder (assign).
class CollectionList {
public:
    CollectionList() = default;
    explicit CollectionList(std::span<const Collection> all) { assign(all); }
    void assign(std::span<const Collection> all);
    void push_back(const Collection& c);
    void clear();
    size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    Collection operator[](size_t i) const;
    Collection front() const { return (*this)[0]; }
    Collection back() const { return (*this)[m_size - 1]; }
    std::vector<Collection> toVector() const;
    // The oldest generation collected (-1: none known).
    int maxGeneration() const { return m_maxGeneration; }
    void shrink_to_fit();
    size_t memoryBytes() const;
    bool operator==(const CollectionList&) const = default;

    // Forward, each collection decoded once.
    using iterator = PackedIterator<CollectionList, Collection>;
    iterator at(size_t i) const { return iterator(this, std::min(i, m_size)); }
    // The first collection starting at or after t (size() if none): they
    // are in order of their start (CollectionsBuilder sorts them).
    size_t firstStartingFrom(uint64_t t) const;
    iterator begin() const { return iterator(this, 0); }
    iterator end() const { return iterator(this, m_size); }

private:
    friend iterator;
    struct Cursor {
        const uint8_t* at = nullptr; // the next collection's bytes
    };
    void seek(Cursor& c, size_t i, Collection& out) const;
    void next(Cursor& c, size_t i, Collection& out) const;
    static constexpr size_t kGroup = 16;
    // Decodes the collection at `p` (after one starting at `previousStart`).
    static Collection decode(const uint8_t*& p, uint64_t previousStart);
    std::vector<uint8_t> m_bytes;
    std::vector<uint64_t> m_groupStarts; // where collection g * kGroup starts in m_bytes
    size_t m_size = 0;
    uint64_t m_lastStart = 0; // (push_back's: the start the next is a difference from)
    int m_maxGeneration = -1;
};

// What CollectionsBuilder makes: the collections in order of their start.
struct CollectionsPart {
    CollectionList collections;

    // Bytes held beyond the part itself (LogIndex::memoryBytes adds every part's).
    size_t partBytes() const { return collections.memoryBytes(); }
};

} // namespace hecscope
