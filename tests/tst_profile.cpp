// The eventlog's cost-centre samples as profiles (core/timeprofile/sampleprofile)
// and the views of any profile (core/profile/profileviews, ticky): on the
// real profiled runs in testdata/profiles (each eventlog beside the report
// GHC wrote in the same run), the conformance set's time-prof and ticky
// logs, and encoder-written edge cases.
#include "core/index/logindex.h"
#include "core/io/bytesource.h"
#include "core/profile/profileviews.h"
#include "core/profile/profreport.h"
#include "core/timeprofile/sampleprofile.h"
#include "core/timeprofile/ticky.h"
#include "testsupport.h"

#include <QRegularExpression>
#include <QTest>

#include <map>
#include <sstream>

using namespace hecscope;

namespace {

QString profiles(const char* name)
{
    return QStringLiteral(HECSCOPE_TESTDATA_DIR "/profiles/") + QLatin1String(name);
}

std::unique_ptr<LogIndex> loadFile(const QString& path)
{
    return test::indexOfBytes(test::readFile(path));
}

CostCentreProfile whole(const LogIndex& ix, bool hideRts = false)
{
    SampleFilter f;
    f.hideRts = hideRts;
    return *sampleProfile(ix, f);
}

// Self figure per cost centre, keyed by "label module".
std::map<std::string, uint64_t> selfByCostCentre(const CostCentreProfile& p, ProfileMetric m = ProfileMetric::Time)
{
    std::map<std::string, uint64_t> out;
    for (const CostCentreTotal& t : costCentreTotals(p))
        if (t.self[int(m)])
            out[p.costCentres[t.cc].label + ' ' + p.costCentres[t.cc].module] += t.self[int(m)];
    return out;
}

// Folded text as stack -> count.
std::map<std::string, uint64_t> foldedMap(const std::string& text)
{
    std::map<std::string, uint64_t> out;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        const size_t space = line.rfind(' ');
        out[line.substr(0, space)] += std::stoull(line.substr(space + 1));
    }
    return out;
}

uint64_t sumSelf(const CostCentreProfile& p, int m)
{
    uint64_t s = 0;
    for (const ProfileNode& n : p.nodes)
        s += n.self[m];
    return s;
}

} // namespace

class TestProfile : public QObject {
    Q_OBJECT
private slots:
    void sameRunAsReport_data();
    void sameRunAsReport();
    void percentReportShares();
    void rangesAndCapabilitiesAdd();
    void conformanceTimeProf();
    void edgeCases();
    void cutInsideSample();
    void views();
    void recursionCountsOnce();
    void ticky();
};

// The RTS's tick handler (rts/Proftimer.c, handleProfTick) both adds the
// tick to the running cost-centre stack, which the report prints, and
// writes the PROF_SAMPLE_COST_CENTRE event: so per cost centre the samples
// equal the report's ticks exactly. The .prof leaves the RTS's own cost
// centres out (its tree and total), the JSON counts them: compared without
// and with them.
void TestProfile::sameRunAsReport_data()
{
    QTest::addColumn<QString>("log");
    QTest::addColumn<QString>("report");
    QTest::addColumn<bool>("rtsInReport");
    QTest::newRow("-P") << profiles("profile-P.eventlog") << profiles("profile-P.prof") << false;
    QTest::newRow("-pj") << profiles("profile-pj.eventlog") << profiles("profile-pj.prof.json") << true;
}

