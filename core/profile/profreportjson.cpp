#include "core/profile/profreport.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <unordered_map>

// readProfJson: the `+RTS -pj` report. GHC 9.0.2 writes
//   {"program": "prog", "arguments": [...], "rts_arguments": [...],
//    "end_time": "...", "initial_capabilities": 0, "total_time": 0.84,
//    "total_ticks": 837, "tick_interval": 1000, "total_alloc": 237640136,
//    "cost_centres": [{"id": 182, "label": "IDLE", "module": "IDLE",
//                      "src_loc": "<built-in>", "is_caf": false}, ...],
//    "profile": {"id": 176, "entries": 0, "alloc": 816, "ticks": 0,
//                "children": [{...}, ...]}}
// escaping only backslashes and newlines, and only in labels and arguments
// (rts/ProfilerReportJson.c, escapeString): quotes and tabs stay raw, and
// module names and source locations are not escaped at all. A hand-written
// reader, iterative (a deep tree or a hostile nesting cannot exhaust the
// stack), each step consuming input.

namespace hecscope {
namespace {

constexpr uint32_t kNoId = 0xffffffffu;

bool isBlank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

// GHC 9.0.2 escapes some strings (labels, arguments: \\ and \n) and not
// others (modules, source locations); a conforming writer escapes all.
// Unescape only when every backslash starts a valid JSON escape.
std::string decodeString(std::string_view raw)
{
    if (raw.find('\\') == std::string_view::npos)
        return std::string(raw);
    auto hex4 = [&](size_t i) {
        if (i + 4 > raw.size())
            return false;
        for (size_t k = i; k < i + 4; ++k)
            if (!std::isxdigit(static_cast<unsigned char>(raw[k])))
                return false;
        return true;
    };
    for (size_t i = 0; i < raw.size(); ++i) {
        if (raw[i] != '\\')
            continue;
        if (i + 1 >= raw.size())
            return std::string(raw);
        char e = raw[i + 1];
        if (e == 'u' ? !hex4(i + 2) : std::string_view("\"\\/bfnrt").find(e) == std::string_view::npos)
            return std::string(raw);
        i += e == 'u' ? 5 : 1;
    }
    std::string out;
    out.reserve(raw.size());
    for (size_t i = 0; i < raw.size(); ++i) {
        if (raw[i] != '\\') {
            out += raw[i];
            continue;
        }
        char e = raw[++i];
        switch (e) {
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
            unsigned v = 0;
            std::from_chars(raw.data() + i + 1, raw.data() + i + 5, v, 16);
            i += 4;
            if (v < 0x80) { // UTF-8 of the code unit (surrogate pairs are not joined)
                out += char(v);
            } else if (v < 0x800) {
                out += char(0xc0 | (v >> 6));
                out += char(0x80 | (v & 0x3f));
            } else {
                out += char(0xe0 | (v >> 12));
                out += char(0x80 | ((v >> 6) & 0x3f));
                out += char(0x80 | (v & 0x3f));
            }
            break;
        }
        default: out += e; break; // " \ /
        }
    }
    return out;
}

class JsonReader {
public:
    explicit JsonReader(std::string_view text)
        : m_text(text)
    {
    }
    CostCentreProfile read();

private:
    char peek()
    {
        while (m_pos < m_text.size() && isBlank(m_text[m_pos]))
            ++m_pos;
        return m_pos < m_text.size() ? m_text[m_pos] : '\0';
    }
    bool atEnd() { return peek() == '\0' && m_pos >= m_text.size(); }
    bool fail(std::string message, size_t at)
    {
        if (!m_p.error) {
            if (at >= m_text.size())
                message = "the report ends early, " + message + " (cut short?)";
            auto line = uint64_t(std::count(m_text.begin(), m_text.begin() + std::min(at, m_text.size()), '\n')) + 1;
            m_p.error = ProfileError{std::move(message), line, at};
        }
        return false;
    }
    bool expect(char c);
    bool readString(std::string_view& raw);
    bool readString(std::string& out);
    bool readUint(uint64_t& out);
    bool readDouble(double& out);
    bool readBool(bool& out);
    bool skipValue();
    // `[ element, ... ]`, calling `element` at each element's first byte.
    template <class Element>
    bool readArray(Element element);
    bool readStringArray(std::vector<std::string>& out);
    bool readCostCentre();
    bool readCostCentres();
    bool readTree();
    void resolveCostCentres();

