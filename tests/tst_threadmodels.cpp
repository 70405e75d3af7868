// The Threads table, span names and span occurrences models under
// QAbstractItemModelTester: filled, re-filled with a range's figures,
// sorted by every column both ways (persistent indexes stay on their item)
// and emptied. spans-N2 (12 threads, worker-1..6 = ids 6..11, span names
// of ~400 spans, a START never stopped on worker-6) and ffi-N2 (foreign
// calls); expected values from the core functions (allThreadFigures,
// spanFigures) or from counting here.
#include "threaduitestsupport.h"

#include "core/index/logindex.h"
#include "core/threads/threadstats.h"
#include "core/threads/userspans.h"
#include "ui/formatting.h"
#include "ui/models/tablemodels.h"
#include "ui/threads/spanspane.h"
#include "ui/threads/threadspane.h"

#include <QtTest>

#include <algorithm>
#include <map>
#include <set>

using namespace hecscope;
using namespace hecscope::test;

class TestThreadModels : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();

    void threadsModelUnderTester();
    void spanNamesModelUnderTester();
    void spanOccurrencesModelUnderTester();

private:
    std::shared_ptr<const LogIndex> m_spans;
};

void TestThreadModels::initTestCase()
{
    m_spans = loadLog(QStringLiteral("spans-N2"));
    QVERIFY(m_spans && m_spans->userSpans);
    QCOMPARE(m_spans->threadStates.count(), size_t(12));
}

void TestThreadModels::threadsModelUnderTester()
{
    const auto& ix = m_spans;
    ThreadsTableModel model;
    Tester tester(&model, kFatal);
    const std::vector<ThreadFigures> whole = allThreadFigures(*ix, std::nullopt);
    model.setFigures(ix, whole);
    QCOMPARE(model.rowCount(), 12);
    QCOMPARE(model.columnCount(), int(ThreadsTableModel::ColumnCount));
    CHECKED(checkThreadRows(model, whole, ThreadsTableModel::Id, Qt::AscendingOrder));
    // Running and blocked times are the segments' sums.
    for (const ThreadFigures& f : whole) {
        QCOMPARE(f.running(), timeIn(*ix, f.number, ThreadState::Running));
        QCOMPARE(f.blockedTotal(), timeIn(*ix, f.number, ThreadState::Blocked));
    }
    const uint32_t worker3 = uint32_t(ix->threadStates.find(8));
    int lastColumn = 0;
    Qt::SortOrder lastOrder = Qt::AscendingOrder;
    for (int c = 0; c < ThreadsTableModel::ColumnCount; ++c)
        for (const Qt::SortOrder order : {Qt::AscendingOrder, Qt::DescendingOrder}) {
            // A persistent index (a view's current row) stays on its thread.
            const QPersistentModelIndex kept = model.index(model.rowOfThread(worker3), ThreadsTableModel::Label);
            model.sort(c, order);
            CHECKED(checkThreadRows(model, whole, c, order));
            QCOMPARE(kept.data(ThreadsTableModel::kNumberRole).toUInt(), worker3);
            QCOMPARE(kept.data().toString(), QStringLiteral("worker-3"));
            lastColumn = c;
            lastOrder = order;
        }
    // Re-filled with a range's figures: fewer threads, the same sort.
    const ViewRange early{0, ix->threadStates.end / 20};
    const std::vector<ThreadFigures> part = allThreadFigures(*ix, early);
    QVERIFY(!part.empty() && part.size() < whole.size());
    model.setFigures(ix, part);
    CHECKED(checkThreadRows(model, part, lastColumn, lastOrder));
    model.sort(ThreadsTableModel::Running, Qt::DescendingOrder);
    CHECKED(checkThreadRows(model, part, ThreadsTableModel::Running, Qt::DescendingOrder));
    std::set<uint32_t> inPart;
    for (const ThreadFigures& f : part)
        inPart.insert(uint32_t(f.number));
    for (uint32_t n = 0; n < 12; ++n)
        if (!inPart.count(n))
            QCOMPARE(model.rowOfThread(n), -1);
    // Another log, with foreign calls: their time per thread, summed here
    // over the segments said to be in one.
    const auto ffi = loadLog(QStringLiteral("ffi-N2"));
    const std::vector<ThreadFigures> ffiFigures = allThreadFigures(*ffi, std::nullopt);
    model.setFigures(ffi, ffiFigures);
    model.sort(ThreadsTableModel::BlockedForeign, Qt::DescendingOrder);
    CHECKED(checkThreadRows(model, ffiFigures, ThreadsTableModel::BlockedForeign, Qt::DescendingOrder));
    uint64_t anyForeign = 0;
    for (int row = 0; row < model.rowCount(); ++row) {
        const uint32_t number = model.index(row, 0).data(ThreadsTableModel::kNumberRole).toUInt();
        const auto segs = ffi->threadStates.of(number);
        uint64_t foreign = 0;
        for (size_t i = 0; i < segs.size(); ++i)
            if (segs[i].state == ThreadState::Blocked && threadStateName(segs[i]) == std::string("in a foreign call"))
                foreign += ffi->threadStates.segmentEnd(segs, i) - segs[i].time;
        QCOMPARE(model.index(row, ThreadsTableModel::BlockedForeign).data(kSortRole).toULongLong(), qulonglong(foreign));
        anyForeign += foreign;
    }
    QVERIFY(anyForeign > 0);
    // Emptied.
    model.setFigures(ix, {});
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(model.rowOfThread(0), -1);
    model.sort(ThreadsTableModel::Label, Qt::AscendingOrder);
    model.setFigures(nullptr, {});
    QCOMPARE(model.rowCount(), 0);
}

