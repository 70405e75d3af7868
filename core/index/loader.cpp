#include "core/index/loader.h"

#include "core/heap/hpfile.h"
#include "core/heap/hpfilereader.h"
#include "core/index/indexbuilder.h"

#include <chrono>
#include <future>
#include <vector>

namespace hecscope {

LoadResult loadIndex(ByteSource& source, uint64_t totalBytes, LoadObserver* observer)
{
    using Clock = std::chrono::steady_clock;
    LoadResult result;
    IndexBuilder builder;
    const auto t0 = Clock::now();
    // The next chunk is read on another thread while this one is decoded:
    // copying from the page cache costs about as much as indexing.
    constexpr size_t kChunk = 1 << 20;
    std::vector<uint8_t> chunk(kChunk), next(kChunk);
    uint64_t pos = 0;
    auto readAt = [&source](uint64_t offset, std::vector<uint8_t>* into) {
        return source.read(offset, into->data(), into->size());
    };
    size_t got = readAt(0, &chunk);
    if (looksLikeHeapProfile({chunk.data(), got})) {
        // Streamed: no more than a chunk and a partial line of the text is
        // held at a time.
        HpFileReader hp;
        while (got > 0 && !(observer && observer->cancelled())) {
            hp.feed({reinterpret_cast<const char*>(chunk.data()), got});
            pos += got;
            got = readAt(pos, &chunk);
            if (observer)
                observer->progress(pos, totalBytes);
        }
        if (observer && observer->cancelled()) {
            result.cancelled = true;
            return result;
        }
        const auto t1 = Clock::now();
        result.index = hp.finish();
        result.index->scan.ioError = source.error();
        result.decodeSeconds = std::chrono::duration<double>(Clock::now() - t0).count();
        result.finishSeconds = std::chrono::duration<double>(Clock::now() - t1).count();
        return result;
    }
    while (got > 0) {
        std::future<size_t> ahead = std::async(std::launch::async, readAt, pos + got, &next);
        pos += got;
        // After DATA_END the decoder only counts what follows (reported as
        // trailing data), so read on to the end; after an error, stop.
        bool stop = !builder.feed({chunk.data(), got}) && builder.failed();
        if (observer && !stop) {
            observer->progress(pos, totalBytes);
            if (observer->cancelled()) {
                result.cancelled = true;
                stop = true;
            }
        }
        const size_t following = ahead.get();
        if (stop)
            break;
        std::swap(chunk, next);
        got = following;
    }
    const auto t1 = Clock::now();
    builder.publish(true);
    const auto t2 = Clock::now();
    result.index = builder.take();
    result.index->scan.ioError = source.error();
    result.decodeSeconds = std::chrono::duration<double>(t1 - t0).count();
    result.finishSeconds = std::chrono::duration<double>(t2 - t1).count();
    return result;
}

} // namespace hecscope
