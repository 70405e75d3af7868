// GHC's cost-centre reports (`.prof` with and without -P, `-pj` JSON): the
// committed reports of testdata/profiles against independent readings of
// their lines, lenient JSON strings, reports cut everywhere or broken, and
// input that is no report at all.
#include "testsupport.h"

#include "core/profile/profreport.h"

#include <QElapsedTimer>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace hecscope;
using namespace hecscope::test;

namespace {

std::string profileFile(const char* name)
{
    return readText(QStringLiteral(HECSCOPE_TESTDATA_DIR "/profiles/") + QLatin1String(name));
}

struct Line {
    size_t start = 0, end = 0; // end: one past the '\n' (or the text's end)
    std::string text;          // without the '\n'
};

std::vector<Line> splitLines(const std::string& s)
{
    std::vector<Line> lines;
    size_t pos = 0;
    while (pos < s.size()) {
        size_t nl = s.find('\n', pos);
        size_t end = nl == std::string::npos ? s.size() : nl + 1;
        lines.push_back({pos, end, s.substr(pos, (nl == std::string::npos ? s.size() : nl) - pos)});
        pos = end;
    }
    return lines;
}

std::vector<std::string> tokens(const std::string& line)
{
    std::istringstream in(line);
    std::vector<std::string> out;
    for (std::string t; in >> t;)
        out.push_back(t);
    return out;
}

// The tree of a .prof, read independently: the lines after the header that
// names "no." and "entries" (and the blank line after it), up to a blank line.
std::vector<size_t> treeLines(const std::vector<Line>& lines)
{
    std::vector<size_t> out;
    size_t i = 0;
    while (i < lines.size() && !(lines[i].text.starts_with("COST CENTRE") && lines[i].text.find(" no. ") != std::string::npos))
        ++i;
    for (i += 2; i < lines.size() && !lines[i].text.empty(); ++i)
        out.push_back(i);
    return out;
}

// The flat per-cost-centre table, read independently: the lines after the
// first "COST CENTRE" header (the one without "no.") and its blank line,
// up to a blank line.
std::vector<size_t> flatLines(const std::vector<Line>& lines)
{
    std::vector<size_t> out;
    size_t i = 0;
    while (i < lines.size() && !lines[i].text.starts_with("COST CENTRE"))
        ++i;
    for (i += 2; i < lines.size() && !lines[i].text.empty(); ++i)
        out.push_back(i);
    return out;
}

int64_t lineOf(const std::string& s, size_t offset) // 1-based
{
    return int64_t(std::count(s.begin(), s.begin() + int64_t(std::min(offset, s.size())), '\n')) + 1;
}

size_t countIn(std::string_view s, std::string_view what)
{
    size_t n = 0;
    for (size_t p = s.find(what); p != std::string_view::npos; p = s.find(what, p + 1))
        ++n;
    return n;
}

uint64_t sumSelf(const CostCentreProfile& p, ProfileMetric m)
{
    uint64_t s = 0;
    for (const ProfileNode& n : p.nodes)
        s += n.self[int(m)];
    return s;
}

const ProfileCostCentre& ccOf(const CostCentreProfile& p, size_t node)
{
    return p.costCentres[p.nodes[node].cc];
}

// Same tree: shape, cost centres (label and id) and every figure.
void compareTrees(const CostCentreProfile& a, const CostCentreProfile& b)
{
    QCOMPARE(a.nodes.size(), b.nodes.size());
    for (size_t i = 1; i < a.nodes.size(); ++i) {
        QCOMPARE(a.nodes[i].parent, b.nodes[i].parent);
        QCOMPARE(a.nodes[i].self[0], b.nodes[i].self[0]);
        QCOMPARE(a.nodes[i].self[1], b.nodes[i].self[1]);
        QCOMPARE(a.nodes[i].entries, b.nodes[i].entries);
        QCOMPARE(ccOf(a, i).id, ccOf(b, i).id);
        QCOMPARE(ccOf(a, i).label, ccOf(b, i).label);
    }
}

} // namespace

