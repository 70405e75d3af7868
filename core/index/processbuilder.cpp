#include "core/index/processbuilder.h"

#include "core/format/eventtags.h"

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

namespace hecscope {
namespace {

std::vector<std::string> splitNul(std::string_view s)
{
    std::vector<std::string> out;
    while (!s.empty()) {
        const size_t nul = s.find('\0');
        out.emplace_back(s.substr(0, nul));
        if (nul == std::string_view::npos)
            break;
        s.remove_prefix(nul + 1);
    }
    return out;
}

} // namespace

Capset& ProcessBuilder::capset(uint64_t id)
{
    const auto [it, inserted] = m_index.try_emplace(uint32_t(id), m_part.capsets.size());
    if (inserted) {
        m_part.capsets.push_back(Capset{});
        m_part.capsets.back().id = uint32_t(id);
    }
    return m_part.capsets[it->second];
}

void ProcessBuilder::consume(const Event& e)
{
    const uint64_t t = e.time;
    const auto& n = e.n;
    switch (e.tag) {
    case tag::CapsetCreate: {
        Capset& cs = capset(n[0]);
        cs.type = uint16_t(n[1]);
        cs.created = t;
        break;
    }
    case tag::CapsetDelete: capset(n[0]).deleted = t; break;
    case tag::CapsetAssignCap: {
        Capset& cs = capset(n[0]);
        cs.caps.push_back(uint16_t(n[1]));
        if (std::find(cs.assigned.begin(), cs.assigned.end(), uint16_t(n[1])) == cs.assigned.end())
            cs.assigned.push_back(uint16_t(n[1]));
        break;
    }
    case tag::CapsetRemoveCap: std::erase(capset(n[0]).caps, uint16_t(n[1])); break;
    case tag::RtsIdentifier: capset(n[0]).rtsIdentifier = std::string(e.s[0]); break;
    case tag::ProgramArgs: capset(n[0]).args = splitNul(e.s[0]); break;
    case tag::ProgramEnv: capset(n[0]).env = splitNul(e.s[0]); break;
    case tag::OsProcessPid: {
        Capset& cs = capset(n[0]);
        cs.pid = n[1];
        cs.hasPid = true;
        break;
    }
    case tag::OsProcessPpid: {
        Capset& cs = capset(n[0]);
        cs.ppid = n[1];
        cs.hasPpid = true;
        break;
    }
    case tag::WallClockTime: {
        Capset& cs = capset(n[0]);
        cs.wallSeconds = n[1];
        cs.wallNanoseconds = n[2];
        cs.wallAt = t;
        break;
    }
    case tag::TaskCreate: ++m_part.tasks; break;
    default: break;
    }
}

} // namespace hecscope
