#pragma once

#include "core/compare/runfigures.h"

#include <optional>
#include <string>
#include <vector>

namespace hecscope {

// Two runs' figures matched: one entry per (group, key, figure) that either
// run has, A's order first, then what only B has.
struct ComparedFigure {
    std::string group, key, figure;
    std::optional<FigureValue> a, b;

    bool both() const { return a && b; }
    // Not 0 (or absent) in both runs: what the text and the tables list.
    bool listed() const { return (a && a->value != 0) || (b && b->value != 0); }
    // B − A, when both runs have the figure.
    std::optional<double> difference() const;
    // B / A, when both have it and A is not 0.
    std::optional<double> ratio() const;
};

struct Comparison {
    std::vector<ComparedFigure> figures;
    // What cannot be compared, and why: a group one run lacks, runs of
    // different kinds, a truncated or corrupt input, different RTSs or -N.
    std::vector<std::string> notes;
};

Comparison compareRuns(const RunFigures& a, const RunFigures& b);

// A regression check (`diff --fail-if`): GROUP/KEY/FIGURE (each part a
// glob: * and ?; a missing FIGURE is any), then ':' and the threshold:
// "+10%" fails when a figure grew by more than 10 % of A's value, "-5%"
// when it fell by more than 5 %, "10%" either way; without '%', an amount
// in the figure's unit (a duration such as "+2ms" for an _ns figure, bytes
// such as "+1MB" for a _bytes figure, else a plain number).
struct FigureCheck {
    std::string text; // as given
    std::string group, key, figure;
    int direction = 0; // +1 grew, -1 fell, 0 either
    double threshold = 0;
    bool percent = false;
};
// The check, or why it is not one (`error`).
std::optional<FigureCheck> parseFigureCheck(const std::string& text, std::string& error);

struct CheckOutcome {
    const FigureCheck* check = nullptr;
    size_t compared = 0;                    // figures it applied to (both runs have them)
    std::vector<size_t> failed;             // into Comparison::figures
    std::vector<size_t> oneRunOnly;         // figures it names that only one run has
    bool passed() const { return compared > 0 && failed.empty(); }
};
CheckOutcome evaluateCheck(const FigureCheck& check, const Comparison& comparison);

// Outputs of `hecscope diff`.
std::string comparisonText(const RunFigures& a, const RunFigures& b, const Comparison& c, const std::string& scope);
std::string comparisonCsv(const Comparison& c);
std::string comparisonJson(const RunFigures& a, const RunFigures& b, const Comparison& c,
                           std::optional<ViewRange> rangeA, std::optional<ViewRange> rangeB,
                           const std::vector<CheckOutcome>& checks);
// What a check found, for people (one line per failed figure, or why it
// passed or compared nothing).
std::string checkText(const CheckOutcome& outcome, const Comparison& c);

// Differential folded stacks (flamegraph.pl's difffolded format): one line
// per distinct stack of either profile, "frames a b", frames outermost
// first joined by ';' (each the cost centre's label, as `profile --folded`
// prints it), a and b its self figure in each run (0 where a run has no
// such stack). Stacks are matched by their frames' labels and modules.
std::string differentialFolded(const CostCentreProfile& a, const CostCentreProfile& b);

// Per node of `shown`: the inclusive figure (`metric`) of the node reached
// by the same stack of frames (labels and modules) in `other`, summed when
// several are; -1 where `other` has no such stack. What a differential
// flame graph colours `shown`'s frames by.
std::vector<int64_t> matchedInclusive(const CostCentreProfile& shown, const CostCentreProfile& other,
                                      ProfileMetric metric);

// A figure for people, by its name's unit (_ns: a duration, _bytes: bytes).
std::string formatFigure(const std::string& figure, double value, bool real, bool signedValue = false);

} // namespace hecscope
