#include "core/live/livesessionimpl.h"

#include "core/format/headerparser.h"
#include "core/load/hpfile.h"
#include "core/load/hpfilereader.h"
#include "core/load/indexbuilder.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fcntl.h>
#include <mutex>
#include <optional>
#include <sys/resource.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace hecscope {
namespace {

using livesessiondetail::Clock;
using livesessiondetail::kReadSize;
constexpr size_t kStrayMarker = 24; // a block marker: tag, time, size, end time, cap

} // namespace

const char* liveStateName(LiveState state)
{
    switch (state) {
    case LiveState::Waiting: return "waiting";
    case LiveState::Receiving: return "receiving";
    case LiveState::Disconnected: return "disconnected";
    case LiveState::Ended: return "ended";
    case LiveState::Failed: return "failed";
    case LiveState::Stopped: return "stopped";
    }
    return "?";
}


LiveSession::LiveSession(std::unique_ptr<LiveSource> source, LiveOptions options, std::function<void()> notify)
    : m_source(std::move(source))
    , m_options(std::move(options))
    , m_impl(std::make_unique<Impl>(*this, std::move(notify)))
{
}

LiveSession::~LiveSession()
{
    m_impl->cancelled = true;
    m_impl->stopRequested = true;
    m_source->interrupt();
    if (m_impl->thread.joinable())
        m_impl->thread.join();
    m_impl->cancelRebuild();
    if (m_impl->fd >= 0)
        ::close(m_impl->fd);
}

bool LiveSession::start(std::string& error)
{
    Impl& d = *m_impl;
    // Written through one descriptor, read (by the event list, from any
    // thread) through another opened read-only: once the session is over
    // and the first is closed, nothing has the file open for writing.
    std::string path = m_options.recordPath;
    const bool temporary = path.empty();
    int fd = -1;
    if (temporary) {
        const char* dir = std::getenv("TMPDIR");
        path = std::string(dir && *dir ? dir : "/tmp") + "/hecscope-live-XXXXXX";
        fd = ::mkostemp(path.data(), O_CLOEXEC);
        if (fd < 0)
            error = "cannot create a temporary file in " + path.substr(0, path.rfind('/')) + ": " + std::strerror(errno);
    } else {
        fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd < 0)
            error = "cannot record to " + path + ": " + std::strerror(errno);
    }
    if (fd < 0)
        return false;
    const int reader = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (temporary)
        ::unlink(path.c_str()); // kept by its descriptors only
    if (reader < 0) {
        error = "cannot read the recording " + path + ": " + std::strerror(errno);
        ::close(fd);
        return false;
    }
    d.fd = fd;
    d.keepNs = m_options.keepNs;
    m_recording = FileSource::adopt(reader);
    std::optional<int> nice;
    if (m_options.niceIncrement > 0) {
        errno = 0;
        const int starter = getpriority(PRIO_PROCESS, 0); // this thread's
        if (errno == 0)
            nice = std::min(19, starter + std::min(m_options.niceIncrement, 39));
    }
    d.thread = std::thread([&d, nice] {
        if (nice)
            setpriority(PRIO_PROCESS, id_t(gettid()), *nice);
        d.run();
    });
    return true;
}

void LiveSession::stop()
{
    m_impl->stopRequested = true;
    m_source->interrupt();
}

void LiveSession::reconnect()
{
    m_impl->reconnectRequested = true;
    m_source->interrupt();
}

bool LiveSession::sendControl(ControlCommand command, std::string& error)
{
    return m_source->sendControl(command, error);
}

void LiveSession::setKeep(uint64_t ns)
{
    m_impl->keepNs = ns;
}

void LiveSession::wait()
{
    if (m_impl->thread.joinable())
        m_impl->thread.join();
}

std::optional<LiveUpdate> LiveSession::takeUpdate()
{
    std::lock_guard lock(m_impl->mailboxMutex);
    std::optional<LiveUpdate> out = std::move(m_impl->mailbox);
    m_impl->mailbox.reset();
    return out;
}

