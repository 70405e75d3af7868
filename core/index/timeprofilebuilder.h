#pragma once

#include "core/format/event.h"
#include "core/index/timeprofilepart.h"

#include <cstdint>
#include <string>
#include <unordered_map>

namespace hecscope {

// Builds TimeProfilePart from PROF_BEGIN, PROF_SAMPLE_COST_CENTRE (stacks
// interned by their ids), TICKY_COUNTER_DEF and TICKY_COUNTER_SAMPLE, in
// log order. Nothing provisional. Decoding thread only.
class TimeProfileBuilder {
public:
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