class TestProfReport : public QObject {
    Q_OBJECT
private slots:
    void profWithTicks();
    void profSrcWithSpaces();
    void profPercentOnly();
    void json();
    void jsonLenientStrings();
    void profCut_data();
    void profCut();
    void profMalformedLine();
    void jsonCutAndBroken();
    void notAReport();
    void recognisesReports();
    void tenMegabytesOfProf();
};

// -P: ticks and bytes add up to the header; each line's %time agrees with
// its ticks (only if the columns were read from the right, SRC having spaces
// in "<built-in>"-like values); one node per tree line, indented as written.
void TestProfReport::profWithTicks()
{
    const std::string text = profileFile("profile-P.prof");
    const CostCentreProfile p = readProfText(text);
    QVERIFY2(!p.error, p.error ? p.error->text().c_str() : "");
    QVERIFY(p.warnings.empty());
    QCOMPARE(p.source, ProfileSource::ProfText);
    QCOMPARE(p.unit[0], ProfileUnit::Ticks);
    QCOMPARE(p.unit[1], ProfileUnit::Bytes);
    QVERIFY(p.hasEntries);
    QCOMPARE(p.header.program, std::string("profile"));
    QVERIFY(p.header.commandLine.starts_with("profile +RTS -P -l"));
    QCOMPARE(p.header.tickIntervalUs, uint64_t(1000));
    QCOMPARE(p.header.processors, 1u);
    QVERIFY(p.header.totalTicks > 300);
    QVERIFY(p.header.totalTimeSeconds > 0.1);
    QCOMPARE(sumSelf(p, ProfileMetric::Time), p.header.totalTicks);
    QCOMPARE(sumSelf(p, ProfileMetric::Alloc), p.header.totalAllocBytes);
    QCOMPARE(p.total(ProfileMetric::Time), p.header.totalTicks);

    const auto lines = splitLines(text);
    const auto tree = treeLines(lines);
    QCOMPARE(p.nodes.size(), tree.size() + 1);
    QCOMPARE(p.nodes[0].cc, kNoCostCentre);
    QCOMPARE(p.nodes[1].end, uint32_t(p.nodes.size()));
    QCOMPARE(ccOf(p, 1).label, std::string("MAIN"));
    for (size_t i = 0; i < tree.size(); ++i) {
        const std::string& line = lines[tree[i]].text;
        const auto t = tokens(line);
        const ProfileNode& n = p.nodes[i + 1];
        QCOMPARE(ccOf(p, i + 1).label, t[0]);
        QCOMPARE(ccOf(p, i + 1).module, t[1]);
        QCOMPARE(n.depth, uint32_t(line.find_first_not_of(' ') + 1));
        // From the right: bytes, ticks, inherited %alloc and %time, %alloc, %time, entries, no.
        QCOMPARE(std::to_string(n.number), t[t.size() - 8]);
        QCOMPARE(std::to_string(n.entries), t[t.size() - 7]);
        const double percent = std::stod(t[t.size() - 6]);
        const double exact = 100.0 * double(n.self[0]) / double(p.header.totalTicks);
        QVERIFY2(std::abs(percent - exact) <= 0.05 + 1e-9, line.c_str());
    }
    // Cost centres deduplicated: "nameOf" is called from answer and from buildIndex.
    QCOMPARE(int(std::count_if(p.costCentres.begin(), p.costCentres.end(), [](auto& c) { return c.label == "nameOf"; })), 1);
    QCOMPARE(int(std::count_if(p.nodes.begin() + 1, p.nodes.end(), [&](auto& n) { return p.costCentres[n.cc].label == "nameOf"; })), 2);
    QVERIFY(std::none_of(p.costCentres.begin(), p.costCentres.end(), [](auto& c) { return c.rts; }));
}

