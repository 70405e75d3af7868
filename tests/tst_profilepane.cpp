// The Profile pane and its models on real profiled runs (testdata/profiles,
// the report GHC wrote beside each eventlog): the eventlog's samples for the
// run, a range, a capability, without the RTS's frames; search; the callers
// and callees of a cost centre; the chosen frame handed to the Time profile
// track; a report beside the log; the ticky table; and the window opening a
// report alone, beside a log, or cut.
#include "core/index/logindex.h"
#include "core/io/bytesource.h"
#include "core/load/loader.h"
#include "core/profile/profileviews.h"
#include "core/profile/profreport.h"
#include "core/synth/synthetic.h"
#include "core/timeprofile/sampleprofile.h"
#include "core/timeprofile/ticky.h"
#include "testsupport.h"
#include "ui/formatting.h"
#include "ui/profile/flamegraphview.h"
#include "ui/profile/profilepane.h"
#include "ui/profile/profiletreemodel.h"
#include "ui/timeline/timelinerenderer.h"
#include "ui/window/mainwindow.h"

#include <QComboBox>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTreeView>
#include <QtTest>

#include <sstream>

using namespace hecscope;

namespace {

QString profiles(const char* name)
{
    return QStringLiteral(HECSCOPE_TESTDATA_DIR "/profiles/") + QLatin1String(name);
}

std::shared_ptr<const LogIndex> load(const QString& path)
{
    MemorySource source(test::readFile(path));
    return std::shared_ptr<const LogIndex>(loadIndex(source).index);
}

uint64_t totalOf(const LogIndex& ix, SampleFilter f = {})
{
    return sampleProfile(ix, f)->total(ProfileMetric::Time);
}

// The pane's computation landed (counted by a spy on profileShown).
bool waitShown(QSignalSpy& spy)
{
    return spy.count() > 0 || spy.wait(10000);
}

// The root's children, counted by their parent.
int rootChildren(const CostCentreProfile& p)
{
    int n = 0;
    for (size_t i = 1; i < p.nodes.size(); ++i)
        n += p.nodes[i].parent == 0;
    return n;
}

uint32_t costCentreNamed(const CostCentreProfile& p, const char* label)
{
    for (uint32_t c = 0; c < p.costCentres.size(); ++c)
        if (p.costCentres[c].label == label)
            return c;
    return kNoCostCentre;
}

} // namespace

class TestProfilePane : public QObject {
    Q_OBJECT
private slots:
    void eventlogRangeRts();
    void capability();
    void searchFiltersTheTrees();
    void callersAndCallees();
    void chosenFrameMarksItsSamples();
    void reportBesideTheLog();
    void tickyTable();
    void windowOpensReports();
};

void TestProfilePane::eventlogRangeRts()
{
    const auto ix = load(profiles("profile-P.eventlog"));
    ProfilePane pane;
    QSignalSpy shown(&pane, &ProfilePane::profileShown);
    pane.setIndex(ix);
    QVERIFY(waitShown(shown));
    QCOMPARE(pane.profile()->total(ProfileMetric::Time), totalOf(*ix));
    QCOMPARE(pane.profile()->total(ProfileMetric::Time), uint64_t(ix->timeProfile.samples.size()));
    // The call tree's first level is the root's children.
    auto* model = static_cast<ProfileTreeModel*>(pane.callTree()->model());
    QCOMPARE(model->rowCount(), rootChildren(*pane.profile()));
    QVERIFY(pane.statusText().contains(QLatin1String("samples")));
    // A range.
    shown.clear();
    const ViewRange half{0, ix->lastTime / 2};
    pane.setRange(half);
    QVERIFY(waitShown(shown));
    SampleFilter f;
    f.t0 = half.start;
    f.t1 = half.end;
    QCOMPARE(pane.profile()->total(ProfileMetric::Time), totalOf(*ix, f));
    QVERIFY(pane.profile()->total(ProfileMetric::Time) < uint64_t(ix->timeProfile.samples.size()));
    QVERIFY(pane.statusText().contains(QLatin1String("selection")));
    // Without the RTS's frames.
    shown.clear();
    pane.setRange(std::nullopt);
    QVERIFY(waitShown(shown));
    shown.clear();
    pane.setHideRts(true);
    QVERIFY(waitShown(shown));
    f = {};
    f.hideRts = true;
    QCOMPARE(pane.profile()->total(ProfileMetric::Time), totalOf(*ix, f));
    QVERIFY(totalOf(*ix, f) < totalOf(*ix));
    QVERIFY(pane.statusText().contains(QLatin1String("RTS frames hidden")));
}

