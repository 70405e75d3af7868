#include "livetestsupport.h"

#include "core/format/decoder.h"
#include "core/format/encoder.h"
#include "core/format/eventtags.h"
#include "core/format/headerparser.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <cstring>
#include <poll.h>
#include <random>
#include <thread>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace hecscope::test {

std::function<void()> UpdateCollector::notifier()
{
    return [this] {
        std::lock_guard lock(m_mutex);
        m_ready = true;
        m_cv.notify_all();
    };
}

std::optional<LiveUpdate> UpdateCollector::next(LiveSession& session, int guardMs)
{
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(guardMs);
    for (;;) {
        if (std::optional<LiveUpdate> u = session.takeUpdate())
            return u;
        std::unique_lock lock(m_mutex);
        if (!m_cv.wait_until(lock, deadline, [&] { return m_ready; }))
            return std::nullopt;
        m_ready = false;
    }
}

std::vector<LiveUpdate> UpdateCollector::untilFinal(LiveSession& session, int guardMs)
{
    std::vector<LiveUpdate> out;
    for (;;) {
        std::optional<LiveUpdate> u = next(session, guardMs);
        if (!u)
            return {};
        const bool final = isFinal(u->status.state);
        out.push_back(std::move(*u));
        if (final)
            return out;
    }
}

LiveClock SteppedClock::clock() const
{
    return [state = m_state] {
        ++state->reads;
        return std::chrono::steady_clock::now() + std::chrono::nanoseconds(state->offsetNs.load());
    };
}

