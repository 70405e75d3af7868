// The live window on real logs: MainWindow::openLive on a named pipe fed by
// the test and on a Unix socket served the way ghc-eventlog-socket serves
// it, and the Live toolbar (Follow and F, Stop, Reconnect, the control
// commands). Every pane follows the growing log; the final index equals a
// one-shot load of the same bytes; what cannot be followed leaves the log on
// screen.
//
// The pipe's writer is driven by the test (feedTo): each step's bytes are
// written in small chunks with pauses, and the test waits for the update
// that has them all, so that what each update holds is known without
// depending on timing. Waits are guards against a hung session only.
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
#include "ui/timeline/viewcontroller.h"
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
#include <mutex>
#include <optional>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace hecscope;
using namespace hecscope::test;

namespace {

constexpr int kGuardMs = 20000; // a hung session, not a timing assertion

QString logPath(const char* name)
{
    return QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/") + QLatin1String(name);
}

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

QAction* liveAction(const MainWindow& w, const QString& text)
{
    for (QAction* a : w.liveControls()->toolBar()->actions())
        if (a->text().remove(QLatin1Char('&')) == text)
            return a;
    return nullptr;
}

QByteArray bytesOf(const std::string& s)
{
    return QByteArray::fromStdString(s);
}

// Where Follow puts the view: the latest `seconds` up to the merged time
// (the newest event once the session is over), never before the first event.
ViewRange followedRange(const LiveStatus& s, uint64_t firstTime, int seconds)
{
    const uint64_t end = isFinal(s.state) ? s.newestTime : s.mergedTime;
    const uint64_t span = uint64_t(seconds) * 1'000'000'000ull;
    const uint64_t start = end > span ? std::max(end - span, firstTime) : firstTime;
    return {start, std::max(end, start + 1)};
}

} // namespace

namespace hecscope {
char* toString(const ViewRange& r) // QCOMPARE's account of a range
{
    return qstrdup(qPrintable(QStringLiteral("[%1, %2)").arg(r.start).arg(r.end)));
}
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
};

void TestLiveWindow::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("HecscopeTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_livewindow"));
    QSettings().clear();
    std::signal(SIGPIPE, SIG_IGN); // a pipe's reader gone is the test's failure, not a kill
}

void TestLiveWindow::init()
{
    QSettings().clear(); // the window of the latest 10 s, no recent files
}

// A named pipe fed in six steps while the window follows it: after each
// step's update the index has more events, the event list has a row for
// each of them, the timeline and GC table have the same index, and the
// Statistics pane is of it. At the end (the log's end-of-data marker) the
// index equals a one-shot load of the log, and so do the statistics.
void TestLiveWindow::growingPipeUpdatesEveryPane()
{
    const std::vector<uint8_t> bytes = readFile(logPath("threads-N2.eventlog"));
    QTemporaryDir dir;
    const QString fifo = dir.filePath(QStringLiteral("ghc.fifo"));
    QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    Recorder rec(w);
    w.openLive(fifo);
    QVERIFY2(w.liveJob(), qPrintable(w.bannerText()));
    QVERIFY(w.bannerText().contains(QStringLiteral("Following %1 live").arg(fifo)));
    QVERIFY(!w.liveControls()->toolBar()->isHidden());
    PipeFeeder feeder(fifo.toStdString(), bytes);
    QVERIFY(feeder.open());

    constexpr int kSteps = 6;
    uint64_t eventsBefore = 0;
    int gcRowsFirst = -1;
    QString statsBefore;
    for (int k = 1; k < kSteps; ++k) {
        const size_t target = bytes.size() * size_t(k) / kSteps;
        feeder.feedTo(target);
        QTRY_VERIFY_WITH_TIMEOUT(rec.lastHasBytes(target), kGuardMs);
        const Shown& s = rec.last();
        QCOMPARE(s.status.state, LiveState::Receiving);
        QVERIFY(s.index);
        QCOMPARE(s.index.get(), w.index().get());
        const uint64_t events = s.index->scan.events;
        QCOMPARE(s.status.events, events);
        QVERIFY2(events > eventsBefore, qPrintable(QStringLiteral("step %1: %2 events, %3 before").arg(k).arg(events).arg(eventsBefore)));
        QCOMPARE(s.eventRows, int(events));
        QCOMPARE(s.gcRows, int(s.index->collections.size()));
        QCOMPARE(s.timelineIndex, s.index.get());
        QVERIFY(s.status.mergedTime <= s.status.newestTime);
        QCOMPARE(s.status.newestTime, s.index->lastTime);
        if (gcRowsFirst < 0)
            gcRowsFirst = s.gcRows;
        // The statistics of this update (they come from a worker).
        QTRY_VERIFY_WITH_TIMEOUT(rec.statsIndex == w.index().get(), kGuardMs);
        QVERIFY(rec.statsText.startsWith(QStringLiteral("Whole run")));
        QVERIFY2(rec.statsText != statsBefore, qPrintable(QStringLiteral("step %1: the same statistics").arg(k)));
        statsBefore = rec.statsText;
        eventsBefore = events;
    }
    const size_t updatesWhileReceiving = rec.shown.size();
    QVERIFY(updatesWhileReceiving >= size_t(kSteps - 1));

    feeder.feedTo(bytes.size());
    feeder.finish();
    QTRY_VERIFY_WITH_TIMEOUT(rec.lastIs(LiveState::Ended), kGuardMs);
    QVERIFY(!feeder.failed());
    const Shown& end = rec.last();
    QVERIFY2(end.banner.contains(QStringLiteral("%1 ended: the program ended its eventlog (end-of-data marker).").arg(fifo)),
             qPrintable(end.banner));
    QCOMPARE(end.status.bytes, uint64_t(bytes.size()));
    const auto oneShot = indexOfBytes(bytes);
    compareIndexes(*w.index(), *oneShot);
    QCOMPARE(end.eventRows, int(oneShot->scan.events));
    QCOMPARE(w.eventList()->model()->rowCount(), int(oneShot->scan.events));
    QCOMPARE(end.gcRows, int(oneShot->collections.size()));
    QVERIFY2(end.gcRows > gcRowsFirst, qPrintable(QStringLiteral("%1 GC rows, %2 at first").arg(end.gcRows).arg(gcRowsFirst)));
    QCOMPARE(end.timelineIndex, w.index().get());
    QCOMPARE(w.controller()->bounds().end, oneShot->lastTime);
    // The final Statistics pane is that of the whole log.
    QTRY_VERIFY_WITH_TIMEOUT(rec.statsIndex == w.index().get(), kGuardMs);
    const RangeStats stats = computeStats(*oneShot);
    QVERIFY2(rec.statsText.contains(QString::fromStdString(rtsSummaryText(*oneShot, stats, true))), qPrintable(rec.statsText));
    QVERIFY2(rec.statsText.contains(QString::fromStdString(infoText(*oneShot, stats, fifo.toStdString()))), qPrintable(rec.statsText));
    // Over: nothing to stop, the toolbar stays to say so.
    QVERIFY(!liveAction(w, QStringLiteral("Stop"))->isEnabled());
    QVERIFY(w.liveControls()->statusText().contains(QStringLiteral("ended")));
}

