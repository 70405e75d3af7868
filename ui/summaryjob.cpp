#include "ui/summaryjob.h"

#include "core/bytesource.h"
#include "core/decoder.h"
#include "core/eventtags.h"

#include <QFileInfo>
#include <QMetaObject>

#include <algorithm>

#include <set>

namespace hecscope {
namespace {

constexpr int kBuckets = 400;

// Counts events per time bucket in bounded memory: when a time falls past the
// last bucket, buckets are merged pairwise and their width doubles.
class SummarySink final : public EventSink {
public:
    void onEvent(const Event& e) override
    {
        quint64 index = e.time / width;
        while (index >= quint64(kBuckets)) {
            for (int i = 0; i < kBuckets / 2; ++i)
                counts[i] = counts[2 * i] + counts[2 * i + 1];
            std::fill(counts.begin() + kBuckets / 2, counts.end(), 0.0);
            width *= 2;
            index = e.time / width;
        }
        counts[int(index)] += 1;
        first = std::min<quint64>(first, e.time);
        last = std::max<quint64>(last, e.time);
        if (e.cap != kNoCap)
            caps.insert(e.cap);
    }
    quint64 width = 1000; // ns per bucket
    QVector<double> counts = QVector<double>(kBuckets, 0.0);
    quint64 first = ~quint64(0);
    quint64 last = 0;
    std::set<uint16_t> caps;
};

} // namespace

SummaryJob::SummaryJob(QString path, QObject* parent)
    : QObject(parent), m_path(std::move(path))
{
}

SummaryJob::~SummaryJob()
{
    cancel();
    if (m_thread.joinable())
        m_thread.join();
}

void SummaryJob::start()
{
    m_thread = std::thread([this] { run(); });
}

void SummaryJob::cancel()
{
    m_cancel = true;
}

void SummaryJob::run()
{
    std::string error;
    auto source = FileSource::open(m_path.toStdString(), error);
    if (!source) {
        const QString message = QString::fromStdString(error);
        QMetaObject::invokeMethod(this, [this, message] { emit failed(message); });
        return;
    }
    SummarySink sink;
    StreamDecoder decoder(sink);
    std::vector<uint8_t> chunk(1 << 20);
    quint64 offset = 0;
    const quint64 total = quint64(std::max<qint64>(1, QFileInfo(m_path).size()));
    int lastPermille = -1;
    while (!m_cancel) {
        const size_t got = source->read(offset, chunk.data(), chunk.size());
        if (got == 0)
            break;
        offset += got;
        if (!decoder.feed({chunk.data(), got}))
            break;
        const int permille = int(std::min<quint64>(1000, offset * 1000 / total));
        if (permille != lastPermille) {
            lastPermille = permille;
            QMetaObject::invokeMethod(this, [this, permille] { emit progressChanged(permille); });
        }
    }
    if (m_cancel)
        return;
    decoder.finish();
    LogSummary s;
    s.path = m_path;
    s.bytes = offset;
    s.events = decoder.eventCount();
    s.capabilities = int(sink.caps.size());
    s.diagnostics = decoder.diagnostics();
    if (s.events > 0) {
        s.startNs = sink.first;
        s.endNs = sink.last;
        s.bucketWidthNs = sink.width;
        s.bucketCounts = sink.counts;
    }
    QMetaObject::invokeMethod(this, [this, s] { emit finished(s); });
}

} // namespace hecscope
