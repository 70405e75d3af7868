// The TestComparePane suite (tst_comparepane.cpp and the files beside it): its class, and
// the helpers that more than one of its files use.
#pragma once

#include "testsupport.h"

#include "ui/compare/comparepane.h"
#include "ui/compare/comparefigures.h"
#include "ui/compare/comparesection.h"
#include "ui/jobs/livejob.h"
#include "ui/compare/comparetimeline.h"
#include "ui/document/logdocument.h"
#include "ui/timeline/timelinerenderer.h"
#include "ui/timeline/timelineview.h"
#include "ui/document/viewcontroller.h"
#include "ui/profile/flamegraphview.h"
#include "ui/window/mainwindow.h"

#include "core/load/loader.h"

#include <QCheckBox>
#include <QComboBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <qcustomplot.h>

#include <functional>
#include <map>
#include <thread>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace hecscope;
using namespace hecscope::test;

namespace comparepanetest {

QString compareLog(const char* name);

// The figures `hecscope diff ARGS --json` prints are the pane's, figure for
// figure (group, key, figure, A and B).
void sameAsDiff(const Comparison& c, const QStringList& args);

// Opens `a` in the window and waits until it is on screen.
bool open(MainWindow& w, const QString& a);

// Compares with `b` and waits for the pane to show the result.
bool compare(MainWindow& w, const QString& b);

} // namespace comparepanetest

using namespace comparepanetest;

class TestComparePane : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("HecscopeTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_comparepane"));
    }
    void figuresAreTheCommandLines_data();
    void figuresAreTheCommandLines();
    void differentialFlameGraph();
    void heapProfilesOnOneScale();
    void tableFilters();
    void chosenBeforeALogIsOnScreen();
    void aNewLogIsComparedWithTheSameB();
    void whatCannotBeCompared();
    void cancel();
    void runBIsADocument();
    void timelinesOnOneAxis();
    void selectionComparesThatStretch();
    void eachPaneShowsItsFigures();
    void timelinesAlignedAtAnOccurrence();
    void aReportOnScreenIsComparedToo();
    void aLiveLogIsComparedAsItGrows();
};
