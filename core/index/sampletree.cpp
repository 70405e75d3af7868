#include "core/index/sampletree.h"

#include "core/heap/heapprofile.h"
#include "core/index/timeprofilepart.h"
#include "core/profile/profileviews.h"
#include "core/profile/treebuilder.h"

#include <algorithm>
#include <unordered_map>

namespace hecscope {

std::shared_ptr<const SampleTree> buildSampleTree(const TimeProfileData& profile,
                                                  const std::map<uint32_t, CostCentre>& names)
{
    auto tree = std::make_shared<SampleTree>();
    CostCentreProfile shell;
    shell.source = ProfileSource::Eventlog;
    shell.unit[0] = ProfileUnit::Samples;
    shell.hasMetric[0] = true;
    shell.hasMetric[1] = false;
    // Cost centres in the order the log named them, then the unknown ids.
    std::unordered_map<uint32_t, uint32_t> byId;
    for (const auto& [id, cc] : names) {
        byId.emplace(id, uint32_t(shell.costCentres.size()));
        ProfileCostCentre c;
        c.id = id;
        c.label = cc.label;
        c.module = cc.module;
        c.srcLoc = cc.srcloc;
        c.caf = cc.caf;
        c.rts = isRtsCostCentre(c.label, c.module);
        shell.costCentres.push_back(std::move(c));
    }
    auto costCentre = [&](uint32_t id) {
        auto [it, inserted] = byId.try_emplace(id, uint32_t(shell.costCentres.size()));
        if (inserted) {
            ProfileCostCentre c;
            c.id = id;
            c.label = "<unknown cost centre " + std::to_string(id) + ">";
            shell.costCentres.push_back(std::move(c));
            ++tree->unknownIds;
        }
        return it->second;
    };
    // Every cost centre first (the unknown ids too), then the tree over them.
    uint32_t emptyStack = kNoCostCentre; // the frame a depth-0 sample is counted in
    for (const auto& stack : profile.stacks) {
        if (stack.empty() && emptyStack == kNoCostCentre) {
            emptyStack = uint32_t(shell.costCentres.size());
            ProfileCostCentre c;
            c.label = "<empty stack>";
            shell.costCentres.push_back(std::move(c));
        }
        for (uint32_t id : stack)
            costCentre(id);
    }
    TreeBuilder b(std::move(shell));
    std::vector<uint32_t> builderNode(profile.stacks.size());
    for (size_t s = 0; s < profile.stacks.size(); ++s) {
        const auto& stack = profile.stacks[s]; // innermost first
        uint32_t at = stack.empty() ? b.child(0, emptyStack) : 0;
        for (size_t k = stack.size(); k-- > 0;)
            at = b.child(at, byId.at(stack[k]));
        builderNode[s] = at;
    }
    std::vector<uint32_t> renumbered;
    tree->skeleton = b.finish(&renumbered);
    tree->stackNode.resize(profile.stacks.size());
    for (size_t s = 0; s < profile.stacks.size(); ++s)
        tree->stackNode[s] = renumbered[builderNode[s]];
    tree->stackLeading.resize(profile.stacks.size());
    tree->stackRts.resize(profile.stacks.size());
    for (size_t s = 0; s < profile.stacks.size(); ++s) {
        const ProfileNode* n = &tree->skeleton.nodes[tree->stackNode[s]];
        tree->stackLeading[s] = n->cc;
        bool rts = false;
        for (uint32_t i = tree->stackNode[s]; i != 0; i = tree->skeleton.nodes[i].parent) {
            const uint32_t c = tree->skeleton.nodes[i].cc;
            rts = rts || (c != kNoCostCentre && tree->skeleton.costCentres[c].rts);
        }
        tree->stackRts[s] = rts;
    }
    for (const auto& sample : profile.samples) {
        if (profile.stacks[sample.stack].empty())
            ++tree->emptyStacks;
        if (sample.time < profile.beginTime)
            ++tree->samplesBeforeBegin;
    }
    return tree;
}

std::vector<uint8_t> stacksThrough(const SampleTree& tree, const CostCentreProfile& profile, uint32_t node)
{
    const auto& sk = tree.skeleton.nodes;
    if (node == 0 || node >= profile.nodes.size() || sk.empty())
        return {};
    // The profile shares the skeleton's cost-centre indices.
    const uint32_t at = nodeAtPath(tree.skeleton, costCentrePath(profile, node));
    if (at == 0)
        return {};
    std::vector<uint8_t> through(tree.stackNode.size(), 0);
    for (size_t s = 0; s < through.size(); ++s)
        through[s] = tree.stackNode[s] >= at && tree.stackNode[s] < sk[at].end;
    return through;
}

size_t SampleTree::memoryBytes() const
{
    size_t bytes = sizeof(SampleTree) + skeleton.nodes.capacity() * sizeof(ProfileNode)
        + skeleton.costCentres.capacity() * sizeof(ProfileCostCentre)
        + (stackNode.capacity() + stackLeading.capacity()) * sizeof(uint32_t) + stackRts.capacity();
    for (const ProfileCostCentre& c : skeleton.costCentres)
        bytes += c.label.capacity() + c.module.capacity() + c.srcLoc.capacity();
    return bytes;
}

std::pair<size_t, size_t> sampleRange(const TimeProfileData& profile, uint64_t t0, uint64_t t1)
{
    const auto& s = profile.samples;
    auto byTime = [](const TimeProfileData::Sample& a, uint64_t t) { return a.time < t; };
    const size_t first = size_t(std::lower_bound(s.begin(), s.end(), t0, byTime) - s.begin());
    const size_t last = size_t(std::lower_bound(s.begin() + long(first), s.end(), t1, byTime) - s.begin());
    return {first, last};
}

} // namespace hecscope