bool SteppedClock::advance(std::chrono::milliseconds step, int guardMs)
{
    m_state->offsetNs += std::chrono::nanoseconds(step).count();
    const uint64_t before = m_state->reads; // (readings from here on see the step)
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(guardMs);
    while (m_state->reads < before + 2) {
        if (std::chrono::steady_clock::now() >= deadline)
            return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return true;
}

std::vector<uint8_t> longRunningLog(int slices, uint64_t slice)
{
    EventlogWriter w(EventlogWriter::allDeclarations());
    w.beginBlock(kNoCap, 0);
    w.write(OwnedEvent(tag::CapsetCreate, 0, {0, 2}).event);
    w.write(OwnedEvent(tag::RtsIdentifier, 0, {0}, {"GHC-9.0.2 rts_thr_l"}).event);
    w.write(OwnedEvent(tag::ProgramArgs, 0, {0}, {std::string_view("prog\0+RTS\0-l", 13)}).event);
    w.write(OwnedEvent(tag::OsProcessPid, 0, {0, 4242}).event);
    w.write(OwnedEvent(tag::CapCreate, 0, {0}).event);
    w.write(OwnedEvent(tag::CapCreate, 0, {1}).event);
    w.write(OwnedEvent(tag::CapsetAssignCap, 0, {0, 0}).event);
    w.write(OwnedEvent(tag::CapsetAssignCap, 0, {0, 1}).event);
    w.write(OwnedEvent(tag::ThreadLabel, 0, {1}, {"main"}).event);
    w.endBlock(0);
    for (int k = 0; k < slices; ++k) {
        for (uint16_t cap = 0; cap < 2; ++cap) {
            const uint64_t t0 = uint64_t(k) * slice + 1000;
            w.beginBlock(cap, t0);
            uint64_t t = t0 + cap * 7;
            for (int i = 0; i < 40; ++i, t += slice / 41) {
                const uint64_t thread = 1 + cap * 2 + uint64_t(i % 2);
                if (i == 0 && k == 0)
                    w.write(OwnedEvent(tag::CreateThread, t, {thread}).event);
                if (i == 20 && k == 5 && cap == 0) // a label given in mid-run
                    w.write(OwnedEvent(tag::ThreadLabel, t, {2}, {"worker"}).event);
                w.write(OwnedEvent(tag::RunThread, t, {thread}).event);
                if (i % 8 == 1) // an instant on the HEC row, by the running thread
                    w.write(OwnedEvent(tag::SparkCreate, t + slice / 164).event);
                w.write(OwnedEvent(tag::StopThread, t + slice / 82, {thread, i % 5 == 4 ? 7u : 3u, 0}).event);
            }
            if (k % 4 == 3) {
                w.write(OwnedEvent(tag::GcStart, t).event);
                w.write(OwnedEvent(tag::GcEnd, t + slice / 100).event);
            }
            w.endBlock(t + slice / 100);
        }
    }
    w.writeDataEnd();
    return w.takeBytes();
}

LogLayout layoutOf(const std::vector<uint8_t>& bytes)
{
    struct Sink final : EventSink {
        LogLayout* layout;
        void onEvent(const Event& e) override
        {
            if (e.tag == tag::BlockMarker)
                layout->blockStarts.push_back(size_t(e.offset));
            else
                layout->eventStarts.push_back(size_t(e.offset));
        }
    };
    LogLayout layout;
    layout.headerSize = parseHeader(bytes.data(), bytes.size()).consumed;
    Sink sink;
    sink.layout = &layout;
    StreamDecoder decoder(sink);
    decoder.feed(bytes);
    layout.dataEnd = decoder.sawDataEnd() ? size_t(decoder.decodedBytes() - 2) : bytes.size();
    return layout;
}

std::vector<uint8_t> splitBlocksAt(const std::vector<uint8_t>& log, const std::vector<size_t>& cuts,
                                   std::vector<size_t>* at)
{
    struct Block {
        size_t offset;
        uint32_t size; // from its marker's first byte
        uint64_t endTime;
        uint16_t cap;
    };
    struct Sink final : EventSink {
        std::vector<Block> blocks;
        std::vector<std::pair<size_t, uint64_t>> times; // every event's offset and time
        void onEvent(const Event& e) override
        {
            if (e.tag == tag::BlockMarker)
                blocks.push_back({size_t(e.offset), uint32_t(e.n[0]), e.n[1], uint16_t(e.n[2])});
            times.emplace_back(size_t(e.offset), e.time);
        }
    } sink;
    StreamDecoder decoder(sink);
    decoder.feed(log);
    auto put = [](uint8_t* dst, uint64_t v, int bytes) {
        for (int i = 0; i < bytes; ++i)
            dst[i] = uint8_t(v >> (8 * (bytes - 1 - i)));
    };
    constexpr size_t kMarker = 24; // tag, time, size, end time, cap
    std::vector<size_t> sorted = cuts;
    std::sort(sorted.begin(), sorted.end());
    // Each cut inside a block starts a new block there; the block before it
    // ends at the cut. Sizes count from the marker's first byte.
    std::map<size_t, uint32_t> newSize;                  // original marker -> its size now
    std::map<size_t, std::vector<uint8_t>> inserted;     // original offset -> marker inserted before it
    for (const Block& b : sink.blocks) {
        std::vector<size_t> inside;
        for (size_t c : sorted)
            if (c > b.offset && c < b.offset + b.size)
                inside.push_back(c);
        if (inside.empty())
            continue;
        newSize[b.offset] = uint32_t(inside.front() - b.offset);
        for (size_t i = 0; i < inside.size(); ++i) {
            const size_t end = i + 1 < inside.size() ? inside[i + 1] : b.offset + b.size;
            const uint64_t time = std::lower_bound(sink.times.begin(), sink.times.end(),
                                                   std::make_pair(inside[i], uint64_t(0)))->second;
            std::vector<uint8_t> marker(kMarker);
            put(&marker[0], tag::BlockMarker, 2);
            put(&marker[2], time, 8);
            put(&marker[10], end - inside[i] + kMarker, 4);
            put(&marker[14], b.endTime, 8);
            put(&marker[22], b.cap, 2);
            inserted[inside[i]] = std::move(marker);
        }
    }
    std::vector<uint8_t> out;
    out.reserve(log.size() + inserted.size() * kMarker);
    size_t from = 0;
    if (at)
        at->clear();
    for (const auto& [offset, marker] : inserted) {
        out.insert(out.end(), log.begin() + ptrdiff_t(from), log.begin() + ptrdiff_t(offset));
        if (at)
            at->push_back(out.size());
        out.insert(out.end(), marker.begin(), marker.end());
        from = offset;
    }
    out.insert(out.end(), log.begin() + ptrdiff_t(from), log.end());
    for (const auto& [offset, size] : newSize) {
        size_t shift = 0;
        for (const auto& entry : inserted)
            shift += entry.first <= offset ? kMarker : 0;
        put(&out[offset + shift + 10], size, 4);
    }
    return out;
}

ReplayServer::ReplayServer(std::string path, std::vector<uint8_t> log, std::vector<std::pair<size_t, size_t>> segments,
                           uint32_t seed, int pauseUs, int startDelayMs)
    : m_path(std::move(path))
    , m_log(std::move(log))
    , m_segments(std::move(segments))
    , m_seed(seed)
    , m_pauseUs(pauseUs)
    , m_startDelayMs(startDelayMs)
{
}

ReplayServer::~ReplayServer()
{
    m_stopping = true;
    m_released = true;
    join();
}

void ReplayServer::start()
{
    m_thread = std::thread([this] { run(); });
}

void ReplayServer::join()
{
    if (m_thread.joinable())
        m_thread.join();
}

std::string ReplayServer::received() const
{
    std::lock_guard lock(m_receivedMutex);
    return m_received;
}

void ReplayServer::replaceHeaderOf(size_t k, std::vector<uint8_t> header)
{
    m_headers.emplace_back(k, std::move(header));
}

void ReplayServer::run()
{
    std::this_thread::sleep_for(std::chrono::milliseconds(m_startDelayMs));
    const int listener = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un sa{};
    sa.sun_family = AF_UNIX;
    std::strncpy(sa.sun_path, m_path.c_str(), sizeof sa.sun_path - 1);
    ::unlink(m_path.c_str());
    if (listener < 0 || ::bind(listener, reinterpret_cast<sockaddr*>(&sa), sizeof sa) != 0 || ::listen(listener, 1) != 0)
        return;
    const size_t headerSize = parseHeader(m_log.data(), m_log.size()).consumed;
    std::mt19937 rng(m_seed);
    auto drain = [this](int fd) {
        char buf[256];
        ssize_t r;
        while ((r = ::recv(fd, buf, sizeof buf, MSG_DONTWAIT)) > 0) {
            std::lock_guard lock(m_receivedMutex);
            m_received.append(buf, size_t(r));
        }
    };
    for (size_t k = 0; k < m_segments.size(); ++k) {
        // A guard: nobody connected in 30 s, or the server is going away
        // (a test that failed before its client made every connection).
        int ready = 0;
        for (int waited = 0; ready == 0 && waited < 30000 && !m_stopping; waited += 50) {
            pollfd p{listener, POLLIN, 0};
            ready = ::poll(&p, 1, 50);
        }
        if (ready <= 0)
            break;
        const int client = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
        if (client < 0)
            break;
        std::vector<uint8_t> data(m_log.begin(), m_log.begin() + ptrdiff_t(headerSize));
        for (const auto& [which, header] : m_headers)
            if (which == k)
                data = header;
        data.insert(data.end(), m_log.begin() + ptrdiff_t(m_segments[k].first),
                    m_log.begin() + ptrdiff_t(m_segments[k].second));
        size_t pos = 0;
        while (pos < data.size()) {
            const size_t n = std::min<size_t>(data.size() - pos, 1 + rng() % 65536);
            const ssize_t w = ::send(client, data.data() + pos, n, MSG_NOSIGNAL);
            if (w <= 0)
                break;
            pos += size_t(w);
            drain(client);
            if (m_pauseUs > 0)
                std::this_thread::sleep_for(std::chrono::microseconds(m_pauseUs));
        }
        while (m_hold == int(k) && !m_released) {
            drain(client);
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
        drain(client);
        ::close(client);
        ++m_served;
    }
    ::close(listener);
    ::unlink(m_path.c_str());
}

} // namespace hecscope::test
