#pragma once

#include "core/index/timeline.h"

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace hecscope {

// Events that happen at an instant on a capability, drawn on its HEC row
// when zoomed in: what ThreadScope marks there.
enum class InstantKind : uint8_t {
    SparkCreate,  // SPARK_CREATE (-lf)
    SparkRun,     // SPARK_RUN
    SparkFizzle,  // SPARK_FIZZLE
    SparkSteal,   // SPARK_STEAL: other = the victim capability
    ThreadCreate, // CREATE_THREAD: arg = the new thread
    Wakeup,       // THREAD_WAKEUP: arg = the woken thread, other = its capability
    Migrate,      // MIGRATE_THREAD: arg = the thread, other = its new capability
    GcRequest,    // REQUEST_SEQ_GC (other 0) or REQUEST_PAR_GC (other 1)
};
constexpr int kInstantKinds = 8;
constexpr uint32_t kAllInstantKinds = (1u << kInstantKinds) - 1;

// Some instants of one capability (what a view reads back from the file,
// core/detail/instantdetail.h), in time order, 12 bytes each: time (ns, 48
// bits: 78 hours), kind and `other` (a capability, 255 when it does not
// fit) packed in one word, and `arg`: the thread the event is about, else
// the thread running on the capability (0: none).
class CapInstants {
public:
    static constexpr uint64_t kMaxTime = (uint64_t(1) << 48) - 1;
    static constexpr uint8_t kFarCap = 255;

    void append(uint64_t time, InstantKind kind, uint32_t arg, uint32_t other);
    size_t size() const { return m_words.size(); }
    uint64_t time(size_t i) const { return m_words[i] & kMaxTime; }
    InstantKind kind(size_t i) const { return InstantKind((m_words[i] >> 48) & 0xFF); }
    uint8_t other(size_t i) const { return uint8_t(m_words[i] >> 56); }
    uint32_t arg(size_t i) const { return m_args[i]; }
    // Indices [first, last) with times in [t0, t1).
    std::pair<size_t, size_t> in(uint64_t t0, uint64_t t1) const;
    // Stable sort by time (events of a capability come in time order but
    // for damaged logs); prepareForDrawing calls it.
    void sortByTime();
    size_t memoryBytes() const { return m_words.memoryBytes() + m_args.memoryBytes(); }

private:
    // In chunks: a live session's snapshots share them.
    ChunkedArray<uint64_t> m_words;
    ChunkedArray<uint32_t> m_args;
    bool m_sorted = true; // no instant earlier than the one before it
};

// Where to find a capability's instants again in the file: every
// kMarkEvery-th of them (in file order) by time and by the byte offset of
// its record, with the state reading on from there needs (the thread
// running on the capability, whether it is inside a collection: what
// SchedulerBuilder::runningThread would say). 24 bytes per kMarkEvery
// instants; the instants themselves are read back from the file for the
// range a view shows (core/detail/instantdetail.h).
struct InstantMark {
    uint64_t time = 0;   // ns
    uint64_t offset = 0; // of the instant's record
    uint32_t running = 0;
    bool inGc = false;
};

class CapInstantMarks {
public:
    static constexpr uint64_t kMarkEvery = 128;
    // Instants read back at once, and cached, as a unit: kUnitMarks marks'
    // worth (1024 instants).
    static constexpr uint64_t kUnitMarks = 8;
    static constexpr uint64_t kUnitInstants = kMarkEvery * kUnitMarks;

    // The next instant of this capability, in file order.
    void note(uint64_t time, uint64_t offset, uint32_t running, bool inGc);
    uint64_t count() const { return m_count; }
    // Every instant no earlier than the one before it (GHC's logs): time
    // ranges map to mark ranges. Else a view reads every unit and sorts.
    bool sorted() const { return m_sorted; }
    size_t marks() const { return m_marks.size(); }
    const InstantMark& mark(size_t i) const { return m_marks[i]; }
    uint64_t units() const { return (m_count + kUnitInstants - 1) / kUnitInstants; }
    // Instants in unit u (the last one may be short, and grow).
    uint64_t unitCount(uint64_t u) const { return std::min(kUnitInstants, m_count - std::min(m_count, u * kUnitInstants)); }
    // How many instants have times in [t0, t1): at least .first, at most
    // .second (exact to within two marks). Sorted capabilities only.
    std::pair<uint64_t, uint64_t> countBounds(uint64_t t0, uint64_t t1) const;
    // The units holding every instant with a time in [t0, t1): [first, last).
    std::pair<uint64_t, uint64_t> unitsFor(uint64_t t0, uint64_t t1) const;
    size_t memoryBytes() const { return m_marks.memoryBytes(); }

private:
    // Marks at or after `from` with time < t.
    size_t marksBefore(uint64_t t) const;

    ChunkedArray<InstantMark, 10> m_marks; // in chunks: a live session's snapshots share them
    uint64_t m_count = 0;
    uint64_t m_last = 0;
    bool m_sorted = true;
};

// What InstantsBuilder makes: indexed by capability number.
struct InstantsPart {
    std::vector<CapInstantMarks> instants;
    uint64_t instantCounts[kInstantKinds] = {}; // per kind, every capability
    uint64_t farInstants = 0;                   // after 78 hours: not kept
    // Every instant, only when the builder was asked to keep them (a test
    // comparing them with what is read back from the file).
    std::vector<CapInstants> keptInstants;

    size_t partBytes() const // (LogIndex::memoryBytes)
    {
        size_t bytes = 0;
        for (const CapInstantMarks& c : instants)
            bytes += sizeof(CapInstantMarks) + c.memoryBytes();
        for (const CapInstants& c : keptInstants)
            bytes += sizeof(CapInstants) + c.memoryBytes();
        return bytes;
    }
};

} // namespace hecscope