bool LiveSession::saveReceived(const std::string& path, std::string& error) const
{
    if (!m_recording) {
        error = "nothing received yet";
        return false;
    }
    const int out = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (out < 0) {
        error = path + ": " + std::strerror(errno);
        return false;
    }
    std::vector<uint8_t> buf(kReadSize);
    uint64_t offset = 0;
    bool ok = true;
    for (;;) {
        const size_t n = m_recording->read(offset, buf.data(), buf.size());
        if (n == 0)
            break;
        size_t done = 0;
        while (done < n) {
            const ssize_t w = ::write(out, buf.data() + done, n - done);
            if (w < 0 && errno == EINTR)
                continue;
            if (w < 0) {
                error = path + ": " + std::strerror(errno);
                ok = false;
                break;
            }
            done += size_t(w);
        }
        if (!ok)
            break;
        offset += n;
    }
    if (::close(out) != 0 && ok) {
        error = path + ": " + std::strerror(errno);
        ok = false;
    }
    return ok;
}

void LiveSession::Impl::run()
{
    LiveSource& source = *s.m_source;
    std::vector<uint8_t> buf(kReadSize);
    lastPublish = Clock::now();
    bool over = false;
    while (!over && !stopRequested) {
        if (reconnectRequested.exchange(false) && status.state == LiveState::Disconnected) {
            source.reconnect();
            status.state = LiveState::Waiting;
            status.message = "reconnecting to " + source.address().text();
            dirty = true;
        }
        const LiveSource::Result r = source.read(buf.data(), buf.size(), 50);
        switch (r.status) {
        case LiveSource::Status::Data:
            if (!oldestUnpublished)
                oldestUnpublished = Clock::now();
            status.state = LiveState::Receiving;
            status.message.clear();
            over = !take(buf.data(), r.bytes);
            dirty = true;
            break;
        case LiveSource::Status::Waiting:
            // Before any bytes (or while reconnecting) what it waits for is
            // the news; while receiving, a pause is not.
            if (status.state != LiveState::Receiving) {
                if (status.message != r.message || !publishedOnce)
                    dirty = true;
                status.message = r.message;
            }
            break;
        case LiveSource::Status::Disconnected:
            if (status.state != LiveState::Disconnected) {
                status.state = LiveState::Disconnected;
                status.message = r.message;
                ++status.disconnects;
                dirty = true;
            }
            if (s.m_options.autoReconnect)
                reconnectRequested = true;
            break;
        case LiveSource::Status::Ended:
            status.state = LiveState::Ended;
            status.message = hp ? "the program finished writing its heap profile: " + r.message : r.message;
            over = true;
            break;
        case LiveSource::Status::Failed:
            fail(r.message);
            over = true;
            break;
        }
        if (cancelled)
            break;
        // A new state is said at once; new bytes at most every interval.
        const auto now = Clock::now();
        // Publishing costs time: mostly the new events' share of sealing,
        // which is due anyway, and a part that grows with the index (the
        // copy, the parts sealed anew). At most half the session's time
        // goes to it, so a big log is still taken in at full speed, with
        // fewer updates.
        if (rebuild && rebuild->done)
            finishRebuild();
        const bool stateChanged = status.state != publishedState;
        const auto interval = std::max<Clock::duration>(std::chrono::milliseconds(s.m_options.publishIntervalMs), 2 * publishCost);
        if (!over && dirty && (stateChanged || now - lastPublish >= interval))
            publish(false);
    }
    source.close();
    if (cancelled)
        return;
    // A stream too short to tell: what there is goes to the decoder, which
    // says what is wrong with it.
    if (atStart && !startBytes.empty()) {
        std::vector<uint8_t> bytes;
        bytes.swap(startBytes);
        atStart = false;
        takeConnectionBytes(bytes.data(), bytes.size());
    }
    if (!over) {
        status.state = LiveState::Stopped;
        status.message = "stopped following";
    }
    // The final index keeps to the stretch as well: a new one being built
    // is waited for, and one more is built if what came since needs it.
    for (int round = 0; round < 2 && !cancelled; ++round) {
        if (!rebuild && round == 1 && builder->headerRead())
            maybeRebuild(builder->index());
        if (!rebuild)
            continue;
        while (!rebuild->done && !cancelled)
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        if (!cancelled)
            finishRebuild();
    }
    if (cancelled) {
        cancelRebuild();
        return;
    }
    publish(true);
    // Done writing: the recording no longer looks like a file being written
    // (a reader that follows growing files would wait for it). It is still
    // read through its other descriptor.
    ::close(fd);
    fd = -1;
}

