#include "core/format/encoder.h"

#include "core/format/eventtags.h"
#include "core/format/headerparser.h"

#include <algorithm>

namespace hecscope {
namespace {

void put(std::vector<uint8_t>& out, uint64_t v, int bytes)
{
    for (int i = bytes - 1; i >= 0; --i)
        out.push_back(uint8_t(v >> (8 * i)));
}

void patch(std::vector<uint8_t>& out, size_t at, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; ++i)
        out[at + size_t(i)] = uint8_t(v >> (8 * (bytes - 1 - i)));
}

// Field sequence of a known layout: '1' '2' '4' '8' integers taken from n[]
// in order; 'S' raw text and 'Z' NUL-terminated text from s[] in order; 'I'
// the cost-centre ids. The decoder (recorddecoder.cpp) reads the same layouts
// by hand for speed; the round-trip tests keep the two in agreement.
const char* fieldSpec(uint16_t t, uint16_t layout)
{
    switch (t) {
    case tag::CreateThread: case tag::RunThread: case tag::ThreadRunnable:
    case tag::RunSpark: case tag::CreateSparkThread: case tag::CapsetDelete:
    case tag::CreateProcess: case tag::KillProcess: case tag::ConcMarkEnd:
    case tag::MerReleaseContext:
        return "4";
    case tag::StopThread: return layout >= 10 ? "424" : "42";
    case tag::MigrateThread: case tag::StealSpark: case tag::ThreadWakeup:
    case tag::CapsetCreate: case tag::CapsetAssignCap: case tag::CapsetRemoveCap:
        return "42";
    case tag::Startup: case tag::SparkSteal: case tag::CapCreate: case tag::CapDelete:
    case tag::CapDisable: case tag::CapEnable: case tag::KillMachine:
    case tag::ConcUpdRemSetFlush:
        return "2";
    case tag::BlockMarker: return "482";
    case tag::OsProcessPid: case tag::OsProcessPpid: case tag::AssignThreadToProcess:
    case tag::NonmovingPrunedSegments:
        return "44";
    case tag::TaskDelete: case tag::MerStopParConjunction: case tag::MerStopParConjunct:
    case tag::MerFutWaitNosuspend: case tag::MerFutWaitSuspended: case tag::MerFutSignal:
    case tag::HeapProfSampleBegin: case tag::HeapProfSampleEnd: case tag::ProfBegin:
        return "8";
    case tag::SparkCounters: return "8888888";
    case tag::WallClockTime: return "484";
    case tag::MemReturn: return "4444";
    case tag::HeapBioProfSampleBegin: return "88";
    case tag::HeapAllocated: case tag::HeapSize: case tag::HeapLive: case tag::BlocksSize:
    case tag::PerfTracepoint:
        return "48";
    case tag::TaskMigrate: return "822";
    case tag::MerStartParConjunction: case tag::MerCreateSpark: case tag::MerFutCreate:
        return "84";
    case tag::PerfCounter: return "488";
    case tag::HeapInfoGhc: return "428888";
    case tag::GcStatsGhc: return layout >= 58 ? "428884888" : "42888488";
    case tag::TaskCreate: return "828";
    case tag::CreateMachine: return "28";
    case tag::SendMessage: return "144244";
    case tag::ReceiveMessage: return "1442444";
    case tag::SendReceiveLocalMessage: return "14444";
    case tag::TickyCounterSample: return "8888";
    case tag::NonmovingHeapCensus: return layout >= 14 ? "2444" : "1444";
    case tag::LogMsg: case tag::UserMsg: case tag::Version: case tag::ProgramInvocation:
    case tag::UserMarker: case tag::UserBinaryMsg:
        return "S";
    case tag::RtsIdentifier: case tag::ProgramArgs: case tag::ProgramEnv:
    case tag::ThreadLabel: case tag::PerfName:
        return "4S";
    case tag::InternString: return "S4";
    case tag::HeapProfBegin: return "184ZZZZZZZ";
    case tag::HeapProfCostCentre: return "4ZZZ1";
    case tag::HeapProfSampleCostCentre: return "181I";
    case tag::HeapProfSampleString: return "18Z";
    case tag::ProfSampleCostCentre: return "481I";
    case tag::Ipe: return "8ZZZZZZ";
    default: return "";
    }
}

} // namespace

EventlogWriter::EventlogWriter(std::vector<EventTypeDecl> declarations)
    : m_format(declarations)
{
    appendHeader(m_out, declarations);
}

