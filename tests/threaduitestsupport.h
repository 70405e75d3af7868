#pragma once

#include "core/index/logindex.h"
#include "core/threads/threadstats.h"
#include "core/threads/userspans.h"
#include "ui/threads/spanspane.h"
#include "ui/threads/threadspane.h"

#include <QAbstractItemModelTester>
#include <QString>
#include <QTest>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

// A helper's QCOMPARE returns from the helper only: stop the test too.
#define CHECKED(call)                   \
    do {                                \
        call;                           \
        if (QTest::currentTestFailed()) \
            return;                     \
    } while (false)

// Helpers shared by the suites on the threads and spans UI (tst_threadmodels,
// tst_threadpanes, tst_threadtracks): the logs, and what the Threads, span
// names and span occurrences tables must show, worked out here from the
// core's figures or by counting.
namespace hecscope::test {

using Tester = QAbstractItemModelTester;
inline constexpr auto kFatal = QAbstractItemModelTester::FailureReportingMode::Fatal;

// testdata/logs/<name>.eventlog, loaded.
std::shared_ptr<const LogIndex> loadLog(const QString& name);
std::shared_ptr<const LogIndex> loadBytes(const std::vector<uint8_t>& bytes);

// A thread's time in `state` over the whole log, summed here from its
// segments.
uint64_t timeIn(const LogIndex& ix, size_t number, ThreadState state);

// The model shows exactly `figures` (one row each), every cell's sort
// value is the figure's, and the rows are ordered by `column`.
void checkThreadRows(const ThreadsTableModel& model, const std::vector<ThreadFigures>& figures, int column,
                     Qt::SortOrder order);
// The same for the span names' table and one name's occurrences.
void checkSpanNameRows(const SpanNamesModel& model, const UserSpans& spans,
                       const std::vector<SpanNameFigures>& figures, int column, Qt::SortOrder order);
void checkOccurrenceRows(const SpanOccurrencesModel& model, const UserSpans& spans, const std::vector<uint32_t>& members,
                         int column, Qt::SortOrder order);

// The spans of `name`, by start, found by walking every span.
std::vector<uint32_t> spansNamed(const UserSpans& spans, const std::string& name);
uint32_t nameIndex(const UserSpans& spans, const std::string& name);

} // namespace hecscope::test
