// `hecscope diff A B`: every figure of A and of B equals what the
// single-run command prints for that file (info --json, threads --csv,
// spans --csv, sparks --json, heap --csv, profile --csv / --folded), every
// difference is B - A and every ratio B / A; the differential folded stacks
// add up to each run's own folded stacks; --fail-if fails with status 3;
// inputs that have little or nothing in common compare without a crash and
// say what cannot be compared. Real pairs from testdata/compare/ (made by
// generate.sh compare), the RTS's own -s text beside them.
#include "testsupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <map>

using namespace hecscope::test;

namespace {

QString compareLog(const char* name)
{
    return QStringLiteral(HECSCOPE_TESTDATA_DIR "/compare/") + QLatin1String(name);
}

QString testdataFile(const char* path)
{
    return QStringLiteral(HECSCOPE_TESTDATA_DIR "/") + QLatin1String(path);
}

struct Figure {
    QJsonValue a, b, difference, ratio;
};
// (group, key, figure) -> the four values
using Figures = std::map<std::tuple<QString, QString, QString>, Figure>;

QJsonObject json(const Run& r)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(r.out, &error);
    if (error.error != QJsonParseError::NoError)
        qWarning("not JSON (%s): %s", qPrintable(error.errorString()), r.out.left(400).constData());
    return doc.object();
}

Figures figuresOf(const QJsonObject& o)
{
    Figures out;
    for (const QJsonValue& v : o.value(QStringLiteral("figures")).toArray()) {
        const QJsonObject f = v.toObject();
        out[{f.value(QStringLiteral("group")).toString(), f.value(QStringLiteral("key")).toString(),
             f.value(QStringLiteral("figure")).toString()}]
            = {f.value(QStringLiteral("a")), f.value(QStringLiteral("b")), f.value(QStringLiteral("difference")),
               f.value(QStringLiteral("ratio"))};
    }
    return out;
}

// Simple CSV: fields split at commas outside quotes, quotes undone.
QStringList csvFields(const QString& line)
{
    QStringList out;
    QString field;
    bool quoted = false;
    for (qsizetype i = 0; i < line.size(); ++i) {
        const QChar c = line[i];
        if (quoted) {
            if (c == QLatin1Char('"') && i + 1 < line.size() && line[i + 1] == QLatin1Char('"')) {
                field += c;
                ++i;
            } else if (c == QLatin1Char('"')) {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == QLatin1Char('"')) {
            quoted = true;
        } else if (c == QLatin1Char(',')) {
            out << field;
            field.clear();
        } else {
            field += c;
        }
    }
    out << field;
    return out;
}

// A CSV's rows as column name -> text.
std::vector<std::map<QString, QString>> csvRows(const QByteArray& text)
{
    std::vector<std::map<QString, QString>> rows;
    const QStringList lines = QString::fromUtf8(text).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    if (lines.isEmpty())
        return rows;
    const QStringList header = csvFields(lines[0]);
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QStringList fields = csvFields(lines[i]);
        std::map<QString, QString> row;
        for (qsizetype k = 0; k < header.size() && k < fields.size(); ++k)
            row[header[k]] = fields[k];
        rows.push_back(std::move(row));
    }
    return rows;
}

Run run(const QStringList& args, int expectedExit = 0)
{
    const Run r = runHecscope(args);
    if (r.exitCode != expectedExit)
        qWarning("hecscope %s: exit %d: %s", qPrintable(args.join(QLatin1Char(' '))), r.exitCode, r.err.constData());
    return r;
}

// A figure printed by a single-run command equals diff's: both integral
// (exact) or both reals printed with 6 significant digits.
bool sameNumber(const QJsonValue& diffValue, double single)
{
    if (!diffValue.isDouble())
        return false;
    const double d = diffValue.toDouble();
    return d == single || std::abs(d - single) <= 1e-5 * std::max(std::abs(d), std::abs(single));
}

// The value in `info --json`'s object at a dotted path ("time.total_ns").
QJsonValue atPath(const QJsonObject& o, const QString& path)
{
    const QStringList parts = path.split(QLatin1Char('.'));
    QJsonValue v = o;
    for (const QString& p : parts)
        v = v.toObject().value(p);
    return v;
}

class TestDiff : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void figuresEqualTheSingleRunCommands_data();
    void figuresEqualTheSingleRunCommands();
    void rangeFiguresEqualTheSingleRunCommands();
    void runFiguresEqualTheRtsSummary_data();
    void runFiguresEqualTheRtsSummary();
    void differentialFoldedAddsUpToEachRun_data();
    void differentialFoldedAddsUpToEachRun();
    void theLeakIsGone();
    void oneRunRecordedTwoWaysMatchesEveryBand();
    void checksFailWithTheirOwnStatus();
    void textAndCsvCarryTheSameFigures();
    void runsWithLittleInCommon_data();
    void runsWithLittleInCommon();
    void usageErrors_data();
    void usageErrors();
};

