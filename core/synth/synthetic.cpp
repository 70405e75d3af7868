#include "core/synth/synthetic.h"

#include "core/format/encoder.h"
#include "core/format/eventtags.h"

namespace hecscope {
namespace {

constexpr size_t kBlockBytes = 2 << 20; // GHC's default per-capability buffer

// xorshift64*: small, fast and deterministic.
struct Rng {
    uint64_t state;
    uint64_t next()
    {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        return state * 0x2545F4914F6CDD1DULL;
    }
    uint32_t below(uint32_t n) { return uint32_t(next() % n); }
};

} // namespace

std::vector<uint8_t> synthesizeSchedulerLog(size_t targetBytes, int caps, uint64_t seed)
{
    EventlogWriter w(EventlogWriter::allDeclarations());
    Rng rng{seed * 0x9E3779B97F4A7C15ULL + 1};
    std::vector<uint64_t> capTime(size_t(caps), 1000);
    uint64_t globalTime = 0;
    uint32_t nextThread = 1;
    uint64_t allocated = 0;

    w.beginBlock(kNoCap, 0);
    for (int c = 0; c < caps; ++c) {
        OwnedEvent create(tag::CapCreate, 10 + uint64_t(c), {uint64_t(c)});
        w.write(create.event);
    }
    w.endBlock(10 + uint64_t(caps));

    while (w.bytes().size() < targetBytes) {
        // Each capability flushes one block in turn, as the RTS does.
        for (int c = 0; c < caps && w.bytes().size() < targetBytes; ++c) {
            uint64_t& t = capTime[size_t(c)];
            const size_t blockStart = w.bytes().size();
            w.beginBlock(uint16_t(c), t);
            while (w.bytes().size() - blockStart < kBlockBytes) {
                const uint32_t thread = 1 + rng.below(nextThread);
                t += 200 + rng.below(3000);
                const uint32_t pick = rng.below(100);
                if (pick < 2) {
                    OwnedEvent e(tag::CreateThread, t, {++nextThread});
                    w.write(e.event);
                } else if (pick < 4) {
                    OwnedEvent req(tag::RequestSeqGc, t);
                    OwnedEvent start(tag::GcStart, t + 100);
                    OwnedEvent work(tag::GcWork, t + 150);
                    OwnedEvent done(tag::GcDone, t + 4000);
                    OwnedEvent end(tag::GcEnd, t + 4100);
                    for (const OwnedEvent* e : {&req, &start, &work, &done, &end})
                        w.write(e->event);
                    t += 4100;
                } else if (pick < 10) {
                    OwnedEvent e(tag::SparkCreate, t);
                    w.write(e.event);
                } else {
                    OwnedEvent run(tag::RunThread, t, {thread});
                    t += 500 + rng.below(20000);
                    const uint64_t status = pick < 60 ? 3 : (pick < 85 ? 7 : 1);
                    OwnedEvent stop(tag::StopThread, t, {thread, status, 0});
                    OwnedEvent wake(tag::ThreadWakeup, t + 50, {thread, uint64_t(rng.below(uint32_t(caps)))});
                    OwnedEvent runnable(tag::ThreadRunnable, t + 60, {thread});
                    w.write(run.event);
                    w.write(stop.event);
                    w.write(status == 7 ? wake.event : runnable.event);
                }
            }
            w.endBlock(t);
        }
        // A global block with heap figures.
        globalTime = std::max(globalTime, capTime[0]);
        w.beginBlock(kNoCap, globalTime);
        allocated += 1 << 20;
        OwnedEvent alloc(tag::HeapAllocated, globalTime, {0, allocated});
        OwnedEvent size(tag::HeapSize, globalTime, {0, 64u << 20});
        OwnedEvent live(tag::HeapLive, globalTime, {0, 20u << 20});
        w.write(alloc.event);
        w.write(size.event);
        w.write(live.event);
        w.endBlock(globalTime);
    }
    w.writeDataEnd();
    return w.takeBytes();
}

std::vector<uint8_t> synthesizeHeapProfileLog(size_t censuses, size_t labels, uint64_t seed)
{
    EventlogWriter w(EventlogWriter::allDeclarations());
    Rng rng{seed * 0x9E3779B97F4A7C15ULL + 7};
    constexpr uint64_t kInterval = 100'000'000; // 100 ms
    constexpr uint32_t kHT = 7;
    w.beginBlock(kNoCap, 0);
    OwnedEvent cap(tag::CapCreate, 0, {0});
    OwnedEvent begin(tag::HeapProfBegin, 1, {0, kInterval, kHT}, {"", "", "", "", "", "", ""});
    w.write(cap.event);
    w.write(begin.event);
    w.endBlock(1);
    std::vector<std::string> names(labels);
    std::vector<uint32_t> shape(labels), scale(labels);
    for (size_t l = 0; l < labels; ++l) {
        names[l] = "ghc-prim:GHC.Types.Band" + std::to_string(l);
        shape[l] = rng.below(4);
        scale[l] = 16 + rng.below(1u << (4 + l % 16));
    }
    for (size_t c = 0; c < censuses; ++c) {
        const uint64_t t = 1'000'000 + c * kInterval;
        w.beginBlock(kNoCap, t);
        OwnedEvent sb(tag::HeapProfSampleBegin, t, {c});
        w.write(sb.event);
        uint64_t total = 0;
        for (size_t l = 0; l < labels; ++l) {
            uint64_t bytes = 0;
            switch (shape[l]) {
            case 0: bytes = scale[l] * (1 + c / 8); break;                          // leak
            case 1: bytes = scale[l] * 64; break;                                   // steady
            case 2: bytes = scale[l] * (64 + 48 * ((c / 50) % 2 ? 1 : -1)); break;  // oscillating
            default: bytes = rng.below(10) < 3 ? 0 : scale[l] * rng.below(128); break; // comes and goes
            }
            bytes = bytes / 8 * 8;
            if (bytes == 0)
                continue;
            total += bytes;
            OwnedEvent e(tag::HeapProfSampleString, t, {0, bytes}, {names[l]});
            w.write(e.event);
        }
        OwnedEvent se(tag::HeapProfSampleEnd, t, {c});
        OwnedEvent size(tag::HeapSize, t, {0, total * 2});
        OwnedEvent live(tag::HeapLive, t, {0, total});
        w.write(se.event);
        w.write(size.event);
        w.write(live.event);
        w.endBlock(t);
    }
    w.writeDataEnd();
    return w.takeBytes();
}

} // namespace hecscope
