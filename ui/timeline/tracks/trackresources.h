#pragma once

#include "core/detail/detailstore.h"
#include "core/index/logindex.h"
#include "core/time/viewrange.h"
#include "ui/charts/chartpainter.h"
#include "ui/heap/heapview.h"
#include "ui/threads/threadrows.h"
#include "ui/timeline/textcache.h"

#include <QThreadPool>

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <vector>

namespace hecscope {

struct RenderOptions;

// Every capability's level-of-detail items for one (view, width).
using CapabilityLods = std::vector<std::vector<LodItem>>;

// What the renderer shares between its tracks: queries that several tracks
// need for the same (view, width) (made once, kept while the view stays),
// the heap view to draw, and the chart canvas the chart tracks draw on
// (ChartPainter). One per renderer; UI thread (or the thread of an
// export's own renderer).
class TrackResources {
public:
    void setIndex(std::shared_ptr<const LogIndex> index);
    const LogIndex& index() const; // an empty one when none is set
    const LogIndex* indexOrNull() const { return m_index.get(); }

    std::shared_ptr<const CapabilityLods> capabilityLods(ViewRange view, int width);
    // Starts capabilityLods(view, width) on a worker when the view holds
    // more spans than parallelSpans (milliseconds of work): the caller
    // paints something else meanwhile, and capabilityLods() then shares
    // what is left and waits for the rest. True when that work is started
    // or already in flight; false when it is made already, or small enough
    // to make in place.
    bool prefetchCapabilityLods(ViewRange view, int width);
    // The texts the tracks and the renderer drew, laid out (TextCache).
    TextCache& text() { return m_text; }
    // Views holding more spans than this (of all capabilities) are
    // summarised on two threads (this one and a worker).
    static constexpr size_t kParallelSpans = 200'000;
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
    // Capabilities' levels of detail in the making: the worker and the
    // thread that asks for them take capabilities in turn. It holds what
    // it reads and writes, so a job that is no longer wanted (a new index,
    // a new view) can finish on its own.
    struct LodJob {
        std::shared_ptr<const LogIndex> index;
        ViewRange view;
        uint32_t width = 1;
        std::shared_ptr<CapabilityLods> lods;
        std::atomic<size_t> next{0};
        std::mutex mutex;
        std::condition_variable finished;
        size_t done = 0; // capabilities made (under mutex)
        // Makes capabilities until none is left to take.
        void work();
        // Until every capability is made.
        void wait();
    };
    std::shared_ptr<const LogIndex> m_index;
    std::shared_ptr<const HeapView> m_defaultHeap; // made on first use
    std::shared_ptr<const ThreadRowsView> m_defaultThreadRows;
    ViewRange m_lodView;
    int m_lodWidth = -1;
    std::shared_ptr<const CapabilityLods> m_lods;
    std::shared_ptr<LodJob> m_lodJob; // for (m_lodJob->view, m_lodJob->width)
    size_t m_parallelSpans = kParallelSpans;
    ChartPainter m_charts; // reused between paints
    TextCache m_text;
    std::vector<InstantUnitKey> m_wantedInstants;
    std::vector<ThreadWindowKey> m_wantedThreads;
    // The worker (one thread, started when first wanted, gone after 30 s
    // idle); last: its jobs finish before the rest is destroyed.
    QThreadPool m_workers;
};

} // namespace hecscope