void TestDiff::initTestCase()
{
    QVERIFY2(QFileInfo(QStringLiteral(HECSCOPE_BINARY)).isExecutable(), HECSCOPE_BINARY);
    for (const char* name : {"parfib-N1.eventlog", "parfib-N4.eventlog", "leak-before.eventlog", "leak-after.eventlog",
                             "profile-before.eventlog", "profile-slower.eventlog", "profile-before.prof",
                             "profile-slower.prof"})
        QVERIFY2(QFileInfo::exists(compareLog(name)), name);
}

void TestDiff::figuresEqualTheSingleRunCommands_data()
{
    QTest::addColumn<QString>("a");
    QTest::addColumn<QString>("b");
    QTest::newRow("parfib -N1 / -N4") << compareLog("parfib-N1.eventlog") << compareLog("parfib-N4.eventlog");
    QTest::newRow("leak before / after") << compareLog("leak-before.eventlog") << compareLog("leak-after.eventlog");
    QTest::newRow("profile / slower") << compareLog("profile-before.eventlog") << compareLog("profile-slower.eventlog");
    QTest::newRow("profile reports") << compareLog("profile-before.prof") << compareLog("profile-slower.prof");
    QTest::newRow("spans / sparks -lf") << testdataFile("logs/spans-N2.eventlog")
                                        << testdataFile("logs/sparks-lf-N2.eventlog");
    QTest::newRow("heap -hc / -hy") << testdataFile("logs/leak-prof-hc.eventlog")
                                    << testdataFile("logs/leak-prof-hy.eventlog");
}

