#include "core/live/livesource.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <mutex>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

namespace hecscope {
namespace {

using Clock = std::chrono::steady_clock;

std::string errnoText(int code)
{
    return std::strerror(code);
}

int msUntil(Clock::time_point t)
{
    return int(std::max<int64_t>(
        0, std::chrono::duration_cast<std::chrono::milliseconds>(t - Clock::now()).count()));
}

// A file that may still be growing, read like `tail -f`. It ends when it
// has not grown for a second and no process has it open for writing; a
// file that shrinks or is replaced under its name is said, not read on.
class FileFollower final : public LiveSource {
public:
    FileFollower(SourceAddress address, int fd, const struct stat& st, LiveClock clock)
        : LiveSource(std::move(address))
        , m_clock(clock ? std::move(clock) : LiveClock(&Clock::now))
        , m_fd(fd)
        , m_dev(st.st_dev)
        , m_ino(st.st_ino)
        , m_lastGrowth(m_clock())
    {
    }
    ~FileFollower() override { ::close(m_fd); }

    Result read(uint8_t* dst, size_t n, int timeoutMs) override
    {
        const ssize_t r = ::pread(m_fd, dst, n, off_t(m_pos));
        if (r > 0) {
            m_pos += uint64_t(r);
            m_lastGrowth = m_clock();
            return {Status::Data, size_t(r), {}};
        }
        if (r < 0 && errno != EINTR)
            return {Status::Failed, 0, "cannot read at byte offset " + std::to_string(m_pos) + ": " + errnoText(errno)};
        struct stat st {};
        if (::fstat(m_fd, &st) == 0 && uint64_t(st.st_size) < m_pos)
            return {Status::Failed, 0,
                    "the file shrank from " + std::to_string(m_pos) + " to " + std::to_string(st.st_size)
                        + " bytes while being read (truncated or rewritten): stopped following at byte offset "
                        + std::to_string(m_pos)};
        struct stat now {};
        if (::stat(address().path.c_str(), &now) != 0)
            return {Status::Failed, 0, "the file was removed while being read: stopped following at byte offset " + std::to_string(m_pos)};
        if (now.st_dev != m_dev || now.st_ino != m_ino)
            return {Status::Failed, 0, "the file was replaced by another of the same name: stopped following at byte offset " + std::to_string(m_pos)};
        const auto t = m_clock();
        if (t - m_lastGrowth >= std::chrono::seconds(1) && t - m_lastWriterCheck >= std::chrono::seconds(1)) {
            m_lastWriterCheck = t;
            if (!fileHasWriter(address().path))
                return {Status::Ended, 0, "the file stopped growing and no process has it open for writing"};
        }
        waitReadable(-1, std::min(timeoutMs, 20));
        return {Status::Waiting, 0, "waiting for the file to grow"};
    }

private:
    LiveClock m_clock;
    int m_fd;
    dev_t m_dev;
    ino_t m_ino;
    uint64_t m_pos = 0;
    Clock::time_point m_lastGrowth;
    Clock::time_point m_lastWriterCheck{};
};

// A named pipe or standard input: ends when the writer closes it. A pipe
// with no writer yet is waited for (GHC opens it for writing at start-up).
class PipeSource final : public LiveSource {
public:
    PipeSource(SourceAddress address, int fd) : LiveSource(std::move(address)), m_fd(fd) {}
    ~PipeSource() override { close(); }
    void close() override
    {
        if (m_fd >= 0)
            ::close(m_fd);
        m_fd = -1;
    }

    Result read(uint8_t* dst, size_t n, int timeoutMs) override
    {
        if (m_fd < 0)
            return {Status::Ended, 0, "closed"};
        if (!waitReadable(m_fd, timeoutMs))
            return {Status::Waiting, 0, waitingText()};
        const ssize_t r = ::read(m_fd, dst, n);
        if (r > 0) {
            m_seenData = true;
            return {Status::Data, size_t(r), {}};
        }
        if (r < 0 && (errno == EAGAIN || errno == EINTR))
            return {Status::Waiting, 0, waitingText()};
        if (r < 0)
            return {Status::Failed, 0, "cannot read: " + errnoText(errno)};
        if (!m_seenData && address().kind == SourceAddress::Kind::Pipe) {
            // No writer has opened the pipe yet: a read returns 0 at once.
            waitReadable(-1, std::min(timeoutMs, 20));
            return {Status::Waiting, 0, waitingText()};
        }
        return {Status::Ended, 0, address().kind == SourceAddress::Kind::Stdin ? "standard input ended" : "the writer closed the pipe"};
    }

private:
    std::string waitingText() const
    {
        return m_seenData ? "waiting for data" : "waiting for a writer";
    }
    int m_fd;
    bool m_seenData = false;
};

// A client of ghc-eventlog-socket: connects (retrying with backoff while
// nobody listens), reads the stream, and sends control commands on the same
// connection.
class SocketSource final : public LiveSource {
public:
    explicit SocketSource(SourceAddress address) : LiveSource(std::move(address)) {}
    ~SocketSource() override { closeFd(); }

