// The TestLiveWindow suite (tst_livewindow.cpp and the files beside it): its class, and
// the helpers that more than one of its files use.
#pragma once

#include "livetestsupport.h"
#include "testsupport.h"

#include "core/load/loader.h"
#include "core/index/logindex.h"
#include "core/io/bytesource.h"
#include "core/live/livesession.h"
#include "core/stats/stats.h"
#include "core/report/info.h"
#include "core/report/rtssummary.h"
#include "ui/events/eventlistmodel.h"
#include "ui/events/eventlistpane.h"
#include "ui/heap/heappanel.h"
#include "ui/formatting.h"
#include "ui/jobs/livejob.h"
#include "ui/threads/spanspane.h"
#include "ui/threads/threadspane.h"
#include "ui/timeline/timelineview.h"
#include "ui/document/viewcontroller.h"
#include "ui/window/livecontrols.h"
#include "ui/window/mainwindow.h"

#include <QAction>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QToolBar>
#include <QtTest>

#include <atomic>
#include <condition_variable>
#include <csignal>
#include <fcntl.h>
#include <memory>
#include <mutex>
#include <optional>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace hecscope;
using namespace hecscope::test;

namespace livewindowtest {

constexpr int kGuardMs = 20000; // a hung session, not a timing assertion

QString logPath(const char* name);

// The writing end of a named pipe, driven by the test: feedTo(n) has its
// thread write the log up to byte n, in chunks of `chunk` bytes with a
// pause after each (a program writing as it runs); finish() writes what was
// asked and closes the pipe (the program ended).
class PipeFeeder {
public:
    PipeFeeder(std::string path, const std::vector<uint8_t>& bytes, size_t chunk = 4096, int pauseUs = 200)
        : m_path(std::move(path)), m_bytes(bytes), m_chunk(chunk), m_pauseUs(pauseUs)
    {
    }
    ~PipeFeeder()
    {
        finish();
        if (m_thread.joinable())
            m_thread.join();
        if (m_fd >= 0)
            ::close(m_fd);
    }
    // After the window opened the pipe for reading: never blocks.
    bool open()
    {
        m_fd = ::open(m_path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
        if (m_fd < 0 || ::fcntl(m_fd, F_SETFL, ::fcntl(m_fd, F_GETFL) & ~O_NONBLOCK) != 0)
            return false;
        m_thread = std::thread([this] { run(); });
        return true;
    }
    void feedTo(size_t n)
    {
        std::lock_guard lock(m_mutex);
        m_target = std::min(std::max(m_target, n), m_bytes.size());
        m_cv.notify_all();
    }
    void finish()
    {
        std::lock_guard lock(m_mutex);
        m_finish = true;
        m_cv.notify_all();
    }
    bool failed() const { return m_failed; }

private:
    void run()
    {
        size_t pos = 0;
        for (;;) {
            size_t target;
            {
                std::unique_lock lock(m_mutex);
                m_cv.wait(lock, [&] { return m_target > pos || m_finish; });
                target = m_target;
                if (pos >= target && m_finish)
                    break;
            }
            while (pos < target) {
                const size_t n = std::min(m_chunk, target - pos);
                const ssize_t w = ::write(m_fd, m_bytes.data() + pos, n);
                if (w <= 0) {
                    m_failed = true;
                    return;
                }
                pos += size_t(w);
                if (m_pauseUs > 0)
                    std::this_thread::sleep_for(std::chrono::microseconds(m_pauseUs));
            }
        }
        ::close(m_fd);
        m_fd = -1;
    }

    std::string m_path;
    const std::vector<uint8_t>& m_bytes;
    size_t m_chunk;
    int m_pauseUs;
    int m_fd = -1;
    std::thread m_thread;
    std::mutex m_mutex;
    std::condition_variable m_cv;
    size_t m_target = 0;
    bool m_finish = false;
    std::atomic<bool> m_failed{false};
};

// What the window showed at each liveUpdateShown, taken at that moment.
struct Shown {
    LiveStatus status;
    std::shared_ptr<const LogIndex> index;
    int eventRows = 0;
    int gcRows = 0;
    const LogIndex* timelineIndex = nullptr;
    ViewRange range;
    bool following = false;
    QString banner;
};

class Recorder {
public:
    explicit Recorder(MainWindow& w) : m_w(w)
    {
        m_shown = QObject::connect(&w, &MainWindow::liveUpdateShown, &w, [this] {
            Shown s;
            s.status = m_w.liveJob()->status();
            s.index = m_w.index();
            s.eventRows = m_w.eventList()->model()->rowCount();
            s.gcRows = m_w.gcTable()->model()->rowCount();
            s.timelineIndex = m_w.timeline()->renderer().index();
            s.range = m_w.controller()->range();
            s.following = m_w.liveControls()->following();
            s.banner = m_w.bannerText();
            shown.push_back(std::move(s));
        });
        // Whole-run statistics land after their update, on a worker's
        // result: the text and the index it is of (only the latest lands).
        m_stats = QObject::connect(&w, &MainWindow::statisticsShown, &w, [this] {
            statsIndex = m_w.index().get();
            statsText = m_w.statisticsText();
        });
    }
    ~Recorder()
    {
        QObject::disconnect(m_shown);
        QObject::disconnect(m_stats);
    }
    Recorder(const Recorder&) = delete;
    Recorder& operator=(const Recorder&) = delete;
    bool any() const { return !shown.empty(); }
    const Shown& last() const { return shown.back(); }
    bool lastHasBytes(uint64_t bytes) const { return any() && last().status.bytes == bytes; }
    bool lastIs(LiveState state) const { return any() && last().status.state == state; }

    std::vector<Shown> shown;
    const LogIndex* statsIndex = nullptr;
    QString statsText;

private:
    MainWindow& m_w;
    QMetaObject::Connection m_shown, m_stats;
};

QAction* liveAction(const MainWindow& w, const QString& text);

} // namespace livewindowtest

using namespace livewindowtest;

namespace hecscope {
char* toString(const ViewRange& r); // QCOMPARE's account of a range
} // namespace hecscope

class TestLiveWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void growingPipeUpdatesEveryPane();
    void followKeepsTheLatestSecondsUntilTheUserMovesTheView();
    void mergedTimeWaitsForEveryCapability();
    void disconnectThenReconnectAppends();
    void aReconnectedSessionNoLongerSaysDisconnected();
    void controlCommandsFromTheToolbar();
    void stopKeepsWhatWasReceived();
    void stopBeforeAnyByteAndBytesThatAreNotALog();
    void aSourceThatCannotBeOpenedKeepsTheLog();
    void recordKeepsTheBytesAsReceived();
    void keepingTheLatestMinutesSaysWhatWasDropped();
    void panesKeepTheUsersChoicesAcrossUpdates();
    void aHeapProfileBeingWrittenIsFollowed();
    void cleanup();

private:
    // A named pipe in the test's folder ("ghc.fifo"): its path, empty if it
    // cannot be made.
    QString makeFifo() const;

    // Each test's window, made by init() and gone after cleanup(): shown at
    // 1400 x 900 (following the latest 10 s, no recent files), with a
    // Recorder of what it showed and a folder for its pipes, sockets and
    // recordings.
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<MainWindow> m_window;
    std::unique_ptr<Recorder> m_rec;
};
