#include "ui/timeline/tracks/trackregistry.h"

#include <memory>

namespace hecscope {

#define HECSCOPE_TRACK(Name) std::unique_ptr<TimelineTrack> make##Name##Track();
#include "ui/timeline/tracks/tracklist.h"
#undef HECSCOPE_TRACK

namespace {

std::vector<std::unique_ptr<TimelineTrack>> makeTracks()
{
    std::vector<std::unique_ptr<TimelineTrack>> tracks;
#define HECSCOPE_TRACK(Name) tracks.push_back(make##Name##Track());
#include "ui/timeline/tracks/tracklist.h"
#undef HECSCOPE_TRACK
    return tracks;
}

} // namespace

const std::vector<const TimelineTrack*>& timelineTracks()
{
    static const std::vector<std::unique_ptr<TimelineTrack>> owned = makeTracks();
    static const std::vector<const TimelineTrack*> tracks = [] {
        std::vector<const TimelineTrack*> out;
        for (const auto& t : owned)
            out.push_back(t.get());
        return out;
    }();
    return tracks;
}

const TimelineTrack* findTrack(const QString& id)
{
    const QString key = id.trimmed().toLower();
    for (const TimelineTrack* t : timelineTracks())
        if (t->id() == key)
            return t;
    return nullptr;
}

std::vector<QString> defaultTrackIds()
{
    std::vector<QString> ids;
    for (const TimelineTrack* t : timelineTracks())
        ids.push_back(t->id());
    return ids;
}

} // namespace hecscope
