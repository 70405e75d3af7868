// tst_heap: the bands' trends and byte-seconds, by hand and against
// the raw samples, and the sparklines that draw them.
#include "tst_heap.h"

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
