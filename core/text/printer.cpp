#include "core/text/printer.h"

#include "core/format/eventtags.h"

#include <array>

namespace hecscope {
namespace {

using namespace std::string_view_literals;

// STOP_THREAD texts by standard status code (eventlog-format.md 3.3). Codes
// where ghc-events head aborts get the texts of the 0.18-0.21 releases.
constexpr std::array<std::string_view, 21> kStopTexts = {
    "No stop thread status"sv,                 // 0
    "heap overflow"sv,                         // 1
    "stack overflow"sv,                        // 2 (head appends the size)
    "thread yielding"sv,                       // 3
    "thread blocked"sv,                        // 4
    "thread finished"sv,                       // 5
    "making a foreign call"sv,                 // 6
    "blocked on an MVar"sv,                    // 7
    "blocked on black hole owned by thread "sv, // 8
    "blocked on I/O read"sv,                   // 9
    "blocked on I/O write"sv,                  // 10
    "blocked on threadDelay"sv,                // 11
    "blocked in STM retry"sv,                  // 12
    "blocked on asyncDoProc"sv,                // 13
    "blocked in a foreign call"sv,             // 14
    "blocked in a foreign call"sv,             // 15
    "blocked in throwTo"sv,                    // 16
    "thread migrating"sv,                      // 17
    "blocked in throwTo"sv,                    // 18
    "No stop thread status"sv,                 // 19
    "blocked reading an MVar"sv,               // 20
};

constexpr std::array<std::string_view, 4> kCapsetTypes = {
    "CapsetUnknown"sv, "CapsetCustom"sv, "CapsetOsProcess"sv, "CapsetClockDomain"sv};

constexpr std::array<std::string_view, 10> kBreakdowns = {
    ""sv, "cost centre"sv, "module"sv, "closure description"sv, "type description"sv,
    "retainer"sv, "biography"sv, "closure type"sv, "info table"sv, "era"sv};

constexpr std::array<std::string_view, 13> kEdenMessageTags = {
    "Ready"sv, "NewPE"sv, "PETIDS"sv, "Finish"sv, "FailPE"sv, "RFork"sv, "Connect"sv,
    "DataMes"sv, "Head"sv, "Constr"sv, "Part"sv, "Terminate"sv, "Packet"sv};

void appendEdenTag(uint64_t v, TextBuffer& out)
{
    if (v >= 0x50 && v - 0x50 < kEdenMessageTags.size()) {
        out.append(kEdenMessageTags[v - 0x50]);
    } else {
        out.append("UnknownTag("sv);
        out.appendDecimal(v);
        out.append(')');
    }
}

// ghc-events parses the IPE closure description as a decimal number.
void appendClosureDesc(std::string_view s, TextBuffer& out)
{
    size_t digits = 0;
    while (digits < s.size() && s[digits] >= '0' && s[digits] <= '9')
        ++digits;
    if (digits == 0) {
        out.append(s);
        return;
    }
    size_t start = 0;
    while (start + 1 < digits && s[start] == '0')
        ++start;
    out.append(s.substr(start, digits - start));
}

// Decodes one UTF-8 sequence at s[i]; returns its length (0 when invalid).
size_t utf8Sequence(std::string_view s, size_t i, uint32_t& cp)
{
    const auto b = [&](size_t k) { return static_cast<unsigned char>(s[i + k]); };
    const unsigned char c = b(0);
    size_t len;
    uint32_t min;
    if (c < 0x80) {
        cp = c;
        return 1;
    } else if ((c & 0xE0) == 0xC0) {
        len = 2, cp = c & 0x1F, min = 0x80;
    } else if ((c & 0xF0) == 0xE0) {
        len = 3, cp = c & 0x0F, min = 0x800;
    } else if ((c & 0xF8) == 0xF0) {
        len = 4, cp = c & 0x07, min = 0x10000;
    } else {
        return 0;
    }
    if (i + len > s.size())
        return 0;
    for (size_t k = 1; k < len; ++k) {
        if ((b(k) & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (b(k) & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return len;
}

// Haskell's isPrint for a code point: false for control (Cc), format (Cf),
// private use (Co), line/paragraph separators and noncharacters. Unassigned
// code points (Cn) outside the noncharacters are treated as printable.
bool isPrintable(uint32_t c)
{
    if (c < 0x20 || (c >= 0x7F && c < 0xA0))
        return false;
    if (c < 0xAD)
        return true;
    static constexpr std::array<std::pair<uint32_t, uint32_t>, 27> kNotPrintable = {{
        {0x00AD, 0x00AD}, {0x0600, 0x0605}, {0x061C, 0x061C}, {0x06DD, 0x06DD},
        {0x070F, 0x070F}, {0x0890, 0x0891}, {0x08E2, 0x08E2}, {0x180E, 0x180E},
        {0x200B, 0x200F}, {0x2028, 0x202E}, {0x2060, 0x2064}, {0x2066, 0x206F},
        {0xE000, 0xF8FF}, {0xFDD0, 0xFDEF}, {0xFEFF, 0xFEFF}, {0xFFF9, 0xFFFB},
        {0x110BD, 0x110BD}, {0x110CD, 0x110CD}, {0x13430, 0x1343F}, {0x1BCA0, 0x1BCA3},
        {0x1D173, 0x1D17A}, {0xE0001, 0xE0001}, {0xE0020, 0xE007F}, {0xF0000, 0xFFFFD},
        {0x100000, 0x10FFFD}, {0xFFFE, 0xFFFF}, {0x1FFFE, 0x1FFFF},
    }};
    if ((c & 0xFFFE) == 0xFFFE)
        return false;
    for (const auto& [lo, hi] : kNotPrintable)
        if (c >= lo && c <= hi)
            return false;
    return true;
}

constexpr std::array<std::string_view, 32> kAsciiNames = {
    "NUL"sv, "SOH"sv, "STX"sv, "ETX"sv, "EOT"sv, "ENQ"sv, "ACK"sv, "a"sv,
    "b"sv, "t"sv, "n"sv, "v"sv, "f"sv, "r"sv, "SO"sv, "SI"sv,
    "DLE"sv, "DC1"sv, "DC2"sv, "DC3"sv, "DC4"sv, "NAK"sv, "SYN"sv, "ETB"sv,
    "CAN"sv, "EM"sv, "SUB"sv, "ESC"sv, "FS"sv, "GS"sv, "RS"sv, "US"sv};

// Haskell showLitString of UTF-8 text (invalid bytes shown as U+FFFD).
void appendShownString(std::string_view s, TextBuffer& out)
{
    out.append('"');
    bool protectDigit = false; // previous escape was numeric
    bool protectH = false;     // previous escape was \SO
    for (size_t i = 0; i < s.size();) {
        uint32_t cp;
        size_t len = utf8Sequence(s, i, cp);
        if (len == 0) {
            cp = 0xFFFD;
            len = 1;
        }
        i += len;
        if ((protectDigit && cp >= '0' && cp <= '9') || (protectH && cp == 'H'))
            out.append("\\&"sv);
        protectDigit = protectH = false;
        if (cp > 0x7F) {
            out.append('\\');
            out.appendDecimal(cp);
            protectDigit = true;
        } else if (cp == 0x7F) {
            out.append("\\DEL"sv);
        } else if (cp == '"') {
            out.append("\\\""sv);
        } else if (cp == '\\') {
            out.append("\\\\"sv);
        } else if (cp >= 0x20) {
            out.append(char(cp));
        } else {
            out.append('\\');
            out.append(kAsciiNames[cp]);
            protectH = cp == 0x0E;
        }
    }
    out.append('"');
}

} // namespace

void appendShownStringVector(std::string_view v, TextBuffer& out)
{
    while (!v.empty() && v.back() == '\0')
        v.remove_suffix(1);
    out.append('[');
    for (;;) {
        const size_t nul = v.find('\0');
        appendShownString(v.substr(0, nul), out);
        if (nul == std::string_view::npos)
            break;
        out.append(',');
        v.remove_prefix(nul + 1);
    }
    out.append(']');
}

void appendPrintableBinary(std::string_view s, TextBuffer& out)
{
    for (size_t i = 0; i < s.size();) {
        uint32_t cp;
        const size_t len = utf8Sequence(s, i, cp);
        if (len == 0) {
            out.append('.');
            ++i;
            continue;
        }
        if (isPrintable(cp))
            out.append(s.substr(i, len));
        else
            out.append('.');
        i += len;
    }
}

EventPrinter::EventPrinter(const LogFormat& format, PrinterStyle style)
    : m_format(format)
    , m_style(style)
{
}

void EventPrinter::printHeader(TextBuffer& out) const
{
    out.append("Event Types:\n"sv);
    for (const auto& d : m_format.declarations()) {
        out.appendDecimal(d.tag);
        out.append(": "sv);
        out.append(d.description);
        if (d.isVariable()) {
            out.append(" (size variable)\n"sv);
        } else {
            out.append(" (size "sv);
            out.appendDecimal(d.size);
            out.append(")\n"sv);
        }
    }
    out.append("\nEvents:\n"sv);
}

void EventPrinter::printEvent(const Event& e, TextBuffer& out) const
{
    if (m_style == PrinterStyle::Legacy && e.tag == tag::BlockMarker && e.known)
        return;
    out.appendDecimal(e.time);
    out.append(": "sv);
    if (e.cap != kNoCap) {
        out.append("cap "sv);
        out.appendDecimal(e.cap);
        out.append(": "sv);
    }
    printText(e, out);
    out.append('\n');
}

void EventPrinter::printStopThread(const Event& e, TextBuffer& out) const
{
    out.append("stopping thread "sv);
    out.appendDecimal(e.n[0]);
    out.append(" ("sv);
    const uint64_t code = standardStopCode(e.n[1], m_format.stopEncoding());
    const bool shortLayout = e.layout < 10;
    if (code >= kStopTexts.size()) {
        out.append(kStopTexts[0]);
    } else if (code == 8 && shortLayout) {
        out.append("blocked on a black hole"sv);
    } else if (code == 18 && m_style == PrinterStyle::Legacy) {
        out.append("waiting for data to be globalised"sv); // ghc-events <= 0.17
    } else {
        out.append(kStopTexts[code]);
        if (code == 8)
            out.appendDecimal(e.n[2]);
        if (code == 2 && !shortLayout && m_style == PrinterStyle::Head) {
            out.append(", size "sv);
            out.appendDecimal(e.n[2]);
        }
    }
    out.append(')');
}

void EventPrinter::printCostCentreStack(const Event& e, TextBuffer& out) const
{
    out.append("cost centre stack "sv);
    for (size_t i = 0; i < e.depth; ++i) {
        if (i > 0)
            out.append(", "sv);
        out.appendDecimal(e.ccId(i));
    }
}

void EventPrinter::printText(const Event& e, TextBuffer& out) const
{
    const uint64_t* n = e.n;
    const std::string_view* s = e.s;
    const bool legacy = m_style == PrinterStyle::Legacy;
    if (!e.known) {
        out.append(m_format.description(e.tag));
        return;
    }
    auto num = [&](uint64_t v) { out.appendDecimal(v); };
    auto str = [&](std::string_view v) { out.append(v); };
    auto hex = [&](uint64_t v) { out.appendHex(v); };
    switch (e.tag) {
    case tag::CreateThread: str("creating thread "); num(n[0]); break;
    case tag::RunThread: str("running thread "); num(n[0]); break;
    case tag::StopThread: printStopThread(e, out); break;
    case tag::ThreadRunnable: str("thread "); num(n[0]); str(" is runnable"); break;
    case tag::MigrateThread: str("migrating thread "); num(n[0]); str(" to cap "); num(n[1]); break;
    case tag::RunSpark:
        if (!legacy) { str(m_format.description(e.tag)); break; }
        str("running a local spark"); break;
    case tag::StealSpark:
        if (!legacy) { str(m_format.description(e.tag)); break; }
        str("stealing a spark from cap "); num(n[1]); break;
    case tag::Shutdown:
        str(legacy ? "shutting down"sv : std::string_view(m_format.description(e.tag))); break;
    case tag::ThreadWakeup: str("waking up thread "); num(n[0]); str(" on cap "); num(n[1]); break;
    case tag::GcStart: str("starting GC"); break;
    case tag::GcEnd: str("finished GC"); break;
    case tag::RequestSeqGc: str("requesting sequential GC"); break;
    case tag::RequestParGc: str("requesting parallel GC"); break;
    case tag::CreateSparkThread: str("creating spark thread "); num(n[0]); break;
    case tag::LogMsg: case tag::UserMsg: str(s[0]); break;
    case tag::Startup: str("startup: "); num(n[0]); str(" capabilities"); break;
    case tag::BlockMarker:
        str("event block: cap "); num(n[2]); str(", end time: "); num(n[1]); str("\n"); break;
    case tag::GcIdle: str("GC idle"); break;
    case tag::GcWork: str("GC working"); break;
    case tag::GcDone: str("GC done"); break;
    case tag::Version: str("compiler version is "); str(s[0]); break;
    case tag::ProgramInvocation: str("program invocation: "); str(s[0]); break;
    case tag::CapsetCreate:
        str("created capset "); num(n[0]); str(" of type ");
        str(kCapsetTypes[n[1] < kCapsetTypes.size() ? n[1] : 0]); break;
    case tag::CapsetDelete: str("deleted capset "); num(n[0]); break;
    case tag::CapsetAssignCap: str("assigned cap "); num(n[1]); str(" to capset "); num(n[0]); break;
    case tag::CapsetRemoveCap: str("removed cap "); num(n[1]); str(" from capset "); num(n[0]); break;
    case tag::RtsIdentifier: str("capset "); num(n[0]); str(": RTS version \""); str(s[0]); str("\""); break;
    case tag::ProgramArgs:
        str("capset "); num(n[0]); str(": args: "); appendShownStringVector(s[0], out); break;
    case tag::ProgramEnv:
        str("capset "); num(n[0]); str(": env: "); appendShownStringVector(s[0], out); break;
    case tag::OsProcessPid: str("capset "); num(n[0]); str(": pid "); num(n[1]); break;
    case tag::OsProcessPpid: str("capset "); num(n[0]); str(": parent pid "); num(n[1]); break;
    case tag::SparkCounters: // wire order: created, dud, overflowed, converted, gcd, fizzled, remaining
        str("spark stats: "); num(n[0]); str(" created, "); num(n[3]); str(" converted, ");
        num(n[6]); str(" remaining ("); num(n[2]); str(" overflowed, "); num(n[1]);
        str(" dud, "); num(n[4]); str(" GC'd, "); num(n[5]); str(" fizzled)"); break;
    case tag::SparkCreate: str("spark created"); break;
    case tag::SparkDud: str("dud spark discarded"); break;
    case tag::SparkOverflow: str("overflowed spark discarded"); break;
    case tag::SparkRun: str("running a local spark"); break;
    case tag::SparkSteal: str("stealing a spark from cap "); num(n[0]); break;
    case tag::SparkFizzle: str("spark fizzled"); break;
    case tag::SparkGc: str("spark GCed"); break;
    case tag::InternString: str("Interned string: \""); str(s[0]); str("\" with id "); num(n[0]); break;
    case tag::WallClockTime:
        str("capset "); num(n[0]); str(": wall clock time "); num(n[1]); str("s ");
        num(n[2]); str("ns (unix epoch)"); break;
    case tag::ThreadLabel: str("thread "); num(n[0]); str(" has label \""); str(s[0]); str("\""); break;
    case tag::CapCreate: str("created cap "); num(n[0]); break;
    case tag::CapDelete: str("deleted cap "); num(n[0]); break;
    case tag::CapDisable: str("disabled cap "); num(n[0]); break;
    case tag::CapEnable: str("enabled cap "); num(n[0]); break;
    case tag::HeapAllocated:
        str("allocated on heap capset "); num(n[0]); str(": "); num(n[1]); str(" total bytes till now"); break;
    case tag::HeapSize: str("size of heap capset "); num(n[0]); str(": "); num(n[1]); str(" bytes"); break;
    case tag::BlocksSize:
        str("blocks size of heap capset "); num(n[0]); str(": "); num(n[1]); str(" bytes"); break;
    case tag::HeapLive: str("live data in heap capset "); num(n[0]); str(": "); num(n[1]); str(" bytes"); break;
    case tag::HeapInfoGhc:
        str("heap stats for heap capset "); num(n[0]); str(": generations "); num(n[1]); str(", ");
        num(n[2]); str(" bytes max heap size, "); num(n[3]); str(" bytes alloc area size, ");
        num(n[4]); str(" bytes mblock size, "); num(n[5]); str(" bytes block size"); break;
    case tag::GcStatsGhc:
        str("GC stats for heap capset "); num(n[0]); str(": generation "); num(n[1]); str(", ");
        num(n[2]); str(" bytes copied, "); num(n[3]); str(" bytes slop, "); num(n[4]);
        str(" bytes fragmentation, "); num(n[5]); str(" par threads, "); num(n[6]);
        str(" bytes max par copied, "); num(n[7]); str(" bytes total par copied");
        if (e.layout >= 58) { str(", "); num(n[8]); str(" bytes balanced par copied"); }
        break;
    case tag::GcGlobalSync: str("all caps stopped for GC"); break;
    case tag::TaskCreate:
        str("task 0x"); hex(n[0]); str(" created on cap "); num(n[1]);
        str(" with OS kernel thread "); num(n[2]); break;
    case tag::TaskMigrate:
        str("task 0x"); hex(n[0]); str(" migrated from cap "); num(n[1]); str(" to cap "); num(n[2]); break;
    case tag::TaskDelete: str("task 0x"); hex(n[0]); str(" deleted"); break;
    case tag::UserMarker: str("marker: "); str(s[0]); break;
    case tag::EdenStartReceive: str("starting to receive"); break;
    case tag::EdenEndReceive: str("stop receiving"); break;
    case tag::CreateProcess: str("creating process "); num(n[0]); break;
    case tag::KillProcess: str("killing process "); num(n[0]); break;
    case tag::AssignThreadToProcess:
        str("assigning thread "); num(n[0]); str(" to process "); num(n[1]); break;
    case tag::CreateMachine: str("creating machine "); num(n[0]); str(" at "); num(n[1]); break;
    case tag::KillMachine: str("killing machine "); num(n[0]); break;
    case tag::SendMessage:
        str("sending message with tag "); appendEdenTag(n[0], out); str(" from process "); num(n[1]);
        str(", thread "); num(n[2]); str(" to machine "); num(n[3]); str(", process "); num(n[4]);
        str(" on inport "); num(n[5]); break;
    case tag::ReceiveMessage:
        str("receiving message with tag "); appendEdenTag(n[0], out); str(" at process "); num(n[1]);
        str(", inport "); num(n[2]); str(" from machine "); num(n[3]); str(", process "); num(n[4]);
        str(", thread "); num(n[5]); str(" with size "); num(n[6]); break;
    case tag::SendReceiveLocalMessage:
        str("sending/receiving message with tag "); appendEdenTag(n[0], out); str(" from process ");
        num(n[1]); str(", thread "); num(n[2]); str(" to process "); num(n[3]); str(" on inport ");
        num(n[4]); break;
    case tag::MemReturn:
        str("memory returned (mblocks): current("); num(n[1]); str(") needed("); num(n[2]);
        str(") returned("); num(n[3]); str(")"); break;
    case tag::MerStartParConjunction:
        str("Start a parallel conjunction 0x"); hex(n[0]); str(", static_id: "); num(n[1]); break;
    case tag::MerStopParConjunction: str("End par conjunction: 0x"); hex(n[0]); break;
    case tag::MerStopParConjunct: str("End par conjunct: 0x"); hex(n[0]); break;
    case tag::MerCreateSpark:
        str("Create spark for conjunction: 0x"); hex(n[0]); str(" spark: 0x"); hex(n[1]); break;
    case tag::MerFutCreate: str("Create future 0x"); hex(n[0]); str(" named "); num(n[1]); break;
    case tag::MerFutWaitNosuspend: str("Wait didn't suspend for future: 0x"); hex(n[0]); break;
    case tag::MerFutWaitSuspended: str("Wait suspended on future: 0x"); hex(n[0]); break;
    case tag::MerFutSignal: str("Signaled future 0x"); hex(n[0]); break;
    case tag::MerLookingForGlobalContext: str("Looking for global thread to resume"); break;
    case tag::MerWorkStealing: str("Trying to steal a spark"); break;
    case tag::MerReleaseContext: str("Releasing thread "); num(n[0]); str(" to the free pool"); break;
    case tag::MerEngineSleeping: str("Capability going to sleep"); break;
    case tag::MerLookingForLocalSpark: str("Looking for a local spark to execute"); break;
    case tag::MerCallingMain: str("About to call the program entry point"); break;
    case tag::PerfName: str("perf event "); num(n[0]); str(" named \""); str(s[0]); str("\""); break;
    case tag::PerfCounter:
        str("perf event counter "); num(n[0]); str(" incremented by "); num(n[2] + 1);
        str(" in OS thread "); num(n[1]); break;
    case tag::PerfTracepoint:
        str("perf event tracepoint "); num(n[0]); str(" reached in OS thread "); num(n[1]); break;
    case tag::HeapProfBegin: {
        str("start heap profiling "); num(n[0]); str(" at sampling period "); num(n[1]);
        str(" broken down by ");
        if (n[2] >= 1 && n[2] < kBreakdowns.size()) {
            str(kBreakdowns[n[2]]);
        } else {
            str("unknown breakdown "); num(n[2]);
        }
        bool any = false;
        for (int i = 0; i < 7; ++i)
            any |= !s[i].empty();
        if (any) {
            str(" filtered by ");
            for (int i = 0; i < 7; ++i)
                if (!s[i].empty()) { str(s[i]); str(", "); }
        }
        break;
    }
    case tag::HeapProfCostCentre:
        str("cost centre "); num(n[0]); str(" "); str(s[0]); str(" in "); str(s[1]); str(" at ");
        str(s[2]);
        if (n[1] & 1)
            str(" CAF");
        break;
    case tag::Ipe:
        str("Info Table: "); hex(n[0]); str(":"); appendClosureDesc(s[1], out); str(":"); str(s[0]);
        str(" - "); str(s[5]); break;
    case tag::HeapProfSampleBegin: str("start heap prof sample "); num(n[0]); break;
    case tag::HeapProfSampleEnd: str("end prof sample "); num(n[0]); break;
    case tag::HeapBioProfSampleBegin:
        str("start heap prof sample "); num(n[0]); str(" at time "); num(n[1]); break;
    case tag::HeapProfSampleCostCentre:
        str("heap prof sample "); num(n[0]); str(", residency "); num(n[1]); str(", ");
        printCostCentreStack(e, out); break;
    case tag::HeapProfSampleString:
        str("heap prof sample "); num(n[0]); str(", residency "); num(n[1]); str(", label ");
        str(s[0]); break;
    case tag::ProfSampleCostCentre:
        str("cap no "); num(n[0] & 0xFFFF); str(", prof sample "); num(n[1]); str(", ");
        printCostCentreStack(e, out); break;
    case tag::ProfBegin: str("start time profiling, tick interval "); num(n[0]); str(" (ns)"); break;
    case tag::UserBinaryMsg: str("binary message "); appendPrintableBinary(s[0], out); break;
    case tag::ConcMarkBegin: str("concurrent mark began"); break;
    case tag::ConcMarkEnd: str("concurrent mark ended: marked "); num(n[0]); str(" objects"); break;
    case tag::ConcSyncBegin: str("post-mark synchronization began"); break;
    case tag::ConcSyncEnd: str("post-mark synchronization ended"); break;
    case tag::ConcSweepBegin: str("concurrent sweep began"); break;
    case tag::ConcSweepEnd: str("concurrent sweep ended"); break;
    case tag::ConcUpdRemSetFlush: str("update remembered set flushed by "); num(n[0]); break;
    case tag::NonmovingHeapCensus:
        str("nonmoving heap census ");
        num(e.layout >= 14 ? n[0] : (n[0] < 64 ? uint64_t(1) << n[0] : 0));
        str(": "); num(n[1]); str(" active segments, "); num(n[2]); str(" filled segments, ");
        num(n[3]); str(" live blocks"); break;
    case tag::NonmovingPrunedSegments:
        str("nonmoving segments pruned: "); num(n[0]); str(" pruned segments, "); num(n[1]);
        str(" free segments retained"); break;
    case tag::TickyCounterDef:
        str("ticky counter definition "); num(n[0]); str(", arity: "); num(n[1]);
        str(", def kinds: "); str(s[0]); str(", name: "); str(s[1]); str(", itbl: "); hex(n[2]); break;
    case tag::TickyCounterSample:
        str("ticky counter sample "); num(n[0]); str(": entry count: "); num(n[1]); str(", ");
        num(n[2]); str(" allocs, "); num(n[3]); str(" allocd"); break;
    case tag::TickyCounterBeginSample: str("ticky begin counter sample"); break;
    default: str(m_format.description(e.tag)); break;
    }
}

} // namespace hecscope
