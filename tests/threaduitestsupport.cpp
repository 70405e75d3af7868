#include "threaduitestsupport.h"

#include "core/io/bytesource.h"
#include "core/load/loader.h"
#include "ui/models/tablemodels.h"

#include <algorithm>
#include <map>
#include <set>

namespace hecscope::test {

namespace {

// What each column of the Threads table holds for a thread's figures.
uint64_t threadColumnValue(const ThreadFigures& f, int column)
{
    using M = ThreadsTableModel;
    const auto reason = [&](BlockReason r) { return f.blocked[size_t(r)]; };
    switch (column) {
    case M::Id: return f.id;
    case M::Created: return f.created;
    case M::Finished: return f.finished;
    case M::Running: return f.time[size_t(ThreadState::Running)];
    case M::Runnable: return f.time[size_t(ThreadState::Runnable)];
    case M::Blocked: return f.time[size_t(ThreadState::Blocked)];
    case M::BlockedMVar: return reason(BlockReason::MVar);
    case M::BlockedMVarRead: return reason(BlockReason::MVarRead);
    case M::BlockedBlackHole: return reason(BlockReason::BlackHole);
    case M::BlockedStm: return reason(BlockReason::Stm);
    case M::BlockedDelay: return reason(BlockReason::Delay);
    case M::BlockedForeign: return reason(BlockReason::CCall);
    case M::BlockedThrowTo: return reason(BlockReason::ThrowTo);
    case M::BlockedOther:
        return reason(BlockReason::Read) + reason(BlockReason::Write) + reason(BlockReason::DoProc)
            + reason(BlockReason::Other);
    case M::Runs: return f.runs;
    case M::Migrations: return f.migrations;
    case M::Wakeups: return f.wakeups;
    default: return 0;
    }
}

uint64_t spanNameValue(const SpanNameFigures& f, int column)
{
    using M = SpanNamesModel;
    switch (column) {
    case M::Count: return f.count;
    case M::Total: return f.total;
    case M::Self: return f.self;
    case M::Mean: return f.mean;
    case M::P50: return f.p50;
    case M::P95: return f.p95;
    case M::Max: return f.max;
    case M::Open: return f.open;
    default: return 0;
    }
}

uint64_t occurrenceValue(const UserSpan& s, int column)
{
    using M = SpanOccurrencesModel;
    switch (column) {
    case M::Start: return s.start;
    case M::Duration: return s.end - s.start;
    case M::Self: return s.self;
    case M::Thread: return s.thread;
    case M::Depth: return s.depth;
    case M::Note: return s.flags;
    default: return 0;
    }
}

} // namespace

std::shared_ptr<const LogIndex> loadLog(const QString& name)
{
    std::string error;
    const auto source = FileSource::open(QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/%1.eventlog").arg(name).toStdString(), error);
    if (!source)
        qFatal("%s", error.c_str());
    return std::shared_ptr<const LogIndex>(loadIndex(*source, 0, nullptr, KeepInMemory{true}).index); // (segments compared)
}

std::shared_ptr<const LogIndex> loadBytes(const std::vector<uint8_t>& bytes)
{
    MemorySource source(bytes);
    return std::shared_ptr<const LogIndex>(loadIndex(source, bytes.size(), nullptr, KeepInMemory{true}).index);
}

uint64_t timeIn(const LogIndex& ix, size_t number, ThreadState state)
{
    const ThreadStates& st = ix.threadStates;
    const auto segs = st.of(number);
    uint64_t sum = 0;
    for (size_t i = 0; i < segs.size(); ++i)
        if (segs[i].state == state)
            sum += st.segmentEnd(segs, i) - segs[i].time;
    return sum;
}

void checkThreadRows(const ThreadsTableModel& model, const std::vector<ThreadFigures>& figures, int column,
                     Qt::SortOrder order)
{
    QCOMPARE(model.rowCount(), int(figures.size()));
    std::map<uint32_t, const ThreadFigures*> byNumber;
    for (const ThreadFigures& f : figures)
        byNumber[uint32_t(f.number)] = &f;
    std::set<uint32_t> seen;
    for (int row = 0; row < model.rowCount(); ++row) {
        const uint32_t number = model.index(row, 0).data(ThreadsTableModel::kNumberRole).toUInt();
        QVERIFY2(byNumber.count(number), qPrintable(QStringLiteral("row %1: thread %2").arg(row).arg(number)));
        QVERIFY(seen.insert(number).second);
        QCOMPARE(model.rowOfThread(number), row);
        const ThreadFigures& f = *byNumber[number];
        QCOMPARE(model.index(row, ThreadsTableModel::Id).data().toUInt(), f.id);
        QCOMPARE(model.index(row, ThreadsTableModel::Label).data(kSortRole).toString().toStdString(),
                 std::string(f.label));
        for (int c = 0; c < ThreadsTableModel::ColumnCount; ++c)
            if (c != ThreadsTableModel::Label)
                QCOMPARE(model.index(row, c).data(kSortRole).toULongLong(), qulonglong(threadColumnValue(f, c)));
    }
    for (int row = 1; row < model.rowCount(); ++row) {
        const auto& a = *byNumber[model.index(row - 1, 0).data(ThreadsTableModel::kNumberRole).toUInt()];
        const auto& b = *byNumber[model.index(row, 0).data(ThreadsTableModel::kNumberRole).toUInt()];
        bool ordered;
        if (column == ThreadsTableModel::Label) {
            // Labelled threads first, by label.
            const auto ka = std::pair(a.label.empty(), a.label), kb = std::pair(b.label.empty(), b.label);
            ordered = order == Qt::AscendingOrder ? !(kb < ka) : !(ka < kb);
        } else {
            const uint64_t va = threadColumnValue(a, column), vb = threadColumnValue(b, column);
            ordered = order == Qt::AscendingOrder ? va <= vb : va >= vb;
        }
        QVERIFY2(ordered, qPrintable(QStringLiteral("column %1, rows %2 and %3").arg(column).arg(row - 1).arg(row)));
    }
}

void checkSpanNameRows(const SpanNamesModel& model, const UserSpans& spans,
                       const std::vector<SpanNameFigures>& figures, int column, Qt::SortOrder order)
{
    QCOMPARE(model.rowCount(), int(figures.size()));
    std::map<uint32_t, const SpanNameFigures*> byName;
    for (const SpanNameFigures& f : figures)
        byName[f.name] = &f;
    std::set<uint32_t> seen;
    for (int row = 0; row < model.rowCount(); ++row) {
        const uint32_t name = model.index(row, 0).data(SpanNamesModel::kNameRole).toUInt();
        QVERIFY(byName.count(name));
        QVERIFY(seen.insert(name).second);
        QCOMPARE(model.index(row, SpanNamesModel::Name).data().toString().toStdString(), spans.names[name]);
        for (int c = SpanNamesModel::Count; c < SpanNamesModel::ColumnCount; ++c)
            QCOMPARE(model.index(row, c).data(kSortRole).toULongLong(), qulonglong(spanNameValue(*byName[name], c)));
    }
    for (int row = 1; row < model.rowCount(); ++row) {
        const uint32_t a = model.index(row - 1, 0).data(SpanNamesModel::kNameRole).toUInt();
        const uint32_t b = model.index(row, 0).data(SpanNamesModel::kNameRole).toUInt();
        bool ordered;
        if (column == SpanNamesModel::Name)
            ordered = order == Qt::AscendingOrder ? spans.names[a] <= spans.names[b] : spans.names[a] >= spans.names[b];
        else {
            const uint64_t va = spanNameValue(*byName[a], column), vb = spanNameValue(*byName[b], column);
            ordered = order == Qt::AscendingOrder ? va <= vb : va >= vb;
        }
        QVERIFY2(ordered, qPrintable(QStringLiteral("column %1, rows %2 and %3").arg(column).arg(row - 1).arg(row)));
    }
}

void checkOccurrenceRows(const SpanOccurrencesModel& model, const UserSpans& spans, const std::vector<uint32_t>& members,
                         int column, Qt::SortOrder order)
{
    QCOMPARE(model.rowCount(), int(members.size()));
    std::multiset<uint32_t> shown;
    for (int row = 0; row < model.rowCount(); ++row) {
        const uint32_t span = model.index(row, 0).data(SpanOccurrencesModel::kSpanRole).toUInt();
        shown.insert(span);
        for (int c = 0; c < SpanOccurrencesModel::ColumnCount; ++c)
            QCOMPARE(model.index(row, c).data(kSortRole).toULongLong(), qulonglong(occurrenceValue(spans.spans[span], c)));
        if (row > 0) {
            const uint32_t before = model.index(row - 1, 0).data(SpanOccurrencesModel::kSpanRole).toUInt();
            const uint64_t va = occurrenceValue(spans.spans[before], column), vb = occurrenceValue(spans.spans[span], column);
            QVERIFY2(order == Qt::AscendingOrder ? va <= vb : va >= vb,
                     qPrintable(QStringLiteral("column %1, row %2").arg(column).arg(row)));
        }
    }
    QCOMPARE(shown, std::multiset<uint32_t>(members.begin(), members.end()));
}

std::vector<uint32_t> spansNamed(const UserSpans& spans, const std::string& name)
{
    std::vector<uint32_t> out;
    for (uint32_t i = 0; i < spans.spans.size(); ++i)
        if (spans.names[spans.spans[i].name] == name)
            out.push_back(i);
    return out;
}

uint32_t nameIndex(const UserSpans& spans, const std::string& name)
{
    const auto it = std::find(spans.names.begin(), spans.names.end(), name);
    return it == spans.names.end() ? UINT32_MAX : uint32_t(it - spans.names.begin());
}

} // namespace hecscope::test
