#pragma once

#include "core/profile/profile.h"

#include <algorithm>
#include <cstdint>
#include <bit>
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
        m_out.flat = like.flat;
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
        if ((m_nodes.size() + 1) * 2 > m_keys.size())
            grow();
        size_t slot = slotOf(key);
        while (m_keys[slot] != kEmpty) {
            if (m_keys[slot] == key)
                return m_values[slot];
            slot = (slot + 1) & (m_keys.size() - 1);
        }
        const auto made = uint32_t(m_nodes.size());
        m_keys[slot] = key;
        m_values[slot] = made;
        Node n;
        n.cc = cc;
        n.parent = parent;
        m_nodes.push_back(n);
        Node& p = m_nodes[parent];
        if (p.lastChild == kNone)
            p.firstChild = made;
        else
            m_nodes[p.lastChild].nextSibling = made;
        p.lastChild = made;
        return made;
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
    static constexpr uint64_t kEmpty = ~uint64_t(0); // no (parent, cc) is all ones: cc is never kNoCostCentre here

    // An open-addressing table (parent, cc) -> node: path merging does a
    // lookup per frame, millions for a big profile, where a node-based map
    // costs an allocation and a cache miss each.
    size_t slotOf(uint64_t key) const
    {
        return size_t((key * 0x9E3779B97F4A7C15ull) >> m_shift);
    }
    void grow()
    {
        const size_t size = m_keys.empty() ? 1024 : m_keys.size() * 2;
        std::vector<uint64_t> keys(size, kEmpty);
        std::vector<uint32_t> values(size);
        m_shift = 64 - unsigned(std::countr_zero(size));
        for (size_t i = 0; i < m_keys.size(); ++i) {
            if (m_keys[i] == kEmpty)
                continue;
            size_t slot = slotOf(m_keys[i]);
            while (keys[slot] != kEmpty)
                slot = (slot + 1) & (size - 1);
            keys[slot] = m_keys[i];
            values[slot] = m_values[i];
        }
        m_keys = std::move(keys);
        m_values = std::move(values);
    }

    struct Node {
        uint32_t cc = kNoCostCentre, parent = 0;
        uint32_t firstChild = kNone, lastChild = kNone, nextSibling = kNone;
        uint64_t self[2] = {0, 0};
        uint64_t entries = 0;
        uint32_t number = 0;
    };
    CostCentreProfile m_out;
    std::vector<Node> m_nodes;
    std::vector<uint64_t> m_keys;
    std::vector<uint32_t> m_values;
    unsigned m_shift = 64;
};

} // namespace hecscope
