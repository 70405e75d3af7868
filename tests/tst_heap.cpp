// Heap profiles: the bands of real GHC logs checked against an independent
// decode of their census events (eventlog-format.md 4.3), band figures and
// orders on logs written by the project's encoder with hand-computed
// answers, and `hecscope heap --csv`. (.hp files: tst_hpfile.)
#include "testsupport.h"

#include "core/io/bytesource.h"
#include "core/format/encoder.h"
#include "core/format/eventtags.h"
#include "core/heap/heapbands.h"
#include "core/index/logindex.h"

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <set>
#include <string>
#include <vector>

using namespace hecscope;
using namespace hecscope::test;

namespace {

// ---------------------------------------------------------------------------
// An independent reading of a log's heap profile, straight from the decoded
// events: a census starts at 162 (time = its timestamp) or 166 (time = its
// census-time field) and holds the 163/164 events up to 165 or the next
// start. Bands are keyed by their label (164) or by their cost-centre ids
// (163, "#id,id,..."), repeats within a census added.

struct RawCensus {
    uint64_t time = 0;                     // ns
    std::map<std::string, uint64_t> bytes; // band key -> bytes, zeros kept
    uint64_t total = 0;
};

struct RawCostCentre {
    std::string label, module;
    bool caf = false;
};

struct RawProfile {
    bool stacks = false;             // bands are cost-centre stacks (163)
    std::vector<RawCensus> censuses; // file order
    std::map<uint32_t, RawCostCentre> costCentres;
};

std::string stackKey(const std::vector<uint32_t>& ids)
{
    std::string key = "#";
    for (size_t i = 0; i < ids.size(); ++i) {
        if (i > 0)
            key += ',';
        key += std::to_string(ids[i]);
    }
    return key;
}

class RawHeapSink final : public EventSink {
public:
    explicit RawHeapSink(RawProfile& out)
        : m_out(out)
    {
    }
    void onEvent(const Event& e) override
    {
        switch (e.tag) {
        case tag::HeapProfCostCentre:
            m_out.costCentres[uint32_t(e.n[0])] = {std::string(e.s[0]), std::string(e.s[1]), (e.n[1] & 1) != 0};
            break;
        case tag::HeapProfSampleBegin: open(e.time); break;
        case tag::HeapBioProfSampleBegin: open(e.n[1]); break;
        case tag::HeapProfSampleEnd: m_open = false; break;
        case tag::HeapProfSampleString: add(std::string(e.s[0]), e.n[1]); break;
        case tag::HeapProfSampleCostCentre: {
            m_out.stacks = true;
            std::vector<uint32_t> ids(e.depth);
            for (size_t i = 0; i < ids.size(); ++i) {
                const uint8_t* p = e.ids + 4 * i; // big-endian u32
                ids[i] = uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | p[3];
            }
            add(stackKey(ids), e.n[1]);
            break;
        }
        default: break;
        }
    }

private:
    void open(uint64_t time)
    {
        m_out.censuses.push_back({time, {}, 0});
        m_open = true;
    }
    void add(const std::string& key, uint64_t bytes)
    {
        if (!m_open)
            return;
        m_out.censuses.back().bytes[key] += bytes;
        m_out.censuses.back().total += bytes;
    }