    uint32_t connections() const override { return m_connections; }
    void close() override
    {
        closeFd();
        m_wantConnect = false;
    }
    void reconnect() override
    {
        m_wantConnect = true;
        m_backoffMs = 100;
        m_attempts = 0;
        m_nextAttempt = Clock::now();
    }

    bool sendControl(ControlCommand command, std::string& error) override
    {
        std::lock_guard lock(m_fdMutex);
        if (m_fd < 0) {
            error = "not connected";
            return false;
        }
        const std::string message = controlMessage(command);
        size_t done = 0;
        while (done < message.size()) {
            const ssize_t w = ::send(m_fd, message.data() + done, message.size() - done, MSG_NOSIGNAL);
            if (w < 0 && errno == EINTR)
                continue;
            if (w < 0) {
                error = errnoText(errno);
                return false;
            }
            done += size_t(w);
        }
        return true;
    }

    Result read(uint8_t* dst, size_t n, int timeoutMs) override
    {
        if (m_fd < 0) {
            if (!m_wantConnect) {
                waitReadable(-1, timeoutMs);
                return {Status::Disconnected, 0, m_lastError};
            }
            if (Clock::now() < m_nextAttempt) {
                waitReadable(-1, std::min(timeoutMs, msUntil(m_nextAttempt)));
                return {Status::Waiting, 0, m_lastError};
            }
            std::string error;
            const int fd = connectNow(error);
            if (fd < 0) {
                ++m_attempts;
                m_lastError = "waiting for " + address().text() + ": " + error + " (attempt "
                    + std::to_string(m_attempts) + ", next in " + std::to_string(m_backoffMs) + " ms)";
                m_nextAttempt = Clock::now() + std::chrono::milliseconds(m_backoffMs);
                m_backoffMs = std::min(2000, m_backoffMs * 2);
                return {Status::Waiting, 0, m_lastError};
            }
            {
                std::lock_guard lock(m_fdMutex);
                m_fd = fd;
            }
            ++m_connections;
            m_backoffMs = 100;
            m_attempts = 0;
        }
        if (!waitReadable(m_fd, timeoutMs))
            return {Status::Waiting, 0, "connected, waiting for data"};
        const ssize_t r = ::recv(m_fd, dst, n, 0);
        if (r > 0)
            return {Status::Data, size_t(r), {}};
        if (r < 0 && (errno == EAGAIN || errno == EINTR))
            return {Status::Waiting, 0, "connected, waiting for data"};
        m_lastError = r == 0 ? address().text() + " closed the connection"
                             : address().text() + ": " + errnoText(errno);
        closeFd();
        m_wantConnect = false;
        return {Status::Disconnected, 0, m_lastError};
    }

private:
    void closeFd()
    {
        std::lock_guard lock(m_fdMutex);
        if (m_fd >= 0)
            ::close(m_fd);
        m_fd = -1;
    }

