#include "core/heap/hpfile.h"

#include <charconv>
#include <cmath>
#include <unordered_map>

namespace hecscope {

bool looksLikeHeapProfile(std::span<const uint8_t> head)
{
    const std::string_view s(reinterpret_cast<const char*>(head.data()), head.size());
    return s.starts_with("JOB ") || s.starts_with("JOB\t");
}

namespace {

std::string_view trim(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

std::string unquote(std::string_view s)
{
    s = trim(s);
    if (s.size() >= 2 && s.front() == '"' && s.back() == '"')
        s = s.substr(1, s.size() - 2);
    return std::string(s);
}

std::optional<double> parseNumber(std::string_view s)
{
    s = trim(s);
    double v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v) || v < 0)
        return std::nullopt;
    return v;
}

// A byte count: digits only, at most 2^64 - 1.
std::optional<uint64_t> parseCount(std::string_view s)
{
    s = trim(s);
    uint64_t v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || s.empty())
        return std::nullopt;
    return v;
}

// Nanoseconds per SAMPLE_UNIT; GHC always writes "seconds".
std::optional<double> unitScale(std::string_view unit)
{
    if (unit == "seconds" || unit == "s" || unit == "sec")
        return 1e9;
    if (unit == "milliseconds" || unit == "ms")
        return 1e6;
    if (unit == "microseconds" || unit == "us")
        return 1e3;
    if (unit == "nanoseconds" || unit == "ns")
        return 1.0;
    return std::nullopt;
}

} // namespace