void EventlogWriter::appendFields(const Event& e)
{
    if (e.tag == tag::TickyCounterDef) {
        put(m_out, e.n[0], 8);
        put(m_out, e.n[1], 2);
        for (int i = 0; i < 2; ++i) {
            m_out.insert(m_out.end(), e.s[i].begin(), e.s[i].end());
            m_out.push_back(0);
        }
        if (e.n[3])
            put(m_out, e.n[2], 8);
        if (e.n[4]) {
            m_out.insert(m_out.end(), e.s[2].begin(), e.s[2].end());
            m_out.push_back(0);
        }
        return;
    }
    size_t ni = 0;
    size_t si = 0;
    for (const char* f = fieldSpec(e.tag, m_format.info(e.tag).layoutSize); *f; ++f) {
        switch (*f) {
        case 'S': case 'Z': {
            const std::string_view s = e.s[si++];
            m_out.insert(m_out.end(), s.begin(), s.end());
            if (*f == 'Z')
                m_out.push_back(0);
            break;
        }
        case 'I':
            m_out.insert(m_out.end(), e.ids, e.ids + 4 * size_t(e.depth));
            break;
        default:
            put(m_out, e.n[ni++], *f - '0');
        }
    }
}

void EventlogWriter::write(const Event& e)
{
    const TagInfo& info = m_format.info(e.tag);
    put(m_out, e.tag, 2);
    put(m_out, e.time, 8);
    size_t lengthAt = 0;
    if (info.kind == TagInfo::Variable) {
        lengthAt = m_out.size();
        put(m_out, 0, 2);
    }
    const size_t payloadStart = m_out.size();
    if (info.known)
        appendFields(e);
    m_out.insert(m_out.end(), e.trailing.begin(), e.trailing.end());
    if (info.kind == TagInfo::Variable) {
        // The length field is 16 bits: cut what does not fit, as current RTSes
        // clip strings, so that the log stays decodable.
        if (m_out.size() - payloadStart > 0xFFFF)
            m_out.resize(payloadStart + 0xFFFF);
        patch(m_out, lengthAt, m_out.size() - payloadStart, 2);
    } else {
        m_out.resize(payloadStart + info.payloadSize, 0);
    }
}

void EventlogWriter::beginBlock(uint16_t cap, uint64_t startTime)
{
    m_blockStart = m_out.size();
    OwnedEvent marker(tag::BlockMarker, startTime, {0, 0, cap});
    write(marker.event);
}

void EventlogWriter::endBlock(uint64_t endTime)
{
    if (m_blockStart == SIZE_MAX)
        return;
    patch(m_out, m_blockStart + 10, m_out.size() - m_blockStart, 4);
    patch(m_out, m_blockStart + 14, endTime, 8);
    m_blockStart = SIZE_MAX;
}

void EventlogWriter::writeDataEnd()
{
    put(m_out, 0xFFFF, 2);
}