// Every figure of A and B, checked against the single-run commands of that
// file; every difference B - A, every ratio B / A.
void TestDiff::figuresEqualTheSingleRunCommands()
{
    QFETCH(QString, a);
    QFETCH(QString, b);
    const QJsonObject diff = json(run({QStringLiteral("diff"), a, b, QStringLiteral("--json")}));
    const Figures figures = figuresOf(diff);
    QVERIFY(!figures.empty());

    size_t checked = 0;
    for (const auto& [side, file] : {std::pair{0, a}, std::pair{1, b}}) {
        const auto valueOf = [&, side = side](const Figure& f) { return side == 0 ? f.a : f.b; };
        // What each group's figures must equal, from the single-run commands.
        std::map<std::tuple<QString, QString, QString>, std::optional<double>> expected; // nullopt: null
        const bool report = file.endsWith(QLatin1String(".prof"));
        if (!report) {
            const QJsonObject info = json(run({QStringLiteral("info"), QStringLiteral("--json"), file}));
            for (const auto& [key, f] : figures) {
                const auto& [group, row, figure] = key;
                if (group == QLatin1String("run")) {
                    const QJsonValue v = atPath(info, row);
                    if (!v.isUndefined())
                        expected[key] = v.isNull() ? std::nullopt : std::optional(v.toDouble());
                }
            }
            for (const QJsonValue& g : info.value(QStringLiteral("gc")).toObject().value(QStringLiteral("generations")).toArray()) {
                const QJsonObject o = g.toObject();
                const QString row = QStringLiteral("gen %1").arg(o.value(QStringLiteral("generation")).toInt());
                for (const char* figure : {"collections", "parallel", "elapsed_ns", "max_pause_ns", "copied_bytes"})
                    expected[{QStringLiteral("generations"), row, QLatin1String(figure)}] = o.value(QLatin1String(figure)).toDouble();
            }
            for (const QJsonValue& c : info.value(QStringLiteral("per_capability")).toArray()) {
                const QJsonObject o = c.toObject();
                const QString row = QStringLiteral("cap %1").arg(o.value(QStringLiteral("cap")).toInt());
                for (const char* figure : {"running_ns", "gc_ns", "gc_sync_ns", "parked_ns", "idle_ns", "runs"})
                    expected[{QStringLiteral("capabilities"), row, QLatin1String(figure)}] = o.value(QLatin1String(figure)).toDouble();
                for (const char* figure : {"created", "converted", "fizzled"})
                    expected[{QStringLiteral("capabilities"), row, QStringLiteral("sparks_") + QLatin1String(figure)}]
                        = o.value(QStringLiteral("sparks")).toObject().value(QLatin1String(figure)).toDouble();
            }
            // Threads: by label, each label's threads added up.
            std::map<QString, std::map<QString, double>> threads;
            for (const auto& row : csvRows(run({QStringLiteral("threads"), file, QStringLiteral("--csv")}).out)) {
                const QString label = row.at(QStringLiteral("label")).isEmpty() ? QStringLiteral("(threads without a label)")
                                                                              : row.at(QStringLiteral("label"));
                threads[label][QStringLiteral("threads")] += 1;
                for (const auto& [column, text] : row)
                    if (column != QLatin1String("thread") && column != QLatin1String("label")
                        && column != QLatin1String("created_ns") && column != QLatin1String("finished_ns")
                        && column != QLatin1String("unknown_ns"))
                        threads[label][column] += text.toDouble();
            }
            for (const auto& [label, columns] : threads)
                for (const auto& [column, sum] : columns)
                    expected[{QStringLiteral("threads"), label, column}] = sum;
            for (const auto& row : csvRows(run({QStringLiteral("spans"), file, QStringLiteral("--csv")}).out))
                for (const auto& [column, text] : row)
                    if (column != QLatin1String("name"))
                        expected[{QStringLiteral("spans"), row.at(QStringLiteral("name")),
                                  column == QLatin1String("never_stopped") ? column : column}]
                            = text.isEmpty() ? std::nullopt : std::optional(text.toDouble());
            const QJsonObject sparks = json(run({QStringLiteral("sparks"), file, QStringLiteral("--json")}));
            if (sparks.value(QStringLiteral("status")).toString() == QLatin1String("ok"))
                for (const char* k : {"count", "stolen", "total_ns", "min_ns", "p10_ns", "median_ns", "mean_ns", "p90_ns",
                                      "p99_ns", "max_ns"})
                    expected[{QStringLiteral("sparks"), QLatin1String(k), QStringLiteral("value")}]
                        = sparks.value(QLatin1String(k)).toDouble();
            // Heap bands: each band's peak and the total's, from its censuses.
            const Run heap = runHecscope({QStringLiteral("heap"), file, QStringLiteral("--csv"), QStringLiteral("--bands"),
                                          QStringLiteral("0")});
            if (heap.exitCode == 0) {
                std::map<QString, double> peak;
                std::map<QString, double> totals; // per census time
                for (const auto& row : csvRows(heap.out)) {
                    const double bytes = row.at(QStringLiteral("bytes")).toDouble();
                    peak[row.at(QStringLiteral("band"))] = std::max(peak[row.at(QStringLiteral("band"))], bytes);
                    totals[row.at(QStringLiteral("time_ns"))] += bytes;
                }
                double total = 0;
                for (const auto& [t, bytes] : totals)
                    total = std::max(total, bytes);
                for (const auto& [band, bytes] : peak)
                    expected[{QStringLiteral("heap"), band, QStringLiteral("peak_bytes")}] = bytes;
                expected[{QStringLiteral("heap"), QStringLiteral("(total)"), QStringLiteral("peak_bytes")}] = total;
            }
        }
        // Cost centres, by Module.label, as `profile --csv` prints them
        // (a report's with -P: ticks, and with --alloc, bytes).
        for (bool alloc : {false, true}) {
            if (alloc && !report)
                continue;
            QStringList args{QStringLiteral("profile"), file, QStringLiteral("--csv")};
            if (alloc)
                args << QStringLiteral("--alloc");
            const Run profile = runHecscope(args);
            if (profile.exitCode != 0 || profile.out.isEmpty())
                continue;
            std::map<QString, int> seen;
            const QString unit = alloc ? QStringLiteral("_bytes") : QStringLiteral("_ticks");
            for (const auto& row : csvRows(profile.out)) {
                QString name = row.at(QStringLiteral("module")).isEmpty()
                    ? row.at(QStringLiteral("label"))
                    : row.at(QStringLiteral("module")) + QLatin1Char('.') + row.at(QStringLiteral("label"));
                const int n = ++seen[name];
                if (n > 1)
                    name += QStringLiteral(" #%1").arg(n);
                expected[{QStringLiteral("cost_centres"), name, QStringLiteral("self") + unit}]
                    = row.at(QStringLiteral("self")).toDouble();
                expected[{QStringLiteral("cost_centres"), name, QStringLiteral("inclusive") + unit}]
                    = row.at(QStringLiteral("inclusive")).toDouble();
            }
        }

        // Every expected figure is diff's; every figure of diff's for this
        // run in a group the commands print is expected.
        for (const auto& [key, value] : expected) {
            const auto it = figures.find(key);
            const QString name = std::get<0>(key) + QLatin1Char('/') + std::get<1>(key) + QLatin1Char('/') + std::get<2>(key);
            QVERIFY2(it != figures.end(), qPrintable(name + QStringLiteral(" missing from diff (side %1)").arg(side)));
            const QJsonValue got = valueOf(it->second);
            if (!value)
                QVERIFY2(got.isNull(), qPrintable(name));
            else
                QVERIFY2(sameNumber(got, *value),
                         qPrintable(name + QStringLiteral(": diff %1, single-run %2").arg(got.toDouble()).arg(*value)));
            ++checked;
        }
        for (const auto& [key, f] : figures) {
            const QString& group = std::get<0>(key);
            if (group == QLatin1String("heap") && std::get<2>(key) != QLatin1String("peak_bytes"))
                continue; // (growth, byte-seconds, share: the pane's figures, not printed by `heap --csv`)
            if (group == QLatin1String("run") && !report && !expected.count(key))
                continue; // (-s figures `info --json` lacks: runFiguresEqualTheRtsSummary)
            if (!valueOf(f).isNull() && !valueOf(f).isUndefined())
                QVERIFY2(expected.count(key),
                         qPrintable(group + QLatin1Char('/') + std::get<1>(key) + QLatin1Char('/') + std::get<2>(key)
                                    + QStringLiteral(" is not a single-run figure (side %1)").arg(side)));
        }
    }
    QVERIFY(checked > 20);

    // B - A and B / A.
    for (const auto& [key, f] : figures) {
        if (f.a.isDouble() && f.b.isDouble()) {
            // (Reals are printed with 6 significant digits: their difference
            // is as exact as the larger of the two.)
            const double d = f.b.toDouble() - f.a.toDouble();
            QVERIFY2(f.difference.isDouble()
                         && std::abs(f.difference.toDouble() - d)
                             <= 1e-5 * std::max({std::abs(f.a.toDouble()), std::abs(f.b.toDouble()), std::abs(d)}),
                     qPrintable(std::get<0>(key) + QLatin1Char('/') + std::get<1>(key) + QLatin1Char('/') + std::get<2>(key)));
            if (f.a.toDouble() != 0)
                QVERIFY(sameNumber(f.ratio, f.b.toDouble() / f.a.toDouble()));
            else
                QVERIFY(f.ratio.isNull());
        } else {
            QVERIFY(f.difference.isNull());
            QVERIFY(f.ratio.isNull());
        }
    }
}

