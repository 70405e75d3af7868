#include "testsupport.h"

#include "core/bytesource.h"
#include "core/dump.h"
#include "core/printer.h"

#include <QDir>
#include <QFile>
#include <QProcess>

namespace hecscope::test {

QString conformanceDir()
{
    const QDir dir(QStringLiteral(HECSCOPE_SHARED_DIR "/conformance"));
    return dir.exists() ? dir.absolutePath() : QString();
}

QStringList conformanceLogs(const QString& subdir)
{
    const QString base = conformanceDir();
    if (base.isEmpty())
        return {};
    QDir dir(base + QLatin1Char('/') + subdir);
    QStringList out;
    for (const QString& name : dir.entryList({QStringLiteral("*.eventlog")}, QDir::Files, QDir::Name))
        out << dir.absoluteFilePath(name);
    return out;
}

QStringList testdataLogs()
{
    QDir dir(QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs"));
    QStringList out;
    for (const QString& name : dir.entryList({QStringLiteral("*.eventlog")}, QDir::Files, QDir::Name))
        out << dir.absoluteFilePath(name);
    return out;
}

std::vector<uint8_t> readFile(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const QByteArray data = f.readAll();
    return std::vector<uint8_t>(data.begin(), data.end());
}

std::string readText(const QString& path)
{
    const auto bytes = readFile(path);
    return std::string(bytes.begin(), bytes.end());
}

namespace {

class RecordingSink final : public EventSink {
public:
    explicit RecordingSink(Decoded& out) : m_out(out) {}
    void onHeader(const std::shared_ptr<const LogFormat>& format) override
    {
        m_printer = std::make_unique<EventPrinter>(*format);
        m_format = format;
    }
    void onEvent(const Event& e) override
    {
        TextBuffer text;
        text.append('@');
        text.appendDecimal(e.offset);
        text.append('+');
        text.appendDecimal(e.recordSize);
        text.append(' ');
        m_printer->printEvent(e, text);
        m_out.events.emplace_back(text.text());
    }

private:
    Decoded& m_out;
    std::shared_ptr<const LogFormat> m_format;
    std::unique_ptr<EventPrinter> m_printer;
};

} // namespace

Decoded decodeInChunks(const std::vector<uint8_t>& bytes, const std::vector<size_t>& chunkSizes)
{
    Decoded out;
    RecordingSink sink(out);
    StreamDecoder decoder(sink);
    size_t pos = 0;
    size_t k = 0;
    while (pos < bytes.size()) {
        size_t n = chunkSizes.empty() ? bytes.size() : chunkSizes[k++ % chunkSizes.size()];
        n = std::min(std::max<size_t>(n, 1), bytes.size() - pos);
        decoder.feed({bytes.data() + pos, n});
        pos += n;
    }
    decoder.finish();
    out.diagnostics = decoder.diagnostics();
    out.sawDataEnd = decoder.sawDataEnd();
    return out;
}

std::string dumpBytes(const std::vector<uint8_t>& bytes, bool legacy, unsigned threads)
{
    MemorySource source(bytes);
    std::string text;
    dumpLog(source, [&](std::string_view chunk) {
        text.append(chunk);
        return true;
    }, legacy ? PrinterStyle::Legacy : PrinterStyle::Head, threads);
    return text;
}

Run runHecscope(const QStringList& args, const QByteArray& input)
{
    QProcess p;
    p.start(QStringLiteral(HECSCOPE_BINARY), args);
    Run r;
    if (!p.waitForStarted(30000))
        return r;
    if (!input.isEmpty())
        p.write(input);
    p.closeWriteChannel();
    if (!p.waitForFinished(300000)) {
        p.kill();
        p.waitForFinished();
        return r;
    }
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    return r;
}

} // namespace hecscope::test