    int connectNow(std::string& error)
    {
        const SourceAddress& a = address();
        if (a.kind == SourceAddress::Kind::Unix) {
            sockaddr_un sa{};
            sa.sun_family = AF_UNIX;
            if (a.path.size() >= sizeof(sa.sun_path)) {
                error = "the socket path is too long";
                return -1;
            }
            std::memcpy(sa.sun_path, a.path.c_str(), a.path.size() + 1);
            const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
            if (fd < 0 || ::connect(fd, reinterpret_cast<sockaddr*>(&sa), sizeof sa) != 0) {
                error = errnoText(errno);
                if (fd >= 0)
                    ::close(fd);
                return -1;
            }
            return fd;
        }
        addrinfo hints{};
        hints.ai_family = AF_UNSPEC;
        hints.ai_socktype = SOCK_STREAM;
        addrinfo* found = nullptr;
        const std::string port = std::to_string(a.port);
        if (const int rc = ::getaddrinfo(a.host.c_str(), port.c_str(), &hints, &found); rc != 0) {
            error = ::gai_strerror(rc);
            return -1;
        }
        int fd = -1;
        error = "no address";
        for (addrinfo* ai = found; ai; ai = ai->ai_next) {
            fd = ::socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
            if (fd >= 0 && ::connect(fd, ai->ai_addr, ai->ai_addrlen) == 0)
                break;
            error = errnoText(errno);
            if (fd >= 0)
                ::close(fd);
            fd = -1;
        }
        ::freeaddrinfo(found);
        return fd;
    }

