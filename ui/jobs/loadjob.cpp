#include "ui/jobs/loadjob.h"

#include "core/load/loader.h"
#include "core/profile/profreport.h"

#include <QFileInfo>

#include <chrono>

namespace hecscope {

LoadJob::LoadJob(QString path, QObject* parent)
    : QObject(parent), m_path(std::move(path))
{
}

LoadJob::~LoadJob()
{
    m_runner.cancel();
    m_runner.waitForDone();
}

void LoadJob::start()
{
    m_runner.start([this](const JobContext& ctx) { return run(ctx); },
                   [this](Loaded loaded) {
                       if (!loaded.error.isEmpty())
                           emit failed(loaded.error);
                   });
}

void LoadJob::cancel()
{
    m_runner.cancel();
}

// On the runner's worker. Stages reach the UI thread through ctx.post, which
// drops them once the job is cancelled: a cancelled job emits nothing more.
LoadJob::Loaded LoadJob::run(const JobContext& ctx)
{
    Loaded out;
    std::string error;
    std::shared_ptr<ByteSource> source = FileSource::open(m_path.toStdString(), error);
    if (!source) {
        out.error = QString::fromStdString(error);
        return out;
    }
    // Progress at most every 30 ms; cancellation checked after every 1 MiB
    // and between the stages of the finish.
    class Observer final : public LoadObserver {
    public:
        Observer(LoadJob& job, const JobContext& ctx) : m_job(job), m_ctx(ctx) {}
        void progress(uint64_t done, uint64_t total) override
        {
            m_job.m_bytesRead = done;
            const auto now = std::chrono::steady_clock::now();
            if (now - m_last < std::chrono::milliseconds(30))
                return;
            m_last = now;
            LoadJob* job = &m_job;
            m_ctx.post([job, done, total] { emit job->progressChanged(done, std::max(done, total)); });
        }
        bool cancelled() const override { return m_ctx.isCancelled(); }
        bool wantsPartials() const override { return true; }
        void partial(std::shared_ptr<const LogIndex> index) override
        {
            LoadJob* job = &m_job;
            m_ctx.post([job, index = std::move(index), source = m_source] {
                job->m_partialSource = source;
                emit job->partialIndex(index);
            });
        }
        std::shared_ptr<ByteSource> m_source;
        void accepted() override
        {
            LoadJob* job = &m_job;
            m_ctx.post([job] { emit job->accepted(); });
        }

    private:
        LoadJob& m_job;
        const JobContext& m_ctx;
        std::chrono::steady_clock::time_point m_last{};
    } observer(*this, ctx);
    // A cost-centre report under any name goes to the Profile pane instead.
    std::string head(4096, '\0');
    head.resize(source->read(0, reinterpret_cast<uint8_t*>(head.data()), head.size()));
    if (head.rfind("hdrb", 0) != 0 && looksLikeProfReport(head)) {
        ctx.post([this] { emit profileReportFound(); });
        return out;
    }
    observer.m_source = source;
    const quint64 total = quint64(std::max<qint64>(0, QFileInfo(m_path).size()));
    // Nothing may escape the thread (std::terminate would take the whole
    // application down): running out of memory becomes a failure message.
    try {
        LoadResult loaded = loadIndex(*source, total, &observer);
        if (loaded.cancelled || ctx.isCancelled())
            return out;
        std::shared_ptr<const LogIndex> shared = std::move(loaded.index);
        ctx.post([this, shared, source] {
            m_source = source;
            emit indexReady(shared);
        });
        if (ctx.isCancelled() || !m_statistics)
            return out;
        const RangeStats stats = computeStats(*shared);
        ctx.post([this, stats] { emit statisticsReady(stats); });
    } catch (const std::exception& e) {
        out.error = tr("%1: cannot index the log: %2").arg(m_path, QString::fromLocal8Bit(e.what()));
    }
    return out;
}

} // namespace hecscope