void TestProfile::sameRunAsReport()
{
    QFETCH(QString, log);
    QFETCH(QString, report);
    QFETCH(bool, rtsInReport);
    const auto ix = loadFile(log);
    QVERIFY(!ix->scan.hasError);
    const CostCentreProfile fromLog = whole(*ix, !rtsInReport);
    const CostCentreProfile fromReport = readProfReport(test::readText(report));
    QVERIFY(!fromReport.error);
    QVERIFY(fromLog.total(ProfileMetric::Time) > 500);
    QCOMPARE(fromLog.total(ProfileMetric::Time), fromReport.header.totalTicks);
    QCOMPARE(fromLog.total(ProfileMetric::Time), fromReport.total(ProfileMetric::Time));
    QCOMPARE(selfByCostCentre(fromLog), selfByCostCentre(fromReport));
    // Per stack too: the report's stacks start at MAIN, the samples' at
    // the frame below it.
    std::map<std::string, uint64_t> reportStacks;
    for (const auto& [stack, n] : foldedMap(foldedText(fromReport, ProfileMetric::Time)))
        reportStacks[stack.rfind("MAIN;", 0) == 0 ? stack.substr(5) : stack] += n;
    QCOMPARE(foldedMap(foldedText(fromLog, ProfileMetric::Time)), reportStacks);
    // Without hiding, the log holds the RTS's samples as their own frames.
    if (!rtsInReport) {
        const CostCentreProfile all = whole(*ix);
        QVERIFY(all.total(ProfileMetric::Time) > fromLog.total(ProfileMetric::Time));
        const auto self = selfByCostCentre(all);
        QVERIFY(self.count("GC GC"));
    }
}

// A report without -P has shares only, each line rounded to 0.1 %: the
// samples' share of each cost centre agrees within that rounding.
void TestProfile::percentReportShares()
{
    const auto ix = loadFile(profiles("profile-p.eventlog"));
    const CostCentreProfile fromLog = whole(*ix, true);
    const CostCentreProfile fromReport = readProfReport(test::readText(profiles("profile-p.prof")));
    QVERIFY(fromReport.percentOnly());
    const auto logSelf = selfByCostCentre(fromLog);
    const auto reportSelf = selfByCostCentre(fromReport);
    const double total = double(fromLog.total(ProfileMetric::Time));
    QVERIFY(total > 500);
    QCOMPARE(fromReport.header.totalTicks, fromLog.total(ProfileMetric::Time));
    for (const auto& [cc, tenths] : reportSelf) {
        const double logShare = 100.0 * double(logSelf.count(cc) ? logSelf.at(cc) : 0) / total;
        QVERIFY2(std::abs(logShare - double(tenths) / 10) <= 0.05 + 1e-9,
                 qPrintable(QStringLiteral("%1: log %2 %, report %3 %").arg(QString::fromStdString(cc)).arg(logShare).arg(double(tenths) / 10)));
    }
    for (const auto& [cc, n] : logSelf) // a cost centre the report rounds to 0.0 has < 0.05 %
        if (!reportSelf.count(cc))
            QVERIFY(100.0 * double(n) / total < 0.05);
}