    std::mutex m_fdMutex; // m_fd against sendControl from other threads
    int m_fd = -1;
    bool m_wantConnect = true;
    int m_backoffMs = 100;
    uint32_t m_attempts = 0;
    uint32_t m_connections = 0;
    Clock::time_point m_nextAttempt = Clock::now();
    std::string m_lastError = "connecting";
};

} // namespace

std::string SourceAddress::text() const
{
    switch (kind) {
    case Kind::Stdin: return "-";
    case Kind::Unix: return "unix:" + path;
    case Kind::Tcp: return "tcp:" + (host.find(':') != std::string::npos ? "[" + host + "]" : host) + ":" + std::to_string(port);
    case Kind::File:
    case Kind::Pipe: break;
    }
    return path;
}

std::optional<SourceAddress> parseSourceAddress(std::string_view text, std::string& error)
{
    SourceAddress a;
    if (text == "-") {
        a.kind = SourceAddress::Kind::Stdin;
        return a;
    }
    if (text.starts_with("unix:")) {
        a.kind = SourceAddress::Kind::Unix;
        a.path = std::string(text.substr(5));
        if (a.path.empty()) {
            error = "unix: needs a socket path, as in unix:/tmp/app.sock";
            return std::nullopt;
        }
        return a;
    }
    if (text.starts_with("tcp:")) {
        std::string_view rest = text.substr(4);
        std::string_view host, port;
        if (rest.starts_with("[")) {
            const size_t close = rest.find(']');
            if (close == std::string_view::npos || close + 1 >= rest.size() || rest[close + 1] != ':') {
                error = "tcp: needs HOST:PORT, as in tcp:[::1]:4242";
                return std::nullopt;
            }
            host = rest.substr(1, close - 1);
            port = rest.substr(close + 2);
        } else {
            const size_t colon = rest.rfind(':');
            if (colon == std::string_view::npos) {
                error = "tcp: needs HOST:PORT, as in tcp:localhost:4242";
                return std::nullopt;
            }
            host = rest.substr(0, colon);
            port = rest.substr(colon + 1);
        }
        unsigned value = 0;
        const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
        if (host.empty() || ec != std::errc() || end != port.data() + port.size() || value == 0 || value > 65535) {
            error = "tcp: needs a host and a port from 1 to 65535, as in tcp:localhost:4242 (got \"" + std::string(text) + "\")";
            return std::nullopt;
        }
        a.kind = SourceAddress::Kind::Tcp;
        a.host = std::string(host);
        a.port = uint16_t(value);
        return a;
    }
    if (text.empty()) {
        error = "no source given";
        return std::nullopt;
    }
    a.path = std::string(text);
    struct stat st {};
    a.kind = ::stat(a.path.c_str(), &st) == 0 && S_ISFIFO(st.st_mode) ? SourceAddress::Kind::Pipe
                                                                      : SourceAddress::Kind::File;
    return a;
}

std::string controlMessage(ControlCommand command)
{
    static constexpr char kNamespace[] = "eventlog-socket";
    std::string m = {char(0xF0), char(0x9E), char(0x97), char(0x8C), char(0x00),
                     char(sizeof kNamespace - 1)};
    m += kNamespace;
    m += char(command);
    return m;
}

const char* controlCommandName(ControlCommand command)
{
    switch (command) {
    case ControlCommand::StartProfiling: return "start profiling";
    case ControlCommand::StopProfiling: return "stop profiling";
    case ControlCommand::StartHeapProfiling: return "start heap profiling";
    case ControlCommand::StopHeapProfiling: return "stop heap profiling";
    case ControlCommand::RequestHeapCensus: return "request a heap census";
    }
    return "?";
}

LiveSource::LiveSource(SourceAddress address)
    : m_address(std::move(address))
{
    if (::pipe2(m_wake, O_CLOEXEC | O_NONBLOCK) != 0)
        m_wake[0] = m_wake[1] = -1;
}

LiveSource::~LiveSource()
{
    for (int fd : m_wake)
        if (fd >= 0)
            ::close(fd);
}

void LiveSource::interrupt()
{
    if (m_wake[1] >= 0) {
        const char byte = 1;
        [[maybe_unused]] const ssize_t w = ::write(m_wake[1], &byte, 1);
    }
}

bool LiveSource::sendControl(ControlCommand, std::string& error)
{
    error = "only an eventlog socket takes control commands";
    return false;
}

bool LiveSource::waitReadable(int fd, int ms)
{
    pollfd fds[2] = {{m_wake[0], POLLIN, 0}, {fd, POLLIN, 0}};
    const int count = fd >= 0 ? 2 : 1;
    int r;
    do {
        r = ::poll(fds, nfds_t(count), std::max(0, ms));
    } while (r < 0 && errno == EINTR);
    if (r <= 0)
        return false;
    if (fds[0].revents) {
        char buf[64];
        while (::read(m_wake[0], buf, sizeof buf) > 0) {
        }
        return false;
    }
    return count == 2 && fds[1].revents != 0;
}

std::unique_ptr<LiveSource> openLiveSource(const SourceAddress& address, std::string& error, LiveClock clock)
{
    switch (address.kind) {
    case SourceAddress::Kind::Unix:
    case SourceAddress::Kind::Tcp:
        return std::make_unique<SocketSource>(address);
    case SourceAddress::Kind::Stdin: {
        const int fd = ::fcntl(0, F_DUPFD_CLOEXEC, 3);
        if (fd < 0) {
            error = "standard input: " + errnoText(errno);
            return nullptr;
        }
        return std::make_unique<PipeSource>(address, fd);
    }
    case SourceAddress::Kind::Pipe: {
        const int fd = ::open(address.path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
        if (fd < 0) {
            error = address.path + ": " + errnoText(errno);
            return nullptr;
        }
        return std::make_unique<PipeSource>(address, fd);
    }
    case SourceAddress::Kind::File: break;
    }
    const int fd = ::open(address.path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        error = address.path + ": " + errnoText(errno);
        return nullptr;
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
        error = address.path + ": is a directory";
        ::close(fd);
        return nullptr;
    }
    return std::make_unique<FileFollower>(address, fd, st, std::move(clock));
}

bool fileHasWriter(const std::string& path)
{
    struct stat target {};
    if (::stat(path.c_str(), &target) != 0)
        return false;
    DIR* proc = ::opendir("/proc");
    if (!proc)
        return false;
    bool found = false;
    while (const dirent* p = ::readdir(proc)) {
        if (found)
            break;
        if (p->d_name[0] < '0' || p->d_name[0] > '9')
            continue;
        const std::string pid = std::string("/proc/") + p->d_name;
        DIR* fds = ::opendir((pid + "/fd").c_str());
        if (!fds)
            continue;
        while (const dirent* f = ::readdir(fds)) {
            if (f->d_name[0] == '.')
                continue;
            struct stat st {};
            if (::stat((pid + "/fd/" + f->d_name).c_str(), &st) != 0 || st.st_dev != target.st_dev
                || st.st_ino != target.st_ino)
                continue;
            // fdinfo's "flags:" is the open mode in octal.
            std::ifstream info(pid + "/fdinfo/" + f->d_name);
            std::string key;
            std::string value;
            while (info >> key >> value) {
                if (key != "flags:")
                    continue;
                unsigned flags = 0;
                std::from_chars(value.data(), value.data() + value.size(), flags, 8);
                if ((flags & O_ACCMODE) != O_RDONLY)
                    found = true;
                break;
            }
            if (found)
                break;
        }
        ::closedir(fds);
    }
    ::closedir(proc);
    return found;
}

} // namespace hecscope
