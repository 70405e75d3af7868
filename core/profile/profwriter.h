#pragma once

#include "core/profile/profile.h"

#include <string>

namespace hecscope {

// Writes `p` as the `.prof` text report GHC 9.0.2 writes with `+RTS -P`: the
// header (date, command line, total time and alloc), the flat table of cost
// centres above 1 % of time or alloc (sorted by ticks, stable), and the call
// tree, one space of indentation per level, the columns padded as the RTS
// pads them (to the longest label plus indentation, module, source location
// and "no.", counted in UTF-8 code points). The root (node 0) is not
// written; its children are the top lines.
//
// Units: Samples and Ticks are both written as ticks; bytes are 0 when the
// profile has no allocation figures, entries 0 when it has none. A
// percentages-only profile (PercentTenths) is written in the `-p` layout,
// without the ticks and bytes columns; its inherited percentages are then
// the sums of the individual ones (GHC's, rounded from ticks, may differ by
// a tenth or so). "no." is ProfileNode::number, or a
// fresh pre-order number (1, 2, ...) for every node when some node has none.
// The header's total ticks and alloc are the tree's (what readProfText
// checks); total time is ticks x tick interval / processors, as GHC has it
// (1000 us and 1 processor when the header does not say).
//
// readProfText(writeProfText(p)) gives back p's tree: labels, modules,
// source locations, entries, ticks, bytes, numbers. Not representable, and
// so not given back: figures of the root itself, a label or module with a
// space in it (GHC's never have one), an empty label, module or source
// location (written "?", "?" and "<no location info>"), a node without a
// cost centre below the root (written as one with empty names).
//
// Byte for byte: the tree's lines equal GHC's when no cost-centre stack the
// RTS leaves out of the report (GC, IDLE, SYSTEM, OVERHEAD_of, DONT_CARE)
// is wider than those it prints; the flat table's widths may differ, since
// the RTS also pads it for such left-out cost centres.
std::string writeProfText(const CostCentreProfile& p);

} // namespace hecscope
