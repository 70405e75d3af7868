// `hecscope bench`'s figures of the window at work while a log arrives:
// progressive open (first_paint_ms) and a live session fed through a local
// socket at a set rate (live_latency_p95_ms, live_ingest_mb_s,
// live_ui_max_stall_ms).
#include "app/commands.h"
#include "app/stallmeter.h"

#include "core/format/headerparser.h"
#include "ui/jobs/livejob.h"
#include "ui/timeline/timelineview.h"
#include "ui/window/mainwindow.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEvent>
#include <QEventLoop>
#include <QTimer>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <malloc.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace hecscope::cli {
namespace {

using Clock = std::chrono::steady_clock;

// The process's peak RSS (VmHWM) set back to its RSS now.
bool resetPeakRss()
{
    const int fd = ::open("/proc/self/clear_refs", O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    const bool ok = ::write(fd, "5", 1) == 1;
    ::close(fd);
    return ok;
}

// A field of /proc/self/status (VmHWM: the peak RSS, VmRSS: now), in KiB
// (-1 if not there).
double statusKb(const char* field)
{
    std::FILE* f = std::fopen("/proc/self/status", "re");
    if (!f)
        return -1;
    char line[256];
    double kb = -1;
    const size_t n = std::strlen(field);
    while (std::fgets(line, sizeof line, f))
        if (std::strncmp(line, field, n) == 0 && line[n] == ':')
            kb = std::atof(line + n + 1);
    std::fclose(f);
    return kb;
}

// (-1 for none: no update arrived; the rank p * n, as the live figures were first written.)
double latencyPercentile(std::vector<double> v, double p)
{
    if (v.empty())
        return -1;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, size_t(p * double(v.size())))];
}

// Runs `f` after the next paint of `widget` whose condition holds: the
// time a user would see it.
class AfterPaint final : public QObject {
public:
    AfterPaint(QWidget* widget, std::function<bool()> condition, std::function<void()> after)
        : m_widget(widget), m_condition(std::move(condition)), m_after(std::move(after))
    {
        widget->installEventFilter(this);
    }
    bool eventFilter(QObject* watched, QEvent* e) override
    {
        if (watched != m_widget || e->type() != QEvent::Paint || m_busy || !m_condition())
            return false;
        m_busy = true;
        QCoreApplication::sendEvent(m_widget, e); // paint now, then say so
        m_busy = false;
        m_after();
        return true;
    }

private:
    QWidget* m_widget;
    std::function<bool()> m_condition;
    std::function<void()> m_after;
    bool m_busy = false;
};

// Sends the bytes of `source` to the first client of a Unix socket at
// `rate` bytes/s (0: as fast as it takes them), read and written 64 KiB at a
// time (no copy of the log in memory: the live figures' peak RSS is the
// session's and the window's).
class Feeder {
public:
    Feeder(std::string path, ByteSource& source, double rate)
        : m_path(std::move(path)), m_source(source), m_rate(rate)
    {
        m_listener = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_un sa{};
        sa.sun_family = AF_UNIX;
        std::strncpy(sa.sun_path, m_path.c_str(), sizeof sa.sun_path - 1);
        ::unlink(m_path.c_str());
        m_ok = m_listener >= 0 && ::bind(m_listener, reinterpret_cast<sockaddr*>(&sa), sizeof sa) == 0
            && ::listen(m_listener, 1) == 0;
        if (m_ok)
            m_thread = std::thread([this] { run(); });
    }
    ~Feeder()
    {
        m_stop = true;
        ::shutdown(m_listener, SHUT_RDWR);
        if (m_thread.joinable())
            m_thread.join();
        ::close(m_listener);
        ::unlink(m_path.c_str());
    }
    bool ok() const { return m_ok; }
    Clock::time_point started() const { return m_started; }
    std::atomic<bool> done{false};

private:
    void run()
    {
        const int client = ::accept4(m_listener, nullptr, nullptr, SOCK_CLOEXEC);
        if (client < 0)
            return;
        m_started = Clock::now();
        std::vector<uint8_t> buffer(65536);
        uint64_t pos = 0;
        while (!m_stop) {
            if (m_rate > 0) {
                const auto due = m_started + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(double(pos) / m_rate));
                std::this_thread::sleep_until(due);
            }
            const size_t n = m_source.read(pos, buffer.data(), buffer.size());
            if (n == 0)
                break;
            const ssize_t w = ::send(client, buffer.data(), n, MSG_NOSIGNAL);
            if (w <= 0)
                break;
            pos += uint64_t(w);
        }
        ::close(client);
        done = true;
    }
    std::string m_path;
    ByteSource& m_source;
    double m_rate;
    int m_listener = -1;
    bool m_ok = false;
    std::atomic<bool> m_stop{false};
    Clock::time_point m_started{};
    std::thread m_thread;
};

} // namespace

void benchProgressiveOpen(const std::string& path)
{
    MainWindow window;
    window.resize(1600, 1000);
    window.show();
    QEventLoop loop;
    QElapsedTimer clock;
    double firstPaint = -1, loaded = -1;
    AfterPaint painted(window.timeline(), [&] { return firstPaint < 0 && window.index() != nullptr; },
                       [&] { firstPaint = double(clock.nsecsElapsed()) / 1e6; });
    QObject::connect(&window, &MainWindow::loadFinished, &loop, [&] {
        loaded = double(clock.nsecsElapsed()) / 1e9;
        QTimer::singleShot(200, &loop, &QEventLoop::quit);
    });
    QTimer::singleShot(300000, &loop, &QEventLoop::quit);
    clock.start();
    window.openFile(QString::fromStdString(path));
    loop.exec();
    std::printf("first_paint_ms: %.1f\n", firstPaint);
    std::printf("window_load_s: %.3f\n", loaded);
    std::fflush(stdout);
}

