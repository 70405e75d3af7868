#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace hecscope {

inline constexpr uint16_t kNoCap = 0xFFFF;        // "no capability" (global buffer)
inline constexpr uint16_t kVariableSize = 0xFFFF; // declared size of variable-length types

// One event-type declaration from the header, exactly as written in the file.
struct EventTypeDecl {
    uint16_t tag = 0;
    uint16_t size = 0; // payload bytes, or kVariableSize
    std::string description;
    std::string extra; // reserved "extra info" bytes; always empty from GHC

    bool isVariable() const { return size == kVariableSize; }
    bool operator==(const EventTypeDecl&) const = default;
};

// How STOP_THREAD status numbers are to be read (eventlog-format.md 1.6, 2.2).
enum class StopEncoding : uint8_t {
    Standard, // GHC >= 7.8.3 (USER_MARKER and HACK_BUG_T9003 declared)
    Ghc782,   // GHC 7.8.1/7.8.2: USER_MARKER declared, HACK_BUG_T9003 not
    Pre78,    // USER_MARKER not declared (GHC <= 7.6, 6.12)
};

// A STOP_THREAD status in the standard numbering (GHC 7.8.1/7.8.2 shifted
// codes 8 and up; eventlog-format.md 2.2).
uint64_t standardStopCode(uint64_t raw, StopEncoding encoding);

// What the decoder does with one tag, derived once from the header.
struct TagInfo {
    enum Kind : uint8_t { Undeclared, Fixed, Variable };
    Kind kind = Undeclared;
    bool known = false;       // a layout of ours applies; false: skip as unknown
    uint16_t payloadSize = 0; // Fixed: bytes really written (the 6.12 header lies)
    uint16_t layoutSize = 0;  // Fixed and known: size of the layout we decode
    int32_t declIndex = -1;   // last declaration of this tag (it wins, as in ghc-events)
};

// The immutable description of one log's header: declarations in file order
// plus the per-tag decoding table and era flags they imply. Built once per log;
// shared read-only by every decoder of that log (any thread).
class LogFormat {
public:
    LogFormat() = default;
    explicit LogFormat(std::vector<EventTypeDecl> declarations);

    const std::vector<EventTypeDecl>& declarations() const { return m_declarations; }
    const TagInfo& info(uint16_t tag) const
    {
        return tag < m_tagCount ? m_tags.data()[tag] : m_undeclared;
    }
    // Description of the last declaration of `tag`; empty if undeclared.
    const std::string& description(uint16_t tag) const;
    uint32_t maxDeclaredTag() const { return m_tagCount == 0 ? 0 : m_tagCount - 1; }
    bool isGhc612() const { return m_ghc612; }
    StopEncoding stopEncoding() const { return m_stopEncoding; }

    // Minimum payload bytes a known variable-size tag needs for its fixed part.
    static uint16_t minimumVariablePayload(uint16_t tag);

private:
    std::vector<EventTypeDecl> m_declarations;
    std::vector<TagInfo> m_tags; // indexed by tag, up to the largest declared tag
    uint32_t m_tagCount = 0;     // m_tags.size(), kept for the per-event lookup
    TagInfo m_undeclared;
    bool m_ghc612 = false;
    StopEncoding m_stopEncoding = StopEncoding::Standard;
};

} // namespace hecscope