// Follow keeps the latest N seconds up to the merged time in view; a zoom
// by the user pauses it (the status says so) and later updates leave the
// view alone; F resumes it at once and with the next update.
void TestLiveWindow::followKeepsTheLatestSecondsUntilTheUserMovesTheView()
{
    const std::vector<uint8_t> bytes = readFile(logPath("threads-N2.eventlog"));
    QTemporaryDir dir;
    const QString fifo = dir.filePath(QStringLiteral("ghc.fifo"));
    QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    Recorder rec(w);
    w.openLive(fifo);
    QVERIFY2(w.liveJob(), qPrintable(w.bannerText()));
    // The shortest window, so that it is narrower than the log where it can be.
    auto* seconds = w.liveControls()->toolBar()->findChild<QSpinBox*>();
    QVERIFY(seconds);
    seconds->setValue(1);
    QCOMPARE(w.liveControls()->windowSeconds(), 1);
    QVERIFY(w.liveControls()->following());
    QVERIFY(w.liveControls()->followAction()->isChecked());
    PipeFeeder feeder(fifo.toStdString(), bytes);
    QVERIFY(feeder.open());

    constexpr int kSteps = 12;
    int step = 0;
    auto feedStep = [&] {
        ++step;
        const size_t target = bytes.size() * size_t(step) / kSteps;
        feeder.feedTo(target);
        return target;
    };
    auto expected = [&](const Shown& s) { return followedRange(s.status, s.index->firstTime, 1); };

    // Following: each update with a merged time puts the view's end there.
    // (Before every capability's events have begun to come, nothing is
    // merged yet: that is mergedTimeWaitsForEveryCapability's business.)
    std::optional<ViewRange> followed;
    for (int followedUpdates = 0; followedUpdates < 2;) {
        QVERIFY2(step < kSteps - 5, "no merged time in the first half of the log");
        const size_t target = feedStep();
        QTRY_VERIFY_WITH_TIMEOUT(rec.lastHasBytes(target), kGuardMs);
        const Shown& s = rec.last();
        QVERIFY(s.following);
        QVERIFY2(!w.liveControls()->statusText().contains(QStringLiteral("paused")), qPrintable(w.liveControls()->statusText()));
        if (s.status.mergedTime == 0)
            continue;
        QCOMPARE(s.range, expected(s));
        QCOMPARE(s.range.end, s.status.mergedTime);
        QCOMPARE(w.controller()->range(), expected(s));
        if (followed)
            QVERIFY(s.range != *followed); // it moved with the update
        followed = s.range;
        ++followedUpdates;
    }

    // The user zooms in: following pauses.
    const ViewRange before = w.controller()->range();
    w.controller()->zoom(0.5, before.start + before.duration() / 2, true);
    const ViewRange zoomed = w.controller()->range();
    QVERIFY(zoomed != before);
    QVERIFY(!w.liveControls()->following());
    QVERIFY(!w.liveControls()->followAction()->isChecked());
    QVERIFY2(w.liveControls()->statusText().contains(QStringLiteral("paused")), qPrintable(w.liveControls()->statusText()));
    for (int i = 0; i < 2; ++i) {
        const size_t target = feedStep();
        QTRY_VERIFY_WITH_TIMEOUT(rec.lastHasBytes(target), kGuardMs);
        const Shown& s = rec.last();
        QVERIFY(!s.following);
        QVERIFY(expected(s) != zoomed); // following would have moved the view
        QCOMPARE(s.range, zoomed);
        QVERIFY2(w.liveControls()->statusText().contains(QStringLiteral("paused")), qPrintable(w.liveControls()->statusText()));
        QVERIFY2(w.liveControls()->statusText().contains(QStringLiteral("behind the newest event")), qPrintable(w.liveControls()->statusText()));
    }

    // F resumes: at once, to the newest merged time received...
    QTest::keyClick(&w, Qt::Key_F);
    QVERIFY(w.liveControls()->followAction()->isChecked());
    QVERIFY(w.liveControls()->following());
    QCOMPARE(w.controller()->range(), expected(rec.last()));
    QVERIFY2(!w.liveControls()->statusText().contains(QStringLiteral("paused")), qPrintable(w.liveControls()->statusText()));
    // ... and with the next update.
    {
        const size_t target = feedStep();
        QTRY_VERIFY_WITH_TIMEOUT(rec.lastHasBytes(target), kGuardMs);
        const Shown& s = rec.last();
        QVERIFY(s.following);
        QVERIFY(s.range != zoomed);
        QCOMPARE(s.range, expected(s));
        QCOMPARE(s.range.end, s.status.mergedTime);
    }
    // At the end, the newest event (nothing is pending any more).
    feeder.feedTo(bytes.size());
    feeder.finish();
    QTRY_VERIFY_WITH_TIMEOUT(rec.lastIs(LiveState::Ended), kGuardMs);
    const Shown& end = rec.last();
    QVERIFY(end.following);
    QCOMPARE(end.range, expected(end));
    QCOMPARE(end.range.end, end.index->lastTime);
    QCOMPARE(w.controller()->range().end, w.index()->lastTime);
    compareIndexes(*w.index(), *indexOfBytes(bytes));
}

