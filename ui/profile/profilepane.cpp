#include "ui/profile/profilepane.h"

#include "ui/document/logdocument.h"
#include "ui/document/viewcontroller.h"

#include "ui/capabilitybox.h"

#include "core/profile/profileviews.h"
#include "core/timeprofile/sampleprofile.h"
#include "core/timeprofile/ticky.h"
#include "ui/formatting.h"
#include "ui/profile/flameexport.h"
#include "ui/profile/flamegraphview.h"
#include "ui/profile/profiletreemodel.h"
#include "ui/profile/tickymodel.h"
#include "ui/threads/tablehelpers.h"

#include <QCheckBox>
#include <QComboBox>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QRegularExpression>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

namespace hecscope {

namespace {

QTreeView* makeTree(ProfileTreeModel* model)
{
    auto* view = new QTreeView;
    view->setModel(model);
    view->setSortingEnabled(true);
    view->setUniformRowHeights(true);
    view->setAlternatingRowColors(true);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->header()->setTextElideMode(Qt::ElideNone);
    view->header()->setSectionResizeMode(QHeaderView::Interactive);
    view->header()->setStretchLastSection(true);
    view->setColumnWidth(ProfileTreeModel::Name, 280);
    view->setColumnWidth(ProfileTreeModel::Module, 160);
    const int figure = view->fontMetrics().horizontalAdvance(QStringLiteral("1,234,567 samples  (100.0 %)")) + 12;
    for (int c = ProfileTreeModel::SelfTime; c <= ProfileTreeModel::InclAlloc; ++c)
        view->setColumnWidth(c, figure);
    view->setContextMenuPolicy(Qt::CustomContextMenu);
    return view;
}

// Hides the columns the profile has no figures for.
void showColumns(QTreeView* view, const ProfileTreeModel* model)
{
    for (int c = 0; c < ProfileTreeModel::ColumnCount; ++c)
        view->setColumnHidden(c, !model->hasColumn(c));
}

// What a worker prepares for the views, so that showing it costs the UI
// thread little: the profile, its flame layout for the focus the view
// keeps, and the call tree's shape for the model's filter and sort.
struct Computed {
    std::shared_ptr<const CostCentreProfile> profile;
    std::optional<FlameLayout> layout;
    std::shared_ptr<const ProfileTreeShape> callShape;
};

struct BottomUp {
    std::shared_ptr<const CostCentreProfile> profile;
    std::shared_ptr<const ProfileTreeShape> shape;
};

} // namespace

ProfilePane::ProfilePane(QWidget* parent)
    : QWidget(parent)
    , m_source(new QComboBox)
    , m_metric(new QComboBox)
    , m_cap(new QComboBox)
    , m_hideRts(new QCheckBox(tr("Hide RTS frames")))
    , m_icicle(new QCheckBox(tr("Icicle")))
    , m_search(new QLineEdit)
    , m_searchTimer(new QTimer(this))
    , m_status(new QLabel)
    , m_searchStatus(new QLabel)
    , m_tabs(new QTabWidget)
    , m_flame(new FlameGraphView)
    , m_sandwichTitle(new QLabel)
    , m_tickyDump(new QComboBox)
    , m_ticky(new QTableView)
    , m_callModel(new ProfileTreeModel(this))
    , m_bottomUpModel(new ProfileTreeModel(this))
    , m_callersModel(new ProfileTreeModel(this))
    , m_calleesModel(new ProfileTreeModel(this))
    , m_tickyModel(new TickyModel(this))
{
    m_callTree = makeTree(m_callModel);
    m_bottomUp = makeTree(m_bottomUpModel);
    m_callers = makeTree(m_callersModel);
    m_callees = makeTree(m_calleesModel);
    m_bottomUpModel->setInverted(true);
    m_callersModel->setInverted(true);
    m_callTree->sortByColumn(ProfileTreeModel::InclTime, Qt::DescendingOrder);
    m_bottomUp->sortByColumn(ProfileTreeModel::InclTime, Qt::DescendingOrder);
    m_callers->sortByColumn(ProfileTreeModel::InclTime, Qt::DescendingOrder);
    m_callees->sortByColumn(ProfileTreeModel::InclTime, Qt::DescendingOrder);

    m_source->setToolTip(tr("The eventlog's cost-centre samples, or a .prof / -pj report"));
    m_source->setSizeAdjustPolicy(QComboBox::AdjustToContents); // the report's name in full
    m_metric->addItem(tr("Time"));
    m_metric->addItem(tr("Allocation"));
    m_metric->setToolTip(tr("What a frame's width counts"));
    m_cap->addItem(tr("All capabilities"), -1);
    m_hideRts->setToolTip(tr("Leave out the time the RTS attributes to itself: GC, IDLE, SYSTEM, OVERHEAD_of, DONT_CARE"));
    m_icicle->setToolTip(tr("Draw the outermost frame at the top"));
    m_search->setPlaceholderText(tr("Search cost centres (regular expression)"));
    m_search->setClearButtonEnabled(true);

    auto* bar = new QHBoxLayout;
    bar->addWidget(m_source);
    bar->addWidget(m_metric);
    bar->addWidget(m_cap);
    bar->addWidget(m_hideRts);
    bar->addWidget(m_icicle);
    bar->addWidget(m_search, 1);
    auto* save = new QToolButton;
    save->setText(tr("Save Image…"));
    save->setToolTip(tr("Save the flame graph of what the pane shows as PNG, SVG or PDF"));
    bar->addWidget(save);
    connect(save, &QToolButton::clicked, this, &ProfilePane::saveImage);

    auto* sandwich = new QWidget;
    auto* sandwichLayout = new QVBoxLayout(sandwich);
    sandwichLayout->setContentsMargins(0, 0, 0, 0);
    m_sandwichTitle->setWordWrap(true);
    m_sandwichTitle->setText(tr("Choose a cost centre (right-click a frame or a row) to see its callers and callees."));
    auto* split = new QSplitter(Qt::Vertical);
    auto* callersBox = new QWidget;
    auto* callersLayout = new QVBoxLayout(callersBox);
    callersLayout->setContentsMargins(0, 0, 0, 0);
    callersLayout->addWidget(new QLabel(tr("Callers (who called it, outermost last)")));
    callersLayout->addWidget(m_callers);
    auto* calleesBox = new QWidget;
    auto* calleesLayout = new QVBoxLayout(calleesBox);
    calleesLayout->setContentsMargins(0, 0, 0, 0);
    calleesLayout->addWidget(new QLabel(tr("Callees (what it called)")));
    calleesLayout->addWidget(m_callees);
    split->addWidget(callersBox);
    split->addWidget(calleesBox);
    sandwichLayout->addWidget(m_sandwichTitle);
    sandwichLayout->addWidget(split, 1);

    auto* tickyBox = new QWidget;
    auto* tickyLayout = new QVBoxLayout(tickyBox);
    tickyLayout->setContentsMargins(0, 0, 0, 0);
    auto* dumpBar = new QHBoxLayout;
    dumpBar->addWidget(new QLabel(tr("Counters of")));
    dumpBar->addWidget(m_tickyDump, 1);
    tickyLayout->addLayout(dumpBar);
    tickyLayout->addWidget(m_ticky, 1);
    m_ticky->setModel(m_tickyModel);
    tables::setUpTable(m_ticky);
    m_ticky->sortByColumn(TickyModel::Entries, Qt::DescendingOrder);

    m_tabs->addTab(m_flame, tr("Flame graph"));
    m_tabs->addTab(m_callTree, tr("Call tree"));
    m_tabs->addTab(m_bottomUp, tr("Bottom-up"));
    m_tabs->addTab(sandwich, tr("Callers / callees"));
    m_tabs->addTab(tickyBox, tr("Ticky"));
    m_tabs->setDocumentMode(true);
    m_tabs->tabBar()->setElideMode(Qt::ElideNone);

    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(m_status);
    layout->addWidget(m_searchStatus);
    layout->addWidget(m_tabs, 1);
    m_searchStatus->hide();

    connect(m_source, &QComboBox::currentIndexChanged, this, [this] {
        m_cap->setEnabled(!usingReport());
        forgetProfile();
        recompute();
    });
    connect(m_metric, &QComboBox::currentIndexChanged, this, [this] {
        if (m_profile)
            m_flame->setProfile(m_profile, ProfileMetric(m_metric->currentIndex()));
    });
    connect(m_cap, &QComboBox::currentIndexChanged, this, &ProfilePane::recompute);
    connect(m_hideRts, &QCheckBox::toggled, this, &ProfilePane::recompute);
    connect(m_icicle, &QCheckBox::toggled, m_flame, &FlameGraphView::setIcicle);
    // The search applies once typing pauses: filtering a big call tree
    // takes tens of milliseconds.
    m_searchTimer->setSingleShot(true);
    m_searchTimer->setInterval(150);
    connect(m_search, &QLineEdit::textChanged, m_searchTimer, qOverload<>(&QTimer::start));
    connect(m_searchTimer, &QTimer::timeout, this, &ProfilePane::applySearch);
    connect(m_flame, &FlameGraphView::searchResult, this, [this](const QString& text) {
        m_searchStatus->setText(text);
    });
    connect(m_flame, &FlameGraphView::frameChosen, this, &ProfilePane::chooseNode);
    connect(m_flame, &FlameGraphView::sandwichRequested, this, [this](uint32_t cc) { showCallersAndCallees(cc); });
    // Rows: choosing one picks its frame out on the timeline; the context
    // menu opens its callers and callees.
    for (QTreeView* view : {m_callTree, m_bottomUp, m_callers, m_callees}) {
        connect(view, &QTreeView::customContextMenuRequested, this, [this, view](QPoint pos) {
            const QModelIndex ix = view->indexAt(pos);
            if (!ix.isValid())
                return;
            const uint32_t cc = ix.data(ProfileTreeModel::kCostCentreRole).toUInt();
            QMenu menu;
            menu.addAction(tr("Show Callers and Callees"), this, [this, cc] { showCallersAndCallees(cc); });
            if (view == m_callTree)
                menu.addAction(tr("Expand All Below"), view, [view, ix] { view->expandRecursively(ix); });
            menu.exec(view->viewport()->mapToGlobal(pos));
        });
    }
    connect(m_callTree->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& ix) {
                if (ix.isValid())
                    chooseNode(ix.data(ProfileTreeModel::kNodeRole).toUInt());
            });
    connect(m_bottomUp, &QTreeView::activated, this, [this](const QModelIndex& ix) {
        showCallersAndCallees(ix.data(ProfileTreeModel::kCostCentreRole).toUInt());
    });
    connect(m_tickyDump, &QComboBox::currentIndexChanged, this, &ProfilePane::showTicky);
    setIndex(nullptr);
}

