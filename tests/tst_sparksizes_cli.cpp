// tst_sparksizes: `hecscope sparks`, spark events read back by range,
// ranged evaluations, a changed file, and an index that keeps no spark
// event.
#include "tst_sparksizes.h"

// `hecscope sparks`: the same figures as text and JSON, for the run, a
// range and a capability, counted against the text walk.
void TestSparkSizes::commandLine()
{
    const std::vector<Walked> walked = walkDump(dumpBytes(readFile(kSparksLf)));
    const auto count = [&](uint64_t t1, int cap) {
        return qint64(std::count_if(walked.begin(), walked.end(), [&](const Walked& w) { return w.start < t1 && (cap < 0 || w.cap == cap); }));
    };
    const Run text = runHecscope({QStringLiteral("sparks"), kSparksLf});
    QCOMPARE(text.exitCode, 0);
    QVERIFY(text.err.isEmpty());
    const qint64 stolen = std::count_if(walked.begin(), walked.end(), [](const Walked& w) { return w.stolen; });
    QVERIFY2(text.out.contains(QStringLiteral("sparks evaluated: %1 (%2 stolen)").arg(QString::fromStdString(formatGrouped(walked.size())), QString::fromStdString(formatGrouped(uint64_t(stolen)))).toUtf8()),
             text.out.constData());
    QVERIFY(text.out.contains("whole run, all capabilities"));

    struct Case {
        QStringList args;
        qint64 want;
    };
    const Case cases[] = {
        {{}, qint64(walked.size())},
        {{QStringLiteral("--range"), QStringLiteral(":380ms")}, count(380'000'000, -1)},
        {{QStringLiteral("--cap"), QStringLiteral("1")}, count(UINT64_MAX, 1)},
        {{QStringLiteral("--range"), QStringLiteral(":380ms"), QStringLiteral("--cap"), QStringLiteral("0")}, count(380'000'000, 0)},
    };
    for (const Case& c : cases) {
        const Run r = runHecscope(QStringList{QStringLiteral("sparks"), kSparksLf, QStringLiteral("--json")} + c.args);
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o.value(QStringLiteral("status")).toString(), QStringLiteral("ok"));
        QCOMPARE(o.value(QStringLiteral("count")).toInteger(), c.want);
        QVERIFY(c.want > 0);
        qint64 inBins = 0;
        for (const QJsonValue& b : o.value(QStringLiteral("bins")).toArray())
            inBins += b.toObject().value(QStringLiteral("count")).toInteger();
        QCOMPARE(inBins, c.want);
    }
}

void TestSparkSizes::commandLineWithoutFineGrainedEvents()
{
    const QString path = QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/sparks-N2.eventlog");
    const Run r = runHecscope({QStringLiteral("sparks"), path, QStringLiteral("--json")});
    QCOMPARE(r.exitCode, 0);
    const QJsonObject o = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(o.value(QStringLiteral("status")).toString(), QStringLiteral("no_fine_grained_events"));
    QVERIFY(o.value(QStringLiteral("message")).toString().contains(QStringLiteral("+RTS -lf")));
    QCOMPARE(o.value(QStringLiteral("count")).toInteger(), 0);
    const Run text = runHecscope({QStringLiteral("sparks"), path});
    QCOMPARE(text.exitCode, 0);
    QVERIFY(text.out.contains("+RTS -lf"));
}

void TestSparkSizes::commandLineUsageErrors_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::newRow("no file") << QStringList{};
    QTest::newRow("cap beyond the log") << QStringList{kSparksLf, QStringLiteral("--cap"), QStringLiteral("2")};
    QTest::newRow("cap not a number") << QStringList{kSparksLf, QStringLiteral("--cap"), QStringLiteral("one")};
    QTest::newRow("range backwards") << QStringList{kSparksLf, QStringLiteral("--range"), QStringLiteral("2s:1s")};
    QTest::newRow("unknown option") << QStringList{kSparksLf, QStringLiteral("--csv")};
}

void TestSparkSizes::commandLineUsageErrors()
{
    QFETCH(QStringList, args);
    const Run r = runHecscope(QStringList{QStringLiteral("sparks")} + args);
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.err.contains("hecscope sparks: "));
    QVERIFY(r.out.isEmpty());
}

