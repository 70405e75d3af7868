#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace hecscope {

// Text kept for markers, messages, labels, ...: one arena, 12-byte refs.
struct TextRef {
    uint64_t offset = 0;
    uint32_t length = 0;
};

struct Message {
    enum Kind : uint8_t { Marker,
                          User,
                          Log,
                          Binary };
    uint64_t time = 0; // ns
    uint16_t cap = UINT16_MAX;
    Kind kind = User;
    uint32_t thread = 0; // the thread running on `cap` when it was written (0: none)
    TextRef text;
};

// What MessagesBuilder makes: markers and messages in log order, their
// text in one arena (messagesByTime by prepareForDrawing).
struct MessagesPart {
    std::vector<Message> messages;
    std::string text;                     // message arena
    std::vector<uint32_t> messagesByTime; // indices into messages

    std::string_view textOf(TextRef r) const { return {text.data() + r.offset, r.length}; }
    size_t partBytes() const // (LogIndex::memoryBytes)
    {
        return messages.capacity() * sizeof(Message) + text.capacity() + messagesByTime.capacity() * sizeof(uint32_t);
    }
};

} // namespace hecscope
