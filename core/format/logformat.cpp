#include "core/format/logformat.h"

#include "core/format/eventtags.h"

#include <algorithm>
#include <array>

namespace hecscope {
namespace {

// Known layouts per tag: fixed payload sizes (ascending), or variable.
struct KnownLayouts {
    bool variable = false;
    std::array<uint16_t, 2> sizes{};
    uint8_t count = 0;
};

KnownLayouts knownLayouts(uint16_t t)
{
    auto fixed = [](uint16_t s) { return KnownLayouts{false, {s, 0}, 1}; };
    auto fixed2 = [](uint16_t a, uint16_t b) { return KnownLayouts{false, {a, b}, 2}; };
    const KnownLayouts variable{true, {}, 0};
    switch (t) {
    case tag::CreateThread: case tag::RunThread: case tag::ThreadRunnable:
    case tag::RunSpark: case tag::CreateSparkThread: case tag::CapsetDelete:
    case tag::CreateProcess: case tag::KillProcess: case tag::ConcMarkEnd:
    case tag::MerReleaseContext:
        return fixed(4);
    case tag::StopThread:
        return fixed2(6, 10);
    case tag::MigrateThread: case tag::StealSpark: case tag::ThreadWakeup:
    case tag::CapsetCreate: case tag::CapsetAssignCap: case tag::CapsetRemoveCap:
        return fixed(6);
    case tag::Shutdown: case tag::GcStart: case tag::GcEnd: case tag::RequestSeqGc:
    case tag::RequestParGc: case tag::GcIdle: case tag::GcWork: case tag::GcDone:
    case tag::SparkCreate: case tag::SparkDud: case tag::SparkOverflow: case tag::SparkRun:
    case tag::SparkFizzle: case tag::SparkGc: case tag::GcGlobalSync:
    case tag::EdenStartReceive: case tag::EdenEndReceive:
    case tag::MerLookingForGlobalContext: case tag::MerWorkStealing:
    case tag::MerEngineSleeping: case tag::MerLookingForLocalSpark: case tag::MerCallingMain:
    case tag::ConcMarkBegin: case tag::ConcSyncBegin: case tag::ConcSyncEnd:
    case tag::ConcSweepBegin: case tag::ConcSweepEnd: case tag::TickyCounterBeginSample:
        return fixed(0);
    case tag::Startup: case tag::SparkSteal: case tag::CapCreate: case tag::CapDelete:
    case tag::CapDisable: case tag::CapEnable: case tag::KillMachine:
    case tag::ConcUpdRemSetFlush:
        return fixed(2);
    case tag::BlockMarker:
        return fixed(14);
    case tag::OsProcessPid: case tag::OsProcessPpid: case tag::AssignThreadToProcess:
    case tag::TaskDelete: case tag::MerStopParConjunction: case tag::MerStopParConjunct:
    case tag::MerFutWaitNosuspend: case tag::MerFutWaitSuspended: case tag::MerFutSignal:
    case tag::HeapProfSampleBegin: case tag::HeapProfSampleEnd: case tag::ProfBegin:
    case tag::NonmovingPrunedSegments:
        return fixed(8);
    case tag::SparkCounters:
        return fixed(56);
    case tag::WallClockTime: case tag::MemReturn: case tag::HeapBioProfSampleBegin:
        return fixed(16);
    case tag::HeapAllocated: case tag::HeapSize: case tag::HeapLive: case tag::BlocksSize:
    case tag::TaskMigrate: case tag::MerStartParConjunction: case tag::MerCreateSpark:
    case tag::MerFutCreate: case tag::PerfTracepoint:
        return fixed(12);
    case tag::HeapInfoGhc:
        return fixed(38);
    case tag::GcStatsGhc:
        return fixed2(50, 58);
    case tag::TaskCreate:
        return fixed(18);
    case tag::CreateMachine:
        return fixed(10);
    case tag::SendMessage:
        return fixed(19);
    case tag::ReceiveMessage:
        return fixed(23);
    case tag::SendReceiveLocalMessage:
        return fixed(17);
    case tag::PerfCounter:
        return fixed(20);
    case tag::TickyCounterSample:
        return fixed(32);
    case tag::NonmovingHeapCensus:
        return fixed2(13, 14);
    case tag::LogMsg: case tag::UserMsg: case tag::Version: case tag::ProgramInvocation:
    case tag::RtsIdentifier: case tag::ProgramArgs: case tag::ProgramEnv:
    case tag::InternString: case tag::ThreadLabel: case tag::UserMarker: case tag::PerfName:
    case tag::HeapProfBegin: case tag::HeapProfCostCentre: case tag::HeapProfSampleCostCentre:
    case tag::HeapProfSampleString: case tag::ProfSampleCostCentre: case tag::Ipe:
    case tag::UserBinaryMsg: case tag::TickyCounterDef:
        return variable;
    default:
        return {}; // no layout: always skipped as an unknown event
    }
}

// GHC 6.12 declared thread ids as 8 bytes but wrote 4, and STARTUP as 0 bytes
// but wrote 2 (eventlog-format.md 1.6). Returns the size really written.
uint16_t ghc612ActualSize(uint16_t t, uint16_t declared)
{
    switch (t) {
    case tag::CreateThread: case tag::RunThread: case tag::ThreadRunnable:
    case tag::RunSpark: case tag::CreateSparkThread:
        return declared == 8 ? 4 : declared;
    case tag::StopThread: case tag::MigrateThread: case tag::StealSpark: case tag::ThreadWakeup:
        return declared == 10 ? 6 : declared;
    case tag::Startup:
        return declared == 0 ? 2 : declared;
    case tag::AssignThreadToProcess:
        return declared == 12 ? 8 : declared;
    case tag::SendMessage:
        return declared == 27 ? 19 : declared;
    case tag::ReceiveMessage:
        return declared == 31 ? 23 : declared;
    case tag::SendReceiveLocalMessage:
        return declared == 25 ? 17 : declared;
    default:
        return declared;
    }
}

} // namespace

LogFormat::LogFormat(std::vector<EventTypeDecl> declarations)
    : m_declarations(std::move(declarations))
{
    uint16_t maxTag = 0;
    bool userMarker = false;
    bool hack9003 = false;
    for (const auto& d : m_declarations) {
        maxTag = std::max(maxTag, d.tag);
        userMarker |= d.tag == tag::UserMarker;
        hack9003 |= d.tag == tag::HackBugT9003;
        if (d.tag == tag::CreateThread && d.size == 8)
            m_ghc612 = true;
    }
    m_stopEncoding = !userMarker ? StopEncoding::Pre78
                                 : (hack9003 ? StopEncoding::Standard : StopEncoding::Ghc782);
    if (m_declarations.empty())
        return;
    m_tags.assign(size_t(maxTag) + 1, TagInfo{});
    m_tagCount = uint32_t(m_tags.size());
    for (size_t i = 0; i < m_declarations.size(); ++i) {
        const auto& d = m_declarations[i];
        TagInfo& info = m_tags[d.tag];
        info = TagInfo{};
        info.declIndex = int32_t(i);
        const KnownLayouts known = knownLayouts(d.tag);
        if (d.isVariable()) {
            info.kind = TagInfo::Variable;
            info.known = known.variable;
            continue;
        }
        info.kind = TagInfo::Fixed;
        info.payloadSize = m_ghc612 ? ghc612ActualSize(d.tag, d.size) : d.size;
        for (uint8_t k = 0; k < known.count; ++k) {
            if (known.sizes[k] <= info.payloadSize) {
                info.known = true;
                info.layoutSize = known.sizes[k];
            }
        }
    }
}

const std::string& LogFormat::description(uint16_t tag) const
{
    static const std::string empty;
    const TagInfo& i = info(tag);
    return i.declIndex < 0 ? empty : m_declarations[size_t(i.declIndex)].description;
}

uint16_t LogFormat::minimumVariablePayload(uint16_t t)
{
    switch (t) {
    case tag::RtsIdentifier: case tag::ProgramArgs: case tag::ProgramEnv:
    case tag::ThreadLabel: case tag::PerfName: case tag::InternString:
        return 4;
    case tag::HeapProfBegin:
        return 1 + 8 + 4;
    case tag::HeapProfCostCentre:
        return 4;
    case tag::HeapProfSampleCostCentre:
        return 1 + 8 + 1;
    case tag::HeapProfSampleString:
        return 1 + 8;
    case tag::ProfSampleCostCentre:
        return 4 + 8 + 1;
    case tag::Ipe:
        return 8;
    case tag::TickyCounterDef:
        return 8 + 2;
    default:
        return 0;
    }
}

// GHC 7.8.1/7.8.2 inserted BlockedOnMVarRead at 8 and shifted the rest up
// (eventlog-format.md 2.2); map those codes to the standard numbering.
uint64_t standardStopCode(uint64_t raw, StopEncoding encoding)
{
    if (encoding != StopEncoding::Ghc782 || raw < 8 || raw > 20)
        return raw;
    if (raw == 8)
        return 20;
    if (raw <= 14)
        return raw - 1;
    if (raw <= 16)
        return 14; // unused GUM states
    return raw - 1;
}

} // namespace hecscope
