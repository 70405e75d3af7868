// tst_heap: `hecscope heap` (--csv and its quoting, the table's long
// names), the heap view exported, and .hp files on the command line.
#include "tst_heap.h"

namespace {

// ---------------------------------------------------------------------------
// CSV (RFC 4180) and the command line.

std::vector<std::vector<std::string>> parseCsv(const std::string& text)
{
    std::vector<std::vector<std::string>> records;
    std::vector<std::string> record;
    std::string field;
    bool quoted = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
                field += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == '"' && field.empty()) {
            quoted = true;
        } else if (c == ',') {
            record.push_back(std::move(field));
            field.clear();
        } else if (c == '\n' || c == '\r') {
            if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n')
                ++i;
            record.push_back(std::move(field));
            field.clear();
            records.push_back(std::move(record));
            record.clear();
        } else {
            field += c;
        }
    }
    if (!field.empty() || !record.empty()) { // a last line without its newline
        record.push_back(std::move(field));
        records.push_back(std::move(record));
    }
    return records;
}

// `heap FILE --csv --bands N` as rows; checks the header.
struct CsvRow {
    uint64_t time;
    std::string band;
    uint64_t bytes;
};

std::vector<CsvRow> heapCsv(const QString& path, const QString& bands, bool* ok)
{
    *ok = false;
    const Run r = runHecscope({QStringLiteral("heap"), path, QStringLiteral("--csv"), QStringLiteral("--bands"), bands});
    if (r.exitCode != 0) {
        qWarning("exit %d: %s", r.exitCode, r.err.constData());
        return {};
    }
    const auto records = parseCsv(r.out.toStdString());
    if (records.empty() || records[0] != std::vector<std::string>{"time_ns", "band", "bytes"}) {
        qWarning("bad CSV header");
        return {};
    }
    std::vector<CsvRow> rows;
    for (size_t i = 1; i < records.size(); ++i) {
        if (records[i].size() != 3) {
            qWarning("CSV record %zu has %zu fields", i, records[i].size());
            return {};
        }
        rows.push_back({std::stoull(records[i][0]), records[i][1], std::stoull(records[i][2])});
    }
    *ok = true;
    return rows;
}

} // namespace

// ---------------------------------------------------------------------------

// `hecscope heap --csv`: every census's rows add up to its raw total, with
// all bands or the top 3 plus OTHER; bad arguments and logs without a heap
// profile fail with the documented exit codes.
void TestHeap::cliHeapCsv()
{
    QVERIFY2(QFileInfo(QStringLiteral(HECSCOPE_BINARY)).isExecutable(), HECSCOPE_BINARY);
    const QString path = testdataLog("leak-hT.eventlog");
    const RawProfile raw = decodeRaw(readFile(path));
    QVERIFY(raw.censuses.size() > 3);
    std::map<uint64_t, uint64_t> wantTotals;
    std::set<std::string> nonEmpty;
    for (const RawCensus& c : raw.censuses) {
        wantTotals[c.time] += c.total;
        for (const auto& [key, bytes] : c.bytes)
            if (bytes > 0)
                nonEmpty.insert(key);
    }
    QVERIFY(nonEmpty.size() > 3);

    bool ok = false;
    const std::vector<CsvRow> all = heapCsv(path, QStringLiteral("0"), &ok);
    QVERIFY(ok);
    std::map<uint64_t, uint64_t> totals;
    std::map<uint64_t, std::set<std::string>> bandsAt;
    for (const CsvRow& r : all) {
        totals[r.time] += r.bytes;
        QVERIFY2(bandsAt[r.time].insert(r.band).second, r.band.c_str()); // one row per band and census
    }
    QCOMPARE(totals, wantTotals);
    for (const auto& [time, names] : bandsAt)
        QCOMPARE(names, nonEmpty); // every band in every census, OTHER nowhere

    const std::vector<CsvRow> top = heapCsv(path, QStringLiteral("3"), &ok);
    QVERIFY(ok);
    QCOMPARE(top.size(), wantTotals.size() * 4);
    totals.clear();
    for (size_t i = 0; i < top.size(); ++i) {
        totals[top[i].time] += top[i].bytes;
        QCOMPARE(top[i].time, top[i - i % 4].time);
        QCOMPARE(top[i].band == "OTHER", i % 4 == 3);
    }
    QCOMPARE(totals, wantTotals);

    const Run badCount = runHecscope({QStringLiteral("heap"), path, QStringLiteral("--bands"), QStringLiteral("x")});
    QCOMPARE(badCount.exitCode, 2);
    QVERIFY(badCount.out.isEmpty());
    const Run noProfile = runHecscope({QStringLiteral("heap"), testdataLog("sparks-N1.eventlog"), QStringLiteral("--csv")});
    QCOMPARE(noProfile.exitCode, 1);
    QVERIFY(noProfile.out.isEmpty());
    QVERIFY(!noProfile.err.isEmpty());
}

// Retainer-set bands contain commas: the quoted CSV reads back to the exact
// names and bytes of the raw census events.
void TestHeap::cliHeapCsvQuoting()
{
    QVERIFY2(QFileInfo(QStringLiteral(HECSCOPE_BINARY)).isExecutable(), HECSCOPE_BINARY);
    const QString path = testdataLog("leak-prof-hr.eventlog");
    const RawProfile raw = decodeRaw(readFile(path));
    QVERIFY(!raw.censuses.empty());
    QVERIFY(!raw.stacks);
    std::map<uint64_t, const RawCensus*> byTime;
    std::set<std::string> nonEmpty;
    for (const RawCensus& c : raw.censuses) {
        QVERIFY(byTime.emplace(c.time, &c).second);
        for (const auto& [key, bytes] : c.bytes)
            if (bytes > 0)
                nonEmpty.insert(key);
    }
    QVERIFY(std::any_of(nonEmpty.begin(), nonEmpty.end(), [](const std::string& s) { return s.find(',') != s.npos; }));

    bool ok = false;
    const std::vector<CsvRow> rows = heapCsv(path, QStringLiteral("0"), &ok);
    QVERIFY(ok);
    QCOMPARE(rows.size(), byTime.size() * nonEmpty.size());
    for (const CsvRow& r : rows) {
        QVERIFY2(byTime.count(r.time), qPrintable(QString::number(r.time)));
        QVERIFY2(nonEmpty.count(r.band), r.band.c_str());
        const auto& bytes = byTime.at(r.time)->bytes;
        const auto it = bytes.find(r.band);
        QCOMPARE(r.bytes, it == bytes.end() ? uint64_t(0) : it->second);
    }
}

