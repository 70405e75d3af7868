// `hecscope profile` run as a user runs it: folded stacks, CSV, summary and
// ticky output of the real profiled runs in testdata/profiles, with the
// reports GHC wrote beside them; its errors on bad input and bad options.
#include "core/profile/profileviews.h"
#include "core/profile/profreport.h"
#include "core/text/units.h"
#include "testsupport.h"

#include <QTemporaryDir>
#include <QTest>

#include <map>

using namespace hecscope;

namespace {

QString profiles(const char* name)
{
    return QStringLiteral(HECSCOPE_TESTDATA_DIR "/profiles/") + QLatin1String(name);
}

std::map<QString, uint64_t> folded(const QByteArray& out)
{
    std::map<QString, uint64_t> stacks;
    for (const QByteArray& line : out.split('\n')) {
        if (line.isEmpty())
            continue;
        const int space = line.lastIndexOf(' ');
        stacks[QString::fromUtf8(line.left(space))] += line.mid(space + 1).toULongLong();
    }
    return stacks;
}

uint64_t sum(const std::map<QString, uint64_t>& m)
{
    uint64_t s = 0;
    for (const auto& [k, v] : m)
        s += v;
    return s;
}

} // namespace

class TestProfileCli : public QObject {
    Q_OBJECT
private slots:
    void foldedReportEqualsItsLines();
    void foldedEventlogMatchesReport();
    void csvAndSummary();
    void rangeAndCapability();
    void percentOnlySaysSo();
    void badInput();
    void badOptions();
    void ticky();
};

// The -P report's tree lines read the simple way (COST CENTRE first, ticks
// third from the right... per stack of labels by indentation) against the
// folded output: per stack and in total.
void TestProfileCli::foldedReportEqualsItsLines()
{
    const test::Run r = test::runHecscope({QStringLiteral("profile"), profiles("profile-P.prof"), QStringLiteral("--folded")});
    QCOMPARE(r.exitCode, 0);
    const std::string text = test::readText(profiles("profile-P.prof"));
    // The tree starts after the header line that names "no." and "entries";
    // each line: indentation, COST CENTRE, MODULE, SRC..., no., entries,
    // %time, %alloc, inh %time, inh %alloc, ticks, bytes.
    std::map<QString, uint64_t> expected;
    QStringList path;
    bool inTree = false;
    uint64_t header = 0;
    for (const QString& line : QString::fromStdString(text).split(QLatin1Char('\n'))) {
        if (line.contains(QLatin1String("total time")))
            header = line.section(QLatin1Char('('), 1).section(QLatin1Char(' '), 0, 0).remove(QLatin1Char(',')).toULongLong();
        if (!inTree) {
            inTree = line.contains(QLatin1String(" no.")) && line.contains(QLatin1String("entries")) && line.contains(QLatin1String("ticks"));
            continue;
        }
        if (line.trimmed().isEmpty())
            continue;
        const int depth = int(line.indexOf(QRegularExpression(QStringLiteral("\\S"))));
        const QStringList cols = line.split(QLatin1Char(' '), Qt::SkipEmptyParts);
        path = path.mid(0, depth);
        path << cols.first();
        const uint64_t ticks = cols.at(cols.size() - 2).toULongLong();
        if (ticks)
            expected[path.join(QLatin1Char(';'))] += ticks;
    }
    QVERIFY(header > 500);
    QCOMPARE(folded(r.out), expected);
    QCOMPARE(sum(folded(r.out)), header);
    // Bytes with --alloc: the total is the header's "total alloc".
    const test::Run a = test::runHecscope({QStringLiteral("profile"), profiles("profile-P.prof"), QStringLiteral("--folded"), QStringLiteral("--alloc")});
    QCOMPARE(a.exitCode, 0);
    QCOMPARE(sum(folded(a.out)), readProfReport(text).header.totalAllocBytes);
}