// --range: the same stretch of each run, as `threads --range` and `spans
// --range` count it.
void TestDiff::rangeFiguresEqualTheSingleRunCommands()
{
    const QString a = testdataFile("logs/spans-N2.eventlog");
    const QString b = testdataFile("logs/threads-N2.eventlog");
    const QString range = QStringLiteral("20ms:60ms");
    const QJsonObject diff = json(run({QStringLiteral("diff"), a, b, QStringLiteral("--json"), QStringLiteral("--range"), range}));
    const Figures figures = figuresOf(diff);
    QVERIFY(diff.value(QStringLiteral("range")).toObject().value(QStringLiteral("a")).toObject().value(QStringLiteral("start_ns")).toDouble() == 20e6);
    // The log's event and thread counts are whole-run figures: not given
    // for a stretch (its threads are in the threads group).
    for (const QJsonValue& f : diff.value(QStringLiteral("figures")).toArray()) {
        const QJsonObject o = f.toObject();
        if (o.value(QStringLiteral("group")).toString() == QLatin1String("run"))
            QVERIFY2(o.value(QStringLiteral("key")).toString() != QLatin1String("events")
                         && o.value(QStringLiteral("key")).toString() != QLatin1String("threads"),
                     qPrintable(o.value(QStringLiteral("key")).toString()));
    }
    size_t checked = 0;
    for (const auto& [side, file] : {std::pair{0, a}, std::pair{1, b}}) {
        for (const auto& row : csvRows(run({QStringLiteral("spans"), file, QStringLiteral("--csv"), QStringLiteral("--range"), range}).out)) {
            for (const char* column : {"count", "total_ns", "p95_ns"}) {
                const auto it = figures.find({QStringLiteral("spans"), row.at(QStringLiteral("name")), QLatin1String(column)});
                QVERIFY(it != figures.end());
                const QJsonValue got = side == 0 ? it->second.a : it->second.b;
                const QString text = row.at(QLatin1String(column));
                QVERIFY(text.isEmpty() ? got.isNull() : sameNumber(got, text.toDouble()));
                ++checked;
            }
        }
        std::map<QString, double> runNs;
        for (const auto& row : csvRows(run({QStringLiteral("threads"), file, QStringLiteral("--csv"), QStringLiteral("--range"), range}).out)) {
            const QString label = row.at(QStringLiteral("label")).isEmpty() ? QStringLiteral("(threads without a label)")
                                                                          : row.at(QStringLiteral("label"));
            runNs[label] += row.at(QStringLiteral("run_ns")).toDouble();
        }
        QVERIFY(!runNs.empty());
        for (const auto& [label, ns] : runNs) {
            const auto it = figures.find({QStringLiteral("threads"), label, QStringLiteral("run_ns")});
            QVERIFY2(it != figures.end(), qPrintable(label));
            QVERIFY(sameNumber(side == 0 ? it->second.a : it->second.b, ns));
            ++checked;
        }
    }
    QVERIFY(checked > 10);
}

