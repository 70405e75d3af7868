#include "core/timeprofile/sampleprofile.h"

#include "core/index/logindex.h"
#include "core/profile/profileviews.h"
#include "core/profile/treebuilder.h"

namespace hecscope {

std::optional<CostCentreProfile> sampleProfile(const LogIndex& ix, const SampleFilter& filter,
                                               const std::function<bool()>& cancelled)
{
    const TimeProfileData& tp = ix.timeProfile;
    CostCentreProfile out;
    out.source = ProfileSource::Eventlog;
    out.unit[0] = ProfileUnit::Samples;
    out.hasMetric[1] = false;
    for (const Capset& c : ix.capsets)
        if (!c.args.empty() && out.header.program.empty()) {
            out.header.program = c.args[0];
            for (const std::string& a : c.args)
                out.header.commandLine += (out.header.commandLine.empty() ? "" : " ") + a;
        }
    out.header.tickIntervalUs = tp.tickInterval / 1000;
    out.header.processors = uint32_t(ix.caps.size());
    if (!tp.tree) {
        out.nodes.resize(1);
        return out;
    }
    const SampleTree& tree = *tp.tree;
    out.costCentres = tree.skeleton.costCentres;
    if (tp.beginTime == std::numeric_limits<uint64_t>::max() && !tp.samples.empty())
        out.warnings.push_back("the log has no PROF_BEGIN: the tick interval is unknown");
    else if (tree.samplesBeforeBegin > 0)
        out.warnings.push_back(std::to_string(tree.samplesBeforeBegin) + " samples come before PROF_BEGIN");
    if (tree.unknownIds > 0)
        out.warnings.push_back(std::to_string(tree.unknownIds)
                               + " cost-centre ids in the samples were never named by HEAP_PROF_COST_CENTRE");
    if (tree.emptyStacks > 0)
        out.warnings.push_back(std::to_string(tree.emptyStacks) + " samples have an empty stack (shown as <empty stack>)");

    const auto [first, last] = sampleRange(tp, filter.t0, filter.t1);
    std::vector<uint64_t> perStack(tp.stacks.size(), 0);
    constexpr size_t kPoll = 1 << 16;
    for (size_t i = first; i < last; ++i) {
        if ((i & (kPoll - 1)) == 0 && cancelled && cancelled())
            return std::nullopt;
        const auto& s = tp.samples[i];
        if (filter.cap >= 0 && s.cap != filter.cap)
            continue;
        ++perStack[s.stack];
    }
    const auto& sk = tree.skeleton.nodes;
    std::vector<uint64_t> incl(sk.size(), 0);
    std::vector<uint64_t> self(sk.size(), 0);
    for (size_t s = 0; s < perStack.size(); ++s) {
        if (!perStack[s] || (filter.hideRts && tree.stackRts[s]))
            continue;
        self[tree.stackNode[s]] += perStack[s];
    }
    for (size_t i = sk.size(); i-- > 0;) {
        incl[i] += self[i];
        if (i > 0)
            incl[sk[i].parent] += incl[i];
    }
    if (cancelled && cancelled())
        return std::nullopt;
    // The nodes with samples, still in pre-order (a node with samples has an
    // ancestor chain with samples).
    std::vector<uint32_t> newIndex(sk.size(), 0);
    out.nodes.reserve(sk.size());
    for (uint32_t i = 0; i < sk.size(); ++i) {
        if (i > 0 && incl[i] == 0) {
            i = sk[i].end - 1; // the whole subtree is empty
            continue;
        }
        newIndex[i] = uint32_t(out.nodes.size());
        ProfileNode n;
        n.cc = sk[i].cc;
        n.parent = i == 0 ? 0 : newIndex[sk[i].parent];
        n.self[0] = self[i];
        out.nodes.push_back(n);
    }
    finishTree(out);
    return out;
}

} // namespace hecscope