// The merged time is where every capability's events are in, so Follow
// never shows a half-merged end and never takes back what it showed. GHC
// writes each capability's buffer when it is full, a quieter capability's
// later: in threads-N2 all of cap 0's events (to 70 ms) come before any of
// cap 1's (from 0.2 ms), though cap 0's events name cap 1 (threads woken
// and migrated there). Until cap 1's first block arrives, nothing after the
// first event is merged.
//
// Fails with the product as it is: publish() ignores capabilities without
// events, so at 2/8 of the bytes the status says merged up to 31.6 ms with
// nothing pending ("view at the newest event") while none of cap 1's
// events are in, and at 3/8 the merged time falls back to 1.45 ms and
// Follow moves the view back with it.
void TestLiveWindow::mergedTimeWaitsForEveryCapability()
{
    const std::vector<uint8_t> bytes = readFile(logPath("threads-N2.eventlog"));
    const auto complete = indexOfBytes(bytes);
    QVERIFY(complete->caps.size() >= 2);
    QTemporaryDir dir;
    const QString fifo = dir.filePath(QStringLiteral("ghc.fifo"));
    QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    Recorder rec(w);
    w.openLive(fifo);
    QVERIFY2(w.liveJob(), qPrintable(w.bannerText()));
    PipeFeeder feeder(fifo.toStdString(), bytes);
    QVERIFY(feeder.open());
    constexpr int kSteps = 8;
    uint64_t mergedBefore = 0;
    std::optional<ViewRange> viewBefore;
    for (int k = 1; k < kSteps; ++k) {
        const size_t target = bytes.size() * size_t(k) / kSteps;
        feeder.feedTo(target);
        QTRY_VERIFY_WITH_TIMEOUT(rec.lastHasBytes(target), kGuardMs);
        const Shown& s = rec.last();
        QVERIFY(s.following);
        const uint64_t merged = s.status.mergedTime;
        const QString at = QStringLiteral("at %1/%2 of the bytes: merged %3 ns, newest %4 ns")
                               .arg(k).arg(kSteps).arg(merged).arg(s.status.newestTime);
        // A capability of the complete log with events at or before the
        // merged time has them in this update.
        for (size_t c = 0; c < complete->caps.size(); ++c) {
            const Capability& cap = complete->caps[c];
            if (cap.events == 0 || cap.firstEvent > merged)
                continue;
            const bool in = c < s.index->caps.size() && s.index->caps[c].events > 0;
            QVERIFY2(in, qPrintable(at + QStringLiteral(", but none of cap %1's events (from %2 ns) are in; status: %3")
                                             .arg(c).arg(cap.firstEvent).arg(w.liveControls()->statusText())));
        }
        QVERIFY2(merged >= mergedBefore, qPrintable(at + QStringLiteral(": before, merged %1 ns").arg(mergedBefore)));
        // Once Follow has put the view at a merged time, it only moves on.
        if (viewBefore && mergedBefore > 0)
            QVERIFY2(s.range.end >= viewBefore->end,
                     qPrintable(at + QStringLiteral(": Follow moved the view's end back from %1 to %2 ns")
                                         .arg(viewBefore->end).arg(s.range.end)));
        mergedBefore = merged;
        viewBefore = s.range;
    }
    feeder.feedTo(bytes.size());
    feeder.finish();
    QTRY_VERIFY_WITH_TIMEOUT(rec.lastIs(LiveState::Ended), kGuardMs);
    compareIndexes(*w.index(), *complete);
}