bool LiveSession::Impl::take(const uint8_t* data, size_t n)
{
    LiveSource& source = *s.m_source;
    if (source.connections() != connectionSeen) {
        connectionSeen = source.connections();
        status.connections = connectionSeen;
        if (!beginConnection())
            return false;
        atStart = true;
        startBytes.clear();
    }
    if (atStart) {
        // GHC 9.0's startEventLogging writes a block marker left in its
        // buffer (24 bytes) before the header: not part of the eventlog.
        startBytes.insert(startBytes.end(), data, data + n);
        const bool marker = startBytes.size() >= 2 && startBytes[0] == 0x00 && startBytes[1] == 0x12;
        if (marker && startBytes.size() < kStrayMarker + 4)
            return true;
        // "JOB " begins a .hp heap profile.
        if (startBytes.size() < 2 || (startBytes[0] == 'J' && startBytes.size() < 4))
            return true;
        atStart = false;
        if (written == 0 && looksLikeHeapProfile(startBytes)) {
            hp = std::make_unique<HpFileReader>();
            status.heapProfile = true;
        }
        const size_t skip = marker && std::memcmp(startBytes.data() + kStrayMarker, "hdrb", 4) == 0 ? kStrayMarker : 0;
        strayMarkers += skip ? 1 : 0;
        std::vector<uint8_t> bytes(startBytes.begin() + ptrdiff_t(skip), startBytes.end());
        startBytes.clear();
        return bytes.empty() || takeConnectionBytes(bytes.data(), bytes.size());
    }
    return takeConnectionBytes(data, n);
}

bool LiveSession::Impl::takeConnectionBytes(const uint8_t* data, size_t n)
{
    if (stripping) {
        headerBytes.insert(headerBytes.end(), data, data + n);
        const HeaderParse h = parseHeader(headerBytes.data(), headerBytes.size());
        if (h.status == HeaderParse::NeedMore)
            return true;
        if (h.status == HeaderParse::Failed) {
            fail("connection " + std::to_string(connectionSeen) + " did not begin with an eventlog header: "
                 + h.error.message() + " (byte offset " + std::to_string(h.error.offset) + " of that connection)");
            return false;
        }
        if (!checkHeader(headerBytes, h.consumed))
            return false;
        stripping = false;
        std::vector<uint8_t> rest(headerBytes.begin() + ptrdiff_t(h.consumed), headerBytes.end());
        headerBytes.clear();
        return rest.empty() || append(rest.data(), rest.size());
    }
    return append(data, n);
}

// A later connection of a socket: the program sends its header again and
// goes on from where its stream is now. What the previous connection cut
// off mid-record is dropped from the recording and the decoder.
bool LiveSession::Impl::beginConnection()
{
    if (connectionSeen <= 1 || written == 0)
        return true;
    if (hp) {
        fail("connection " + std::to_string(connectionSeen) + ": a heap profile cannot be continued from a new connection");
        return false;
    }
    if (!builder->headerRead()) {
        // Not even the first header arrived whole: start again.
        builder = newBuilder(keepThreadEvents);
        written = 0;
        if (::ftruncate(fd, 0) != 0) {
            fail(std::string("cannot rewrite the recording: ") + std::strerror(errno));
            return false;
        }
        return true;
    }
    // (A new index being built would have read bytes now dropped.)
    cancelRebuild();
    const uint64_t keep = builder->breakConnection();
    if (keep < written && ::ftruncate(fd, off_t(keep)) != 0) {
        fail(std::string("cannot rewrite the recording: ") + std::strerror(errno));
        return false;
    }
    written = keep;
    stripping = true;
    headerBytes.clear();
    return true;
}

// The new connection's header must declare what the first one did: the
// same program, whose events go on in the same timeline.
bool LiveSession::Impl::checkHeader(const std::vector<uint8_t>& bytes, size_t size)
{
    std::vector<uint8_t> first(size);
    const size_t got = s.m_recording->read(0, first.data(), size);
    if (got != size || !std::equal(first.begin(), first.end(), bytes.begin())) {
        fail("connection " + std::to_string(connectionSeen)
             + " sent a different eventlog header (another GHC or RTS): not appended; connect anew to view it");
        return false;
    }
    return true;
}

