#pragma once

#include "core/profile/profile.h"

#include <QColor>

namespace hecscope {

// The colour of a cost centre wherever profiles are drawn (flame graph, Time
// profile track): warm hues as flamegraph.pl uses, one per module (a stable
// hash, so a module keeps its colour across runs and views); the RTS's own
// frames (GC, IDLE, SYSTEM, ...) grey. Black text reads on all of them.
QColor costCentreColour(const ProfileCostCentre& cc);
QColor moduleColour(const std::string& module);

} // namespace hecscope