void TestDiff::runFiguresEqualTheRtsSummary_data()
{
    QTest::addColumn<QString>("a");
    QTest::addColumn<QString>("b");
    QTest::newRow("parfib") << QStringLiteral("parfib-N1") << QStringLiteral("parfib-N4");
    QTest::newRow("leak") << QStringLiteral("leak-before") << QStringLiteral("leak-after");
}

// The -s figures of both runs equal what the RTS printed for each run:
// bytes allocated, copied, maximum residency, collections per generation,
// sparks.
void TestDiff::runFiguresEqualTheRtsSummary()
{
    QFETCH(QString, a);
    QFETCH(QString, b);
    const auto path = [](const QString& name, const char* suffix) {
        return QStringLiteral(HECSCOPE_TESTDATA_DIR "/compare/") + name + QLatin1String(suffix);
    };
    const Figures figures = figuresOf(json(run({QStringLiteral("diff"), path(a, ".eventlog"), path(b, ".eventlog"),
                                                QStringLiteral("--json")})));
    for (int side = 0; side < 2; ++side) {
        const QString s = QString::fromStdString(readText(path(side ? b : a, ".s.txt")));
        const auto number = [&](const char* pattern) {
            const QRegularExpressionMatch m = QRegularExpression(QLatin1String(pattern)).match(s);
            return m.hasMatch() ? QString(m.captured(1)).remove(QLatin1Char(',')).toDouble() : -1.0;
        };
        const auto figure = [&](const char* group, const char* key, const char* column) {
            const Figure& f = figures.at({QLatin1String(group), QLatin1String(key), QLatin1String(column)});
            return (side ? f.b : f.a).toDouble();
        };
        QCOMPARE(figure("run", "heap.allocated_bytes", "value"), number(R"(([\d,]+) bytes allocated in the heap)"));
        QCOMPARE(figure("run", "gc.copied_bytes", "value"), number(R"(([\d,]+) bytes copied during GC)"));
        QCOMPARE(figure("run", "gc.max_residency_bytes", "value"), number(R"(([\d,]+) bytes maximum residency)"));
        QCOMPARE(figure("generations", "gen 0", "collections"), number(R"(Gen  0\s+(\d+) colls)"));
        QCOMPARE(figure("generations", "gen 1", "collections"), number(R"(Gen  1\s+(\d+) colls)"));
        QCOMPARE(figure("generations", "gen 0", "parallel"), number(R"(Gen  0\s+\d+ colls,\s+(\d+) par)"));
        QCOMPARE(figure("run", "sparks.total", "value"), number(R"(SPARKS: (\d+))"));
        QCOMPARE(figure("run", "sparks.converted", "value"), number(R"(SPARKS: \d+ \((\d+) converted)"));
        QCOMPARE(figure("run", "sparks.fizzled", "value"), number(R"((\d+) fizzled)"));
        // The pauses' percentiles lie in order, none past the longest.
        const double p50 = figure("run", "gc.pause_p50_ns", "value"), p90 = figure("run", "gc.pause_p90_ns", "value"),
                     p99 = figure("run", "gc.pause_p99_ns", "value"), max = figure("run", "gc.max_pause_ns", "value");
        QVERIFY(0 < p50 && p50 <= p90 && p90 <= p99 && p99 <= max);
    }
}

void TestDiff::differentialFoldedAddsUpToEachRun_data()
{
    QTest::addColumn<QString>("a");
    QTest::addColumn<QString>("b");
    QTest::newRow("eventlogs") << compareLog("profile-before.eventlog") << compareLog("profile-slower.eventlog");
    QTest::newRow("reports") << compareLog("profile-before.prof") << compareLog("profile-slower.prof");
    QTest::newRow("eventlog / report") << compareLog("profile-before.eventlog") << compareLog("profile-slower.prof");
}

