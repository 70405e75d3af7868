// Thread states and user spans of a log fed in pieces and published
// provisionally after each: the states the walk (threadwalk.h) finds in
// each prefix, the spans of a fresh index of it, and at the end what
// loading the whole log gives.
#include "testsupport.h"
#include "threadtestsupport.h"
#include "threadwalk.h"

#include "core/index/indexbuilder.h"
#include "core/index/logindex.h"

#include <QFileInfo>
#include <QRandomGenerator>
#include <QTest>

using namespace hecscope;
using namespace hecscope::test;

namespace {

void compareThreadStates(const ThreadStates& a, const ThreadStates& b)
{
    QVERIFY(a.ids == b.ids);
    QVERIFY(a.offsets == b.offsets);
    QCOMPARE(a.end, b.end);
    QCOMPARE(a.segmentCount(), b.segmentCount());
    for (size_t k = 0; k < a.count(); ++k) {
        const SegmentView sa = a.of(k), sb = b.of(k);
        for (size_t i = 0; i < sa.size(); ++i) {
            const ThreadSegment x = sa[i], y = sb[i];
            const QString where = QStringLiteral("thread %1, segment %2").arg(a.ids[k]).arg(i);
            QVERIFY2(x.time == y.time && x.cap == y.cap && x.state == y.state && x.stop == y.stop
                         && x.cause == y.cause && x.info == y.info,
                     qPrintable(where));
        }
    }
}

void compareUserSpans(const UserSpans& a, const UserSpans& b)
{
    QVERIFY(a.names == b.names);
    QCOMPARE(a.spans.size(), b.spans.size());
    for (size_t i = 0; i < a.spans.size(); ++i) {
        const UserSpan& x = a.spans[i];
        const UserSpan& y = b.spans[i];
        QVERIFY2(x.start == y.start && x.end == y.end && x.self == y.self && x.name == y.name && x.thread == y.thread
                     && x.parent == y.parent && x.depth == y.depth && x.flags == y.flags,
                 qPrintable(QStringLiteral("span %1").arg(i)));
    }
    QCOMPARE(a.issues.size(), b.issues.size());
    for (size_t i = 0; i < a.issues.size(); ++i)
        QVERIFY(a.issues[i].time == b.issues[i].time && a.issues[i].thread == b.issues[i].thread
                && a.issues[i].name == b.issues[i].name && a.issues[i].kind == b.issues[i].kind);
    QVERIFY(a.byName == b.byName);
    QVERIFY(a.nameOffsets == b.nameOffsets);
    QVERIFY(a.threadIds == b.threadIds);
    QVERIFY(a.byThread == b.byThread);
    QVERIFY(a.threadOffsets == b.threadOffsets);
    QVERIFY(a.levelMaxEnd == b.levelMaxEnd);
    QCOMPARE(a.maxDepth, b.maxDepth);
}

const QString kThreadsLog = QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/threads-N2.eventlog");

} // namespace

class TestThreadsIncremental : public QObject {
    Q_OBJECT
private slots:
    void growingLogGivesTheSameStatesAndSpans_data();
    void growingLogGivesTheSameStatesAndSpans();
};

void TestThreadsIncremental::growingLogGivesTheSameStatesAndSpans_data()
{
    QTest::addColumn<QString>("log");
    QTest::newRow("threads-N2") << kThreadsLog;
    QTest::newRow("sparks-N4") << QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/sparks-N4.eventlog");
    for (const QString& log : conformanceLogs(QStringLiteral("ghc-events")))
        if (QFileInfo(log).fileName() == QLatin1String("parallelTest.eventlog"))
            QTest::newRow("parallelTest") << log;
    QTest::newRow("generated spans") << QString();
}

// A log fed in pieces, published provisionally after each: each publish
// has the states the walk finds in that prefix and the spans of a fresh
// index of it; the final publish equals loading the whole log.
void TestThreadsIncremental::growingLogGivesTheSameStatesAndSpans()
{
    QFETCH(QString, log);
    const std::vector<uint8_t> bytes = log.isEmpty() ? generatedSpansLog(7, 200).bytes : readFile(log);
    QVERIFY(!bytes.empty());
    QRandomGenerator rng(uint32_t(bytes.size()));
    IndexBuilder growing;
    size_t pos = 0;
    int publishes = 0;
    while (pos < bytes.size()) {
        const size_t n = std::min<size_t>(bytes.size() - pos, 1 + rng.bounded(uint32_t(bytes.size() / 20)));
        growing.feed({bytes.data() + pos, n});
        pos += n;
        const LogIndex& now = growing.publish(false);
        const std::vector<uint8_t> prefix(bytes.begin(), bytes.begin() + ptrdiff_t(pos));
        const Walk w = walkThreads(prefix);
        compareWithWalk(now, w);
        compareFiguresWithWalk(now, w, std::nullopt);
        IndexBuilder fresh;
        fresh.feed(prefix);
        const LogIndex& other = fresh.publish(false);
        QVERIFY(now.userSpans && other.userSpans);
        compareUserSpans(*now.userSpans, *other.userSpans);
        if (QTest::currentTestFailed())
            QFAIL(qPrintable(QStringLiteral("after %1 of %2 bytes").arg(pos).arg(bytes.size())));
        ++publishes;
    }
    QVERIFY(publishes >= 20);
    const LogIndex& final = growing.publish(true);
    const auto whole = load(bytes);
    compareThreadStates(final.threadStates, whole->threadStates);
    compareUserSpans(*final.userSpans, *whole->userSpans);
    if (log.isEmpty())
        QVERIFY(final.userSpans->spans.size() > 100);
    else
        QVERIFY(final.threadStates.count() > 0);
}

QTEST_GUILESS_MAIN(TestThreadsIncremental)
#include "tst_threadsincremental.moc"