// A capability of a run on four: its own samples only.
void TestProfilePane::capability()
{
    const auto ix = [] {
        MemorySource source(synthesizeProfileLog(20000, 300, 20, 4));
        return std::shared_ptr<const LogIndex>(loadIndex(source).index);
    }();
    QCOMPARE(ix->caps.size(), size_t(4));
    ProfilePane pane;
    QSignalSpy shown(&pane, &ProfilePane::profileShown);
    pane.setIndex(ix);
    QVERIFY(waitShown(shown));
    QCOMPARE(pane.profile()->total(ProfileMetric::Time), uint64_t(20000));
    for (int cap : {2, 0}) {
        shown.clear();
        pane.setCapability(cap);
        QVERIFY(waitShown(shown));
        uint64_t own = 0;
        for (const auto& s : ix->timeProfile.samples)
            own += s.cap == cap;
        QVERIFY(own > 0 && own < 20000);
        QCOMPARE(pane.profile()->total(ProfileMetric::Time), own);
        QVERIFY(pane.statusText().contains(QStringLiteral("capability %1").arg(cap)));
    }
}

void TestProfilePane::searchFiltersTheTrees()
{
    const auto ix = load(profiles("profile-P.eventlog"));
    ProfilePane pane;
    QSignalSpy shown(&pane, &ProfilePane::profileShown);
    pane.setIndex(ix);
    QVERIFY(waitShown(shown));
    pane.setSearch(QStringLiteral("^score$"));
    auto* model = static_cast<ProfileTreeModel*>(pane.callTree()->model());
    // Every leaf row shown is a score frame; every score frame is shown.
    std::function<int(const QModelIndex&)> leaves = [&](const QModelIndex& parent) {
        int n = 0;
        for (int r = 0; r < model->rowCount(parent); ++r) {
            const QModelIndex row = model->index(r, 0, parent);
            if (model->rowCount(row) == 0) {
                [&] { QCOMPARE(row.data().toString(), QStringLiteral("score")); }();
                ++n;
            } else {
                n += leaves(row);
            }
        }
        return n;
    };
    const CostCentreProfile& p = *pane.profile();
    const uint32_t score = costCentreNamed(p, "score");
    QVERIFY(score != kNoCostCentre);
    int scoreNodes = 0;
    for (const ProfileNode& n : p.nodes)
        scoreNodes += n.cc == score;
    QCOMPARE(leaves({}), scoreNodes);
    // The flame graph picks out the same frames and the pane says what
    // share they hold.
    const SearchResult r = searchProfile(p, ProfileMetric::Time, [](const ProfileCostCentre& c) { return c.label == "score"; });
    QVERIFY(r.matched > 0);
    QVERIFY(pane.flameGraph()->search());
    QCOMPARE(pane.flameGraph()->search()->matches, r.matches);
    QCOMPARE(pane.flameGraph()->search()->matched, r.matched);
    QVERIFY2(pane.searchStatusText().contains(percentText(r.matched, r.total)), qPrintable(pane.searchStatusText()));
    // Not a regular expression: said; the trees keep the last filter.
    pane.setSearch(QStringLiteral("["));
    QVERIFY2(pane.searchStatusText().startsWith(QLatin1String("Not a regular expression")), qPrintable(pane.searchStatusText()));
    QCOMPARE(leaves({}), scoreNodes);
    pane.setSearch(QString());
    QVERIFY(pane.searchStatusText().isEmpty());
    QCOMPARE(model->rowCount(), rootChildren(p));
}