// The eventlog of the same run, RTS frames hidden: the report's stacks
// without their MAIN frame, count for count.
void TestProfileCli::foldedEventlogMatchesReport()
{
    const test::Run log = test::runHecscope({QStringLiteral("profile"), profiles("profile-P.eventlog"), QStringLiteral("--folded"), QStringLiteral("--hide-rts")});
    const test::Run report = test::runHecscope({QStringLiteral("profile"), profiles("profile-P.prof"), QStringLiteral("--folded")});
    QCOMPARE(log.exitCode, 0);
    std::map<QString, uint64_t> reportStacks;
    for (const auto& [stack, n] : folded(report.out))
        reportStacks[stack.startsWith(QLatin1String("MAIN;")) ? stack.mid(5) : stack] += n;
    QCOMPARE(folded(log.out), reportStacks);
    // Without --hide-rts the RTS's own samples are their own frames.
    const test::Run all = test::runHecscope({QStringLiteral("profile"), profiles("profile-P.eventlog"), QStringLiteral("--folded")});
    QVERIFY(folded(all.out).count(QStringLiteral("GC")));
    QVERIFY(sum(folded(all.out)) > sum(folded(log.out)));
}

void TestProfileCli::csvAndSummary()
{
    const test::Run csv = test::runHecscope({QStringLiteral("profile"), profiles("profile-pj.prof.json"), QStringLiteral("--csv")});
    QCOMPARE(csv.exitCode, 0);
    const QList<QByteArray> lines = csv.out.split('\n');
    QCOMPARE(lines.first(), QByteArray("label,module,src_loc,self,inclusive"));
    const CostCentreProfile p = readProfReport(test::readText(profiles("profile-pj.prof.json")));
    uint64_t self = 0;
    for (int i = 1; i < lines.size(); ++i)
        if (!lines[i].isEmpty())
            self += lines[i].mid(lines[i].lastIndexOf(',', lines[i].lastIndexOf(',') - 1) + 1).split(',').first().toULongLong();
    QCOMPARE(self, p.header.totalTicks);
    const test::Run text = test::runHecscope({QStringLiteral("profile"), profiles("profile-pj.prof.json")});
    QCOMPARE(text.exitCode, 0);
    QVERIFY(text.out.contains("Most inclusive cost"));
    QVERIFY(text.out.contains("Most self cost"));
    QVERIFY(text.out.contains(QByteArray::fromStdString("(report: " + formatGrouped(p.header.totalTicks) + " ticks)")));
}

void TestProfileCli::rangeAndCapability()
{
    const QString log = profiles("profile-P.eventlog");
    const uint64_t whole = sum(folded(test::runHecscope({QStringLiteral("profile"), log, QStringLiteral("--folded")}).out));
    const uint64_t first = sum(folded(test::runHecscope({QStringLiteral("profile"), log, QStringLiteral("--folded"), QStringLiteral("--range"), QStringLiteral(":300ms")}).out));
    const uint64_t rest = sum(folded(test::runHecscope({QStringLiteral("profile"), log, QStringLiteral("--folded"), QStringLiteral("--range"), QStringLiteral("300ms:")}).out));
    QVERIFY(first > 0 && rest > 0);
    QCOMPARE(first + rest, whole);
    const test::Run cap0 = test::runHecscope({QStringLiteral("profile"), log, QStringLiteral("--folded"), QStringLiteral("--cap"), QStringLiteral("0")});
    QCOMPARE(cap0.exitCode, 0);
    QCOMPARE(sum(folded(cap0.out)), whole); // a non-threaded run: one capability
    // A capability the log does not have is a usage error, as for export.
    const test::Run cap1 = test::runHecscope({QStringLiteral("profile"), log, QStringLiteral("--folded"), QStringLiteral("--cap"), QStringLiteral("1")});
    QCOMPARE(cap1.exitCode, 2);
    QVERIFY2(cap1.err.contains("the log's capabilities are 0 to 0"), cap1.err.constData());
}

