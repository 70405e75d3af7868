// synthesizeProfReport (synthetic.h): a `-P` `.prof` report of a chosen size,
// the tree of synthesizeProfileLog's samples written by writeProfText.
#include "core/synth/synthetic.h"

#include "core/io/bytesource.h"
#include "core/load/loader.h"
#include "core/profile/profwriter.h"
#include "core/timeprofile/sampleprofile.h"

#include <algorithm>

namespace hecscope {
namespace {

uint64_t mix(uint64_t x) // splitmix64's finaliser
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

// The whole run's samples as a report: ticks as they are, entries and bytes
// drawn per node from its number and cost centre (a quarter of the nodes
// allocate nothing; the others 8 to 40,000 bytes a tick, and a little when
// they have no tick).
CostCentreProfile reportOf(size_t samples, size_t costCentres, uint64_t seed)
{
    MemorySource source(synthesizeProfileLog(samples, costCentres, 50, 4, seed));
    const LoadResult loaded = loadIndex(source);
    CostCentreProfile p = *sampleProfile(*loaded.index, SampleFilter{});
    p.source = ProfileSource::ProfText;
    p.unit[0] = ProfileUnit::Ticks;
    p.hasMetric[1] = p.hasEntries = true;
    for (size_t i = 1; i < p.nodes.size(); ++i) {
        ProfileNode& n = p.nodes[i];
        const uint64_t h = mix(seed ^ (uint64_t(i) << 20) ^ n.cc);
        n.entries = 1 + (h >> 40) % (n.self[0] * 1000 + 50);
        const uint64_t perTick = 8 * (1 + (h >> 8) % 5000);
        n.self[1] = h % 4 == 0 ? 0 : (n.self[0] ? n.self[0] * perTick : perTick / 8 * 16);
    }
    finishTree(p);
    p.header.date = "Thu Jan  1 00:00 1970";
    p.header.commandLine = (p.header.program.empty() ? std::string("synthetic") : p.header.program)
        + " +RTS -P -RTS";
    return p;
}

} // namespace

std::string synthesizeProfReport(size_t targetBytes, uint64_t seed)
{
    // The text grows with the samples, but not in proportion (new samples
    // often fall on stacks already in the tree): grow by the shortfall until
    // long enough, then bisect between the last too short and the first too
    // long until within 10 %.
    auto make = [&](size_t samples) {
        return writeProfText(reportOf(samples, std::max<size_t>(300, samples / 200), seed));
    };
    size_t low = 0, high = 0; // samples: the most too short, the fewest long enough
    size_t samples = 20000;
    std::string best, shortest; // long enough; the longest too short
    for (int round = 0; round < 24; ++round) {
        std::string text = make(samples);
        const size_t size = text.size();
        if (size >= targetBytes) {
            high = samples;
            best = std::move(text);
            if (size <= targetBytes + targetBytes / 10 || high - low <= 1000)
                break;
            samples = low + (high - low) / 2;
            continue;
        }
        low = samples;
        shortest = std::move(text);
        if (high == 0)
            samples = size_t(double(samples) * std::clamp(double(targetBytes) / double(std::max<size_t>(1, size)), 1.1, 8.0));
        else
            samples = low + (high - low) / 2;
    }
    return best.empty() ? shortest : best;
}

} // namespace hecscope
