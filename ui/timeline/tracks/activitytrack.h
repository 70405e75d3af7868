#pragma once

#include "ui/timeline/tracks/trackresources.h"

#include <vector>

namespace hecscope {

// One pixel column of the activity track: shares (0..1) of the
// capabilities' time spent running and in GC.
struct ActivityColumn {
    double running = 0;
    double gc = 0;      // collecting
    double stopped = 0; // stopped outside a collection: waiting for it, or parked after it (not drawn)
};

// Each pixel column's running and GC shares for `view` at `width` pixels,
// from the capabilities' level-of-detail items (the ones the HEC rows
// draw): exact spans are split over the columns they cross, per-pixel
// aggregates carry their own totals.
std::vector<ActivityColumn> activityColumns(const LogIndex& index, ViewRange view, int width,
                                            const CapabilityLods& lods);

} // namespace hecscope
