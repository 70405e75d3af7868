#pragma once

#include "core/index/loadobserver.h"
#include "core/index/logindex.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace hecscope {

// Reads a .hp heap profile (format in hpfile.h) from chunks of any size,
// fed in order: complete lines are read as they arrive, only a partial
// last line is kept (so memory holds the index, not the text). Diagnostics
// name the byte offset of the offending line from the start of the text,
// exactly as if the whole text had been read at once. One thread.
class HpFileReader {
public:
    HpFileReader();
    void feed(std::string_view chunk);
    // The end of the text: reads a last line without a newline, drops an
    // incomplete sample and prepares the index for drawing. Null when
    // `observer` cancelled the preparation.
    std::unique_ptr<LogIndex> finish(const LoadObserver* observer = nullptr);

    // A file still being written: what is read so far, as finish() would
    // give it for the text cut after the last complete sample (an open
    // sample and a partial last line left out, and no diagnostic for them:
    // they are still coming). The reader goes on. Null when `observer`
    // cancelled the preparation.
    std::unique_ptr<LogIndex> snapshot(const LoadObserver* observer = nullptr) const;
    // Bytes fed after the last line read outside a sample: an open sample
    // and a partial line, not yet in a snapshot.
    uint64_t pendingBytes() const { return m_bytes - m_settled; }
    // A line outside the format stopped reading (a diagnostic names it).
    bool stopped() const { return m_stopped; }

private:
    // `terminated`: the line had its newline.
    void readLine(std::string_view text, uint64_t offset, bool terminated);
    void readTerminated(std::string_view text, uint64_t offset);
    // Drops an open sample from `ix` (a copy of m_ix, or m_ix itself),
    // sets its extent (`bytes` read) and prepares it for drawing.
    bool complete(LogIndex& ix, uint64_t bytes, const LoadObserver* observer) const;
    void fail(DiagnosticKind kind, uint64_t offset, std::string detail);
    void addSample(std::string_view line, uint64_t offset);

    std::unique_ptr<LogIndex> m_ix;
    std::unordered_map<std::string, uint32_t> m_labels;
    std::vector<uint64_t> m_entryOf; // per label: its sample in the open census
    std::string m_tail;              // a line not yet ended by '\n'
    uint64_t m_tailOffset = 0;       // its offset in the text
    uint64_t m_bytes = 0;            // fed so far
    uint64_t m_settled = 0;          // the end of the last line read outside a sample
    double m_scale = 1e9;            // ns per SAMPLE_UNIT
    bool m_open = false;             // inside BEGIN_SAMPLE .. END_SAMPLE
    uint64_t m_openOffset = 0;
    size_t m_labelsAtOpen = 0; // labels before the open sample
    uint64_t m_complete = 0;   // samples read to their END_SAMPLE
    bool m_stopped = false;    // a malformed line: nothing more is read
    bool m_done = false;       // stopped, or cut: nothing more is read
};

} // namespace hecscope