// GHC writes SRC as "<no location info>" for some cost centres: with spaces
// in it, the figures and the other columns still read the same.
void TestProfReport::profSrcWithSpaces()
{
    const std::string text = profileFile("profile-P.prof");
    std::string spaced = text;
    size_t replaced = 0;
    for (size_t p = spaced.find("<entire-module>"); p != std::string::npos; p = spaced.find("<entire-module>", p)) {
        spaced.replace(p, 15, "<no location info>");
        ++replaced;
    }
    QVERIFY(replaced > 2);
    const CostCentreProfile a = readProfText(text);
    const CostCentreProfile b = readProfText(spaced);
    QVERIFY(!b.error);
    compareTrees(a, b);
    for (size_t i = 1; i < b.nodes.size(); ++i) {
        QCOMPARE(ccOf(b, i).module, ccOf(a, i).module);
        QCOMPARE(b.nodes[i].number, a.nodes[i].number);
        if (ccOf(a, i).srcLoc == "<entire-module>")
            QCOMPARE(ccOf(b, i).srcLoc, std::string("<no location info>"));
    }
}

// -p: percentages only, in tenths. Each line is rounded to 0.1, so the n
// individual figures add up to 100.0 within n * 0.05 (n/2 tenths).
void TestProfReport::profPercentOnly()
{
    const std::string text = profileFile("profile-p.prof");
    const CostCentreProfile p = readProfText(text);
    QVERIFY2(!p.error, p.error ? p.error->text().c_str() : "");
    QVERIFY(p.percentOnly());
    QCOMPARE(p.unit[1], ProfileUnit::PercentTenths);
    QCOMPARE(p.warnings.size(), size_t(1));
    QVERIFY(p.warnings[0].find("without -P") != std::string::npos);
    const size_t lines = treeLines(splitLines(text)).size();
    QCOMPARE(p.nodes.size(), lines + 1);
    for (ProfileMetric m : {ProfileMetric::Time, ProfileMetric::Alloc}) {
        const auto total = int64_t(p.total(m));
        QVERIFY2(std::abs(total - 1000) <= int64_t(lines / 2), std::to_string(total).c_str());
    }
    QVERIFY(p.header.totalTicks > 300);
    QVERIFY(p.header.totalAllocBytes > 1000000);
}

// -pj: figures add up to the totals; every cost centre and node is read;
// the mutual recursion evalExpr -> evalArgs -> evalExpr is folded by GHC
// into the first evalExpr, so no cost centre is nested in itself.
void TestProfReport::json()
{
    const std::string text = profileFile("profile-pj.prof.json");
    const CostCentreProfile p = readProfJson(text);
    QVERIFY2(!p.error, p.error ? p.error->text().c_str() : "");
    QVERIFY(p.warnings.empty());
    QCOMPARE(p.source, ProfileSource::ProfJson);
    QCOMPARE(p.unit[0], ProfileUnit::Ticks);
    QCOMPARE(p.header.program, std::string("profile"));
    QCOMPARE(p.header.commandLine, std::string("profile 100 +RTS -pj -l -olprofile-pj.eventlog -RTS"));
    QCOMPARE(p.header.tickIntervalUs, uint64_t(1000));
    QCOMPARE(sumSelf(p, ProfileMetric::Time), p.header.totalTicks);
    QCOMPARE(sumSelf(p, ProfileMetric::Alloc), p.header.totalAllocBytes);
    QCOMPARE(p.costCentres.size(), countIn(text, "\"is_caf\""));
    QCOMPARE(p.nodes.size(), countIn(text, "\"children\":") + 1);
    QCOMPARE(ccOf(p, 1).label, std::string("MAIN"));
    const auto rts = std::count_if(p.costCentres.begin(), p.costCentres.end(), [](auto& c) { return c.rts; });
    QCOMPARE(int(rts), 6); // GC, IDLE, SYSTEM, PINNED, OVERHEAD_of, DONT_CARE
    // ... each a child of MAIN in the JSON tree, which counts their ticks (the .prof does not).
    QCOMPARE(int(std::count_if(p.nodes.begin() + 1, p.nodes.end(), [&](auto& n) { return n.parent == 1 && p.costCentres[n.cc].rts; })), 6);
    bool sawPath = false;
    for (size_t i = 1; i < p.nodes.size(); ++i) {
        for (uint32_t a = p.nodes[i].parent; a != 0; a = p.nodes[a].parent)
            QVERIFY(p.nodes[a].cc != p.nodes[i].cc);
        std::string path;
        for (uint32_t a = uint32_t(i), k = 0; a != 0 && k < 4; a = p.nodes[a].parent, ++k)
            path = ccOf(p, a).label + (path.empty() ? "" : ">") + path;
        sawPath = sawPath || path == "evalExpr>evalArgs>evalArgs.\\>evalExpr.\\";
    }
    QVERIFY(sawPath);
    // The reader itself keeps a cost centre nested in itself (other GHCs, other folds).
    const CostCentreProfile nested = readProfJson(
        R"({"cost_centres": [{"id": 1, "label": "f", "module": "M", "src_loc": "M.hs:1:1", "is_caf": false}],
            "profile": {"id": 1, "ticks": 1, "children": [{"id": 1, "ticks": 2, "children": []}]}})");
    QVERIFY(!nested.error);
    QCOMPARE(nested.nodes.size(), size_t(3));
    QCOMPARE(nested.nodes[2].cc, nested.nodes[1].cc);
    QCOMPARE(nested.total(ProfileMetric::Time), uint64_t(3));
}