// A socket whose program closes the connection: the window says so and
// waits (no automatic reconnection); Reconnect appends the next connection,
// which re-sends the header, to the same timeline.
void TestLiveWindow::disconnectThenReconnectAppends()
{
    const std::vector<uint8_t> original = readFile(logPath("threads-N2.eventlog"));
    const LogLayout before = layoutOf(original);
    std::vector<size_t> at;
    const std::vector<uint8_t> bytes = splitBlocksAt(original, {before.eventStarts[before.eventStarts.size() / 3]}, &at);
    QCOMPARE(at.size(), size_t(1));
    const size_t cut = at[0];
    const LogLayout layout = layoutOf(bytes);
    QTemporaryDir dir;
    const std::string sock = dir.filePath(QStringLiteral("s.sock")).toStdString();
    ReplayServer server(sock, bytes, {{layout.headerSize, cut}, {cut, bytes.size()}}, 11, 50);
    server.start();
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    Recorder rec(w);
    const QString source = QStringLiteral("unix:") + QString::fromStdString(sock);
    w.openLive(source);
    QVERIFY2(w.liveJob(), qPrintable(w.bannerText()));
    QVERIFY(w.liveJob()->isSocket());
    QAction* reconnect = liveAction(w, QStringLiteral("Reconnect"));
    QVERIFY(reconnect);
    QVERIFY(reconnect->isVisible());
    QVERIFY(!reconnect->isEnabled()); // not before a disconnect

    QTRY_VERIFY_WITH_TIMEOUT(rec.lastIs(LiveState::Disconnected), kGuardMs);
    const Shown& down = rec.last();
    QVERIFY2(down.banner.contains(QStringLiteral("closed the connection")), qPrintable(down.banner));
    QVERIFY2(down.banner.contains(QStringLiteral("Reconnect appends the next connection")), qPrintable(down.banner));
    QVERIFY2(w.liveControls()->statusText().contains(QStringLiteral("disconnected")), qPrintable(w.liveControls()->statusText()));
    QCOMPARE(down.status.bytes, uint64_t(cut));
    compareIndexes(*w.index(), *indexOfBytes({bytes.begin(), bytes.begin() + ptrdiff_t(cut)}));
    QCOMPARE(w.eventList()->model()->rowCount(), int(w.index()->scan.events));
    QCOMPARE(down.status.connections, 1u); // no connection of its own accord
    QTRY_COMPARE_WITH_TIMEOUT(server.connectionsServed(), 1, kGuardMs);
    QVERIFY(reconnect->isEnabled());
    QVERIFY(liveAction(w, QStringLiteral("Stop"))->isEnabled());
    QVERIFY(!liveAction(w, QStringLiteral("Heap Census"))->isEnabled()); // nobody to send to

    reconnect->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(rec.lastIs(LiveState::Ended), kGuardMs);
    server.join();
    const Shown& end = rec.last();
    QVERIFY2(end.banner.contains(QStringLiteral("%1 ended").arg(source)), qPrintable(end.banner));
    QCOMPARE(end.status.connections, 2u);
    QCOMPARE(server.connectionsServed(), 2);
    QCOMPARE(end.status.bytes, uint64_t(bytes.size()));
    compareIndexes(*w.index(), *indexOfBytes(bytes));
    QCOMPARE(end.eventRows, int(w.index()->scan.events));
    QVERIFY(!reconnect->isEnabled());
}

// After Reconnect, while the next connection is receiving, the window no
// longer says the program closed the connection (and that Reconnect would
// append the next one): the banner is about what is going on now. Three
// connections; the second is held open after its bytes, so that the
// session is receiving on it for as long as the test looks.
//
// Fails with the product as it is: showLiveUpdate() sets the banner for a
// disconnect, an end and decoding problems, but nothing takes the
// disconnect's banner away once the session receives again.
void TestLiveWindow::aReconnectedSessionNoLongerSaysDisconnected()
{
    const std::vector<uint8_t> original = readFile(logPath("threads-N2.eventlog"));
    const LogLayout before = layoutOf(original);
    const size_t n = before.eventStarts.size();
    std::vector<size_t> at;
    const std::vector<uint8_t> bytes = splitBlocksAt(original, {before.eventStarts[n / 3], before.eventStarts[2 * n / 3]}, &at);
    QCOMPARE(at.size(), size_t(2));
    const LogLayout layout = layoutOf(bytes);
    QTemporaryDir dir;
    const std::string sock = dir.filePath(QStringLiteral("s.sock")).toStdString();
    ReplayServer server(sock, bytes, {{layout.headerSize, at[0]}, {at[0], at[1]}, {at[1], bytes.size()}}, 17, 50);
    server.holdOpen(1);
    server.start();
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    Recorder rec(w);
    const QString source = QStringLiteral("unix:") + QString::fromStdString(sock);
    w.openLive(source);
    QVERIFY2(w.liveJob(), qPrintable(w.bannerText()));
    QAction* reconnect = liveAction(w, QStringLiteral("Reconnect"));
    QVERIFY(reconnect);
    QTRY_VERIFY_WITH_TIMEOUT(rec.lastIs(LiveState::Disconnected), kGuardMs);
    QVERIFY2(w.bannerText().contains(QStringLiteral("closed the connection")), qPrintable(w.bannerText()));
    reconnect->trigger();
    // Receiving on the second connection, all of its bytes in.
    QTRY_VERIFY_WITH_TIMEOUT(rec.lastHasBytes(at[1]), kGuardMs);
    const Shown& again = rec.last();
    QCOMPARE(again.status.state, LiveState::Receiving);
    QCOMPARE(again.status.connections, 2u);
    QVERIFY(!reconnect->isEnabled());
    QVERIFY(liveAction(w, QStringLiteral("Heap Census"))->isEnabled());
    QVERIFY2(w.liveControls()->statusText().contains(QStringLiteral("receiving")), qPrintable(w.liveControls()->statusText()));
    compareIndexes(*w.index(), *indexOfBytes({bytes.begin(), bytes.begin() + ptrdiff_t(at[1])}));
    // Checked at the end, so that the rest is seen through either way.
    const QString bannerWhileReceiving = w.bannerText();

    // The second connection closes too; the third has the rest.
    server.release();
    QTRY_VERIFY_WITH_TIMEOUT(rec.lastIs(LiveState::Disconnected), kGuardMs);
    QVERIFY(reconnect->isEnabled());
    reconnect->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(rec.lastIs(LiveState::Ended), kGuardMs);
    server.join();
    QCOMPARE(rec.last().status.connections, 3u);
    compareIndexes(*w.index(), *indexOfBytes(bytes));
    QVERIFY2(!bannerWhileReceiving.contains(QStringLiteral("closed the connection"))
                 && !bannerWhileReceiving.contains(QStringLiteral("Reconnect appends")),
             qPrintable(QStringLiteral("receiving on connection 2, the banner still said: ") + bannerWhileReceiving));
}

