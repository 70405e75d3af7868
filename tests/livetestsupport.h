#pragma once

#include "core/live/livesession.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

// What the live suites share: a collector of a session's updates, a clock
// for a growing file's follower that the test moves on, the structure of a real log (its header and block boundaries), and a replay
// server that serves a log on a Unix socket the way ghc-eventlog-socket
// does (the header again on every connection).
namespace hecscope::test {

// Takes a LiveSession's updates as they are published.
class UpdateCollector {
public:
    std::function<void()> notifier();
    // The next update, or none once `guardMs` passed (a guard against a hung
    // session, not a timing assertion).
    std::optional<LiveUpdate> next(LiveSession& session, int guardMs = 60000);
    // Every update until a final one (returned last); empty on the guard.
    std::vector<LiveUpdate> untilFinal(LiveSession& session, int guardMs = 60000);

private:
    std::mutex m_mutex;
    std::condition_variable m_cv;
    bool m_ready = false;
};

// A growing file's follower's clock (LiveClock) that the test moves on
// instead of waiting: the steady clock plus what was added. Any thread.
class SteppedClock {
public:
    LiveClock clock() const;
    // Adds `step` to the time and waits until the follower has read the
    // clock twice since, so that what it does at the first reading after
    // the step is done. False once `guardMs` passed (the follower stopped
    // reading: its source ended).
    bool advance(std::chrono::milliseconds step, int guardMs = 60000);

private:
    struct State {
        std::atomic<int64_t> offsetNs{0};
        std::atomic<uint64_t> reads{0};
    };
    std::shared_ptr<State> m_state = std::make_shared<State>();
};

// A program's log as GHC writes it while it runs, from the project's
// encoder: the start-up records (process, capabilities, a thread's label)
// in a block of their own, then the two capabilities' blocks taking turns,
// each covering the next `slice` ns with runs of two threads apiece, now
// and then a collection, and once a label given in mid-run.
std::vector<uint8_t> longRunningLog(int slices, uint64_t slice);

struct LogLayout {
    size_t headerSize = 0;
    std::vector<size_t> blockStarts; // offsets of every block marker
    std::vector<size_t> eventStarts; // offsets of every other event
    size_t dataEnd = 0;              // offset of the end-of-data marker
};
LogLayout layoutOf(const std::vector<uint8_t>& bytes);

// The same log with its blocks split at `cuts` (offsets of events): the
// block holding a cut ends there and a new block marker for the same
// capability carries on, as the RTS starts new blocks on a new connection.
// Every event is kept, in the same order.
// `at` receives where each cut is in the new log (its new block marker).
std::vector<uint8_t> splitBlocksAt(const std::vector<uint8_t>& log, const std::vector<size_t>& cuts,
                                   std::vector<size_t>* at = nullptr);

// Serves `log` on a Unix socket at `path`, one connection after another.
// Connection k (from 0) sends the header and then the bytes
// [segments[k].first, segments[k].second) in random-size chunks (1 byte to
// 64 KiB, seeded), pausing `pauseUs` after each, and closes. Everything the
// client sends is kept (control commands).
class ReplayServer {
public:
    ReplayServer(std::string path, std::vector<uint8_t> log, std::vector<std::pair<size_t, size_t>> segments,
                 uint32_t seed, int pauseUs = 100, int startDelayMs = 0);
    ~ReplayServer();
    void start();
    void join();
    int connectionsServed() const { return m_served; }
    std::string received() const;
    // A different header for connection `k` (another program).
    void replaceHeaderOf(size_t k, std::vector<uint8_t> header);
    // Keep connection k open (after its bytes) until `release()`.
    void holdOpen(size_t k) { m_hold = int(k); }
    void release() { m_released = true; }

private:
    void run();
    std::string m_path;
    std::vector<uint8_t> m_log;
    std::vector<std::pair<size_t, size_t>> m_segments;
    std::vector<std::pair<size_t, std::vector<uint8_t>>> m_headers;
    uint32_t m_seed;
    int m_pauseUs;
    int m_startDelayMs;
    std::thread m_thread;
    std::atomic<int> m_served{0};
    std::atomic<int> m_hold{-1};
    std::atomic<bool> m_released{false};
    std::atomic<bool> m_stopping{false}; // destroyed: no more connections waited for
    mutable std::mutex m_receivedMutex;
    std::string m_received;
};

} // namespace hecscope::test
