#pragma once

#include "core/format/event.h"
#include "core/format/logformat.h"

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace hecscope {

// Writes eventlogs in GHC's format: the header, then event records, blocks and
// the end-of-data marker. Fields are encoded with the layout the declarations
// select, by the same rules the decoder uses, and an event's `trailing` bytes
// (fields we do not know) are written back, so re-encoding a decoded log
// reproduces its bytes. Used by tests and to synthesise logs of any size.
class EventlogWriter {
public:
    explicit EventlogWriter(std::vector<EventTypeDecl> declarations);

    const LogFormat& format() const { return m_format; }
    // Appends one record: tag, time, [length], fields, trailing bytes. Fixed
    // payloads are padded with zeros (or cut) to the declared size; variable
    // ones are cut at 65535 bytes, the most the length field can say.
    void write(const Event& e);
    // Starts a block owned by `cap` (kNoCap: the global buffer); endBlock()
    // fills in its size and end time. Blocks do not nest.
    void beginBlock(uint16_t cap, uint64_t startTime);
    void endBlock(uint64_t endTime);
    void writeDataEnd();

    const std::vector<uint8_t>& bytes() const { return m_out; }
    std::vector<uint8_t> takeBytes() { return std::move(m_out); }

    // Declarations of every event type GHC 9.x writes (and the deprecated
    // and foreign ones), with GHC's descriptions and current sizes.
    static std::vector<EventTypeDecl> allDeclarations();

private:
    void appendFields(const Event& e);

    LogFormat m_format;
    std::vector<uint8_t> m_out;
    size_t m_blockStart = SIZE_MAX;
};

// An Event that owns its strings and cost-centre ids, for building events to
// encode. `n` gives the integer fields and `s` the text fields in wire order
// (see event.h).
struct OwnedEvent {
    Event event;
    std::vector<std::string> strings;
    std::vector<uint8_t> idBytes;

    OwnedEvent(uint16_t tag, uint64_t time, std::initializer_list<uint64_t> n = {},
               std::initializer_list<std::string_view> s = {},
               std::initializer_list<uint32_t> costCentres = {});
    OwnedEvent(const OwnedEvent&) = delete;
    OwnedEvent& operator=(const OwnedEvent&) = delete;
};

} // namespace hecscope
