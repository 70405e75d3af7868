#pragma once

#include "core/format/event.h"
#include "core/index/messagespart.h"

#include <string_view>

namespace hecscope {

// Builds MessagesPart from USER_MARKER, USER_MSG, LOG_MSG and
// USER_BINARY_MSG: one Message each, in log order, its text appended to
// the arena. Nothing provisional. Decoding thread only.
class MessagesBuilder {
public:
    explicit MessagesBuilder(MessagesPart& part)
        : m_part(part)
    {
    }
    // `thread`: the thread running on the event's capability (0: none).
    void consume(const Event& e, uint32_t thread);

private:
    TextRef keep(std::string_view s)
    {
        TextRef r{m_part.text.size(), uint32_t(s.size())};
        m_part.text.append(s);
        return r;
    }

    MessagesPart& m_part;
};

} // namespace hecscope
