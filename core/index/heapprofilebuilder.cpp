#include "core/index/heapprofilebuilder.h"

#include "core/format/eventtags.h"

namespace hecscope {

void HeapProfileBuilder::consume(const Event& e)
{
    const auto& n = e.n;
    switch (e.tag) {
    case tag::HeapProfBegin: {
        HeapProfileData& hp = m_part.heapProfile;
        hp.present = true;
        hp.profile = uint8_t(n[0]);
        hp.period = n[1];
        hp.breakdown = uint32_t(n[2]);
        for (size_t i = 0; i < hp.filters.size(); ++i)
            hp.filters[i] = std::string(e.s[i]);
        break;
    }
    case tag::HeapProfCostCentre: {
        CostCentre& cc = m_part.costCentres[uint32_t(n[0])];
        cc.id = uint32_t(n[0]);
        cc.label = std::string(e.s[0]);
        cc.module = std::string(e.s[1]);
        cc.srcloc = std::string(e.s[2]);
        cc.caf = n[1] & 1;
        break;
    }
    case tag::HeapProfSampleBegin:
    case tag::HeapBioProfSampleBegin: {
        Census c;
        c.time = e.time;
        c.era = n[0];
        if (e.tag == tag::HeapBioProfSampleBegin)
            c.bioTime = n[1];
        c.firstSample = m_part.heapProfile.samples.size();
        m_part.heapProfile.censuses.push_back(c);
        m_censusOpen = true;
        break;
    }
    case tag::HeapProfSampleCostCentre:
    case tag::HeapProfSampleString:
        if (m_censusOpen)
            addSample(e);
        break;
    case tag::HeapProfSampleEnd:
        if (m_censusOpen)
            m_part.heapProfile.censuses.back().endTime = e.time;
        m_censusOpen = false;
        break;
    case tag::Ipe:
        m_part.ipes.push_back({n[0], std::string(e.s[0]), std::string(e.s[1]), std::string(e.s[2]),
                               std::string(e.s[3]), std::string(e.s[4]), std::string(e.s[5])});
        break;
    default: break;
    }
}

void HeapProfileBuilder::addSample(const Event& e)
{
    HeapProfileData& hp = m_part.heapProfile;
    const uint64_t bytes = e.n[1];
    const uint32_t label = e.tag == tag::HeapProfSampleString ? heapLabel(e.s[0]) : stackBand(e);
    Census& c = hp.censuses.back();
    // A label repeated within one census (-hd/-hy key bands by string
    // pointer, so equal strings can come twice) is one band: add.
    if (label < m_labelEntry.size() && m_labelEntry[label] != UINT64_MAX && m_labelEntry[label] >= c.firstSample) {
        hp.samples[m_labelEntry[label]].bytes += bytes;
        ++hp.repeatedLabels;
    } else {
        if (label >= m_labelEntry.size())
            m_labelEntry.resize(label + 1, UINT64_MAX);
        m_labelEntry[label] = hp.samples.size();
        hp.samples.push_back({label, bytes});
        ++c.count;
    }
    c.profile = uint8_t(e.n[0]);
    c.total += bytes;
}

uint32_t HeapProfileBuilder::heapLabel(std::string_view label)
{
    HeapProfileData& hp = m_part.heapProfile;
    auto [it, inserted] = m_labels.try_emplace(std::string(label), uint32_t(hp.labels.size()));
    if (inserted) {
        hp.labels.emplace_back(label);
        hp.stacks.emplace_back();
    }
    return it->second;
}

uint32_t HeapProfileBuilder::stackBand(const Event& e)
{
    HeapProfileData& hp = m_part.heapProfile;
    const std::string key(reinterpret_cast<const char*>(e.ids), size_t(e.depth) * 4);
    auto [it, inserted] = m_stackBands.try_emplace(key, uint32_t(hp.labels.size()));
    if (inserted) {
        std::string name = stackLabel(e);
        // Two stacks of equal names (cost centres of the same name in
        // different modules) stay apart: the later one gets a suffix.
        if (!m_labels.try_emplace(name, it->second).second) {
            for (int k = 2;; ++k) {
                std::string alt = name + " #" + std::to_string(k);
                if (m_labels.try_emplace(alt, it->second).second) {
                    name = std::move(alt);
                    break;
                }
            }
        }
        hp.labels.push_back(std::move(name));
        std::vector<uint32_t> stack(e.depth);
        for (size_t i = 0; i < e.depth; ++i)
            stack[i] = e.ccId(i);
        hp.stacks.push_back(std::move(stack));
    }
    return it->second;
}

// As GHC's .hp files name stacks: innermost first, joined by '/', a CAF as
// Module.CAF, the empty stack MAIN (without the .hp's "(ccsID)" prefix,
// which the eventlog does not carry, and without its -L truncation).
std::string HeapProfileBuilder::stackLabel(const Event& e) const
{
    std::string label;
    for (size_t i = 0; i < e.depth; ++i) {
        if (i > 0)
            label += '/';
        const auto it = m_part.costCentres.find(e.ccId(i));
        if (it == m_part.costCentres.end())
            label += "cc" + std::to_string(e.ccId(i));
        else if (it->second.caf || it->second.label == "CAF")
            label += it->second.module + ".CAF";
        else
            label += it->second.label;
    }
    return label.empty() ? std::string("MAIN") : label;
}

} // namespace hecscope
