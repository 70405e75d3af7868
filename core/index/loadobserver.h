#pragma once

#include <cstdint>
#include <memory>

namespace hecscope {

struct LogIndex;

// Progress and cancellation for long loads. Both may be called from the
// loading thread; implementations must be thread-safe. cancelled() is
// asked between chunks and, at a coarse granularity, during the finish
// stage (sealing, collections, heap bands), so it must be cheap.
class LoadObserver {
public:
    virtual ~LoadObserver() = default;
    virtual void progress(uint64_t bytesRead, uint64_t bytesTotal) { (void)bytesRead, (void)bytesTotal; }
    virtual bool cancelled() const { return false; }
    // Called once, as soon as the input is known to be a log the loader
    // reads (an eventlog whose header decoded, or a .hp file): until then
    // the load may still turn out to be of something else entirely.
    virtual void accepted() {}
    // Progressive open: an observer that wants the log on screen before it
    // is all read says so, and receives snapshots of the index so far (a
    // provisional publish, copied) at growing intervals from the start of
    // the load. Called on the loading thread.
    virtual bool wantsPartials() const { return false; }
    virtual void partial(std::shared_ptr<const LogIndex> index) { (void)index; }
};

inline bool isCancelled(const LoadObserver* observer)
{
    return observer && observer->cancelled();
}

} // namespace hecscope
