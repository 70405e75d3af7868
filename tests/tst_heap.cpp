// Heap profiles: the bands of real GHC logs checked against an independent
// decode of their census events (eventlog-format.md 4.3), band figures and
// orders on logs written by the project's encoder with hand-computed
// answers, and `hecscope heap --csv`. (.hp files: tst_hpfile.)
#include "tst_heap.h"

namespace heaptest {

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

RawProfile decodeRaw(const std::vector<uint8_t>& bytes)
{
    RawProfile raw;
    RawHeapSink sink(raw);
    StreamDecoder decoder(sink);
    decoder.feed(bytes);
    decoder.finish();
    return raw;
}

std::vector<std::string> labelKeys(const HeapProfileData& hp, bool stacks)
{
    std::vector<std::string> keys;
    for (size_t l = 0; l < hp.labels.size(); ++l)
        keys.push_back(stacks ? stackKey(hp.stacks.at(l)) : hp.labels[l]);
    return keys;
}

bool near(double got, double want, double relative)
{
    return std::abs(got - want) <= relative * std::max(1.0, std::abs(want));
}

QString nearMessage(const char* expression, double got, double want, const QString& where)
{
    return QStringLiteral("%1: %2 = %3, expected %4").arg(where, QLatin1String(expression)).arg(got, 0, 'g', 17).arg(want, 0, 'g', 17);
}

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

std::vector<uint8_t> fiveBandLog()
{
    HeapLogBuilder b(7);
    b.census(1 * kSecond, {{"band9", 1800}, {"Band2", 6000}, {"band10", 1000}, {"band1", 6000}});
    b.census(2 * kSecond, {{"band1", 5000}, {"band10", 1500}, {"band9", 1800}});
    b.census(4 * kSecond, {{"band9x", 100}, {"band10", 2500}, {"Band2", 6000}, {"band9", 1800}, {"band1", 3000}});
    b.census(5 * kSecond, {{"band10", 3000}, {"band1", 2000}, {"band9", 1800}});
    return b.bytes();
}

std::optional<uint32_t> labelNamed(const HeapProfileData& hp, std::string_view name)
{
    const auto it = std::find(hp.labels.begin(), hp.labels.end(), name);
    if (it == hp.labels.end())
        return std::nullopt;
    return uint32_t(it - hp.labels.begin());
}

QString testdataLog(const char* name)
{
    return QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/") + QLatin1String(name);
}

} // namespace heaptest

namespace {

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

} // namespace

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

QTEST_GUILESS_MAIN(TestHeap)
