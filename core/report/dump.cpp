#include "core/report/dump.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace hecscope {
namespace {

constexpr size_t kFlushSize = 1 << 20;
constexpr uint64_t kSliceBytes = 2 << 20; // log bytes per parallel slice

class PrintingSink final : public EventSink {
public:
    PrintingSink(const EventPrinter& printer, TextBuffer& out) : m_printer(printer), m_out(out) {}
    void onEvent(const Event& e) override { m_printer.printEvent(e, m_out); }

private:
    const EventPrinter& m_printer;
    TextBuffer& m_out;
};

// Prints sequentially, flushing every megabyte.
class StreamingSink final : public EventSink {
public:
    StreamingSink(const EventPrinter& printer, const TextWriter& write)
        : m_printer(printer), m_write(write)
    {
        m_out.reserve(kFlushSize + (1 << 17));
    }
    void onEvent(const Event& e) override
    {
        m_printer.printEvent(e, m_out);
        if (m_out.size() >= kFlushSize)
            flush();
    }
    TextBuffer& out() { return m_out; }
    void flush()
    {
        if (m_ok && m_out.size() > 0)
            m_ok = m_write(m_out.text());
        m_out.clear();
    }

private:
    const EventPrinter& m_printer;
    const TextWriter& m_write;
    TextBuffer m_out;
    bool m_ok = true;
};

// Slices [b[i-1], b[i]) are printed by workers into their own buffers; the
// calling thread writes them in order. Workers stay at most `threads` slices
// ahead of the writer, which bounds the text held in memory.
void dumpSlices(ByteSource& source, const TimeOrder& order, const EventPrinter& printer,
                const std::vector<uint64_t>& boundaries, unsigned threads, const TextWriter& write,
                TextBuffer& head)
{
    const size_t slices = boundaries.size() + 1;
    auto sliceFrom = [&](size_t i) { return i == 0 ? uint64_t(0) : boundaries[i - 1]; };
    auto sliceTo = [&](size_t i) { return i + 1 == slices ? TimeOrder::kUnbounded : boundaries[i]; };

    std::mutex mutex;
    std::condition_variable changed;
    std::vector<std::unique_ptr<TextBuffer>> done(slices);
    std::vector<std::unique_ptr<TextBuffer>> spare; // written buffers, reused
    size_t nextSlice = 0;
    size_t written = 0;
    bool stop = false;

    auto worker = [&] {
        for (;;) {
            size_t i;
            std::unique_ptr<TextBuffer> text;
            {
                std::unique_lock lock(mutex);
                changed.wait(lock, [&] { return stop || nextSlice < written + threads; });
                if (stop || nextSlice == slices)
                    return;
                i = nextSlice++;
                if (!spare.empty()) {
                    text = std::move(spare.back());
                    spare.pop_back();
                }
            }
            if (!text)
                text = std::make_unique<TextBuffer>();
            text->clear();
            PrintingSink sink(printer, *text);
            order.visit(source, sink, sliceFrom(i), sliceTo(i));
            {
                std::lock_guard lock(mutex);
                done[i] = std::move(text);
            }
            changed.notify_all();
        }
    };
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t)
        pool.emplace_back(worker);

    bool ok = write(head.text());
    head.clear();
    for (size_t i = 0; i < slices && ok; ++i) {
        std::unique_ptr<TextBuffer> text;
        {
            std::unique_lock lock(mutex);
            changed.wait(lock, [&] { return done[i] != nullptr; });
            text = std::move(done[i]);
        }
        ok = write(text->text());
        {
            std::lock_guard lock(mutex);
            spare.push_back(std::move(text));
            ++written;
            stop = !ok;
        }
        changed.notify_all();
    }
    {
        std::lock_guard lock(mutex);
        stop = true;
    }
    changed.notify_all();
    for (auto& t : pool)
        t.join();
}

} // namespace

LogScan dumpLog(ByteSource& source, const TextWriter& write, PrinterStyle style, unsigned threads)
{
    LogScan scan = scanLog(source);
    if (!scan.format)
        return scan;
    const EventPrinter printer(*scan.format, style);
    const TimeOrder order(scan);
    if (threads == 0)
        threads = std::clamp(std::thread::hardware_concurrency(), 1u, 4u);
    const std::vector<uint64_t> boundaries = order.sliceBoundaries(kSliceBytes);

    StreamingSink sink(printer, write);
    printer.printHeader(sink.out());
    if (threads > 1 && !boundaries.empty()) {
        dumpSlices(source, order, printer, boundaries, threads, write, sink.out());
    } else {
        order.visit(source, sink);
    }
    EventPrinter::printFooter(sink.out());
    sink.flush();
    // A read that failed while printing cut some run short: say so.
    if (scan.ioError.empty())
        scan.ioError = source.error();
    return scan;
}

} // namespace hecscope
