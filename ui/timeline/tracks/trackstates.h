#pragma once

#include "core/index/instantspart.h"

#include <map>
#include <memory>
#include <typeindex>
#include <typeinfo>

namespace hecscope {

// What the user chose for the tracks (Tracy's per-item state): the heap
// bands and their mode (HeapView), the thread rows (ThreadRowsView), the
// chosen profile frame (ProfileHighlight), the instant kinds shown, … Each
// is an immutable snapshot kept by its type: its owner (a pane, a menu, a
// controller) publishes a new one after every change, and the tracks that
// draw it read it. Nothing between them — RenderOptions, the renderer,
// TimelineView — knows the kinds.
class TrackStates {
public:
    template <class S>
    std::shared_ptr<const S> get() const
    {
        const auto it = m_states.find(std::type_index(typeid(S)));
        return it == m_states.end() ? nullptr : std::static_pointer_cast<const S>(it->second);
    }
    // Replaces the state of its type; null: none (the track's default).
    template <class S>
    void set(std::shared_ptr<const S> state)
    {
        if (state)
            m_states[std::type_index(typeid(S))] = std::move(state);
        else
            m_states.erase(std::type_index(typeid(S)));
    }

private:
    std::map<std::type_index, std::shared_ptr<const void>> m_states;
};

// The View ▸ Display menu's choices for the HEC rows: the kinds of instant
// events drawn when zoomed in (a bit per InstantKind).
struct InstantKindsShown {
    uint32_t mask = kAllInstantKinds;
};

inline uint32_t instantKindsShown(const TrackStates& s)
{
    const auto shown = s.get<InstantKindsShown>();
    return shown ? shown->mask : kAllInstantKinds;
}

} // namespace hecscope
