#pragma once

#include "core/detail/detailstore.h"
#include "core/index/logindex.h"
#include "core/time/viewrange.h"
#include "ui/charts/chartpainter.h"
#include "ui/heap/heapview.h"
#include "ui/jobs/workerpool.h"
#include "ui/threads/threadrows.h"
#include "ui/timeline/textcache.h"

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <vector>

namespace hecscope {

struct RenderOptions;

// Every capability's level-of-detail items for one (view, width).
using CapabilityLods = std::vector<std::vector<LodItem>>;

class DrawList;
class TimelineTrack;

// Work of independent units (a capability, a thread row) shared between a
// worker and the thread that needs it: each takes the next unit left
// until none is; that thread then waits for the units the worker took.
// What a unit reads and writes belongs to the work (a new index or view
// leaves a work no longer wanted to finish on its own).
class SharedWork {
public:
    explicit SharedWork(size_t units) : m_units(units) {}
    virtual ~SharedWork() = default;
    // Does units until none is left to take.
    void work();
    // Until every unit is done.
    void wait();
    // No longer wanted: the worker does not begin it (a unit begun ends).
    void drop() { m_dropped->store(true, std::memory_order_release); }
    const std::shared_ptr<std::atomic<bool>>& dropped() const { return m_dropped; }

protected:
    virtual void unit(size_t i) = 0;

private:
    const size_t m_units;
    std::atomic<size_t> m_next{0};
    std::mutex m_mutex;
    std::condition_variable m_finished;
    size_t m_done = 0; // (under m_mutex)
    std::shared_ptr<std::atomic<bool>> m_dropped = std::make_shared<std::atomic<bool>>(false);
};

// What the renderer shares between its tracks: queries that several tracks
// need for the same (view, width) (made once, kept while the view stays),
// the heap view to draw, and the chart canvas the chart tracks draw on
// (ChartPainter), and the worker that begins a paint's long draw lists
// (TimelineTrack::prefetch). One per renderer; UI thread (or the thread of
// an export's own renderer).
class TrackResources {
public:
    void setIndex(std::shared_ptr<const LogIndex> index);
    const LogIndex& index() const; // an empty one when none is set
    const LogIndex* indexOrNull() const { return m_index.get(); }
    const std::shared_ptr<const LogIndex>& sharedIndex() const { return m_index; }

    std::shared_ptr<const CapabilityLods> capabilityLods(ViewRange view, int width);
    // Starts capabilityLods(view, width) on a worker when the view holds
    // more spans than parallelSpans (milliseconds of work): the caller
    // paints something else meanwhile, and capabilityLods() then shares
    // what is left and waits for the rest. True when that work is started
    // or already in flight; false when it is made already, or small enough
    // to make in place.
    bool prefetchCapabilityLods(ViewRange view, int width);
    // A track's draw list for (view, width, variant) made by `work` on the
    // worker (TimelineTrack::prefetch): `list` is complete once the work is.
    void startPrepare(const TimelineTrack* track, ViewRange view, int width, const void* variant,
                      std::shared_ptr<SharedWork> work, std::shared_ptr<const DrawList> list);
    // Whether such a draw list is in the making.
    bool preparing(const TimelineTrack* track, ViewRange view, int width, const void* variant) const;
    // That draw list, its work finished here (shared with the worker); null
    // when there is none in the making for these.
    std::shared_ptr<const DrawList> finishPrepare(const TimelineTrack* track, ViewRange view, int width,
                                                  const void* variant);
    // The texts the tracks and the renderer drew, laid out (TextCache).
    TextCache& text() { return m_text; }
    // Views holding more spans than this (of all capabilities) are
    // summarised on two threads (this one and a worker), begun before the
    // other rows are painted. On the big log 20,000 spans at 1600 px took
    // about 0.3 ms in place; handing them over costs a wake-up (tens of µs).
    static constexpr size_t kParallelSpans = 10'000;
    void setParallelSpans(size_t spans) { m_parallelSpans = spans; } // (tests: 0 always shares)
    // The heap view of `o` when it was made for this index, else the top 15
    // bands by size, stacked. Needs a heap profile.
    std::shared_ptr<const HeapView> heapView(const RenderOptions& o);
    // The thread rows of `o` when made for this index, else every thread by id.
    std::shared_ptr<const ThreadRowsView> threadRows(const RenderOptions& o);
    // What the thread tracks' drawing depends on besides the view: the
    // rows, and the windows of segments read back so far (the rows' address
    // mixed with the store's thread generation).
    const void* threadRowsVariant(const RenderOptions& o);
    ChartPainter& charts() { return m_charts; }
    // Units of detail a track wanted and did not find cached: the view
    // has them read (TimelineRenderer::takeWantedInstants).
    std::vector<InstantUnitKey>& wantedInstants() { return m_wantedInstants; }
    // Windows of thread segments wanted (TimelineRenderer::takeWantedThreads).
    std::vector<ThreadWindowKey>& wantedThreads() { return m_wantedThreads; }

private:
    // Capabilities' levels of detail in the making: a unit a capability.
    struct LodJob final : SharedWork {
        LodJob(std::shared_ptr<const LogIndex> ix, ViewRange v, uint32_t w)
            : SharedWork(ix->caps.size()), index(std::move(ix)), view(v), width(w),
              lods(std::make_shared<CapabilityLods>(index->caps.size()))
        {
        }
        void unit(size_t c) override { index->caps[c].timeline.lod(view.start, view.end, width, (*lods)[c]); }
        std::shared_ptr<const LogIndex> index;
        ViewRange view;
        uint32_t width = 1;
        std::shared_ptr<CapabilityLods> lods;
    };
    struct Preparing {
        const TimelineTrack* track;
        ViewRange view;
        int width;
        const void* variant;
        std::shared_ptr<SharedWork> work;
        std::shared_ptr<const DrawList> list;
    };
    void startWork(const std::shared_ptr<SharedWork>& work);
    std::shared_ptr<const LogIndex> m_index;
    std::shared_ptr<const HeapView> m_defaultHeap; // made on first use
    std::shared_ptr<const ThreadRowsView> m_defaultThreadRows;
    ViewRange m_lodView;
    int m_lodWidth = -1;
    std::shared_ptr<const CapabilityLods> m_lods;
    std::shared_ptr<LodJob> m_lodJob; // for (m_lodJob->view, m_lodJob->width)
    std::vector<Preparing> m_preparing; // at most one per track
    size_t m_parallelSpans = kParallelSpans;
    ChartPainter m_charts; // reused between paints
    TextCache m_text;
    std::vector<InstantUnitKey> m_wantedInstants;
    std::vector<ThreadWindowKey> m_wantedThreads;
    // The worker (one thread, started when first wanted, gone after 30 s
    // idle; not the shared pool, whose threads a load may keep busy); last:
    // its work ends before the rest is destroyed.
    WorkerPool m_workers{1};
    WorkerPool::Queue m_work{m_workers, 1};
};

} // namespace hecscope