std::unique_ptr<LogIndex> parseHeapProfile(std::string_view text)
{
    auto ix = std::make_unique<LogIndex>();
    HpHeader& header = ix->hpFile.emplace();
    HeapProfileData& hp = ix->heapProfile;
    hp.present = true;
    std::unordered_map<std::string, uint32_t> labels;
    std::vector<uint64_t> entryOf; // per label: its sample in the open census
    double scale = 1e9;
    bool open = false;
    uint64_t openOffset = 0;
    size_t labelsAtOpen = 0; // labels before the open sample
    uint64_t complete = 0;
    auto fail = [&](DiagnosticKind kind, uint64_t offset, std::string detail) {
        ix->scan.diagnostics.push_back({kind, offset, complete, std::move(detail)});
        ix->scan.hasError = ix->scan.hasError || kind == DiagnosticKind::HpMalformed;
        ix->scan.truncated = ix->scan.truncated || kind == DiagnosticKind::HpIncompleteSample;
    };
    // Times beyond 2^63 ns (292 years) are not times.
    auto toNs = [&](std::optional<double> v) -> std::optional<uint64_t> {
        if (!v || *v * scale >= 9.2e18)
            return std::nullopt;
        return uint64_t(std::llround(*v * scale));
    };
    auto mark = [&](uint64_t t) {
        const std::string_view name = "MARK";
        ix->messages.push_back({t, UINT16_MAX, Message::Marker, TextRef{ix->text.size(), uint32_t(name.size())}});
        ix->text.append(name);
    };

    size_t pos = 0;
    bool stopped = false;
    while (pos < text.size() && !stopped) {
        const size_t eol = text.find('\n', pos);
        const size_t end = eol == std::string_view::npos ? text.size() : eol;
        const uint64_t offset = pos;
        const std::string_view line = trim(text.substr(pos, end - pos));
        pos = end + 1;
        if (line.empty())
            continue;
        const size_t space = line.find_first_of(" \t");
        const std::string_view word = line.substr(0, space);
        const std::string_view rest = space == std::string_view::npos ? std::string_view() : line.substr(space + 1);
        // A last line without its newline is still being written: only a
        // complete END_SAMPLE there counts; anything else is the cut (an
        // open sample is then dropped as incomplete).
        if (eol == std::string_view::npos && !(word == "END_SAMPLE" && open && parseNumber(rest))) {
            if (!open) // cut between samples (in a BEGIN_SAMPLE or MARK line)
                fail(DiagnosticKind::HpIncompleteSample, offset, "line");
            break;
        }
        auto bad = [&](const std::string& what) {
            fail(DiagnosticKind::HpMalformed, offset, what + ": \"" + std::string(line.substr(0, 80)) + "\"");
            stopped = true;
        };
        if (!open && word == "JOB") {
            header.job = unquote(rest);
        } else if (!open && word == "DATE") {
            header.date = unquote(rest);
        } else if (!open && word == "SAMPLE_UNIT") {
            header.sampleUnit = unquote(rest);
            const auto s = unitScale(header.sampleUnit);
            if (!s)
                bad("unknown SAMPLE_UNIT");
            else
                scale = *s;
        } else if (!open && word == "VALUE_UNIT") {
            header.valueUnit = unquote(rest);
        } else if (word == "MARK") { // GHC writes them between samples; anywhere is read
            const auto t = toNs(parseNumber(rest));
            if (!t)
                bad("MARK without a time");
            else
                mark(*t);
        } else if (word == "BEGIN_SAMPLE") {
            const auto t = toNs(parseNumber(rest));
            if (open)
                bad("BEGIN_SAMPLE inside a sample");
            else if (!t)
                bad("BEGIN_SAMPLE without a time");
            else {
                Census c;
                c.time = *t;
                labelsAtOpen = hp.labels.size();
                c.firstSample = hp.samples.size();
                hp.censuses.push_back(c);
                open = true;
                openOffset = offset;
            }
        } else if (word == "END_SAMPLE") {
            if (!open) {
                bad("END_SAMPLE without BEGIN_SAMPLE");
            } else {
                hp.censuses.back().endTime = hp.censuses.back().time;
                open = false;
                ++complete;
            }
        } else if (open) {
            // <band>\t<bytes>; bands can hold spaces, so split at the last blank.
            const size_t split = line.find_last_of(" \t");
            const auto bytes = split == std::string_view::npos ? std::nullopt : parseCount(line.substr(split + 1));
            if (!bytes) {
                bad("a sample line without a byte count");
                break;
            }
            const std::string label(trim(line.substr(0, split)));
            auto [it, inserted] = labels.try_emplace(label, uint32_t(hp.labels.size()));
            if (inserted) {
                hp.labels.push_back(label);
                hp.stacks.emplace_back();
                entryOf.push_back(UINT64_MAX);
            }
            Census& c = hp.censuses.back();
            const uint64_t v = *bytes;
            uint64_t& entry = entryOf[it->second];
            if (entry != UINT64_MAX && entry >= c.firstSample) {
                hp.samples[entry].bytes += v;
                ++hp.repeatedLabels;
            } else {
                entry = hp.samples.size();
                hp.samples.push_back({it->second, v});
                ++c.count;
            }
            c.total += v;
        } else {
            bad("not a heap-profile line");
        }
    }
    if (open) {
        // Drop the unfinished census and its samples.
        hp.samples.resize(hp.censuses.back().firstSample);
        hp.censuses.pop_back();
        hp.labels.resize(labelsAtOpen); // bands only that sample had
        hp.stacks.resize(labelsAtOpen);
        if (!stopped)
            fail(DiagnosticKind::HpIncompleteSample, openOffset, {});
    }
    ix->scan.bytes = text.size();
    ix->scan.events = complete;
    for (const Census& c : hp.censuses) {
        ix->firstTime = std::min(ix->firstTime, c.time);
        ix->lastTime = std::max(ix->lastTime, c.time);
    }
    for (const Message& m : ix->messages) {
        ix->firstTime = std::min(ix->firstTime, m.time);
        ix->lastTime = std::max(ix->lastTime, m.time);
    }
    if (ix->firstTime == kNoTime)
        ix->firstTime = ix->lastTime = 0;
    prepareForDrawing(*ix);
    return ix;
}

} // namespace hecscope
