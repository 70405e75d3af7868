#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hecscope {

// A cost-centre profile from any source: the eventlog's PROF_SAMPLE_COST_CENTRE
// samples (for a range and a set of capabilities), a `.prof` text report
// (`+RTS -p`, with or without `-P`) or a `-pj` JSON report. One call tree,
// plain data; the views (flame graph, call tree, bottom-up, caller/callee,
// folded and CSV output) are computed from it by profileviews.h.

enum class ProfileSource : uint8_t { Eventlog, ProfText, ProfJson };

// What a node's figures count. Percent: a `.prof` written without -P has
// only percentages (individual %time and %alloc, one decimal); they are
// stored in tenths of a percent so that the views work unchanged.
enum class ProfileUnit : uint8_t { Samples, Ticks, Bytes, PercentTenths };

// Which figure is the width of a frame.
enum class ProfileMetric : uint8_t { Time = 0, Alloc = 1 };

struct ProfileCostCentre {
    uint32_t id = 0; // the RTS's cost-centre id (as in the eventlog, the .prof "no." column
                     // is a node number and not this; JSON "id")
    std::string label, module, srcLoc;
    bool caf = false;
    bool rts = false; // GC, IDLE, SYSTEM, PINNED, OVERHEAD_of, DONT_CARE (module MAIN in old
                      // RTSs; GHC 9.0.2: GC, IDLE, SYSTEM, SYSTEM, PROFILING, MAIN): time the
                      // RTS attributes to itself; the views can hide it with one switch
};

inline constexpr uint32_t kNoCostCentre = 0xffffffffu;

// One node of the call tree. Nodes are stored in pre-order; node 0 is the
// root, which has no cost centre (cc == kNoCostCentre); a node's subtree is
// [its index, end).
struct ProfileNode {
    uint32_t cc = kNoCostCentre; // index into CostCentreProfile::costCentres
    uint32_t parent = 0;         // node index (the root's parent is itself)
    uint32_t end = 0;            // one past the last node of the subtree
    uint32_t depth = 0;          // root 0, its children 1, ...
    uint64_t self[2] = {0, 0};   // by ProfileMetric: time (samples/ticks/tenths of %), alloc (bytes/tenths of %)
    uint64_t incl[2] = {0, 0};   // self plus every descendant's
    uint64_t entries = 0;        // .prof / JSON only
    uint32_t number = 0;         // .prof "no." column (0 when the source has none)
};

// The header of a .prof / JSON report; what an eventlog knows of it.
struct ProfileHeader {
    std::string program;        // "leak" (.prof: the first word of the command line)
    std::string commandLine;    // the whole line after "leak +RTS ..."
    std::string date;           // .prof: the first line's date, as written
    double totalTimeSeconds = 0;
    uint64_t totalTicks = 0;
    uint64_t tickIntervalUs = 0;
    uint32_t processors = 0;
    uint64_t totalAllocBytes = 0;
};

// Where a report stopped being readable: everything before is kept.
struct ProfileError {
    std::string message;   // names the problem ("expected 9 columns, found 4")
    uint64_t line = 0;     // 1-based line (.prof), 0 when not known
    uint64_t offset = 0;   // byte offset from the start of the file
    // One line for people: "line 12 (byte 830): expected ...".
    std::string text() const;
};

struct CostCentreProfile {
    ProfileSource source = ProfileSource::Eventlog;
    ProfileUnit unit[2] = {ProfileUnit::Samples, ProfileUnit::Bytes}; // by ProfileMetric
    bool hasMetric[2] = {true, false};  // an eventlog has no allocation figures
    bool hasEntries = false;
    ProfileHeader header;
    std::vector<ProfileCostCentre> costCentres;
    std::vector<ProfileNode> nodes; // pre-order, nodes[0] the root; never empty once built
    std::optional<ProfileError> error; // the report was cut or malformed there
    std::vector<std::string> warnings; // things said but not fatal (e.g. "percentages only")
    // A .prof whose call tree was cut or unreadable: its flat per-cost-centre table, one
    // node per cost centre under the root (self = the cost centre's own figures over all
    // its stacks), no call stacks, no entries.
    bool flat = false;

    bool percentOnly() const { return unit[0] == ProfileUnit::PercentTenths; }
    uint64_t total(ProfileMetric m) const { return nodes.empty() ? 0 : nodes[0].incl[int(m)]; }
};

// The report's error for people, with what is shown despite it:
// "line 44 (byte 3853): <message>; everything before it is <kept>" when the
// nodes read before it are shown; the message alone for a flat profile
// (it says what the flat table shows and what is missing); ": no figures to
// show" added when nothing was read. Empty without an error.
std::string problemText(const CostCentreProfile& p, const std::string& kept);

// The labels the RTS uses for its own time (see ProfileCostCentre::rts).
bool isRtsCostCentre(const std::string& label, const std::string& module);

// Fills end, depth and incl of every node from parent and self (nodes must be
// in pre-order, each parent before its children). Safe on a tree under
// construction: any order of appending children in pre-order works.
void finishTree(CostCentreProfile& p);

} // namespace hecscope
