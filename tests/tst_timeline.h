// The TestTimeline suite (tst_timeline.cpp and the files beside it): its class and
// includes.
#pragma once

#include "testsupport.h"

#include "core/load/loader.h"
#include "core/text/units.h"
#include "core/io/bytesource.h"
#include "core/report/info.h"
#include "core/report/rtssummary.h"
#include "core/index/series.h"
#include "core/stats/stats.h"
#include "ui/window/bookmarks.h"
#include "ui/timeline/imageexport.h"
#include "ui/window/mainwindow.h"
#include "ui/models/tablemodels.h"
#include "ui/timeline/timelineview.h"
#include "ui/document/viewcontroller.h"
#include "ui/timeline/tracks/activitytrack.h"
#include "ui/timeline/tracks/heapchart.h"
#include "ui/charts/chartparts.h"
#include "ui/timeline/tracks/rectbatch.h"
#include "ui/timeline/textcache.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QFile>
#include <QImage>
#include <QPainter>
#include <QPicture>
#include <QProcess>
#include <QScrollArea>
#include <QSet>
#include <QSettings>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QWheelEvent>

#include <cmath>
#include <optional>
#include <random>

using namespace hecscope;
class TestTimeline : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void mappingRoundTrips();
    void zoomKeepsAnchor();
    void fitAndPanStayInBounds();
    void rulerTicks125();
    void formatsTimes();
    void controllerHistory();
    void heapSeriesAgreeWithStatistics_data();
    void heapSeriesAgreeWithStatistics();
    void chartTracksDrawData();
    void columnStepsPaintEveryColumnsLine();
    void everyPixelIsPainted();
    void rowsPaintedLaterLookTheSame();
    void batchedFillsPaintWhatFillRectPaints();
    void batchedFillsFarOutPaintTheirPartOnTheImage();
    void legendPictureFollowsWhatItShows();
    void cachedTextDrawsWhatDrawTextDraws();
    void activityMatchesTimelineTotals();
    void darkPaletteIsFollowed();
    void windowOpensAtWholeLog();
    void wheelZoomsAroundPointer();
    void dragARowsEdgeToResizeIt();
    void keyboardAndHistory();
    void reloadKeepsTheView();
    void selectionGivesRangeStatistics();
    void tooltipNamesThread();
    void rulerAndLegendStayInSight();
    void truncatedLogShowsWhatWasDecoded();
    void notAnEventlogSaysSo();
    void gcTableSortsAndJumps();
    void tracksSayWhileThereIsNoLog();
    void tracksReorderHideAndPersist();
    void bookmarksFromMarkersAndSavedPerFile();
    void capabilityAndProcessPanes();
    void exportFormats_data();
    void exportFormats();
    void exportCommand();
    void exportCommandErrors();

private:
    // The index of testdata/logs/NAME.eventlog, loaded without a window.
    static std::shared_ptr<const LogIndex> loadTestLog(const QString& name);
    // Opens `log` in `w` and waits for the index and the statistics.
    static bool openAndWait(MainWindow& w, const QString& log);
    // The index a window makes of `log` (null if it could not open it).
    static std::shared_ptr<const LogIndex> indexOf(const QString& log);
    // The same in a shown window of 1400x800.
    static bool showAndOpen(MainWindow& w, const QString& log);
    QString m_log = QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/sparks-N4.eventlog");
};