void TestProfileCli::percentOnlySaysSo()
{
    const test::Run r = test::runHecscope({QStringLiteral("profile"), profiles("profile-p.prof"), QStringLiteral("--folded")});
    QCOMPARE(r.exitCode, 1);
    QVERIFY(r.out.isEmpty());
    QVERIFY2(r.err.contains("only percentages are available"), r.err.constData());
    const test::Run summary = test::runHecscope({QStringLiteral("profile"), profiles("profile-p.prof")});
    QCOMPARE(summary.exitCode, 0);
    QVERIFY(summary.out.contains("percentages only"));
    QVERIFY(summary.out.contains(" %"));
}

// A cut report: what came before is printed, the problem named with its
// line on stderr, exit 1.
void TestProfileCli::badInput()
{
    QTemporaryDir dir;
    const std::string text = test::readText(profiles("profile-P.prof"));
    const size_t cut = text.find('\n', text.size() * 3 / 4) + 20; // inside a tree line
    const QString path = dir.filePath(QStringLiteral("cut.prof"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text.data(), qint64(cut));
    f.close();
    const int line = int(std::count(text.begin(), text.begin() + long(cut), '\n')) + 1;
    const test::Run r = test::runHecscope({QStringLiteral("profile"), path, QStringLiteral("--folded")});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(QByteArray("line ") + QByteArray::number(line)), r.err.constData());
    QVERIFY(!r.out.isEmpty());
    const QString junk = dir.filePath(QStringLiteral("junk.prof"));
    QFile j(junk);
    QVERIFY(j.open(QIODevice::WriteOnly));
    j.write("hello\n");
    j.close();
    const test::Run n = test::runHecscope({QStringLiteral("profile"), junk});
    QCOMPARE(n.exitCode, 1);
    QVERIFY2(n.err.contains("not a .prof or -pj report"), n.err.constData());
}

void TestProfileCli::badOptions()
{
    const auto run = [](QStringList args) { return test::runHecscope(QStringList{QStringLiteral("profile")} + args); };
    QCOMPARE(run({profiles("profile-P.eventlog"), QStringLiteral("--alloc")}).exitCode, 2);
    QCOMPARE(run({profiles("profile-P.prof"), QStringLiteral("--range"), QStringLiteral("1s:2s")}).exitCode, 2);
    QCOMPARE(run({profiles("profile-P.eventlog"), QStringLiteral("--range"), QStringLiteral("2s:1s")}).exitCode, 2);
    QCOMPARE(run({profiles("profile-P.eventlog"), QStringLiteral("--cap"), QStringLiteral("x")}).exitCode, 2);
    QCOMPARE(run({profiles("profile-P.eventlog"), QStringLiteral("--folded"), QStringLiteral("--csv")}).exitCode, 2);
    QCOMPARE(run({}).exitCode, 2);
    const test::Run help = run({QStringLiteral("--help")});
    QCOMPARE(help.exitCode, 0);
    QVERIFY(help.out.contains("--folded"));
}

void TestProfileCli::ticky()
{
    const QString dir = test::conformanceDir();
    if (dir.isEmpty())
        QFAIL("../shared/conformance is missing");
    const test::Run r = test::runHecscope({QStringLiteral("profile"), dir + QStringLiteral("/ghc-events/ticky-begin-sample.eventlog"),
                                           QStringLiteral("--ticky"), QStringLiteral("--csv")});
    QCOMPARE(r.exitCode, 0);
    // ghc-events show: "ticky counter sample …: entry count: 1001, 120032 allocs, 16 allocd".
    QVERIFY2(r.out.contains(",1001,120032,16\n"), r.out.constData());
    const test::Run none = test::runHecscope({QStringLiteral("profile"), profiles("profile-P.eventlog"), QStringLiteral("--ticky")});
    QCOMPARE(none.exitCode, 1);
}

QTEST_GUILESS_MAIN(TestProfileCli)
#include "tst_profilecli.moc"