// GHC 9.0.2 leaves quotes raw in arguments and writes modules unescaped.
void TestProfReport::jsonLenientStrings()
{
    const std::string text = profileFile("profile-pj.prof.json");
    auto replaceAll = [](std::string s, const std::string& from, const std::string& to) {
        for (size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size()))
            s.replace(p, from.size(), to);
        return s;
    };
    std::string odd = replaceAll(text, "\"program\": \"profile\"", "\"program\": \"my \"quoted\" prog\\dir\\\"");
    odd = replaceAll(odd, "\"arguments\": [\"profile\", \"100\"]", "\"arguments\": [\"C:\\dir\\prog\", \"a \"b\" \tc\n\", \"100\"]");
    odd = replaceAll(odd, "\"module\": \"Main\"", "\"module\": \"Ma\"in\\\"");
    QVERIFY(odd != text);
    const CostCentreProfile a = readProfJson(text);
    const CostCentreProfile b = readProfJson(odd);
    QVERIFY2(!b.error, b.error ? b.error->text().c_str() : "");
    compareTrees(a, b);
    QCOMPARE(b.header.program, std::string("my \"quoted\" prog\\dir\\"));
    QVERIFY(b.header.commandLine.starts_with("C:\\dir\\prog a \"b\" \tc\n 100 +RTS"));
    QVERIFY(std::any_of(b.costCentres.begin(), b.costCentres.end(), [](auto& c) { return c.module == "Ma\"in\\"; }));
    // Escaped strings (a conforming writer) are decoded.
    const CostCentreProfile e = readProfJson(replaceAll(text, "\"program\": \"profile\"", R"("program": "a\"b\\c\u00e9")"));
    QVERIFY(!e.error);
    QCOMPARE(e.header.program, std::string("a\"b\\c\xc3\xa9"));
    // As GHC 9.0.2 writes the argument x<TAB>y<NEWLINE>z": backslashed newline, raw tab and quote.
    const CostCentreProfile g = readProfJson(replaceAll(text, "[\"profile\", \"100\"]", "[\"profile\", \"x\ty\\nz\"\"]"));
    QVERIFY(!g.error);
    QVERIFY(g.header.commandLine.starts_with("profile x\ty\nz\" +RTS"));
}

void TestProfReport::profCut_data()
{
    QTest::addColumn<QString>("file");
    QTest::newRow("-P") << QStringLiteral("profile-P.prof");
    QTest::newRow("-p") << QStringLiteral("profile-p.prof");
}

