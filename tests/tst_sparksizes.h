// The TestSparkSizes suite (tst_sparksizes.cpp and the files beside it): its class, and
// the helpers that more than one of its files use.
#pragma once

#include "testsupport.h"

#include "core/load/loader.h"
#include "core/detail/sparkdetail.h"
#include "core/format/encoder.h"
#include "core/format/eventtags.h"
#include "core/index/logindex.h"
#include "core/io/bytesource.h"
#include "core/stats/sparksizes.h"
#include "core/stats/stats.h"
#include "core/text/units.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <map>

using namespace hecscope;
using namespace hecscope::test;

namespace sparksizestest {

// An index with the bytes it was made from: spark events are read back
// from them.
struct Loaded {
    std::unique_ptr<LogIndex> index;
    std::shared_ptr<MemorySource> source;
    const LogIndex* operator->() const { return index.get(); }
    const LogIndex& operator*() const { return *index; }
};

Loaded load(const std::vector<uint8_t>& bytes);

SparkEvaluations evaluate(const Loaded& ix, std::optional<ViewRange> range = std::nullopt);

// One evaluation as the text walk finds it.
struct Walked {
    uint64_t start = 0, duration = 0;
    uint32_t thread = 0;
    uint16_t cap = 0;
    bool stolen = false;
    bool finished = false; // its thread finished (not another spark, not cut)
};

// The rule of sparksizes.h applied to the dump text, the slow way: each
// capability's current thread from "running thread" / "stopping thread" /
// "starting GC" lines, each spark given the thread running on its
// capability, and its duration summed over every run of that thread
// clipped to [its start, the thread's next spark).
std::vector<Walked> walkDump(const std::string& dump);

const QString kSparksLf = QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/sparks-lf-N2.eventlog");

} // namespace sparksizestest

using namespace sparksizestest;

class TestSparkSizes : public QObject {
    Q_OBJECT
private slots:
    void realLogMatchesTextWalk();
    void realLogRangesAndCapsAddUp();
    void realLogHistogram();
    void logsWithoutFineGrainedEvents_data();
    void logsWithoutFineGrainedEvents();
    void rangeWithoutSpark();
    void sparksCreatedButNoneRan();
    void twoSparksInOneRun();
    void collectionPausesASpark();
    void gcWithoutStopPausesASpark();
    void runCutByEndOfLog();
    void sparkFollowsItsThreadToAnotherCap();
    void sparkWithoutThread();
    void sparkAtTheStopInstant();
    void binsAndPercentiles();
    void commandLine();
    void commandLineWithoutFineGrainedEvents();
    void commandLineUsageErrors_data();
    void commandLineUsageErrors();
    void sparkEventsReadBackByRange();
    void rangedEvaluationsAreTheWholeRunsOnes();
    void changedFileIsToldNotMeasured();
    void indexKeepsNoSparkEvent();
};
