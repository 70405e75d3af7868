// libFuzzer entry point: any bytes, fed whole and in uneven chunks, must
// decode without a crash, hang or sanitizer report, agree between the two
// feeds, and dump (time-ordered, printed) without fault.
#include "core/bytesource.h"
#include "core/decoder.h"
#include "core/dump.h"
#include "core/printer.h"

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
    return 0;
}
