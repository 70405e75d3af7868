#include "core/profile/profwriter.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <numeric>
#include <string_view>

// The layouts follow GHC 9.0.2's rts/ProfilerReport.c: the same printf
// formats (%5.1f of a double ratio times 100, %11 entries, %5 ticks, %9
// bytes) so that the numbers round as the RTS rounds them.

namespace hecscope {
namespace {

// Code points, as the RTS's strlen_utf8 counts them.
size_t utf8Length(std::string_view s)
{
    size_t n = 0;
    for (char c : s)
        n += (uint8_t(c) & 0xc0) != 0x80;
    return n;
}

void appendf(std::string& out, const char* format, auto... args)
{
    char buffer[128];
    const int n = std::snprintf(buffer, sizeof buffer, format, args...);
    out.append(buffer, size_t(std::max(0, std::min(n, int(sizeof buffer) - 1))));
}

// `s` then spaces up to `width` code points (none when it is wider).
void appendPadded(std::string& out, std::string_view s, size_t width)
{
    out += s;
    const size_t len = utf8Length(s);
    out.append(width > len ? width - len : 0, ' ');
}

double percent(uint64_t part, uint64_t total)
{
    return total == 0 ? 0.0 : double(part) / double(total) * 100.0;
}

struct Names {
    std::string_view label, module, src;
};

Names namesOf(const CostCentreProfile& p, uint32_t index)
{
    static const ProfileCostCentre kNone;
    const ProfileCostCentre& cc = index < p.costCentres.size() ? p.costCentres[index] : kNone;
    return {cc.label.empty() ? "?" : std::string_view(cc.label), cc.module.empty() ? "?" : std::string_view(cc.module),
            cc.srcLoc.empty() ? "<no location info>" : std::string_view(cc.srcLoc)};
}

class Writer {
public:
    explicit Writer(const CostCentreProfile& p)
        : m_p(p)
        , m_percent(p.percentOnly())
    {
        // What the written lines add up to: the root's own figures are not written.
        if (!p.nodes.empty())
            for (int m : {0, 1})
                m_total[m] = p.nodes[0].incl[m] - p.nodes[0].self[m];
        if (!p.hasMetric[1])
            m_total[1] = 0;
    }
    std::string write();

private:
    uint64_t figure(const ProfileNode& n, int m, bool inherited) const
    {
        return m == 1 && !m_p.hasMetric[1] ? 0 : (inherited ? n.incl[m] : n.self[m]);
    }
    void header();
    void flatTable();
    void tree();
    void percents(const char* format, uint64_t time, uint64_t alloc);

    const CostCentreProfile& m_p;
    const bool m_percent;
    uint64_t m_total[2] = {0, 0};
    std::string m_out;
};

void Writer::header()
{
    const ProfileHeader& h = m_p.header;
    m_out += '\t';
    if (!h.date.empty())
        m_out += h.date + ' ';
    m_out += "Time and Allocation Profiling Report  (Final)\n\n\t  ";
    if (!h.commandLine.empty())
        m_out += ' ' + h.commandLine;
    m_out += "\n\n";
    const uint64_t ticks = m_percent ? h.totalTicks : m_total[0];
    const uint64_t interval = h.tickIntervalUs ? h.tickIntervalUs : 1000;
    const uint32_t procs = std::max<uint32_t>(1, h.processors);
    appendf(m_out, "\ttotal time  = %11.2f secs   (%" PRIu64 " ticks @ %" PRIu64 " us, %u processor%s)\n",
            double(ticks) * double(interval) / (1e6 * procs), ticks, interval, procs, procs > 1 ? "s" : "");
    const std::string digits = std::to_string(m_percent ? h.totalAllocBytes : m_total[1]);
    std::string grouped;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0)
            grouped += ',';
        grouped += digits[i];
    }
    appendf(m_out, "\ttotal alloc = %11s bytes  (excludes profiling overheads)\n\n", grouped.c_str());
}

void Writer::percents(const char* format, uint64_t time, uint64_t alloc)
{
    if (m_percent)
        appendf(m_out, format, double(time) / 10.0, double(alloc) / 10.0);
    else
        appendf(m_out, format, percent(time, m_total[0]), percent(alloc, m_total[1]));
}

