#include "ui/jobs/loadjob.h"

#include "core/io/bytesource.h"

#include <QFileInfo>
#include <QMetaObject>
#include <QPointer>

#include <chrono>

namespace hecscope {

LoadJob::LoadJob(QString path, QObject* parent)
    : QObject(parent), m_path(std::move(path))
{
}

LoadJob::~LoadJob()
{
    cancel();
    if (m_thread.joinable())
        m_thread.join();
}

void LoadJob::start()
{
    m_thread = std::thread([this] { run(); });
}

void LoadJob::cancel()
{
    m_cancel = true;
}

void LoadJob::run()
{
    // Signals are queued to the UI thread; they are dropped if this job is
    // gone by then, and suppressed once it is cancelled.
    QPointer<LoadJob> self(this);
    auto post = [this, self](auto&& f) {
        QMetaObject::invokeMethod(this, [self, f = std::forward<decltype(f)>(f)] {
            if (self && !self->m_cancel)
                f();
        });
    };
    std::string error;
    auto source = FileSource::open(m_path.toStdString(), error);
    if (!source) {
        const QString message = QString::fromStdString(error);
        post([this, message] { emit failed(message); });
        m_done = true;
        return;
    }
    // Progress at most every 30 ms; cancellation checked after every 1 MiB.
    class Observer final : public LoadObserver {
    public:
        Observer(LoadJob& job, decltype(post)& post) : m_job(job), m_post(post) {}
        void progress(uint64_t done, uint64_t total) override
        {
            m_job.m_bytesRead = done;
            const auto now = std::chrono::steady_clock::now();
            if (now - m_last < std::chrono::milliseconds(30))
                return;
            m_last = now;
            LoadJob* job = &m_job;
            m_post([job, done, total] { emit job->progressChanged(done, std::max(done, total)); });
        }
        bool cancelled() const override { return m_job.m_cancel; }

    private:
        LoadJob& m_job;
        decltype(post)& m_post;
        std::chrono::steady_clock::time_point m_last{};
    } observer(*this, post);
    const quint64 total = quint64(std::max<qint64>(0, QFileInfo(m_path).size()));
    // Nothing may escape the thread (std::terminate would take the whole
    // application down): running out of memory becomes a failure message.
    try {
        LoadResult loaded = loadIndex(*source, total, &observer);
        if (loaded.cancelled || m_cancel) {
            m_done = true;
            return;
        }
        std::shared_ptr<const LogIndex> shared = std::move(loaded.index);
        post([this, shared] { emit indexReady(shared); });
        if (!m_cancel) {
            const RangeStats stats = computeStats(*shared);
            post([this, stats] { emit statisticsReady(stats); });
        }
    } catch (const std::exception& e) {
        const QString message = tr("%1: cannot index the log: %2").arg(m_path, QString::fromLocal8Bit(e.what()));
        post([this, message] { emit failed(message); });
    }
    m_done = true;
}

} // namespace hecscope
