// The main window's part in comparing two runs: the Compare pane's dock,
// each pane's comparison section, B's timeline under A's, and the choice of
// the run to compare with (the panes and the timeline live in ui/compare/).
#include "ui/window/mainwindow.h"

#include "ui/compare/comparepane.h"
#include "ui/compare/comparesection.h"
#include "ui/compare/comparetimeline.h"
#include "ui/jobs/livejob.h"
#include "ui/timeline/timelineview.h"
#include "ui/document/viewcontroller.h"
#include "ui/window/focusreturn.h"

#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QVBoxLayout>
#include <QSplitter>
#include <QLabel>
#include <QMenu>
#include <QScrollArea>
#include <QTimer>

#include <algorithm>

namespace hecscope {

// The Compare pane: a tab below the timeline (it needs the width) for the
// comparison of the log on screen with another run.
void MainWindow::createCompareDock()
{
    m_compare = new ComparePane;
    auto* dock = new QDockWidget(tr("Compare"), this);
    dock->setObjectName(QStringLiteral("compare"));
    dock->setWidget(m_compare);
    addDockWidget(Qt::BottomDockWidgetArea, dock);
    m_viewMenu->addAction(dock->toggleViewAction());
    connect(m_compare, &ComparePane::compareRequested, this, &MainWindow::chooseCompareFile);
    connect(m_compare, &ComparePane::comparisonShown, this, &MainWindow::fitCompareDock);
    connect(m_compare, &ComparePane::runBReady, this,
            [this](const QString& path, std::shared_ptr<const LogIndex> index, std::shared_ptr<ByteSource> source) {
                if (!m_doc->index() || (liveJob() && liveJob()->isRunning()))
                    return; // (under a live A once its session has ended)
                m_compareTimeline->setRuns(m_doc->index(), path, std::move(index), std::move(source), m_view->tracks());
                // Both timelines' plots equally wide (a time at one x in
                // both): each keeps its scroll bar's room.
                m_scroll->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOn);
                m_runAHeader->setText(runChip(0) + QStringLiteral(" <b>%1</b>").arg(QFileInfo(m_doc->path()).fileName().toHtmlEscaped()));
                m_runAHeader->show();
            });
    connect(m_compare, &ComparePane::runBCleared, this, [this] {
        m_compareTimeline->clear();
        m_runAHeader->hide();
        m_scroll->setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    });
    connect(m_view, &TimelineView::cursorChanged, m_compareTimeline, &CompareTimeline::setCursorFromA);
    // A selection compares that stretch of each run (B's as the stacked
    // timelines place it).
    connect(m_controller, &ViewController::selectionChanged, this, [this](std::optional<ViewRange> s) {
        std::optional<ViewRange> b = s;
        if (s && m_compareTimeline->hasRun()) {
            const uint64_t from = m_compareTimeline->toB(s->start);
            b = ViewRange{from, std::max(m_compareTimeline->toB(s->end), from + 1)};
        }
        m_compare->setRange(s, b);
    });
    connect(m_compareTimeline, &CompareTimeline::cursorFromB, this, [this](std::optional<uint64_t> t) {
        m_view->setCursorTime(t);
    });
}

QDockWidget* MainWindow::dockOf(const QWidget* pane)
{
    for (QWidget* w = pane ? pane->parentWidget() : nullptr; w; w = w->parentWidget())
        if (auto* dock = qobject_cast<QDockWidget*>(w))
            return dock;
    return nullptr;
}

// Each pane with figures shows its part of a comparison beside its own
// view: the same figures of A and B, the difference and the change.
void MainWindow::addCompareSections()
{
    const auto group = [](std::initializer_list<const char*> groups, std::initializer_list<const char*> runKeys = {}) {
        std::vector<std::string> g(groups.begin(), groups.end()), k(runKeys.begin(), runKeys.end());
        return [g, k](const ComparedFigure& f) {
            if (std::find(g.begin(), g.end(), f.group) != g.end())
                return true;
            if (f.group != "run")
                return false;
            return std::any_of(k.begin(), k.end(), [&](const std::string& prefix) { return f.key.starts_with(prefix); });
        };
    };
    const struct {
        const char* dock;
        CompareSection::Options options;
    } sections[] = {
        {"statistics", {tr("statistics and the +RTS -s figures"), group({"run", "generations"}), true}},
        {"gc", {tr("collections and pauses"), group({"generations"}, {"gc.", "time.gc"}), true, true}},
        {"capabilities", {tr("capabilities"), group({"capabilities"})}},
        {"threads", {tr("threads by label"), group({"threads"}, {"threads"})}},
        {"spans", {tr("spans by name"), group({"spans"})}},
        {"spark-sizes", {tr("sparks"), group({"sparks"}, {"sparks."}), true}},
        {"heap-bands", {tr("heap-profile bands"), group({"heap"}, {"heap."}), true}},
        {"cost-centres", {tr("cost centres"), group({"cost_centres"}), false, false, true}},
        {"profile", {tr("cost centres"), group({"cost_centres"}), false, false, true}},
    };
    for (const auto& [name, options] : sections) {
        auto* dock = findChild<QDockWidget*>(QLatin1String(name), Qt::FindDirectChildrenOnly);
        Q_ASSERT(dock);
        auto* section = new CompareSection(m_compare, options);
        connect(section, &CompareSection::openComparePane, this, [this] {
            if (QDockWidget* d = dockOf(m_compare)) {
                d->show();
                d->raise();
            }
        });
        QWidget* pane = dock->widget();
        dock->setWidget(new ComparableView(pane, section));
    }
}

