#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/time/timestamp.h"

namespace hecscope {

struct CostCentre {
    uint32_t id = 0;
    std::string label, module, srcloc;
    bool caf = false;
};

// One heap-profile census: its samples are [firstSample, firstSample + count)
// of HeapProfileData::samples.
struct Census {
    uint64_t time = 0;
    uint64_t era = 0;
    uint64_t bioTime = kNoTime; // HEAP_BIO_PROF_SAMPLE_BEGIN's census time
    uint64_t endTime = kNoTime; // HEAP_PROF_SAMPLE_END
    uint8_t profile = 0;
    uint64_t firstSample = 0;
    uint32_t count = 0;
    uint64_t total = 0; // bytes
};

struct HeapProfileData {
    bool present = false;
    uint8_t profile = 0;
    uint64_t period = 0;
    uint32_t breakdown = 0;
    std::array<std::string, 7> filters;
    std::vector<Census> censuses;
    struct Entry {
        uint32_t label; // index into labels
        uint64_t bytes;
    };
    std::vector<Entry> samples;
    std::vector<std::string> labels; // closure type, module, ... or cost-centre stack "f/g/h"
    // Per label: its cost-centre ids, innermost first (-hc); empty for string labels.
    std::vector<std::vector<uint32_t>> stacks;
    // Samples whose label had already come in the same census (added to it).
    uint64_t repeatedLabels = 0;
};

// The header of a .hp heap profile (when the index was read from one).
struct HpHeader {
    std::string job, date, sampleUnit, valueUnit;
};

struct Ipe {
    uint64_t address = 0;
    std::string name, description, type, label, module, srcloc;
};

} // namespace hecscope
