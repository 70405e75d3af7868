#pragma once

#include "core/index/logindex.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

namespace hecscope {

// GHC's textual heap profile (`prog.hp`, written by +RTS -h without -l):
// a header (JOB, DATE, SAMPLE_UNIT, VALUE_UNIT), then samples
//   BEGIN_SAMPLE <time> / <band>\t<bytes> ... / END_SAMPLE <time>
// and MARK <time> lines. Read into an index holding only the heap profile
// (censuses in file order, bands as written) and the marks as markers, so
// every view of a heap profile works on it. An incomplete last sample (the
// program was killed or is still running) is dropped with a diagnostic; a
// line outside the format stops reading there with a diagnostic naming it
// and its byte offset, keeping every complete sample before it.
// HpFileReader reads the same from chunks; parseHeapProfile reads a whole
// text at once.
bool looksLikeHeapProfile(std::span<const uint8_t> head);
std::unique_ptr<LogIndex> parseHeapProfile(std::string_view text);

} // namespace hecscope
