#pragma once

#include "core/profile/profile.h"

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace hecscope {

// Builds a CostCentreProfile tree by merging paths: child(parent, cc) finds or
// makes a node; finish() writes the nodes in pre-order (children in the order
// they were first made) and computes the inclusive figures. The profile it
// starts from lends its cost centres, units and header.
class TreeBuilder {
public:
    explicit TreeBuilder(const CostCentreProfile& like)
    {
        m_out.source = like.source;
        m_out.unit[0] = like.unit[0];
        m_out.unit[1] = like.unit[1];
        m_out.hasMetric[0] = like.hasMetric[0];
        m_out.hasMetric[1] = like.hasMetric[1];
        m_out.hasEntries = like.hasEntries;
        m_out.header = like.header;
        m_out.costCentres = like.costCentres;
        m_nodes.push_back({});
    }
    explicit TreeBuilder(CostCentreProfile&& shell)
        : m_out(std::move(shell))
    {
        m_out.nodes.clear();
        m_nodes.push_back({});
    }

    uint32_t child(uint32_t parent, uint32_t cc)
    {
        const uint64_t key = (uint64_t(parent) << 32) | cc;
        auto [it, inserted] = m_index.try_emplace(key, uint32_t(m_nodes.size()));
        if (inserted) {
            Node n;
            n.cc = cc;
            n.parent = parent;
            m_nodes.push_back(n);
            Node& p = m_nodes[parent];
            if (p.lastChild == kNone)
                p.firstChild = it->second;
            else
                m_nodes[p.lastChild].nextSibling = it->second;
            p.lastChild = it->second;
        }
        return it->second;
    }
    void addSelf(uint32_t node, const uint64_t (&v)[2])
    {
        m_nodes[node].self[0] += v[0];
        m_nodes[node].self[1] += v[1];
    }
    void addEntries(uint32_t node, uint64_t entries) { m_nodes[node].entries += entries; }
    void setNumber(uint32_t node, uint32_t number) { m_nodes[node].number = number; }
    void keepWarnings(const CostCentreProfile& p)
    {
        m_out.warnings = p.warnings;
        m_out.error = p.error;
    }
    size_t size() const { return m_nodes.size(); }

    // `renumbered`, when given, receives each builder node's index in the result.
    CostCentreProfile finish(std::vector<uint32_t>* renumbered = nullptr)
    {
        std::vector<uint32_t> newIndex(m_nodes.size());
        m_out.nodes.clear();
        m_out.nodes.reserve(m_nodes.size());
        std::vector<uint32_t> stack{0};
        while (!stack.empty()) {
            const uint32_t i = stack.back();
            stack.pop_back();
            const Node& n = m_nodes[i];
            newIndex[i] = uint32_t(m_out.nodes.size());
            ProfileNode out;
            out.cc = n.cc;
            out.parent = i == 0 ? 0 : newIndex[n.parent];
            out.self[0] = n.self[0];
            out.self[1] = n.self[1];
            out.entries = n.entries;
            out.number = n.number;
            m_out.nodes.push_back(out);
            const size_t mark = stack.size();
            for (uint32_t c = n.firstChild; c != kNone; c = m_nodes[c].nextSibling)
                stack.push_back(c);
            std::reverse(stack.begin() + long(mark), stack.end());
        }
        finishTree(m_out);
        if (renumbered)
            *renumbered = std::move(newIndex);
        return std::move(m_out);
    }

private:
    static constexpr uint32_t kNone = 0xffffffffu;
    struct Node {
        uint32_t cc = kNoCostCentre, parent = 0;
        uint32_t firstChild = kNone, lastChild = kNone, nextSibling = kNone;
        uint64_t self[2] = {0, 0};
        uint64_t entries = 0;
        uint32_t number = 0;
    };
    CostCentreProfile m_out;
    std::vector<Node> m_nodes;
    std::unordered_map<uint64_t, uint32_t> m_index;
};

} // namespace hecscope
