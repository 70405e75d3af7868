// libFuzzer entry point for the .prof / -pj readers: any bytes must read
// without a crash, hang or sanitizer report into a consistent tree (every
// node's parent before it, inclusive figures the sum of self figures), and
// every view of that tree must answer.
#include "core/profile/profileviews.h"
#include "core/profile/profreport.h"

#include <cstdint>
#include <cstdlib>
#include <string_view>

using namespace hecscope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    (void)looksLikeProfReport(text.substr(0, 4096));
    const CostCentreProfile p = readProfReport(text);
    if (p.nodes.empty())
        return 0;
    uint64_t self[2] = {0, 0};
    for (size_t i = 0; i < p.nodes.size(); ++i) {
        const ProfileNode& n = p.nodes[i];
        if (i > 0 && (n.parent >= i || n.end <= i || n.end > p.nodes[n.parent].end))
            std::abort();
        if (n.cc != kNoCostCentre && n.cc >= p.costCentres.size())
            std::abort();
        self[0] += n.self[0];
        self[1] += n.self[1];
    }
    if (p.total(ProfileMetric::Time) != self[0] || p.total(ProfileMetric::Alloc) != self[1])
        std::abort();
    const CostCentreProfile up = bottomUp(p);
    if (up.total(ProfileMetric::Time) != self[0])
        std::abort();
    (void)withoutRtsFrames(p);
    (void)foldedText(p, ProfileMetric::Time);
    (void)costCentresCsv(p, ProfileMetric::Alloc);
    (void)layoutFlame(p, 0, ProfileMetric::Time);
    if (!p.costCentres.empty()) {
        (void)callersOf(p, 0);
        (void)calleesOf(p, uint32_t(p.costCentres.size() - 1));
    }
    return 0;
}