// While a socket is receiving, the toolbar's control commands go to the
// program on the same connection; a pipe has none to offer.
void TestLiveWindow::controlCommandsFromTheToolbar()
{
    const std::vector<uint8_t> bytes = readFile(logPath("leak-hT.eventlog"));
    const LogLayout layout = layoutOf(bytes);
    QTemporaryDir dir;
    const std::string sock = dir.filePath(QStringLiteral("s.sock")).toStdString();
    ReplayServer server(sock, bytes, {{layout.headerSize, layout.eventStarts[layout.eventStarts.size() / 2]}}, 5, 0);
    server.holdOpen(0);
    server.start();
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    Recorder rec(w);
    w.openLive(QStringLiteral("unix:") + QString::fromStdString(sock));
    QVERIFY2(w.liveJob(), qPrintable(w.bannerText()));
    QTRY_VERIFY_WITH_TIMEOUT(rec.lastIs(LiveState::Receiving), kGuardMs);
    const QStringList commands = {QStringLiteral("Start Profiling"), QStringLiteral("Stop Profiling"),
                                  QStringLiteral("Start Heap Profiling"), QStringLiteral("Stop Heap Profiling"),
                                  QStringLiteral("Heap Census")};
    for (const QString& c : commands) {
        QAction* a = liveAction(w, c);
        QVERIFY2(a, qPrintable(c));
        QVERIFY2(a->isVisible() && a->isEnabled(), qPrintable(c));
    }
    QVERIFY(server.received().empty());
    liveAction(w, QStringLiteral("Heap Census"))->trigger();
    const std::string census = controlMessage(ControlCommand::RequestHeapCensus);
    QTRY_VERIFY_WITH_TIMEOUT(server.received().size() >= census.size(), kGuardMs);
    QCOMPARE(bytesOf(server.received()), bytesOf(census));
    liveAction(w, QStringLiteral("Stop Heap Profiling"))->trigger();
    const std::string both = census + controlMessage(ControlCommand::StopHeapProfiling);
    QTRY_VERIFY_WITH_TIMEOUT(server.received().size() >= both.size(), kGuardMs);
    QCOMPARE(bytesOf(server.received()), bytesOf(both));

    // The program goes away: nothing to send to.
    server.release();
    QTRY_VERIFY_WITH_TIMEOUT(rec.lastIs(LiveState::Disconnected), kGuardMs);
    for (const QString& c : commands)
        QVERIFY2(!liveAction(w, c)->isEnabled(), qPrintable(c));

    // A named pipe: no control commands, no Reconnect.
    const QString fifo = dir.filePath(QStringLiteral("ghc.fifo"));
    QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
    w.openLive(fifo);
    QVERIFY2(w.liveJob() && !w.liveJob()->isSocket(), qPrintable(w.bannerText()));
    PipeFeeder feeder(fifo.toStdString(), bytes);
    QVERIFY(feeder.open());
    feeder.feedTo(bytes.size() / 2);
    QTRY_VERIFY_WITH_TIMEOUT(rec.lastHasBytes(bytes.size() / 2), kGuardMs);
    for (const QString& c : commands)
        QVERIFY2(!liveAction(w, c)->isVisible(), qPrintable(c));
    QVERIFY(!liveAction(w, QStringLiteral("Reconnect"))->isVisible());
    QVERIFY(liveAction(w, QStringLiteral("Stop"))->isEnabled());
    QCOMPARE(bytesOf(server.received()), bytesOf(both));
}

