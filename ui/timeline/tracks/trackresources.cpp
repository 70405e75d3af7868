#include "ui/timeline/tracks/trackresources.h"

#include "ui/timeline/timelinerenderer.h"

#include <algorithm>
#include <utility>

namespace hecscope {

void TrackResources::setIndex(std::shared_ptr<const LogIndex> index)
{
    m_index = std::move(index);
    m_defaultHeap.reset();
    m_defaultThreadRows.reset();
    m_lods.reset();
    // (What the worker has begun ends on its own.)
    if (m_lodJob)
        m_lodJob->drop();
    m_lodJob.reset();
    for (const Preparing& p : m_preparing)
        p.work->drop();
    m_preparing.clear();
    m_lodWidth = -1;
}

const LogIndex& TrackResources::index() const
{
    static const LogIndex empty;
    return m_index ? *m_index : empty;
}

void SharedWork::work()
{
    for (size_t i; (i = m_next.fetch_add(1, std::memory_order_relaxed)) < m_units;) {
        unit(i);
        std::lock_guard lock(m_mutex);
        if (++m_done == m_units)
            m_finished.notify_all();
    }
}

void SharedWork::wait()
{
    std::unique_lock lock(m_mutex);
    m_finished.wait(lock, [&] { return m_done == m_units; });
}

void TrackResources::startWork(const std::shared_ptr<SharedWork>& work)
{
    m_work.push({[work] { work->work(); }, work->dropped()});
}

void TrackResources::startPrepare(const TimelineTrack* track, ViewRange view, int width, const void* variant,
                                  std::shared_ptr<SharedWork> work, std::shared_ptr<const DrawList> list)
{
    std::erase_if(m_preparing, [&](const Preparing& p) {
        if (p.track != track)
            return false;
        p.work->drop();
        return true;
    });
    startWork(work);
    m_preparing.push_back({track, view, width, variant, std::move(work), std::move(list)});
}

bool TrackResources::preparing(const TimelineTrack* track, ViewRange view, int width, const void* variant) const
{
    return std::any_of(m_preparing.begin(), m_preparing.end(), [&](const Preparing& p) {
        return p.track == track && p.view == view && p.width == width && p.variant == variant;
    });
}

std::shared_ptr<const DrawList> TrackResources::finishPrepare(const TimelineTrack* track, ViewRange view, int width,
                                                              const void* variant)
{
    const auto it = std::find_if(m_preparing.begin(), m_preparing.end(), [&](const Preparing& p) {
        return p.track == track && p.view == view && p.width == width && p.variant == variant;
    });
    if (it == m_preparing.end())
        return nullptr;
    const Preparing p = std::move(*it);
    m_preparing.erase(it);
    p.work->work();
    p.work->wait();
    return p.list;
}

bool TrackResources::prefetchCapabilityLods(ViewRange view, int width)
{
    width = std::max(1, width);
    if (m_lods && m_lodView == view && m_lodWidth == width)
        return false;
    if (m_lodJob && m_lodJob->view == view && m_lodJob->width == uint32_t(width))
        return true;
    // Zoomed out over a long busy run this decodes a block of spans per
    // pixel edge and capability (milliseconds): then the capabilities are
    // shared with a worker (each only reads its own timeline).
    if (!m_index || m_index->caps.empty())
        return false;
    size_t spans = 0;
    for (const auto& cap : m_index->caps) {
        const size_t from = cap.timeline.firstEndingAfter(view.start), to = cap.timeline.firstStartingAt(view.end);
        spans += to > from ? to - from : 0;
    }
    if (spans <= m_parallelSpans)
        return false;
    if (m_lodJob)
        m_lodJob->drop();
    m_lodJob = std::make_shared<LodJob>(m_index, view, uint32_t(width));
    startWork(m_lodJob);
    return true;
}

std::shared_ptr<const CapabilityLods> TrackResources::capabilityLods(ViewRange view, int width)
{
    width = std::max(1, width);
    if (m_lods && m_lodView == view && m_lodWidth == width)
        return m_lods;
    if (prefetchCapabilityLods(view, width)) {
        // The worker's, finished here: what it has not taken yet, this
        // thread makes.
        const std::shared_ptr<LodJob> job = std::exchange(m_lodJob, nullptr);
        job->work();
        job->wait();
        m_lods = job->lods;
    } else {
        auto lods = std::make_shared<CapabilityLods>(index().caps.size());
        for (size_t c = 0; c < lods->size(); ++c)
            index().caps[c].timeline.lod(view.start, view.end, uint32_t(width), (*lods)[c]);
        m_lods = std::move(lods);
    }
    m_lodView = view;
    m_lodWidth = width;
    return m_lods;
}

std::shared_ptr<const HeapView> TrackResources::heapView(const RenderOptions& o)
{
    // A view made for another index (a reload, a new file) is not this one's.
    if (o.states.get<HeapView>() && o.states.get<HeapView>()->selection && m_index && o.states.get<HeapView>()->indexSerial == m_index->serial)
        return o.states.get<HeapView>();
    if (!m_defaultHeap) {
        auto view = std::make_shared<HeapView>();
        view->indexSerial = index().serial;
        view->selection = index().defaultBands;
        m_defaultHeap = std::move(view);
    }
    return m_defaultHeap;
}

std::shared_ptr<const ThreadRowsView> TrackResources::threadRows(const RenderOptions& o)
{
    if (o.states.get<ThreadRowsView>() && m_index && o.states.get<ThreadRowsView>()->indexSerial == m_index->serial)
        return o.states.get<ThreadRowsView>();
    if (!m_defaultThreadRows)
        m_defaultThreadRows = ThreadRowsView::makeDefault(index());
    return m_defaultThreadRows;
}

const void* TrackResources::threadRowsVariant(const RenderOptions& o)
{
    const uint64_t generation = o.detail ? o.detail->threadGeneration() : 0;
    return reinterpret_cast<const void*>(uintptr_t(threadRows(o).get()) ^ uintptr_t(generation * 0x9E3779B97F4A7C15ull));
}

} // namespace hecscope
