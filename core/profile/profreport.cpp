#include "core/profile/profreport.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <charconv>
#include <cstring>
#include <unordered_map>

// The `.prof` text reader (readProfJson is in profreportjson.cpp). A report
// of GHC 9.0.2 looks like
//
//	<date> Time and Allocation Profiling Report  (Final)
//	   prog +RTS -P -RTS args
//	total time  =        0.84 secs   (837 ticks @ 1000 us, 1 processor)
//	total alloc = 237,640,136 bytes  (excludes profiling overheads)
//   COST CENTRE  MODULE  SRC  %time %alloc [ticks bytes]       (flat table)
//   ...
//   COST CENTRE  MODULE  SRC  no.  entries  %time %alloc  %time %alloc  [ticks  bytes]
//   MAIN         MAIN    <built-in>  149  0  0.0  0.0  100.0  100.0  [0  816]
//    CAF         Main    <entire-module> ...   (one more leading space per level)

namespace hecscope {
namespace {

constexpr std::string_view kTitle = "Time and Allocation Profiling Report";

bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

std::string_view trim(std::string_view s)
{
    while (!s.empty() && isSpace(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && isSpace(s.back()))
        s.remove_suffix(1);
    return s;
}

// Splits off the last whitespace-separated token of `s` (which shrinks).
std::string_view lastToken(std::string_view& s)
{
    size_t end = s.size();
    while (end > 0 && isSpace(s[end - 1]))
        --end;
    size_t begin = end;
    while (begin > 0 && !isSpace(s[begin - 1]))
        --begin;
    std::string_view token = s.substr(begin, end - begin);
    s = s.substr(0, begin);
    return token;
}

std::string_view firstToken(std::string_view& s)
{
    size_t begin = 0;
    while (begin < s.size() && isSpace(s[begin]))
        ++begin;
    size_t end = begin;
    while (end < s.size() && !isSpace(s[end]))
        ++end;
    std::string_view token = s.substr(begin, end - begin);
    s = s.substr(end);
    return token;
}

bool parseUint(std::string_view s, uint64_t& out)
{
    if (s.empty())
        return false;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && p == s.data() + s.size();
}

// "123,456" (the header's byte count)
bool parseGrouped(std::string_view s, uint64_t& out)
{
    out = 0;
    bool any = false;
    for (char c : s) {
        if (c == ',')
            continue;
        if (c < '0' || c > '9' || out > UINT64_MAX / 10 - 9)
            return false;
        out = out * 10 + uint64_t(c - '0');
        any = true;
    }
    return any;
}

// "12.3" -> 123 tenths; a second decimal rounds.
bool parseTenths(std::string_view s, uint64_t& out)
{
    size_t dot = s.find('.');
    uint64_t whole = 0;
    if (!parseUint(s.substr(0, dot), whole) || whole > 1000000000)
        return false;
    out = whole * 10;
    if (dot == std::string_view::npos)
        return true;
    std::string_view frac = s.substr(dot + 1);
    for (size_t i = 0; i < frac.size(); ++i)
        if (frac[i] < '0' || frac[i] > '9')
            return false;
    if (!frac.empty())
        out += uint64_t(frac[0] - '0');
    if (frac.size() > 1 && frac[1] >= '5')
        ++out;
    return true;
}

// Where the text reader is: the header, the flat table (its rows up to a
// blank line), between it and the tree, the tree.
enum class Part : uint8_t { Header,
                            Flat,
                            FlatDone,
                            Tree };

// The tree's columns, from its header line.
enum class Column : uint8_t { Number,
                              Entries,
                              Time,
                              Alloc,
                              Ticks,
                              Bytes,
                              Other };

struct TreeLayout {
    std::vector<Column> right; // the numeric columns, rightmost first
    bool hasSrc = false;
    bool ticks = false;
};

// A table's header line: the call tree's (it names "entries") or the flat
// per-cost-centre table's; false for any other line.
bool readTableHeader(std::string_view line, TreeLayout& layout, bool tree)
{
    std::string_view rest = trim(line);
    if (!rest.starts_with("COST CENTRE") || (rest.find("entries") != std::string_view::npos) != tree)
        return false;
    layout = TreeLayout{};
    rest.remove_prefix(11);
    std::vector<Column> left;
    bool time = false, alloc = false;
    for (std::string_view t = firstToken(rest); !t.empty(); t = firstToken(rest)) {
        if (t == "MODULE")
            continue;
        if (t == "SRC") {
            layout.hasSrc = true;
            continue;
        }
        // The first %time/%alloc are the individual ones, the second pair inherited.
        Column c = Column::Other;
        if (t == "no.") {
            c = Column::Number;
        } else if (t == "entries") {
            c = Column::Entries;
        } else if (t == "%time" && !time) {
            c = Column::Time;
            time = true;
        } else if (t == "%alloc" && !alloc) {
            c = Column::Alloc;
            alloc = true;
        } else if (t == "ticks") {
            c = Column::Ticks;
            layout.ticks = true;
        } else if (t == "bytes") {
            c = Column::Bytes;
        }
        left.push_back(c);
    }
    layout.right.assign(left.rbegin(), left.rend());
    return time && alloc;
}

struct Key {
    std::string_view label, module, src;
    bool operator==(const Key&) const = default;
};
struct KeyHash {
    size_t operator()(const Key& k) const
    {
        std::hash<std::string_view> h;
        return h(k.label) ^ (h(k.module) * 31) ^ (h(k.src) * 1000003);
    }
};

class TextReader {
public:
    explicit TextReader(std::string_view text)
        : m_text(text)
    {
    }
    CostCentreProfile read();

private:
    bool nextLine(); // sets m_line, m_lineNo, m_lineStart; false at the end
    void fail(std::string message) { failAt(std::move(message), m_lineNo, m_lineStart); }
    void failAt(std::string message, uint64_t line, uint64_t offset)
    {
        if (!m_p.error)
            m_p.error = ProfileError{std::move(message), line, offset};
    }
    void readTotals(std::string_view line);
    // A line's columns, numbers read from the right into `node`; false
    // (and the error set) when a number or a column is missing.
    bool readColumns(const TreeLayout& layout, ProfileNode& node, size_t& indent, Key& key, const char* where);
    bool readTreeLine(const TreeLayout& layout, std::vector<uint32_t>& stack);
    bool readFlatLine(const TreeLayout& layout);
    uint32_t costCentre(const Key& key);
    // The call tree replaced by the flat table's rows, one level under the root.
    void useFlatTable();
    // The line the text ends in, once every line has been read.
    uint64_t endLine() const { return m_lineNo + (!m_text.empty() && m_text.back() == '\n'); }

    std::string_view m_text;
    size_t m_pos = 0;
    std::string_view m_line;
    uint64_t m_lineNo = 0, m_lineStart = 0;
    bool m_lineCut = false; // the text ends inside m_line (no newline)
    uint64_t m_lastTreeLine = 0, m_lastTreeEnd = 0;
    struct FlatRow {
        Key key;
        uint64_t self[2] = {0, 0};
    };
    std::vector<FlatRow> m_flat; // the flat table's complete rows
    bool m_flatTicks = false;
    CostCentreProfile m_p;
    std::unordered_map<Key, uint32_t, KeyHash> m_ccs;
};

bool TextReader::nextLine()
{
    if (m_pos >= m_text.size())
        return false;
    size_t nl = m_text.find('\n', m_pos);
    m_lineCut = nl == std::string_view::npos;
    size_t end = m_lineCut ? m_text.size() : nl;
    m_lineStart = m_pos;
    m_line = m_text.substr(m_pos, end - m_pos);
    if (!m_line.empty() && m_line.back() == '\r')
        m_line.remove_suffix(1);
    m_pos = m_lineCut ? m_text.size() : nl + 1;
    ++m_lineNo;
    return true;
}

void TextReader::readTotals(std::string_view line)
{
    ProfileHeader& h = m_p.header;
    std::string_view rest = trim(line);
    if (rest.starts_with("total time")) {
        // total time  =        0.84 secs   (837 ticks @ 1000 us, 1 processor)
        rest = rest.substr(rest.find('=') + 1);
        std::string_view secs = firstToken(rest);
        std::from_chars(secs.data(), secs.data() + secs.size(), h.totalTimeSeconds);
        firstToken(rest); // "secs"
        std::string_view t = firstToken(rest);
        if (!t.empty() && t.front() == '(')
            t.remove_prefix(1);
        parseUint(t, h.totalTicks);
        firstToken(rest); // "ticks"
        firstToken(rest); // "@"
        uint64_t interval = 0;
        parseUint(firstToken(rest), interval);
        std::string_view unit = firstToken(rest);
        h.tickIntervalUs = unit.starts_with("ms") ? interval * 1000 : interval;
        uint64_t procs = 0;
        parseUint(firstToken(rest), procs);
        h.processors = uint32_t(procs);
    } else if (rest.starts_with("total alloc")) {
        rest = rest.substr(rest.find('=') + 1);
        parseGrouped(firstToken(rest), h.totalAllocBytes);
    }
}

bool TextReader::readColumns(const TreeLayout& layout, ProfileNode& node, size_t& indent, Key& key, const char* where)
{
    const size_t want = layout.right.size() + (layout.hasSrc ? 3 : 2);
    std::string_view rest = m_line;
    uint64_t value = 0;
    size_t found = 0;
    for (Column c : layout.right) {
        std::string_view token = lastToken(rest);
        if (token.empty())
            break;
        ++found;
        bool ok = (c == Column::Time || c == Column::Alloc || c == Column::Other) ? parseTenths(token, value)
                                                                                  : parseUint(token, value);
        if (!ok) {
            fail(std::string("not a number in ") + where + ": \"" + std::string(token) + "\"");
            return false;
        }
        switch (c) {
        case Column::Number: node.number = uint32_t(value); break;
        case Column::Entries: node.entries = value; break;
        case Column::Time:
            if (!layout.ticks)
                node.self[0] = value;
            break;
        case Column::Alloc:
            if (!layout.ticks)
                node.self[1] = value;
            break;
        case Column::Ticks: node.self[0] = value; break;
        case Column::Bytes: node.self[1] = value; break;
        case Column::Other: break;
        }
    }
    indent = 0;
    while (indent < rest.size() && rest[indent] == ' ')
        ++indent;
    rest.remove_prefix(indent);
    key.label = firstToken(rest);
    key.module = firstToken(rest);
    key.src = trim(rest);
    found += !key.label.empty() + !key.module.empty() + (layout.hasSrc && !key.src.empty());
    if (found < want) {
        fail("expected " + std::to_string(want) + " columns, found " + std::to_string(found));
        return false;
    }
    return true;
}

uint32_t TextReader::costCentre(const Key& key)
{
    auto [it, added] = m_ccs.try_emplace(key, uint32_t(m_p.costCentres.size()));
    if (added) {
        ProfileCostCentre cc;
        cc.id = it->second;
        cc.label = key.label;
        cc.module = key.module;
        cc.srcLoc = key.src;
        cc.caf = key.label == "CAF";
        cc.rts = isRtsCostCentre(cc.label, cc.module);
        m_p.costCentres.push_back(std::move(cc));
    }
    return it->second;
}

bool TextReader::readTreeLine(const TreeLayout& layout, std::vector<uint32_t>& stack)
{
    ProfileNode node;
    size_t indent = 0;
    Key key;
    if (!readColumns(layout, node, indent, key, "a tree line"))
        return false;
    if (indent >= stack.size()) {
        fail(stack.size() < 2 ? "the first line of the tree is indented " + std::to_string(indent) + " spaces (expected none)"
                              : "indented " + std::to_string(indent) + " spaces under a line indented "
                                    + std::to_string(stack.size() - 2));
        return false;
    }
    node.cc = costCentre(key);
    node.parent = stack[indent];
    stack.resize(indent + 1);
    stack.push_back(uint32_t(m_p.nodes.size()));
    m_p.nodes.push_back(node);
    return true;
}

bool TextReader::readFlatLine(const TreeLayout& layout)
{
    ProfileNode node;
    size_t indent = 0;
    Key key;
    if (!readColumns(layout, node, indent, key, "the per-cost-centre table"))
        return false;
    m_flat.push_back({key, {node.self[0], node.self[1]}});
    return true;
}

void TextReader::useFlatTable()
{
    m_p.costCentres.clear();
    m_ccs.clear();
    m_p.nodes.resize(1);
    m_p.hasEntries = false;
    m_p.flat = true;
    m_p.unit[0] = m_flatTicks ? ProfileUnit::Ticks : ProfileUnit::PercentTenths;
    m_p.unit[1] = m_flatTicks ? ProfileUnit::Bytes : ProfileUnit::PercentTenths;
    for (const FlatRow& row : m_flat) {
        ProfileNode node;
        node.cc = costCentre(row.key);
        node.parent = 0;
        node.self[0] = row.self[0];
        node.self[1] = row.self[1];
        m_p.nodes.push_back(node);
    }
}

CostCentreProfile TextReader::read()
{
    m_p.source = ProfileSource::ProfText;
    m_p.hasMetric[0] = m_p.hasMetric[1] = true;
    m_p.hasEntries = true;
    m_p.unit[0] = m_p.unit[1] = ProfileUnit::PercentTenths;
    // The title: the first non-blank line.
    while (nextLine() && trim(m_line).empty()) { }
    size_t title = m_line.find(kTitle);
    if (m_lineNo == 0 || title == std::string_view::npos) {
        failAt("not a .prof report (no \"" + std::string(kTitle) + "\" title)", 0, 0);
        return std::move(m_p);
    }
    m_p.header.date = trim(m_line.substr(0, title));
    m_p.nodes.emplace_back(); // the root
    TreeLayout layout, flatLayout;
    Part part = Part::Header;
    bool sawCommand = false;
    std::vector<uint32_t> stack{0}; // stack[i] = the node whose children are indented i spaces
    while (nextLine()) {
        std::string_view t = trim(m_line);
        if (part != Part::Tree) {
            if (part == Part::Flat && !t.empty() && !readTableHeader(m_line, layout, true)) {
                if (m_lineCut) {
                    fail("the report ends inside this line of the per-cost-centre table");
                    break;
                }
                if (!readFlatLine(flatLayout))
                    break;
                continue;
            }
            if (t.empty()) {
                if (part == Part::Flat && !m_flat.empty())
                    part = Part::FlatDone;
                continue;
            }
            if (readTableHeader(m_line, layout, true)) {
                part = Part::Tree;
                if (layout.ticks)
                    m_p.unit[0] = ProfileUnit::Ticks, m_p.unit[1] = ProfileUnit::Bytes;
            } else if (part == Part::Header && readTableHeader(m_line, flatLayout, false)) {
                part = Part::Flat;
                m_flatTicks = flatLayout.ticks;
            } else if (t.starts_with("total ")) {
                readTotals(t);
            } else if (!sawCommand && m_p.header.totalTicks == 0 && !t.starts_with("COST CENTRE")) {
                sawCommand = true;
                m_p.header.commandLine = t;
                std::string_view rest = t;
                m_p.header.program = firstToken(rest);
            }
            continue;
        }
        if (m_lineCut) {
            fail("the report ends inside this line (cut short?)");
            break;
        }
        if (t.empty()) {
            if (m_p.nodes.size() > 1)
                break; // the tree ends at its first blank line; nothing after it is read
            continue;
        }
        if (!readTreeLine(layout, stack))
            break;
        m_lastTreeLine = m_lineNo;
        m_lastTreeEnd = m_pos;
    }
    const bool inTree = part == Part::Tree;
    if (part == Part::Header)
        failAt("the report ends in its header, before the per-cost-centre table: no figures to show", endLine(),
               m_text.size());
    else if (part == Part::Flat && !m_p.error)
        failAt("the report ends inside the per-cost-centre table", endLine(), m_text.size());
    else if (part == Part::FlatDone && !m_p.error)
        failAt("the report ends before its call tree", endLine(), m_text.size());
    else if (inTree && m_p.nodes.size() == 1)
        failAt("the call tree is empty", endLine(), m_text.size());
    finishTree(m_p);
    if (inTree && !m_p.percentOnly() && !m_p.error && m_p.total(ProfileMetric::Time) != m_p.header.totalTicks) {
        // GHC's tree adds up to its header exactly: less means lines are missing.
        std::string what = "the tree's ticks add up to " + std::to_string(m_p.total(ProfileMetric::Time))
            + ", the header says " + std::to_string(m_p.header.totalTicks);
        if (m_p.total(ProfileMetric::Time) < m_p.header.totalTicks)
            failAt(what + " (cut short?)", m_lastTreeLine + 1, m_lastTreeEnd);
        else
            m_p.warnings.push_back(what);
    }
    // A tree cut or unreadable: what the flat table holds is shown instead
    // (every cost centre's own figures, where a partial tree has only the
    // first stacks), and the error says so.
    if (m_p.error && !m_flat.empty()) {
        std::string& message = m_p.error->message;
        const std::string rows = std::to_string(m_flat.size()) + " cost centre" + (m_flat.size() == 1 ? "" : "s");
        if (part == Part::Flat)
            message += ": showing the table's first " + rows
                + " as a flat profile; the rest of the table and the call tree are missing";
        else if (part == Part::FlatDone)
            message += ": showing the flat per-cost-centre table (" + rows + "); call stacks not available";
        else
            message = "the call tree stops here: " + message + "; showing the flat per-cost-centre table (" + rows
                + "); call stacks not available";
        useFlatTable();
        finishTree(m_p);
    } else if (part == Part::Flat && m_p.error) {
        m_p.error->message += ": no figures to show";
    }
    if (part == Part::Header) {
        // no figures to speak of
    } else if (m_p.percentOnly()) {
        m_p.warnings.push_back("written without -P: percentages only (rerun with +RTS -P or -pj for tick and byte counts)");
    }
    if (m_p.flat && !m_p.percentOnly() && m_p.header.totalTicks > m_p.total(ProfileMetric::Time))
        m_p.warnings.push_back("the per-cost-centre table lists only the larger cost centres: its ticks add up to "
                               + std::to_string(m_p.total(ProfileMetric::Time)) + " of the run's "
                               + std::to_string(m_p.header.totalTicks));
    else if (m_p.flat && m_p.percentOnly())
        m_p.warnings.push_back("the per-cost-centre table lists only the larger cost centres: their %time adds up to "
                               + std::to_string(m_p.total(ProfileMetric::Time) / 10) + "."
                               + std::to_string(m_p.total(ProfileMetric::Time) % 10) + " %");
    return std::move(m_p);
}

} // namespace

CostCentreProfile readProfText(std::string_view text)
{
    return TextReader(text).read();
}

CostCentreProfile readProfReport(std::string_view text)
{
    size_t i = 0;
    while (i < text.size() && (isSpace(text[i]) || text[i] == '\n'))
        ++i;
    return i < text.size() && text[i] == '{' ? readProfJson(text) : readProfText(text);
}

ProfReportFile readProfReportFile(const std::string& path)
{
    ProfReportFile r;
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        r.error = "cannot read " + path + ": " + std::strerror(errno);
        return r;
    }
    // One read of the whole file (a character iterator is slower by half).
    std::string text;
    in.seekg(0, std::ios::end);
    const std::streamoff size = in.tellg();
    in.seekg(0, std::ios::beg);
    if (size > 0) {
        text.resize(size_t(size));
        in.read(text.data(), size);
        text.resize(size_t(in.gcount()));
    } else { // not seekable: read as it comes
        in.clear();
        text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    if (in.bad()) {
        r.error = "cannot read " + path + ": " + std::strerror(errno);
        return r;
    }
    r.bytes = text.size();
    if (!looksLikeProfReport(std::string_view(text).substr(0, 4096))) {
        r.error = "not a .prof or -pj report (a .prof's first line reads \"... Time and Allocation Profiling Report  "
                  "(Final)\"; a -pj report is JSON naming \"program\" and \"cost_centres\")";
        return r;
    }
    r.profile = readProfReport(text);
    return r;
}

bool looksLikeProfReport(std::string_view firstBytes)
{
    size_t i = 0;
    while (i < firstBytes.size() && (isSpace(firstBytes[i]) || firstBytes[i] == '\n'))
        ++i;
    std::string_view s = firstBytes.substr(i);
    if (s.starts_with("{"))
        return s.find("\"program\"") != std::string_view::npos && s.find("\"cost_centres\"") != std::string_view::npos;
    return s.substr(0, s.find('\n')).find(kTitle) != std::string_view::npos;
}

} // namespace hecscope
