#include "core/profile/profile.h"

#include <algorithm>
#include <utility>

namespace hecscope {

bool isRtsCostCentre(const std::string& label, const std::string& module)
{
    // The RTS's built-in cost centres (rts/Profiling.c), as the eventlog's
    // HEAP_PROF_COST_CENTRE and the .prof report name them.
    static const std::pair<const char*, const char*> kRts[] = {
        {"GC", "GC"},           {"IDLE", "IDLE"},       {"SYSTEM", "SYSTEM"},
        {"PINNED", "SYSTEM"},   {"OVERHEAD_of", "PROFILING"}, {"DONT_CARE", "MAIN"}};
    for (const auto& [l, m] : kRts)
        if (label == l && module == m)
            return true;
    return false;
}

std::string ProfileError::text() const
{
    std::string where;
    if (line > 0)
        where = "line " + std::to_string(line) + " (byte " + std::to_string(offset) + ")";
    else
        where = "byte " + std::to_string(offset);
    return where + ": " + message;
}

void finishTree(CostCentreProfile& p)
{
    auto& nodes = p.nodes;
    const size_t n = nodes.size();
    for (size_t i = 0; i < n; ++i) {
        ProfileNode& node = nodes[i];
        node.end = uint32_t(i + 1);
        node.depth = i == 0 ? 0 : nodes[node.parent].depth + 1;
        node.incl[0] = node.self[0];
        node.incl[1] = node.self[1];
    }
    // Children come after their parents: walking backwards closes every
    // subtree before its parent reads it.
    for (size_t i = n; i-- > 1;) {
        ProfileNode& node = nodes[i];
        ProfileNode& parent = nodes[node.parent];
        parent.incl[0] += node.incl[0];
        parent.incl[1] += node.incl[1];
        parent.end = std::max(parent.end, node.end);
    }
}

} // namespace hecscope
