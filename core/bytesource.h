#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace hecscope {

// Random-access bytes: a file read with pread, or a buffer in memory.
// Reads never throw; a short read means the end of the data (or an I/O error,
// recorded in error()).
class ByteSource {
public:
    virtual ~ByteSource() = default;
    // Copies up to `n` bytes at `offset` into `dst`; returns how many.
    virtual size_t read(uint64_t offset, uint8_t* dst, size_t n) = 0;
    virtual const std::string& error() const = 0;
};

class FileSource final : public ByteSource {
public:
    // nullptr and `error` set when the file cannot be opened.
    static std::unique_ptr<FileSource> open(const std::string& path, std::string& error);
    ~FileSource() override;
    size_t read(uint64_t offset, uint8_t* dst, size_t n) override;
    const std::string& error() const override { return m_error; }

private:
    explicit FileSource(int fd) : m_fd(fd) {}
    int m_fd;
    std::string m_error;
};

class MemorySource final : public ByteSource {
public:
    explicit MemorySource(std::vector<uint8_t> bytes) : m_bytes(std::move(bytes)) {}
    size_t read(uint64_t offset, uint8_t* dst, size_t n) override;
    const std::string& error() const override { return m_error; }
    const std::vector<uint8_t>& bytes() const { return m_bytes; }

private:
    std::vector<uint8_t> m_bytes;
    std::string m_error;
};

} // namespace hecscope