// Cut inside the header, inside the flat per-cost-centre table (mid-row
// and between rows), between it and the tree, and all through the tree:
// the error names the line where the text ends; cut before the flat table
// there is nothing to show; else the flat table's complete rows are the
// profile (one node each under the root, their own figures: ticks and
// bytes with -P, tenths of a percent without), and the error says what
// is missing.
void TestProfReport::profCut()
{
    QFETCH(QString, file);
    const std::string text = profileFile(file.toUtf8().constData());
    const auto lines = splitLines(text);
    const auto tree = treeLines(lines);
    const auto flat = flatLines(lines);
    QVERIFY(flat.size() > 5 && tree.size() > 20);
    const bool ticks = file == QLatin1String("profile-P.prof");
    std::vector<size_t> cuts;
    for (size_t k = 1; k < 7; ++k)
        cuts.push_back(text.size() * k / 7);
    cuts.push_back(lines[3].start + 12);                     // "total time" cut short
    cuts.push_back(lines[flat.front() - 2].start + 20);      // inside the flat table's header
    cuts.push_back(lines[flat[flat.size() / 2]].start + 30); // mid-row
    cuts.push_back(lines[flat[flat.size() / 2]].end);        // between rows
    cuts.push_back(lines[flat.back()].end + 1);              // after the table's blank line
    cuts.push_back(lines[tree.front() - 2].start + 40);      // inside the tree's header
    const Line& middle = lines[tree[tree.size() / 2]];
    cuts.push_back(middle.start + 30);
    cuts.push_back(middle.end - 3);
    cuts.push_back(lines[tree.back()].start + 5);
    for (size_t cut : cuts) {
        const std::string prefix = text.substr(0, cut);
        const CostCentreProfile p = readProfText(prefix);
        const std::string where = "cut at " + std::to_string(cut) + ": " + (p.error ? p.error->text() : "no error");
        QVERIFY2(p.error, where.c_str());
        QCOMPARE(int64_t(p.error->line), lineOf(prefix, cut));
        QVERIFY(p.error->text().starts_with("line " + std::to_string(lineOf(prefix, cut)) + " (byte "));
        QVERIFY(p.error->offset <= cut);
        QVERIFY(p.error->offset >= prefix.rfind('\n', cut - 1) + 1 || p.error->offset == cut);
        QCOMPARE(p.nodes[0].end, uint32_t(p.nodes.size())); // finishTree ran
        std::vector<size_t> rows;
        for (size_t l : flat)
            if (lines[l].end <= cut)
                rows.push_back(l);
        const std::string& message = p.error->message;
        if (cut < lines[flat.front()].start) {
            QCOMPARE(p.nodes.size(), size_t(1));
            QVERIFY2(message.find("no figures to show") != std::string::npos, where.c_str());
            continue;
        }
        QVERIFY2(p.flat, where.c_str());
        QCOMPARE(p.nodes.size(), rows.size() + 1);
        QVERIFY(!p.hasEntries);
        QCOMPARE(p.unit[0], ticks ? ProfileUnit::Ticks : ProfileUnit::PercentTenths);
        for (size_t i = 0; i < rows.size(); ++i) {
            const auto t = tokens(lines[rows[i]].text);
            const ProfileNode& n = p.nodes[i + 1];
            QCOMPARE(n.parent, uint32_t(0));
            QCOMPARE(ccOf(p, i + 1).label, t[0]);
            QCOMPARE(ccOf(p, i + 1).module, t[1]);
            if (ticks) {
                QCOMPARE(n.self[0], std::stoull(t[t.size() - 2]));
                QCOMPARE(n.self[1], std::stoull(t[t.size() - 1]));
            } else {
                QCOMPARE(n.self[0], uint64_t(std::lround(std::stod(t[t.size() - 2]) * 10)));
                QCOMPARE(n.self[1], uint64_t(std::lround(std::stod(t[t.size() - 1]) * 10)));
            }
        }
        if (rows.size() < flat.size()) {
            QVERIFY2(message.find("the rest of the table and the call tree are missing") != std::string::npos,
                     where.c_str());
        } else {
            QVERIFY2(message.find("showing the flat per-cost-centre table (" + std::to_string(flat.size())
                                  + " cost centres); call stacks not available")
                         != std::string::npos,
                     where.c_str());
            if (cut > lines[tree.front()].start)
                QVERIFY2(message.starts_with("the call tree stops here: "), where.c_str());
        }
        if (ticks && rows.size() == flat.size()) // the table leaves out the small cost centres
            QVERIFY(std::find_if(p.warnings.begin(), p.warnings.end(), [&](const std::string& w) {
                        return w.find("its ticks add up to " + std::to_string(p.total(ProfileMetric::Time))
                                      + " of the run's " + std::to_string(p.header.totalTicks))
                            != std::string::npos;
                    })
                    != p.warnings.end());
    }
}

