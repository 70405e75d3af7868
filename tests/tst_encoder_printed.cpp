// tst_encoder: the printed text of every event type, and real logs
// re-encoded byte for byte.
#include "tst_encoder.h"

void TestEncoder::printedText_data()
{
    QTest::addColumn<bool>("legacy");    // PrinterStyle::Legacy (ghc-events <= 0.17)
    QTest::addColumn<bool>("shortStop"); // STOP_THREAD declared with 6 bytes
    QTest::addColumn<int>("tag");
    QTest::addColumn<QList<quint64>>("n");
    QTest::addColumn<QList<QByteArray>>("s");
    QTest::addColumn<QList<quint32>>("ids");
    QTest::addColumn<QByteArray>("expected"); // the event's output, time 77, no cap

    auto row = [](const char* name, int t, QList<quint64> n, QList<QByteArray> s,
                  QByteArray expected, QList<quint32> ids = {}, bool shortStop = false) {
        QTest::newRow(name) << false << shortStop << t << n << s << ids << expected;
    };
    auto legacyRow = [](const char* name, int t, QList<quint64> n, QByteArray expected) {
        QTest::newRow(name) << true << false << t << n << QList<QByteArray>{} << QList<quint32>{} << expected;
    };
    // 3.3: status texts, head's where head has one, the releases' otherwise.
    row("stop black hole", tag::StopThread, {5, 8, 23}, {},
        "77: stopping thread 5 (blocked on black hole owned by thread 23)\n");
    row("stop black hole unknown owner", tag::StopThread, {5, 8, 0}, {},
        "77: stopping thread 5 (blocked on black hole owned by thread 0)\n");
    row("stop blocked", tag::StopThread, {5, 4, 0}, {}, "77: stopping thread 5 (thread blocked)\n");
    row("stop stack overflow", tag::StopThread, {5, 2, 4096}, {},
        "77: stopping thread 5 (stack overflow, size 4096)\n");
    row("stop heap overflow", tag::StopThread, {1, 1, 0}, {}, "77: stopping thread 1 (heap overflow)\n");
    row("stop yielding", tag::StopThread, {1, 3, 0}, {}, "77: stopping thread 1 (thread yielding)\n");
    row("stop finished", tag::StopThread, {1, 5, 0}, {}, "77: stopping thread 1 (thread finished)\n");
    row("stop foreign call", tag::StopThread, {1, 6, 0}, {},
        "77: stopping thread 1 (making a foreign call)\n");
    row("stop mvar", tag::StopThread, {1, 7, 0}, {}, "77: stopping thread 1 (blocked on an MVar)\n");
    row("stop read", tag::StopThread, {1, 9, 0}, {}, "77: stopping thread 1 (blocked on I/O read)\n");
    row("stop delay", tag::StopThread, {1, 11, 0}, {},
        "77: stopping thread 1 (blocked on threadDelay)\n");
    row("stop stm", tag::StopThread, {1, 12, 0}, {}, "77: stopping thread 1 (blocked in STM retry)\n");
    row("stop foreign 14", tag::StopThread, {1, 14, 0}, {},
        "77: stopping thread 1 (blocked in a foreign call)\n");
    row("stop throwTo", tag::StopThread, {1, 18, 0}, {}, "77: stopping thread 1 (blocked in throwTo)\n");
    row("stop mvar read", tag::StopThread, {1, 20, 0}, {},
        "77: stopping thread 1 (blocked reading an MVar)\n");
    row("stop none", tag::StopThread, {1, 0, 0}, {}, "77: stopping thread 1 (No stop thread status)\n");
    row("stop 19", tag::StopThread, {1, 19, 0}, {}, "77: stopping thread 1 (No stop thread status)\n");
    row("stop beyond max", tag::StopThread, {1, 21, 0}, {},
        "77: stopping thread 1 (No stop thread status)\n");
    row("stop 6-byte black hole", tag::StopThread, {3, 8}, {},
        "77: stopping thread 3 (blocked on a black hole)\n", {}, true);
    row("stop 6-byte overflow", tag::StopThread, {3, 2}, {},
        "77: stopping thread 3 (stack overflow)\n", {}, true);

    // 3.4: Haskell `show` of the argument vector.
    row("args escapes", tag::ProgramArgs, {7},
        {raw("prog\0a\"b\0x\\y\0\xC3\xA9" "1\0\xCE\xBBx\0\x0EH\0\x7F\0\n\t\x01\0"
             "\xF0\x9F\x98\x80\0")},
        "77: capset 7: args: [\"prog\",\"a\\\"b\",\"x\\\\y\",\"\\233\\&1\",\"\\955x\","
        "\"\\SO\\&H\",\"\\DEL\",\"\\n\\t\\SOH\",\"\\128512\"]\n");
    row("env empty inner and trailing", tag::ProgramEnv, {0}, {raw("A=1\0\0B=2\0\0\0")},
        "77: capset 0: env: [\"A=1\",\"\",\"B=2\"]\n");
    row("env empty", tag::ProgramEnv, {0}, {QByteArray()}, "77: capset 0: env: [\"\"]\n");

    QByteArray allBytes;
    for (int b = 0; b < 256; ++b)
        allBytes.append(char(b));
    QByteArray printable;
    for (int c = 0x20; c < 0x7F; ++c)
        printable.append(char(c));
    row("binary all bytes", tag::UserBinaryMsg, {}, {allBytes},
        "77: binary message " + QByteArray(32, '.') + printable + QByteArray(129, '.') + "\n");
    row("binary utf-8", tag::UserBinaryMsg, {}, {raw("Hello, \xC3\xA9\xE3\x81\x93\0")},
        "77: binary message Hello, \xC3\xA9\xE3\x81\x93.\n");

    row("user msg empty", tag::UserMsg, {}, {QByteArray()}, "77: \n");
    row("log msg newline", tag::LogMsg, {}, {QByteArray("a\nb")}, "77: a\nb\n");
    row("marker", tag::UserMarker, {}, {QByteArray("phase 2")}, "77: marker: phase 2\n");
    row("marker empty", tag::UserMarker, {}, {QByteArray()}, "77: marker: \n");
    row("label", tag::ThreadLabel, {9}, {QByteArray("worker \"x\"")},
        "77: thread 9 has label \"worker \"x\"\"\n");
    row("rts id", tag::RtsIdentifier, {0}, {QByteArray("GHC-9.0.2 rts_l")},
        "77: capset 0: RTS version \"GHC-9.0.2 rts_l\"\n");
    row("intern", tag::InternString, {7}, {QByteArray("abc")},
        "77: Interned string: \"abc\" with id 7\n");
    row("task create", tag::TaskCreate, {0x7fdd0ee00460, 0, 4628350}, {},
        "77: task 0x7fdd0ee00460 created on cap 0 with OS kernel thread 4628350\n");
    row("task migrate", tag::TaskMigrate, {0xabc, 1, 2}, {}, "77: task 0xabc migrated from cap 1 to cap 2\n");
    row("task delete max", tag::TaskDelete, {~0ULL}, {}, "77: task 0xffffffffffffffff deleted\n");
    row("heap allocated max", tag::HeapAllocated, {1, ~0ULL}, {},
        "77: allocated on heap capset 1: 18446744073709551615 total bytes till now\n");
    row("perf counter", tag::PerfCounter, {3, 77, 9}, {},
        "77: perf event counter 3 incremented by 10 in OS thread 77\n");
    row("spark counters", tag::SparkCounters, {1, 2, 3, 4, 5, 6, 7}, {},
        "77: spark stats: 1 created, 4 converted, 7 remaining (3 overflowed, 2 dud, 5 GC'd, 6 fizzled)\n");
    row("capset os", tag::CapsetCreate, {3, 2}, {}, "77: created capset 3 of type CapsetOsProcess\n");
    row("capset unknown", tag::CapsetCreate, {3, 9}, {}, "77: created capset 3 of type CapsetUnknown\n");
    row("assign cap", tag::CapsetAssignCap, {3, 1}, {}, "77: assigned cap 1 to capset 3\n");
    row("wall clock", tag::WallClockTime, {0, 1700000000, 123}, {},
        "77: capset 0: wall clock time 1700000000s 123ns (unix epoch)\n");
    row("gc stats", tag::GcStatsGhc, {0, 1, 2, 3, 4, 5, 6, 7, 8}, {},
        "77: GC stats for heap capset 0: generation 1, 2 bytes copied, 3 bytes slop, 4 bytes "
        "fragmentation, 5 par threads, 6 bytes max par copied, 7 bytes total par copied, 8 bytes "
        "balanced par copied\n");
    row("mem return", tag::MemReturn, {0, 10, 20, 30}, {},
        "77: memory returned (mblocks): current(10) needed(20) returned(30)\n");
    row("heap prof begin", tag::HeapProfBegin, {0, 100000000, 6}, {"", "", "", "", "", "", ""},
        "77: start heap profiling 0 at sampling period 100000000 broken down by biography\n");
    row("heap prof begin filtered", tag::HeapProfBegin, {0, 5, 2},
        {"Main", "", "", "", "", "", "DRAG"},
        "77: start heap profiling 0 at sampling period 5 broken down by module filtered by Main, DRAG, \n");
    row("cost centre caf", tag::HeapProfCostCentre, {12, 1}, {"foo", "Main", "Main.hs:3:1"},
        "77: cost centre 12 foo in Main at Main.hs:3:1 CAF\n");
    row("ccs depth 0", tag::HeapProfSampleCostCentre, {0, 4096, 0}, {},
        "77: heap prof sample 0, residency 4096, cost centre stack \n");
    row("ccs depth 3", tag::HeapProfSampleCostCentre, {0, 4096, 3}, {},
        "77: heap prof sample 0, residency 4096, cost centre stack 7, 8, 9\n", {7, 8, 9});
    row("time prof sample", tag::ProfSampleCostCentre, {2, 100, 1}, {},
        "77: cap no 2, prof sample 100, cost centre stack 42\n", {42});
    row("time prof sample wide cap", tag::ProfSampleCostCentre, {0x12345, 1, 0}, {},
        "77: cap no 9029, prof sample 1, cost centre stack \n"); // truncated to 16 bits (5 #27)
    row("sample string", tag::HeapProfSampleString, {0, 48}, {"VOID"},
        "77: heap prof sample 0, residency 48, label VOID\n");
    row("bio sample", tag::HeapBioProfSampleBegin, {7, 866544061}, {},
        "77: start heap prof sample 7 at time 866544061\n");
    row("sample end", tag::HeapProfSampleEnd, {3}, {}, "77: end prof sample 3\n");
    row("ipe", tag::Ipe, {0x409f78}, {"sat_s154_info", "21", "ty", "lbl", "Main", "Test.hs:5:1-30"},
        "77: Info Table: 409f78:21:sat_s154_info - Test.hs:5:1-30\n");
    row("ipe closure number", tag::Ipe, {0xabc}, {"t_info", "021", "", "", "", "A.hs:1:1"},
        "77: Info Table: abc:21:t_info - A.hs:1:1\n"); // the number, parsed
    row("census 13", tag::NonmovingHeapCensus, {5, 1, 2, 3}, {},
        "77: nonmoving heap census 32: 1 active segments, 2 filled segments, 3 live blocks\n");
    row("ticky def", tag::TickyCounterDef, {5, 2, 0xabc, 1, 0}, {"pp", "f"},
        "77: ticky counter definition 5, arity: 2, def kinds: pp, name: f, itbl: abc\n");
    row("ticky def no itbl", tag::TickyCounterDef, {5, 2, 0, 0, 0}, {"pp", "f"},
        "77: ticky counter definition 5, arity: 2, def kinds: pp, name: f, itbl: 0\n");
    row("eden send", tag::SendMessage, {0x57, 1, 2, 3, 4, 5}, {},
        "77: sending message with tag DataMes from process 1, thread 2 to machine 3, process 4 on inport 5\n");
    row("mercury conj", tag::MerStartParConjunction, {0xff, 3}, {},
        "77: Start a parallel conjunction 0xff, static_id: 3\n");
    row("block marker", tag::BlockMarker, {24, 95662, 0}, {},
        "77: cap 0: event block: cap 0, end time: 95662\n\n");
    row("global block marker", tag::BlockMarker, {24, 90, 0xFFFF}, {},
        "77: event block: cap 65535, end time: 90\n\n");

    // 3.0 and 3.3: what ghc-events <= 0.17 printed differently.
    legacyRow("legacy block marker", tag::BlockMarker, {24, 90, 0}, ""); // not printed
    legacyRow("legacy stack overflow", tag::StopThread, {5, 2, 4096},
              "77: stopping thread 5 (stack overflow)\n");
    legacyRow("legacy blocked", tag::StopThread, {5, 4, 0}, "77: stopping thread 5 (thread blocked)\n");
    legacyRow("legacy 16", tag::StopThread, {5, 16, 0}, "77: stopping thread 5 (blocked in throwTo)\n");
    legacyRow("legacy 17", tag::StopThread, {5, 17, 0}, "77: stopping thread 5 (thread migrating)\n");
    legacyRow("legacy 18", tag::StopThread, {5, 18, 0},
              "77: stopping thread 5 (waiting for data to be globalised)\n");
    legacyRow("legacy run spark", tag::RunSpark, {3}, "77: running a local spark\n");
    legacyRow("legacy steal spark", tag::StealSpark, {3, 2}, "77: stealing a spark from cap 2\n");
    legacyRow("legacy shutdown", tag::Shutdown, {}, "77: shutting down\n");
    row("head run spark", tag::RunSpark, {3}, {}, "77: Run spark\n"); // no decoder: the description
    row("head shutdown", tag::Shutdown, {}, {}, "77: Shutdown\n");
}

