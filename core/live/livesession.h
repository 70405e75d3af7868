#pragma once

#include "core/index/logindex.h"
#include "core/io/bytesource.h"
#include "core/live/livesource.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace hecscope {

struct LiveOptions {
    // Where the received bytes are kept (they open later as an eventlog).
    // Empty: an unlinked temporary file, gone when the session is.
    std::string recordPath;
    // Sockets: connect again by itself after a disconnect (with backoff).
    // Otherwise the session waits for reconnect().
    bool autoReconnect = false;
    // A new index is published at most this often while bytes arrive.
    int publishIntervalMs = 250;
    // Keep only about the latest this many ns of the log in the index (0:
    // all of it). Once the index spans half as much again, it is
    // built anew, on a thread of its own, from the block of the recording
    // where the stretch begins (and the start-up records before it); the
    // whole-run totals of what was left out are kept (LogIndex::dropped).
    // The recording keeps every byte.
    uint64_t keepNs = 0;
    // The session's thread (and the threads it starts) runs this many nice
    // steps below the thread that starts it (Linux: a thread's nice value is
    // its own), so that a busy program followed leaves the window its share
    // of the processor; the window's sessions use WorkerPool::kBackgroundNice,
    // as its jobs do. Raising it needs no privilege; should it fail, the
    // thread runs as before.
    int niceIncrement = 0;
};

enum class LiveState : uint8_t {
    Waiting,      // no bytes yet: no writer, no connection
    Receiving,    // following
    Disconnected, // a socket closed: reconnect() appends the next connection
    Ended,        // the writer finished (end-of-data marker, closed pipe, file no longer written)
    Failed,       // the source or the recording failed, or the bytes are not an eventlog
    Stopped,      // the user stopped following
};
const char* liveStateName(LiveState state);
inline bool isFinal(LiveState s) { return s == LiveState::Ended || s == LiveState::Failed || s == LiveState::Stopped; }

struct LiveStatus {
    LiveState state = LiveState::Waiting;
    std::string message;          // the source's last word ("waiting for a writer", why it ended)
    uint64_t bytes = 0;           // received and kept (headers of later connections stripped)
    uint64_t events = 0;          // decoded (the whole run, dropped ones included)
    uint64_t censuses = 0;        // heap-profile censuses in the index (complete ones)
    uint32_t capabilities = 0;    // that have had events
    uint64_t newestTime = 0;      // ns: the newest event of any capability
    uint64_t mergedTime = 0;      // ns: every capability's events are in up to here
    uint32_t laggingCap = 0;      // the capability whose newest event is mergedTime
    uint64_t pendingBytes = 0;    // an incomplete record, not yet decoded
    double bytesPerSecond = 0;    // over the last two seconds or so
    uint32_t connections = 0;     // sockets: connections made
    uint32_t disconnects = 0;     // sockets: connections lost (each seen, even between two updates)
    uint64_t sequence = 0;        // 1, 2, …: one per published update
    bool last = false;            // the session's last update: its final index (a final state comes before it)
    // Keeping only the latest stretch (LiveOptions::keepNs): events left
    // out of the index so far, and the time before which they were.
    uint64_t droppedEvents = 0;
    uint64_t droppedBefore = 0;
    // The source is GHC's textual heap profile (a `.hp` file, recognised by
    // its first line): `events` counts its complete censuses, pendingBytes
    // is a census (or line) not yet complete, and Ended means the program
    // has finished writing it.
    bool heapProfile = false;
};

// One published state: an index that stays valid while the session goes on
// (a snapshot), and the status at that moment.
struct LiveUpdate {
    std::shared_ptr<const LogIndex> index;
    LiveStatus status;
    // When the oldest bytes first shown by this update arrived (latency).
    std::chrono::steady_clock::time_point oldestNewBytesAt{};
};

// Follows a live eventlog on a thread of its own: reads the source, keeps
// every byte in the recording (the file the event list reads raw events
// from), decodes and indexes incrementally, and publishes a snapshot of the
// index at most every publishIntervalMs (and once more at the end). A
// socket's later connections re-send the header: it is checked against the
// first and stripped, and a record cut off by the disconnect is dropped, so
// that the recording is one eventlog and the timeline goes on.
//
// A source that begins as a `.hp` heap profile does (GHC writes one while
// the program runs, a census at a time) is read by an HpFileReader instead:
// each update holds the complete censuses so far, shaped as a whole `.hp`
// load is, and the end is the file's (no process writes it any more).
//
// Updates are a mailbox, not a queue: `notify` (on the session's thread)
// says a new one is there, takeUpdate() (any thread) takes the newest;
// one not taken is replaced, so a slow reader costs no memory.
class LiveSession {
public:
    LiveSession(std::unique_ptr<LiveSource> source, LiveOptions options, std::function<void()> notify);
    // Cancels: no update after this, no final index.
    ~LiveSession();
    LiveSession(const LiveSession&) = delete;
    LiveSession& operator=(const LiveSession&) = delete;

    // Opens the recording and starts the thread; false and `error` if the
    // recording cannot be created.
    bool start(std::string& error);
    // Stop following: the session ends with what was received (state
    // Stopped, a final index). Returns at once; the final update follows.
    void stop();
    // After a disconnect: connect again and append to the same timeline.
    void reconnect();
    bool sendControl(ControlCommand command, std::string& error);
    // LiveOptions::keepNs, from now on (any thread).
    void setKeep(uint64_t ns);
    // Waits for the thread to finish (after an end or stop()).
    void wait();

    std::optional<LiveUpdate> takeUpdate();
    // The recording: the bytes received so far, readable from any thread.
    std::shared_ptr<ByteSource> recording() const { return m_recording; }
    const std::string& recordPath() const { return m_options.recordPath; }
    // Copies the bytes received so far to `path`.
    bool saveReceived(const std::string& path, std::string& error) const;
    const SourceAddress& address() const { return m_source->address(); }
    bool isSocket() const { return m_source->address().isSocket(); }

private:
    struct Impl;
    std::unique_ptr<LiveSource> m_source;
    LiveOptions m_options;
    std::shared_ptr<ByteSource> m_recording;
    std::unique_ptr<Impl> m_impl;
};

} // namespace hecscope
