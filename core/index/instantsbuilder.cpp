#include "core/index/instantsbuilder.h"

#include "core/format/eventtags.h"

#include <algorithm>
#include <numeric>

namespace hecscope {

void CapInstants::append(uint64_t time, InstantKind kind, uint32_t arg, uint32_t other)
{
    const uint64_t cap = std::min<uint32_t>(other, kFarCap);
    m_words.push_back(time | uint64_t(kind) << 48 | cap << 56);
    m_args.push_back(arg);
}

std::pair<size_t, size_t> CapInstants::in(uint64_t t0, uint64_t t1) const
{
    auto before = [](uint64_t word, uint64_t t) { return (word & kMaxTime) < t; };
    const auto a = std::lower_bound(m_words.begin(), m_words.end(), t0, before);
    const auto b = std::lower_bound(a, m_words.end(), t1, before);
    return {size_t(a - m_words.begin()), size_t(b - m_words.begin())};
}

void CapInstants::sortByTime()
{
    // Growth leaves up to half the capacity unused: give it back once the
    // slack is worth a copy (wake-ups alone are millions on busy logs).
    if (m_words.capacity() > m_words.size() + m_words.size() / 4 + 1024) {
        m_words.shrink_to_fit();
        m_args.shrink_to_fit();
    }
    auto earlier = [](uint64_t a, uint64_t b) { return (a & kMaxTime) < (b & kMaxTime); };
    if (std::is_sorted(m_words.begin(), m_words.end(), earlier))
        return;
    std::vector<uint32_t> order(m_words.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return earlier(m_words[a], m_words[b]); });
    std::vector<uint64_t> words(m_words.size());
    std::vector<uint32_t> args(m_args.size());
    for (size_t i = 0; i < order.size(); ++i) {
        words[i] = m_words[order[i]];
        args[i] = m_args[order[i]];
    }
    m_words = std::move(words);
    m_args = std::move(args);
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
