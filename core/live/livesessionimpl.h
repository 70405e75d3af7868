#pragma once

// LiveSession's insides, shared by livesession.cpp (the session's thread:
// reading, connections, publishing) and livesessionstretch.cpp (keeping
// only the latest stretch, and reading the recording again).
#include "core/load/hpfilereader.h"
#include "core/load/indexbuilder.h"
#include "core/live/livesession.h"

#include <atomic>
#include <chrono>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace hecscope {
namespace livesessiondetail {

using Clock = std::chrono::steady_clock;
constexpr size_t kReadSize = 1 << 20; // bytes read at a time, from the source or the recording

} // namespace livesessiondetail

struct LiveSession::Impl {
    using Clock = livesessiondetail::Clock;

    LiveSession& s;
    std::function<void()> notify;
    int fd = -1; // the recording, written here
    std::thread thread;
    std::atomic<bool> stopRequested{false};
    std::atomic<bool> cancelled{false};
    std::atomic<bool> reconnectRequested{false};

    std::mutex mailboxMutex;
    std::optional<LiveUpdate> mailbox;

    // The session thread's own state. Its builders let the thread events
    // they have walked for good go (IndexBuilder::releaseSettledThreadEvents)
    // until one loses some: then the recording is read again, and every
    // builder after keeps them.
    bool keepThreadEvents = false;
    static std::unique_ptr<IndexBuilder> newBuilder(bool keepThreadEvents)
    {
        auto b = std::make_unique<IndexBuilder>();
        if (!keepThreadEvents)
            b->releaseSettledThreadEvents();
        return b;
    }
    std::unique_ptr<IndexBuilder> builder = newBuilder(false);
    std::unique_ptr<HpFileReader> hp; // the source is a .hp heap profile: read by this instead
    LiveStatus status;
    uint64_t written = 0;        // bytes in the recording
    uint32_t connectionSeen = 0; // the source's connection count last seen
    bool stripping = false;      // dropping a later connection's header
    std::vector<uint8_t> headerBytes;
    bool atStart = true;             // the first bytes of a connection (or of the stream)
    std::vector<uint8_t> startBytes; // held until the start is known
    uint32_t strayMarkers = 0;       // block markers skipped before a header
    bool dirty = false;          // something to publish
    LiveState publishedState = LiveState::Waiting;
    bool publishedOnce = false;
    Clock::time_point lastPublish{};
    Clock::duration publishCost{}; // of the last publish
    std::optional<Clock::time_point> oldestUnpublished;
    std::deque<std::pair<Clock::time_point, uint64_t>> rateSamples;

    // Keeping only the latest stretch: the index being built anew on a
    // thread of its own, and what the current index left out.
    std::atomic<uint64_t> keepNs{0};
    struct Rebuild {
        std::thread thread;
        std::atomic<bool> done{false};
        std::atomic<bool> cancel{false};
        std::unique_ptr<IndexBuilder> builder;
        std::vector<std::pair<uint64_t, uint32_t>> startup; // the start-up records before `from`
        uint64_t from = 0, before = 0, fedTo = 0;
        std::string error;
    };
    std::unique_ptr<Rebuild> rebuild;
    LogIndex::Dropped dropped;
    uint64_t headerSize = 0;

    void maybeRebuild(const LogIndex& index);
    bool readAgainKeepingThreadEvents();
    void finishRebuild();
    void cancelRebuild();

    explicit Impl(LiveSession& session, std::function<void()> n) : s(session), notify(std::move(n)) {}

    void run();
    // False once the session is over (status says why).
    bool take(const uint8_t* data, size_t n);
    bool takeConnectionBytes(const uint8_t* data, size_t n);
    bool append(const uint8_t* data, size_t n);
    bool beginConnection();
    bool checkHeader(const std::vector<uint8_t>& bytes, size_t size);
    void publish(bool final);
    void fail(std::string message)
    {
        status.state = LiveState::Failed;
        status.message = std::move(message);
    }
};

} // namespace hecscope
