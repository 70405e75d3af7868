#pragma once

#include "core/index/logindex.h"
#include "core/io/bytesource.h"
#include "core/stats/stats.h"
#include "ui/jobs/jobrunner.h"

#include <QObject>
#include <QString>

#include <memory>
#include <optional>
#include <vector>

class QTimer;

namespace hecscope {

class LoadJob;
class LiveJob;
struct LiveStatus;

// What the window says above the timeline: a plain note, news (a live
// session's state), a problem that leaves the log usable, one that stops
// it. Styled in one place (MainWindow's banner).
enum class NoticeKind { Note, Info, Warning, Error };

// What a document is for: the log on screen (the window's), or a run
// compared with it (the Compare pane's B).
enum class DocumentRole { Shown, Compared };

// A log's index on screen changed: what every pane reads.
struct IndexChange {
    std::shared_ptr<const LogIndex> index;
    // The open file the index was made from (or the live recording): the
    // event list, the timeline's detail and the panes' ranges read it.
    std::shared_ptr<ByteSource> source;
    // A newer snapshot of the same log (a live session's update, a long
    // load's next step): views, choices and places stay.
    bool grown = false;
    bool partial = false; // a long load's index so far; the whole one follows
    bool live = false;    // a live session's update
};

// One open log (Hotspot's PerfParser, a Qt Creator document): its path,
// its index, the load or live session that makes it and the jobs that
// belong to it (replaced snapshots freed off the UI thread, a live
// session's whole-run statistics). It announces a new, partial or grown
// index, a cleared log, load problems and progress; the panes and the
// timeline subscribe to it (their `follow`), the window lays them out.
// The Compare pane's run B is one too (DocumentRole::Compared). UI thread.
class LogDocument : public QObject {
    Q_OBJECT
public:
    explicit LogDocument(QObject* parent = nullptr, DocumentRole role = DocumentRole::Shown);
    ~LogDocument() override;

    // Opens `path`: a socket, pipe or file still being written is followed
    // live, a .prof / -pj report is announced (reportFound), anything else
    // is loaded. What is on screen stays until the new file proves to be a
    // log (its header decoded). A live log keeps its latest `liveKeepNs`
    // (0: all).
    // A compared run is read whole, never followed live, as `diff` reads
    // it: the run it replaces goes at once (cleared), a .prof / -pj report
    // is found by its first bytes and announced (reportFound), a file that
    // is no log announces its index too (its problems are the comparison's
    // notes), and no whole-run statistics are made (the comparison takes
    // its own figures).
    void open(const QString& path, uint64_t liveKeepNs = 0);
    // Follows a live eventlog (SourceAddress text), recording it to
    // `recordPath` if given, keeping the latest `keepNs` (0: all). False,
    // and a notice, when the source cannot be opened: what is on screen stays.
    bool follow(const QString& source, const QString& recordPath, uint64_t keepNs);
    // Cancels a load in progress (what was on screen before it stays, or
    // the tracks say it was cancelled).
    void cancelLoad();
    // The user's Cancel: the tracks say so, or what was on screen stays.
    void cancelByUser();
    // Every pane forgets the log on screen, making way for `path` (a .prof
    // report opened alone).
    void clear(const QString& path);
    // Lets go of the log: its load or live session ends, every pane
    // forgets it (cleared with no path) and nothing more comes of it.
    void close();

    DocumentRole role() const { return m_role; }
    QString path() const { return m_path; }
    std::shared_ptr<const LogIndex> index() const { return m_index; }
    std::shared_ptr<ByteSource> source() const { return m_source; }
    LiveJob* liveJob() const { return m_live.get(); }
    const std::optional<RangeStats>& wholeStats() const { return m_wholeStats; }
    // What the tracks say while they show no data ("loading…").
    QString placeholder() const { return m_placeholder; }

signals:
    void loadStarted(const QString& path); // progress from here (Cancel)
    void progress(quint64 done, quint64 total);
    void loadEnded(); // no more progress: loaded, failed, cancelled or not a log
    // Every pane lets go of the log on screen; `sameFile`: a reload of it
    // (views may keep where the user was looking).
    void cleared(const QString& path, bool sameFile);
    void indexChanged(const hecscope::IndexChange& change);
    // A whole load's index is on screen (after indexChanged), or opening
    // failed (a notice said why).
    void loaded();
    void statisticsReady(const hecscope::RangeStats& whole);
    void notice(const QString& text, hecscope::NoticeKind kind);
    // Opening failed, and why (after the notice, which names the file).
    void openFailed(const QString& why);
    void noticeCleared();
    void placeholderChanged(const QString& text);
    // A .prof / -pj report: opened alone by the window (or, a compared
    // run, read by the comparison).
    void reportFound(const QString& path);
    void remember(const QString& path);    // worth listing under File ▸ Open Recent
    // A live session began (its job) or ended for good (nullptr); its
    // updates: before the panes get one, and after.
    void liveJobChanged(hecscope::LiveJob* job);
    void liveUpdateComing();
    void liveUpdated(const hecscope::LiveStatus& status);

private:
    void openRun(const QString& path);
    void startJob(const QString& path);
    void endLiveSession();
    void setPlaceholder(const QString& text);
    void retire(std::unique_ptr<LoadJob> job);
    void showIndex(std::shared_ptr<const LogIndex> index);
    void showPartialIndex(std::shared_ptr<const LogIndex> index);
    void showFailure(const QString& message);
    void showLiveUpdate(std::shared_ptr<const LogIndex> index, const LiveStatus& status);
    void liveNotice(const LiveStatus& status, bool wasDisconnected);
    void replaceIndex(std::shared_ptr<const LogIndex> index, std::shared_ptr<ByteSource> source, IndexChange change);

    DocumentRole m_role;
    QString m_path;
    std::shared_ptr<const LogIndex> m_index;
    std::shared_ptr<ByteSource> m_source;
    std::optional<RangeStats> m_wholeStats;
    QString m_placeholder;
    bool m_partialShown = false;   // the index on screen is a long load's partial one
    QString m_loadingPath;         // a file being opened that has not yet shown itself to be a log
    QString m_placeholderBefore;   // what the tracks said before it (restored if it is not one)
    std::unique_ptr<LoadJob> m_job;
    std::unique_ptr<LiveJob> m_live;
    bool m_liveDisconnected = false; // the notice says the live socket closed
    std::vector<std::unique_ptr<LoadJob>> m_retired; // cancelled, finishing on their own
    QTimer* m_reaper = nullptr; // drops m_retired's finished jobs while there are any
    JobRunner m_liveStatsRunner; // whole-run statistics of each live update
    // Frees replaced snapshots of a growing log (hundreds of MB each) off
    // the UI thread. Last: destroyed (and waited for) first.
    JobRunner m_disposer;
};

} // namespace hecscope

Q_DECLARE_METATYPE(hecscope::IndexChange)