// The spark events read back from the file: all of them are the index's
// counts per kind; a range's are exactly those of the whole read in it.
void TestSparkSizes::sparkEventsReadBackByRange()
{
    const auto ix = load(readFile(kSparksLf));
    const SparkEventsRead all = readSparkEvents(*ix.source, *ix, 0, UINT64_MAX);
    QVERIFY2(all.error.empty(), all.error.c_str());
    std::map<uint16_t, uint64_t> byTag;
    for (const SparkEvent& e : all.events)
        ++byTag[e.tag];
    uint64_t counted[7] = {};
    for (const Capability& c : ix->caps)
        for (int k = 0; k < 7; ++k)
            counted[k] += c.sparkEvents[k];
    for (uint16_t t : {tag::SparkCreate, tag::SparkRun, tag::SparkFizzle, tag::SparkSteal})
        QCOMPARE(byTag[t], counted[t - tag::SparkCreate]);
    QVERIFY(byTag[tag::SparkCreate] > 800 && byTag[tag::SparkSteal] > 800);
    QVERIFY(std::is_sorted(all.events.begin(), all.events.end(),
                           [](const SparkEvent& a, const SparkEvent& b) { return a.time < b.time; }));
    const uint64_t end = ix->lastTime + 1;
    for (uint64_t i = 0; i < 16; ++i) {
        const uint64_t t0 = end / 16 * i + i * 7919, t1 = i == 15 ? end : end / 16 * (i + 1) + 13 * i;
        const SparkEventsRead part = readSparkEvents(*ix.source, *ix, t0, t1);
        QVERIFY2(part.error.empty(), part.error.c_str());
        std::vector<SparkEvent> want;
        std::copy_if(all.events.begin(), all.events.end(), std::back_inserter(want),
                     [&](const SparkEvent& e) { return e.time >= t0 && e.time < t1; });
        QCOMPARE(part.events.size(), want.size());
        for (size_t k = 0; k < want.size(); ++k) {
            QCOMPARE(part.events[k].time, want[k].time);
            QCOMPARE(part.events[k].cap, want[k].cap);
            QCOMPARE(part.events[k].tag, want[k].tag);
            QCOMPARE(part.events[k].other, want[k].other);
        }
    }
}

// What the pane computes for a range (its spark events read for it, and on
// past it for each thread's next spark) is what the whole run's evaluations
// say of that range: same evaluations, same durations and ends.
void TestSparkSizes::rangedEvaluationsAreTheWholeRunsOnes()
{
    const auto ix = load(readFile(kSparksLf));
    const SparkEvaluations whole = evaluate(ix);
    QVERIFY(whole.evaluations.size() > 800);
    const uint64_t end = ix->lastTime + 1;
    std::vector<ViewRange> ranges;
    for (uint64_t parts : {2, 3, 8, 40})
        for (uint64_t i = 0; i < parts; ++i)
            ranges.push_back({end / parts * i, i + 1 == parts ? end : end / parts * (i + 1)});
    for (size_t i = 0; i < whole.evaluations.size(); i += 97) // ranges starting or ending at a spark
        ranges.push_back({whole.evaluations[i].start, whole.evaluations[i].start + 1});
    ranges.push_back({whole.evaluations.back().start, end});
    int endedPastTheRange = 0;
    for (const ViewRange& r : ranges) {
        const SparkEvaluations ranged = evaluate(ix, r);
        const QString where = QStringLiteral("range %1-%2").arg(r.start).arg(r.end);
        QVERIFY2(ranged.error.empty(), ranged.error.c_str());
        QCOMPARE(ranged.unattributed, uint64_t(0));
        std::vector<SparkEvaluation> want;
        std::copy_if(whole.evaluations.begin(), whole.evaluations.end(), std::back_inserter(want),
                     [&](const SparkEvaluation& e) { return e.start >= r.start && e.start < r.end; });
        QVERIFY2(ranged.evaluations.size() == want.size(), qPrintable(where));
        for (size_t k = 0; k < want.size(); ++k) {
            const SparkEvaluation& g = ranged.evaluations[k];
            QVERIFY2(g.start == want[k].start && g.cap == want[k].cap && g.thread == want[k].thread, qPrintable(where));
            QVERIFY2(g.duration == want[k].duration && g.end == want[k].end && g.stolen == want[k].stolen,
                     qPrintable(where + QStringLiteral(": evaluation at %1: %2 ns, whole run %3 ns").arg(g.start).arg(g.duration).arg(want[k].duration)));
            endedPastTheRange += g.end == SparkEnd::NextSpark && g.start + g.duration >= r.end;
        }
        for (int cap : {-1, 0, 1}) {
            const SparkSizes a = sparkSizes(ranged, r, cap), b = sparkSizes(whole, r, cap);
            QCOMPARE(a.status, b.status);
            QCOMPARE(a.count, b.count);
            QCOMPARE(a.total, b.total);
            QCOMPARE(a.median, b.median);
            QCOMPARE(a.p99, b.p99);
            QCOMPARE(a.bins.size(), b.bins.size());
            QCOMPARE(sparkSizesMessage(a, ranged), sparkSizesMessage(b, whole));
        }
    }
    QVERIFY(endedPastTheRange > 10); // the reading on past a range was needed
}

