#include "core/compare/comparison.h"

#include "core/report/info.h"
#include "core/text/units.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fnmatch.h>
#include <map>
#include <set>

namespace hecscope {
namespace {

std::string printf1(const char* format, double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

bool endsWith(const std::string& s, std::string_view suffix)
{
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The name that says a figure's unit: a one-figure row's key ("run":
// time.total_ns), else the figure's.
const std::string& unitName(const ComparedFigure& f)
{
    return f.figure == "value" ? f.key : f.figure;
}

bool isDuration(const std::string& figure)
{
    return endsWith(figure, "_ns");
}

bool isBytes(const std::string& figure)
{
    return endsWith(figure, "_bytes") || endsWith(figure, "_bytes_per_s");
}

// A JSON number: integral figures as integers, ratios with 6 significant
// digits (as `info --json`).
std::string jsonNumber(const std::optional<FigureValue>& v)
{
    if (!v)
        return "null";
    if (!std::isfinite(v->value))
        return "null";
    if (!v->real && std::abs(v->value) < 9.2e18)
        return std::to_string(int64_t(std::llround(v->value)));
    return printf1("%.6g", v->value);
}

std::string jsonReal(const std::optional<double>& v, bool integral)
{
    if (!v || !std::isfinite(*v))
        return "null";
    if (integral && std::abs(*v) < 9.2e18)
        return std::to_string(int64_t(std::llround(*v)));
    return printf1("%.6g", *v);
}

std::string csvNumber(const std::optional<double>& v, bool integral)
{
    const std::string s = jsonReal(v, integral);
    return s == "null" ? std::string() : s;
}

bool glob(const std::string& pattern, const std::string& text)
{
    return pattern.empty() || ::fnmatch(pattern.c_str(), text.c_str(), 0) == 0;
}

// "1.5MB", "512KB", "3GB", "100B", "100": bytes (decimal units).
std::optional<double> parseBytes(std::string_view text)
{
    std::string s(text);
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (end == s.c_str())
        return std::nullopt;
    const std::string unit = end;
    static const std::pair<const char*, double> units[] = {{"", 1}, {"B", 1}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9},
                                                            {"KiB", 1024.0}, {"MiB", 1048576.0}, {"GiB", 1073741824.0}};
    for (const auto& [name, factor] : units)
        if (unit == name)
            return v * factor;
    return std::nullopt;
}

std::string withArticle(const std::string& noun)
{
    return (!noun.empty() && std::strchr("aeiouAEIOU", noun[0]) ? "an " : "a ") + noun;
}

std::string joined(const std::vector<std::string>& words)
{
    std::string s;
    for (const std::string& w : words)
        s += (s.empty() ? "" : ", ") + w;
    return s;
}

} // namespace

std::optional<double> ComparedFigure::difference() const
{
    if (!both())
        return std::nullopt;
    return b->value - a->value;
}

std::optional<double> ComparedFigure::ratio() const
{
    if (!both() || a->value == 0)
        return std::nullopt;
    return b->value / a->value;
}

std::string formatFigure(const std::string& figure, double value, bool real, bool signedValue)
{
    const std::string sign = signedValue ? (value > 0 ? "+" : value < 0 ? "-" : "") : (value < 0 ? "-" : "");
    const double magnitude = std::abs(value);
    if (figure == "share" || endsWith(figure, "productivity"))
        return (signedValue && value > 0 ? "+" : "") + printf1("%.2f%%", value * 100);
    if (figure == "byte_seconds")
        return sign + formatBytes(magnitude, "*s");
    if (real && !isBytes(figure))
        return (signedValue && value > 0 ? "+" : "") + printf1("%.4g", value);
    if (isDuration(figure))
        return sign + formatDuration(uint64_t(std::llround(magnitude)), UnitStyle::Ascii);
    if (isBytes(figure))
        return sign + formatBytes(magnitude, endsWith(figure, "_per_s") ? "/s" : "");
    return sign + formatGrouped(uint64_t(std::llround(magnitude)));
}

Comparison compareRuns(const RunFigures& a, const RunFigures& b)
{
    Comparison c;
    // The groups in A's order, then B's own.
    std::vector<std::string> groups;
    for (const RunFigures* run : {&a, &b})
        for (const FigureTable& t : run->tables)
            if (std::find(groups.begin(), groups.end(), t.group) == groups.end())
                groups.push_back(t.group);
    std::vector<std::string> onlyIn[2]; // groups only A has, only B has
    for (const std::string& group : groups) {
        const FigureTable* ta = a.table(group);
        const FigureTable* tb = b.table(group);
        if (!ta || !tb)
            onlyIn[ta ? 0 : 1].push_back(group);
        std::vector<std::string> columns;
        for (const FigureTable* t : {ta, tb})
            if (t)
                for (const std::string& col : t->columns)
                    if (std::find(columns.begin(), columns.end(), col) == columns.end())
                        columns.push_back(col);
        std::vector<std::string> keys;
        std::map<std::string, const FigureTable::Row*> rowsA, rowsB;
        for (const auto& [t, rows] : {std::pair{ta, &rowsA}, std::pair{tb, &rowsB}})
            if (t)
                for (const FigureTable::Row& r : t->rows) {
                    if (!rowsA.count(r.key) && !rowsB.count(r.key))
                        keys.push_back(r.key);
                    rows->emplace(r.key, &r);
                }
        const auto value = [&](const FigureTable* t, const std::map<std::string, const FigureTable::Row*>& rows,
                               const std::string& key, const std::string& column) -> std::optional<FigureValue> {
            if (!t)
                return std::nullopt;
            const auto row = rows.find(key);
            const auto col = std::find(t->columns.begin(), t->columns.end(), column);
            if (row == rows.end() || col == t->columns.end())
                return std::nullopt;
            return row->second->values[size_t(col - t->columns.begin())];
        };
        // A .hp file cuts long band names ("main/buildC..."): such a key
        // stands for the one key of the other run that it begins.
        if (group == "heap" && ta && tb)
            for (auto* rows : {&rowsA, &rowsB}) {
                auto& other = rows == &rowsA ? rowsB : rowsA;
                std::vector<std::pair<std::string, std::string>> renames; // cut key -> full key
                for (const auto& [key, row] : *rows) {
                    if (other.count(key) || key.size() < 4 || key.compare(key.size() - 3, 3, "...") != 0)
                        continue;
                    const std::string prefix = key.substr(0, key.size() - 3);
                    std::string match;
                    int matches = 0;
                    for (const auto& [full, r] : other)
                        if (full.compare(0, prefix.size(), prefix) == 0 && !rows->count(full)) {
                            match = full;
                            ++matches;
                        }
                    if (matches == 1)
                        renames.emplace_back(key, match);
                }
                for (const auto& [cut, full] : renames) {
                    (*rows)[full] = (*rows)[cut];
                    rows->erase(cut);
                    std::replace(keys.begin(), keys.end(), cut, full);
                }
            }
        // (A renamed key may now appear twice in `keys`.)
        {
            std::set<std::string> once;
            std::erase_if(keys, [&](const std::string& k) { return !once.insert(k).second; });
        }
        size_t onlyA = 0, onlyB = 0;
        for (const std::string& key : keys) {
            onlyA += rowsA.count(key) && !rowsB.count(key) ? 1 : 0;
            onlyB += rowsB.count(key) && !rowsA.count(key) ? 1 : 0;
            for (const std::string& column : columns)
                c.figures.push_back({group, key, column, value(ta, rowsA, key, column), value(tb, rowsB, key, column)});
        }
        if (ta && tb && (onlyA || onlyB))
            c.notes.push_back(group + ": " + std::to_string(onlyA) + " " + ta->keyName + (onlyA == 1 ? "" : "s")
                              + " only in A, " + std::to_string(onlyB) + " only in B (their figures have no counterpart)");
    }
    std::vector<std::string> groupNotes;
    for (int side = 0; side < 2; ++side)
        if (!onlyIn[side].empty())
            groupNotes.push_back(joined(onlyIn[side]) + ": only " + (side ? "B" : "A") + " has them; "
                                 + (side ? "A" : "B") + " (" + (side ? a : b).kind + ") has none to compare");
    c.notes.insert(c.notes.begin(), groupNotes.begin(), groupNotes.end());
    if (a.kind != b.kind)
        c.notes.push_back("A is " + withArticle(a.kind) + ", B " + withArticle(b.kind)
                          + ": only the figures both kinds have are compared");
    if (!a.rts.empty() && !b.rts.empty() && a.rts != b.rts)
        c.notes.push_back("the runs were made by different RTSs: A " + a.rts + ", B " + b.rts);
    for (const auto& [name, run] : {std::pair{"A", &a}, std::pair{"B", &b}}) {
        if (run->truncated)
            c.notes.push_back(std::string(name) + " is truncated: its figures end where the log ends");
        for (const std::string& p : run->problems)
            c.notes.push_back(std::string(name) + ": " + p);
    }
    return c;
}

std::optional<FigureCheck> parseFigureCheck(const std::string& text, std::string& error)
{
    const size_t colon = text.rfind(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 >= text.size()) {
        error = "a check is GROUP/KEY/FIGURE:THRESHOLD (e.g. run/time.total_ns:+10%), not '" + text + "'";
        return std::nullopt;
    }
    FigureCheck check;
    check.text = text;
    const std::string path = text.substr(0, colon);
    std::string limit = text.substr(colon + 1);
    std::vector<std::string> parts;
    for (size_t from = 0;;) {
        const size_t slash = path.find('/', from);
        parts.push_back(path.substr(from, slash == std::string::npos ? std::string::npos : slash - from));
        if (slash == std::string::npos)
            break;
        from = slash + 1;
    }
    if (parts.size() < 2 || parts.size() > 3 || parts[0].empty() || parts[1].empty()) {
        error = "'" + path + "' is not GROUP/KEY or GROUP/KEY/FIGURE (e.g. spans/*/p95_ns)";
        return std::nullopt;
    }
    check.group = parts[0];
    check.key = parts[1];
    check.figure = parts.size() == 3 ? parts[2] : std::string();
    if (limit[0] == '+' || limit[0] == '-') {
        check.direction = limit[0] == '+' ? 1 : -1;
        limit.erase(0, 1);
    }
    if (!limit.empty() && limit.back() == '%') {
        check.percent = true;
        limit.pop_back();
        char* end = nullptr;
        check.threshold = std::strtod(limit.c_str(), &end);
        if (limit.empty() || *end || !(check.threshold >= 0)) {
            error = "'" + text + "': the threshold is not a percentage";
            return std::nullopt;
        }
        return check;
    }
    // An amount: a duration for durations, bytes for bytes, else a number.
    std::optional<double> amount;
    if (isDuration(check.figure) || ((check.figure.empty() || check.figure == "value") && isDuration(check.key))) {
        if (const auto ns = parseTime(limit))
            amount = double(*ns);
    } else if (isBytes(check.figure) || ((check.figure.empty() || check.figure == "value") && isBytes(check.key))) {
        amount = parseBytes(limit);
    } else {
        char* end = nullptr;
        const double v = std::strtod(limit.c_str(), &end);
        if (!limit.empty() && !*end)
            amount = v;
    }
    if (!amount || !(*amount >= 0)) {
        error = "'" + text + "': the threshold '" + limit
            + "' is not a percentage or an amount in the figure's unit (a duration such as 2ms for _ns, "
              "bytes such as 1MB for _bytes, else a number)";
        return std::nullopt;
    }
    check.threshold = *amount;
    return check;
}

CheckOutcome evaluateCheck(const FigureCheck& check, const Comparison& c)
{
    CheckOutcome out;
    out.check = &check;
    for (size_t i = 0; i < c.figures.size(); ++i) {
        const ComparedFigure& f = c.figures[i];
        if (!glob(check.group, f.group) || !glob(check.key, f.key) || !glob(check.figure, f.figure))
            continue;
        if (!f.both()) {
            if (f.a || f.b)
                out.oneRunOnly.push_back(i);
            continue;
        }
        ++out.compared;
        const double change = *f.difference() * double(check.direction == 0 ? 1 : check.direction);
        const double amount = check.direction == 0 ? std::abs(change) : change;
        double limit = check.threshold;
        if (check.percent) {
            limit = std::abs(f.a->value) * check.threshold / 100;
            // From 0, any change is an unbounded percentage.
            if (f.a->value == 0 && amount > 0) {
                out.failed.push_back(i);
                continue;
            }
        }
        if (amount > limit)
            out.failed.push_back(i);
    }
    return out;
}

std::string checkText(const CheckOutcome& o, const Comparison& c)
{
    std::string out;
    if (o.compared == 0) {
        out = "check " + o.check->text + ": no figure that both runs have matches it";
        if (!o.oneRunOnly.empty())
            out += " (" + std::to_string(o.oneRunOnly.size()) + " in one run only)";
        return out + "\n";
    }
    if (o.failed.empty())
        return "check " + o.check->text + ": passed (" + std::to_string(o.compared) + " figure"
            + (o.compared == 1 ? "" : "s") + ")\n";
    for (size_t i : o.failed) {
        const ComparedFigure& f = c.figures[i];
        const bool real = f.a->real || f.b->real;
        std::string change;
        if (const auto r = f.ratio())
            change = printf1("%+.1f%%", (*r - 1) * 100);
        else
            change = "from 0";
        out += "check " + o.check->text + " failed: " + f.group + "/" + f.key + "/" + f.figure + " "
            + formatFigure(unitName(f), f.a->value, real) + " -> " + formatFigure(unitName(f), f.b->value, real) + " ("
            + formatFigure(unitName(f), *f.difference(), real, true) + ", " + change + ")\n";
    }
    return out;
}

std::string comparisonText(const RunFigures& a, const RunFigures& b, const Comparison& c, const std::string& scope)
{
    std::string out;
    out += "A: " + a.file + " (" + a.kind + (a.rts.empty() ? "" : ", " + a.rts) + ")\n";
    out += "B: " + b.file + " (" + b.kind + (b.rts.empty() ? "" : ", " + b.rts) + ")\n";
    out += "compared: " + scope + "\n";
    for (const std::string& n : c.notes)
        out += "note: " + n + "\n";
    std::string group, key;
    char line[1024];
    size_t zeros = 0;
    for (const ComparedFigure& f : c.figures) {
        // (A table is long: what is 0 or absent in both runs is left out.)
        if (!f.listed()) {
            ++zeros;
            continue;
        }
        if (f.group != group) {
            group = f.group;
            key.clear();
            std::snprintf(line, sizeof line, "\n%-44s %14s %14s %14s %8s\n", group.c_str(), "A", "B", "B-A", "B/A");
            out += line;
        }
        const bool real = (f.a && f.a->real) || (f.b && f.b->real);
        const auto shown = [&](const std::optional<FigureValue>& v) {
            return v ? formatFigure(unitName(f), v->value, real) : std::string("-");
        };
        const std::optional<double> d = f.difference(), r = f.ratio();
        std::string name;
        if (f.figure == "value") {
            name = "  " + f.key;
        } else {
            if (f.key != key)
                out += "  " + f.key + "\n";
            name = "    " + f.figure;
        }
        key = f.key;
        std::snprintf(line, sizeof line, "%-44s %14s %14s %14s %8s\n", name.c_str(), shown(f.a).c_str(),
                      shown(f.b).c_str(), d ? formatFigure(unitName(f), *d, real, true).c_str() : "",
                      r ? printf1("%.3f", *r).c_str() : "");
        out += line;
    }
    if (zeros)
        out += "\n(" + std::to_string(zeros) + " figures that are 0 or absent in both runs are left out; --csv and --json list them)\n";
    return out;
}

std::string comparisonCsv(const Comparison& c)
{
    std::string out = "group,key,figure,a,b,difference,ratio\n";
    for (const ComparedFigure& f : c.figures) {
        const bool integral = !((f.a && f.a->real) || (f.b && f.b->real));
        out += csvField(f.group) + ',' + csvField(f.key) + ',' + csvField(f.figure) + ','
            + csvNumber(f.a ? std::optional(f.a->value) : std::nullopt, integral) + ','
            + csvNumber(f.b ? std::optional(f.b->value) : std::nullopt, integral) + ','
            + csvNumber(f.difference(), integral) + ',' + csvNumber(f.ratio(), false) + '\n';
    }
    return out;
}

std::string comparisonJson(const RunFigures& a, const RunFigures& b, const Comparison& c,
                           std::optional<ViewRange> rangeA, std::optional<ViewRange> rangeB,
                           const std::vector<CheckOutcome>& checks)
{
    const auto run = [](const RunFigures& r) {
        std::string s = "{\"file\": " + jsonString(r.file) + ", \"kind\": " + jsonString(r.kind) + ", \"rts\": "
            + (r.rts.empty() ? std::string("null") : jsonString(r.rts)) + ", \"truncated\": "
            + (r.truncated ? "true" : "false") + ", \"error\": " + (r.error ? "true" : "false") + "}";
        return s;
    };
    const auto range = [](const std::optional<ViewRange>& r) {
        return r ? "{\"start_ns\": " + std::to_string(r->start) + ", \"end_ns\": " + std::to_string(r->end) + "}"
                 : std::string("null");
    };
    std::string o = "{\n  \"a\": " + run(a) + ",\n  \"b\": " + run(b) + ",\n  \"range\": ";
    o += !rangeA && !rangeB ? std::string("null")
                            : "{\"a\": " + range(rangeA) + ", \"b\": " + range(rangeB) + "}";
    o += ",\n  \"notes\": [";
    for (size_t i = 0; i < c.notes.size(); ++i)
        o += (i ? ", " : "") + jsonString(c.notes[i]);
    o += "],\n  \"figures\": [";
    for (size_t i = 0; i < c.figures.size(); ++i) {
        const ComparedFigure& f = c.figures[i];
        const bool integral = !((f.a && f.a->real) || (f.b && f.b->real));
        o += i ? ",\n    " : "\n    ";
        o += "{\"group\": " + jsonString(f.group) + ", \"key\": " + jsonString(f.key) + ", \"figure\": "
            + jsonString(f.figure) + ", \"a\": " + jsonNumber(f.a) + ", \"b\": " + jsonNumber(f.b)
            + ", \"difference\": " + jsonReal(f.difference(), integral) + ", \"ratio\": " + jsonReal(f.ratio(), false)
            + "}";
    }
    o += c.figures.empty() ? "]" : "\n  ]";
    o += ",\n  \"checks\": [";
    for (size_t i = 0; i < checks.size(); ++i) {
        const CheckOutcome& k = checks[i];
        o += i ? ",\n    " : "\n    ";
        o += "{\"check\": " + jsonString(k.check->text) + ", \"passed\": " + (k.passed() ? "true" : "false")
            + ", \"compared\": " + std::to_string(k.compared) + ", \"failed\": [";
        for (size_t j = 0; j < k.failed.size(); ++j) {
            const ComparedFigure& f = c.figures[k.failed[j]];
            o += (j ? ", " : "") + jsonString(f.group + "/" + f.key + "/" + f.figure);
        }
        o += "]}";
    }
    o += checks.empty() ? "]\n}\n" : "\n  ]\n}\n";
    return o;
}

std::string differentialFolded(const CostCentreProfile& a, const CostCentreProfile& b)
{
    struct Stack {
        std::string text;
        uint64_t self[2] = {0, 0};
    };
    std::vector<Stack> stacks;
    std::map<std::vector<std::pair<std::string, std::string>>, size_t> at; // (module, label) frames
    const CostCentreProfile* runs[2] = {&a, &b};
    for (int side = 0; side < 2; ++side) {
        const CostCentreProfile& p = *runs[side];
        std::vector<uint32_t> path;
        for (uint32_t i = 1; i < p.nodes.size(); ++i) {
            const ProfileNode& n = p.nodes[i];
            path.resize(n.depth - 1);
            path.push_back(i);
            const uint64_t v = n.self[int(ProfileMetric::Time)];
            if (v == 0)
                continue;
            std::vector<std::pair<std::string, std::string>> frames;
            std::string text;
            for (size_t k = 0; k < path.size(); ++k) {
                const uint32_t cc = p.nodes[path[k]].cc;
                const std::string label = cc == kNoCostCentre ? std::string("<root>") : p.costCentres[cc].label;
                frames.emplace_back(cc == kNoCostCentre ? std::string() : p.costCentres[cc].module, label);
                text += (k ? ";" : "") + label;
            }
            auto [it, added] = at.emplace(std::move(frames), stacks.size());
            if (added)
                stacks.push_back({std::move(text), {0, 0}});
            stacks[it->second].self[side] += v;
        }
    }
    std::string out;
    for (const Stack& s : stacks)
        out += s.text + ' ' + std::to_string(s.self[0]) + ' ' + std::to_string(s.self[1]) + '\n';
    return out;
}

namespace {

// Each node's stack as a key: its frames' modules and labels, outermost
// first.
std::vector<std::string> stackKeys(const CostCentreProfile& p)
{
    std::vector<std::string> keys(p.nodes.size());
    std::vector<uint32_t> path;
    for (uint32_t i = 1; i < p.nodes.size(); ++i) {
        const ProfileNode& n = p.nodes[i];
        path.resize(n.depth - 1);
        const std::string& parent = path.empty() ? keys[0] : keys[path.back()];
        path.push_back(i);
        std::string key = parent;
        key += '\x1f';
        if (n.cc != kNoCostCentre) {
            key += p.costCentres[n.cc].module;
            key += '\x1e';
            key += p.costCentres[n.cc].label;
        }
        keys[i] = std::move(key);
    }
    return keys;
}

} // namespace

std::vector<int64_t> matchedInclusive(const CostCentreProfile& shown, const CostCentreProfile& other,
                                      ProfileMetric metric)
{
    std::map<std::string, int64_t> inOther;
    const std::vector<std::string> otherKeys = stackKeys(other);
    for (uint32_t i = 0; i < other.nodes.size(); ++i)
        inOther[otherKeys[i]] += int64_t(other.nodes[i].incl[int(metric)]);
    const std::vector<std::string> keys = stackKeys(shown);
    std::vector<int64_t> out(shown.nodes.size(), -1);
    for (uint32_t i = 0; i < shown.nodes.size(); ++i)
        if (const auto it = inOther.find(keys[i]); it != inOther.end())
            out[i] = it->second;
    return out;
}

} // namespace hecscope
