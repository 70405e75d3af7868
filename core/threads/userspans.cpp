#include "core/threads/userspans.h"

#include "core/index/logindex.h"
#include "core/text/units.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string_view>
#include <unordered_map>

namespace hecscope {

namespace {

struct NameHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

// Counting sort of span indices by key, keeping start order inside a key.
void group(size_t keys, const std::vector<UserSpan>& spans, auto key, std::vector<uint32_t>& order,
           std::vector<uint32_t>& offsets)
{
    offsets.assign(keys + 1, 0);
    for (const UserSpan& s : spans)
        ++offsets[key(s) + 1];
    for (size_t k = 1; k <= keys; ++k)
        offsets[k] += offsets[k - 1];
    order.resize(spans.size());
    std::vector<uint32_t> next(offsets.begin(), offsets.end() - 1);
    for (size_t i = 0; i < spans.size(); ++i)
        order[next[key(spans[i])]++] = uint32_t(i);
}

} // namespace

std::shared_ptr<const UserSpans> pairUserSpans(const LogIndex& ix, const SpanRules& rules,
                                               const std::function<bool()>& cancelled)
{
    auto out = std::make_shared<UserSpans>();
    out->rules = rules;
    std::unordered_map<std::string, uint32_t, NameHash, std::equal_to<>> nameIds;
    std::unordered_map<uint32_t, std::vector<uint32_t>> open; // per thread: open spans, innermost last
    const auto nameId = [&](std::string_view name) {
        const auto it = nameIds.find(name);
        if (it != nameIds.end())
            return it->second;
        const uint32_t id = uint32_t(out->names.size());
        out->names.emplace_back(name);
        nameIds.emplace(std::string(name), id);
        return id;
    };
    const bool empty = rules.start.empty() || rules.stop.empty();
    size_t seen = 0;
    for (uint32_t m : ix.messagesByTime) {
        if ((++seen & 0xFFFF) == 0 && cancelled && cancelled())
            return nullptr;
        const Message& msg = ix.messages[m];
        if (empty || !(msg.kind == Message::User || (msg.kind == Message::Marker && rules.markers)))
            continue;
        const std::string_view text = ix.textOf(msg.text);
        if (text.starts_with(rules.start)) {
            std::vector<uint32_t>& stack = open[msg.thread];
            UserSpan s;
            s.start = s.end = msg.time;
            s.name = nameId(text.substr(rules.start.size()));
            s.thread = msg.thread;
            s.parent = stack.empty() ? UINT32_MAX : stack.back();
            s.depth = uint16_t(std::min<size_t>(stack.size(), UINT16_MAX));
            s.flags = msg.kind == Message::Marker ? UserSpan::FromMarker : 0;
            stack.push_back(uint32_t(out->spans.size()));
            out->spans.push_back(s);
        } else if (text.starts_with(rules.stop)) {
            const std::string_view name = text.substr(rules.stop.size());
            const auto known = nameIds.find(name);
            std::vector<uint32_t>* stack = nullptr;
            if (const auto it = open.find(msg.thread); it != open.end())
                stack = &it->second;
            bool closed = false;
            if (known != nameIds.end() && stack)
                for (size_t k = stack->size(); k-- > 0;)
                    if (out->spans[(*stack)[k]].name == known->second) {
                        out->spans[(*stack)[k]].end = msg.time;
                        stack->erase(stack->begin() + ptrdiff_t(k));
                        closed = true;
                        break;
                    }
            if (!closed)
                out->issues.push_back({msg.time, msg.thread, nameId(name), SpanIssue::StopWithoutStart});
        }
    }
    // Spans still open end with the log.
    const uint64_t end = ix.lastTime;
    for (auto& [thread, stack] : open)
        for (uint32_t i : stack) {
            UserSpan& s = out->spans[i];
            s.end = std::max(s.start, end);
            s.flags |= UserSpan::OpenAtEnd;
            out->issues.push_back({s.start, s.thread, s.name, SpanIssue::OpenAtEnd});
        }
    std::stable_sort(out->issues.begin(), out->issues.end(),
                     [](const SpanIssue& a, const SpanIssue& b) { return a.time < b.time; });
    if (cancelled && cancelled())
        return nullptr;

    // Self time: a span's duration minus its children's, each clipped to it.
    std::vector<uint64_t> children(out->spans.size(), 0);
    for (const UserSpan& s : out->spans)
        if (s.parent != UINT32_MAX) {
            const UserSpan& p = out->spans[s.parent];
            const uint64_t a = std::max(s.start, p.start), b = std::min(s.end, p.end);
            if (b > a)
                children[s.parent] += b - a;
        }
    for (size_t i = 0; i < out->spans.size(); ++i) {
        UserSpan& s = out->spans[i];
        s.self = s.duration() > children[i] ? s.duration() - children[i] : 0;
        out->maxDepth = std::max(out->maxDepth, s.depth);
    }
    group(out->names.size(), out->spans, [](const UserSpan& s) { return s.name; }, out->byName, out->nameOffsets);
    for (const auto& [thread, _] : open)
        out->threadIds.push_back(thread);
    std::sort(out->threadIds.begin(), out->threadIds.end());
    const auto threadKey = [&](const UserSpan& s) {
        return uint32_t(std::lower_bound(out->threadIds.begin(), out->threadIds.end(), s.thread) - out->threadIds.begin());
    };
    group(out->threadIds.size(), out->spans, threadKey, out->byThread, out->threadOffsets);
    // Per (thread, level): counting sort of byThread's order, which keeps starts in order.
    constexpr size_t L = UserSpans::kLevels;
    out->levelOffsets.assign(out->threadIds.size() * L + 1, 0);
    const auto levelOf = [](const UserSpan& s) { return std::min<size_t>(s.depth, UserSpans::kLevels - 1); };
    for (size_t t = 0; t < out->threadIds.size(); ++t)
        for (uint32_t j = out->threadOffsets[t]; j < out->threadOffsets[t + 1]; ++j)
            ++out->levelOffsets[t * L + levelOf(out->spans[out->byThread[j]]) + 1];
    for (size_t g = 1; g < out->levelOffsets.size(); ++g)
        out->levelOffsets[g] += out->levelOffsets[g - 1];
    out->levelExtents.resize(out->spans.size());
    out->levelMaxEnd.resize(out->spans.size());
    {
        std::vector<uint32_t> next(out->levelOffsets.begin(), out->levelOffsets.end() - 1);
        for (size_t t = 0; t < out->threadIds.size(); ++t)
            for (uint32_t j = out->threadOffsets[t]; j < out->threadOffsets[t + 1]; ++j) {
                const uint32_t i = out->byThread[j];
                const UserSpan& s = out->spans[i];
                out->levelExtents[next[t * L + levelOf(s)]++] = {s.start, s.end, s.name, i};
            }
        for (size_t g = 0; g + 1 < out->levelOffsets.size(); ++g) {
            uint64_t running = 0;
            for (uint32_t k = out->levelOffsets[g]; k < out->levelOffsets[g + 1]; ++k)
                out->levelMaxEnd[k] = running = std::max(running, out->levelExtents[k].end);
        }
    }
    out->threadOverviews.assign(out->threadIds.size(), {});
    for (size_t t = 0; t < out->threadIds.size(); ++t) {
        const size_t n = out->threadOffsets[t + 1] - out->threadOffsets[t];
        if (n < 64)
            continue;
        BinPyramid& ov = out->threadOverviews[t];
        ov.start = out->spans[out->byThread[out->threadOffsets[t]]].start;
        uint64_t lastEnd = ov.start; // the latest end of the thread's spans: of its levels' running maxima
        for (size_t level = 0; level < L; ++level)
            if (const uint32_t g = out->levelOffsets[t * L + level + 1]; g > out->levelOffsets[t * L + level])
                lastEnd = std::max(lastEnd, out->levelMaxEnd[g - 1]);
        const uint64_t extent = std::max<uint64_t>(lastEnd - ov.start, 1);
        ov.bins = uint32_t(std::min<size_t>(size_t(1) << 16, n / 2));
        ov.binWidth = std::max<uint64_t>(1, (extent + ov.bins - 1) / ov.bins);
        ov.bins = uint32_t(std::min<uint64_t>(ov.bins, (extent + ov.binWidth - 1) / ov.binWidth));
        ov.levels = BinPyramid::levelsFor(ov.bins);
        ov.offset = out->overviewNames.size();
        out->overviewNames.resize(out->overviewNames.size() + ov.totalBins() * L, 0);
        uint32_t* names = out->overviewNames.data() + ov.offset;
        for (size_t level = 0; level < L; ++level)
            for (uint32_t k = out->levelOffsets[t * L + level]; k < out->levelOffsets[t * L + level + 1]; ++k) {
                const UserSpans::Extent& e = out->levelExtents[k];
                const uint64_t b0 = (e.start - ov.start) / ov.binWidth;
                const uint64_t b1 = std::min<uint64_t>((std::max(e.end, e.start + 1) - 1 - ov.start) / ov.binWidth, ov.bins - 1);
                for (uint64_t b = b0; b <= b1; ++b)
                    if (!names[b * L + level])
                        names[b * L + level] = e.name + 1;
            }
        // Each coarser bin: the first name found in its pair.
        for (int lv = 1; lv < ov.levels; ++lv) {
            const uint32_t* finer = names + ov.levelOffset(lv - 1) * L;
            uint32_t* here = names + ov.levelOffset(lv) * L;
            const uint64_t finerBins = ov.levelBins(lv - 1);
            for (uint64_t b = 0; b < ov.levelBins(lv); ++b)
                for (size_t level = 0; level < L; ++level) {
                    const uint32_t a = finer[2 * b * L + level];
                    here[b * L + level] = a ? a : (2 * b + 1 < finerBins ? finer[(2 * b + 1) * L + level] : 0);
                }
        }
    }
    out->nameExtents.resize(out->byName.size());
    for (size_t k = 0; k < out->byName.size(); ++k)
        out->nameExtents[k] = {out->spans[out->byName[k]].start, out->spans[out->byName[k]].end};
    out->nameMaxEnd.resize(out->byName.size());
    for (size_t n = 0; n < out->names.size(); ++n) {
        uint64_t running = 0;
        for (uint32_t k = out->nameOffsets[n]; k < out->nameOffsets[n + 1]; ++k)
            out->nameMaxEnd[k] = running = std::max(running, out->nameExtents[k].second);
    }
    out->nameMaxDuration.assign(out->names.size(), 0);
    std::vector<uint64_t> totals(out->names.size(), 0);
    for (const UserSpan& s : out->spans) {
        out->nameMaxDuration[s.name] = std::max(out->nameMaxDuration[s.name], s.duration());
        if (!(s.flags & UserSpan::OpenAtEnd)) // as spanFigures: a span never stopped has no duration
            totals[s.name] += s.duration();
    }
    for (uint32_t k = 0; k < out->names.size(); ++k)
        if (out->nameOffsets[k + 1] > out->nameOffsets[k]) // not names only ever stopped
            out->namesByTotal.push_back(k);
    std::stable_sort(out->namesByTotal.begin(), out->namesByTotal.end(),
                     [&](uint32_t a, uint32_t b) { return totals[a] > totals[b]; });
    return out;
}

std::pair<const uint32_t*, const uint32_t*> UserSpans::ofThread(uint32_t id) const
{
    const auto it = std::lower_bound(threadIds.begin(), threadIds.end(), id);
    if (it == threadIds.end() || *it != id)
        return {nullptr, nullptr};
    const size_t k = size_t(it - threadIds.begin());
    return {byThread.data() + threadOffsets[k], byThread.data() + threadOffsets[k + 1]};
}

size_t UserSpans::memoryBytes() const
{
    size_t bytes = sizeof(UserSpans) + spans.capacity() * sizeof(UserSpan) + issues.capacity() * sizeof(SpanIssue)
        + (byName.capacity() + nameOffsets.capacity() + threadIds.capacity() + byThread.capacity()
           + threadOffsets.capacity())
            * sizeof(uint32_t)
        + nameMaxDuration.capacity() * sizeof(uint64_t)
        + levelOffsets.capacity() * sizeof(uint32_t) + levelExtents.capacity() * sizeof(Extent)
        + (levelMaxEnd.capacity() + nameMaxEnd.capacity()) * sizeof(uint64_t) + nameExtents.capacity() * sizeof(nameExtents[0])
        + threadOverviews.capacity() * sizeof(BinPyramid) + overviewNames.capacity() * sizeof(uint32_t);
    for (const std::string& n : names)
        bytes += sizeof(std::string) + n.capacity();
    return bytes;
}

std::vector<uint32_t> spansOfName(const UserSpans& spans, uint32_t name, std::optional<ViewRange> range)
{
    if (name + 1 >= spans.nameOffsets.size())
        return {};
    const uint32_t* first = spans.byName.data() + spans.nameOffsets[name];
    const uint32_t* last = spans.byName.data() + spans.nameOffsets[name + 1];
    if (range) {
        const auto startOf = [&](uint32_t i) { return spans.spans[i].start; };
        first = std::lower_bound(first, last, range->start, [&](uint32_t i, uint64_t t) { return startOf(i) < t; });
        last = std::lower_bound(first, last, range->end, [&](uint32_t i, uint64_t t) { return startOf(i) < t; });
    }
    return std::vector<uint32_t>(first, last);
}

std::vector<SpanNameFigures> spanFigures(const UserSpans& spans, std::optional<ViewRange> range,
                                         const std::function<bool()>& cancelled)
{
    std::vector<SpanNameFigures> out;
    std::vector<uint64_t> durations;
    for (uint32_t name = 0; name < spans.names.size(); ++name) {
        if (cancelled && cancelled())
            return {};
        const std::vector<uint32_t> members = spansOfName(spans, name, range);
        if (members.empty())
            continue;
        SpanNameFigures f;
        f.name = name;
        durations.clear();
        for (uint32_t i : members) {
            const UserSpan& s = spans.spans[i];
            if (s.flags & UserSpan::OpenAtEnd) {
                ++f.open;
                continue;
            }
            ++f.count;
            f.total += s.duration();
            f.self += s.self;
            f.max = std::max(f.max, s.duration());
            durations.push_back(s.duration());
        }
        if (f.count == 0) {
            out.push_back(f);
            continue;
        }
        f.mean = f.total / f.count;
        const auto rank = [&](double p) {
            size_t k = size_t(std::ceil(p * double(durations.size())));
            k = std::clamp<size_t>(k, 1, durations.size()) - 1;
            std::nth_element(durations.begin(), durations.begin() + ptrdiff_t(k), durations.end());
            return durations[k];
        };
        f.p50 = rank(0.50);
        f.p95 = rank(0.95);
        out.push_back(f);
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const SpanNameFigures& a, const SpanNameFigures& b) { return a.total > b.total; });
    return out;
}

