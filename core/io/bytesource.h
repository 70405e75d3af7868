#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace hecscope {

// Random-access bytes: a file read with pread, or a buffer in memory.
// Reads never throw; a short read means the end of the data (or an I/O error,
// recorded in error()). Several threads may read at once.
class ByteSource {
public:
    virtual ~ByteSource() = default;
    // Copies up to `n` bytes at `offset` into `dst`; returns how many.
    virtual size_t read(uint64_t offset, uint8_t* dst, size_t n) = 0;
    // The first I/O error, or empty.
    virtual std::string error() const = 0;
};

class FileSource final : public ByteSource {
public:
    // nullptr and `error` set when the file cannot be opened.
    static std::unique_ptr<FileSource> open(const std::string& path, std::string& error);
    // Takes ownership of an open descriptor (a live session's spool file,
    // which may already be unlinked).
    static std::unique_ptr<FileSource> adopt(int fd) { return std::unique_ptr<FileSource>(new FileSource(fd)); }
    ~FileSource() override;
    size_t read(uint64_t offset, uint8_t* dst, size_t n) override;
    std::string error() const override;

private:
    explicit FileSource(int fd) : m_fd(fd) {}
    int m_fd;
    mutable std::mutex m_errorMutex;
    std::string m_error;
};

class MemorySource final : public ByteSource {
public:
    explicit MemorySource(std::vector<uint8_t> bytes) : m_bytes(std::move(bytes)) {}
    size_t read(uint64_t offset, uint8_t* dst, size_t n) override;
    std::string error() const override { return {}; }
    const std::vector<uint8_t>& bytes() const { return m_bytes; }

private:
    std::vector<uint8_t> m_bytes;
};

} // namespace hecscope