void TestProfile::rangesAndCapabilitiesAdd()
{
    for (const QString& path : {QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/leak-prof-p.eventlog"), profiles("profile-P.eventlog")}) {
        const auto ix = loadFile(path);
        const CostCentreProfile all = whole(*ix);
        const uint64_t total = all.total(ProfileMetric::Time);
        QCOMPARE(total, uint64_t(ix->timeProfile.samples.size()));
        QCOMPARE(sumSelf(all, 0), total);
        // Three ranges that tile the run add up to it, stack by stack.
        const uint64_t end = ix->lastTime + 1, a = end / 3, b = 2 * end / 3;
        std::map<std::string, uint64_t> added;
        for (auto [t0, t1] : {std::pair<uint64_t, uint64_t>{0, a}, {a, b}, {b, end}}) {
            SampleFilter f;
            f.t0 = t0;
            f.t1 = t1;
            const CostCentreProfile part = *sampleProfile(*ix, f);
            uint64_t inRange = 0;
            for (const auto& s : ix->timeProfile.samples)
                inRange += s.time >= t0 && s.time < t1;
            QCOMPARE(part.total(ProfileMetric::Time), inRange);
            for (const auto& [stack, n] : foldedMap(foldedText(part, ProfileMetric::Time)))
                added[stack] += n;
        }
        QCOMPARE(added, foldedMap(foldedText(all, ProfileMetric::Time)));
        uint64_t byCap = 0;
        for (size_t c = 0; c < ix->caps.size(); ++c) {
            SampleFilter f;
            f.cap = int(c);
            byCap += sampleProfile(*ix, f)->total(ProfileMetric::Time);
        }
        QCOMPARE(byCap, total);
        // Samples are in time order after the load.
        QVERIFY(std::is_sorted(ix->timeProfile.samples.begin(), ix->timeProfile.samples.end(),
                               [](const auto& x, const auto& y) { return x.time < y.time; }));
    }
}

// The conformance log against `ghc-events show`'s own lines: every "prof
// sample" line's stack of ids, named by the "cost centre N label in module"
// lines, counted per stack.
void TestProfile::conformanceTimeProf()
{
    const QString dir = test::conformanceDir();
    if (dir.isEmpty())
        QFAIL("../shared/conformance is missing");
    const auto ix = loadFile(dir + QStringLiteral("/ghc-events/time-prof.eventlog"));
    const std::string reference = test::readText(dir + QStringLiteral("/ghc-events/time-prof.eventlog.reference"));
    std::map<std::string, std::string> label;
    std::map<std::string, uint64_t> expected;
    uint64_t samples = 0;
    static const QRegularExpression ccLine(QStringLiteral("^\\d+: cost centre (\\d+) (.*) in (\\S+) at "));
    static const QRegularExpression sampleLine(QStringLiteral("^\\d+: cap no \\d+, prof sample \\d+, cost centre stack (.*)$"));
    std::istringstream in(reference);
    std::string line;
    std::vector<std::string> sampleStacks;
    while (std::getline(in, line)) {
        const QString l = QString::fromStdString(line);
        if (const auto m = ccLine.match(l); m.hasMatch())
            label[m.captured(1).toStdString()] = m.captured(2).toStdString();
        else if (const auto s = sampleLine.match(l); s.hasMatch())
            sampleStacks.push_back(s.captured(1).toStdString());
    }
    for (const std::string& ids : sampleStacks) {
        QStringList parts = QString::fromStdString(ids).split(QStringLiteral(", "));
        std::reverse(parts.begin(), parts.end()); // innermost first in the event
        std::string stack;
        for (const QString& id : parts)
            stack += (stack.empty() ? "" : ";") + label.at(id.toStdString());
        ++expected[stack];
        ++samples;
    }
    QVERIFY(samples > 100);
    const CostCentreProfile p = whole(*ix);
    QCOMPARE(p.total(ProfileMetric::Time), samples);
    QCOMPARE(foldedMap(foldedText(p, ProfileMetric::Time)), expected);
    QVERIFY(ix->timeProfile.tickInterval > 0);
    QCOMPARE(p.header.tickIntervalUs, ix->timeProfile.tickInterval / 1000);
}

// Written with the encoder: cost centres 1 f, 2 g (Main), 3 GC (GC); a
// sample before PROF_BEGIN, a stack of depth 0, an unknown id (99), a
// recursive stack f > g > f.
void TestProfile::edgeCases()
{
    test::LogBuilder b;
    b.block(0, {
        OwnedEvent(tag::HeapProfCostCentre, 1, {1, 0}, {"f", "Main", "a.hs:1:1"}),
        OwnedEvent(tag::HeapProfCostCentre, 2, {2, 0}, {"g", "Main", "a.hs:2:1"}),
        OwnedEvent(tag::HeapProfCostCentre, 3, {3, 0}, {"GC", "GC", "<built-in>"}),
        OwnedEvent(tag::ProfSampleCostCentre, 5, {0, 1, 1}, {}, {1}),          // before PROF_BEGIN
        OwnedEvent(tag::ProfBegin, 10, {1000000}),
        OwnedEvent(tag::ProfSampleCostCentre, 20, {0, 2, 0}, {}, {}),          // depth 0
        OwnedEvent(tag::ProfSampleCostCentre, 30, {0, 3, 2}, {}, {99, 1}),     // unknown id under f
        OwnedEvent(tag::ProfSampleCostCentre, 40, {0, 4, 3}, {}, {1, 2, 1}),   // f > g > f (outermost last)
        OwnedEvent(tag::ProfSampleCostCentre, 50, {0, 5, 3}, {}, {1, 2, 1}),
        OwnedEvent(tag::ProfSampleCostCentre, 60, {0, 6, 1}, {}, {3}),         // GC
    });
    const auto ix = test::indexOfBytes(b.bytes());
    QVERIFY(!ix->scan.hasError);
    const CostCentreProfile p = whole(*ix);
    QCOMPARE(p.total(ProfileMetric::Time), uint64_t(6)); // nothing dropped
    const auto folded = foldedMap(foldedText(p, ProfileMetric::Time));
    const std::map<std::string, uint64_t> expected = {
        {"f", 1}, {"<empty stack>", 1}, {"f;<unknown cost centre 99>", 1}, {"f;g;f", 2}, {"GC", 1}};
    if (folded != expected)
        qWarning("%s", foldedText(p, ProfileMetric::Time).c_str());
    QCOMPARE(folded, expected);
    auto said = [&](const char* what) {
        for (const std::string& w : p.warnings)
            if (w.find(what) != std::string::npos)
                return true;
        return false;
    };
    QVERIFY(said("1 samples come before PROF_BEGIN"));
    QVERIFY(said("1 cost-centre ids"));
    QVERIFY(said("1 samples have an empty stack"));
    // The RTS switch drops the GC sample only.
    QCOMPARE(whole(*ix, true).total(ProfileMetric::Time), uint64_t(5));
    // Where f > g > f ran: the samples at 40 and 50 (and f alone at 5, f
    // over the unknown frame at 30 when f's root node is chosen).
    uint32_t inner = 0;
    for (uint32_t i = 1; i < p.nodes.size(); ++i)
        if (p.nodes[i].depth == 3)
            inner = i;
    QVERIFY(inner);
    const std::vector<uint8_t> through = stacksThrough(*ix->timeProfile.tree, p, inner);
    uint64_t marked = 0;
    for (const auto& s : ix->timeProfile.samples)
        if (through[s.stack]) {
            ++marked;
            QVERIFY(s.time == 40 || s.time == 50);
        }
    QCOMPARE(marked, uint64_t(2));
}

// A log cut in the middle of a sample keeps every sample before it.
void TestProfile::cutInsideSample()
{
    test::LogBuilder b;
    b.block(0, {
        OwnedEvent(tag::HeapProfCostCentre, 1, {1, 0}, {"f", "Main", "a.hs:1:1"}),
        OwnedEvent(tag::ProfBegin, 2, {1000000}),
        OwnedEvent(tag::ProfSampleCostCentre, 3, {0, 1, 1}, {}, {1}),
        OwnedEvent(tag::ProfSampleCostCentre, 4, {0, 2, 1}, {}, {1}),
        OwnedEvent(tag::ProfSampleCostCentre, 5, {0, 3, 1}, {}, {1}),
    });
    std::vector<uint8_t> bytes = b.bytes(false);
    bytes.resize(bytes.size() - 3); // inside the last sample's stack
    const auto ix = test::indexOfBytes(bytes);
    QVERIFY(ix->scan.truncated || ix->scan.hasError);
    QCOMPARE(whole(*ix).total(ProfileMetric::Time), uint64_t(2));
}

void TestProfile::views()
{
    const CostCentreProfile p = readProfReport(test::readText(profiles("profile-P.prof")));
    QVERIFY(!p.error);
    for (int m = 0; m < 2; ++m) {
        const ProfileMetric metric = ProfileMetric(m);
        // Bottom-up holds every self figure once.
        const CostCentreProfile up = bottomUp(p);
        QCOMPARE(up.total(metric), p.total(metric));
        std::map<std::string, uint64_t> firstLevel;
        for (uint32_t i = 1; i < up.nodes.size(); ++i)
            if (up.nodes[i].depth == 1 && up.nodes[i].incl[m])
                firstLevel[up.costCentres[up.nodes[i].cc].label + ' ' + up.costCentres[up.nodes[i].cc].module] = up.nodes[i].incl[m];
        QCOMPARE(firstLevel, selfByCostCentre(p, metric));
        // Folded and CSV agree with the tree.
        uint64_t folded = 0;
        for (const auto& [stack, n] : foldedMap(foldedText(p, metric)))
            folded += n;
        QCOMPARE(folded, p.total(metric));
        const std::string csv = costCentresCsv(p, metric);
        QVERIFY(csv.rfind("label,module,src_loc,self,inclusive\n", 0) == 0);
        QCOMPARE(p.costCentres[p.nodes[1].cc].label, std::string("MAIN"));
        QVERIFY(csv.find("\nMAIN,MAIN,<built-in>," + std::to_string(p.nodes[1].self[m]) + ',' + std::to_string(p.total(metric)) + "\n")
                != std::string::npos);
    }
    // Callers and callees of a cost centre called from two places.
    uint32_t score = kNoCostCentre;
    for (uint32_t c = 0; c < p.costCentres.size(); ++c)
        if (p.costCentres[c].label == "score")
            score = c;
    QVERIFY(score != kNoCostCentre);
    const CostCentreTotal t = costCentreTotals(p)[score];
    const CostCentreProfile callers = callersOf(p, score), callees = calleesOf(p, score);
    QCOMPARE(callers.total(ProfileMetric::Time), t.incl[0]);
    QCOMPARE(callees.total(ProfileMetric::Time), t.incl[0]);
    QCOMPARE(callees.nodes[1].self[0], t.self[0]);
    QCOMPARE(callers.nodes[1].cc, score);
    // Search: the share of matching frames, nested ones counted once.
    const SearchResult r = searchProfile(p, ProfileMetric::Time, [](const ProfileCostCentre& c) { return c.label.find("score") != std::string::npos; });
    QCOMPARE(r.matched, t.incl[0]);
    QCOMPARE(r.total, p.total(ProfileMetric::Time));
    // Without the RTS's frames: the eventlog profile loses exactly them.
    const auto ix = loadFile(profiles("profile-P.eventlog"));
    const CostCentreProfile all = whole(*ix);
    uint64_t rts = 0;
    for (const auto& [cc, n] : selfByCostCentre(all))
        if (cc == "GC GC" || cc == "SYSTEM SYSTEM" || cc == "IDLE IDLE" || cc == "OVERHEAD_of PROFILING" || cc == "PINNED SYSTEM" || cc == "DONT_CARE MAIN")
            rts += n;
    QVERIFY(rts > 0);
    QCOMPARE(withoutRtsFrames(all).total(ProfileMetric::Time), all.total(ProfileMetric::Time) - rts);
    // The flame layout: children tile their parent, in label order.
    const FlameLayout l = layoutFlame(p, 0, ProfileMetric::Time);
    QCOMPARE(l.frames.front().x1, 1.0);
    for (size_t i = 0; i < l.frames.size(); ++i) {
        double x = l.frames[i].x0;
        for (size_t k = i + 1; k < l.frames[i].end; k = l.frames[k].end) {
            QVERIFY(std::abs(l.frames[k].x0 - x) < 1e-9);
            x = l.frames[k].x1;
        }
        QVERIFY(x <= l.frames[i].x1 + 1e-9);
    }
}

// A recursive stack: inclusive figures, callers and callees count each
// sample once.
void TestProfile::recursionCountsOnce()
{
    test::LogBuilder b;
    b.block(0, {
        OwnedEvent(tag::HeapProfCostCentre, 1, {1, 0}, {"f", "Main", "a.hs:1:1"}),
        OwnedEvent(tag::HeapProfCostCentre, 2, {2, 0}, {"g", "Main", "a.hs:2:1"}),
        OwnedEvent(tag::ProfBegin, 2, {1000000}),
        OwnedEvent(tag::ProfSampleCostCentre, 3, {0, 1, 3}, {}, {1, 2, 1}), // f > g > f
        OwnedEvent(tag::ProfSampleCostCentre, 4, {0, 2, 1}, {}, {1}),       // f
        OwnedEvent(tag::ProfSampleCostCentre, 5, {0, 3, 2}, {}, {2, 1}),    // f > g
    });
    const auto ix = test::indexOfBytes(b.bytes());
    const CostCentreProfile p = whole(*ix);
    uint32_t f = kNoCostCentre;
    for (uint32_t c = 0; c < p.costCentres.size(); ++c)
        if (p.costCentres[c].label == "f")
            f = c;
    const CostCentreTotal t = costCentreTotals(p)[f];
    QCOMPARE(t.incl[0], uint64_t(3));
    QCOMPARE(t.self[0], uint64_t(2));
    QCOMPARE(callersOf(p, f).total(ProfileMetric::Time), uint64_t(3));
    const CostCentreProfile callees = calleesOf(p, f);
    QCOMPARE(callees.total(ProfileMetric::Time), uint64_t(3));
    QCOMPARE(foldedMap(foldedText(callees, ProfileMetric::Time)),
             (std::map<std::string, uint64_t>{{"f", 1}, {"f;g", 1}, {"f;g;f", 1}}));
    const std::vector<bool> nested = nestedInItself(p);
    QCOMPARE(std::count(nested.begin(), nested.end(), true), 1L);
}

// The conformance set's ticky logs against their `ghc-events show` lines.
void TestProfile::ticky()
{
    const QString dir = test::conformanceDir();
    if (dir.isEmpty())
        QFAIL("../shared/conformance is missing");
    static const QRegularExpression sample(QStringLiteral("^\\d+: ticky counter sample (\\d+): entry count: (\\d+), (\\d+) allocs, (\\d+) allocd$"));
    static const QRegularExpression def(QStringLiteral("^\\d+: ticky counter definition (\\d+), arity: (\\d+), def kinds: (.*), name: (.*?)(, itbl: [0-9a-f]+)?$"));
    for (const char* name : {"ticky-ticky", "ticky-new", "ticky-begin-sample", "ticky-json"}) {
        const QString base = dir + QStringLiteral("/ghc-events/") + QLatin1String(name);
        const auto ix = loadFile(base + QStringLiteral(".eventlog"));
        std::istringstream in(test::readText(base + QStringLiteral(".eventlog.reference")));
        std::string line;
        std::map<uint64_t, uint64_t> lastEntries; // the last dump's entry count per counter
        std::map<uint64_t, uint64_t> earlier;     // per counter: its entry count in the latest dump before the last
        std::map<uint64_t, std::string> names;
        uint64_t begins = 0;
        std::vector<std::pair<uint64_t, uint64_t>> samples; // (counter, entries) in order, begins as (0, 0)
        while (std::getline(in, line)) {
            const QString l = QString::fromStdString(line);
            if (l.endsWith(QLatin1String("ticky begin counter sample"))) {
                ++begins;
                for (const auto& [id, n] : lastEntries)
                    earlier[id] = n;
                lastEntries.clear();
            } else if (const auto m = sample.match(l); m.hasMatch()) {
                lastEntries[m.captured(1).toULongLong()] = m.captured(2).toULongLong();
            } else if (const auto d = def.match(l); d.hasMatch()) {
                names[d.captured(1).toULongLong()] = d.captured(4).toStdString();
            }
        }
        QVERIFY2(!names.empty(), name);
        QCOMPARE(ix->tickyBegins.size(), size_t(begins));
        const std::vector<TickyDump> dumps = tickyDumps(*ix);
        const std::vector<TickyRow> rows = tickyTable(*ix, dumps.empty() ? 0 : dumps.size() - 1);
        std::map<uint64_t, uint64_t> sampled;
        for (const TickyRow& r : rows) {
            if (r.sampled)
                sampled[r.id] = r.entries;
            // The change since the previous dump that sampled the counter,
            // only when this dump sampled it too.
            QCOMPARE(r.hasPrevious, r.sampled && earlier.count(r.id) > 0);
            if (r.hasPrevious)
                QCOMPARE(r.dEntries, int64_t(r.entries) - int64_t(earlier.at(r.id)));
            if (names.count(r.id))
                QCOMPARE(r.name, names.at(r.id));
        }
        QCOMPARE(sampled, lastEntries);
        if (begins > 1) // several dumps: some change is shown
            QVERIFY(std::any_of(rows.begin(), rows.end(), [](const TickyRow& r) { return r.hasPrevious; }));
    }
}

QTEST_GUILESS_MAIN(TestProfile)
#include "tst_profile.moc"
