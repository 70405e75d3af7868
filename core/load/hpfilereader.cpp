#include "core/load/hpfilereader.h"

#include "core/load/preparefordrawing.h"

#include <charconv>
#include <cmath>

namespace hecscope {
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

HpFileReader::HpFileReader()
    : m_ix(std::make_unique<LogIndex>())
{
    m_ix->hpFile.emplace();
    m_ix->heapProfile.present = true;
}

void HpFileReader::fail(DiagnosticKind kind, uint64_t offset, std::string detail)
{
    LogScan& scan = m_ix->scan;
    scan.diagnostics.push_back({kind, offset, m_complete, std::move(detail)});
    scan.hasError = scan.hasError || kind == DiagnosticKind::HpMalformed;
    scan.truncated = scan.truncated || kind == DiagnosticKind::HpIncompleteSample;
}

void HpFileReader::feed(std::string_view chunk)
{
    const uint64_t base = m_bytes;
    m_bytes += chunk.size();
    if (m_done)
        return;
    size_t pos = 0;
    if (!m_tail.empty() || m_tailOffset != base) {
        // Finish the line begun in an earlier chunk.
        const size_t eol = chunk.find('\n');
        if (eol == std::string_view::npos) {
            m_tail.append(chunk);
            return;
        }
        m_tail.append(chunk.substr(0, eol));
        readTerminated(m_tail, m_tailOffset);
        m_tail.clear();
        pos = eol + 1;
    }
    while (pos < chunk.size() && !m_done) {
        const size_t eol = chunk.find('\n', pos);
        if (eol == std::string_view::npos)
            break;
        readTerminated(chunk.substr(pos, eol - pos), base + pos);
        pos = eol + 1;
    }
    // The rest begins a line that a later chunk (or finish) ends.
    m_tailOffset = base + pos;
    if (!m_done && pos < chunk.size())
        m_tail.assign(chunk.substr(pos));
}

void HpFileReader::readTerminated(std::string_view text, uint64_t offset)
{
    readLine(text, offset, true);
    if (!m_open && !m_done)
        m_settled = offset + text.size() + 1;
}

void HpFileReader::readLine(std::string_view text, uint64_t offset, bool terminated)
{
    HpHeader& header = *m_ix->hpFile;
    HeapProfileData& hp = m_ix->heapProfile;
    const std::string_view line = trim(text);
    if (line.empty())
        return;
    const size_t space = line.find_first_of(" \t");
    const std::string_view word = line.substr(0, space);
    const std::string_view rest = space == std::string_view::npos ? std::string_view() : line.substr(space + 1);
    // A last line without its newline is still being written: only a
    // complete END_SAMPLE there counts; anything else is the cut (an open
    // sample is then dropped as incomplete).
    if (!terminated && !(word == "END_SAMPLE" && m_open && parseNumber(rest))) {
        if (!m_open) // cut between samples (in a BEGIN_SAMPLE or MARK line)
            fail(DiagnosticKind::HpIncompleteSample, offset, "line");
        m_done = true;
        return;
    }
    auto bad = [&](const std::string& what) {
        fail(DiagnosticKind::HpMalformed, offset, what + ": \"" + std::string(line.substr(0, 80)) + "\"");
        m_stopped = m_done = true;
    };
    // Times beyond 2^63 ns (292 years) are not times.
    auto toNs = [&](std::optional<double> v) -> std::optional<uint64_t> {
        if (!v || *v * m_scale >= 9.2e18)
            return std::nullopt;
        return uint64_t(std::llround(*v * m_scale));
    };
    if (!m_open && word == "JOB") {
        header.job = unquote(rest);
    } else if (!m_open && word == "DATE") {
        header.date = unquote(rest);
    } else if (!m_open && word == "SAMPLE_UNIT") {
        header.sampleUnit = unquote(rest);
        const auto s = unitScale(header.sampleUnit);
        if (!s)
            bad("unknown SAMPLE_UNIT");
        else
            m_scale = *s;
    } else if (!m_open && word == "VALUE_UNIT") {
        header.valueUnit = unquote(rest);
    } else if (word == "MARK") { // GHC writes them between samples; anywhere is read
        const auto t = toNs(parseNumber(rest));
        if (!t) {
            bad("MARK without a time");
        } else {
            const std::string_view name = "MARK";
            m_ix->messages.push_back(
                {*t, UINT16_MAX, Message::Marker, 0, TextRef{m_ix->text.size(), uint32_t(name.size())}});
            m_ix->text.append(name);
        }
    } else if (word == "BEGIN_SAMPLE") {
        const auto t = toNs(parseNumber(rest));
        if (m_open)
            bad("BEGIN_SAMPLE inside a sample");
        else if (!t)
            bad("BEGIN_SAMPLE without a time");
        else {
            Census c;
            c.time = *t;
            m_labelsAtOpen = hp.labels.size();
            c.firstSample = hp.samples.size();
            hp.censuses.push_back(c);
            m_open = true;
            m_openOffset = offset;
        }
    } else if (word == "END_SAMPLE") {
        if (!m_open) {
            bad("END_SAMPLE without BEGIN_SAMPLE");
        } else {
            hp.censuses.back().endTime = hp.censuses.back().time;
            m_open = false;
            ++m_complete;
        }
    } else if (m_open) {
        // <band>\t<bytes>; bands can hold spaces, so split at the last blank.
        const size_t split = line.find_last_of(" \t");
        const auto bytes = split == std::string_view::npos ? std::nullopt : parseCount(line.substr(split + 1));
        if (!bytes) {
            bad("a sample line without a byte count");
            return;
        }
        const std::string label(trim(line.substr(0, split)));
        auto [it, inserted] = m_labels.try_emplace(label, uint32_t(hp.labels.size()));
        if (inserted) {
            hp.labels.push_back(label);
            hp.stacks.emplace_back();
            m_entryOf.push_back(UINT64_MAX);
        }
        Census& c = hp.censuses.back();
        uint64_t& entry = m_entryOf[it->second];
        if (entry != UINT64_MAX && entry >= c.firstSample) {
            hp.samples[entry].bytes += *bytes;
            ++hp.repeatedLabels;
        } else {
            entry = hp.samples.size();
            hp.samples.push_back({it->second, *bytes});
            ++c.count;
        }
        c.total += *bytes;
    } else {
        bad("not a heap-profile line");
    }
}

std::unique_ptr<LogIndex> HpFileReader::finish(const LoadObserver* observer)
{
    if (!m_done && !m_tail.empty())
        readLine(m_tail, m_tailOffset, false);
    m_tail = {};
    if (m_open && !m_stopped)
        fail(DiagnosticKind::HpIncompleteSample, m_openOffset, {});
    if (!complete(*m_ix, m_bytes, observer))
        return nullptr;
    return std::move(m_ix);
}

std::unique_ptr<LogIndex> HpFileReader::snapshot(const LoadObserver* observer) const
{
    auto ix = std::make_unique<LogIndex>(*m_ix);
    if (!complete(*ix, m_settled, observer))
        return nullptr;
    return ix;
}

bool HpFileReader::complete(LogIndex& ix, uint64_t bytes, const LoadObserver* observer) const
{
    HeapProfileData& hp = ix.heapProfile;
    if (m_open) {
        // Drop the unfinished census and its samples.
        hp.samples.resize(hp.censuses.back().firstSample);
        hp.censuses.pop_back();
        hp.labels.resize(m_labelsAtOpen); // bands only that sample had
        hp.stacks.resize(m_labelsAtOpen);
    }
    ix.scan.bytes = bytes;
    ix.scan.events = m_complete;
    for (const Census& c : hp.censuses) {
        ix.firstTime = std::min(ix.firstTime, c.time);
        ix.lastTime = std::max(ix.lastTime, c.time);
    }
    for (const Message& m : ix.messages) {
        ix.firstTime = std::min(ix.firstTime, m.time);
        ix.lastTime = std::max(ix.lastTime, m.time);
    }
    if (ix.firstTime == kNoTime)
        ix.firstTime = ix.lastTime = 0;
    return prepareForDrawing(ix, observer);
}

} // namespace hecscope
