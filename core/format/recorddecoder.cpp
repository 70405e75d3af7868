#include "core/format/recorddecoder.h"

#include "core/format/bytes.h"
#include "core/format/eventtags.h"

#include <cstring>

namespace hecscope {

uint32_t Event::ccId(size_t i) const
{
    return readU32(ids + 4 * i);
}

namespace {

// Reads a NUL-terminated string bounded by `end`. A missing terminator takes
// the rest of the payload (damaged or foreign producers; ghc-events would run
// past the payload).
const uint8_t* cstr(const uint8_t* p, const uint8_t* end, std::string_view& out)
{
    const void* nul = std::memchr(p, 0, size_t(end - p));
    const uint8_t* stop = nul ? static_cast<const uint8_t*>(nul) : end;
    out = std::string_view(reinterpret_cast<const char*>(p), size_t(stop - p));
    return nul ? stop + 1 : end;
}

std::string_view text(const uint8_t* p, const uint8_t* end)
{
    return std::string_view(reinterpret_cast<const char*>(p), size_t(end - p));
}

// `depth` big-endian u32 cost-centre ids at `p`, innermost first; nullptr
// when they do not fit in the payload.
const uint8_t* costCentreStack(const uint8_t* p, const uint8_t* end, uint64_t depth, Event& e)
{
    if (size_t(end - p) < 4 * depth)
        return nullptr;
    e.depth = uint16_t(depth);
    e.ids = p;
    return p + 4 * depth;
}

} // namespace

// Fixed layouts. `p` has at least `layout` bytes. Returns the end of the
// decoded fields, or nullptr for a block marker with an impossible size.
const uint8_t* detail::decodeFixedFields(uint16_t t, uint16_t layout, const uint8_t* p, Event& e)
{
    uint64_t* n = e.n;
    switch (t) {
    case tag::CreateThread: case tag::RunThread: case tag::ThreadRunnable:
    case tag::RunSpark: case tag::CreateSparkThread: case tag::CapsetDelete:
    case tag::CreateProcess: case tag::KillProcess: case tag::ConcMarkEnd:
    case tag::MerReleaseContext:
        n[0] = readU32(p);
        return p + 4;
    case tag::StopThread:
        n[0] = readU32(p);
        n[1] = readU16(p + 4);
        n[2] = layout >= 10 ? readU32(p + 6) : 0;
        return p + layout;
    case tag::MigrateThread: case tag::StealSpark: case tag::ThreadWakeup:
    case tag::CapsetCreate: case tag::CapsetAssignCap: case tag::CapsetRemoveCap:
        n[0] = readU32(p);
        n[1] = readU16(p + 4);
        return p + 6;
    case tag::Startup: case tag::SparkSteal: case tag::CapCreate: case tag::CapDelete:
    case tag::CapDisable: case tag::CapEnable: case tag::KillMachine:
    case tag::ConcUpdRemSetFlush:
        n[0] = readU16(p);
        return p + 2;
    case tag::BlockMarker:
        n[0] = readU32(p);
        n[1] = readU64(p + 4);
        n[2] = readU16(p + 12);
        return n[0] < 24 ? nullptr : p + 14; // smaller than the marker itself
    case tag::OsProcessPid: case tag::OsProcessPpid: case tag::AssignThreadToProcess:
    case tag::NonmovingPrunedSegments:
        n[0] = readU32(p);
        n[1] = readU32(p + 4);
        return p + 8;
    case tag::TaskDelete: case tag::MerStopParConjunction: case tag::MerStopParConjunct:
    case tag::MerFutWaitNosuspend: case tag::MerFutWaitSuspended: case tag::MerFutSignal:
    case tag::HeapProfSampleBegin: case tag::HeapProfSampleEnd: case tag::ProfBegin:
        n[0] = readU64(p);
        return p + 8;
    case tag::SparkCounters:
        for (int i = 0; i < 7; ++i)
            n[i] = readU64(p + 8 * i);
        return p + 56;
    case tag::WallClockTime:
        n[0] = readU32(p);
        n[1] = readU64(p + 4);
        n[2] = readU32(p + 12);
        return p + 16;
    case tag::MemReturn:
        for (int i = 0; i < 4; ++i)
            n[i] = readU32(p + 4 * i);
        return p + 16;
    case tag::HeapBioProfSampleBegin:
        n[0] = readU64(p);
        n[1] = readU64(p + 8);
        return p + 16;
    case tag::HeapAllocated: case tag::HeapSize: case tag::HeapLive: case tag::BlocksSize:
        n[0] = readU32(p);
        n[1] = readU64(p + 4);
        return p + 12;
    case tag::TaskMigrate:
        n[0] = readU64(p);
        n[1] = readU16(p + 8);
        n[2] = readU16(p + 10);
        return p + 12;
    case tag::MerStartParConjunction: case tag::MerCreateSpark: case tag::MerFutCreate:
        n[0] = readU64(p);
        n[1] = readU32(p + 8);
        return p + 12;
    case tag::PerfTracepoint:
        n[0] = readU32(p);
        n[1] = readU64(p + 4);
        return p + 12;
    case tag::PerfCounter:
        n[0] = readU32(p);
        n[1] = readU64(p + 4);
        n[2] = readU64(p + 12);
        return p + 20;
    case tag::HeapInfoGhc:
        n[0] = readU32(p);
        n[1] = readU16(p + 4);
        for (int i = 0; i < 4; ++i)
            n[2 + i] = readU64(p + 6 + 8 * i);
        return p + 38;
    case tag::GcStatsGhc:
        n[0] = readU32(p);
        n[1] = readU16(p + 4);
        n[2] = readU64(p + 6);
        n[3] = readU64(p + 14);
        n[4] = readU64(p + 22);
        n[5] = readU32(p + 30);
        n[6] = readU64(p + 34);
        n[7] = readU64(p + 42);
        n[8] = layout >= 58 ? readU64(p + 50) : 0;
        return p + layout;
    case tag::TaskCreate:
        n[0] = readU64(p);
        n[1] = readU16(p + 8);
        n[2] = readU64(p + 10);
        return p + 18;
    case tag::CreateMachine:
        n[0] = readU16(p);
        n[1] = readU64(p + 2);
        return p + 10;
    case tag::SendMessage: // tag, sender proc, sender thread, recv machine, recv proc, inport
        n[0] = p[0];
        n[1] = readU32(p + 1);
        n[2] = readU32(p + 5);
        n[3] = readU16(p + 9);
        n[4] = readU32(p + 11);
        n[5] = readU32(p + 15);
        return p + 19;
    case tag::ReceiveMessage: // tag, recv proc, inport, sender machine, proc, thread, size
        n[0] = p[0];
        n[1] = readU32(p + 1);
        n[2] = readU32(p + 5);
        n[3] = readU16(p + 9);
        n[4] = readU32(p + 11);
        n[5] = readU32(p + 15);
        n[6] = readU32(p + 19);
        return p + 23;
    case tag::SendReceiveLocalMessage: // tag, sender proc, thread, recv proc, inport
        n[0] = p[0];
        for (int i = 0; i < 4; ++i)
            n[1 + i] = readU32(p + 1 + 4 * i);
        return p + 17;
    case tag::TickyCounterSample:
        for (int i = 0; i < 4; ++i)
            n[i] = readU64(p + 8 * i);
        return p + 32;
    case tag::NonmovingHeapCensus:
        if (layout >= 14) {
            n[0] = readU16(p);
            p += 2;
        } else {
            n[0] = p[0];
            p += 1;
        }
        for (int i = 0; i < 3; ++i)
            n[1 + i] = readU32(p + 4 * i);
        return p + 12;
    default: // zero-size events
        return p;
    }
}

// Variable layouts. Returns the end of the decoded fields, or nullptr when the
// payload is too short for the mandatory fields.
const uint8_t* detail::decodeVariableFields(uint16_t t, const uint8_t* p, const uint8_t* end, Event& e)
{
    if (size_t(end - p) < LogFormat::minimumVariablePayload(t))
        return nullptr;
    uint64_t* n = e.n;
    std::string_view* s = e.s;
    switch (t) {
    case tag::LogMsg: case tag::UserMsg: case tag::Version: case tag::ProgramInvocation:
    case tag::UserMarker: case tag::UserBinaryMsg:
        s[0] = text(p, end);
        return end;
    case tag::RtsIdentifier: case tag::ProgramArgs: case tag::ProgramEnv:
    case tag::ThreadLabel: case tag::PerfName:
        n[0] = readU32(p);
        s[0] = text(p + 4, end);
        return end;
    case tag::InternString:
        s[0] = text(p, end - 4);
        n[0] = readU32(end - 4);
        return end;
    case tag::HeapProfBegin:
        n[0] = p[0];
        n[1] = readU64(p + 1);
        n[2] = readU32(p + 9);
        p += 13;
        for (int i = 0; i < 7; ++i)
            p = cstr(p, end, s[i]);
        return p;
    case tag::HeapProfCostCentre:
        n[0] = readU32(p);
        p += 4;
        for (int i = 0; i < 3; ++i)
            p = cstr(p, end, s[i]);
        if (p == end)
            return nullptr; // the flags byte is mandatory
        n[1] = p[0];
        return p + 1;
    case tag::HeapProfSampleCostCentre:
        n[0] = p[0];
        n[1] = readU64(p + 1);
        n[2] = p[9];
        return costCentreStack(p + 10, end, n[2], e);
    case tag::HeapProfSampleString:
        n[0] = p[0];
        n[1] = readU64(p + 1);
        return cstr(p + 9, end, s[0]);
    case tag::ProfSampleCostCentre:
        n[0] = readU32(p);
        n[1] = readU64(p + 4);
        n[2] = p[12];
        return costCentreStack(p + 13, end, n[2], e);
    case tag::Ipe:
        n[0] = readU64(p);
        p += 8;
        for (int i = 0; i < 6; ++i)
            p = cstr(p, end, s[i]);
        return p;
    case tag::TickyCounterDef:
        n[0] = readU64(p);
        n[1] = readU16(p + 8);
        p = cstr(p + 10, end, s[0]);
        p = cstr(p, end, s[1]);
        n[2] = 0;
        n[3] = size_t(end - p) >= 8;
        if (n[3]) {
            n[2] = readU64(p);
            p += 8;
        }
        n[4] = p < end;
        s[2] = {};
        if (n[4])
            p = cstr(p, end, s[2]);
        return p;
    default:
        return end;
    }
}

} // namespace hecscope