// A file changed or cut since it was indexed: an error naming the byte, no
// figures (the pane and the command line say it).
void TestSparkSizes::changedFileIsToldNotMeasured()
{
    const std::vector<uint8_t> bytes = readFile(kSparksLf);
    const auto ix = load(bytes);
    QVERIFY(ix->instants.size() > 1 && ix->instants[1].marks() > 2);
    const InstantMark& m = ix->instants[1].mark(2);
    std::vector<uint8_t> retimed = bytes;
    retimed[m.offset + 9] ^= 0x01; // the time's lowest byte (big-endian, after the tag)
    std::vector<uint8_t> cut(bytes.begin(), bytes.begin() + ptrdiff_t(m.offset + 5));
    for (const auto* changed : {&retimed, &cut}) {
        MemorySource source(*changed);
        const SparkEvaluations evals = sparkEvaluations(*ix, source);
        QVERIFY2(evals.error.find("changed") != std::string::npos, evals.error.c_str());
        QVERIFY2(evals.error.find("byte " + std::to_string(changed == &retimed ? m.offset : m.offset + 5)) != std::string::npos
                     || (changed == &cut && evals.error.find("byte ") != std::string::npos),
                 evals.error.c_str());
        QVERIFY(evals.evaluations.empty());
        const SparkSizes s = sparkSizes(evals, std::nullopt);
        QCOMPARE(s.status, SparkSizesStatus::Unreadable);
        QCOMPARE(s.count, uint64_t(0));
        QVERIFY(sparkSizesMessage(s, evals).find(evals.error) != std::string::npos);
        // A range after the change reads from a later mark: not told.
        // One that covers it is.
        const SparkEvaluations around = sparkEvaluations(*ix, source, ViewRange{m.time, m.time + 1});
        QVERIFY2(!around.error.empty(), "a range over the changed record");
    }
    MemorySource same(bytes);
    QVERIFY(sparkEvaluations(*ix, same).error.empty());
}

// The index keeps counts of spark events, never the events: a log with
// 100,000 more of them takes (almost) no more index memory.
void TestSparkSizes::indexKeepsNoSparkEvent()
{
    // One thread runs on capability 0 for the whole log; SPARK_CREATE and
    // SPARK_DUD (one kind the instant marks cover, one they do not) every
    // nanosecond, in blocks of 1,000 events.
    const auto build = [](uint64_t sparks) {
        EventlogWriter w(EventlogWriter::allDeclarations());
        const auto write = [&w](uint16_t t, uint64_t time, std::initializer_list<uint64_t> n) { w.write(OwnedEvent(t, time, n).event); };
        w.beginBlock(0, 10);
        write(tag::RunThread, 10, {1});
        for (uint64_t i = 0; i < sparks; ++i) {
            if (i % 1000 == 999) {
                w.endBlock(20 + i);
                w.beginBlock(0, 20 + i);
            }
            write(i % 2 ? tag::SparkDud : tag::SparkCreate, 20 + i, {});
        }
        write(tag::StopThread, 20 + sparks, {1, 5, 0});
        w.endBlock(20 + sparks);
        w.writeDataEnd();
        return w.takeBytes();
    };
    const uint64_t n = 100000;
    const auto without = load(build(0));
    const auto with = load(build(n));
    QVERIFY(with->scan.diagnostics.empty());
    QCOMPARE(with->caps[0].sparkEvents[0] + with->caps[0].sparkEvents[tag::SparkDud - tag::SparkCreate], n);
    const size_t grown = with->memoryBytes() - without->memoryBytes();
    QVERIFY2(grown < n, qPrintable(QStringLiteral("%1 bytes more for %2 spark events").arg(grown).arg(n)));
    // And they are read back.
    const SparkEventsRead read = readSparkEvents(*with.source, *with, 0, UINT64_MAX);
    QVERIFY2(read.error.empty(), read.error.c_str());
    QCOMPARE(uint64_t(read.events.size()), n / 2); // the SPARK_CREATEs
}
