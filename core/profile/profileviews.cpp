#include "core/profile/profileviews.h"

#include "core/profile/treebuilder.h"
#include "core/text/units.h"

#include <algorithm>
#include <numeric>

namespace hecscope {

std::vector<bool> nestedInItself(const CostCentreProfile& p)
{
    std::vector<bool> nested(p.nodes.size(), false);
    std::vector<uint32_t> open(p.costCentres.size(), 0); // open ancestors per cost centre
    std::vector<uint32_t> stack;                         // open nodes
    for (uint32_t i = 0; i < p.nodes.size(); ++i) {
        while (!stack.empty() && p.nodes[stack.back()].end <= i) {
            const uint32_t cc = p.nodes[stack.back()].cc;
            if (cc != kNoCostCentre)
                --open[cc];
            stack.pop_back();
        }
        const uint32_t cc = p.nodes[i].cc;
        if (cc != kNoCostCentre) {
            nested[i] = open[cc] > 0;
            ++open[cc];
        }
        stack.push_back(i);
    }
    return nested;
}

std::vector<CostCentreTotal> costCentreTotals(const CostCentreProfile& p)
{
    std::vector<CostCentreTotal> totals(p.costCentres.size());
    for (uint32_t c = 0; c < totals.size(); ++c)
        totals[c].cc = c;
    const std::vector<bool> nested = nestedInItself(p);
    for (uint32_t i = 1; i < p.nodes.size(); ++i) {
        const ProfileNode& n = p.nodes[i];
        if (n.cc == kNoCostCentre)
            continue;
        CostCentreTotal& t = totals[n.cc];
        for (int m = 0; m < 2; ++m) {
            t.self[m] += n.self[m];
            if (!nested[i])
                t.incl[m] += n.incl[m];
        }
        t.entries += n.entries;
    }
    return totals;
}

std::vector<uint32_t> stackOf(const CostCentreProfile& p, uint32_t node)
{
    std::vector<uint32_t> frames;
    for (uint32_t i = node; i != 0 && i < p.nodes.size(); i = p.nodes[i].parent)
        frames.push_back(i);
    std::reverse(frames.begin(), frames.end());
    return frames;
}

std::vector<uint32_t> costCentrePath(const CostCentreProfile& p, uint32_t node)
{
    std::vector<uint32_t> path;
    for (uint32_t n : stackOf(p, node))
        path.push_back(p.nodes[n].cc);
    return path;
}

uint32_t nodeAtPath(const CostCentreProfile& p, const std::vector<uint32_t>& path)
{
    if (p.nodes.empty())
        return 0;
    uint32_t at = 0;
    for (uint32_t cc : path) {
        uint32_t found = 0;
        for (uint32_t j = at + 1; j < p.nodes[at].end; j = p.nodes[j].end)
            if (p.nodes[j].cc == cc) {
                found = j;
                break;
            }
        if (!found)
            return 0;
        at = found;
    }
    return at;
}

CostCentreProfile bottomUp(const CostCentreProfile& p)
{
    TreeBuilder b(p);
    for (uint32_t i = 1; i < p.nodes.size(); ++i) {
        const ProfileNode& n = p.nodes[i];
        if (n.self[0] == 0 && n.self[1] == 0)
            continue;
        uint32_t at = 0;
        for (uint32_t j = i; j != 0; j = p.nodes[j].parent) {
            at = b.child(at, p.nodes[j].cc);
            b.addEntries(at, n.entries);
        }
        b.addSelf(at, n.self); // at the outermost caller: every node above it then includes it
    }
    return b.finish();
}

CostCentreProfile callersOf(const CostCentreProfile& p, uint32_t cc)
{
    TreeBuilder b(p);
    const std::vector<bool> nested = nestedInItself(p);
    for (uint32_t i = 1; i < p.nodes.size(); ++i) {
        const ProfileNode& n = p.nodes[i];
        if (n.cc != cc || nested[i])
            continue;
        uint32_t at = 0;
        for (uint32_t j = i; j != 0; j = p.nodes[j].parent) {
            at = b.child(at, p.nodes[j].cc);
            b.addEntries(at, n.entries);
        }
        b.addSelf(at, n.incl);
    }
    return b.finish();
}

CostCentreProfile calleesOf(const CostCentreProfile& p, uint32_t cc)
{
    TreeBuilder b(p);
    const std::vector<bool> nested = nestedInItself(p);
    std::vector<uint32_t> mapped(p.nodes.size(), 0); // node -> builder node, inside the current occurrence
    for (uint32_t i = 1; i < p.nodes.size(); ++i) {
        const ProfileNode& n = p.nodes[i];
        if (n.cc != cc || nested[i])
            continue;
        mapped[i] = b.child(0, cc);
        for (uint32_t j = i; j < n.end; ++j) {
            const ProfileNode& d = p.nodes[j];
            if (j != i)
                mapped[j] = b.child(mapped[d.parent], d.cc);
            b.addSelf(mapped[j], d.self);
            b.addEntries(mapped[j], d.entries);
        }
        i = n.end - 1; // the whole occurrence is merged; nested ones are inside it
    }
    return b.finish();
}

CostCentreProfile withoutRtsFrames(const CostCentreProfile& p)
{
    TreeBuilder b(p);
    b.keepWarnings(p);
    std::vector<uint32_t> mapped(p.nodes.size(), 0);
    for (uint32_t i = 1; i < p.nodes.size(); ++i) {
        const ProfileNode& n = p.nodes[i];
        if (n.cc != kNoCostCentre && p.costCentres[n.cc].rts) {
            i = n.end - 1;
            continue;
        }
        mapped[i] = b.child(mapped[n.parent], n.cc);
        b.addSelf(mapped[i], n.self);
        b.addEntries(mapped[i], n.entries);
        b.setNumber(mapped[i], n.number);
    }
    return b.finish();
}

std::string foldedText(const CostCentreProfile& p, ProfileMetric metric)
{
    std::string out;
    std::vector<uint32_t> path; // node indices of the open frames
    for (uint32_t i = 1; i < p.nodes.size(); ++i) {
        const ProfileNode& n = p.nodes[i];
        path.resize(n.depth - 1);
        path.push_back(i);
        const uint64_t v = n.self[int(metric)];
        if (v == 0)
            continue;
        for (size_t k = 0; k < path.size(); ++k) {
            if (k)
                out += ';';
            const uint32_t c = p.nodes[path[k]].cc;
            out += c == kNoCostCentre ? std::string("<root>") : p.costCentres[c].label;
        }
        out += ' ';
        out += std::to_string(v);
        out += '\n';
    }
    return out;
}

std::string costCentresCsv(const CostCentreProfile& p, ProfileMetric metric)
{
    std::vector<CostCentreTotal> totals = costCentreTotals(p);
    const int m = int(metric);
    std::erase_if(totals, [&](const CostCentreTotal& t) { return t.incl[m] == 0 && t.self[m] == 0 && t.entries == 0; });
    std::sort(totals.begin(), totals.end(), [&](const CostCentreTotal& a, const CostCentreTotal& b) {
        if (a.incl[m] != b.incl[m])
            return a.incl[m] > b.incl[m];
        return p.costCentres[a.cc].label < p.costCentres[b.cc].label;
    });
    std::string out = "label,module,src_loc,self,inclusive\n";
    for (const CostCentreTotal& t : totals) {
        const ProfileCostCentre& c = p.costCentres[t.cc];
        out += csvField(c.label) + ',' + csvField(c.module) + ',' + csvField(c.srcLoc) + ','
            + std::to_string(t.self[m]) + ',' + std::to_string(t.incl[m]) + '\n';
    }
    return out;
}

SearchResult searchProfile(const CostCentreProfile& p, ProfileMetric metric,
                           const std::function<bool(const ProfileCostCentre&)>& matches)
{
    SearchResult r;
    r.matches.assign(p.nodes.size(), false);
    r.total = p.total(metric);
    std::vector<char> ccMatches(p.costCentres.size(), 0);
    for (size_t c = 0; c < p.costCentres.size(); ++c) {
        ccMatches[c] = matches(p.costCentres[c]) ? 1 : 0;
        r.matchingCostCentres += uint32_t(ccMatches[c]);
    }
    uint32_t coveredUntil = 0; // inside an outermost match's subtree
    for (uint32_t i = 1; i < p.nodes.size(); ++i) {
        const ProfileNode& n = p.nodes[i];
        if (n.cc == kNoCostCentre || !ccMatches[n.cc])
            continue;
        r.matches[i] = true;
        if (i >= coveredUntil) {
            r.matched += n.incl[int(metric)];
            coveredUntil = n.end;
        }
    }
    return r;
}

FlameLayout layoutFlame(const CostCentreProfile& p, uint32_t focus, ProfileMetric metric)
{
    FlameLayout l;
    l.focus = focus;
    l.metric = metric;
    const int m = int(metric);
    if (focus >= p.nodes.size() || p.nodes[focus].incl[m] == 0)
        return l;
    const ProfileNode& f = p.nodes[focus];
    const uint32_t count = f.end - focus;
    // Children of every node in the focus subtree, as one array sliced by
    // first[k] .. first[k + 1] (k: node - focus), in node order. Building it
    // without a vector per node keeps a 400,000-node profile within tens of
    // milliseconds.
    std::vector<uint32_t> first(count + 1, 0);
    size_t shown = 1;
    for (uint32_t i = focus + 1; i < f.end; ++i)
        if (p.nodes[i].incl[m] > 0) {
            ++first[p.nodes[i].parent - focus + 1];
            ++shown;
        }
    for (uint32_t k = 0; k < count; ++k)
        first[k + 1] += first[k];
    std::vector<uint32_t> kids(first[count]);
    {
        std::vector<uint32_t> fill(first.begin(), first.end() - 1);
        for (uint32_t i = focus + 1; i < f.end; ++i)
            if (p.nodes[i].incl[m] > 0)
                kids[fill[p.nodes[i].parent - focus]++] = i;
    }
    // Children in label order (then node order), as flamegraph.pl: the
    // labels of the cost centres met are ranked once, equal labels equal.
    static const std::string none;
    auto label = [&](uint32_t cc) -> const std::string& { return cc == kNoCostCentre ? none : p.costCentres[cc].label; };
    std::vector<uint32_t> met;
    std::vector<uint32_t> rank(p.costCentres.size(), 0);
    std::vector<char> seen(p.costCentres.size(), 0);
    for (uint32_t node : kids)
        if (const uint32_t cc = p.nodes[node].cc; cc != kNoCostCentre && !seen[cc]) {
            seen[cc] = 1;
            met.push_back(cc);
        }
    std::sort(met.begin(), met.end(), [&](uint32_t a, uint32_t b) { return label(a) < label(b); });
    for (size_t k = 0; k < met.size(); ++k)
        rank[met[k]] = k > 0 && label(met[k]) == label(met[k - 1]) ? rank[met[k - 1]] : uint32_t(k + 1);
    auto rankOf = [&](uint32_t node) { const uint32_t cc = p.nodes[node].cc; return cc == kNoCostCentre ? 0u : rank[cc]; };
    for (uint32_t k = 0; k < count; ++k)
        if (first[k + 1] - first[k] > 1)
            std::sort(kids.begin() + first[k], kids.begin() + first[k + 1], [&](uint32_t a, uint32_t b) {
                const uint32_t ra = rankOf(a), rb = rankOf(b);
                return ra != rb ? ra < rb : a < b;
            });
    struct Open {
        uint32_t frame;
        uint32_t nextChild; // index into kids
        double x;
    };
    std::vector<Open> stack;
    l.frames.reserve(shown);
    l.frames.push_back({focus, 0, 0, 0.0, 1.0});
    stack.push_back({0, first[0], 0.0});
    const double scale = 1.0 / double(f.incl[m]);
    while (!stack.empty()) {
        Open& top = stack.back();
        const FlameFrame parent = l.frames[top.frame];
        if (top.nextChild == first[parent.node - focus + 1]) {
            l.frames[top.frame].end = uint32_t(l.frames.size());
            stack.pop_back();
            continue;
        }
        const uint32_t child = kids[top.nextChild++];
        const double w = double(p.nodes[child].incl[m]) * scale;
        const uint32_t depth = parent.depth + 1;
        l.maxDepth = std::max(l.maxDepth, depth);
        l.frames.push_back({child, 0, depth, top.x, top.x + w});
        top.x += w;
        stack.push_back({uint32_t(l.frames.size() - 1), first[child - focus], l.frames.back().x0});
    }
    return l;
}

std::string profileUnitName(const CostCentreProfile& p, ProfileMetric metric)
{
    switch (p.unit[int(metric)]) {
    case ProfileUnit::Samples: return "samples";
    case ProfileUnit::Ticks: return "ticks";
    case ProfileUnit::Bytes: return "bytes allocated";
    case ProfileUnit::PercentTenths: return metric == ProfileMetric::Time ? "% time" : "% alloc";
    }
    return {};
}

std::string formatProfileValue(const CostCentreProfile& p, ProfileMetric metric, uint64_t value)
{
    switch (p.unit[int(metric)]) {
    case ProfileUnit::Samples: return formatGrouped(value) + (value == 1 ? " sample" : " samples");
    case ProfileUnit::Ticks: return formatGrouped(value) + (value == 1 ? " tick" : " ticks");
    case ProfileUnit::Bytes: return formatBytes(double(value));
    case ProfileUnit::PercentTenths:
        return std::to_string(value / 10) + '.' + std::to_string(value % 10) + " %";
    }
    return {};
}

} // namespace hecscope