ProfilePane::~ProfilePane() = default;

bool ProfilePane::usingReport() const
{
    return m_report && m_source->currentData().toInt() == 1;
}

void ProfilePane::updateSourceChoices()
{
    const QSignalBlocker block(m_source);
    m_source->clear();
    if (m_index && !m_index->timeProfile.samples.empty())
        m_source->addItem(tr("Eventlog samples"), 0);
    if (m_report)
        m_source->addItem(QFileInfo(m_reportPath).fileName(), 1);
    if (m_source->count() == 0)
        m_source->addItem(tr("No profile"), -1);
    // A report just opened is what the user wants to see.
    m_source->setCurrentIndex(m_report ? m_source->count() - 1 : 0);
    m_source->setEnabled(m_source->count() > 1);
    m_cap->setEnabled(!usingReport());
}

// What was chosen in the shown profile (zoom, chosen frame, the cost centre
// of the caller/callee view) is found in the next one by cost-centre
// indices, which only profiles of one source share: a new log or another
// source starts afresh, and the jobs for the old one are dropped.
void ProfilePane::forgetProfile()
{
    m_runner.cancel();
    m_bottomUpRunner.cancel();
    m_sandwichRunner.cancel();
    m_profile.reset();
    m_sandwichCc.reset();
    m_flame->setProfile(nullptr, ProfileMetric::Time);
    m_callModel->setProfile(nullptr);
    m_bottomUpModel->setProfile(nullptr);
    m_callersModel->setProfile(nullptr);
    m_calleesModel->setProfile(nullptr);
    m_sandwichTitle->setText(tr("Choose a cost centre (right-click a frame or a row) to see its callers and callees."));
    emit highlightChanged(nullptr);
}

