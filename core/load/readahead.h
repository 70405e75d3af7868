#pragma once

#include "core/io/bytesource.h"

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

namespace hecscope {

// Reads a ByteSource from the start in fixed-size chunks on one reader
// thread, one chunk ahead of the consumer (double buffering): copying from
// the page cache costs about as much as indexing, so the two overlap.
// The consumer (one thread) calls next(); the destructor stops the reader
// and joins it, on every path (end, cancel, error, exception). The source
// is only read by the reader thread while a ReadAhead exists.
class ReadAhead {
public:
    ReadAhead(ByteSource& source, size_t chunkBytes);
    ~ReadAhead();
    ReadAhead(const ReadAhead&) = delete;
    ReadAhead& operator=(const ReadAhead&) = delete;

    // The next chunk in file order, valid until the next call; empty once
    // a read returned nothing (the end, or an I/O error: see source.error()).
    std::span<const uint8_t> next();

private:
    void run();

    ByteSource& m_source;
    std::mutex m_mutex;
    std::condition_variable m_changed;
    // Guarded by m_mutex: which slots hold a chunk not yet consumed, their
    // sizes, and whether the consumer has asked the reader to stop. A
    // slot's bytes belong to the reader while not full, to the consumer
    // while full.
    std::vector<uint8_t> m_slots[2];
    size_t m_size[2] = {0, 0};
    bool m_full[2] = {false, false};
    bool m_stop = false;
    // Consumer side only.
    int m_current = 0;
    bool m_holding = false; // the consumer holds m_slots[m_current]
    bool m_ended = false;
    std::thread m_reader; // last: started once everything above exists
};

} // namespace hecscope