// Stop while the writer still holds the pipe open: the session ends with
// what was received, and the window shows exactly that.
void TestLiveWindow::stopKeepsWhatWasReceived()
{
    const std::vector<uint8_t> bytes = readFile(logPath("threads-N2.eventlog"));
    const size_t half = bytes.size() / 2;
    QTemporaryDir dir;
    const QString fifo = dir.filePath(QStringLiteral("ghc.fifo"));
    QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    Recorder rec(w);
    w.openLive(fifo);
    QVERIFY2(w.liveJob(), qPrintable(w.bannerText()));
    PipeFeeder feeder(fifo.toStdString(), bytes);
    QVERIFY(feeder.open());
    feeder.feedTo(half);
    QTRY_VERIFY_WITH_TIMEOUT(rec.lastHasBytes(half), kGuardMs);
    QCOMPARE(rec.last().status.state, LiveState::Receiving);
    QAction* stop = liveAction(w, QStringLiteral("Stop"));
    QVERIFY(stop);
    QVERIFY(stop->isEnabled());
    stop->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(rec.lastIs(LiveState::Stopped), kGuardMs);
    const Shown& end = rec.last();
    QVERIFY2(end.banner.contains(QStringLiteral("%1 stopped: stopped following.").arg(fifo)), qPrintable(end.banner));
    QCOMPARE(end.status.bytes, uint64_t(half));
    const std::vector<uint8_t> received(bytes.begin(), bytes.begin() + ptrdiff_t(half));
    const auto oneShot = indexOfBytes(received);
    compareIndexes(*w.index(), *oneShot);
    QVERIFY2(end.banner.contains(QStringLiteral("Showing the %1 events received").arg(countText(oneShot->scan.events))),
             qPrintable(end.banner));
    QCOMPARE(end.eventRows, int(oneShot->scan.events));
    QCOMPARE(end.timelineIndex, w.index().get());
    QVERIFY(!stop->isEnabled());
    QVERIFY(!w.liveJob()->isRunning());
    // The recording the event list reads is what was received.
    std::vector<uint8_t> recorded(half + 1);
    QCOMPARE(w.liveJob()->recording()->read(0, recorded.data(), recorded.size()), half);
    recorded.resize(half);
    QVERIFY(recorded == received);
}

// Stop while still waiting for a writer: the session ends with nothing,
// and the window says so (no log to show). A writer of text, not an
// eventlog: the session fails, the window says why.
void TestLiveWindow::stopBeforeAnyByteAndBytesThatAreNotALog()
{
    QTemporaryDir dir;
    const QString fifo = dir.filePath(QStringLiteral("ghc.fifo"));
    QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    Recorder rec(w);
    w.openLive(fifo);
    QVERIFY2(w.liveJob(), qPrintable(w.bannerText()));
    QTRY_VERIFY_WITH_TIMEOUT(w.liveJob()->status().state == LiveState::Waiting && w.liveJob()->status().sequence > 0, kGuardMs);
    QVERIFY(w.timeline()->options().placeholder.contains(QStringLiteral("waiting for a writer")));
    QVERIFY(!rec.any()); // nothing decoded: no update of the panes
    liveAction(w, QStringLiteral("Stop"))->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(rec.lastIs(LiveState::Stopped), kGuardMs);
    QVERIFY2(w.bannerText().contains(QStringLiteral("%1 stopped").arg(fifo)), qPrintable(w.bannerText()));
    QCOMPARE(rec.last().status.bytes, uint64_t(0));
    QCOMPARE(w.eventList()->model()->rowCount(), 0);
    QVERIFY(!liveAction(w, QStringLiteral("Stop"))->isEnabled());

    const std::string text = "These are my notes, not an eventlog.\n";
    const std::vector<uint8_t> notes(text.begin(), text.end());
    w.openLive(fifo);
    QVERIFY2(w.liveJob(), qPrintable(w.bannerText()));
    PipeFeeder feeder(fifo.toStdString(), notes);
    QVERIFY(feeder.open());
    feeder.feedTo(notes.size());
    feeder.finish();
    QTRY_VERIFY_WITH_TIMEOUT(rec.lastIs(LiveState::Failed), kGuardMs);
    QVERIFY2(w.bannerText().contains(QStringLiteral("%1 failed").arg(fifo)), qPrintable(w.bannerText()));
    QVERIFY2(w.bannerText().contains(QStringLiteral("hdrb")), qPrintable(w.bannerText()));
    QCOMPARE(w.eventList()->model()->rowCount(), 0);
}

// A source that cannot be followed — an address that is not one, a pipe in
// a folder that is not there — leaves the log on screen (and a live session
// going on) as it was, and says why.
void TestLiveWindow::aSourceThatCannotBeOpenedKeepsTheLog()
{
    QTemporaryDir dir;
    const QString missingFifo = dir.filePath(QStringLiteral("no-such-folder/ghc.fifo"));
    const struct {
        QString source;
        QString problem;
    } bad[] = {
        {QStringLiteral("tcp:nohost"), QStringLiteral("tcp: needs HOST:PORT")},
        {missingFifo, QStringLiteral("No such file or directory")},
    };
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QSignalSpy finished(&w, &MainWindow::loadFinished);
    QSignalSpy cleared(&w, &MainWindow::logCleared);
    w.openFile(logPath("leak-hT.eventlog"));
    QVERIFY(finished.wait(kGuardMs));
    const auto shown = w.index();
    QVERIFY(shown && shown->scan.events > 1000);
    const QString title = w.windowTitle();
    const int clearedBefore = int(cleared.count());
    for (const auto& b : bad) {
        const int loads = int(finished.count());
        w.openLive(b.source);
        QCOMPARE(int(finished.count()), loads + 1);
        QVERIFY2(w.bannerText().contains(QStringLiteral("Cannot follow %1: ").arg(b.source)), qPrintable(w.bannerText()));
        QVERIFY2(w.bannerText().contains(b.problem), qPrintable(w.bannerText()));
        QVERIFY2(w.bannerText().contains(QStringLiteral("Still showing leak-hT.eventlog")), qPrintable(w.bannerText()));
        QCOMPARE(w.index(), shown);
        QCOMPARE(w.timeline()->renderer().index(), shown.get());
        QCOMPARE(w.eventList()->model()->rowCount(), int(shown->scan.events));
        QCOMPARE(int(cleared.count()), clearedBefore);
        QCOMPARE(w.windowTitle(), title);
        QVERIFY(!w.liveJob());
        QVERIFY(w.liveControls()->toolBar()->isHidden());
    }
    QVERIFY(!QSettings().value(QStringLiteral("recentFiles")).toStringList().contains(missingFifo));

    // While following a pipe: the session goes on.
    const std::vector<uint8_t> bytes = readFile(logPath("spans-N2.eventlog"));
    const QString fifo = dir.filePath(QStringLiteral("ghc.fifo"));
    QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
    Recorder rec(w);
    w.openLive(fifo);
    LiveJob* job = w.liveJob();
    QVERIFY2(job, qPrintable(w.bannerText()));
    PipeFeeder feeder(fifo.toStdString(), bytes);
    QVERIFY(feeder.open());
    feeder.feedTo(bytes.size() / 2);
    QTRY_VERIFY_WITH_TIMEOUT(rec.lastHasBytes(bytes.size() / 2), kGuardMs);
    const auto live = w.index();
    w.openLive(QStringLiteral("tcp:nohost"));
    QVERIFY2(w.bannerText().contains(QStringLiteral("Cannot follow tcp:nohost")), qPrintable(w.bannerText()));
    QCOMPARE(w.liveJob(), job);
    QCOMPARE(w.index(), live);
    feeder.feedTo(bytes.size());
    feeder.finish();
    QTRY_VERIFY_WITH_TIMEOUT(rec.lastIs(LiveState::Ended), kGuardMs);
    compareIndexes(*w.index(), *indexOfBytes(bytes));
}