void ProfilePane::setIndex(std::shared_ptr<const LogIndex> index)
{
    m_index = std::move(index);
    forgetProfile();
    fillCapabilityBox(m_cap, m_index.get());
    const QSignalBlocker block(m_tickyDump);
    m_tickyDump->clear();
    if (m_index)
        for (const TickyDump& d : tickyDumps(*m_index))
            m_tickyDump->addItem((d.samples == 1 ? tr("dump at %1 (1 counter)") : tr("dump at %1 (%2 counters)").arg(QStringLiteral("%1"), countText(d.samples)))
                                     .arg(durationText(d.time)));
    if (m_index && m_tickyDump->count() == 0 && !m_index->tickyCounters.empty())
        m_tickyDump->addItem(tr("definitions only (no samples)"));
    m_tickyDump->setCurrentIndex(m_tickyDump->count() - 1); // the latest
    m_tabs->setTabEnabled(4, m_index && !m_index->tickyCounters.empty());
    if (m_index && m_index->timeProfile.samples.empty() && !m_index->tickyCounters.empty())
        m_tabs->setCurrentIndex(4); // all the log has to show here
    showTicky();
    updateSourceChoices();
    recompute();
}

void ProfilePane::setRange(std::optional<ViewRange> range)
{
    if (range == m_range)
        return;
    m_range = range;
    if (!usingReport())
        recompute();
}