// `hecscope export` draws the heap-profile track with the bands and mode
// asked for: the same arguments give the same picture, another mode or
// band count another; bad heap options are usage errors.
void TestHeap::cliExportDrawsTheHeapView()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString log = testdataLog("leak-hT.eventlog");
    auto draw = [&](const QString& name, QStringList extra) {
        const QString out = dir.filePath(name);
        QStringList args{QStringLiteral("export"), log, QStringLiteral("-o"), out, QStringLiteral("--size"),
                         QStringLiteral("800x400"), QStringLiteral("--tracks"), QStringLiteral("heap-profile")};
        args += extra;
        const Run r = runHecscope(args);
        if (r.exitCode != 0)
            qWarning("%s", r.err.constData());
        return r.exitCode == 0 ? readFile(out) : std::vector<uint8_t>{};
    };
    const auto stacked = draw(QStringLiteral("a.png"), {});
    const auto again = draw(QStringLiteral("b.png"), {QStringLiteral("--heap-mode"), QStringLiteral("stacked")});
    const auto lines = draw(QStringLiteral("c.png"), {QStringLiteral("--heap-mode"), QStringLiteral("lines")});
    const auto normalised = draw(QStringLiteral("d.png"), {QStringLiteral("--heap-mode"), QStringLiteral("normalised")});
    const auto three = draw(QStringLiteral("e.png"), {QStringLiteral("--bands"), QStringLiteral("3")});
    QVERIFY(!stacked.empty());
    QCOMPARE(again, stacked);
    QVERIFY(lines != stacked);
    QVERIFY(normalised != stacked && normalised != lines);
    QVERIFY(three != stacked);
    for (const QStringList& bad : {QStringList{QStringLiteral("--heap-mode"), QStringLiteral("pie")},
                                   QStringList{QStringLiteral("--bands"), QStringLiteral("x")},
                                   QStringList{QStringLiteral("--order"), QStringLiteral("colour")}}) {
        QStringList args{QStringLiteral("export"), log, QStringLiteral("-o"), dir.filePath(QStringLiteral("f.png"))};
        args += bad;
        QCOMPARE(runHecscope(args).exitCode, 2);
    }
}

// .hp files: `info` gives the file's header and censuses (no scheduler
// figures), `heap` its bands, and `dump` says it is not an eventlog.
void TestHeap::cliOnHpFiles()
{
    const QString hp = testdataLog("leak-prof-hc.hp");
    const RawHp raw = parseHpSimply(readText(hp));
    const Run info = runHecscope({QStringLiteral("info"), hp});
    QCOMPARE(info.exitCode, 0);
    QVERIFY2(info.out.contains("GHC heap profile"), info.out.constData());
    QVERIFY(info.out.contains(QByteArray("Job           ") + QByteArray::fromStdString(raw.header.at("JOB"))));
    QVERIFY(info.out.contains(QByteArray("Censuses      ") + QByteArray::number(qulonglong(raw.endLines))));
    const Run json = runHecscope({QStringLiteral("info"), QStringLiteral("--json"), hp});
    QCOMPARE(json.exitCode, 0);
    QVERIFY(json.out.contains(QByteArray("\"hp_file\": {\"job\": \"") + QByteArray::fromStdString(raw.header.at("JOB"))));
    const Run eventlog = runHecscope({QStringLiteral("info"), QStringLiteral("--json"), testdataLog("leak-hT.eventlog")});
    QVERIFY(eventlog.out.contains("\"hp_file\": null"));
    const Run dump = runHecscope({QStringLiteral("dump"), hp});
    QCOMPARE(dump.exitCode, 1);
    QVERIFY2(dump.err.contains("heap profile (.hp), not an eventlog"), dump.err.constData());
    QVERIFY(dump.out.isEmpty());
}

// `hecscope heap` prints a whole cost-centre stack, however long, at the
// end of its row, one row per band.
void TestHeap::cliTableKeepsLongNames()
{
    // (Appended, not "deep/" + std::string(700, 'x'): GCC 12 at -O3 warns
    // of a bound that operator+ never crosses, -Warray-bounds.)
    std::string name = "deep/";
    name.append(700, 'x').append("/main");
    HeapLogBuilder b(7);
    b.census(1 * kSecond, {{name, 64}, {"short", 8}});
    b.census(2 * kSecond, {{name, 64}, {"short", 8}});
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("long.eventlog"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    const auto bytes = b.bytes();
    f.write(reinterpret_cast<const char*>(bytes.data()), qint64(bytes.size()));
    f.close();
    const Run r = runHecscope({QStringLiteral("heap"), path});
    QCOMPARE(r.exitCode, 0);
    const QList<QByteArray> lines = r.out.split('\n');
    QCOMPARE(lines.size(), 5); // summary, header, two bands, and the end
    QVERIFY(lines[2].endsWith(QByteArray::fromStdString(" " + name)));
    QVERIFY(lines[3].endsWith(" short"));
}
