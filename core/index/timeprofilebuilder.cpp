#include "core/index/timeprofilebuilder.h"

#include "core/format/eventtags.h"

#include <algorithm>
#include <vector>

namespace hecscope {

void TimeProfileBuilder::consume(const Event& e)
{
    const uint64_t t = e.time;
    const auto& n = e.n;
    switch (e.tag) {
    case tag::ProfBegin:
        m_part.timeProfile.tickInterval = n[0];
        m_part.timeProfile.beginTime = std::min(m_part.timeProfile.beginTime, t);
        break;
    case tag::ProfSampleCostCentre:
        m_part.timeProfile.samples.push_back({t, n[1], timeStack(e), uint16_t(n[0])});
        break;
    default: break;
    }
}

uint32_t TimeProfileBuilder::timeStack(const Event& e)
{
    const std::string key(reinterpret_cast<const char*>(e.ids), size_t(e.depth) * 4);
    auto [it, inserted] = m_stacks.try_emplace(key, uint32_t(m_part.timeProfile.stacks.size()));
    if (inserted) {
        std::vector<uint32_t> stack(e.depth);
        for (size_t i = 0; i < e.depth; ++i)
            stack[i] = e.ccId(i);
        m_part.timeProfile.stacks.push_back(std::move(stack));
    }
    return it->second;
}

} // namespace hecscope
