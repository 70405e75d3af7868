#pragma once

#include <QMetaType>
#include <QString>

#include <cstdint>
#include <memory>
#include <vector>

namespace hecscope {

// A frame chosen in the Profile pane, for the Time profile track: the
// eventlog's stacks through it (per TimeProfileData::stacks entry, 1 when
// the stack passes through the frame) and its label.
struct ProfileHighlight {
    std::vector<uint8_t> stacks;
    QString label;
};

} // namespace hecscope

Q_DECLARE_METATYPE(std::shared_ptr<const hecscope::ProfileHighlight>)
