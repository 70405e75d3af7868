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

// One capability's instants in time order, 12 bytes each: time (ns, 48
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

// What InstantsBuilder makes: indexed by capability number.
struct InstantsPart {
    std::vector<CapInstants> instants;
    uint64_t instantCounts[kInstantKinds] = {}; // per kind, every capability
    uint64_t farInstants = 0;                   // after 78 hours: not kept
};

} // namespace hecscope