void TestThreadModels::spanNamesModelUnderTester()
{
    const UserSpans& spans = *m_spans->userSpans;
    SpanNamesModel model;
    Tester tester(&model, kFatal);
    const std::vector<SpanNameFigures> whole = spanFigures(spans, std::nullopt);
    model.setFigures(m_spans->userSpans, whole);
    // Names with spans: every name but "orphan" (only a STOP), counted here:
    // the spans stopped, and apart those never stopped ("never-stopped",
    // whose row has no durations).
    std::map<std::string, uint64_t> counted, open;
    for (const UserSpan& s : spans.spans)
        ++((s.flags & UserSpan::OpenAtEnd) ? open : counted)[spans.names[s.name]];
    counted["never-stopped"] += 0;
    QCOMPARE(model.rowCount(), int(counted.size()));
    QCOMPARE(counted.size(), size_t(8));
    QCOMPARE(open, (std::map<std::string, uint64_t>{{"never-stopped", 1}}));
    for (int row = 0; row < model.rowCount(); ++row) {
        const std::string name = model.index(row, SpanNamesModel::Name).data().toString().toStdString();
        QCOMPARE(model.index(row, SpanNamesModel::Count).data(kSortRole).toULongLong(), qulonglong(counted[name]));
        QCOMPARE(model.index(row, SpanNamesModel::Open).data(kSortRole).toULongLong(), qulonglong(open[name]));
        QCOMPARE(model.index(row, SpanNamesModel::Max).data().toString().isEmpty(), name == "never-stopped");
    }
    QCOMPARE(model.headerData(SpanNamesModel::Open, Qt::Horizontal).toString(), QStringLiteral("Never stopped"));
    CHECKED(checkSpanNameRows(model, spans, whole, SpanNamesModel::Total, Qt::DescendingOrder)); // the default
    const uint32_t parse = nameIndex(spans, "parse");
    for (int c = 0; c < SpanNamesModel::ColumnCount; ++c)
        for (const Qt::SortOrder order : {Qt::AscendingOrder, Qt::DescendingOrder}) {
            int parseRow = -1;
            for (int row = 0; row < model.rowCount(); ++row)
                if (model.index(row, 0).data(SpanNamesModel::kNameRole).toUInt() == parse)
                    parseRow = row;
            const QPersistentModelIndex kept = model.index(parseRow, SpanNamesModel::Count);
            model.sort(c, order);
            CHECKED(checkSpanNameRows(model, spans, whole, c, order));
            QVERIFY2(kept.data(SpanNamesModel::kNameRole).toUInt() == parse,
                     qPrintable(QStringLiteral("column %1: a persistent index moved to another name").arg(c)));
        }
    // Re-filled with the figures of a range (spans starting in it).
    const ViewRange middle{m_spans->lastTime / 3, 2 * m_spans->lastTime / 3};
    const std::vector<SpanNameFigures> part = spanFigures(spans, middle);
    model.setFigures(m_spans->userSpans, part);
    CHECKED(checkSpanNameRows(model, spans, part, SpanNamesModel::Max, Qt::DescendingOrder));
    for (int row = 0; row < model.rowCount(); ++row) {
        const uint32_t name = model.index(row, 0).data(SpanNamesModel::kNameRole).toUInt();
        const auto started = std::count_if(spans.spans.begin(), spans.spans.end(), [&](const UserSpan& s) {
            return s.name == name && s.start >= middle.start && s.start < middle.end && !(s.flags & UserSpan::OpenAtEnd);
        });
        QCOMPARE(model.index(row, SpanNamesModel::Count).data(kSortRole).toLongLong(), qlonglong(started));
    }
    model.setFigures(m_spans->userSpans, {});
    QCOMPARE(model.rowCount(), 0);
    model.setFigures(nullptr, {});
    QCOMPARE(model.rowCount(), 0);
    model.sort(SpanNamesModel::Name, Qt::AscendingOrder);
}