// --record: the file is the log as it arrived, byte for byte, and says so.
void TestLiveWindow::recordKeepsTheBytesAsReceived()
{
    const std::vector<uint8_t> bytes = readFile(logPath("leak-hT.eventlog"));
    QTemporaryDir dir;
    const QString fifo = dir.filePath(QStringLiteral("ghc.fifo"));
    QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
    const QString record = dir.filePath(QStringLiteral("recorded.eventlog"));
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    Recorder rec(w);
    w.openLive(fifo, record);
    QVERIFY2(w.liveJob(), qPrintable(w.bannerText()));
    QCOMPARE(w.liveJob()->recordPath(), record);
    PipeFeeder feeder(fifo.toStdString(), bytes, 1000, 100);
    QVERIFY(feeder.open());
    feeder.feedTo(bytes.size() / 3);
    QTRY_VERIFY_WITH_TIMEOUT(rec.lastHasBytes(bytes.size() / 3), kGuardMs);
    feeder.feedTo(bytes.size());
    feeder.finish();
    QTRY_VERIFY_WITH_TIMEOUT(rec.lastIs(LiveState::Ended), kGuardMs);
    QVERIFY2(rec.last().banner.contains(QStringLiteral("Recorded in %1.").arg(record)), qPrintable(rec.last().banner));
    QVERIFY(readFile(record) == bytes);
    compareIndexes(*w.index(), *indexOfBytes(bytes));
}


// Keep 0.01 min (0.6 s) of a 3 s log: the window ends showing about that
// stretch, says what was dropped (banner, statistics, status), and its
// panes are the kept index's.
void TestLiveWindow::keepingTheLatestMinutesSaysWhatWasDropped()
{
    const std::vector<uint8_t> bytes = longRunningLog(300, 10'000'000);
    QTemporaryDir dir;
    const QString fifo = dir.filePath(QStringLiteral("ghc.fifo"));
    QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    Recorder rec(w);
    w.liveControls()->setKeepMinutes(0.01);
    QCOMPARE(w.liveControls()->keepNs(), uint64_t(600'000'000));
    w.openLive(fifo);
    QVERIFY2(w.liveJob(), qPrintable(w.bannerText()));
    PipeFeeder feeder(fifo.toStdString(), bytes, 4096, 5000);
    QVERIFY(feeder.open());
    feeder.feedTo(bytes.size());
    feeder.finish();
    QTRY_VERIFY_WITH_TIMEOUT(rec.lastIs(LiveState::Ended), kGuardMs);
    const Shown& last = rec.last();
    const LogIndex& ix = *last.index;
    QVERIFY(ix.dropped.fromByte > 0);
    QCOMPARE(last.status.droppedEvents, ix.dropped.events);
    QCOMPARE(last.status.events, indexOfBytes(bytes)->scan.events);
    QVERIFY2(last.banner.contains(QStringLiteral("Showing the latest stretch")), qPrintable(last.banner));
    QCOMPARE(last.eventRows, int(ix.scan.events));
    QCOMPARE(last.timelineIndex, &ix);
    QTRY_VERIFY_WITH_TIMEOUT(rec.statsIndex == &ix, kGuardMs);
    QVERIFY2(rec.statsText.startsWith(QStringLiteral("Latest stretch, from")), qPrintable(rec.statsText.left(200)));
    // Dropped along the way, not just at the end.
    QVERIFY(std::any_of(rec.shown.begin(), rec.shown.end() - 1, [](const Shown& s) { return s.status.droppedEvents > 0; }));
}

