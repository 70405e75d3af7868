#include "ui/document/logdocument.h"

#include "core/live/livesource.h"
#include "ui/formatting.h"
#include "ui/jobs/livejob.h"
#include "ui/jobs/loadjob.h"

#include <QFileInfo>
#include <QStringList>
#include <QTimer>

#include <utility>

namespace hecscope {

namespace {
// A .prof or -pj report, by its name (GHC writes <program>.prof for both).
bool isProfileReportName(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    return suffix == QLatin1String("prof") || suffix == QLatin1String("json");
}

QStringList problemsOf(const LogIndex& index, bool* error = nullptr)
{
    QStringList problems;
    for (const Diagnostic& d : index.scan.diagnostics) {
        problems << qs(d.message());
        if (error)
            *error = *error || d.isError();
    }
    return problems;
}
} // namespace

LogDocument::LogDocument(QObject* parent, DocumentRole role)
    : QObject(parent)
    , m_role(role)
    , m_placeholder(tr("no log open"))
{
    qRegisterMetaType<IndexChange>();
    // Cancelled jobs finish their current chunk on their own thread; they
    // are dropped here once done, so the UI never waits for them. The
    // timer runs only while there are such jobs: an idle window wakes for
    // nothing.
    m_reaper = new QTimer(this);
    m_reaper->setInterval(200);
    connect(m_reaper, &QTimer::timeout, this, [this] {
        std::erase_if(m_retired, [](const std::unique_ptr<LoadJob>& j) { return !j->isRunning(); });
        if (m_retired.empty())
            m_reaper->stop();
    });
}

LogDocument::~LogDocument() = default;

void LogDocument::setPlaceholder(const QString& text)
{
    m_placeholder = text;
    emit placeholderChanged(text);
}

void LogDocument::retire(std::unique_ptr<LoadJob> job)
{
    job->cancel();
    m_retired.push_back(std::move(job));
    m_reaper->start();
}

void LogDocument::cancelLoad()
{
    if (m_job)
        retire(std::move(m_job));
    m_loadingPath.clear();
    emit loadEnded();
}

void LogDocument::cancelByUser()
{
    const bool replaced = m_loadingPath.isEmpty(); // else what was on screen stays
    cancelLoad();
    setPlaceholder(replaced ? tr("loading cancelled") : m_placeholderBefore);
}

void LogDocument::open(const QString& path, uint64_t liveKeepNs)
{
    if (m_role == DocumentRole::Compared) {
        openRun(path);
        return;
    }
    // A socket, standard input or a named pipe is followed live, and so is a
    // file that some process still has open for writing.
    std::string why;
    if (const auto address = parseSourceAddress(path.toStdString(), why);
        address
        && (address->kind != SourceAddress::Kind::File
            || (QFileInfo(path).isFile() && fileHasWriter(path.toStdString())))) {
        follow(path, QString(), liveKeepNs);
        return;
    }
    cancelLoad(); // opening another file cancels the running load
    if (isProfileReportName(path)) {
        clear(path);
        emit remember(path);
        emit reportFound(path);
        return;
    }
    // What is on screen stays until the new file proves to be a log (its
    // header decoded): a file that is not one leaves it there.
    m_loadingPath = path;
    m_placeholderBefore = m_placeholder;
    if (!m_index) // nothing on screen to keep
        setPlaceholder(tr("loading…"));
    m_job = std::make_unique<LoadJob>(path);
    connect(m_job.get(), &LoadJob::accepted, this, [this, path] {
        clear(path);
        setPlaceholder(tr("loading…"));
        emit remember(path);
    });
    // A report under another name: the load job finds it by its first bytes.
    connect(m_job.get(), &LoadJob::profileReportFound, this, [this, path] {
        emit loadEnded();
        clear(path);
        emit remember(path);
        emit reportFound(path);
    });
    startJob(path);
}

// A run to compare with the log on screen: see open().
void LogDocument::openRun(const QString& path)
{
    cancelLoad();
    clear(path);
    setPlaceholder(tr("loading…"));
    m_job = std::make_unique<LoadJob>(path);
    m_job->setStatistics(false);
    connect(m_job.get(), &LoadJob::profileReportFound, this, [this, path] {
        emit loadEnded();
        emit reportFound(path);
    });
    startJob(path);
}

// m_job's stages, announced (both roles).
void LogDocument::startJob(const QString& path)
{
    connect(m_job.get(), &LoadJob::progressChanged, this, &LogDocument::progress);
    connect(m_job.get(), &LoadJob::partialIndex, this, &LogDocument::showPartialIndex);
    connect(m_job.get(), &LoadJob::indexReady, this, &LogDocument::showIndex);
    connect(m_job.get(), &LoadJob::statisticsReady, this, [this](const RangeStats& stats) {
        m_wholeStats = stats;
        emit statisticsReady(stats);
    });
    connect(m_job.get(), &LoadJob::failed, this, &LogDocument::showFailure);
    emit loadStarted(path);
    m_job->start();
}

// Makes way for `path`: every pane forgets the log on screen.
void LogDocument::clear(const QString& path)
{
    m_loadingPath.clear();
    endLiveSession(); // the new log replaces the live one: stop reading it
    const bool sameFile = QFileInfo(path) == QFileInfo(m_path);
    m_path = path;
    m_index.reset();
    m_source.reset();
    m_wholeStats.reset();
    m_partialShown = false;
    emit cleared(path, sameFile);
    emit notice(tr("Loading %1…").arg(path), NoticeKind::Note);
}

void LogDocument::endLiveSession()
{
    if (m_live) {
        m_live.reset();
        emit liveJobChanged(nullptr);
        m_liveStatsRunner.cancel();
    }
}

void LogDocument::close()
{
    cancelLoad();
    endLiveSession();
    m_path.clear();
    m_index.reset();
    m_source.reset();
    m_wholeStats.reset();
    m_partialShown = false;
    emit cleared(QString(), false);
    emit noticeCleared();
    setPlaceholder(tr("no log open"));
}

void LogDocument::replaceIndex(std::shared_ptr<const LogIndex> index, std::shared_ptr<ByteSource> source,
                               IndexChange change)
{
    std::shared_ptr<const LogIndex> old = std::exchange(m_index, std::move(index));
    m_source = std::move(source);
    change.index = m_index;
    change.source = m_source;
    setPlaceholder(QString());
    emit indexChanged(change);
    // Freed off the UI thread: a snapshot of a big log is hundreds of MB.
    if (old)
        m_disposer.run([old = std::move(old)](const JobContext&) mutable {
            old.reset();
            return 0;
        }, [](int) {});
}

void LogDocument::showIndex(std::shared_ptr<const LogIndex> index)
{
    emit loadEnded();
    if (!m_loadingPath.isEmpty()) { // never accepted: not a log (e.g. cut inside its header)
        // Its job would go on to the statistics of the empty index, which
        // are not the log's on screen: it stops here.
        if (m_job)
            retire(std::move(m_job));
        const QStringList problems = problemsOf(*index);
        showFailure(problems.isEmpty() ? tr("no eventlog header") : problems.join(QLatin1Char('\n')));
        return;
    }
    // After partial indexes (a long load) the view the user chose stays.
    IndexChange change;
    change.grown = m_index && m_partialShown;
    m_partialShown = false;
    replaceIndex(std::move(index), m_job ? m_job->source() : nullptr, change);
    // Problems with the file are said above the timeline, which still shows
    // everything decoded before them.
    bool error = false;
    const QStringList problems = problemsOf(*m_index, &error);
    if (problems.isEmpty())
        emit noticeCleared();
    else
        emit notice(problems.join(QLatin1Char('\n'))
                        + tr("\nShowing the %1 events decoded before the problem.").arg(m_index->scan.events),
                    error ? NoticeKind::Error : NoticeKind::Warning);
    emit loaded();
}

// Progressive open: what a long load has read so far, while the progress
// goes on.
void LogDocument::showPartialIndex(std::shared_ptr<const LogIndex> index)
{
    if (!m_loadingPath.isEmpty() || !index->scan.format)
        return; // not yet accepted as a log
    IndexChange change;
    change.grown = m_index != nullptr;
    change.partial = true;
    m_partialShown = true;
    replaceIndex(std::move(index), m_job ? m_job->partialSource() : nullptr, change);
}

void LogDocument::showFailure(const QString& message)
{
    emit loadEnded();
    QString text;
    if (!m_loadingPath.isEmpty()) { // nothing was replaced: the log on screen stays
        text = tr("Cannot open %1: %2").arg(m_loadingPath, message);
        if (m_index)
            text += tr("\nStill showing %1.").arg(QFileInfo(m_path).fileName());
        setPlaceholder(m_placeholderBefore);
        m_loadingPath.clear();
    } else {
        setPlaceholder(tr("the file could not be opened"));
        text = tr("Cannot open %1: %2").arg(m_path, message);
    }
    emit notice(text, NoticeKind::Error);
    emit loaded();
    emit openFailed(message);
}

bool LogDocument::follow(const QString& source, const QString& recordPath, uint64_t keepNs)
{
    std::string why;
    const std::optional<SourceAddress> address = parseSourceAddress(source.toStdString(), why);
    auto job = std::make_unique<LiveJob>();
    QString error = QString::fromStdString(why);
    LiveOptions options;
    options.recordPath = recordPath.toStdString();
    options.keepNs = keepNs;
    if (!address || !job->start(*address, options, &error)) {
        QString text = tr("Cannot follow %1: %2").arg(source, error);
        if (m_index)
            text += tr("\nStill showing %1.").arg(QFileInfo(m_path).fileName());
        emit notice(text, NoticeKind::Error);
        emit loaded();
        return false;
    }
    cancelLoad();
    clear(source); // ends the previous live session, if any
    m_live = std::move(job);
    m_liveDisconnected = false;
    emit liveJobChanged(m_live.get());
    connect(m_live.get(), &LiveJob::updated, this,
            [this](std::shared_ptr<const LogIndex> index, const LiveStatus& status, qint64) {
                showLiveUpdate(std::move(index), status);
            });
    setPlaceholder(tr("waiting for %1…").arg(source));
    emit notice(tr("Following %1 live: the view keeps the latest seconds (Follow, F); Stop keeps what was received.")
                    .arg(source),
                NoticeKind::Info);
    if (address->kind == SourceAddress::Kind::File || address->kind == SourceAddress::Kind::Pipe)
        emit remember(source);
    return true;
}

void LogDocument::showLiveUpdate(std::shared_ptr<const LogIndex> index, const LiveStatus& status)
{
    const bool final = isFinal(status.state);
    const bool wasDisconnected = std::exchange(m_liveDisconnected, status.state == LiveState::Disconnected);
    if (!index->scan.format && !index->hpFile && !final) { // nothing decoded yet: say what it waits for
        setPlaceholder(tr("%1: %2").arg(m_live->sourceText(), qs(status.message)));
        emit liveUpdated(status);
        return;
    }
    IndexChange change;
    change.grown = m_index != nullptr;
    change.live = true;
    emit liveUpdateComing();
    replaceIndex(std::move(index), m_live->recording(), change);
    // Whole-run statistics of every update, on a worker; a newer update
    // drops an older result. (Keeping only the latest stretch: the
    // figures are the stretch's.)
    m_liveStatsRunner.start(
        [index = m_index](const JobContext&) {
            return index->dropped.fromByte > 0 ? computeStats(*index, index->dropped.before, index->lastTime)
                                               : computeStats(*index);
        },
        [this](RangeStats stats) {
            m_wholeStats = stats;
            emit statisticsReady(stats);
        });
    liveNotice(status, wasDisconnected);
    emit liveUpdated(status);
}

// What the banner says of a live session's state.
void LogDocument::liveNotice(const LiveStatus& status, bool wasDisconnected)
{
    if (isFinal(status.state)) {
        const bool failed = status.state == LiveState::Failed || m_index->scan.hasError;
        QString text = tr("%1 %2: %3.").arg(m_live->sourceText(), QString::fromLatin1(liveStateName(status.state)),
                                            qs(status.message));
        for (const QString& problem : problemsOf(*m_index))
            text += QLatin1Char('\n') + problem;
        if (m_index->dropped.fromByte > 0)
            text += tr("\nShowing the latest stretch, from %1: %2 of the %3 events received (older ones were "
                       "dropped to keep memory bounded).")
                        .arg(durationText(m_index->dropped.before), countText(m_index->scan.events),
                             countText(m_index->scan.events + m_index->dropped.events));
        else if (m_index->hpFile)
            text += tr("\nShowing the %1 complete censuses received.").arg(countText(m_index->heapProfile.censuses.size()));
        else
            text += tr("\nShowing the %1 events received.").arg(countText(m_index->scan.events));
        if (!m_live->recordPath().isEmpty())
            text += tr(" Recorded in %1.").arg(m_live->recordPath());
        emit notice(text, failed ? NoticeKind::Error : NoticeKind::Info);
    } else if (status.state == LiveState::Disconnected) {
        emit notice(tr("%1. Everything received is kept; Reconnect appends the next connection to this timeline.")
                        .arg(qs(status.message)),
                    NoticeKind::Warning);
    } else if (status.state == LiveState::Receiving && !m_index->scan.diagnostics.empty()) {
        emit notice(problemsOf(*m_index).join(QLatin1Char('\n')), NoticeKind::Warning);
    } else if (wasDisconnected) { // reconnecting, or receiving again
        emit notice(tr("Following %1 live: the view keeps the latest seconds (Follow, F); Stop keeps what was received.")
                        .arg(m_live->sourceText()),
                    NoticeKind::Info);
    }
}

} // namespace hecscope