// A malformed tree line: the tree stops there (its line and byte named),
// the flat table is shown instead. The whole report read, no flat table.
void TestProfReport::profMalformedLine()
{
    const std::string text = profileFile("profile-P.prof");
    QVERIFY(!readProfText(text).flat);
    const auto lines = splitLines(text);
    const auto tree = treeLines(lines);
    const size_t flatRows = flatLines(lines).size();
    const Line& bad = lines[tree[10]];
    auto withLine = [&](const std::string& replacement) {
        return text.substr(0, bad.start) + replacement + text.substr(bad.end - 1);
    };
    // The entries column (7th from the right) replaced by "x".
    size_t end = bad.text.size();
    for (int k = 0; k < 6; ++k)
        end = bad.text.find_last_not_of(' ', bad.text.find_last_of(' ', end - 1));
    const size_t begin = bad.text.find_last_of(' ', end) + 1;
    const std::string line = bad.text.substr(0, begin) + "x" + bad.text.substr(end + 1);
    // Indented two levels deeper than the line before it.
    auto indent = [&](size_t l) { return lines[l].text.find_first_not_of(' '); };
    const std::string deeper = std::string(indent(tree[9]) + 2 - indent(tree[10]), ' ') + bad.text;
    for (const std::string& replacement : {line, std::string("   label Main"), deeper}) {
        const CostCentreProfile p = readProfText(withLine(replacement));
        QVERIFY2(p.error, replacement.c_str());
        QCOMPARE(int64_t(p.error->line), int64_t(tree[10] + 1));
        QCOMPARE(p.error->offset, uint64_t(bad.start));
        QVERIFY(p.flat);
        QCOMPARE(p.nodes.size(), flatRows + 1);
        QVERIFY(p.error->text().starts_with("line " + std::to_string(tree[10] + 1) + " (byte "));
        QVERIFY(p.error->message.starts_with("the call tree stops here: "));
    }
    QVERIFY(readProfText(withLine(line)).error->message.find("\"x\"") != std::string::npos);
}

// JSON cut anywhere or with a broken token: an error at (or just before)
// the cut, the nodes whose own figures were complete kept.
void TestProfReport::jsonCutAndBroken()
{
    const std::string text = profileFile("profile-pj.prof.json");
    const size_t treeStart = text.find("\"profile\":");
    std::vector<size_t> cuts;
    for (size_t k = 1; k < 7; ++k)
        cuts.push_back(text.size() * k / 7);
    cuts.push_back(treeStart + (text.size() - treeStart) / 2);
    cuts.push_back(text.size() - 2); // only the closing "}\n" missing
    cuts.push_back(text.size() / 2); // in the cost-centre list: no figures yet
    for (size_t cut : cuts) {
        const std::string prefix = text.substr(0, cut);
        const CostCentreProfile p = readProfJson(prefix);
        QVERIFY2(p.error, std::to_string(cut).c_str());
        QVERIFY(p.error->offset <= cut && p.error->offset + 24 >= cut);
        QCOMPARE(int64_t(p.error->line), lineOf(prefix, p.error->offset));
        QCOMPARE(p.nodes.size(), countIn(prefix, "\"children\":") + 1);
        // What is said: the line and byte, and what is shown.
        const std::string said = problemText(p, "shown");
        QVERIFY2(said.starts_with("line " + std::to_string(p.error->line) + " (byte " + std::to_string(p.error->offset) + "): "),
                 said.c_str());
        QVERIFY2(said.ends_with(p.nodes.size() > 1 ? "; everything before it is shown" : ": no figures to show"), said.c_str());
    }
    // A broken token in the middle of the tree.
    std::string broken = text;
    const size_t ticks = broken.find("\"ticks\": ", treeStart + (text.size() - treeStart) / 2);
    broken.replace(ticks + 9, 1, "@");
    const CostCentreProfile p = readProfJson(broken);
    QVERIFY(p.error);
    QCOMPARE(p.error->offset, uint64_t(ticks + 9));
    QCOMPARE(int64_t(p.error->line), lineOf(broken, ticks + 9));
    QCOMPARE(p.nodes.size(), countIn(std::string_view(broken).substr(0, ticks), "\"children\":") + 1);
}