// A name chosen in the Spans pane stays chosen, with its occurrences, as
// the log grows; the Threads table keeps its rows between updates.
void TestLiveWindow::panesKeepTheUsersChoicesAcrossUpdates()
{
    const std::vector<uint8_t> bytes = readFile(logPath("spans-N2.eventlog"));
    QTemporaryDir dir;
    const QString fifo = dir.filePath(QStringLiteral("ghc.fifo"));
    QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    Recorder rec(w);
    w.openLive(fifo);
    QVERIFY2(w.liveJob(), qPrintable(w.bannerText()));
    PipeFeeder feeder(fifo.toStdString(), bytes, 1000, 100);
    QVERIFY(feeder.open());
    SpansPane* spans = w.spansPane();
    QTableView* names = spans->namesTable();
    // A third of the log: some spans; choose the first name listed.
    feeder.feedTo(bytes.size() / 3);
    QTRY_VERIFY_WITH_TIMEOUT(rec.lastHasBytes(bytes.size() / 3), kGuardMs);
    QTRY_VERIFY_WITH_TIMEOUT(names->model()->rowCount() > 0, kGuardMs);
    names->selectionModel()->setCurrentIndex(names->model()->index(0, 0),
                                             QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    const std::optional<std::string> chosen = spans->chosenName();
    QVERIFY(chosen);
    QTRY_VERIFY_WITH_TIMEOUT(spans->occurrencesTable()->model()->rowCount() > 0, kGuardMs);
    QAbstractItemModel* threads = w.threadsPane()->findChild<QTableView*>()->model();
    QTRY_VERIFY_WITH_TIMEOUT(threads->rowCount() > 0, kGuardMs); // the figures land on a worker's result
    const int threadRows = threads->rowCount();
    // Two more steps: after each update the same name is chosen, its row
    // current, and the threads table was never emptied meanwhile.
    for (size_t step : {2, 3}) {
        QSignalSpy landed(spans, &SpansPane::figuresShown);
        feeder.feedTo(bytes.size() * step / 3);
        if (step == 3)
            feeder.finish();
        QTRY_VERIFY_WITH_TIMEOUT(rec.lastHasBytes(bytes.size() * step / 3), kGuardMs);
        QVERIFY(threads->rowCount() >= threadRows);
        QTRY_VERIFY_WITH_TIMEOUT(!landed.isEmpty(), kGuardMs);
        QCOMPARE(spans->chosenName(), chosen);
        const QModelIndex current = names->selectionModel()->currentIndex();
        QVERIFY(current.isValid());
        QCOMPARE(names->model()->index(current.row(), 0).data().toString(), QString::fromStdString(*chosen));
        QVERIFY(spans->occurrencesTable()->model()->rowCount() > 0);
    }
    QTRY_VERIFY_WITH_TIMEOUT(rec.lastIs(LiveState::Ended), kGuardMs);
}

// A .hp file that the program is still writing (File ▸ Open, the command
// line: it has a writer) is followed: each update draws the complete
// censuses, the status bar counts them and what is pending of the next;
// once the program has closed it, the banner says it finished writing.
void TestLiveWindow::aHeapProfileBeingWrittenIsFollowed()
{
    const std::string text = readText(logPath("leak-prof-hc.hp"));
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("leak.hp"));
    const int fd = ::open(path.toLocal8Bit().constData(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    QVERIFY(fd >= 0);
    // Five complete censuses and the sixth begun.
    size_t cut = 0;
    for (int k = 0; k < 5; ++k)
        cut = text.find('\n', text.find("END_SAMPLE", cut)) + 1;
    cut = text.find('\n', text.find("BEGIN_SAMPLE", cut)) + 4;
    QCOMPARE(::write(fd, text.data(), cut), ssize_t(cut));
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    Recorder rec(w);
    w.openFile(path);
    QVERIFY2(w.liveJob(), qPrintable(w.bannerText()));
    QVERIFY(w.bannerText().contains(QStringLiteral("Following %1 live").arg(path)));
    QTRY_VERIFY_WITH_TIMEOUT(rec.lastHasBytes(cut), kGuardMs);
    const Shown& s = rec.last();
    QCOMPARE(s.status.state, LiveState::Receiving);
    QVERIFY(s.index->hpFile);
    QCOMPARE(s.index->heapProfile.censuses.size(), size_t(5));
    QCOMPARE(s.timelineIndex, s.index.get());
    QCOMPARE(w.bandModel()->rowCount(), int(s.index->heapProfile.labels.size()));
    QVERIFY(w.bandModel()->rowCount() > 0);
    const QString status = w.liveControls()->statusText();
    QVERIFY2(status.contains(QStringLiteral("5 complete censuses")), qPrintable(status));
    QVERIFY2(status.contains(QStringLiteral("of a census")), qPrintable(status));

    QCOMPARE(::write(fd, text.data() + cut, text.size() - cut), ssize_t(text.size() - cut));
    ::close(fd);
    QTRY_VERIFY_WITH_TIMEOUT(rec.lastIs(LiveState::Ended), kGuardMs);
    const Shown& end = rec.last();
    QVERIFY2(end.banner.contains(QStringLiteral("%1 ended: the program finished writing its heap profile").arg(path)),
             qPrintable(end.banner));
    QVERIFY2(end.banner.contains(QStringLiteral("Showing the 15 complete censuses received.")), qPrintable(end.banner));
    QCOMPARE(w.index()->heapProfile.censuses.size(), size_t(15));
    QCOMPARE(w.index()->heapBands.totals, indexOfBytes(std::vector<uint8_t>(text.begin(), text.end()))->heapBands.totals);
    QCOMPARE(w.bandModel()->rowCount(), int(w.index()->heapProfile.labels.size()));
    QCOMPARE(end.timelineIndex, w.index().get());
}

QTEST_MAIN(TestLiveWindow)
#include "tst_livewindow.moc"
