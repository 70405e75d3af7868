#pragma once

#include "core/profile/profile.h"

#include <optional>
#include <string>
#include <string_view>

namespace hecscope {

// The reports a profiled GHC program writes at exit, read into a
// CostCentreProfile (pre-order tree under a synthetic root whose child is
// the report's MAIN; finishTree done):
//
// readProfText: the `.prof` text of `+RTS -p` (percentages only: unit
//   PercentTenths, self = individual %time/%alloc in tenths, with a
//   warning) or `+RTS -P` (ticks and bytes columns: unit Ticks/Bytes). The
//   call tree is the profile; the flat per-cost-centre table before it is
//   read too and becomes the profile (`flat`: one node per row under the
//   root, self = the row's own figures, no entries) when the tree is cut,
//   unreadable or missing, the error then saying so ("the call tree stops
//   here: ...; showing the flat per-cost-centre table (13 cost centres);
//   call stacks not available"). GHC lists only the larger cost centres in
//   that table: a warning gives its total against the header's. Columns are
//   found by each table's header line and read from the right, since SRC may
//   contain spaces. Cost centres are deduplicated by (label, module, src)
//   and numbered 0, 1, ... in order of appearance (the text has no ids;
//   "no." is a stack number and goes to ProfileNode::number).
// readProfJson: the `-pj` JSON. GHC 9.0.2 escapes only backslashes and
//   newlines (in labels and arguments) and writes quotes, tabs, modules and
//   source locations raw, so the reader is lenient: a string ends at a quote
//   followed (after spaces) by , } ] or :, and is unescaped only when every
//   backslash in it starts a valid JSON escape (a raw "C:\dir" stays as
//   written; a raw "C:\bin" would become a backspace). Unknown keys are
//   skipped. Cost-centre ids are the JSON's.
//
// Never throws. A cut or malformed report keeps everything read before the
// problem and says where it is in `error` (text: 1-based line and the
// line's byte offset; JSON: byte offset of the token, and its line). Not a
// report at all (empty, another format): error at offset 0, no nodes.
// Linear in the input; allocates per cost centre, not per line.
CostCentreProfile readProfText(std::string_view text);
CostCentreProfile readProfJson(std::string_view text);
// Either, by the first non-space byte ('{' = JSON).
CostCentreProfile readProfReport(std::string_view text);

// For opening by content, given the first bytes of a file (1 KiB or more):
// a `.prof`'s first line is "\t<date> Time and Allocation Profiling Report
// (Final)"; a `-pj` report starts with '{' and names "program" and
// "cost_centres" early on.
bool looksLikeProfReport(std::string_view firstBytes);

// A report file read whole and parsed (the window, `profile`, `export` and
// `bench` all open reports this way): the profile (with its `error` when
// the report is cut or malformed), or no profile and `error` saying why
// (the file cannot be read, or is not a report).
struct ProfReportFile {
    std::optional<CostCentreProfile> profile;
    std::string error;
    uint64_t bytes = 0;
};
ProfReportFile readProfReportFile(const std::string& path);

} // namespace hecscope