bool LiveSession::Impl::append(const uint8_t* data, size_t n)
{
    size_t done = 0;
    while (done < n) {
        const ssize_t w = ::pwrite(fd, data + done, n - done, off_t(written + done));
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0) {
            fail("cannot write the recording at byte offset " + std::to_string(written + done) + ": "
                 + std::strerror(errno));
            return false;
        }
        done += size_t(w);
    }
    written += n;
    if (hp) {
        hp->feed({reinterpret_cast<const char*>(data), n});
        if (hp->stopped()) {
            status.state = LiveState::Failed;
            status.message = "reading the heap profile stopped (see Diagnostics)";
            return false;
        }
        return true;
    }
    const bool more = builder->feed({data, n});
    if (!more) {
        // The end-of-data marker, or bytes that are not an eventlog.
        if (builder->failed()) {
            status.state = LiveState::Failed;
            status.message = "decoding stopped (see Diagnostics)";
        } else {
            status.state = LiveState::Ended;
            status.message = "the program ended its eventlog (end-of-data marker)";
        }
        return false;
    }
    return true;
}

void LiveSession::Impl::publish(bool final)
{
    const auto now = Clock::now();
    lastPublish = now;
    dirty = false;
    publishedOnce = true;
    std::shared_ptr<LogIndex> fresh;
    if (hp) {
        // Complete censuses only; the final one drops (and says) a census
        // the program left unfinished.
        fresh = final ? std::shared_ptr<LogIndex>(hp->finish()) : std::shared_ptr<LogIndex>(hp->snapshot());
    } else if (final) {
        builder->publish(true);
        if (builder->threadEventsLost() && readAgainKeepingThreadEvents())
            builder->publish(true);
        fresh = std::shared_ptr<LogIndex>(builder->take());
    } else {
        const LogIndex* index = &builder->publish(false);
        if (builder->threadEventsLost() && readAgainKeepingThreadEvents())
            index = &builder->publish(false);
        fresh = std::make_shared<LogIndex>(*index);
        maybeRebuild(*fresh);
    }
    fresh->dropped = dropped;
    std::shared_ptr<const LogIndex> index = std::move(fresh);
    status.bytes = written;
    status.events = index->scan.events + dropped.events;
    status.censuses = index->heapProfile.censuses.size();
    status.droppedEvents = dropped.events;
    status.droppedBefore = dropped.before;
    status.pendingBytes = final ? 0 : hp ? hp->pendingBytes() : builder ? builder->bytesPending() : 0;
    status.newestTime = index->lastTime;
    uint32_t caps = 0;
    uint64_t merged = UINT64_MAX;
    for (size_t c = 0; c < std::max<size_t>(index->caps.size(), index->capsNamed); ++c) {
        // A capability the RTS created or that threads went to, whose own
        // events have not come yet: nothing of it is in. (GHC writes each
        // capability's buffer only when it is full, and start-up events such
        // as "created cap 1" in a buffer of their own, often last.)
        const bool known = c < index->caps.size();
        const bool hasEvents = known && index->caps[c].events > 0;
        if (!hasEvents && c >= index->capsNamed && (!known || index->caps[c].created == kNoTime))
            continue;
        const uint64_t last = hasEvents ? index->caps[c].lastEvent : 0;
        caps += hasEvents ? 1 : 0;
        if (last < merged) {
            merged = last;
            status.laggingCap = uint32_t(c);
        }
    }
    status.capabilities = caps;
    status.mergedTime = final || caps == 0 ? index->lastTime : merged;
    rateSamples.emplace_back(now, written);
    while (rateSamples.size() > 2 && now - rateSamples[1].first >= std::chrono::seconds(2))
        rateSamples.pop_front();
    const double dt = std::chrono::duration<double>(now - rateSamples.front().first).count();
    status.bytesPerSecond = dt > 0 ? double(written - rateSamples.front().second) / dt : 0;
    ++status.sequence;
    status.last = final;
    publishedState = status.state;
    publishCost = Clock::now() - now;
    LiveUpdate update{std::move(index), status, oldestUnpublished.value_or(now)};
    oldestUnpublished.reset();
    {
        std::lock_guard lock(mailboxMutex);
        mailbox = std::move(update);
    }
    if (notify)
        notify();
}

} // namespace hecscope
