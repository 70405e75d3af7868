#include "core/profile/profile.h"

#include <algorithm>

namespace hecscope {

std::string ProfileError::text() const
{
    std::string out;
    if (line > 0)
        out = "line " + std::to_string(line) + " (byte " + std::to_string(offset) + "): ";
    else
        out = "byte " + std::to_string(offset) + ": ";
    return out + message;
}

std::string problemText(const CostCentreProfile& p, const std::string& kept)
{
    if (!p.error)
        return {};
    std::string text = p.error->text();
    if (p.flat)
        return text;
    if (p.nodes.size() > 1)
        return text + "; everything before it is " + kept;
    if (p.error->message.find("no figures to show") == std::string::npos)
        text += ": no figures to show";
    return text;
}

bool isRtsCostCentre(const std::string& label, const std::string& module)
{
    // GHC 9.0.2 defines these in rts/Profiling.c with their own "modules"
    // (GC in GC, IDLE in IDLE, SYSTEM and PINNED in SYSTEM, OVERHEAD_of in
    // PROFILING, DONT_CARE in MAIN); older RTSs put them all in MAIN.
    static constexpr std::pair<std::string_view, std::string_view> kOwn[] = {
        {"GC", "GC"}, {"IDLE", "IDLE"}, {"SYSTEM", "SYSTEM"}, {"PINNED", "SYSTEM"}, {"OVERHEAD_of", "PROFILING"}, {"DONT_CARE", "MAIN"}};
    static constexpr std::string_view kLabels[] = {"GC", "IDLE", "SYSTEM", "PINNED", "OVERHEAD_of", "DONT_CARE"};
    if (module == "MAIN")
        return std::find(std::begin(kLabels), std::end(kLabels), label) != std::end(kLabels);
    return std::find(std::begin(kOwn), std::end(kOwn), std::pair<std::string_view, std::string_view>(label, module)) != std::end(kOwn);
}

void finishTree(CostCentreProfile& p)
{
    auto& nodes = p.nodes;
    const auto n = uint32_t(nodes.size());
    if (n == 0)
        return;
    nodes[0].parent = 0;
    nodes[0].depth = 0;
    // A parent always comes before its children in pre-order; a node whose
    // parent does not (a builder's bug) is hung under the root rather than
    // read out of range.
    for (uint32_t i = 1; i < n; ++i) {
        if (nodes[i].parent >= i)
            nodes[i].parent = 0;
        nodes[i].depth = nodes[nodes[i].parent].depth + 1;
    }
    for (uint32_t i = 0; i < n; ++i) {
        nodes[i].end = i + 1;
        nodes[i].incl[0] = nodes[i].self[0];
        nodes[i].incl[1] = nodes[i].self[1];
    }
    // Children after parents: one backward pass folds each subtree into its parent.
    for (uint32_t i = n - 1; i > 0; --i) {
        ProfileNode& parent = nodes[nodes[i].parent];
        parent.end = std::max(parent.end, nodes[i].end);
        parent.incl[0] += nodes[i].incl[0];
        parent.incl[1] += nodes[i].incl[1];
    }
}

} // namespace hecscope