void ProfilePane::setReport(std::shared_ptr<const CostCentreProfile> report, const QString& path)
{
    m_report = std::move(report);
    m_reportPath = path;
    forgetProfile();
    updateSourceChoices();
    recompute();
}

void ProfilePane::setCapability(int cap)
{
    const int i = m_cap->findData(cap);
    if (i >= 0)
        m_cap->setCurrentIndex(i);
}

void ProfilePane::setHideRts(bool hide)
{
    m_hideRts->setChecked(hide);
}

void ProfilePane::setAllocation(bool alloc)
{
    m_metric->setCurrentIndex(alloc ? 1 : 0);
}

void ProfilePane::setSearch(const QString& pattern)
{
    m_search->setText(pattern);
    applySearch();
}

void ProfilePane::applySearch()
{
    m_searchTimer->stop();
    const QString text = m_search->text();
    const QRegularExpression re(text, QRegularExpression::CaseInsensitiveOption);
    if (!re.isValid()) {
        m_searchStatus->setText(tr("Not a regular expression: %1").arg(re.errorString()));
        m_searchStatus->show();
        return;
    }
    m_flame->setSearch(re);
    m_callModel->setFilter(re);
    m_bottomUpModel->setFilter(re);
    if (!text.isEmpty())
        m_callTree->expandToDepth(3);
    m_searchStatus->setVisible(!text.isEmpty());
}

