// The TestEventList suite (tst_eventlist.cpp and the files beside it): its class, and
// the helpers that more than one of its files use.
#pragma once

#include "testsupport.h"

#include "core/load/loader.h"
#include "core/io/bytesource.h"
#include "core/format/eventtags.h"
#include "core/order/timeorder.h"
#include "core/synth/synthetic.h"
#include "ui/events/eventlistmodel.h"
#include "ui/events/eventlistpane.h"
#include "ui/threads/threadrows.h"
#include "ui/threads/threadrowscontroller.h"
#include "ui/window/mainwindow.h"
#include "ui/timeline/timelineview.h"
#include "ui/document/viewcontroller.h"

#include "ui/events/eventtableview.h"
#include "ui/models/tablemodels.h"
#include <QTableView>
#include <QComboBox>
#include <QDockWidget>
#include <QMenu>
#include <QTimer>
#include <QScrollBar>
#include <QToolButton>
#include <QAbstractItemModelTester>
#include <QFile>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <map>
#include <set>

using namespace hecscope;

namespace eventlisttest {

// The thread an event belongs to, found without the index: the thread it
// names, or for a user message the thread running on its capability, by
// following RUN_THREAD / STOP_THREAD in time order. Feed every event.
class ThreadWalk {
public:
    std::optional<uint32_t> operator()(const Event& e)
    {
        if (e.tag == tag::RunThread)
            m_running[e.cap] = uint32_t(e.n[0]);
        else if (e.tag == tag::StopThread)
            m_running.erase(e.cap);
        if (e.tag == tag::UserMsg || e.tag == tag::UserMarker || e.tag == tag::UserBinaryMsg) {
            const auto it = m_running.find(e.cap);
            return it == m_running.end() ? std::nullopt : std::optional<uint32_t>(it->second);
        }
        return threadOf(e);
    }

private:
    std::map<uint16_t, uint32_t> m_running;
};

} // namespace eventlisttest

using namespace eventlisttest;

class TestEventList : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void rowsMatchTheDump();
    void filterByType();
    void filterByCapAndThread();
    void searchFindsMarkersAndLabels();
    void refilteringKeepsOnlyTheLatest();
    void rowForTime();
    void onlyTheLatestFindSelects();
    void windowLinksListAndTimeline();
    void tableKeysAndClicks();
    void threadBoxTakesIdsAndLabels();
    void aRunSelectsItsOwnEvent();
    void rowsComeFromTheOpenFileNotThePath();
    void messagesNameTheThreadThatWroteThem();
    void choosingARowDescribesItInDetails();
    void highlightKeepsEveryRowAndSteps();
    void theListFollowsEveryJump();
    void aLongLoadListsFromTheTop();
    void aLongLoadKeepsTheChosenEvent();
    void theStatusNamesEveryFilter();
    void showingAThreadNamesAnOldSearch();

private:
    // Row `row`, read from the file if its page is not there.
    static const EventRow* rowAt(EventListModel& model, int row);
    static void waitForScan(EventListModel& model);
    static bool openInWindow(MainWindow& w, const QString& path);
    // A log whose load takes long enough to show a partial index first.
    QString longLog();
    QTemporaryDir m_dir;
    QString m_log = QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/threads-N2.eventlog");
    std::shared_ptr<const LogIndex> m_index;
};
