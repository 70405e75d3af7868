#pragma once

#include "ui/timeline/tracks/timelinetrack.h"

#include <QString>

#include <algorithm>
#include <vector>

namespace hecscope {

// Every kind of track, in the default order (tracks/tracklist.h).
const std::vector<const TimelineTrack*>& timelineTracks();
// The track of an id ("gc", case and spaces ignored); null if none.
const TimelineTrack* findTrack(const QString& id);
// The ids of every track, in the default order.
std::vector<QString> defaultTrackIds();
// Whether any of the tracks `ids` draws the state of type S.
template <class S>
bool anyTrackDraws(const std::vector<QString>& ids)
{
    return std::any_of(ids.begin(), ids.end(), [](const QString& id) {
        const TimelineTrack* t = findTrack(id);
        return t && t->drawsState(typeid(S));
    });
}

} // namespace hecscope