// The flame graph of the profile shown (its whole tree, whatever the zoom),
// titled with what it covers; as `hecscope export --view flame` draws it.
void ProfilePane::saveImage()
{
    if (!m_profile)
        return;
    const QString path = QFileDialog::getSaveFileName(this, tr("Save the flame graph"), QString(),
                                                      tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"));
    if (path.isEmpty())
        return;
    FlameExportRequest request;
    request.path = path;
    request.metric = ProfileMetric(m_metric->currentIndex());
    request.icicle = m_icicle->isChecked();
    QString scope = usingReport() ? QFileInfo(m_reportPath).fileName() : tables::rangeText(m_range);
    if (!usingReport() && m_cap->currentData().toInt() >= 0)
        scope += tr(", capability %1").arg(m_cap->currentData().toInt());
    if (m_hideRts->isChecked()) // m_profile is then without them
        scope += tr(", RTS frames hidden");
    request.title = flameTitle(*m_profile, request.metric, scope);
    request.emptyText = tr("No cost-centre samples in this range");
    const QString error = exportFlameImage(*m_profile, request);
    if (!error.isEmpty())
        QMessageBox::warning(this, tr("Save the flame graph"), error);
}

QString ProfilePane::statusText() const
{
    return m_status->text();
}

QString ProfilePane::searchStatusText() const
{
    return m_searchStatus->isHidden() ? QString() : m_searchStatus->text();
}

void ProfilePane::showTicky()
{
    if (!m_index) {
        m_tickyModel->setRows({});
        return;
    }
    m_tickyModel->setRows(hecscope::tickyTable(*m_index, size_t(std::max(0, m_tickyDump->currentIndex()))));
    m_ticky->resizeColumnsToContents();
}

void ProfilePane::recompute()
{
    const bool report = usingReport();
    const bool samples = m_index && !m_index->timeProfile.samples.empty();
    if (!report && !samples) {
        forgetProfile();
        m_flame->setEmptyText(m_index ? tr("No cost-centre samples in this log: build with -prof and run with "
                                           "+RTS -p -l, or open a .prof / -pj report (File ▸ Open Profile…).")
                                      : tr("Open an eventlog with cost-centre samples, or a .prof / -pj report."));
        m_status->setText(m_index && !m_index->tickyCounters.empty()
                              ? tr("No cost-centre samples; the log has ticky-ticky counters (Ticky tab).")
                              : tr("No cost-centre profile."));
        return;
    }
    m_status->setText(tr("Computing the profile…"));
    m_bottomUpRunner.cancel(); // it follows the profile this starts
    const bool hideRts = m_hideRts->isChecked();
    SampleFilter filter;
    if (m_range) {
        filter.t0 = m_range->start;
        filter.t1 = m_range->end;
    }
    filter.cap = m_cap->currentData().toInt();
    filter.hideRts = hideRts;
    const ProfileMetric metric = ProfileMetric(m_metric->currentIndex());
    m_runner.start(
        [index = m_index, reportProfile = report ? m_report : nullptr, filter, metric, focus = m_flame->focusPath(),
         pattern = m_callModel->filterPattern(), column = m_callModel->sortColumn(),
         order = m_callModel->sortOrder()](const JobContext& ctx) {
            Computed c;
            std::optional<CostCentreProfile> p;
            if (reportProfile)
                p = filter.hideRts ? withoutRtsFrames(*reportProfile) : *reportProfile;
            else
                p = sampleProfile(*index, filter, [&ctx] { return ctx.isCancelled(); });
            if (!p || ctx.isCancelled())
                return c;
            c.profile = std::make_shared<const CostCentreProfile>(std::move(*p));
            const ProfileMetric m = c.profile->hasMetric[int(metric)] ? metric : ProfileMetric::Time;
            uint32_t node = nodeAtPath(*c.profile, focus);
            if (node >= c.profile->nodes.size() || c.profile->nodes[node].incl[int(m)] == 0)
                node = 0;
            if (ctx.isCancelled())
                return c;
            c.layout = layoutFlame(*c.profile, node, m);
            c.callShape = std::make_shared<const ProfileTreeShape>(
                ProfileTreeModel::makeShape(*c.profile, pattern, column, order));
            return c;
        },
        [this, report](Computed c) {
            if (!c.profile)
                return;
            QElapsedTimer applying;
            applying.start();
            m_profile = c.profile;
            {
                const QSignalBlocker block(m_metric); // the layout below is made for the metric shown
                m_metric->setEnabled(m_profile->hasMetric[1]);
                if (!m_profile->hasMetric[1])
                    m_metric->setCurrentIndex(0);
            }
            m_flame->setEmptyText(tr("No cost-centre samples in this range."));
            m_flame->setProfile(m_profile, ProfileMetric(m_metric->currentIndex()), std::move(c.layout));
            m_callModel->setProfile(m_profile, {}, std::move(c.callShape));
            showColumns(m_callTree, m_callModel);
            m_callTree->expandToDepth(1);
            computeBottomUp();
            const CostCentreProfile& p = *m_profile;
            QString text;
            if (report) {
                text = tr("%1: %2").arg(QFileInfo(m_reportPath).fileName(),
                                         QString::fromStdString(p.header.commandLine.empty() ? p.header.program
                                                                                              : p.header.commandLine));
                if (p.header.totalTicks)
                    text += tr(" — %1 ticks of %2 µs").arg(countText(p.header.totalTicks)).arg(p.header.tickIntervalUs);
                if (p.header.totalAllocBytes)
                    text += tr(", %1 allocated").arg(bytesText(double(p.header.totalAllocBytes)));
                text += tr(" (no time axis: the report covers the whole run)");
            } else {
                text = tr("%1 samples%2, %3").arg(countText(p.total(ProfileMetric::Time)))
                           .arg(p.header.tickIntervalUs ? tr(" of %1 µs").arg(p.header.tickIntervalUs) : QString(),
                                tables::rangeText(m_range));
                if (m_cap->currentData().toInt() >= 0)
                    text += tr(", capability %1").arg(m_cap->currentData().toInt());
            }
            if (m_hideRts->isChecked())
                text += tr(", RTS frames hidden");
            text += QLatin1Char('.');
            for (const std::string& w : p.warnings) {
                QString sentence = QString::fromStdString(w);
                if (!sentence.isEmpty())
                    sentence[0] = sentence[0].toUpper();
                text += QLatin1Char(' ') + sentence + QLatin1Char('.');
            }
            if (p.error)
                text += tr(" The report stops being readable at %1.")
                            .arg(QString::fromStdString(problemText(p, "shown")));
            m_status->setText(text);
            if (m_sandwichCc)
                showCallersAndCallees(*m_sandwichCc, false);
            m_lastApplyMs = double(applying.nsecsElapsed()) / 1e6;
            emit profileShown();
        });
}

// The bottom-up tree after the flame graph and call tree are shown: for a
// big profile it takes longer than both.
void ProfilePane::computeBottomUp()
{
    m_bottomUpRunner.start(
        [p = m_profile, pattern = m_bottomUpModel->filterPattern(), column = m_bottomUpModel->sortColumn(),
         order = m_bottomUpModel->sortOrder()](const JobContext& ctx) {
            BottomUp b;
            b.profile = std::make_shared<const CostCentreProfile>(bottomUp(*p));
            if (!ctx.isCancelled())
                b.shape = std::make_shared<const ProfileTreeShape>(ProfileTreeModel::makeShape(*b.profile, pattern, column, order));
            return b;
        },
        [this, p = m_profile](BottomUp b) {
            m_bottomUpModel->setProfile(b.profile, p, std::move(b.shape));
            showColumns(m_bottomUp, m_bottomUpModel);
            emit bottomUpShown();
        });
}

void ProfilePane::chooseNode(uint32_t node)
{
    if (!m_profile || node >= m_profile->nodes.size())
        return;
    // Where in time the frame ran: the eventlog's stacks through it (the
    // profile shown was made from this index: forgetProfile drops it when
    // the index or the source changes).
    if (m_profile->source == ProfileSource::Eventlog && m_index && m_index->timeProfile.tree) {
        auto h = std::make_shared<ProfileHighlight>();
        h->stacks = stacksThrough(*m_index->timeProfile.tree, *m_profile, node);
        const uint32_t cc = m_profile->nodes[node].cc;
        h->label = cc == kNoCostCentre ? QString() : QString::fromStdString(m_profile->costCentres[cc].label);
        emit highlightChanged(h->stacks.empty() || node == 0 ? nullptr : std::move(h));
    }
    const QModelIndex ix = m_callModel->indexOfNode(node);
    if (ix.isValid() && m_callTree->currentIndex() != ix) {
        const QSignalBlocker block(m_callTree->selectionModel());
        m_callTree->setCurrentIndex(ix);
        m_callTree->scrollTo(ix);
    }
}

void ProfilePane::showCallersAndCallees(uint32_t cc, bool raise)
{
    if (!m_profile || cc >= m_profile->costCentres.size())
        return;
    m_sandwichCc = cc;
    const ProfileCostCentre& c = m_profile->costCentres[cc];
    m_sandwichTitle->setText(tr("<b>%1</b> (%2, %3)")
                                 .arg(QString::fromStdString(c.label).toHtmlEscaped(),
                                      QString::fromStdString(c.module).toHtmlEscaped(),
                                      QString::fromStdString(c.srcLoc).toHtmlEscaped()));
    if (raise)
        m_tabs->setCurrentIndex(3);
    m_sandwichRunner.start(
        [p = m_profile, cc](const JobContext&) {
            return std::pair{std::make_shared<const CostCentreProfile>(callersOf(*p, cc)),
                             std::make_shared<const CostCentreProfile>(calleesOf(*p, cc))};
        },
        [this, p = m_profile](std::pair<std::shared_ptr<const CostCentreProfile>, std::shared_ptr<const CostCentreProfile>> r) {
            m_callersModel->setProfile(r.first, p);
            m_calleesModel->setProfile(r.second, p);
            showColumns(m_callers, m_callersModel);
            showColumns(m_callees, m_calleesModel);
            m_callers->expandToDepth(2);
            m_callees->expandToDepth(2);
        });
}

void ProfilePane::follow(const LogDocument* doc, const ViewController* view)
{
    connect(doc, &LogDocument::cleared, this, [this] {
        setIndex(nullptr);
        setReport(nullptr, QString()); // a report opened beside the old log was of its run
    });
    connect(doc, &LogDocument::indexChanged, this, [this, view](const IndexChange& c) {
        setRange(view->selection()); // first: the index then computes once, for it
        setIndex(c.index);
    });
}

} // namespace hecscope
