// writeProfText: GHC's `-P` layout written back from a profile. The real
// reports of testdata/profiles and a synthetic eventlog's samples go
// through read -> write -> read unchanged; the tree lines of the real -P
// report come out byte for byte; `hecscope synthesize prof` writes a report
// `hecscope profile` reads.
#include "testsupport.h"

#include "core/io/bytesource.h"
#include "core/load/loader.h"
#include "core/profile/profreport.h"
#include "core/profile/profwriter.h"
#include "core/synth/synthetic.h"
#include "core/timeprofile/sampleprofile.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <set>
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

std::vector<std::string> lines(const std::string& s)
{
    std::vector<std::string> out;
    std::istringstream in(s);
    for (std::string line; std::getline(in, line);)
        out.push_back(line);
    return out;
}

// The tree: from the line naming "individual" to the end.
std::vector<std::string> treePart(const std::string& text)
{
    const auto all = lines(text);
    auto it = std::find_if(all.begin(), all.end(),
                           [](const std::string& l) { return l.find("individual") != std::string::npos; });
    return {it, all.end()};
}

// The flat table's rows, each as its whitespace-separated words.
std::multiset<std::string> flatRows(const std::string& text)
{
    const auto all = lines(text);
    std::multiset<std::string> rows;
    size_t i = 0;
    while (i < all.size() && !all[i].starts_with("COST CENTRE"))
        ++i;
    for (i += 2; i < all.size() && !all[i].empty(); ++i) {
        std::istringstream in(all[i]);
        std::string row;
        for (std::string w; in >> w;)
            row += w + ' ';
        rows.insert(row);
    }
    return rows;
}

// Same tree, node by node: shape, names, every figure; "no." when `numbers`.
void compareTrees(const CostCentreProfile& a, const CostCentreProfile& b, bool numbers)
{
    QCOMPARE(b.nodes.size(), a.nodes.size());
    for (size_t i = 1; i < a.nodes.size(); ++i) {
        const ProfileNode &x = a.nodes[i], &y = b.nodes[i];
        const ProfileCostCentre &cx = a.costCentres[x.cc], &cy = b.costCentres[y.cc];
        QCOMPARE(y.parent, x.parent);
        QCOMPARE(cy.label, cx.label);
        QCOMPARE(cy.module, cx.module);
        QCOMPARE(cy.srcLoc, cx.srcLoc);
        QCOMPARE(y.entries, a.hasEntries ? x.entries : 0);
        QCOMPARE(y.self[0], x.self[0]);
        QCOMPARE(y.self[1], a.hasMetric[1] ? x.self[1] : 0);
        if (numbers)
            QCOMPARE(y.number, x.number);
        else
            QCOMPARE(y.number, uint32_t(i));
    }
}

} // namespace

class TestProfWriter : public QObject {
    Q_OBJECT
private slots:
    void realReportWithTicks();
    void percentOnlyReport();
    void jsonReport();
    void eventlogSamples();
    void synthesizeProfCommand();
};

void TestProfWriter::realReportWithTicks()
{
    const std::string original = profileFile("profile-P.prof");
    const CostCentreProfile p = readProfText(original);
    QVERIFY(!p.error);
    const std::string written = writeProfText(p);
    const CostCentreProfile q = readProfText(written);
    QVERIFY2(!q.error, q.error ? q.error->text().c_str() : "");
    QVERIFY(q.warnings.empty());
    compareTrees(p, q, true);
    QCOMPARE(q.header.date, p.header.date);
    QCOMPARE(q.header.commandLine, p.header.commandLine);
    QCOMPARE(q.header.totalTicks, p.header.totalTicks);
    QCOMPARE(q.header.totalAllocBytes, p.header.totalAllocBytes);
    // The header's lines and the tree's come out as GHC wrote them.
    const auto a = lines(original), b = lines(written);
    for (size_t i : {0, 1, 2, 3, 4, 5, 6})
        QCOMPARE(b[i], a[i]);
    const auto ta = treePart(original), tb = treePart(written);
    QCOMPARE(tb.size(), ta.size());
    for (size_t i = 0; i < ta.size(); ++i)
        QCOMPARE(tb[i], ta[i]);
    // The flat table: the same rows and figures; the widths may differ (the
    // RTS pads them for cost centres it leaves out, here PROFILING's), and
    // so may the order of equal ticks.
    QCOMPARE(flatRows(written), flatRows(original));
}

void TestProfWriter::percentOnlyReport()
{
    const CostCentreProfile p = readProfText(profileFile("profile-p.prof"));
    QVERIFY(p.percentOnly());
    const std::string written = writeProfText(p);
    QVERIFY(written.find("ticks     bytes") == std::string::npos);
    const CostCentreProfile q = readProfText(written);
    QVERIFY(!q.error);
    QVERIFY(q.percentOnly());
    compareTrees(p, q, true);
}

void TestProfWriter::jsonReport()
{
    const CostCentreProfile p = readProfJson(profileFile("profile-pj.prof.json"));
    QVERIFY(!p.error);
    const CostCentreProfile q = readProfText(writeProfText(p));
    QVERIFY2(!q.error, q.error ? q.error->text().c_str() : "");
    const bool numbered = std::none_of(p.nodes.begin() + 1, p.nodes.end(), [](const ProfileNode& n) { return n.number == 0; });
    compareTrees(p, q, numbered);
}

void TestProfWriter::eventlogSamples()
{
    MemorySource source(synthesizeProfileLog(20000, 300, 20, 2, 7));
    const LoadResult loaded = loadIndex(source);
    const auto p = sampleProfile(*loaded.index, {});
    QVERIFY(p && p->nodes.size() > 100);
    QCOMPARE(p->unit[0], ProfileUnit::Samples);
    const std::string written = writeProfText(*p);
    const CostCentreProfile q = readProfText(written);
    QVERIFY2(!q.error, q.error ? q.error->text().c_str() : "");
    QCOMPARE(q.unit[0], ProfileUnit::Ticks);
    QCOMPARE(q.header.totalTicks, p->total(ProfileMetric::Time) - p->nodes[0].self[0]);
    QCOMPARE(q.header.processors, 2u);
    compareTrees(*p, q, false);
    // Written again, the report reads back its own numbers.
    compareTrees(q, readProfText(writeProfText(q)), true);
}

void TestProfWriter::synthesizeProfCommand()
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("synthetic.prof"));
    const Run w = runHecscope({QStringLiteral("synthesize"), QStringLiteral("prof"), out, QStringLiteral("1")});
    QCOMPARE(w.exitCode, 0);
    const std::string text = readText(out);
    QVERIFY(text.size() >= 1'000'000);
    QVERIFY(looksLikeProfReport(text.substr(0, 4096)));
    const Run f = runHecscope({QStringLiteral("profile"), out, QStringLiteral("--folded")});
    QCOMPARE(f.exitCode, 0);
    uint64_t folded = 0;
    for (const std::string& line : lines(f.out.toStdString()))
        folded += std::stoull(line.substr(line.rfind(' ') + 1));
    // "(N ticks @ ..." in the header.
    const size_t at = text.find(" ticks @ ");
    QVERIFY(at != std::string::npos);
    const size_t open = text.rfind('(', at);
    QCOMPARE(folded, std::stoull(text.substr(open + 1, at - open - 1)));
    QVERIFY(folded > 0);
    // The allocation columns are not all zero.
    const CostCentreProfile p = readProfText(text);
    QVERIFY(!p.error);
    QVERIFY(p.total(ProfileMetric::Alloc) > 0);
}

QTEST_GUILESS_MAIN(TestProfWriter)
#include "tst_profwriter.moc"
