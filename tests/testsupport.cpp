#include "testsupport.h"

#include "core/format/eventtags.h"

#include <QTest>

#include "core/load/loader.h"
#include "core/index/logindex.h"

#include "core/io/bytesource.h"
#include "core/report/dump.h"
#include "core/text/printer.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
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

uint32_t seedOf(const QString& log)
{
    // (HECSCOPE_TEST_SEED, if set, is mixed in: other choices to try.)
    return uint32_t(qHash(QFileInfo(log).fileName(), size_t(qEnvironmentVariableIntValue("HECSCOPE_TEST_SEED"))));
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

std::unique_ptr<LogIndex> indexOfBytes(const std::vector<uint8_t>& bytes)
{
    MemorySource source(bytes);
    return loadIndex(source, bytes.size()).index;
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

namespace {

// "12.345678" seconds -> ns, by digits (no floating point).
uint64_t decimalSecondsToNs(std::string_view s)
{
    const size_t dot = s.find('.');
    const std::string whole(s.substr(0, dot));
    std::string fraction = dot == std::string_view::npos ? std::string() : std::string(s.substr(dot + 1));
    fraction.resize(9, '0');
    return std::stoull(whole) * 1'000'000'000 + std::stoull(fraction);
}


} // namespace

RawHp parseHpSimply(const std::string& text)
{
    RawHp out;
    size_t pos = 0;
    bool inSample = false;
    while (pos < text.size()) {
        size_t eol = text.find('\n', pos);
        if (eol == std::string::npos)
            eol = text.size();
        const std::string line = text.substr(pos, eol - pos);
        pos = eol + 1;
        const size_t space = line.find(' ');
        const std::string word = line.substr(0, space);
        if (word == "BEGIN_SAMPLE") {
            inSample = true;
            out.times.push_back(decimalSecondsToNs(line.substr(space + 1)));
            out.totals.push_back(0);
        } else if (word == "END_SAMPLE") {
            inSample = false;
            ++out.endLines;
        } else if (inSample) {
            const size_t tab = line.rfind('\t');
            out.names.insert(line.substr(0, tab));
            out.totals.back() += std::stoull(line.substr(tab + 1));
        } else if (!line.empty()) {
            std::string value = line.substr(space + 1);
            if (value.size() >= 2 && value.front() == '"')
                value = value.substr(1, value.size() - 2);
            out.header[word] = value;
        }
    }
    return out;
}

LogBuilder::LogBuilder()
    : m_w(EventlogWriter::allDeclarations())
{
}

template <class Events>
LogBuilder& LogBuilder::writeBlock(uint16_t cap, const Events& events)
{
    const uint64_t first = events.size() ? events.begin()->event.time : 0;
    uint64_t last = first;
    m_w.beginBlock(cap, first);
    for (const OwnedEvent& e : events) {
        m_w.write(e.event);
        last = e.event.time;
    }
    m_w.endBlock(last);
    return *this;
}

LogBuilder& LogBuilder::block(uint16_t cap, const std::deque<OwnedEvent>& events)
{
    return writeBlock(cap, events);
}

LogBuilder& LogBuilder::block(uint16_t cap, std::initializer_list<OwnedEvent> events)
{
    return writeBlock(cap, events);
}

std::vector<uint8_t> LogBuilder::bytes(bool dataEnd)
{
    if (dataEnd)
        m_w.writeDataEnd();
    return m_w.takeBytes();
}

std::vector<uint8_t> lateCapabilityLog()
{
    LogBuilder b;
    std::deque<OwnedEvent> early, late;
    for (uint64_t i = 0; i < 40; ++i) {
        early.emplace_back(tag::RunThread, 1000 + i * 100, std::initializer_list<uint64_t>{1 + i % 3});
        early.emplace_back(tag::StopThread, 1050 + i * 100, std::initializer_list<uint64_t>{1 + i % 3, 3, 0});
    }
    b.block(0, early);
    // Capability 1, unnamed so far: its events interleave with the first's.
    for (uint64_t i = 0; i < 20; ++i) {
        late.emplace_back(tag::ThreadWakeup, 1020 + i * 200, std::initializer_list<uint64_t>{1 + i % 3, 1});
        late.emplace_back(tag::RunThread, 1030 + i * 200, std::initializer_list<uint64_t>{4 + i % 2});
        late.emplace_back(tag::StopThread, 1040 + i * 200, std::initializer_list<uint64_t>{4 + i % 2, 2, 0});
    }
    b.block(1, late);
    return b.bytes();
}

// What the index holds, part by part: equal for a log indexed in one go
// and the same bytes fed in pieces or through a live session.
void compareIndexes(const LogIndex& a, const LogIndex& b)
{
    QCOMPARE(a.scan.events, b.scan.events);
    QCOMPARE(a.caps.size(), b.caps.size());
    for (size_t c = 0; c < a.caps.size(); ++c) {
        const CapTimeline& x = a.caps[c].timeline;
        const CapTimeline& y = b.caps[c].timeline;
        QCOMPARE(x.size(), y.size());
        for (size_t i = 0; i < x.size(); ++i) {
            QCOMPARE(x[i].start(), y[i].start());
            QCOMPARE(x[i].end(), y[i].end());
            QCOMPARE(x[i].kind(), y[i].kind());
            QCOMPARE(x[i].thread(), y[i].thread());
            QCOMPARE(x[i].stop(), y[i].stop());
        }
        QCOMPARE(x.totals().time, y.totals().time);
        QCOMPARE(x.totals().runs, y.totals().runs);
        QCOMPARE(x.totalsBeforeIndex(x.size() / 2).time, y.totalsBeforeIndex(y.size() / 2).time);
        QCOMPARE(a.caps[c].sparks.size(), b.caps[c].sparks.size());
    }
    QCOMPARE(a.threadCount(), b.threadCount());
    for (size_t id = 0; id < a.threads.size(); ++id) {
        const std::optional<ThreadInfo> x = a.thread(uint32_t(id));
        const std::optional<ThreadInfo> y = b.thread(uint32_t(id));
        QCOMPARE(x.has_value(), y.has_value());
        if (!x)
            continue;
        QCOMPARE(x->runs, y->runs);
        QCOMPARE(x->runTime, y->runTime);
        QCOMPARE(x->lastStop, y->lastStop);
        QCOMPARE(x->finished, y->finished);
        QCOMPARE(x->blocked, y->blocked);
        QCOMPARE(x->label.str(), y->label.str());
    }
    QCOMPARE(a.collections.size(), b.collections.size());
    for (size_t i = 0; i < a.collections.size(); ++i) {
        QCOMPARE(a.collections[i].start, b.collections[i].start);
        QCOMPARE(a.collections[i].end, b.collections[i].end);
        QCOMPARE(a.collections[i].generation, b.collections[i].generation);
        QCOMPARE(a.collections[i].copied, b.collections[i].copied);
        QCOMPARE(a.collections[i].caps, b.collections[i].caps);
    }
    QCOMPARE(a.heapLive.size(), b.heapLive.size());
    QCOMPARE(a.messages.size(), b.messages.size());
    QCOMPARE(a.instants.size(), b.instants.size());
    for (size_t c = 0; c < a.instants.size(); ++c) {
        const CapInstantMarks &x = a.instants[c], &y = b.instants[c];
        QCOMPARE(x.count(), y.count());
        QCOMPARE(x.sorted(), y.sorted());
        QCOMPARE(x.marks(), y.marks());
        for (size_t i = 0; i < x.marks(); ++i) {
            QCOMPARE(x.mark(i).time, y.mark(i).time);
            QCOMPARE(x.mark(i).offset, y.mark(i).offset);
            QCOMPARE(x.mark(i).running, y.mark(i).running);
            QCOMPARE(x.mark(i).inGc, y.mark(i).inGc);
        }
    }
    for (size_t k = 0; k < size_t(kInstantKinds); ++k)
        QCOMPARE(a.instantCounts[k], b.instantCounts[k]);
    // Where reading thread events back starts, and each thread's state there.
    const ThreadCheckpoints &p = a.threadCheckpoints, &q = b.threadCheckpoints;
    if (p.hasThreadEntries() == q.hasThreadEntries()) { // (made at the final seal, with the spacing)
        QCOMPARE(p.spacing, q.spacing);
        QVERIFY(p.caps == q.caps);
        QVERIFY(p.global == q.global);
        QCOMPARE(p.entryOffsets, q.entryOffsets);
        QCOMPARE(p.entryChecks.size(), q.entryChecks.size());
        for (uint64_t e = 0; e < p.entryChecks.size(); ++e)
            QVERIFY(p.entryChecks[e] == q.entryChecks[e] && p.entry(e) == q.entry(e));
    }
    QCOMPARE(a.heapProfile.censuses.size(), b.heapProfile.censuses.size());
    QCOMPARE(a.heapProfile.samples.size(), b.heapProfile.samples.size());
    QCOMPARE(a.lastTime, b.lastTime);
}

} // namespace hecscope::test
