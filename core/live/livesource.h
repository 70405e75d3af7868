#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace hecscope {

// Where a live eventlog comes from, as the command line and File ▸ Connect
// write it: a path (a growing file or a named pipe), "-" (standard input),
// "unix:/path/to.sock" or "tcp:HOST:PORT".
struct SourceAddress {
    enum class Kind : uint8_t { File, Pipe, Stdin, Unix, Tcp };
    Kind kind = Kind::File;
    std::string path; // File, Pipe, Unix
    std::string host; // Tcp
    uint16_t port = 0;

    bool isSocket() const { return kind == Kind::Unix || kind == Kind::Tcp; }
    std::string text() const;
};
// A path is a File or a Pipe by what it is on disk (a missing path is a File).
std::optional<SourceAddress> parseSourceAddress(std::string_view text, std::string& error);

// ghc-eventlog-socket's control commands (sent on the same socket, no reply).
enum class ControlCommand : uint8_t {
    StartProfiling = 1,
    StopProfiling = 2,
    StartHeapProfiling = 3,
    StopHeapProfiling = 4,
    RequestHeapCensus = 5,
};
// The message: magic F0 9E 97 8C, version 00, the namespace's length and
// "eventlog-socket", then the command byte.
std::string controlMessage(ControlCommand command);
const char* controlCommandName(ControlCommand command);

// A stream of eventlog bytes as they arrive. read() waits at most
// `timeoutMs` for bytes and never longer; interrupt() (from any thread)
// makes a waiting read return at once. One reading thread.
class LiveSource {
public:
    enum class Status : uint8_t {
        Data,         // `bytes` arrived
        Waiting,      // nothing yet: no writer, no growth or no connection (message says which)
        Ended,        // the writer finished: a closed pipe, a file no longer written
        Disconnected, // a socket closed: reconnect() to go on
        Failed,       // cannot go on (message says why)
    };
    struct Result {
        Status status = Status::Waiting;
        size_t bytes = 0;
        std::string message;
    };

    virtual ~LiveSource();
    LiveSource(const LiveSource&) = delete;
    LiveSource& operator=(const LiveSource&) = delete;

    virtual Result read(uint8_t* dst, size_t n, int timeoutMs) = 0;
    void interrupt();
    const SourceAddress& address() const { return m_address; }

    // Lets go of the connection or pipe once the session is over, so that a
    // writer is not left blocked (reading thread).
    virtual void close() {}
    // Sockets: connections made so far (a new one re-sends the header).
    virtual uint32_t connections() const { return 0; }
    // Sockets: after Disconnected, try to connect again (with backoff).
    virtual void reconnect() {}
    // Sockets: sends a control command on the current connection; false
    // and `error` when there is none or it fails. Any thread.
    virtual bool sendControl(ControlCommand command, std::string& error);

protected:
    explicit LiveSource(SourceAddress address);
    // Waits up to `ms` for `fd` to be readable (fd < 0: just waits);
    // false when interrupted.
    bool waitReadable(int fd, int ms);

private:
    SourceAddress m_address;
    int m_wake[2] = {-1, -1}; // a byte written to [1] ends a wait
};

// The time a growing file's follower goes by to tell a pause in growth
// from the end (read on the reading thread). Empty: the steady clock; tests
// pass one they advance themselves instead of waiting out the pause.
using LiveClock = std::function<std::chrono::steady_clock::time_point()>;

// Opens the source: the file or pipe now, a socket on the first read.
// nullptr and `error` when a file or pipe cannot be opened.
std::unique_ptr<LiveSource> openLiveSource(const SourceAddress& address, std::string& error, LiveClock clock = {});

// Whether some process has `path` open for writing (Linux: /proc/*/fd).
// Unknown (no /proc) counts as no.
bool fileHasWriter(const std::string& path);

} // namespace hecscope
