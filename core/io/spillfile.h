#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace hecscope {

// A temporary file that a builder moves part of its memory to while a log
// loads and reads back before it finishes: created in $TMPDIR, else
// /var/tmp (on disk where /tmp is in memory), else /tmp, and unlinked at
// once, so that nothing is left behind whatever happens to the process.
// Grows at its end (append, or reserve and write later); reads at any
// offset already written. One builder's: not thread-safe, but for read(),
// which several threads may call at once while nothing is appended or
// mapped, and write(), which another thread may call while the owner
// reserves or maps (ThreadStatesBuilder::startWrites).
//
// Failure behaviour: a file that cannot be made or written says so
// (open(), append() or write() false, error() why) and the caller keeps
// its memory instead; a read that fails returns false.
class SpillFile {
public:
    SpillFile() = default;
    SpillFile(const SpillFile&) = delete;
    SpillFile& operator=(const SpillFile&) = delete;
    ~SpillFile();
    // Creates the file (once; true if it is open).
    bool open();
    bool isOpen() const { return m_fd >= 0; }
    // Writes `bytes` at the end; `offset` where they went. False on error
    // (a full disk): the file keeps what it had.
    bool append(const void* data, size_t bytes, uint64_t& offset);
    bool read(uint64_t offset, void* out, size_t bytes) const;
    // `bytes` at the end (from a multiple of `align`, a power of two) set
    // aside for write() to fill later, in any order: `offset` where (its
    // room on the disk taken now, 8 MB at a time, where the file system
    // can). What is not written yet must not be read or mapped.
    void reserve(size_t bytes, size_t align, uint64_t& offset);
    // Writes `bytes` at `offset`, within what was reserved or appended
    // (not checked: it reads nothing that reserve() changes) (a mapping of
    // them reads them at once). False on error.
    bool write(uint64_t offset, const void* data, size_t bytes);
    // `bytes` at `offset` (anywhere), mapped read-only: pages of the file,
    // not of the process's heap, which the system reads in when touched and
    // may drop again (they are on disk). They must be written (appended, or
    // reserved and written) before they are read: a page past the file's
    // end stops the process with SIGBUS. The mapping outlives this object.
    // Null on error. (Mapped 8 MB at a time, each window once, so that a
    // long log does not run into the system's limit on mappings: a window
    // reaches past what is written.)
    std::shared_ptr<const void> map(uint64_t offset, size_t bytes);
    static constexpr uint64_t kWindow = uint64_t(8) << 20;
    // The pages of a mapping that map() gave (`at`: anywhere within it;
    // every page the bytes touch) let go from the process: read again from
    // the file (or the system's cache of it) when next touched.
    static void releasePages(const void* at, size_t bytes);
    // The same for every page map() gave.
    void releaseAllPages();
    uint64_t size() const { return m_size; }
    const std::string& error() const { return m_error; }

private:
    bool writeAt(uint64_t offset, const void* data, size_t bytes);
    int m_fd = -1;
    uint64_t m_size = 0;
    uint64_t m_allocated = 0;  // (reserve: the file's room on the disk, fallocate)
    bool m_allocating = true; // (until fallocate fails)
    std::vector<std::shared_ptr<const void>> m_windows; // [w]: bytes [w * kWindow, (w + 1) * kWindow), once mapped
    std::string m_error;
};

} // namespace hecscope