std::vector<EventTypeDecl> EventlogWriter::allDeclarations()
{
    struct Row {
        uint16_t tag;
        uint16_t size;
        const char* description;
    };
    // GHC's own descriptions (as in GHC 9.x headers), plus the deprecated,
    // Eden, Mercury and perf types so that every layout can be exercised.
    static const Row rows[] = {
        {0, 4, "Create thread"},
        {1, 4, "Run thread"},
        {2, 10, "Stop thread"},
        {3, 4, "Thread runnable"},
        {4, 6, "Migrate thread"},
        {8, 6, "Wakeup thread"},
        {9, 0, "Starting GC"},
        {10, 0, "Finished GC"},
        {11, 0, "Request sequential GC"},
        {12, 0, "Request parallel GC"},
        {15, 4, "Create spark thread"},
        {16, kVariableSize, "Log message"},
        {17, 2, "Create capabilities"},
        {18, 14, "Block marker"},
        {19, kVariableSize, "User message"},
        {20, 0, "GC idle"},
        {21, 0, "GC working"},
        {22, 0, "GC done"},
        {23, kVariableSize, "Version"},
        {24, kVariableSize, "Program invocation"},
        {25, 6, "Create capability set"},
        {26, 4, "Delete capability set"},
        {27, 6, "Add capability to capability set"},
        {28, 6, "Remove capability from capability set"},
        {29, kVariableSize, "RTS name and version"},
        {30, kVariableSize, "Program arguments"},
        {31, kVariableSize, "Program environment variables"},
        {32, 8, "Process ID"},
        {33, 8, "Parent process ID"},
        {34, 56, "Spark counters"},
        {35, 0, "Spark create"},
        {36, 0, "Spark dud"},
        {37, 0, "Spark overflow"},
        {38, 0, "Spark run"},
        {39, 2, "Spark steal"},
        {40, 0, "Spark fizzle"},
        {41, 0, "Spark GC"},
        {42, kVariableSize, "Intern string"},
        {43, 16, "Wall clock time"},
        {44, kVariableSize, "Thread label"},
        {45, 2, "Create capability"},
        {46, 2, "Delete capability"},
        {47, 2, "Disable capability"},
        {48, 2, "Enable capability"},
        {49, 12, "Total heap mem ever allocated"},
        {50, 12, "Current heap size"},
        {51, 12, "Current heap live data"},
        {52, 38, "Heap static parameters"},
        {53, 58, "GC statistics"},
        {54, 0, "Synchronise stop-the-world GC"},
        {55, 18, "Task create"},
        {56, 12, "Task migrate"},
        {57, 8, "Task delete"},
        {58, kVariableSize, "User marker"},
        {59, 0, "Empty event for bug #9003"},
        {60, 0, "Starting message receival"},
        {61, 0, "Finished message receival"},
        {62, 4, "Creating Process"},
        {63, 4, "Killing Process"},
        {64, 8, "Assigning thread to process"},
        {65, 10, "Creating machine"},
        {66, 2, "Killing machine"},
        {67, 19, "Sending message"},
        {68, 23, "Receiving message"},
        {69, 17, "Sending/Receiving local message"},
        {90, 16, "Memory return statistics"},
        {91, 12, "Current heap size (size of allocated blocks)"},
        {160, kVariableSize, "Start of heap profile"},
        {161, kVariableSize, "Cost center definition"},
        {162, 8, "Start of heap profile sample"},
        {163, kVariableSize, "Heap profile cost-centre sample"},
        {164, kVariableSize, "Heap profile string sample"},
        {165, 8, "End of heap profile sample"},
        {166, 16, "Start of heap profile (biographical) sample"},
        {167, kVariableSize, "Time profile cost-centre stack"},
        {168, 8, "Start of a time profile"},
        {169, kVariableSize, "Info Table Source Position"},
        {181, kVariableSize, "User binary message"},
        {200, 0, "Begin concurrent mark phase"},
        {201, 4, "End concurrent mark phase"},
        {202, 0, "Begin concurrent GC synchronisation"},
        {203, 0, "End concurrent GC synchronisation"},
        {204, 0, "Begin concurrent sweep"},
        {205, 0, "End concurrent sweep"},
        {206, 2, "Update remembered set flushed"},
        {207, 13, "Nonmoving heap census"},
        {208, 8, "Report the amount of segments pruned and remaining on the free list."},
        {210, kVariableSize, "Ticky-ticky entry counter definition"},
        {211, 32, "Ticky-ticky entry counter sample"},
        {212, 0, "Ticky-ticky entry counter begin sample"},
        {5, 4, "Run spark"},
        {6, 6, "Steal spark"},
        {7, 0, "Shutdown"},
        {100, 12, "Start a parallel conjunction"},
        {101, 8, "Stop a parallel conjunction"},
        {102, 8, "Stop a parallel conjunct"},
        {103, 12, "Create a spark for a parallel conjunct"},
        {104, 12, "Create a future"},
        {105, 8, "Wait on a future without suspending"},
        {106, 8, "Wait on a future by suspending"},
        {107, 8, "Signal a future"},
        {108, 0, "Looking for global work"},
        {109, 0, "Trying to steal a spark"},
        {110, 4, "Release a context"},
        {111, 0, "Engine going to sleep"},
        {112, 0, "Looking for a local spark"},
        {113, 0, "Calling main"},
        {140, kVariableSize, "perf event name"},
        {141, 20, "perf event counter"},
        {142, 12, "perf event tracepoint"},
    };
    std::vector<EventTypeDecl> out;
    for (const Row& r : rows)
        out.push_back(EventTypeDecl{r.tag, r.size, r.description, {}});
    std::sort(out.begin(), out.end(),
              [](const EventTypeDecl& a, const EventTypeDecl& b) { return a.tag < b.tag; });
    return out;
}

OwnedEvent::OwnedEvent(uint16_t tag, uint64_t time, std::initializer_list<uint64_t> n,
                       std::initializer_list<std::string_view> s,
                       std::initializer_list<uint32_t> costCentres)
{
    event.tag = tag;
    event.time = time;
    event.known = true;
    std::fill(std::begin(event.n), std::end(event.n), 0);
    std::copy(n.begin(), n.begin() + std::min<size_t>(n.size(), 10), event.n);
    strings.assign(s.begin(), s.end());
    for (size_t i = 0; i < strings.size() && i < 7; ++i)
        event.s[i] = strings[i];
    for (uint32_t id : costCentres)
        put(idBytes, id, 4);
    event.depth = uint16_t(costCentres.size());
    event.ids = idBytes.data();
}

} // namespace hecscope
