#pragma once

#include "core/profile/profile.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace hecscope {

// The views of a CostCentreProfile. Every tree returned is a CostCentreProfile
// itself (same cost centres, units and header), so one model, one flame graph
// and one printer serve them all.

// A cost centre with all its stacks added. self: the sum of its nodes' self;
// incl: the sum of the inclusive figures of its outermost nodes (a recursive
// cost centre counts each sample once); entries: the sum over its nodes.
struct CostCentreTotal {
    uint32_t cc = kNoCostCentre;
    uint64_t self[2] = {0, 0};
    uint64_t incl[2] = {0, 0};
    uint64_t entries = 0;
};
std::vector<CostCentreTotal> costCentreTotals(const CostCentreProfile& p);

// For each node: whether an ancestor has the same cost centre (pre-order walk).
std::vector<bool> nestedInItself(const CostCentreProfile& p);

// Bottom-up: the root's children are the cost centres that have self cost
// (time or allocation; entries of nodes with neither are left out),
// each one's children the callers it was reached from, and so on to the
// outermost frame. A node's inclusive figure is the self cost of the first
// level's cost centre spent under that chain of callers.
CostCentreProfile bottomUp(const CostCentreProfile& p);

// The caller/callee ("sandwich") view of one cost centre, merged over every
// stack it appears in (its outermost occurrence in each stack, so recursion
// counts once). callers: the root's one child is the cost centre, its
// children its callers, ... (inverted, as bottom-up). callees: the root's one
// child is the cost centre, below it everything it called, merged.
CostCentreProfile callersOf(const CostCentreProfile& p, uint32_t cc);
CostCentreProfile calleesOf(const CostCentreProfile& p, uint32_t cc);

// The profile without the RTS's own frames (ProfileCostCentre::rts) and
// everything under them: what the user's code cost.
CostCentreProfile withoutRtsFrames(const CostCentreProfile& p);

// The frames of a node, outermost first, excluding the synthetic root.
std::vector<uint32_t> stackOf(const CostCentreProfile& p, uint32_t node);
// The cost centres of a node's stack, outermost first; and the node reached
// from the root by such a path (0 when there is none). Profiles that share
// their cost centres (an eventlog's, for any range) find each other's
// frames this way.
std::vector<uint32_t> costCentrePath(const CostCentreProfile& p, uint32_t node);
uint32_t nodeAtPath(const CostCentreProfile& p, const std::vector<uint32_t>& path);

// Folded stacks (flamegraph.pl, inferno, speedscope): one line per node with
// self cost, frames outermost first joined by ';', a space, the count. A
// frame is the cost centre's label as the .prof COST CENTRE column prints it.
std::string foldedText(const CostCentreProfile& p, ProfileMetric metric);

// CSV: label,module,src_loc,self,inclusive: one row per cost centre, by
// inclusive cost, then label.
std::string costCentresCsv(const CostCentreProfile& p, ProfileMetric metric);

// The share of the total held by the nodes whose cost centre matches
// (outermost matches only, so nested matches are not counted twice), and
// which nodes match.
struct SearchResult {
    std::vector<bool> matches; // per node
    uint64_t matched = 0;      // inclusive figure of the outermost matching nodes
    uint64_t total = 0;
    uint32_t matchingCostCentres = 0;
};
SearchResult searchProfile(const CostCentreProfile& p, ProfileMetric metric,
                           const std::function<bool(const ProfileCostCentre&)>& matches);

// The flame graph's layout: each frame's horizontal extent as a fraction of
// the focus node's inclusive figure, children ordered by label (as
// flamegraph.pl does), so the picture keeps its shape as a time range
// changes. Frames are in pre-order with subtree ends, so painting can skip a
// subtree narrower than a pixel. Depth is relative to the focus (its own
// depth 0). With no figure in the focus there are no frames.
struct FlameFrame {
    uint32_t node = 0;
    uint32_t end = 0;   // one past the last frame of this frame's subtree (index into frames)
    uint32_t depth = 0; // 0 = the focus
    double x0 = 0, x1 = 0;
};
struct FlameLayout {
    uint32_t focus = 0; // node
    ProfileMetric metric = ProfileMetric::Time;
    uint32_t maxDepth = 0;
    std::vector<FlameFrame> frames;
};
FlameLayout layoutFlame(const CostCentreProfile& p, uint32_t focus, ProfileMetric metric);

// A node's figure as text in its unit ("1,234 samples", "12.5 MB", "3.4 %").
std::string formatProfileValue(const CostCentreProfile& p, ProfileMetric metric, uint64_t value);
// "samples", "ticks", "bytes allocated", "% time", "% alloc".
std::string profileUnitName(const CostCentreProfile& p, ProfileMetric metric);

} // namespace hecscope