void TestProfilePane::callersAndCallees()
{
    const auto ix = load(profiles("profile-P.eventlog"));
    ProfilePane pane;
    QSignalSpy shown(&pane, &ProfilePane::profileShown);
    pane.setIndex(ix);
    QVERIFY(waitShown(shown));
    const CostCentreProfile& p = *pane.profile();
    const uint32_t score = costCentreNamed(p, "score");
    pane.showCallersAndCallees(score);
    auto* callers = static_cast<ProfileTreeModel*>(pane.callersTree()->model());
    auto* callees = static_cast<ProfileTreeModel*>(pane.calleesTree()->model());
    QTRY_VERIFY(callers->profile() && callees->profile());
    QCOMPARE(pane.tabs()->currentIndex(), 3);
    const CostCentreTotal t = costCentreTotals(p)[score];
    QCOMPARE(callers->profile()->total(ProfileMetric::Time), t.incl[0]);
    QCOMPARE(callees->profile()->total(ProfileMetric::Time), t.incl[0]);
    QCOMPARE(callers->rowCount(), 1);
    QCOMPARE(callers->index(0, 0).data().toString(), QStringLiteral("score"));
    // Its callers are the next level: the cost centres that called it.
    std::set<QString> expected;
    for (const ProfileNode& n : p.nodes)
        if (n.cc == score && n.parent != 0)
            expected.insert(QString::fromStdString(p.costCentres[p.nodes[n.parent].cc].label));
    std::set<QString> shownCallers;
    const QModelIndex top = callers->index(0, 0);
    for (int r = 0; r < callers->rowCount(top); ++r)
        shownCallers.insert(callers->index(r, 0, top).data().toString());
    QCOMPARE(shownCallers, expected);
}

void TestProfilePane::chosenFrameMarksItsSamples()
{
    const auto ix = load(profiles("profile-P.eventlog"));
    ProfilePane pane;
    QSignalSpy shown(&pane, &ProfilePane::profileShown);
    QSignalSpy highlight(&pane, &ProfilePane::highlightChanged);
    pane.setIndex(ix);
    QVERIFY(waitShown(shown));
    const CostCentreProfile& p = *pane.profile();
    // The heaviest node below the root's children.
    uint32_t node = 0;
    for (uint32_t i = 1; i < p.nodes.size(); ++i)
        if (p.nodes[i].depth == 3 && (node == 0 || p.nodes[i].incl[0] > p.nodes[node].incl[0]))
            node = i;
    QVERIFY(node);
    highlight.clear();
    emit pane.flameGraph()->frameChosen(node);
    QCOMPARE(highlight.count(), 1);
    const auto h = highlight.first().first().value<std::shared_ptr<const ProfileHighlight>>();
    QVERIFY(h);
    uint64_t marked = 0;
    for (const auto& s : ix->timeProfile.samples)
        marked += h->stacks[s.stack];
    QCOMPARE(marked, p.nodes[node].incl[0]);
    QCOMPARE(h->label.toStdString(), p.costCentres[p.nodes[node].cc].label);
    // The call tree follows.
    QCOMPARE(pane.callTree()->currentIndex().data(ProfileTreeModel::kNodeRole).toUInt(), node);
}