// The differential flame graph's frames: per stack, A's and B's self
// figures add up to each run's own `profile --folded`.
void TestDiff::differentialFoldedAddsUpToEachRun()
{
    QFETCH(QString, a);
    QFETCH(QString, b);
    const Run r = run({QStringLiteral("diff"), a, b, QStringLiteral("--folded")});
    QCOMPARE(r.exitCode, 0);
    std::map<QString, double> diffSums[2], ownSums[2];
    for (const QString& line : QString::fromUtf8(r.out).split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        const QStringList parts = line.split(QLatin1Char(' '));
        QVERIFY2(parts.size() >= 3, qPrintable(line));
        const QString stack = parts.mid(0, parts.size() - 2).join(QLatin1Char(' '));
        diffSums[0][stack] += parts[parts.size() - 2].toDouble();
        diffSums[1][stack] += parts[parts.size() - 1].toDouble();
    }
    for (int side = 0; side < 2; ++side) {
        const Run own = run({QStringLiteral("profile"), side ? b : a, QStringLiteral("--folded")});
        QCOMPARE(own.exitCode, 0);
        for (const QString& line : QString::fromUtf8(own.out).split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
            const qsizetype space = line.lastIndexOf(QLatin1Char(' '));
            ownSums[side][line.left(space)] += line.mid(space + 1).toDouble();
        }
        std::erase_if(diffSums[side], [](const auto& kv) { return kv.second == 0; });
        QVERIFY(!ownSums[side].empty());
        QCOMPARE(diffSums[side], ownSums[side]);
    }
    // The slower function grew: its stack's B is larger than its A.
    double collatzA = 0, collatzB = 0;
    for (const auto& [stack, v] : diffSums[0])
        if (stack.contains(QLatin1String("collatzMax")))
            collatzA += v;
    for (const auto& [stack, v] : diffSums[1])
        if (stack.contains(QLatin1String("collatzMax")))
            collatzB += v;
    QVERIFY2(collatzB > 2 * collatzA, qPrintable(QStringLiteral("%1 -> %2").arg(collatzA).arg(collatzB)));
}

// The fix shows: the heap profile's total peak and the maximum residency
// fell, as the -s texts of the two runs say.
void TestDiff::theLeakIsGone()
{
    const Figures figures = figuresOf(json(run({QStringLiteral("diff"), compareLog("leak-before.eventlog"),
                                                compareLog("leak-after.eventlog"), QStringLiteral("--json")})));
    const Figure& total = figures.at({QStringLiteral("heap"), QStringLiteral("(total)"), QStringLiteral("peak_bytes")});
    QVERIFY2(total.b.toDouble() < total.a.toDouble() / 2, qPrintable(QStringLiteral("%1 -> %2").arg(total.a.toDouble()).arg(total.b.toDouble())));
    const Figure& residency = figures.at({QStringLiteral("run"), QStringLiteral("gc.max_residency_bytes"), QStringLiteral("value")});
    QVERIFY(residency.b.toDouble() < residency.a.toDouble());
    QVERIFY(residency.difference.toDouble() < 0);
}

// The eventlog and the .hp file of one -hc run: every band is matched (the
// .hp's cost-centre-stack numbers and cut names notwithstanding) and has the
// same peak in both.
void TestDiff::oneRunRecordedTwoWaysMatchesEveryBand()
{
    const QJsonObject o = json(run({QStringLiteral("diff"), testdataFile("logs/leak-prof-hc.eventlog"),
                                    testdataFile("logs/leak-prof-hc.hp"), QStringLiteral("--json"), QStringLiteral("--only"),
                                    QStringLiteral("heap")}));
    size_t bands = 0;
    for (const auto& [key, f] : figuresOf(o)) {
        if (std::get<2>(key) != QLatin1String("peak_bytes"))
            continue;
        QVERIFY2(f.a.isDouble() && f.b.isDouble(), qPrintable(std::get<1>(key)));
        QCOMPARE(f.b.toDouble(), f.a.toDouble());
        ++bands;
    }
    QVERIFY(bands >= 10);
}

