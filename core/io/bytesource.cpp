#include "core/io/bytesource.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace hecscope {

std::unique_ptr<FileSource> FileSource::open(const std::string& path, std::string& error)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        error = path + ": " + std::strerror(errno);
        return nullptr;
    }
    struct stat st {};
    if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        ::close(fd);
        error = path + ": is a directory";
        return nullptr;
    }
#ifdef POSIX_FADV_SEQUENTIAL
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
    return std::unique_ptr<FileSource>(new FileSource(fd));
}

FileSource::~FileSource()
{
    ::close(m_fd);
}

size_t FileSource::read(uint64_t offset, uint8_t* dst, size_t n)
{
    size_t done = 0;
    while (done < n) {
        const ssize_t r = ::pread(m_fd, dst + done, n - done, off_t(offset + done));
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            const int code = errno;
            std::lock_guard lock(m_errorMutex);
            if (m_error.empty())
                m_error = "at byte offset " + std::to_string(offset + done) + ": " + std::strerror(code);
            break;
        }
        if (r == 0)
            break;
        done += size_t(r);
    }
    return done;
}

std::string FileSource::error() const
{
    std::lock_guard lock(m_errorMutex);
    return m_error;
}

size_t MemorySource::read(uint64_t offset, uint8_t* dst, size_t n)
{
    if (offset >= m_bytes.size())
        return 0;
    const size_t count = std::min<uint64_t>(n, m_bytes.size() - offset);
    std::memcpy(dst, m_bytes.data() + offset, count);
    return count;
}

} // namespace hecscope