void TestProfilePane::reportBesideTheLog()
{
    const auto ix = load(profiles("profile-P.eventlog"));
    ProfilePane pane;
    QSignalSpy shown(&pane, &ProfilePane::profileShown);
    pane.setIndex(ix);
    QVERIFY(waitShown(shown));
    auto report = std::make_shared<const CostCentreProfile>(readProfReport(test::readText(profiles("profile-P.prof"))));
    shown.clear();
    pane.setReport(report, profiles("profile-P.prof"));
    QVERIFY(waitShown(shown));
    QCOMPARE(pane.profile()->total(ProfileMetric::Time), report->header.totalTicks);
    QVERIFY(pane.profile()->hasMetric[1]);
    QVERIFY(pane.statusText().contains(QLatin1String("profile-P.prof")));
    auto* source = pane.findChild<QComboBox*>();
    QVERIFY(source);
    QCOMPARE(source->count(), 2);
    // A report has bytes: the flame graph's widths can be allocation.
    pane.setAllocation(true);
    QCOMPARE(pane.flameGraph()->layout().metric, ProfileMetric::Alloc);
    QVERIFY(pane.flameGraph()->layout().frames.size() > 10);
    pane.setAllocation(false);
    QCOMPARE(pane.flameGraph()->layout().metric, ProfileMetric::Time);
    // The callers and callees of a cost centre of the report ...
    const uint32_t score = costCentreNamed(*pane.profile(), "score");
    pane.showCallersAndCallees(score);
    auto* callers = static_cast<ProfileTreeModel*>(pane.callersTree()->model());
    QTRY_VERIFY(callers->profile() != nullptr);
    // ... stay when the report is recomputed, without taking the tab again.
    pane.tabs()->setCurrentIndex(0);
    shown.clear();
    pane.setHideRts(true);
    QVERIFY(waitShown(shown));
    QTRY_COMPARE(callers->profile()->total(ProfileMetric::Time), costCentreTotals(*pane.profile())[score].incl[0]);
    QCOMPARE(pane.tabs()->currentIndex(), 0);
    pane.setHideRts(false);
    // Back to the log's samples.
    shown.clear();
    QSignalSpy bottomUp(&pane, &ProfilePane::bottomUpShown);
    source->setCurrentIndex(0);
    QVERIFY(waitShown(shown));
    QCOMPARE(pane.profile()->total(ProfileMetric::Time), uint64_t(ix->timeProfile.samples.size()));
    // The bottom-up tree follows, and holds every self figure once.
    auto* up = static_cast<ProfileTreeModel*>(pane.bottomUpTree()->model());
    QTRY_VERIFY(bottomUp.count() > 0 && up->profile());
    QTRY_COMPARE(up->profile()->total(ProfileMetric::Time), pane.profile()->total(ProfileMetric::Time));
    // The report's cost-centre numbers mean nothing in the log's profile:
    // its callers and callees went with it.
    QVERIFY(callers->profile() == nullptr);
}

void TestProfilePane::tickyTable()
{
    const QString dir = test::conformanceDir();
    if (dir.isEmpty())
        QFAIL("../shared/conformance is missing");
    const auto ix = load(dir + QStringLiteral("/ghc-events/ticky-new.eventlog"));
    ProfilePane pane;
    pane.setIndex(ix);
    QVERIFY(pane.tabs()->isTabEnabled(4));
    const auto dumps = tickyDumps(*ix);
    QVERIFY(dumps.size() > 1);
    const auto rows = hecscope::tickyTable(*ix, dumps.size() - 1);
    QCOMPARE(pane.tickyTable()->model()->rowCount(), int(rows.size()));
    QVERIFY(pane.statusText().contains(QLatin1String("ticky")));
    const auto noTicky = load(profiles("profile-P.eventlog"));
    pane.setIndex(noTicky);
    QVERIFY(!pane.tabs()->isTabEnabled(4));
}

