// The sparse event index: counting, positional access and filtered search in
// time order, without holding the events, checked against a full decode
// sorted stably by time.
#include "testsupport.h"

#include "core/io/bytesource.h"
#include "core/format/encoder.h"
#include "core/format/eventtags.h"
#include "core/order/timeorder.h"

#include <QFileInfo>
#include <QRandomGenerator>
#include <QTest>

#include <algorithm>

using namespace hecscope;
using namespace hecscope::test;

namespace {

struct Ref {
    uint64_t time, offset;
    uint16_t tag;
};

std::vector<Ref> referenceOrder(ByteSource& source)
{
    class Collect final : public EventSink {
    public:
        void onEvent(const Event& e) override { refs.push_back({e.time, e.offset, e.tag}); }
        std::vector<Ref> refs;
    } collect;
    scanLog(source, &collect);
    std::stable_sort(collect.refs.begin(), collect.refs.end(),
                     [](const Ref& a, const Ref& b) { return a.time < b.time; });
    return collect.refs;
}

// A log whose every event is earlier than the one before (outside any
// block: inside one that would be damage): the index falls back to sorting
// and must still answer the same way.
std::vector<uint8_t> unorderedLog()
{
    EventlogWriter w(EventlogWriter::allDeclarations());
    uint64_t t = 1'000'000;
    for (uint32_t i = 0; i < 3000; ++i) {
        OwnedEvent e(i % 3 ? tag::RunThread : tag::ThreadRunnable, t - (i % 7 == 0 ? 0 : i), {i});
        w.write(e.event);
    }
    w.writeDataEnd();
    return w.takeBytes();
}

// Damaged logs can carry any timestamp: events at 0 and at UINT64_MAX must be
// reachable by position and by search like any other.
std::vector<uint8_t> extremeLog()
{
    EventlogWriter w(EventlogWriter::allDeclarations());
    w.beginBlock(0, 0);
    for (uint64_t t : {uint64_t(0), uint64_t(5), UINT64_MAX - 1, UINT64_MAX, UINT64_MAX}) {
        OwnedEvent e(tag::RunThread, t, {t & 0xFF});
        w.write(e.event);
    }
    w.endBlock(UINT64_MAX);
    w.beginBlock(1, 7);
    OwnedEvent other(tag::ThreadRunnable, UINT64_MAX, {9});
    w.write(other.event);
    w.endBlock(UINT64_MAX);
    w.writeDataEnd();
    return w.takeBytes();
}

} // namespace

class TestEventIndex : public QObject {
    Q_OBJECT
private slots:
    void agreesWithSortedDecode_data();
    void agreesWithSortedDecode();
};

void TestEventIndex::agreesWithSortedDecode_data()
{
    QTest::addColumn<QString>("log");
    for (const QString& log : testdataLogs() + conformanceLogs(QStringLiteral("ghc-events")))
        QTest::newRow(qPrintable(QFileInfo(log).fileName())) << log;
    QTest::newRow("unordered (encoder)") << QStringLiteral("unordered");
    QTest::newRow("extreme timestamps (encoder)") << QStringLiteral("extreme");
}

void TestEventIndex::agreesWithSortedDecode()
{
    QFETCH(QString, log);
    MemorySource source(log == QStringLiteral("unordered") ? unorderedLog()
                            : log == QStringLiteral("extreme") ? extremeLog()
                                                               : readFile(log));
    const std::vector<Ref> ref = referenceOrder(source);
    QVERIFY(!ref.empty());
    const LogScan scan = scanLog(source);
    QVERIFY(scan.diagnostics.empty());
    QCOMPARE(scan.ordered, log != QStringLiteral("unordered"));
    const TimeOrder order(scan);
    QRandomGenerator rng(seedOf(log));

    // countBefore: at event times, between them, at the extremes.
    std::vector<uint64_t> times{0, 1, ref.front().time, ref.back().time, ref.back().time + 1, UINT64_MAX};
    for (int i = 0; i < 30; ++i) {
        const uint64_t t = ref[rng.bounded(uint32_t(ref.size()))].time;
        times.push_back(t);
        times.push_back(t + 1);
    }
    for (uint64_t t : times) {
        const auto want = std::lower_bound(ref.begin(), ref.end(), t,
                                           [](const Ref& r, uint64_t x) { return r.time < x; }) - ref.begin();
        QCOMPARE(order.countBefore(source, t), uint64_t(want));
    }

    // visitRange: positional windows, including the first and last events.
    class Offsets final : public EventSink {
    public:
        void onEvent(const Event& e) override { got.push_back(e.offset); }
        std::vector<uint64_t> got;
    };
    std::vector<std::pair<uint64_t, uint64_t>> windows{{0, 5}, {ref.size() - 1, 10}, {ref.size(), 3}};
    for (int i = 0; i < 10; ++i)
        windows.emplace_back(rng.bounded(uint32_t(ref.size())), 1 + rng.bounded(200u));
    for (const auto& [first, count] : windows) {
        Offsets sink;
        const uint64_t n = order.visitRange(source, sink, first, count);
        const uint64_t want = first >= ref.size() ? 0 : std::min<uint64_t>(count, ref.size() - first);
        QCOMPARE(n, want);
        QCOMPARE(uint64_t(sink.got.size()), want);
        for (uint64_t k = 0; k < want; ++k)
            QCOMPARE(sink.got[k], ref[first + k].offset);
    }

    // find: the next few events of one tag from a time, with positions.
    const uint16_t wanted = ref[rng.bounded(uint32_t(ref.size()))].tag;
    for (int i = 0; i < 5; ++i) {
        const uint64_t from = ref[rng.bounded(uint32_t(ref.size()))].time;
        std::vector<std::pair<uint64_t, uint64_t>> got; // offset, position
        const uint64_t n = order.find(
            source, from, [&](const Event& e) { return e.tag == wanted; },
            [&](const Event& e, uint64_t position) { got.emplace_back(e.offset, position); }, 7);
        std::vector<std::pair<uint64_t, uint64_t>> want;
        for (size_t k = 0; k < ref.size() && want.size() < 7; ++k)
            if (ref[k].time >= from && ref[k].tag == wanted)
                want.emplace_back(ref[k].offset, k);
        QCOMPARE(n, uint64_t(want.size()));
        QVERIFY(got == want);
        // The same with the tag hint, which skips stretches without it.
        TagMask mask;
        mask.set(tagBit(wanted));
        std::vector<std::pair<uint64_t, uint64_t>> hinted;
        order.find(
            source, from, [&](const Event& e) { return e.tag == wanted; },
            [&](const Event& e, uint64_t position) { hinted.emplace_back(e.offset, position); }, 7, &mask);
        QVERIFY(hinted == want);
    }
    // A tag the log does not hold: nothing, with or without the hint.
    TagMask absent;
    absent.set(254);
    QCOMPARE(order.find(source, 0, [](const Event& e) { return e.tag == 254; },
                        [](const Event&, uint64_t) {}, 1, &absent), uint64_t(0));
}

QTEST_GUILESS_MAIN(TestEventIndex)
#include "tst_eventindex.moc"
