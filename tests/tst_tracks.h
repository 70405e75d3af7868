// The TestTracks suite (tst_tracks.cpp and the files beside it): its class and
// includes.
#pragma once

#include "testsupport.h"

#include "ui/colours.h"
#include "core/load/loader.h"
#include "core/io/bytesource.h"
#include "core/format/eventtags.h"
#include "core/index/logindex.h"
#include "core/timeprofile/sampleprofile.h"
#include "core/stats/stats.h"
#include "core/text/units.h"
#include "ui/heap/heapview.h"
#include "ui/timeline/imageexport.h"
#include "ui/timeline/timelinerenderer.h"
#include "ui/timeline/tracks/capabilitytrack.h"
#include "ui/timeline/tracks/instantmarks.h"
#include "ui/threads/threadrows.h"

#include <QApplication>
#include <QFileInfo>
#include <QImage>
#include <QPainter>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <set>

using namespace hecscope;
class TestTracks : public QObject {
    Q_OBJECT
private slots:
    void registryIsComplete();
    void everyTrackDraws_data();
    void everyTrackDraws();
    void cursorAndHoverReuseDrawLists();
    void hitTestsDoNotDependOnPaint();
    void gcHitTestFindsTheDrawnCollection();
    void hecHitTestSelectsRealSpans();
    void instantsShowWhenZoomedIn();
    void activityHasACapabilityScale();
    void selectionTintsTheTracksNotTheLegend();
    void denseCollectionsShowTheirDensity();
    void zoomedOutGcIsProportionate();
    void nonmovingCollectorOnRealLogs_data();
    void nonmovingCollectorOnRealLogs();
    void heapBandUnderPointerIsTheDrawnOne_data();
    void heapBandUnderPointerIsTheDrawnOne();
    void cacheFollowsTheHeapViewAndTheIndex();
    void timeProfileBinsHoldTheirSamples();
    void activityIsTallWithItsScaleBesideTheData();
    void emptyTracksTakeOneLine();
    void threadNamesAreWholeWhereThereIsRoom();

private:
    // A log of testdata/logs by name, or any log by path.
    static std::shared_ptr<const LogIndex> load(const QString& name)
    {
        return loadPath(QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/%1.eventlog").arg(name));
    }
    static std::shared_ptr<const LogIndex> loadPath(const QString& path)
    {
        std::string error;
        const auto source = FileSource::open(path.toStdString(), error);
        if (!source)
            qFatal("%s", error.c_str());
        return std::shared_ptr<const LogIndex>(loadIndex(*source).index);
    }
    // The detail of a log of testdata/logs, read back from its file.
    static std::shared_ptr<DetailStore> detailOf(const QString& name)
    {
        return detailOfPath(QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/%1.eventlog").arg(name));
    }
    static std::shared_ptr<DetailStore> detailOfPath(const QString& path)
    {
        std::string error;
        std::shared_ptr<ByteSource> source = FileSource::open(path.toStdString(), error);
        if (!source)
            qFatal("%s", error.c_str());
        return std::make_shared<DetailStore>(source);
    }
    static int inked(const QImage& image, const QRect& r)
    {
        const QRgb background = image.pixel(r.left() + 1, r.top() + 1);
        int n = 0;
        for (int y = r.top(); y <= r.bottom(); ++y)
            for (int x = r.left(); x <= r.right(); ++x)
                n += image.pixel(x, y) != background;
        return n;
    }
};