std::string spanFiguresText(const UserSpans& spans, const std::vector<SpanNameFigures>& figures, size_t maxRows)
{
    const auto dur = [](uint64_t ns) { return formatDuration(ns, UnitStyle::Ascii); };
    std::string out;
    char line[512];
    std::snprintf(line, sizeof line, "%-24s %8s %11s %11s %11s %11s %11s %11s\n", "name", "count", "total", "self",
                  "mean", "p50", "p95", "max");
    out += line;
    size_t shown = 0;
    bool open = false;
    for (const SpanNameFigures& f : figures) {
        if (maxRows && shown++ == maxRows) {
            std::snprintf(line, sizeof line, "(%zu more names: see the Spans pane)\n", figures.size() - maxRows);
            out += line;
            break;
        }
        open = open || f.open;
        // A name with no stopped span has no durations to show.
        const auto figure = [&](uint64_t ns) { return f.count ? dur(ns) : std::string("-"); };
        std::snprintf(line, sizeof line, "%-24s %8llu %11s %11s %11s %11s %11s %11s%s\n", spans.names[f.name].c_str(),
                      static_cast<unsigned long long>(f.count), figure(f.total).c_str(), figure(f.self).c_str(),
                      figure(f.mean).c_str(), figure(f.p50).c_str(), figure(f.p95).c_str(), figure(f.max).c_str(),
                      f.open ? ("  +" + std::to_string(f.open) + " never stopped").c_str() : "");
        out += line;
    }
    if (open)
        out += "(never stopped: a START without a STOP; the end of the log is not its end, so it is left out of the figures)\n";
    return out;
}

} // namespace hecscope