void TestProfReport::notAReport()
{
    std::vector<std::string> inputs = {"", " \n\t\n", "{", "{\"program\"", "[1, 2]", "{}",
                                       "\tTue Nov 24 22:14 2026 Time and Allocation Profiling Report  (Final)\n",
                                       readText(QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/sparks-N1.eventlog"))};
    std::mt19937 rng(42);
    for (size_t len : {1, 7, 100, 5000}) {
        std::string s(len, '\0');
        for (char& c : s)
            c = char(rng());
        inputs.push_back(s);
        inputs.push_back("{" + s);
    }
    // Deep nesting: iterative readers, no recursion to exhaust.
    std::string deep = "{\"x\": ";
    deep += std::string(200000, '[');
    inputs.push_back(deep);
    std::string deepTree = "{\"profile\": ";
    for (int i = 0; i < 100000; ++i)
        deepTree += "{\"id\": 1, \"children\": [";
    inputs.push_back(deepTree);
    for (const std::string& in : inputs) {
        const CostCentreProfile p = readProfReport(in);
        QVERIFY2(p.error, in.substr(0, 20).c_str());
        QVERIFY(!p.error->message.empty());
    }
    QCOMPARE(readProfText("").error->offset, uint64_t(0));
    QCOMPARE(readProfJson("").error->offset, uint64_t(0));
    QCOMPARE(readProfText("hello\n").error->offset, uint64_t(0));
    QVERIFY(readProfText("hello\n").nodes.empty());
    QCOMPARE(readProfReport(deepTree).nodes.size(), size_t(100001)); // every node's own figures were read
}

void TestProfReport::recognisesReports()
{
    for (const char* name : {"profile-p.prof", "profile-P.prof", "profile-pj.prof.json"})
        QVERIFY(looksLikeProfReport(profileFile(name).substr(0, 1024)));
    QVERIFY(!looksLikeProfReport(profileFile("profile-p.eventlog").substr(0, 1024)));
    QVERIFY(!looksLikeProfReport(""));
    QVERIFY(!looksLikeProfReport("{\"x\": 1}"));
    QVERIFY(!looksLikeProfReport("JOB \"leak\"\n"));
}

// Measures (does not assert) how long a 10 MB .prof takes: the real -P
// report's tree lines under MAIN repeated.
void TestProfReport::tenMegabytesOfProf()
{
    const std::string text = profileFile("profile-P.prof");
    const auto lines = splitLines(text);
    const auto tree = treeLines(lines);
    std::string big = text.substr(0, lines[tree[1]].start);
    std::string body;
    for (size_t i = 1; i < tree.size(); ++i)
        body += lines[tree[i]].text + "\n";
    size_t copies = 0;
    while (big.size() < 10'000'000) {
        big += body;
        ++copies;
    }
    QElapsedTimer timer;
    timer.start();
    const CostCentreProfile p = readProfText(big);
    const qint64 ms = timer.elapsed();
    QVERIFY(!p.error);
    QCOMPARE(p.nodes.size(), 2 + copies * (tree.size() - 1));
    qInfo("readProfText: %zu bytes, %zu nodes in %lld ms", big.size(), p.nodes.size(), ms);
}

QTEST_GUILESS_MAIN(TestProfReport)
#include "tst_profreport.moc"
