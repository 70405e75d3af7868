// libFuzzer entry point: any bytes, fed whole and in uneven chunks, must
// decode without a crash, hang or sanitizer report, agree between the two
// feeds, dump (time-ordered, printed) without fault, and load into the index
// (also in pieces, published in between) with statistics, LOD queries, the
// event index and `info --json` all answering.
#include "core/io/bytesource.h"
#include "core/format/decoder.h"
#include "core/load/indexbuilder.h"
#include "core/load/loader.h"
#include "core/report/dump.h"
#include "core/report/info.h"
#include "core/index/logindex.h"
#include "core/text/printer.h"
#include "core/stats/stats.h"

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

using namespace hecscope;

namespace {

class TextSink final : public EventSink {
public:
    void onHeader(const std::shared_ptr<const LogFormat>& format) override
    {
        m_format = format;
        m_printer = std::make_unique<EventPrinter>(*format);
    }
    void onEvent(const Event& e) override
    {
        m_out.clear();
        m_printer->printEvent(e, m_out);
        hash = hash * 1099511628211ULL ^ std::hash<std::string_view>{}(m_out.text()) ^ e.offset;
        ++events;
    }
    uint64_t hash = 14695981039346656037ULL;
    uint64_t events = 0;

private:
    std::shared_ptr<const LogFormat> m_format;
    std::unique_ptr<EventPrinter> m_printer;
    TextBuffer m_out;
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    TextSink whole;
    StreamDecoder a(whole);
    a.feed({data, size});
    a.finish();

    TextSink chunked;
    StreamDecoder b(chunked);
    size_t pos = 0;
    size_t step = 1;
    while (pos < size) {
        const size_t n = std::min(step, size - pos);
        b.feed({data + pos, n});
        pos += n;
        step = step * 3 % 17 + 1;
    }
    b.finish();
    if (whole.hash != chunked.hash || whole.events != chunked.events
        || a.diagnostics() != b.diagnostics())
        std::abort();

    MemorySource source(std::vector<uint8_t>(data, data + size));
    uint64_t chars = 0;
    dumpLog(source, [&](std::string_view text) {
        chars += text.size();
        return true;
    });

    const LoadResult loaded = loadIndex(source, size);
    const LogIndex& ix = *loaded.index;
    const RangeStats all = computeStats(ix);
    const RangeStats part = computeStats(ix, ix.lastTime / 3, ix.lastTime / 3 * 2 + 1);
    std::vector<LodItem> items;
    for (const Capability& cap : ix.caps) {
        cap.timeline.lod(0, ix.lastTime + 1, 97, items);
        for (const SparkTotals& bucket : sparkBuckets(cap, 0, ix.lastTime / 7 + 1, 7))
            chars += bucket.created;
    }
    chars += infoJson(ix, all, "fuzz").size() + infoText(ix, part, "fuzz").size();
    const TimeOrder order(ix.scan);
    class Count final : public EventSink {
    public:
        void onEvent(const Event&) override { ++n; }
        uint64_t n = 0;
    } count;
    order.visitRange(source, count, ix.scan.events / 2, 5);
    chars += order.find(source, 0, [](const Event& e) { return e.tag == 58; }, [](const Event&, uint64_t) {}, 3);

    // Fed in two pieces with a provisional publish between: the same index.
    IndexBuilder growing;
    growing.feed({data, size / 2});
    growing.publish(false);
    growing.feed({data + size / 2, size - size / 2});
    const LogIndex& grown = growing.publish(true);
    if (grown.scan.events != ix.scan.events || grown.collections.size() != ix.collections.size()
        || grown.caps.size() != ix.caps.size())
        std::abort();
    for (size_t c = 0; c < ix.caps.size(); ++c)
        if (grown.caps[c].timeline.size() != ix.caps[c].timeline.size())
            std::abort();
    (void)chars;
    return 0;
}
