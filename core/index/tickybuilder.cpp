#include "core/index/tickybuilder.h"

#include <string>

namespace hecscope {

void TickyBuilder::consume(const Event& e)
{
    const auto& n = e.n;
    switch (e.tag) {
    case tag::TickyCounterDef:
        m_part.tickyCounters.push_back({n[0], uint16_t(n[1]), std::string(e.s[0]), std::string(e.s[1])});
        break;
    case tag::TickyCounterSample:
        m_part.tickySamples.push_back({e.time, n[0], n[1], n[2], n[3], uint32_t(m_part.tickyBegins.size())});
        break;
    case tag::TickyCounterBeginSample: m_part.tickyBegins.push_back(e.time); break;
    default: break;
    }
}

} // namespace hecscope