    std::string_view m_text;
    size_t m_pos = 0;
    CostCentreProfile m_p;
    std::unordered_map<uint32_t, uint32_t> m_ccIndex; // JSON id -> costCentres index
    std::vector<uint32_t> m_nodeIds;                  // per node: its JSON cost-centre id
    std::vector<bool> m_nodeRead;                     // per node: its own figures were read
};

bool JsonReader::expect(char c)
{
    if (peek() != c)
        return fail(std::string("expected '") + c + "'", m_pos);
    ++m_pos;
    return true;
}

// A string ends at a quote followed (after blanks) by , } ] : or the end.
bool JsonReader::readString(std::string_view& raw)
{
    if (peek() != '"')
        return fail("expected a string", m_pos);
    const size_t open = m_pos;
    size_t q = open + 1;
    while ((q = m_text.find('"', q)) != std::string_view::npos) {
        size_t after = q + 1;
        while (after < m_text.size() && isBlank(m_text[after]))
            ++after;
        if (after == m_text.size() || std::string_view(",}]:").find(m_text[after]) != std::string_view::npos)
            break;
        ++q;
    }
    if (q == std::string_view::npos)
        return fail("unterminated string", m_text.size());
    raw = m_text.substr(open + 1, q - open - 1);
    m_pos = q + 1;
    return true;
}

bool JsonReader::readString(std::string& out)
{
    std::string_view raw;
    if (!readString(raw))
        return false;
    out = decodeString(raw);
    return true;
}

bool JsonReader::readDouble(double& out)
{
    peek();
    size_t end = m_pos;
    while (end < m_text.size() && std::string_view("+-.0123456789eE").find(m_text[end]) != std::string_view::npos)
        ++end;
    auto [p, ec] = std::from_chars(m_text.data() + m_pos, m_text.data() + end, out);
    if (ec != std::errc() || p != m_text.data() + end || end == m_text.size())
        return fail("expected a number", m_pos);
    m_pos = end;
    return true;
}

bool JsonReader::readUint(uint64_t& out)
{
    double d = 0;
    size_t at = m_pos;
    if (!readDouble(d))
        return false;
    if (!(d >= 0 && d < 1.8e19))
        return fail("expected a count", at);
    out = uint64_t(d);
    return true;
}

bool JsonReader::readBool(bool& out)
{
    peek();
    std::string_view rest = m_text.substr(m_pos);
    if (rest.starts_with("true") || rest.starts_with("false")) {
        out = rest[0] == 't';
        m_pos += out ? 4 : 5;
        return true;
    }
    return fail("expected true or false", m_pos);
}

// Skips one value of any kind, nesting counted rather than recursed into.
bool JsonReader::skipValue()
{
    size_t depth = 0;
    do {
        char c = peek();
        if (c == '{' || c == '[') {
            ++depth;
            ++m_pos;
        } else if (c == '}' || c == ']' || c == ',' || c == ':') {
            if (depth == 0)
                return fail(std::string("unexpected '") + c + "'", m_pos);
            if (c == '}' || c == ']')
                --depth;
            ++m_pos;
        } else if (c == '"') {
            std::string_view raw;
            if (!readString(raw))
                return false;
        } else {
            size_t end = m_pos;
            while (end < m_text.size() && (std::isalnum(static_cast<unsigned char>(m_text[end])) || m_text[end] == '.' || m_text[end] == '-' || m_text[end] == '+'))
                ++end;
            if (end == m_pos || end == m_text.size())
                return fail("expected a value", m_pos);
            m_pos = end;
        }
    } while (depth > 0);
    return true;
}

template <class Element>
bool JsonReader::readArray(Element element)
{
    if (!expect('['))
        return false;
    for (;;) {
        const char c = peek();
        if (c == ']') {
            ++m_pos;
            return true;
        }
        if (c == ',')
            ++m_pos;
        else if (!element(c))
            return false;
    }
}

bool JsonReader::readStringArray(std::vector<std::string>& out)
{
    return readArray([&](char) { return readString(out.emplace_back()); });
}

bool JsonReader::readCostCentre()
{
    ++m_pos; // '{'
    ProfileCostCentre cc;
    uint64_t id = kNoId;
    for (;;) {
        char c = peek();
        if (c == '}')
            break;
        if (c == ',') {
            ++m_pos;
            continue;
        }
        std::string_view key;
        if (!readString(key) || !expect(':'))
            return false;
        bool ok = key == "id"  ? readUint(id)
            : key == "label"   ? readString(cc.label)
            : key == "module"  ? readString(cc.module)
            : key == "src_loc" ? readString(cc.srcLoc)
            : key == "is_caf"  ? readBool(cc.caf)
                               : skipValue();
        if (!ok)
            return false;
    }
    ++m_pos; // '}': only a complete cost centre is kept
    cc.id = uint32_t(id);
    cc.rts = isRtsCostCentre(cc.label, cc.module);
    if (m_ccIndex.try_emplace(cc.id, uint32_t(m_p.costCentres.size())).second)
        m_p.costCentres.push_back(std::move(cc));
    else
        m_p.warnings.push_back("cost centre id " + std::to_string(cc.id) + " defined twice: the first kept");
    return true;
}

bool JsonReader::readCostCentres()
{
    return readArray([&](char c) { return c == '{' ? readCostCentre() : fail("expected a cost centre", m_pos); });
}

// The tree, in pre-order: a node is appended when its '{' is read.
bool JsonReader::readTree()
{
    struct Frame {
        uint32_t node;
        bool inChildren;
    };
    std::vector<Frame> stack;
    auto open = [&](uint32_t parent) {
        ++m_pos; // '{'
        ProfileNode n;
        n.parent = parent;
        stack.push_back({uint32_t(m_p.nodes.size()), false});
        m_p.nodes.push_back(n);
        m_nodeIds.push_back(kNoId);
        m_nodeRead.push_back(false);
    };
    if (peek() != '{')
        return fail("expected the profile tree's '{'", m_pos);
    open(0);
    while (!stack.empty()) {
        const char c = peek();
        const uint32_t node = stack.back().node;
        if (c == ',') {
            ++m_pos;
        } else if (stack.back().inChildren) {
            if (c == ']') {
                ++m_pos;
                stack.back().inChildren = false;
            } else if (c == '{') {
                open(node);
            } else {
                return fail("expected a child node or ']'", m_pos);
            }
        } else if (c == '}') {
            ++m_pos;
            m_nodeRead[node] = true;
            stack.pop_back();
        } else {
            std::string_view key;
            if (!readString(key) || !expect(':'))
                return false;
            ProfileNode& n = m_p.nodes[node];
            uint64_t v = 0;
            bool ok = true;
            if (key == "children") {
                ok = expect('[');
                stack.back().inChildren = true;
                m_nodeRead[node] = true; // GHC writes the node's own keys first
            } else if (key == "id" || key == "entries" || key == "alloc" || key == "ticks") {
                ok = readUint(v);
                if (key == "id")
                    m_nodeIds[node] = uint32_t(v);
                else if (key == "entries")
                    n.entries = v;
                else if (key == "alloc")
                    n.self[int(ProfileMetric::Alloc)] = v;
                else
                    n.self[int(ProfileMetric::Time)] = v;
            } else {
                ok = skipValue();
            }
            if (!ok)
                return false;
        }
    }
    return true;
}

// Node ids -> costCentres indices; ids not among cost_centres get a stand-in.
void JsonReader::resolveCostCentres()
{
    size_t unknown = 0;
    for (size_t i = 1; i < m_p.nodes.size(); ++i) {
        auto [it, added] = m_ccIndex.try_emplace(m_nodeIds[i], uint32_t(m_p.costCentres.size()));
        if (added) {
            ProfileCostCentre cc;
            cc.id = m_nodeIds[i];
            cc.label = m_nodeIds[i] == kNoId ? "<no id>" : "<cost centre " + std::to_string(m_nodeIds[i]) + ">";
            m_p.costCentres.push_back(std::move(cc));
            ++unknown;
        }
        m_p.nodes[i].cc = it->second;
    }
    if (unknown > 0)
        m_p.warnings.push_back(std::to_string(unknown) + " cost centre ids of the tree are not in cost_centres");
}

CostCentreProfile JsonReader::read()
{
    m_p.source = ProfileSource::ProfJson;
    m_p.unit[0] = ProfileUnit::Ticks;
    m_p.unit[1] = ProfileUnit::Bytes;
    m_p.hasMetric[0] = m_p.hasMetric[1] = true;
    m_p.hasEntries = true;
    if (peek() != '{') {
        m_p.error = ProfileError{"not a -pj JSON report (it does not start with '{')", 0, 0};
        return std::move(m_p);
    }
    ++m_pos;
    m_p.nodes.emplace_back(); // the root
    m_nodeIds.push_back(kNoId);
    m_nodeRead.push_back(true);
    ProfileHeader& h = m_p.header;
    std::vector<std::string> args, rtsArgs;
    bool haveTree = false, done = false;
    while (!done) {
        char c = peek();
        if (c == '}') {
            done = true;
            continue;
        }
        if (c == ',') {
            ++m_pos;
            continue;
        }
        std::string_view key;
        if (!readString(key) || !expect(':'))
            break;
        uint64_t v = 0;
        bool ok = true;
        if (key == "program")
            ok = readString(h.program);
        else if (key == "arguments")
            ok = readStringArray(args);
        else if (key == "rts_arguments")
            ok = readStringArray(rtsArgs);
        else if (key == "end_time")
            ok = readString(h.date);
        else if (key == "initial_capabilities")
            ok = readUint(v);
        else if (key == "total_time")
            ok = readDouble(h.totalTimeSeconds);
        else if (key == "total_ticks")
            ok = readUint(h.totalTicks);
        else if (key == "tick_interval")
            ok = readUint(h.tickIntervalUs);
        else if (key == "total_alloc")
            ok = readUint(h.totalAllocBytes);
        else if (key == "cost_centres")
            ok = readCostCentres();
        else if (key == "profile" && !haveTree)
            ok = readTree();
        else
            ok = skipValue();
        if (key == "initial_capabilities")
            h.processors = uint32_t(v);
        haveTree = haveTree || key == "profile";
        if (!ok)
            break;
    }
    if (done && !haveTree)
        fail("no \"profile\" tree", m_pos);
    // Keep only nodes whose own figures were read (a cut drops the last one).
    while (m_p.nodes.size() > 1 && !m_nodeRead.back()) {
        m_p.nodes.pop_back();
        m_nodeIds.pop_back();
        m_nodeRead.pop_back();
    }
    for (const std::string& a : args)
        h.commandLine += (h.commandLine.empty() ? "" : " ") + a;
    if (!rtsArgs.empty()) {
        h.commandLine += " +RTS";
        for (const std::string& a : rtsArgs)
            h.commandLine += " " + a;
        h.commandLine += " -RTS";
    }
    if (h.program.empty() && !args.empty())
        h.program = args.front();
    resolveCostCentres();
    finishTree(m_p);
    return std::move(m_p);
}

} // namespace

CostCentreProfile readProfJson(std::string_view text)
{
    return JsonReader(text).read();
}

} // namespace hecscope