// --fail-if: status 3 and the failing figures on stderr when a figure got
// worse by more than the threshold; 0 when none did; 3 when a check matches
// nothing both runs have.
void TestDiff::checksFailWithTheirOwnStatus()
{
    const QString a = compareLog("profile-before.eventlog"), b = compareLog("profile-slower.eventlog");
    const QString ab[] = {a, b};
    const auto diff = [&](const QString& check, bool reversed = false) {
        return runHecscope({QStringLiteral("diff"), ab[reversed ? 1 : 0], ab[reversed ? 0 : 1], QStringLiteral("--only"),
                            QStringLiteral("cost_centres"), QStringLiteral("--fail-if"), check});
    };
    Run r = diff(QStringLiteral("cost_centres/Main.collatzMax/inclusive_ticks:+50%"));
    QCOMPARE(r.exitCode, 3);
    QVERIFY2(r.err.contains("Main.collatzMax/inclusive_ticks") && r.err.contains("failed"), r.err.constData());
    QVERIFY(!r.out.isEmpty()); // (the comparison is still printed)
    r = diff(QStringLiteral("cost_centres/Main.collatzMax/inclusive_ticks:+2000%"));
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.err.contains("passed"), r.err.constData());
    // A fall is not a growth: the other way round, only a -N% check fails.
    r = diff(QStringLiteral("cost_centres/Main.collatzMax/inclusive_ticks:+50%"), true);
    QCOMPARE(r.exitCode, 0);
    r = diff(QStringLiteral("cost_centres/Main.collatzMax/inclusive_ticks:-50%"), true);
    QCOMPARE(r.exitCode, 3);
    // Either way, and an amount in the figure's unit.
    r = diff(QStringLiteral("cost_centres/Main.collatzMax*:100"), true);
    QCOMPARE(r.exitCode, 3);
    r = runHecscope({QStringLiteral("diff"), a, b, QStringLiteral("--fail-if"), QStringLiteral("run/time.total_ns:+1ms")});
    QCOMPARE(r.exitCode, 3);
    QVERIFY2(r.err.contains("run/time.total_ns/value"), r.err.constData());
    r = runHecscope({QStringLiteral("diff"), a, b, QStringLiteral("--fail-if"), QStringLiteral("run/time.total_ns:+100s")});
    QCOMPARE(r.exitCode, 0);
    // Nothing to compare is a failure, never a silent pass.
    r = diff(QStringLiteral("cost_centres/NoSuch.function:+1%"));
    QCOMPARE(r.exitCode, 3);
    QVERIFY2(r.err.contains("no figure that both runs have"), r.err.constData());
    // The checks are in --json too.
    r = runHecscope({QStringLiteral("diff"), a, b, QStringLiteral("--json"), QStringLiteral("--fail-if"),
                     QStringLiteral("cost_centres/Main.collatzMax/*:+50%")});
    QCOMPARE(r.exitCode, 3);
    const QJsonArray checks = json(r).value(QStringLiteral("checks")).toArray();
    QCOMPARE(checks.size(), 1);
    QCOMPARE(checks[0].toObject().value(QStringLiteral("passed")).toBool(true), false);
    QVERIFY(checks[0].toObject().value(QStringLiteral("failed")).toArray().size() >= 1);
}

// The CSV carries the same figures as the JSON, and the text names both
// files and every group.
void TestDiff::textAndCsvCarryTheSameFigures()
{
    const QString a = compareLog("parfib-N1.eventlog"), b = compareLog("parfib-N4.eventlog");
    const Figures figures = figuresOf(json(run({QStringLiteral("diff"), a, b, QStringLiteral("--json")})));
    const auto rows = csvRows(run({QStringLiteral("diff"), a, b, QStringLiteral("--csv")}).out);
    QCOMPARE(rows.size(), figures.size());
    for (const auto& row : rows) {
        const auto it = figures.find({row.at(QStringLiteral("group")), row.at(QStringLiteral("key")), row.at(QStringLiteral("figure"))});
        QVERIFY(it != figures.end());
        for (const auto& [column, value] : {std::pair{QStringLiteral("a"), it->second.a}, std::pair{QStringLiteral("b"), it->second.b},
                                           std::pair{QStringLiteral("difference"), it->second.difference}}) {
            const QString text = row.at(column);
            QVERIFY(text.isEmpty() ? value.isNull() : sameNumber(value, text.toDouble()));
        }
    }
    const Run text = run({QStringLiteral("diff"), a, b});
    QCOMPARE(text.exitCode, 0);
    QVERIFY(text.out.contains(a.toUtf8()));
    QVERIFY(text.out.contains(b.toUtf8()));
    for (const char* group : {"\nrun ", "\ngenerations ", "\ncapabilities ", "\nthreads "})
        QVERIFY2(text.out.contains(group), group);
    QVERIFY(text.out.contains("note: capabilities: 0 caps only in A, 3 only in B"));
}

