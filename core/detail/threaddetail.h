#pragma once

#include "core/index/logindex.h"
#include "core/io/bytesource.h"
#include "core/threads/threadstats.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace hecscope {

// The thread state segments of a time range, read back from the file
// instead of kept in the index (issue #26): the thread events of every
// capability from the checkpoint at or before the range
// (ThreadCheckpoints) up to its end, walked by ThreadStatesBuilder's own
// walk, each thread's walk starting in its state at that checkpoint.
struct ThreadDetail {
    uint64_t from = 0, to = 0; // the range asked for, ns
    // Each thread with a segment in force in the range (ids ascending; not
    // the index's numbering: ThreadStates::find): the segment in force at
    // `from` (the last starting at or before it, else the thread's first)
    // and every later one starting before `to`, exactly as the index's
    // walk makes them; `states.end` is min(to, the log's end), so the last
    // segment ends there. No bin pyramids (rows take theirs from the index).
    ThreadStates states;
    // Whether every thread was read, else only `threads` (ascending ids:
    // the rest have no segments here, whatever they did in the range).
    bool everyThread = true;
    std::vector<uint32_t> threads;
    bool holds(uint32_t id) const { return everyThread || std::binary_search(threads.begin(), threads.end(), id); }
    std::string error;     // "" when read; else the problem and its byte offset (then `states` is empty)
    uint64_t bytesRead = 0; // of the file
    uint64_t events = 0;    // thread events decoded
};

// Reads the segments of [t0, t1) (empty when t1 <= t0) from `source`, the
// file `index` was made from; `threads`, if given, are the only thread ids
// wanted. Checks what it reads against the index's checkpoints: a file that
// was changed, truncated or replaced since gives an error, never other
// segments. Any thread (the index is only read).
ThreadDetail readThreadSegments(ByteSource& source, const LogIndex& index, uint64_t t0, uint64_t t1,
                                const std::vector<uint32_t>* threads = nullptr,
                                const std::function<bool()>& cancelled = {});

// About how many bytes of the file readThreadSegments decodes for
// [t0, t1): from the start checkpoint's crossings to the first crossings at
// or after t1 (the whole log when the index has no thread entries: then a
// read starts at its beginning). No I/O.
uint64_t threadDetailBytes(const LogIndex& index, uint64_t t0, uint64_t t1);

// The figures of every thread in `range` (nullopt: the whole run), as
// allThreadFigures counts them, reading the range's segments back from
// `source` when the index keeps some thread's in the file only. On a
// failure (the file changed, cancelled) empty, with `error` saying why.
// Reads the range `most` bytes of the file (threadDetailBytes) at a time,
// at least a checkpoint interval: what it holds at once does not grow
// with the range.
constexpr uint64_t kFiguresStretchBytes = uint64_t(32) << 20;
std::vector<ThreadFigures> threadFiguresIn(ByteSource* source, const LogIndex& ix, std::optional<ViewRange> range,
                                           const std::function<bool()>& cancelled = {}, std::string* error = nullptr,
                                           uint64_t most = kFiguresStretchBytes);

} // namespace hecscope
