// The TestIndex suite (tst_index.cpp and the files beside it): its class, and
// the helpers that more than one of its files use.
#pragma once

#include "core/detail/detailstore.h"
#include "core/detail/threaddetail.h"
#include "core/threads/threadstats.h"
#include "testsupport.h"
#include "threadwalk.h"

#include "core/io/bytesource.h"
#include "core/io/spillfile.h"
#include "core/format/encoder.h"
#include "core/format/eventtags.h"
#include "core/report/info.h"
#include "core/load/indexbuilder.h"
#include "core/synth/synthetic.h"
#include "core/load/loader.h"
#include "core/index/chunkpool.h"
#include "core/index/logindex.h"
#include "core/index/schedulerbuilder.h"
#include "core/stats/stats.h"

#include <memory>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonArray>
#include <QRandomGenerator>
#include <QTest>

#include <algorithm>
#include <csignal>
#include <cstring>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <array>
#include <bit>
#include <thread>
#include <map>
#include <numeric>
#include <optional>

using namespace hecscope;
using namespace hecscope::test;

namespace indextest {

OwnedEvent ev(uint16_t tag, uint64_t t, std::initializer_list<uint64_t> n = {},
              std::initializer_list<std::string_view> s = {});

// Time per kind of the spans clipped to [t0, t1), the slow way.
SpanTotals bruteTotals(const CapTimeline& tl, uint64_t t0, uint64_t t1);

std::unique_ptr<LogIndex> loadWith(const std::vector<uint8_t>& bytes, KeepInMemory keep);

// Two indexes' thread states and checkpoints, every field.
void compareThreadParts(const LogIndex& x, const LogIndex& y);

} // namespace indextest

using namespace indextest;

class TestIndex : public QObject {
    Q_OBJECT
private slots:
    void threadStatesAndGcPhases();
    void identicalTimestamps();
    void threadRunningAtEndOfLog();
    void gcWithoutRequestOrPhases();
    void gcSpansSplitByTheirCollection();
    void gcSpansHeldUntilTheirLeaderComes_data();
    void gcSpansHeldUntilTheirLeaderComes();
    void rewriteInPlaceEqualsAFreshTimeline();
    void aCopysChunksAreAppendedToInPlace();
    void aPartlyFilledChunkIsMappedThenCopiedOnAppend();
    void copiedChunksLetTheirPagesGoTogether();
    void freedChunksAreKeptForTheNext();
    void encodedSpansReadBackExactly();
    void packedCollectionsReadBackExactly();
    void packedThreadsReadBackExactly();
    void capabilitiesCreatedAndDeletedMidRun();
    void migrationAcrossCapabilities();
    void outOfOrderBlocks();
    void longRunIsSplit();
    void truncationAtEveryEventBoundary();
    void lodAggregatesHonestly();
    void lodOverTheWholeTimeAxis();
    void realLogsAgreeWithBruteForce_data();
    void realLogsAgreeWithBruteForce();
    void sparkCountersMatchSparkEvents();
    void instantsAreTheLogsEvents_data();
    void instantsAreTheLogsEvents();
    void changedFileIsToldNotRead();
    void threadSegmentsReadBack_data();
    void threadSegmentsReadBack();
    void threadSegmentsReadBackEdgeCases();
    void detailReadsPastRecordsLongerThanARead();
    void threadSegmentsFromAChangedFile();
    void threadEventsSettledAsTheLoadGoes_data() { threadSegmentsReadBack_data(); }
    void threadEventsSettledAsTheLoadGoes();
    void threadCountsThatWaitForTheirEntry_data();
    void threadCountsThatWaitForTheirEntry();
    void aLateCapabilityAfterSettlingIsMergedFromItsRuns();
    void aLateCapabilityWithoutRunsReadsTheLogAgain();
    void aCapabilityThatFallsSilentSendsTheLoadToRuns();
    void eventsThatWaitedForAStuckBoundAreLetGo();
    void eventsThatWaitForAStuckBoundArePacked();
    void manyShortThreadsAreNotSettled();
    void declinedEventsGoToSortedRuns();
    void runsThatCannotBeWrittenOrReadLoseNothing();
    void threadsOfRunsBinnedAsMerged();
    void checkpointEntriesAreMappedFromAFile();
    void settledSegmentsSpillToAFile();
    void aSpillFileReadsBackWhatItWrote();
    void aSpillFileMapsWhatItWrote();
    void aLiveSessionsSpilledSegmentsAreMappedNotCopied();
    void aLiveSessionOfManyThreadsKeepsNoSegmentInMemory();
    void aLiveSessionsSpillFileThatFillsUpLosesTheEvents();
    void capabilitySpansSpillToAFile();
    void aSpillFileThatFillsUpKeepsTheRestInMemory();
    void aSpillFileThatCannotBeReadReadsTheLogAgain();
    void detailStoreServesSeveralThreads();
    void growingLogExtendsTheIndex_data();
    void growingLogExtendsTheIndex();
    void infoJsonGolden_data();
    void infoJsonGolden();
    void keptTotalsGiveBackWhatWasKept();
};