// Each row: one event outside any block, printed by `hecscope dump`.
void TestEncoder::printedText()
{
    QFETCH(bool, legacy);
    QFETCH(bool, shortStop);
    QFETCH(int, tag);
    QFETCH(QList<quint64>, n);
    QFETCH(QList<QByteArray>, s);
    QFETCH(QList<quint32>, ids);
    QFETCH(QByteArray, expected);

    EventlogWriter writer(shortStop ? declarationsWith({{tag::StopThread, 6}})
                                    : EventlogWriter::allDeclarations());
    std::vector<std::string> strings;
    for (const QByteArray& b : s)
        strings.emplace_back(b.constData(), size_t(b.size()));
    auto e = makeEvent(uint16_t(tag), 77, std::vector<uint64_t>(n.begin(), n.end()), strings,
                       std::vector<uint32_t>(ids.begin(), ids.end()));
    writer.write(e->event);
    writer.writeDataEnd();
    // Legacy style: ghc-events <= 0.17 printed "waiting for data to be
    // globalised" for 18, head "blocked in throwTo" (eventlog-format.md 3.0).
    QCOMPARE(QByteArray::fromStdString(eventsSection(writer.bytes(), legacy)), expected + "\n");
}

void TestEncoder::realLogsReencodeIdentically_data()
{
    QTest::addColumn<QString>("log");
    QTest::addColumn<bool>("hasReference");
    const QStringList head = conformanceLogs(QStringLiteral("ghc-events"));
    const QStringList legacy = conformanceLogs(QStringLiteral("legacy"));
    if (head.isEmpty() && legacy.isEmpty())
        QSKIP("../shared/conformance is not present on this machine");
    for (const QString& log : head)
        QTest::newRow(qPrintable(QStringLiteral("ghc-events/") + QFileInfo(log).fileName())) << log << true;
    for (const QString& log : legacy)
        QTest::newRow(qPrintable(QStringLiteral("legacy/") + QFileInfo(log).fileName())) << log << false;
}

void TestEncoder::realLogsReencodeIdentically()
{
    QFETCH(QString, log);
    QFETCH(bool, hasReference);
    const std::vector<uint8_t> original = readFile(log);
    QVERIFY(!original.empty());
    const Reencoded r = reencode(original);
    QVERIFY(!r.hasError);
    QVERIFY(r.decodedBytes <= original.size());
    // Only the truncated sample ends early; all others decode to their end.
    if (!log.endsWith(QStringLiteral("testlog-part.eventlog")))
        QCOMPARE(r.decodedBytes, uint64_t(original.size()));
    const std::vector<uint8_t> prefix(original.begin(), original.begin() + ptrdiff_t(r.decodedBytes));
    QCOMPARE(r.bytes.size(), prefix.size());
    if (r.bytes != prefix) {
        size_t i = 0;
        while (r.bytes[i] == prefix[i])
            ++i;
        QFAIL(qPrintable(QStringLiteral("first differing byte at offset %1").arg(i)));
    }
    if (hasReference) {
        const std::string reference = readText(log + QStringLiteral(".reference"));
        QVERIFY(dumpBytes(r.bytes) == reference);
    }
}
