#pragma once

class QComboBox;

namespace hecscope {

struct LogIndex;

// Fills a capability filter: "All capabilities" (data -1), then one entry
// per capability of `index` (data: its number), without emitting changes.
void fillCapabilityBox(QComboBox* box, const LogIndex* index);

} // namespace hecscope
