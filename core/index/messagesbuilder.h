#pragma once

#include "core/format/event.h"
#include "core/format/eventtags.h"
#include "core/index/messagespart.h"
#include "core/index/schedulerbuilder.h"

#include <array>
#include <string_view>

namespace hecscope {

// Builds MessagesPart from USER_MARKER, USER_MSG, LOG_MSG and
// USER_BINARY_MSG: one Message each, in log order, its text appended to
// the arena. Nothing provisional. Decoding thread only.
class MessagesBuilder {
public:
    // IndexBuilders: the tags it consumes, and of those the start-up records.
    static constexpr uint16_t kTags[]{tag::UserMarker, tag::UserMsg, tag::LogMsg, tag::UserBinaryMsg};
    static constexpr std::array<uint16_t, 0> kStartupTags{};
    // `scheduler`: the thread running on each capability (a message's).
    MessagesBuilder(MessagesPart& part, const SchedulerBuilder& scheduler)
        : m_part(part)
        , m_scheduler(scheduler)
    {
    }
    void consume(const Event& e);

private:
    TextRef keep(std::string_view s)
    {
        TextRef r{m_part.text.size(), uint32_t(s.size())};
        m_part.text.append(s);
        return r;
    }

    MessagesPart& m_part;
    const SchedulerBuilder& m_scheduler;
};

} // namespace hecscope