void benchLive(const std::string& path)
{
    std::string error;
    const auto file = FileSource::open(path, error);
    if (!file)
        return;
    const char* rateText = std::getenv("HECSCOPE_BENCH_LIVE_RATE"); // MB/s
    const double rateMb = rateText ? std::atof(rateText) : 64.0;
    char dir[] = "/tmp/hecscope-bench-XXXXXX";
    if (!::mkdtemp(dir))
        return;
    // Removed after the feeder (declared below, destroyed first) has
    // unlinked its socket: a directory with the socket still in it stays.
    struct RemoveDir {
        const char* path;
        ~RemoveDir() { ::rmdir(path); }
    } removeDir{dir};
    const std::string sock = std::string(dir) + "/live.sock";
    // The peak RSS from here on (Linux: /proc/self/clear_refs 5 resets it),
    // with what the stages before freed given back first: the live stage's
    // own, not the bench's largest so far.
    ::malloc_trim(0);
    const bool peakReset = resetPeakRss();
    const double startKb = statusKb("VmRSS"); // (what the stages before left: a whole bench's)
    Feeder feeder(sock, *file, rateMb * 1e6);
    if (!feeder.ok())
        return;
    MainWindow window;
    window.resize(1600, 1000);
    window.show();
    QEventLoop loop;
    std::vector<double> latencies;
    bool finished = false;
    LiveStatus last;
    size_t lastIndexBytes = 0;
    double followingRatio = 0; // the most of any snapshot before the end (past 16 MB received)
    std::shared_ptr<const LogIndex> mostFollowing; // that snapshot
    Clock::time_point end{};
    double finalMs = -1; // from the stream's end to the final index on screen
    StallMeter stalls; // from the first update on
    stalls.setCounting(false);
    QTimer::singleShot(600000, &loop, &QEventLoop::quit);
    stalls.start();
    window.openLive(QString::fromStdString("unix:" + sock));
    // Connected after the window's own handler: when this runs, every pane
    // has the update; the repaint puts it into pixels.
    if (LiveJob* job = window.liveJob())
        QObject::connect(job, &LiveJob::updated, &loop, [&](std::shared_ptr<const LogIndex> index, const LiveStatus& status, qint64 at) {
            lastIndexBytes = index ? index->memoryBytes() : 0;
            if (!isFinal(status.state) && status.bytes > (uint64_t(16) << 20)
                && double(lastIndexBytes) / double(status.bytes) > followingRatio) {
                followingRatio = double(lastIndexBytes) / double(status.bytes);
                mostFollowing = index;
            }
            window.timeline()->repaint();
            const auto now = Clock::now();
            last = status;
            // (The last update is the final index, made after the stream
            // ended: live_final_ms, not a latency.)
            if (status.bytes > 0 && !status.last)
                latencies.push_back(double(std::chrono::duration_cast<std::chrono::nanoseconds>(now.time_since_epoch()).count() - at) / 1e6);
            stalls.setCounting(true);
            if (isFinal(status.state) && !finished) {
                finished = true;
                end = now;
            }
            // The figures below (peak RSS, the index) take in the final
            // index too: measured once it is on screen.
            if (status.last && finished && finalMs < 0) {
                finalMs = std::chrono::duration<double, std::milli>(now - end).count();
                QTimer::singleShot(100, &loop, &QEventLoop::quit);
            }
        });
    loop.exec();
    stalls.stop();
    const double seconds = finished ? std::chrono::duration<double>(end - feeder.started()).count() : 0;
    std::printf("live_feed_rate_mb_s: %.1f\n", rateMb);
    std::printf("live_updates: %zu\n", latencies.size());
    std::printf("live_latency_p95_ms: %.1f\n", latencyPercentile(latencies, 0.95));
    std::printf("live_latency_max_ms: %.1f\n", latencyPercentile(latencies, 1.0));
    std::printf("live_ingest_mb_s: %.1f\n", seconds > 0 ? double(last.bytes) / 1e6 / seconds : -1.0);
    std::printf("live_final_ms: %.1f\n", finalMs);
    std::printf("live_ui_max_stall_ms: %.1f\n", stalls.worstMs());
    // The last snapshot's index against the bytes received; and the whole
    // process (the window, its panes, the session and its builder).
    std::printf("live_index_mb: %.1f\n", double(lastIndexBytes) / (1 << 20));
    std::printf("live_index_bytes_per_byte: %.3f\n", last.bytes ? double(lastIndexBytes) / double(last.bytes) : 0.0);
    // While following, the snapshots keep every thread's segments (the
    // final seal leaves the long threads' in the recording).
    std::printf("live_index_following_bytes_per_byte: %.3f\n", followingRatio);
    if (mostFollowing) // (where that snapshot's bytes are)
        printIndexParts(*mostFollowing, "live_following_");
    // (-1 when the kernel could not reset the peak: the figure would be the
    // bench's.)
    std::printf("live_start_rss_mb: %.1f\n", startKb / 1024.0);
    std::printf("live_peak_rss_mb: %.1f\n", peakReset ? statusKb("VmHWM") / 1024.0 : -1.0);
    std::fflush(stdout);
}

} // namespace hecscope::cli
