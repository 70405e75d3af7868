// The TestLive suite (tst_live.cpp and the files beside it): its class, and
// the helpers that more than one of its files use.
#pragma once

#include "livetestsupport.h"
#include "testsupport.h"

#include "core/detail/detailstore.h"
#include "core/format/encoder.h"
#include "core/format/eventtags.h"
#include "core/load/indexbuilder.h"
#include "core/index/logindex.h"
#include "core/live/livesession.h"
#include "core/order/timeorder.h"
#include "core/stats/stats.h"
#include "core/report/info.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <cerrno>
#include <deque>
#include <map>
#include <thread>
#include <unistd.h>

using namespace hecscope;
using namespace hecscope::test;

namespace livetest {

std::unique_ptr<LiveSession> sessionOn(const std::string& text, LiveOptions options, UpdateCollector& collector,
                                       LiveClock clock = {});

std::vector<uint8_t> recorded(LiveSession& session);

bool writeAll(int fd, const uint8_t* p, size_t n);

QString threadsLog();

} // namespace livetest

using namespace livetest;

class TestLive : public QObject {
    Q_OBJECT
private slots:
    void addresses();
    void growingFileAppendsOfEverySize_data();
    void growingFileAppendsOfEverySize();
    void fileWithoutEndEndsWhenItsWriterIsGone();
    void sessionThreadRunsNicer();
    void shrinkingFileIsSaid();
    void replacedFileIsSaid();
    void pipeAndStandardInput();
    void socketReconnectsAndAppends_data();
    void socketReconnectsAndAppends();
    void socketCutInsideARecordKeepsAValidRecording();
    void reconnectionWithAnotherHeaderIsRefused();
    void disconnectWaitsForReconnect();
    void controlCommandsReachTheProgram();
    void cancelAtAnyTime();
    void watchPrintsUpdatesAndTheRecordingsSummary();
    void keepsOnlyTheLatestStretch();
    void lateCapabilityReadsTheRecordingAgain();
    void growingHeapProfileShowsCompleteCensuses_data();
    void growingHeapProfileShowsCompleteCensuses();
    void watchFollowsAHeapProfile();
};
