#include "core/dump.h"

namespace hecscope {
namespace {

constexpr size_t kFlushSize = 1 << 20;

class PrintingSink final : public EventSink {
public:
    PrintingSink(const EventPrinter& printer, const TextWriter& write)
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

} // namespace

LogScan dumpLog(ByteSource& source, const TextWriter& write, PrinterStyle style)
{
    LogScan scan = scanLog(source);
    if (!scan.format)
        return scan;
    const EventPrinter printer(*scan.format, style);
    PrintingSink sink(printer, write);
    printer.printHeader(sink.out());
    visitInTimeOrder(source, scan, sink);
    EventPrinter::printFooter(sink.out());
    sink.flush();
    return scan;
}

} // namespace hecscope
