#include "core/index/messagesbuilder.h"

#include "core/format/eventtags.h"

namespace hecscope {

void MessagesBuilder::consume(const Event& e)
{
    Message::Kind kind;
    switch (e.tag) {
    case tag::UserMarker: kind = Message::Marker; break;
    case tag::UserMsg: kind = Message::User; break;
    case tag::LogMsg: kind = Message::Log; break;
    case tag::UserBinaryMsg: kind = Message::Binary; break;
    default: return;
    }
    m_part.messages.push_back({e.time, e.cap, kind, m_scheduler.runningThread(e.cap), keep(e.s[0])});
}

} // namespace hecscope
