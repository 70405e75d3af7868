// The TestThreadTracks suite (tst_threadtracks.cpp and the files beside it): its class, and
// the helpers that more than one of its files use.
#pragma once

#include "testsupport.h"
#include "threaduitestsupport.h"

#include "core/detail/detailstore.h"
#include "core/detail/threaddetail.h"
#include "core/format/encoder.h"
#include "core/format/eventtags.h"
#include "core/load/loader.h"
#include "core/io/bytesource.h"
#include "core/index/logindex.h"
#include "core/synth/synthetic.h"
#include "core/threads/threadstats.h"
#include "core/threads/userspans.h"
#include "ui/events/eventlistmodel.h"
#include "ui/events/eventlistpane.h"
#include "ui/formatting.h"
#include "ui/models/tablemodels.h"
#include "ui/threads/threadrows.h"
#include "ui/threads/threadrowscontroller.h"
#include "ui/threads/spanspane.h"
#include "ui/threads/threadspane.h"
#include "ui/timeline/imageexport.h"
#include "ui/timeline/timelinerenderer.h"
#include "ui/timeline/timelineview.h"
#include "ui/document/viewcontroller.h"
#include "ui/window/mainwindow.h"

#include <QImage>
#include <QPainter>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QToolTip>
#include <QWheelEvent>
#include <QtTest>

#include <algorithm>
#include <map>

using namespace hecscope;
using namespace hecscope::test;

namespace threadtrackstest {

// The longest segment of thread `number` in `state` (and, for Blocked,
// blocked for `reason`) that is not its last; SIZE_MAX if none.
size_t longestSegment(const LogIndex& ix, size_t number, ThreadState state,
                      std::optional<BlockReason> reason = std::nullopt);

// A view with [a, b) in its middle third.
ViewRange around(uint64_t a, uint64_t b);

// y of the middle of the state bar of thread row `r` of the Threads track
// whose layout row begins at `top`.
int stateBarY(int top, int r);

} // namespace threadtrackstest

using namespace threadtrackstest;

class TestThreadTracks : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void init();

    void threadsTrackDrawsItsWindowOfRows();
    void threadRowHoverNamesStateAndEvents();
    void spanBarHoverNamesTheSpan();
    void spansTrackRowsAreNamesByTotal();
    void pinnedThreadsTrackHasOneRowPerPin();
    void rowsReadBackAreTheKeptSegmentsRows_data();
    void rowsReadBackAreTheKeptSegmentsRows();
    void rowsOfATooWideViewAreDrawnFromBins_data() { rowsReadBackAreTheKeptSegmentsRows_data(); }
    void rowsOfATooWideViewAreDrawnFromBins();
    void rowOfAThreadFarFromTheViewIsEmpty();
    void aWindowOfVeryManyThreadsHoldsTheRowsNearTheShownOnes();
    void spansTrackDrawsNoSpanEndedBeforeTheView();

    void windowDiagnosticsNameUnmatchedSpans();
    void windowChoosingAThreadFollowsEverywhere();
    void windowTrackLabelsAndClicks();
    void windowSpanChosenAndSelectionStatistics();

private:
    const std::shared_ptr<const LogIndex>& big();
    QTemporaryDir m_settings;
    std::shared_ptr<const LogIndex> m_spans;
    std::shared_ptr<const LogIndex> m_big; // 100,000 threads, made on first use
};
