#include "ui/timeline/tracks/trackresources.h"

#include "ui/timeline/timelinerenderer.h"

#include <future>

namespace hecscope {

void TrackResources::setIndex(std::shared_ptr<const LogIndex> index)
{
    m_index = std::move(index);
    m_defaultHeap.reset();
    m_defaultThreadRows.reset();
    m_lods.reset();
    m_lodWidth = -1;
}

const LogIndex& TrackResources::index() const
{
    static const LogIndex empty;
    return m_index ? *m_index : empty;
}

std::shared_ptr<const CapabilityLods> TrackResources::capabilityLods(ViewRange view, int width)
{
    width = std::max(1, width);
    if (m_lods && m_lodView == view && m_lodWidth == width)
        return m_lods;
    auto lods = std::make_shared<CapabilityLods>(index().caps.size());
    const auto summarise = [&](size_t c) { index().caps[c].timeline.lod(view.start, view.end, uint32_t(width), (*lods)[c]); };
    // Zoomed out over a long busy run this decodes a block of spans per
    // pixel edge and capability (milliseconds): then the capabilities are
    // shared with a second thread (each only reads its own timeline).
    size_t spans = 0;
    for (const auto& cap : index().caps) {
        const size_t from = cap.timeline.firstEndingAfter(view.start), to = cap.timeline.firstStartingAt(view.end);
        spans += to > from ? to - from : 0;
    }
    if (lods->size() >= 2 && spans > m_parallelSpans) {
        std::future<void> other = std::async(std::launch::async, [&] {
            for (size_t c = 1; c < lods->size(); c += 2)
                summarise(c);
        });
        for (size_t c = 0; c < lods->size(); c += 2)
            summarise(c);
        other.get();
    } else {
        for (size_t c = 0; c < lods->size(); ++c)
            summarise(c);
    }
    m_lodView = view;
    m_lodWidth = width;
    m_lods = std::move(lods);
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
