#include "core/load/readahead.h"

namespace hecscope {

ReadAhead::ReadAhead(ByteSource& source, size_t chunkBytes)
    : m_source(source)
{
    m_slots[0].resize(chunkBytes);
    m_slots[1].resize(chunkBytes);
    m_reader = std::thread([this] { run(); });
}

ReadAhead::~ReadAhead()
{
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_changed.notify_all();
    m_reader.join();
}

std::span<const uint8_t> ReadAhead::next()
{
    if (m_ended)
        return {};
    std::unique_lock lock(m_mutex);
    if (m_holding) { // hand the chunk just consumed back to the reader
        m_full[m_current] = false;
        m_current ^= 1;
        m_holding = false;
        m_changed.notify_all();
    }
    m_changed.wait(lock, [&] { return m_full[m_current]; });
    m_holding = true;
    const size_t got = m_size[m_current];
    if (got == 0)
        m_ended = true;
    return {m_slots[m_current].data(), got};
}

void ReadAhead::run()
{
    uint64_t offset = 0;
    int slot = 0;
    for (;;) {
        {
            std::unique_lock lock(m_mutex);
            m_changed.wait(lock, [&] { return m_stop || !m_full[slot]; });
            if (m_stop)
                return;
        }
        const size_t got = m_source.read(offset, m_slots[slot].data(), m_slots[slot].size());
        offset += got;
        {
            std::lock_guard lock(m_mutex);
            m_size[slot] = got;
            m_full[slot] = true;
        }
        m_changed.notify_all();
        if (got == 0)
            return;
        slot ^= 1;
    }
}

} // namespace hecscope