void TestProfilePane::windowOpensReports()
{
    QTemporaryDir dir;
    qputenv("XDG_CONFIG_HOME", dir.path().toUtf8()); // keep away from the user's recent files
    MainWindow w;
    QSignalSpy report(&w, &MainWindow::reportShown);
    w.openFile(profiles("profile-pj.prof.json"));
    QVERIFY(report.wait(10000));
    QVERIFY(w.profilePane()->hasReport());
    QVERIFY2(w.bannerText().contains(QLatin1String("no time axis")), qPrintable(w.bannerText()));
    QTRY_VERIFY(w.profilePane()->profile() != nullptr);
    QCOMPARE(w.profilePane()->profile()->total(ProfileMetric::Time),
             readProfReport(test::readText(profiles("profile-pj.prof.json"))).header.totalTicks);
    // A report under any name is found by its first bytes.
    const QString renamed = dir.filePath(QStringLiteral("run.txt"));
    QVERIFY(QFile::copy(profiles("profile-P.prof"), renamed));
    report.clear();
    w.openFile(renamed);
    QVERIFY(report.wait(10000));
    QTRY_VERIFY(w.profilePane()->profile() && w.profilePane()->profile()->source == ProfileSource::ProfText);
    QVERIFY(!w.index());
    QVERIFY2(w.bannerText().contains(QLatin1String("run.txt is a cost-centre profile report")), qPrintable(w.bannerText()));
    // A cut report: the line named, the lines before it shown.
    const std::string text = test::readText(profiles("profile-P.prof"));
    const size_t cut = text.find('\n', text.size() * 2 / 3) + 10;
    const QString path = dir.filePath(QStringLiteral("cut.prof"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text.data(), qint64(cut));
    f.close();
    report.clear();
    w.openFile(path);
    QVERIFY(report.wait(10000));
    const int line = int(std::count(text.begin(), text.begin() + long(cut), '\n')) + 1;
    QVERIFY2(w.bannerText().contains(QStringLiteral("line %1").arg(line)), qPrintable(w.bannerText()));
    // Cut in its call tree, the report's flat per-cost-centre table (all
    // read) is shown, and the banner and the pane say so.
    QVERIFY2(w.bannerText().contains(QLatin1String("the call tree stops here"))
                 && w.bannerText().contains(QLatin1String("showing the flat per-cost-centre table"))
                 && w.bannerText().contains(QLatin1String("call stacks not available")),
             qPrintable(w.bannerText()));
    QTRY_VERIFY(w.profilePane()->profile() && w.profilePane()->profile()->flat);
    QVERIFY2(w.profilePane()->statusText().contains(QLatin1String("showing the flat per-cost-centre table")),
             qPrintable(w.profilePane()->statusText()));
    uint64_t flatTicks = 0; // the flat table's ticks column, read here
    {
        std::istringstream in(text);
        std::string l;
        while (std::getline(in, l) && !l.starts_with("COST CENTRE")) { }
        std::getline(in, l);
        while (std::getline(in, l) && !l.empty()) {
            std::istringstream row(l);
            std::vector<std::string> t;
            for (std::string x; row >> x;)
                t.push_back(x);
            flatTicks += std::stoull(t[t.size() - 2]);
        }
    }
    QVERIFY(flatTicks > 800);
    QCOMPARE(w.profilePane()->profile()->total(ProfileMetric::Time), flatTicks);
    // Beside a log: the log stays, the report joins it.
    QSignalSpy loaded(&w, &MainWindow::loadFinished);
    w.openFile(profiles("profile-P.eventlog"));
    QVERIFY(loaded.wait(10000));
    QVERIFY(!w.profilePane()->hasReport()); // the old report was not of this run
    report.clear();
    w.openProfile(profiles("profile-P.prof"));
    QVERIFY(report.wait(10000));
    QVERIFY(w.index());
    QVERIFY(w.profilePane()->hasReport());
    // Not a report.
    const QString junk = dir.filePath(QStringLiteral("junk.prof"));
    QFile j(junk);
    QVERIFY(j.open(QIODevice::WriteOnly));
    j.write("not a report\n");
    j.close();
    report.clear();
    w.openProfile(junk);
    QVERIFY(report.wait(10000));
    QVERIFY2(w.bannerText().contains(QLatin1String("not a .prof or -pj report")), qPrintable(w.bannerText()));
    QVERIFY(w.index()); // the log is still there
}

QTEST_MAIN(TestProfilePane)
#include "tst_profilepane.moc"