void TestThreadModels::spanOccurrencesModelUnderTester()
{
    const UserSpans& spans = *m_spans->userSpans;
    SpanOccurrencesModel model;
    Tester tester(&model, kFatal);
    const std::vector<uint32_t> requests = spansNamed(spans, "request");
    QVERIFY(requests.size() >= 390);
    model.setSpans(m_spans, m_spans->userSpans, spansOfName(spans, nameIndex(spans, "request"), std::nullopt));
    CHECKED(checkOccurrenceRows(model, spans, requests, SpanOccurrencesModel::Start, Qt::AscendingOrder));
    const uint32_t kept0 = requests[requests.size() / 2];
    for (int c = 0; c < SpanOccurrencesModel::ColumnCount; ++c)
        for (const Qt::SortOrder order : {Qt::AscendingOrder, Qt::DescendingOrder}) {
            int keptRow = -1;
            for (int row = 0; row < model.rowCount(); ++row)
                if (model.index(row, 0).data(SpanOccurrencesModel::kSpanRole).toUInt() == kept0)
                    keptRow = row;
            const QPersistentModelIndex kept = model.index(keptRow, SpanOccurrencesModel::Duration);
            model.sort(c, order);
            CHECKED(checkOccurrenceRows(model, spans, requests, c, order));
            QVERIFY2(kept.data(SpanOccurrencesModel::kSpanRole).toUInt() == kept0,
                     qPrintable(QStringLiteral("column %1: a persistent index moved to another span").arg(c)));
        }
    // Another name keeps the chosen sort.
    model.sort(SpanOccurrencesModel::Duration, Qt::DescendingOrder);
    const std::vector<uint32_t> lookups = spansNamed(spans, "lookup");
    model.setSpans(m_spans, m_spans->userSpans, spansOfName(spans, nameIndex(spans, "lookup"), std::nullopt));
    CHECKED(checkOccurrenceRows(model, spans, lookups, SpanOccurrencesModel::Duration, Qt::DescendingOrder));
    // The span never stopped says so.
    const std::vector<uint32_t> open = spansNamed(spans, "never-stopped");
    QCOMPARE(open.size(), size_t(1));
    model.setSpans(m_spans, m_spans->userSpans, open);
    QVERIFY(model.index(0, SpanOccurrencesModel::Note).data().toString().contains(QStringLiteral("never stopped")));
    // Its duration is only a lower bound: up to the end of the log.
    QCOMPARE(model.index(0, SpanOccurrencesModel::Duration).data().toString(),
             QStringLiteral("≥ ") + durationText(spans.spans[open[0]].duration()));
    QCOMPARE(model.index(0, SpanOccurrencesModel::Thread).data().toString(), QStringLiteral("worker-6 (11)"));
    model.setSpans(m_spans, m_spans->userSpans, {});
    QCOMPARE(model.rowCount(), 0);
    model.setSpans(nullptr, nullptr, {});
    QCOMPARE(model.rowCount(), 0);
    model.sort(SpanOccurrencesModel::Start, Qt::AscendingOrder);
}

QTEST_MAIN(TestThreadModels)
#include "tst_threadmodels.moc"
