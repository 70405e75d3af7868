#pragma once

#include "core/format/event.h"
#include "core/format/eventtags.h"
#include "core/index/heapprofilepart.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace hecscope {

// Builds HeapProfilePart from HEAP_PROF_BEGIN, HEAP_PROF_COST_CENTRE,
// HEAP_(BIO_)PROF_SAMPLE_BEGIN, HEAP_PROF_SAMPLE_{COST_CENTRE,STRING},
// HEAP_PROF_SAMPLE_END and IPE. Censuses keep the log's order; a label
// repeated within one census adds to its band. Bands of cost-centre
// stacks are named as GHC's .hp files name them. A census still open when
// the log ends stays in (its endTime is kNoTime): nothing provisional.
// Decoding thread only.
class HeapProfileBuilder {
public:
    // IndexBuilders: the tags it consumes, and of those the start-up records.
    static constexpr uint16_t kTags[]{tag::HeapProfBegin, tag::HeapProfCostCentre, tag::HeapProfSampleBegin,
                                      tag::HeapBioProfSampleBegin, tag::HeapProfSampleCostCentre,
                                      tag::HeapProfSampleString, tag::HeapProfSampleEnd, tag::Ipe};
    static constexpr uint16_t kStartupTags[]{tag::HeapProfBegin, tag::HeapProfCostCentre, tag::Ipe};
    explicit HeapProfileBuilder(HeapProfilePart& part)
        : m_part(part)
    {
    }
    void consume(const Event& e);

private:
    uint32_t heapLabel(std::string_view label);
    // The band of a cost-centre stack, keyed by its ids (names can repeat).
    uint32_t stackBand(const Event& e);
    std::string stackLabel(const Event& e) const;
    void addSample(const Event& e);

    HeapProfilePart& m_part;
    std::unordered_map<std::string, uint32_t> m_labels;
    std::unordered_map<std::string, uint32_t> m_stackBands; // id bytes -> label
    std::vector<uint64_t> m_labelEntry;                     // per label: its sample in the open census
    bool m_censusOpen = false;
};

} // namespace hecscope
