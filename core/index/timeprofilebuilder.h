#pragma once

#include "core/format/event.h"
#include "core/format/eventtags.h"
#include "core/index/timeprofilepart.h"

#include <cstdint>
#include <string>
#include <unordered_map>

namespace hecscope {

// Builds TimeProfilePart from PROF_BEGIN and PROF_SAMPLE_COST_CENTRE
// (stacks interned by their ids), in log order. Nothing provisional. Decoding thread only.
class TimeProfileBuilder {
public:
    // IndexBuilders: the tags it consumes, and of those the start-up records.
    static constexpr uint16_t kTags[]{tag::ProfBegin, tag::ProfSampleCostCentre};
    static constexpr uint16_t kStartupTags[]{tag::ProfBegin};
    explicit TimeProfileBuilder(TimeProfilePart& part)
        : m_part(part)
    {
    }
    void consume(const Event& e);

private:
    uint32_t timeStack(const Event& e);

    TimeProfilePart& m_part;
    std::unordered_map<std::string, uint32_t> m_stacks; // id bytes -> index in stacks
};

} // namespace hecscope
