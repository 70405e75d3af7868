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

void CapInstantMarks::note(uint64_t time, uint64_t offset, uint32_t running, bool inGc)
{
    if (time < m_last)
        m_sorted = false;
    m_last = std::max(m_last, time);
    if (m_count % kMarkEvery == 0)
        m_marks.push_back({time, offset, running, inGc});
    ++m_count;
}

size_t CapInstantMarks::marksBefore(uint64_t t) const
{
    size_t lo = 0, hi = m_marks.size();
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (m_marks[mid].time < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

std::pair<uint64_t, uint64_t> CapInstantMarks::countBounds(uint64_t t0, uint64_t t1) const
{
    if (t1 <= t0 || m_count == 0)
        return {0, 0};
    // Instant k * kMarkEvery has mark k's time. With i marks before t0 and
    // j before t1: the first instant at or after t0 is in
    // ((i - 1) * M, i * M], the first at or after t1 in ((j - 1) * M, j * M].
    const uint64_t i = marksBefore(t0), j = marksBefore(t1);
    const auto firstAt = [this](uint64_t marksBeforeT) {
        const uint64_t lo = marksBeforeT == 0 ? 0 : (marksBeforeT - 1) * kMarkEvery + 1;
        const uint64_t hi = std::min(m_count, marksBeforeT * kMarkEvery);
        return std::pair{lo, hi};
    };
    const auto [a0, a1] = firstAt(i);
    const auto [b0, b1] = firstAt(j);
    return {b0 > a1 ? b0 - a1 : 0, b1 > a0 ? b1 - a0 : 0};
}

std::pair<uint64_t, uint64_t> CapInstantMarks::unitsFor(uint64_t t0, uint64_t t1) const
{
    if (!m_sorted)
        return {0, units()};
    if (t1 <= t0 || m_count == 0)
        return {0, 0};
    const uint64_t i = marksBefore(t0), j = marksBefore(t1);
    const uint64_t first = i == 0 ? 0 : (i - 1) * kMarkEvery; // at or before the first instant at or after t0
    const uint64_t end = std::min(m_count, j * kMarkEvery);   // at or after the first instant at or after t1
    if (end <= first)
        return {0, 0};
    return {first / kUnitInstants, (end + kUnitInstants - 1) / kUnitInstants};
}

bool InstantsBuilder::classify(const Event& e, uint32_t running, Instant& out)
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
    default: return false;
    }
    out = {kind, arg, other};
    return true;
}

void InstantsBuilder::consume(const Event& e)
{
    const uint32_t running = m_scheduler.runningThread(e.cap);
    const bool inGc = m_scheduler.inGc(e.cap);
    Instant in;
    if (!classify(e, running, in) || e.cap == kNoCap)
        return;
    if (e.time > CapInstants::kMaxTime) {
        ++m_part.farInstants;
        return;
    }
    if (m_part.instants.size() <= e.cap)
        m_part.instants.resize(size_t(e.cap) + 1);
    m_part.instants[e.cap].note(e.time, e.offset, running, inGc);
    ++m_part.instantCounts[size_t(in.kind)];
    if (m_keepAll) {
        if (m_part.keptInstants.size() <= e.cap)
            m_part.keptInstants.resize(size_t(e.cap) + 1);
        m_part.keptInstants[e.cap].append(e.time, in.kind, in.arg, in.other);
    }
}

} // namespace hecscope
