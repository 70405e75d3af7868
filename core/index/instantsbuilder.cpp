#include "core/index/instantsbuilder.h"

#include "core/format/eventtags.h"

#include <algorithm>
#include <numeric>

namespace hecscope {

void CapInstants::append(uint64_t time, InstantKind kind, uint32_t arg, uint32_t other)
{
    const uint64_t cap = std::min<uint32_t>(other, kFarCap);
    if (!m_words.empty() && time < (m_words.back() & kMaxTime))
        m_sorted = false;
    m_words.push_back(time | uint64_t(kind) << 48 | cap << 56);
    m_args.push_back(arg);
}

std::pair<size_t, size_t> CapInstants::in(uint64_t t0, uint64_t t1) const
{
    // The first index at or after `from` whose time is not before t.
    const auto firstAt = [this](size_t from, uint64_t t) {
        size_t lo = from, hi = m_words.size();
        while (lo < hi) {
            const size_t mid = lo + (hi - lo) / 2;
            if ((m_words[mid] & kMaxTime) < t)
                lo = mid + 1;
            else
                hi = mid;
        }
        return lo;
    };
    const size_t a = firstAt(0, t0);
    return {a, firstAt(a, t1)};
}

void CapInstants::sortByTime()
{
    if (m_sorted)
        return;
    std::vector<uint32_t> order(m_words.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(),
                     [&](uint32_t a, uint32_t b) { return (m_words[a] & kMaxTime) < (m_words[b] & kMaxTime); });
    ChunkedArray<uint64_t> words;
    ChunkedArray<uint32_t> args;
    for (const uint32_t i : order) {
        words.push_back(m_words[i]);
        args.push_back(m_args[i]);
    }
    m_words = std::move(words);
    m_args = std::move(args);
    m_sorted = true;
}

void InstantsBuilder::consume(const Event& e, uint32_t running)
{
    InstantKind kind;
    uint32_t arg = running, other = 0;
    switch (e.tag) {
    case tag::SparkCreate: kind = InstantKind::SparkCreate; break;
    case tag::SparkRun: kind = InstantKind::SparkRun; break;
    case tag::SparkFizzle: kind = InstantKind::SparkFizzle; break;
    case tag::SparkSteal:
        kind = InstantKind::SparkSteal;
        other = uint32_t(e.n[0]);
        break;
    case tag::CreateThread:
        kind = InstantKind::ThreadCreate;
        arg = uint32_t(e.n[0]);
        break;
    case tag::ThreadWakeup:
        kind = InstantKind::Wakeup;
        arg = uint32_t(e.n[0]);
        other = uint32_t(e.n[1]);
        break;
    case tag::MigrateThread:
        kind = InstantKind::Migrate;
        arg = uint32_t(e.n[0]);
        other = uint32_t(e.n[1]);
        break;
    case tag::RequestSeqGc: kind = InstantKind::GcRequest; break;
    case tag::RequestParGc:
        kind = InstantKind::GcRequest;
        other = 1;
        break;
    default: return;
    }
    if (e.cap == kNoCap)
        return;
    if (e.time > CapInstants::kMaxTime) {
        ++m_part.farInstants;
        return;
    }
    if (m_part.instants.size() <= e.cap)
        m_part.instants.resize(size_t(e.cap) + 1);
    m_part.instants[e.cap].append(e.time, kind, arg, other);
    ++m_part.instantCounts[size_t(kind)];
}

} // namespace hecscope
