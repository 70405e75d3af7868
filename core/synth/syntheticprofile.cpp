// synthesizeProfileLog (synthetic.h): a cost-centre time profile, kept apart
// from the scheduler simulation in synthetic.cpp, which it shares nothing with.
#include "core/synth/synthetic.h"
#include "core/synth/synthrandom.h"

#include "core/format/encoder.h"
#include "core/format/eventtags.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <unordered_set>

namespace hecscope {
namespace {

using synth::kBlockBytes;
using synth::Rng;
constexpr uint64_t kTick = 1'000'000;   // ns: +RTS -V default, PROF_BEGIN's interval

// 100 module names: every pair of a namespace and a component.
std::vector<std::string> moduleNames()
{
    static const char* const kTop[] = {"Data", "Control", "App", "Network", "Text",
                                       "System", "Database", "Web", "Codec", "Util"};
    static const char* const kSub[] = {"Map", "Parser", "Server", "Cache", "Json",
                                       "Query", "Render", "Types", "Internal", "Encoding"};
    std::vector<std::string> out;
    for (const char* sub : kSub)
        for (const char* top : kTop)
            out.push_back(std::string(top) + '.' + sub);
    return out;
}

// An index in [0, n) with weight 1/(k+1): early callees are the hot ones.
uint32_t zipfIndex(Rng& rng, uint32_t n)
{
    double harmonic = 0;
    for (uint32_t k = 0; k < n; ++k)
        harmonic += 1.0 / double(k + 1);
    double u = rng.unit() * harmonic;
    for (uint32_t k = 0; k < n; ++k) {
        u -= 1.0 / double(k + 1);
        if (u < 0)
            return k;
    }
    return n - 1;
}

} // namespace

std::vector<uint8_t> synthesizeProfileLog(size_t samples, size_t costCentres, size_t maxDepth, int caps,
                                          uint64_t seed)
{
    caps = std::clamp(caps, 1, 256);
    costCentres = std::max<size_t>(costCentres, 2);
    maxDepth = std::clamp<size_t>(maxDepth, 2, 255); // the depth field is one byte
    Rng rng{seed * 0x9E3779B97F4A7C15ULL + 11};
    const std::vector<std::string> modules = moduleNames();
    // Cost centre ids: 1 is main, 2..costCentres the program's, then GC and IDLE.
    const uint32_t n = uint32_t(costCentres);
    const uint32_t gc = n + 1, idle = n + 2;
    static const char* const kVerbs[] = {"parse", "render", "lookup", "insert", "decode", "encode", "step", "go",
                                         "loop", "fold", "eval", "run", "handle", "compute", "merge", "split"};
    // The call graph: each cost centre calls 1-6 others, mostly near it (the
    // same module), now and then far away; 1 in 40 calls itself first.
    std::vector<std::vector<uint32_t>> callees(n + 1);
    for (uint32_t c = 1; c <= n; ++c) {
        if (c % 40 == 0)
            callees[c].push_back(c);
        for (uint32_t k = 1 + rng.below(6); k > 0; --k) {
            const uint32_t hop = rng.below(10) == 0 ? rng.below(n) : 1 + rng.below(60);
            callees[c].push_back(2 + (c + hop) % (n - 1));
        }
    }
    // Distinct stacks (tens of thousands for a million samples), by random
    // walks from main, outermost first.
    const size_t wanted = std::clamp<size_t>(samples / 25, 10, 60'000);
    std::vector<std::vector<uint32_t>> stacks;
    std::unordered_set<std::string> seen;
    for (size_t attempt = 0; stacks.size() < wanted && attempt < wanted * 8; ++attempt) {
        const size_t depth = std::min(maxDepth, size_t(3 + rng.below(12) + (rng.below(4) == 0 ? rng.below(uint32_t(maxDepth)) : 0)));
        std::vector<uint32_t> stack{1};
        while (stack.size() < depth) {
            const auto& next = callees[stack.back()];
            stack.push_back(next[zipfIndex(rng, uint32_t(next.size()))]);
        }
        std::string key(reinterpret_cast<const char*>(stack.data()), stack.size() * 4);
        if (seen.insert(std::move(key)).second)
            stacks.push_back(std::move(stack));
    }
    // Zipf weights by rank (s = 1.1), ranks shuffled against generation
    // order; the hot stacks change in each quarter of the run.
    std::vector<double> cumulative(stacks.size());
    double sum = 0;
    for (size_t r = 0; r < stacks.size(); ++r)
        cumulative[r] = sum += 1.0 / std::pow(double(r + 1), 1.1);
    std::vector<uint32_t> byRank(stacks.size());
    for (uint32_t i = 0; i < byRank.size(); ++i)
        byRank[i] = i;
    for (size_t i = byRank.size(); i > 1; --i)
        std::swap(byRank[i - 1], byRank[rng.below(uint32_t(i))]);

    EventlogWriter w(EventlogWriter::allDeclarations());
    w.beginBlock(kNoCap, 0);
    {
        OwnedEvent capset(tag::CapsetCreate, 1, {0, 2});
        static constexpr char kArgs[] = "synthetic-profile\0+RTS\0-p\0-l\0-RTS";
        OwnedEvent args(tag::ProgramArgs, 2, {0}, {std::string_view(kArgs, sizeof kArgs - 1)});
        w.write(capset.event);
        w.write(args.event);
        for (int c = 0; c < caps; ++c) {
            OwnedEvent create(tag::CapCreate, 3, {uint64_t(c)});
            w.write(create.event);
        }
        auto define = [&](uint32_t id, const std::string& label, const std::string& module, const std::string& src) {
            OwnedEvent e(tag::HeapProfCostCentre, 4, {id, 0}, {label, module, src});
            w.write(e.event);
        };
        define(1, "main", "Main", "src/Main.hs:12:1-40");
        for (uint32_t c = 2; c <= n; ++c) {
            const std::string& module = modules[size_t(c - 2) * modules.size() / (n - 1)];
            std::string path = module;
            std::replace(path.begin(), path.end(), '.', '/');
            define(c, std::string(kVerbs[c % 16]) + "_" + std::to_string(c), module,
                   "src/" + path + ".hs:" + std::to_string(10 + c % 900) + ":5-" + std::to_string(20 + c % 60));
        }
        define(gc, "GC", "MAIN", "<built-in>");
        define(idle, "IDLE", "MAIN", "<built-in>");
        OwnedEvent begin(tag::ProfBegin, 5, {kTick});
        w.write(begin.event);
    }
    w.endBlock(5);

    // Each capability samples once a tick; the capabilities' streams are
    // written in ~2 MiB blocks, taking turns, as the RTS flushes them.
    const uint64_t ticks = (samples + size_t(caps) - 1) / size_t(caps);
    std::vector<uint64_t> nextTick(size_t(caps), 0);
    size_t left = samples;
    std::vector<uint8_t> ids;
    while (left > 0) {
        for (int c = 0; c < caps && left > 0; ++c) {
            uint64_t& tick = nextTick[size_t(c)];
            if (tick == ticks)
                continue;
            const size_t blockStart = w.bytes().size();
            const uint64_t startTime = 1'000'000 + tick * kTick;
            w.beginBlock(uint16_t(c), startTime);
            uint64_t last = startTime;
            while (left > 0 && tick < ticks && w.bytes().size() - blockStart + 1200 < kBlockBytes) {
                const uint64_t time = 1'000'000 + tick * kTick + uint64_t(c) * 1000 + rng.below(50'000);
                std::vector<uint32_t> single;
                const std::vector<uint32_t>* stack = &single;
                const uint32_t pick = rng.below(100);
                if (pick < 6) {
                    single = {gc};
                } else if (pick < 10) {
                    single = {idle};
                } else {
                    const double u = rng.unit() * sum;
                    const size_t rank = size_t(std::lower_bound(cumulative.begin(), cumulative.end(), u) - cumulative.begin());
                    const size_t quarter = size_t(tick * 4 / std::max<uint64_t>(ticks, 1));
                    stack = &stacks[byRank[(std::min(rank, stacks.size() - 1) + quarter * stacks.size() / 7) % stacks.size()]];
                }
                ids.clear();
                for (size_t k = stack->size(); k-- > 0;) { // innermost first, big-endian
                    const uint32_t id = (*stack)[k];
                    ids.insert(ids.end(), {uint8_t(id >> 24), uint8_t(id >> 16), uint8_t(id >> 8), uint8_t(id)});
                }
                Event e{};
                e.known = true;
                e.tag = tag::ProfSampleCostCentre;
                e.time = time;
                e.n[0] = uint64_t(c);
                e.n[1] = tick + 1;
                e.n[2] = stack->size();
                e.depth = uint16_t(stack->size());
                e.ids = ids.data();
                w.write(e);
                last = time;
                ++tick;
                --left;
            }
            w.endBlock(last);
        }
    }
    w.writeDataEnd();
    return w.takeBytes();
}

} // namespace hecscope