CompareSection* MainWindow::compareSection(const QString& dock) const
{
    const auto* d = findChild<QDockWidget*>(dock, Qt::FindDirectChildrenOnly);
    const auto* view = d ? qobject_cast<const ComparableView*>(d->widget()) : nullptr;
    return view ? view->section() : nullptr;
}

// A comparison is read as a table and a graph below two stacked timelines:
// about two fifths of the window for the pane (unless the user made it so
// already), the rest for the timelines.
void MainWindow::fitCompareDock()
{
    auto* dock = dockOf(m_compare);
    if (!dock || !dock->isVisible() || dock->isFloating() || dockWidgetArea(dock) != Qt::BottomDockWidgetArea)
        return;
    if (dock->height() < height() / 4 || dock->height() > height() * 45 / 100)
        resizeDocks({dock}, {height() * 38 / 100}, Qt::Vertical);
}

void MainWindow::chooseCompareFile()
{
    const QString dir = m_doc->path().isEmpty() ? QString() : QFileInfo(m_doc->path()).absolutePath();
    const QString path = [&] {
        const FocusReturn focus(this);
        return QFileDialog::getOpenFileName(
            this, tr("Compare the log on screen with another run"), dir,
            tr("Runs (*.eventlog *.hp *.prof *.json);;All files (*)"));
    }();
    if (!path.isEmpty())
        compareWith(path);
}

void MainWindow::compareWith(const QString& path)
{
    if (liveJob() && m_doc->index()) { // (A live log: compared as it is now, then as it grows)
        m_compare->setRunA(m_doc->path(), m_doc->index(), m_doc->source());
        m_liveCompared.start();
    }
    if (auto* dock = dockOf(m_compare)) {
        dock->show();
        dock->raise();
        QTimer::singleShot(0, this, &MainWindow::fitCompareDock);
    }
    m_compare->compareWith(path);
}

// The centre: A's timeline and, while two runs are compared, B's under it
// (one time axis), each headed by its run's name and colour.
QWidget* MainWindow::createRunsArea()
{
    m_compareTimeline = new CompareTimeline(m_controller, m_view);
    m_runAHeader = new QLabel;
    m_runAHeader->setTextFormat(Qt::RichText);
    m_runAHeader->setContentsMargins(4, 2, 4, 2);
    m_runAHeader->setAutoFillBackground(true);
    QPalette p = m_runAHeader->palette();
    p.setColor(QPalette::Window, runTint(0));
    m_runAHeader->setPalette(p);
    m_runAHeader->hide();
    auto* runA = new QWidget;
    auto* runALayout = new QVBoxLayout(runA);
    runALayout->setContentsMargins(0, 0, 0, 0);
    runALayout->setSpacing(0);
    runALayout->addWidget(m_runAHeader);
    runALayout->addWidget(m_scroll, 1);
    auto* runs = new QSplitter(Qt::Vertical);
    runs->setChildrenCollapsible(false);
    runs->addWidget(runA);
    runs->addWidget(m_compareTimeline);
    return runs;
}

// A run compared with the live one: its figures follow, every two seconds
// at most while it runs (a comparison in progress is not restarted), and
// once more when it ends. B's timeline is stacked under A's once A's
// session has ended.
void MainWindow::followLiveCompare()
{
    connect(m_doc, &LogDocument::liveUpdated, this, [this](const LiveStatus& status) {
        if (!m_doc->index() || m_compare->pathB().isEmpty())
            return;
        if (isFinal(status.state)
            || ((!m_liveCompared.isValid() || m_liveCompared.elapsed() >= 2000) && !m_compare->isBusy())) {
            m_compare->setRunA(m_doc->path(), m_doc->index(), m_doc->source());
            m_liveCompared.start();
        }
    });
}

} // namespace hecscope