void TestDiff::runsWithLittleInCommon_data()
{
    QTest::addColumn<QString>("a");
    QTest::addColumn<QString>("b");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("said");
    const QString conformance = conformanceDir();
    QTest::newRow("eventlog / .hp") << testdataFile("logs/leak-prof-hc.eventlog") << testdataFile("logs/leak-prof-hc.hp")
                                    << 0 << QStringLiteral("threads: only A has them; B (heap profile (.hp))");
    QTest::newRow("eventlog / .prof") << compareLog("profile-before.eventlog") << compareLog("profile-slower.prof")
                                      << 0 << QStringLiteral("A is an eventlog, B a cost-centre report (.prof)");
    QTest::newRow(".hp / .prof") << testdataFile("logs/leak-prof-hc.hp") << compareLog("profile-before.prof") << 0
                                 << QStringLiteral("heap: only A has them");
    if (!conformance.isEmpty())
        QTest::newRow("GHC 8.2 / 9.0") << conformance + QStringLiteral("/ghc-events/hello-ghc-8.2.2.eventlog")
                                       << compareLog("parfib-N1.eventlog") << 0
                                       << QStringLiteral("the runs were made by different RTSs");
    QTest::newRow("truncated") << QStringLiteral("TRUNCATED") << compareLog("parfib-N4.eventlog") << 0
                               << QStringLiteral("A is truncated");
    QTest::newRow("not a log") << QStringLiteral("GARBAGE") << compareLog("parfib-N4.eventlog") << 1
                               << QStringLiteral("A: ");
}

// Whatever the pair, a comparison without a crash, and notes that say what
// cannot be compared.
void TestDiff::runsWithLittleInCommon()
{
    QFETCH(QString, a);
    QFETCH(QString, b);
    QFETCH(int, exitCode);
    QFETCH(QString, said);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    if (a == QLatin1String("TRUNCATED") || a == QLatin1String("GARBAGE")) {
        std::vector<uint8_t> bytes = readFile(compareLog("parfib-N1.eventlog"));
        if (a == QLatin1String("TRUNCATED"))
            bytes.resize(bytes.size() * 2 / 3);
        else
            bytes.assign(5000, 0x5a);
        a = dir.filePath(QStringLiteral("a.eventlog"));
        QFile f(a);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(reinterpret_cast<const char*>(bytes.data()), qint64(bytes.size()));
    }
    for (const char* format : {"--json", "--csv", ""}) {
        QStringList args{QStringLiteral("diff"), a, b};
        if (*format)
            args << QLatin1String(format);
        const Run r = runHecscope(args);
        QCOMPARE(r.exitCode, exitCode);
        QVERIFY(!r.out.isEmpty());
        if (*format == 0)
            QVERIFY2(r.out.contains(said.toUtf8()), r.out.left(2000).constData());
        if (QLatin1String(format) == QLatin1String("--json")) {
            const QJsonObject o = json(r);
            QVERIFY(o.contains(QStringLiteral("notes")));
            QVERIFY(!o.value(QStringLiteral("notes")).toArray().isEmpty());
        }
    }
}

void TestDiff::usageErrors_data()
{
    QTest::addColumn<QStringList>("args");
    const QString a = compareLog("parfib-N1.eventlog");
    QTest::newRow("one file") << QStringList{QStringLiteral("diff"), a};
    QTest::newRow("three files") << QStringList{QStringLiteral("diff"), a, a, a};
    QTest::newRow("two outputs") << QStringList{QStringLiteral("diff"), a, a, QStringLiteral("--json"), QStringLiteral("--csv")};
    QTest::newRow("bad check") << QStringList{QStringLiteral("diff"), a, a, QStringLiteral("--fail-if"), QStringLiteral("run")};
    QTest::newRow("bad threshold") << QStringList{QStringLiteral("diff"), a, a, QStringLiteral("--fail-if"),
                                                  QStringLiteral("run/time.total_ns:+fast")};
    QTest::newRow("bad range") << QStringList{QStringLiteral("diff"), a, a, QStringLiteral("--range"), QStringLiteral("2s:1s")};
    QTest::newRow("unknown option") << QStringList{QStringLiteral("diff"), a, a, QStringLiteral("--bogus")};
}

void TestDiff::usageErrors()
{
    QFETCH(QStringList, args);
    const Run r = runHecscope(args);
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.out.isEmpty());
    QVERIFY2(r.err.startsWith("hecscope diff: ") && r.err.contains("`hecscope diff --help`"), r.err.constData());
}

} // namespace

QTEST_GUILESS_MAIN(TestDiff)
#include "tst_diff.moc"
