#pragma once

#include "ui/timeline/tracks/timelinetrack.h"

#include <QString>

#include <vector>

namespace hecscope {

// Every kind of track, in the default order (tracks/tracklist.h).
const std::vector<const TimelineTrack*>& timelineTracks();
// The track of an id ("gc", case and spaces ignored); null if none.
const TimelineTrack* findTrack(const QString& id);
// The ids of every track, in the default order.
std::vector<QString> defaultTrackIds();

} // namespace hecscope