    RawProfile& m_out;
    bool m_open = false;
};

RawProfile decodeRaw(const std::vector<uint8_t>& bytes)
{
    RawProfile raw;
    RawHeapSink sink(raw);
    StreamDecoder decoder(sink);
    decoder.feed(bytes);
    decoder.finish();
    return raw;
}

// Band key of every label of the index, in the raw decoder's terms.
std::vector<std::string> labelKeys(const HeapProfileData& hp, bool stacks)
{
    std::vector<std::string> keys;
    for (size_t l = 0; l < hp.labels.size(); ++l)
        keys.push_back(stacks ? stackKey(hp.stacks.at(l)) : hp.labels[l]);
    return keys;
}

// Per band key: the largest bytes of any census.
std::map<std::string, uint64_t> rawPeaks(const RawProfile& raw)
{
    std::map<std::string, uint64_t> peaks;
    for (const RawCensus& c : raw.censuses)
        for (const auto& [key, bytes] : c.bytes)
            peaks[key] = std::max(peaks[key], bytes);
    return peaks;
}

// Per band key: byte·seconds by the trapezoid rule over censuses in time order.
std::map<std::string, double> rawByteSeconds(const RawProfile& raw)
{
    std::vector<const RawCensus*> byTime;
    for (const RawCensus& c : raw.censuses)
        byTime.push_back(&c);
    std::stable_sort(byTime.begin(), byTime.end(), [](auto* a, auto* b) { return a->time < b->time; });
    std::map<std::string, double> integral;
    for (const auto& [key, peak] : rawPeaks(raw))
        integral[key] = 0;
    auto at = [](const RawCensus* c, const std::string& key) {
        const auto it = c->bytes.find(key);
        return it == c->bytes.end() ? 0.0 : double(it->second);
    };
    for (size_t i = 0; i + 1 < byTime.size(); ++i) {
        const double seconds = double(byTime[i + 1]->time - byTime[i]->time) / 1e9;
        for (auto& [key, sum] : integral)
            sum += (at(byTime[i], key) + at(byTime[i + 1], key)) / 2 * seconds;
    }
    return integral;
}

bool near(double got, double want, double relative = 1e-9)
{
    return std::abs(got - want) <= relative * std::max(1.0, std::abs(want));
}

QString nearMessage(const char* expression, double got, double want, const QString& where)
{
    return QStringLiteral("%1: %2 = %3, expected %4").arg(where, QLatin1String(expression)).arg(got, 0, 'g', 17).arg(want, 0, 'g', 17);
}

// Compares doubles to a relative 1e-9; `where` names the band or range.
#define COMPARE_NEAR(got, want, where) QVERIFY2(near(got, want), qPrintable(nearMessage(#got, got, want, where)))

// The committed logs with a heap profile (found by the raw decoder) and the
// conformance logs that have one.
void addHeapLogRows()
{
    QTest::addColumn<QString>("path");
    for (const QString& path : testdataLogs())
        if (!decodeRaw(readFile(path)).censuses.empty())
            QTest::newRow(qPrintable(QFileInfo(path).fileName())) << path;
    const QString conformance = QStringLiteral(HECSCOPE_SHARED_DIR "/conformance/ghc-events/");
    for (const char* name : {"biographical-samples", "sleep.h", "sleep.hC", "sleep.hd", "sleep.hm", "sleep.hy", "stop.hT"})
        QTest::newRow(name) << conformance + QLatin1String(name) + QStringLiteral(".eventlog");
}

// ---------------------------------------------------------------------------
// Encoder-written heap profiles: one global block, HEAP_PROF_BEGIN, then
// censuses of string (164) or cost-centre (163) samples.

class HeapLogBuilder {
public:
    explicit HeapLogBuilder(uint32_t breakdown)
        : m_w(EventlogWriter::allDeclarations())
    {
        m_w.beginBlock(kNoCap, 0);
        write(OwnedEvent(tag::HeapProfBegin, 0, {0, 100'000'000, breakdown}, {"", "", "", "", "", "", ""}));
    }
    void costCentre(uint32_t id, std::string_view label, std::string_view module, bool caf = false)
    {
        write(OwnedEvent(tag::HeapProfCostCentre, m_last, {id, caf ? 1u : 0u}, {label, module, "<src>"}));
    }
    // A census at `t` (ns) with string bands, written in the order given.
    void census(uint64_t t, const std::vector<std::pair<std::string, uint64_t>>& bands)
    {
        write(OwnedEvent(tag::HeapProfSampleBegin, t, {0}));
        for (const auto& [label, bytes] : bands)
            write(OwnedEvent(tag::HeapProfSampleString, t, {0, bytes}, {label}));
        write(OwnedEvent(tag::HeapProfSampleEnd, t, {0}));
    }
    void stackCensus(uint64_t t, const std::vector<std::pair<std::vector<uint32_t>, uint64_t>>& bands)
    {
        write(OwnedEvent(tag::HeapProfSampleBegin, t, {0}));
        for (const auto& [ids, bytes] : bands) {
            OwnedEvent e(tag::HeapProfSampleCostCentre, t, {0, bytes, ids.size()});
            for (uint32_t id : ids)
                for (int shift = 24; shift >= 0; shift -= 8)
                    e.idBytes.push_back(uint8_t(id >> shift));
            e.event.depth = uint16_t(ids.size());
            e.event.ids = e.idBytes.data();
            write(e);
        }
        write(OwnedEvent(tag::HeapProfSampleEnd, t, {0}));
    }
    // An info-table provenance entry (IPE): address, name, closure
    // description, type, label, module, source location.
    void ipe(uint64_t address, std::string_view name, std::string_view type, std::string_view module,
             std::string_view srcloc)
    {
        write(OwnedEvent(tag::Ipe, m_last, {address}, {name, "CONSTR", type, "", module, srcloc}));
    }
    std::vector<uint8_t> bytes()
    {
        m_w.endBlock(m_last);
        m_w.writeDataEnd();
        return m_w.takeBytes();
    }

private:
    void write(const OwnedEvent& e)
    {
        m_w.write(e.event);
        m_last = std::max(m_last, e.event.time);
    }
    EventlogWriter m_w;
    uint64_t m_last = 0;
};

constexpr uint64_t kSecond = 1'000'000'000;

// Five bands over censuses at 1, 2, 4 and 5 s (gaps of 1, 2 and 1 s):
//   band1   6000 5000 3000 2000   falls 1000 B/s exactly
//   Band2   6000    0 6000    0   oscillates (0 = missing from the census)
//   band10  1000 1500 2500 3000   grows 500 B/s exactly
//   band9   1800 1800 1800 1800   constant
//   band9x     0    0  100    0   only in the third census
// Names sort differently as bytes ("band10" < "band9") and as numbers.
std::vector<uint8_t> fiveBandLog()
{
    HeapLogBuilder b(7);
    b.census(1 * kSecond, {{"band9", 1800}, {"Band2", 6000}, {"band10", 1000}, {"band1", 6000}});
    b.census(2 * kSecond, {{"band1", 5000}, {"band10", 1500}, {"band9", 1800}});
    b.census(4 * kSecond, {{"band9x", 100}, {"band10", 2500}, {"Band2", 6000}, {"band9", 1800}, {"band1", 3000}});
    b.census(5 * kSecond, {{"band10", 3000}, {"band1", 2000}, {"band9", 1800}});
    return b.bytes();
}

// The figures of one band worked out by hand (see fiveBandLog).
struct Figures {
    const char* name;
    double byteSeconds, mean, stddev, slope, r2;
    uint64_t peak, peakTime;
};
// Seconds since the first census: 0, 1, 3, 4 (mean 2, variance 2.5).
const Figures kFiveBands[] = {
    // trapezoids 5500 + 8000 + 2500; deviations ±1000, ±2000
    {"band1", 16000, 4000, std::sqrt(2.5e6), -1000, 1, 6000, 1 * kSecond},
    // 3000 + 6000 + 3000; cov = (-6000 + 3000 + 3000 - 6000) / 4 = -1500
    {"Band2", 12000, 3000, 3000, -1500 / 2.5, 1500.0 * 1500 / (2.5 * 9e6), 6000, 1 * kSecond},
    // 1250 + 4000 + 2750; deviations ±500, ±1000
    {"band10", 8000, 2000, std::sqrt(625000.0), 500, 1, 3000, 5 * kSecond},
    {"band9", 7200, 1800, 0, 0, 0, 1800, 1 * kSecond},
    // 0 + 100 + 50; variance 10000/4 - 25^2; cov = (50 + 25 + 75 - 50) / 4 = 25
    {"band9x", 150, 25, std::sqrt(1875.0), 25 / 2.5, 625 / (2.5 * 1875), 100, 4 * kSecond},
};
const uint64_t kFiveBandTotals[] = {14800, 8300, 13400, 6800};

std::optional<uint32_t> labelNamed(const HeapProfileData& hp, std::string_view name)
{
    const auto it = std::find(hp.labels.begin(), hp.labels.end(), name);
    if (it == hp.labels.end())
        return std::nullopt;
    return uint32_t(it - hp.labels.begin());
}

std::vector<std::string> namesOf(const HeapBands& bands, const std::vector<uint32_t>& labels)
{
    std::vector<std::string> names;
    for (uint32_t l : labels)
        names.push_back(bands.names[l]);
    return names;
}

QString joined(const std::vector<std::string>& names)
{
    QStringList list;
    for (const std::string& n : names)
        list << QString::fromStdString(n);
    return list.join(QLatin1Char(' '));
}

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


QString testdataLog(const char* name)
{
    return QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/") + QLatin1String(name);
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

class TestHeap : public QObject {
    Q_OBJECT
private slots:
    // Real logs against the raw decoder.
    void bandTotalsEqualRawSamples_data() { addHeapLogRows(); }
    void bandTotalsEqualRawSamples();
    void topNPlusOtherConservesEveryCensus_data() { addHeapLogRows(); }
    void topNPlusOtherConservesEveryCensus();
    // Encoder-written profiles with hand-computed figures.
    void bandFiguresByHand();
    void orderingModes();
    void constantBandHasNoSpread();
    void repeatedLabelInOneCensusIsAdded();
    void infoTableBandsNamedFromIpe();
    void costCentreStacks();
    void sameNamedCostCentresStayApart();
    void byteSecondsIn();
    void bandTrendsByHand();
    void bandTrendsEqualRawSamples_data() { addHeapLogRows(); }
    void bandTrendsEqualRawSamples();
    // The command line.
    void cliHeapCsv();
    void cliHeapCsvQuoting();
    void cliExportDrawsTheHeapView();
    void cliOnHpFiles();
    void sparklinesCoverEveryPoint();
    void cliTableKeepsLongNames();
};

// ---------------------------------------------------------------------------

// Every census of a real log is in the bands, at its time, with the bytes
// the raw events give: totals, per-label bytes, the selection of every band,
// peaks and byte·seconds.
void TestHeap::bandTotalsEqualRawSamples()
{
    QFETCH(QString, path);
    const auto bytes = readFile(path);
    QVERIFY2(!bytes.empty(), qPrintable(path));
    const RawProfile raw = decodeRaw(bytes);
    QVERIFY(!raw.censuses.empty());
    const auto ix = indexOfBytes(bytes);
    const HeapProfileData& hp = ix->heapProfile;
    const HeapBands& bands = ix->heapBands;
    const size_t nc = raw.censuses.size();
    QCOMPARE(hp.censuses.size(), nc);
    QCOMPARE(bands.times.size(), nc);
    QCOMPARE(bands.order.size(), nc);
    QCOMPARE(bands.totals.size(), nc);

    const std::vector<std::string> keys = labelKeys(hp, raw.stacks);
    const std::map<std::string, uint64_t> peaks = rawPeaks(raw);
    QCOMPARE(std::set<std::string>(keys.begin(), keys.end()).size(), keys.size()); // one label per band
    QCOMPARE(keys.size(), peaks.size());
    if (hp.breakdown != 8)
        QVERIFY(bands.names == hp.labels);

    const BandSelection all = selectBands(hp, bands, 0);
    QVERIFY(!all.other);
    QCOMPARE(all.censuses(), nc);
    std::vector<bool> seen(nc);
    uint64_t peakTotal = 0;
    for (size_t p = 0; p < nc; ++p) {
        const QString where = QStringLiteral("census position %1").arg(p);
        const uint32_t index = bands.order[p];
        QVERIFY2(index < nc && !seen[index], qPrintable(where));
        seen[index] = true;
        const RawCensus& c = raw.censuses[index];
        QVERIFY2(bands.times[p] == c.time, qPrintable(where));
        QVERIFY2(p == 0 || bands.times[p - 1] <= bands.times[p], qPrintable(where));
        QVERIFY2(bands.totals[p] == c.total, qPrintable(where));
        peakTotal = std::max(peakTotal, c.total);

        const std::vector<uint64_t> perLabel = bytesAtCensus(hp, bands, p);
        QCOMPARE(perLabel.size(), keys.size());
        QVERIFY2(std::accumulate(perLabel.begin(), perLabel.end(), uint64_t(0)) == c.total, qPrintable(where));
        for (size_t l = 0; l < keys.size(); ++l) {
            const auto it = c.bytes.find(keys[l]);
            QVERIFY2(perLabel[l] == (it == c.bytes.end() ? 0 : it->second),
                     qPrintable(where + QStringLiteral(", band ") + QString::fromStdString(hp.labels[l])));
        }
        const uint64_t* row = all.row(p);
        QVERIFY2(std::accumulate(row, row + all.columns(), uint64_t(0)) == c.total, qPrintable(where));
    }
    QCOMPARE(bands.peakTotal, peakTotal);

    const std::map<std::string, double> byteSeconds = rawByteSeconds(raw);
    for (size_t l = 0; l < keys.size(); ++l) {
        const QString band = QString::fromStdString(hp.labels[l]);
        QVERIFY2(peaks.count(keys[l]), qPrintable(band));
        QVERIFY2(bands.stats[l].peak == peaks.at(keys[l]), qPrintable(band));
        QVERIFY2(near(bands.stats[l].byteSeconds, byteSeconds.at(keys[l])), qPrintable(band));
    }
}

// Top N plus OTHER, in every order and both directions: no byte is lost or
// counted twice, OTHER appears exactly when bands are left out, the bands
// shown are the largest, and they come in the order asked for.
void TestHeap::topNPlusOtherConservesEveryCensus()
{
    QFETCH(QString, path);
    const auto bytes = readFile(path);
    QVERIFY2(!bytes.empty(), qPrintable(path));
    const RawProfile raw = decodeRaw(bytes);
    const auto ix = indexOfBytes(bytes);
    const HeapProfileData& hp = ix->heapProfile;
    const HeapBands& bands = ix->heapBands;
    const std::vector<std::string> keys = labelKeys(hp, raw.stacks);
    const std::map<std::string, uint64_t> peaks = rawPeaks(raw);
    size_t nonEmpty = 0;
    for (const auto& [key, peak] : peaks)
        nonEmpty += peak > 0;
    QVERIFY(nonEmpty > 0);
    auto sizeKey = [&](uint32_t l) { return std::pair(bands.stats[l].byteSeconds, bands.stats[l].peak); };

    for (size_t n : {1, 3, 5, 15, 1000}) {
        for (BandOrder order : kBandOrders) {
            std::vector<uint32_t> forward;
            for (bool reversed : {false, true}) {
                const QString where = QStringLiteral("n=%1 order=%2%3")
                                          .arg(n)
                                          .arg(QLatin1String(bandOrderName(order)))
                                          .arg(reversed ? QStringLiteral(" reversed") : QString());
                const BandSelection sel = selectBands(hp, bands, n, order, reversed);
                const size_t shown = std::min(n, nonEmpty);
                QVERIFY2(sel.other == (nonEmpty > n), qPrintable(where));
                QVERIFY2(sel.labels.size() == shown, qPrintable(where));
                QVERIFY2(sel.columns() == shown + (sel.other ? 1 : 0), qPrintable(where));
                QVERIFY2(sel.otherCount == nonEmpty - shown, qPrintable(where));
                QVERIFY2(std::set<uint32_t>(sel.labels.begin(), sel.labels.end()).size() == shown, qPrintable(where));
                for (uint32_t l : sel.labels)
                    QVERIFY2(l < keys.size() && peaks.at(keys[l]) > 0, qPrintable(where));

                // Every row sums to its census; column peaks are the rows' maxima.
                QVERIFY2(sel.censuses() == bands.times.size(), qPrintable(where));
                std::vector<uint64_t> columnPeak(sel.columns());
                for (size_t p = 0; p < sel.censuses(); ++p) {
                    const uint64_t* row = sel.row(p);
                    QVERIFY2(std::accumulate(row, row + sel.columns(), uint64_t(0)) == bands.totals[p],
                             qPrintable(where + QStringLiteral(" census %1").arg(p)));
                    for (size_t k = 0; k < sel.columns(); ++k)
                        columnPeak[k] = std::max(columnPeak[k], row[k]);
                }
                QVERIFY2(sel.columnPeak == columnPeak, qPrintable(where));

                // The bands shown are the largest by byte·seconds (by peak
                // where that ties, as in a log of one census).
                const std::set<uint32_t> shownSet(sel.labels.begin(), sel.labels.end());
                std::pair<double, uint64_t> smallestShown{INFINITY, 0}, largestLeft{-1, 0};
                for (uint32_t l = 0; l < keys.size(); ++l) {
                    if (peaks.at(keys[l]) == 0)
                        continue;
                    if (shownSet.count(l))
                        smallestShown = std::min(smallestShown, sizeKey(l));
                    else
                        largestLeft = std::max(largestLeft, sizeKey(l));
                }
                QVERIFY2(largestLeft <= smallestShown, qPrintable(where));

                // In the order asked for: each column's key against the next.
                for (size_t k = 0; k + 1 < sel.labels.size(); ++k) {
                    uint32_t a = sel.labels[k], b = sel.labels[k + 1];
                    if (reversed)
                        std::swap(a, b);
                    const BandStats &x = bands.stats[a], &y = bands.stats[b];
                    bool inOrder = true;
                    switch (order) {
                    case BandOrder::Size: inOrder = sizeKey(a) >= sizeKey(b); break;
                    case BandOrder::StdDev: inOrder = x.stddev >= y.stddev; break;
                    case BandOrder::Growth: inOrder = x.slope >= y.slope; break;
                    case BandOrder::Name: inOrder = bands.names[a] <= bands.names[b]; break;
                    case BandOrder::Number: inOrder = !naturalLess(bands.names[b], bands.names[a]); break;
                    }
                    QVERIFY2(inOrder, qPrintable(where + QStringLiteral(" column %1").arg(k)));
                }
                if (!reversed) {
                    forward = sel.labels;
                } else {
                    std::reverse(forward.begin(), forward.end());
                    QVERIFY2(sel.labels == forward, qPrintable(where));
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------

// Every figure of fiveBandLog's bands, against the hand computation.
void TestHeap::bandFiguresByHand()
{
    const auto ix = indexOfBytes(fiveBandLog());
    QVERIFY(ix->scan.diagnostics.empty());
    const HeapProfileData& hp = ix->heapProfile;
    const HeapBands& bands = ix->heapBands;
    QVERIFY(hp.present);
    QCOMPARE(hp.breakdown, 7u);
    QCOMPARE(hp.period, uint64_t(100'000'000));
    QCOMPARE(bands.times, (std::vector<uint64_t>{1 * kSecond, 2 * kSecond, 4 * kSecond, 5 * kSecond}));
    QCOMPARE(bands.totals, std::vector<uint64_t>(std::begin(kFiveBandTotals), std::end(kFiveBandTotals)));
    QCOMPARE(bands.peakTotal, uint64_t(14800));
    QCOMPARE(hp.labels.size(), std::size(kFiveBands));
    for (size_t rank = 0; rank < std::size(kFiveBands); ++rank) {
        const Figures& want = kFiveBands[rank];
        const auto label = labelNamed(hp, want.name);
        QVERIFY2(label, want.name);
        const BandStats& s = bands.stats[*label];
        const QString band = QLatin1String(want.name);
        QCOMPARE(bands.names[*label], std::string(want.name));
        COMPARE_NEAR(s.byteSeconds, want.byteSeconds, band);
        COMPARE_NEAR(s.mean, want.mean, band);
        COMPARE_NEAR(s.stddev, want.stddev, band);
        COMPARE_NEAR(s.slope, want.slope, band);
        COMPARE_NEAR(s.r2, want.r2, band);
        QCOMPARE(s.peak, want.peak);
        QCOMPARE(s.peakTime, want.peakTime);
        QCOMPARE(bands.sizeRank[*label], uint32_t(rank)); // kFiveBands is largest first
    }
}

// Each BandOrder and its reverse, on bands whose keys differ by hand.
void TestHeap::orderingModes()
{
    const auto ix = indexOfBytes(fiveBandLog());
    const HeapProfileData& hp = ix->heapProfile;
    const HeapBands& bands = ix->heapBands;
    using Names = std::vector<std::string>;
    const std::pair<BandOrder, Names> expected[] = {
        {BandOrder::Size, {"band1", "Band2", "band10", "band9", "band9x"}},   // 16000 12000 8000 7200 150
        {BandOrder::StdDev, {"Band2", "band1", "band10", "band9x", "band9"}}, // 3000 1581 791 43 0
        {BandOrder::Name, {"Band2", "band1", "band10", "band9", "band9x"}},   // bytes: 'B' < 'b', '1' < '9'
        {BandOrder::Number, {"Band2", "band1", "band9", "band9x", "band10"}}, // 9 < 10
        {BandOrder::Growth, {"band10", "band9x", "band9", "Band2", "band1"}}, // 500 10 0 -600 -1000
    };
    for (const auto& [order, names] : expected) {
        const BandSelection sel = selectBands(hp, bands, 0, order);
        const QString what = QLatin1String(bandOrderName(order));
        QVERIFY2(namesOf(bands, sel.labels) == names, qPrintable(what + ": " + joined(namesOf(bands, sel.labels))));
        const BandSelection back = selectBands(hp, bands, 0, order, true);
        const Names reversed(names.rbegin(), names.rend());
        QVERIFY2(namesOf(bands, back.labels) == reversed,
                 qPrintable(what + " reversed: " + joined(namesOf(bands, back.labels))));
        QCOMPARE(bandOrderFromName(bandOrderName(order)), std::optional<BandOrder>(order));
    }
    // The top 2 by size, then ordered by name; OTHER holds the rest.
    const BandSelection top = selectBands(hp, bands, 2, BandOrder::Name);
    QCOMPARE(namesOf(bands, top.labels), (Names{"Band2", "band1"}));
    QVERIFY(top.other);
    QCOMPARE(top.otherCount, 3u);
    QCOMPARE(top.columnOf(*labelNamed(hp, "band9")), std::optional<size_t>(2));
    // Census at 4 s: Band2 6000, band1 3000, OTHER 2500 + 1800 + 100.
    QCOMPARE(std::vector<uint64_t>(top.row(2), top.row(2) + 3), (std::vector<uint64_t>{6000, 3000, 4400}));
    QVERIFY(!bandOrderFromName("largest"));

    QVERIFY(naturalLess("band9", "band10"));
    QVERIFY(!naturalLess("band10", "band9"));
    QVERIFY(naturalLess("(9)CAF", "(10)CAF"));
    QVERIFY(naturalLess("Band2", "band1"));
    QVERIFY(!naturalLess("x", "x"));
}

// A band that never changes has no spread and no growth, at any size (a
// large constant band must not outrank a small varying one by StdDev).
void TestHeap::constantBandHasNoSpread()
{
    for (uint64_t bytes : {uint64_t(1800), uint64_t(987'654'321), uint64_t(123'456'789)}) {
        HeapLogBuilder b(7);
        const uint64_t times[] = {1'000'000'000, 2'000'000'000, 4'000'000'000, 5'000'000'000,
                                  7'300'000'000, 7'900'000'000, 11'000'000'000};
        for (uint64_t t : times)
            b.census(t, {{"constant", bytes}});
        const auto ix = indexOfBytes(b.bytes());
        const BandStats& s = ix->heapBands.stats.at(0);
        const QString what = QStringLiteral("constant %1 bytes").arg(bytes);
        QVERIFY2(s.mean == double(bytes), qPrintable(what));
        QVERIFY2(s.stddev == 0, qPrintable(what + QStringLiteral(": stddev %1").arg(s.stddev)));
        QVERIFY2(s.r2 == 0, qPrintable(what + QStringLiteral(": r2 %1").arg(s.r2)));
        QVERIFY2(std::abs(s.slope) < 1e-6, qPrintable(what + QStringLiteral(": slope %1").arg(s.slope)));
    }
}

// A label written twice in one census is one band holding the sum; the next
// census starts afresh.
// -hi: bands are info-table addresses; with IPE entries they are named by
// the table's name, type, module and source location; without, the
// address stays. Both spellings of an address (with and without 0x) work.
void TestHeap::infoTableBandsNamedFromIpe()
{
    HeapLogBuilder b(8);
    b.ipe(0x4f6a10, "Leak_con_info", "Leak", "Main", "leak.hs:12:3-20");
    b.ipe(0x4f6b20, "Node_con_info", "Tree a", "Data.Tree", "Tree.hs:5:1-40");
    b.census(1 * kSecond, {{"0x4f6a10", 100}, {"4f6b20", 50}, {"0x999", 8}});
    const auto ix = indexOfBytes(b.bytes());
    QCOMPARE(ix->ipes.size(), size_t(2));
    const HeapBands& bands = ix->heapBands;
    QCOMPARE(bands.names.size(), size_t(3));
    QCOMPARE(bands.names[0], std::string("Leak_con_info (Leak) Main leak.hs:12:3-20"));
    QCOMPARE(bands.names[1], std::string("Node_con_info (Tree a) Data.Tree Tree.hs:5:1-40"));
    QCOMPARE(bands.names[2], std::string("0x999")); // no IPE entry
    // Other breakdowns keep their labels even when they look like addresses.
    HeapLogBuilder t(7);
    t.ipe(0xabc, "X_info", "X", "M", "m.hs:1:1");
    t.census(1 * kSecond, {{"0xabc", 10}});
    QCOMPARE(indexOfBytes(t.bytes())->heapBands.names[0], std::string("0xabc"));
}

void TestHeap::repeatedLabelInOneCensusIsAdded()
{
    HeapLogBuilder b(3);
    b.census(1 * kSecond, {{"a", 100}, {"b", 50}, {"a", 25}});
    b.census(2 * kSecond, {{"a", 7}, {"b", 3}});
    const auto ix = indexOfBytes(b.bytes());
    const HeapProfileData& hp = ix->heapProfile;
    QCOMPARE(hp.labels, (std::vector<std::string>{"a", "b"}));
    QCOMPARE(hp.repeatedLabels, uint64_t(1));
    QCOMPARE(hp.censuses.size(), size_t(2));
    QCOMPARE(hp.censuses[0].count, 2u);
    QCOMPARE(hp.censuses[0].total, uint64_t(175));
    QCOMPARE(hp.censuses[1].total, uint64_t(10));
    QCOMPARE(bytesAtCensus(hp, ix->heapBands, 0), (std::vector<uint64_t>{125, 50}));
    QCOMPARE(bytesAtCensus(hp, ix->heapBands, 1), (std::vector<uint64_t>{7, 3}));
    QCOMPARE(ix->heapBands.totals, (std::vector<uint64_t>{175, 10}));
    QCOMPARE(ix->heapBands.stats[0].peak, uint64_t(125));
}

// -hc: every band but MAIN has its cost-centre ids, is named by their labels
// innermost first, and the names are those GHC wrote to the .hp file.
void TestHeap::costCentreStacks()
{
    const auto bytes = readFile(testdataLog("leak-prof-hc.eventlog"));
    QVERIFY(!bytes.empty());
    const RawProfile raw = decodeRaw(bytes);
    QVERIFY(raw.stacks);
    QVERIFY(!raw.costCentres.empty());
    const auto ix = indexOfBytes(bytes);
    const HeapProfileData& hp = ix->heapProfile;
    QCOMPARE(hp.breakdown, 1u);
    QCOMPARE(hp.stacks.size(), hp.labels.size());
    QVERIFY(hp.labels.size() > 5);
    std::set<std::string> names;
    for (size_t l = 0; l < hp.labels.size(); ++l) {
        const QString band = QString::fromStdString(hp.labels[l]);
        names.insert(hp.labels[l]);
        if (hp.labels[l] == "MAIN") {
            QVERIFY2(hp.stacks[l].empty(), qPrintable(band));
            continue;
        }
        QVERIFY2(!hp.stacks[l].empty(), qPrintable(band));
        std::string expected;
        for (uint32_t id : hp.stacks[l]) {
            QVERIFY2(raw.costCentres.count(id), qPrintable(band));
            const RawCostCentre& cc = raw.costCentres.at(id);
            expected += (expected.empty() ? "" : "/") + (cc.caf ? cc.module + ".CAF" : cc.label);
        }
        QCOMPARE(hp.labels[l], expected);
    }
    QCOMPARE(names.size(), hp.labels.size());

    // GHC's own names in the .hp file of the same run, without "(ccsID)";
    // names ending in "..." were cut by GHC and compare by prefix.
    const RawHp hpFile = parseHpSimply(readText(testdataLog("leak-prof-hc.hp")));
    QVERIFY(!hpFile.names.empty());
    std::set<std::string> full, cut;
    for (std::string name : hpFile.names) {
        if (name.starts_with('(') && name.find(')') != std::string::npos)
            name = name.substr(name.find(')') + 1);
        if (name.ends_with("..."))
            cut.insert(name.substr(0, name.size() - 3));
        else
            full.insert(name);
    }
    QVERIFY(!cut.empty()); // the comparison by prefix is exercised
    auto matches = [&](const std::string& band) {
        return full.count(band) || std::any_of(cut.begin(), cut.end(), [&](const std::string& p) {
                   return band.starts_with(p);
               });
    };
    for (const std::string& band : names)
        QVERIFY2(matches(band), qPrintable(QString::fromStdString(band)));
    for (const std::string& name : full)
        QVERIFY2(names.count(name), qPrintable(QString::fromStdString(name)));
    for (const std::string& prefix : cut)
        QVERIFY2(std::any_of(names.begin(), names.end(), [&](const std::string& n) { return n.starts_with(prefix); }),
                 qPrintable(QString::fromStdString(prefix)));
}

// Cost centres of one name in two modules make two stacks of equal labels:
// still two bands, with distinct names, and MAIN (depth 0) a third.
void TestHeap::sameNamedCostCentresStayApart()
{
    HeapLogBuilder b(1);
    b.costCentre(1, "go", "A");
    b.costCentre(2, "go", "B");
    b.costCentre(3, "main", "Main");
    b.costCentre(4, "CAF", "Main", true);
    b.stackCensus(1 * kSecond, {{{1, 3}, 100}, {{2, 3}, 200}, {{}, 5}, {{4}, 8}});
    b.stackCensus(2 * kSecond, {{{2, 3}, 300}, {{1, 3}, 400}});
    const auto ix = indexOfBytes(b.bytes());
    QVERIFY(ix->scan.diagnostics.empty());
    const HeapProfileData& hp = ix->heapProfile;
    QCOMPARE(hp.labels.size(), size_t(4));
    QCOMPARE(hp.stacks, (std::vector<std::vector<uint32_t>>{{1, 3}, {2, 3}, {}, {4}}));
    QCOMPARE(hp.labels[0], std::string("go/main"));
    QVERIFY2(hp.labels[1] != hp.labels[0] && hp.labels[1].starts_with("go/main"), hp.labels[1].c_str());
    QCOMPARE(hp.labels[2], std::string("MAIN"));
    QCOMPARE(hp.labels[3], std::string("Main.CAF"));
    QCOMPARE(hp.repeatedLabels, uint64_t(0));
    QCOMPARE(bytesAtCensus(hp, ix->heapBands, 0), (std::vector<uint64_t>{100, 200, 5, 8}));
    QCOMPARE(bytesAtCensus(hp, ix->heapBands, 1), (std::vector<uint64_t>{400, 300, 0, 0}));
    const std::set<std::string> names(ix->heapBands.names.begin(), ix->heapBands.names.end());
    QCOMPARE(names.size(), size_t(4));
}

// Residency within a range: the whole run is the bands' byte·seconds, a
// range between two censuses gets the interpolated bytes times its length,
// and adjacent ranges add up.
void TestHeap::byteSecondsIn()
{
    const auto ix = indexOfBytes(fiveBandLog());
    const HeapProfileData& hp = ix->heapProfile;
    const HeapBands& bands = ix->heapBands;
    const size_t nl = hp.labels.size();
    const std::vector<double> whole = hecscope::byteSecondsIn(hp, bands, 1 * kSecond, 5 * kSecond);
    QCOMPARE(whole.size(), nl);
    for (size_t l = 0; l < nl; ++l)
        COMPARE_NEAR(whole[l], bands.stats[l].byteSeconds, QString::fromStdString(hp.labels[l]));
    // Before the first and after the last census nothing is known.
    const std::vector<double> wider = hecscope::byteSecondsIn(hp, bands, 0, 10 * kSecond);
    for (size_t l = 0; l < nl; ++l)
        COMPARE_NEAR(wider[l], bands.stats[l].byteSeconds, QString::fromStdString(hp.labels[l]));

    // [2.5 s, 3.5 s] lies between the censuses at 2 and 4 s: the mean of a
    // linear interpolation over it is its value at 3 s, times 1 s.
    const std::vector<double> middle = hecscope::byteSecondsIn(hp, bands, 2'500'000'000, 3'500'000'000);
    const std::map<std::string, double> atThree = {
        {"band1", 4000}, {"Band2", 3000}, {"band10", 2000}, {"band9", 1800}, {"band9x", 50}};
    for (const auto& [name, value] : atThree)
        COMPARE_NEAR(middle[*labelNamed(hp, name)], value, QString::fromStdString(name));
    // [1.2 s, 1.7 s]: band10 from 1100 to 1350, mean 1225, times 0.5 s.
    const auto early = hecscope::byteSecondsIn(hp, bands, 1'200'000'000, 1'700'000'000);
    COMPARE_NEAR(early[*labelNamed(hp, "band10")], 612.5, QStringLiteral("band10"));

    const uint64_t cuts[] = {1 * kSecond, 1'700'000'000, 2 * kSecond, 4'200'000'000, 4'200'000'001, 5 * kSecond};
    std::vector<double> sum(nl);
    for (size_t i = 0; i + 1 < std::size(cuts); ++i) {
        const auto part = hecscope::byteSecondsIn(hp, bands, cuts[i], cuts[i + 1]);
        for (size_t l = 0; l < nl; ++l)
            sum[l] += part[l];
    }
    for (size_t l = 0; l < nl; ++l)
        COMPARE_NEAR(sum[l], whole[l], QString::fromStdString(hp.labels[l]));
    // An empty or inverted range holds nothing.
    for (double v : hecscope::byteSecondsIn(hp, bands, 3 * kSecond, 3 * kSecond))
        QCOMPARE(v, 0.0);
    for (double v : hecscope::byteSecondsIn(hp, bands, 4 * kSecond, 3 * kSecond))
        QCOMPARE(v, 0.0);
}

// Slope, R² and growth over a range: fiveBandLog's censuses at 2 and 4 s
// by hand, the whole run equal to BandStats, one census gives nothing.
void TestHeap::bandTrendsByHand()
{
    const auto ix = indexOfBytes(fiveBandLog());
    const HeapProfileData& hp = ix->heapProfile;
    const HeapBands& bands = ix->heapBands;
    const BandTrends middle = bandTrendsIn(hp, bands, 2 * kSecond, 5 * kSecond);
    QCOMPARE(middle.censuses, size_t(2));
    struct Want {
        const char* name;
        double slope, r2;
        int64_t growth;
    };
    const Want want[] = {
        {"band1", -1000, 1, -2000}, // 5000 -> 3000 over 2 s
        {"Band2", 3000, 1, 6000},   // missing (0) -> 6000
        {"band10", 500, 1, 1000},
        {"band9", 0, 0, 0}, // constant
        {"band9x", 50, 1, 100},
    };
    for (const Want& w : want) {
        const BandTrend& t = middle.labels[*labelNamed(hp, w.name)];
        COMPARE_NEAR(t.slope, w.slope, QLatin1String(w.name));
        COMPARE_NEAR(t.r2, w.r2, QLatin1String(w.name));
        QCOMPARE(t.growth, w.growth);
    }
    const BandTrends whole = bandTrendsIn(hp, bands, 0, 10 * kSecond);
    QCOMPARE(whole.censuses, size_t(4));
    for (size_t l = 0; l < hp.labels.size(); ++l) {
        COMPARE_NEAR(whole.labels[l].slope, bands.stats[l].slope, QString::fromStdString(hp.labels[l]));
        COMPARE_NEAR(whole.labels[l].r2, bands.stats[l].r2, QString::fromStdString(hp.labels[l]));
    }
    QCOMPARE(whole.labels[*labelNamed(hp, "band1")].growth, int64_t(2000 - 6000));
    QCOMPARE(whole.labels[*labelNamed(hp, "Band2")].growth, int64_t(-6000));
    const BandTrends one = bandTrendsIn(hp, bands, 1'500'000'000, 2'500'000'000);
    QCOMPARE(one.censuses, size_t(1));
    for (const BandTrend& t : one.labels)
        QVERIFY(t.slope == 0 && t.r2 == 0 && t.growth == 0);
}

// On every real heap profile: the trends over the middle half of the
// censuses equal a plain least-squares fit of the raw events' bytes.
void TestHeap::bandTrendsEqualRawSamples()
{
    QFETCH(QString, path);
    const auto bytes = readFile(path);
    const RawProfile raw = decodeRaw(bytes);
    const auto ix = indexOfBytes(bytes);
    const HeapProfileData& hp = ix->heapProfile;
    const HeapBands& bands = ix->heapBands;
    std::vector<const RawCensus*> byTime;
    for (const RawCensus& c : raw.censuses)
        byTime.push_back(&c);
    std::stable_sort(byTime.begin(), byTime.end(), [](auto* a, auto* b) { return a->time < b->time; });
    if (byTime.size() < 2) { // sleep.h*: one census, no trend
        const BandTrends none = bandTrendsIn(hp, bands, 0, UINT64_MAX);
        QCOMPARE(none.censuses, byTime.size());
        for (const BandTrend& t : none.labels)
            QVERIFY(t.slope == 0 && t.r2 == 0 && t.growth == 0);
        return;
    }
    const size_t first = std::min(byTime.size() / 4, byTime.size() - 2);
    const size_t last = std::max(first + 2, byTime.size() * 3 / 4);
    const uint64_t t0 = byTime[first]->time, t1 = byTime[last - 1]->time + 1;
    std::vector<const RawCensus*> in;
    for (const RawCensus* c : byTime)
        if (c->time >= t0 && c->time < t1)
            in.push_back(c);
    QVERIFY(in.size() >= 2);
    const BandTrends trends = bandTrendsIn(hp, bands, t0, t1);
    QCOMPARE(trends.censuses, in.size());
    const std::vector<std::string> keys = labelKeys(hp, raw.stacks);
    int changing = 0;
    for (size_t l = 0; l < keys.size(); ++l) {
        auto at = [&](const RawCensus* c) {
            const auto it = c->bytes.find(keys[l]);
            return it == c->bytes.end() ? int64_t(0) : int64_t(it->second);
        };
        long double st = 0, sb = 0, stt = 0, sbb = 0, stb = 0;
        const long double n = in.size();
        for (const RawCensus* c : in) {
            const long double t = (long double)(c->time - t0) * 1e-9L;
            const long double b = at(c);
            st += t, sb += b, stt += t * t, sbb += b * b, stb += t * b;
        }
        const long double cov = stb / n - st / n * sb / n, varT = stt / n - st / n * st / n,
                          varB = sbb / n - sb / n * sb / n;
        const bool constant = std::all_of(in.begin(), in.end(), [&](const RawCensus* c) { return at(c) == at(in.front()); });
        const double slope = constant ? 0 : double(cov / varT);
        const QString where = QString::fromStdString(keys[l]);
        QVERIFY2(std::abs(trends.labels[l].slope - slope) <= 1e-6 * std::max(1.0, std::abs(slope)),
                 qPrintable(QStringLiteral("%1: slope %2, plain fit %3").arg(where).arg(trends.labels[l].slope).arg(slope)));
        if (!constant)
            QVERIFY2(std::abs(trends.labels[l].r2 - double(cov * cov / (varT * varB))) <= 1e-6, qPrintable(where));
        QCOMPARE(trends.labels[l].growth, at(in.back()) - at(in.front()));
        changing += !constant;
    }
    QVERIFY(changing > 0); // the fit is not all zeros
}

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

// With fewer censuses than sparkline points, each census fills its share
// of the points: a band present in every census has no empty point, and
// each point holds the bytes of the census it falls in.
void TestHeap::sparklinesCoverEveryPoint()
{
    HeapLogBuilder b(7);
    b.census(1 * kSecond, {{"steady", 100}, {"late", 0}});
    b.census(2 * kSecond, {{"steady", 100}});
    b.census(3 * kSecond, {{"steady", 100}, {"late", 40}});
    const auto ix = indexOfBytes(b.bytes());
    const HeapBands& bands = ix->heapBands;
    const BandStats& steady = bands.stats[*labelNamed(ix->heapProfile, "steady")];
    for (size_t i = 0; i < kSparkPoints; ++i)
        QCOMPARE(steady.spark[i], uint64_t(100));
    const BandStats& late = bands.stats[*labelNamed(ix->heapProfile, "late")];
    for (size_t i = 0; i < kSparkPoints; ++i)
        QCOMPARE(late.spark[i], uint64_t(i >= 2 * kSparkPoints / 3 ? 40 : 0));
}

// `hecscope heap` prints a whole cost-centre stack, however long, at the
// end of its row, one row per band.
void TestHeap::cliTableKeepsLongNames()
{
    const std::string name = "deep/" + std::string(700, 'x') + "/main";
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

QTEST_GUILESS_MAIN(TestHeap)
#include "tst_heap.moc"