void Writer::flatTable()
{
    // Each cost centre's own figures over every stack it heads.
    struct Row {
        uint64_t self[2] = {0, 0};
        bool seen = false;
    };
    std::vector<Row> rows(m_p.costCentres.size());
    for (size_t i = 1; i < m_p.nodes.size(); ++i) {
        const ProfileNode& n = m_p.nodes[i];
        if (n.cc >= rows.size())
            continue;
        rows[n.cc].seen = true;
        for (int m : {0, 1})
            rows[n.cc].self[m] += figure(n, m, false);
    }
    // GHC compares with its totals in ticks and words; tenths of a percent
    // are compared with 1 % (10 tenths).
    const uint64_t over[2] = {m_percent ? 10 : m_total[0] / 100, m_percent ? 10 : m_total[1] / 100};
    std::vector<uint32_t> order;
    size_t w[3] = {11, 6, 3};
    for (uint32_t c = 0; c < rows.size(); ++c) {
        if (!rows[c].seen || (rows[c].self[0] <= over[0] && rows[c].self[1] <= over[1]))
            continue;
        order.push_back(c);
        const Names n = namesOf(m_p, c);
        w[0] = std::max(w[0], utf8Length(n.label));
        w[1] = std::max(w[1], utf8Length(n.module));
        w[2] = std::max(w[2], utf8Length(n.src));
    }
    std::stable_sort(order.begin(), order.end(),
                     [&](uint32_t a, uint32_t b) { return rows[a].self[0] > rows[b].self[0]; });
    appendPadded(m_out, "COST CENTRE", w[0]);
    m_out += ' ';
    appendPadded(m_out, "MODULE", w[1]);
    m_out += ' ';
    appendPadded(m_out, "SRC", w[2]);
    appendf(m_out, " %6s %6s", "%time", "%alloc");
    if (!m_percent)
        appendf(m_out, "  %5s %9s", "ticks", "bytes");
    m_out += "\n\n";
    for (uint32_t c : order) {
        const Names n = namesOf(m_p, c);
        appendPadded(m_out, n.label, w[0]);
        m_out += ' ';
        appendPadded(m_out, n.module, w[1]);
        m_out += ' ';
        appendPadded(m_out, n.src, w[2]);
        percents(" %6.1f %6.1f", rows[c].self[0], rows[c].self[1]);
        if (!m_percent)
            appendf(m_out, "  %5" PRIu64 " %9" PRIu64, rows[c].self[0], rows[c].self[1]);
        m_out += '\n';
    }
    m_out += "\n\n";
}

void Writer::tree()
{
    const auto& nodes = m_p.nodes;
    const bool fresh = std::any_of(nodes.begin() + std::min<size_t>(1, nodes.size()), nodes.end(),
                                   [](const ProfileNode& n) { return n.number == 0; });
    auto numberOf = [&](size_t i) { return fresh ? uint64_t(i) : uint64_t(nodes[i].number); };
    size_t w[4] = {11, 6, 3, 3}; // label plus indentation, module, src, no.
    for (size_t i = 1; i < nodes.size(); ++i) {
        const Names n = namesOf(m_p, nodes[i].cc);
        w[0] = std::max(w[0], nodes[i].depth - 1 + utf8Length(n.label));
        w[1] = std::max(w[1], utf8Length(n.module));
        w[2] = std::max(w[2], utf8Length(n.src));
        w[3] = std::max(w[3], std::to_string(numberOf(i)).size());
    }
    m_out.append(w[0] + w[1] + w[2] + w[3] + 4, ' ');
    appendf(m_out, "%11s  %12s   %12s\n", "", "individual", "inherited");
    appendPadded(m_out, "COST CENTRE", w[0]);
    m_out += ' ';
    appendPadded(m_out, "MODULE", w[1]);
    m_out += ' ';
    appendPadded(m_out, "SRC", w[2]);
    appendf(m_out, " %*s", int(w[3]), "no.");
    appendf(m_out, " %11s  %5s %6s   %5s %6s", "entries", "%time", "%alloc", "%time", "%alloc");
    if (!m_percent)
        appendf(m_out, "  %5s %9s", "ticks", "bytes");
    m_out += "\n\n";
    for (size_t i = 1; i < nodes.size(); ++i) {
        const ProfileNode& node = nodes[i];
        const Names n = namesOf(m_p, node.cc);
        const size_t indent = node.depth - 1;
        m_out.append(indent, ' ');
        appendPadded(m_out, n.label, w[0] - indent);
        m_out += ' ';
        appendPadded(m_out, n.module, w[1]);
        m_out += ' ';
        appendPadded(m_out, n.src, w[2]);
        appendf(m_out, " %*" PRIu64 " %11" PRIu64, int(w[3]), numberOf(i), m_p.hasEntries ? node.entries : 0);
        percents("  %5.1f  %5.1f", figure(node, 0, false), figure(node, 1, false));
        percents("   %5.1f  %5.1f", figure(node, 0, true), figure(node, 1, true));
        if (!m_percent)
            appendf(m_out, "  %5" PRIu64 " %9" PRIu64, figure(node, 0, false), figure(node, 1, false));
        m_out += '\n';
    }
}

std::string Writer::write()
{
    // About 150 bytes a line in the tree, fewer in the flat table.
    m_out.reserve(1024 + 160 * m_p.nodes.size());
    header();
    flatTable();
    tree();
    return std::move(m_out);
}

} // namespace

std::string writeProfText(const CostCentreProfile& p)
{
    return Writer(p).write();
}

} // namespace hecscope
