// Raw decode and dump throughput. The log is $HECSCOPE_BENCH_LOG when set
// (e.g. the big log from testdata/generate.sh big), else a 256 MB scheduler
// log synthesised with the project's encoder.
//
//   build/bench/bench_decode --benchmark_counters_tabular=true
#include "core/format/decoder.h"
#include "core/format/recorddecoder.h"
#include "core/io/bytesource.h"
#include "core/report/dump.h"
#include "core/synth/synthetic.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>

using namespace hecscope;

namespace {

const std::vector<uint8_t>& benchLog()
{
    static const std::vector<uint8_t> bytes = [] {
        if (const char* path = std::getenv("HECSCOPE_BENCH_LOG")) {
            std::ifstream in(path, std::ios::binary);
            return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
        }
        return synthesizeSchedulerLog(256u << 20, 4, 7);
    }();
    return bytes;
}

class CountingSink final : public EventSink {
public:
    void onEvent(const Event& e) override { sum += e.time; }
    uint64_t sum = 0;
};

// StreamDecoder over the whole log in 1 MiB feeds: header, records, capability
// ownership, one virtual call per event.
void BM_StreamDecode(benchmark::State& state)
{
    const auto& bytes = benchLog();
    uint64_t events = 0;
    for (auto _ : state) {
        CountingSink sink;
        StreamDecoder decoder(sink);
        for (size_t pos = 0; pos < bytes.size(); pos += 1 << 20)
            decoder.feed({bytes.data() + pos, std::min<size_t>(1 << 20, bytes.size() - pos)});
        decoder.finish();
        benchmark::DoNotOptimize(sink.sum);
        events = decoder.eventCount();
    }
    state.SetBytesProcessed(int64_t(state.iterations() * bytes.size()));
    state.counters["events"] = double(events);
}
BENCHMARK(BM_StreamDecode)->Unit(benchmark::kMillisecond)->UseRealTime();

// Time-ordered dump to a discarding writer: the `hecscope dump` pipeline.
void BM_Dump(benchmark::State& state)
{
    MemorySource source(benchLog());
    uint64_t chars = 0;
    for (auto _ : state) {
        chars = 0;
        dumpLog(source, [&](std::string_view text) {
            chars += text.size();
            return true;
        });
    }
    state.SetBytesProcessed(int64_t(state.iterations() * benchLog().size()));
    state.counters["text_MB"] = double(chars) / 1e6;
}
BENCHMARK(BM_Dump)->Unit(benchmark::kMillisecond)->UseRealTime();

} // namespace

BENCHMARK_MAIN();
