#include "ui/compare/comparepane.h"

#include "ui/document/logdocument.h"

#include "ui/compare/comparefigures.h"

#include "ui/formatting.h"
#include "ui/profile/flamegraphview.h"

#include <QAbstractTableModel>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include "core/text/units.h"

#include <cmath>

namespace hecscope {

QColor runColour(int side)
{
    // Teal and purple (ColorBrewer Dark2): told apart by everyone, and
    // neither is the flame graph's red (grew) or blue (shrank).
    return side == 0 ? QColor(0x1b, 0x9e, 0x77) : QColor(0x75, 0x70, 0xb3);
}

QColor runTint(int side)
{
    const QColor c = runColour(side);
    const auto mix = [](int v) { return v + (255 - v) * 4 / 5; };
    return QColor(mix(c.red()), mix(c.green()), mix(c.blue()));
}

QString runChip(int side)
{
    return QStringLiteral("<span style=\"background:%1;color:white;font-weight:bold\">&nbsp;%2&nbsp;</span>")
        .arg(runColour(side).name(), side == 0 ? QStringLiteral("A") : QStringLiteral("B"));
}

namespace {

// A chip of the run's colour before its name.
bool sameRange(const std::optional<ViewRange>& x, const std::optional<ViewRange>& y)
{
    return x.has_value() == y.has_value() && (!x || (x->start == y->start && x->end == y->end));
}

} // namespace

ComparePane::ComparePane(QWidget* parent)
    : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);

    auto* names = new QHBoxLayout;
    m_nameA = new QLabel;
    m_nameB = new QLabel;
    for (QLabel* l : {m_nameA, m_nameB}) {
        // (A long file name must not widen the window: it is cut instead,
        // the whole path in the tooltip.)
        l->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
        l->setMinimumWidth(120);
        l->setTextFormat(Qt::RichText);
        l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    names->addWidget(m_nameA, 1);
    names->addSpacing(16);
    names->addWidget(m_nameB, 1);
    auto* choose = new QPushButton(tr("Compare With…"));
    choose->setToolTip(tr("Choose the run to compare the log on screen with (an eventlog, .hp, .prof or -pj report)"));
    connect(choose, &QPushButton::clicked, this, &ComparePane::compareRequested);
    m_copy = new QPushButton(tr("Copy as CSV"));
    m_copy->setToolTip(tr("Every figure of both runs as `hecscope diff --csv` prints it"));
    connect(m_copy, &QPushButton::clicked, this, &ComparePane::copyCsv);
    m_export = new QPushButton(tr("Export Image…"));
    m_export->setToolTip(tr("The view shown (figures, flame graph or heap) as a PNG image"));
    connect(m_export, &QPushButton::clicked, this, &ComparePane::exportImage);
    m_close = new QPushButton(tr("Close Comparison"));
    connect(m_close, &QPushButton::clicked, this, &ComparePane::closeComparison);
    // The buttons sit beside the tabs (or below the names while there is
    // nothing to show), so that the names have the row's width.
    auto* buttons = new QWidget;
    auto* bl = new QHBoxLayout(buttons);
    bl->setContentsMargins(0, 0, 0, 2);
    for (QPushButton* b : {choose, m_copy, m_export, m_close})
        bl->addWidget(b);
    layout->addLayout(names);

    auto* progressRow = new QHBoxLayout;
    m_progress = new QProgressBar;
    m_progress->setRange(0, 1000);
    m_progress->setTextVisible(true);
    m_cancel = new QToolButton;
    m_cancel->setText(tr("Cancel"));
    connect(m_cancel, &QToolButton::clicked, this, &ComparePane::cancel);
    progressRow->addWidget(m_progress, 1);
    progressRow->addWidget(m_cancel);
    layout->addLayout(progressRow);

    m_notes = new QLabel;
    m_notes->setWordWrap(true);
    m_notes->setTextFormat(Qt::PlainText);
    m_notes->setStyleSheet(QStringLiteral("background:#fdf2d0;color:#000;padding:4px"));
    layout->addWidget(m_notes);

    m_empty = new QLabel(tr("Compare the log on screen with another run of the program: File ▸ Compare With… "
                            "(or drop a file with Shift held, or start with `hecscope A --compare B`)."));
    m_empty->setWordWrap(true);
    m_empty->setAlignment(Qt::AlignCenter);
    m_emptyBox = new QWidget;
    auto* el = new QVBoxLayout(m_emptyBox);
    el->addStretch(1);
    el->addWidget(m_empty);
    auto* chooseToo = new QPushButton(tr("Compare With…"));
    connect(chooseToo, &QPushButton::clicked, this, &ComparePane::compareRequested);
    el->addWidget(chooseToo, 0, Qt::AlignHCenter);
    el->addStretch(1);
    layout->addWidget(m_emptyBox, 1);

    m_tabs = new QTabWidget;
    m_tabs->setCornerWidget(buttons, Qt::TopRightCorner);
    layout->addWidget(m_tabs, 1);

    // Figures.
    auto* figures = new QWidget;
    auto* fl = new QVBoxLayout(figures);
    fl->setContentsMargins(0, 4, 0, 0);
    auto* filters = new QHBoxLayout;
    m_group = new QComboBox;
    m_filter = new QLineEdit;
    m_filter->setPlaceholderText(tr("Filter by key or figure"));
    m_filter->setClearButtonEnabled(true);
    m_changedOnly = new QCheckBox(tr("Changed only"));
    filters->addWidget(new QLabel(tr("Group:")));
    filters->addWidget(m_group);
    filters->addWidget(m_filter, 1);
    filters->addWidget(m_changedOnly);
    fl->addLayout(filters);
    m_model = new CompareFiguresModel(this);
    auto* proxy = new CompareFiguresFilter(this);
    m_proxy = proxy;
    proxy->setSourceModel(m_model);
    proxy->setSortRole(CompareFiguresModel::SortRole);
    m_table = newFiguresTable(proxy);
    fl->addWidget(m_table, 1);
    m_tabs->addTab(figures, tr("Figures"));
    connect(m_group, &QComboBox::currentIndexChanged, this, [this, proxy] {
        proxy->group = m_group->currentIndex() <= 0 ? QString() : m_group->currentText();
        proxy->refilter();
    });
    connect(m_filter, &QLineEdit::textChanged, this, [proxy](const QString& t) {
        proxy->text = t.trimmed();
        proxy->refilter();
    });
    connect(m_changedOnly, &QCheckBox::toggled, this, [proxy](bool on) {
        proxy->changedOnly = on;
        proxy->refilter();
    });

    // Differential flame graph.
    auto* flame = new QWidget;
    auto* flv = new QVBoxLayout(flame);
    flv->setContentsMargins(0, 4, 0, 0);
    auto* flameRow = new QHBoxLayout;
    m_flameMode = new QComboBox;
    m_flameMode->addItem(tr("B's frames, coloured by their change from A"));
    m_flameMode->addItem(tr("A's frames, coloured by their change to B (what shrank or is gone)"));
    m_flameLegend = new QLabel;
    m_flameLegend->setTextFormat(Qt::RichText);
    flameRow->addWidget(m_flameMode);
    flameRow->addWidget(m_flameLegend, 1);
    flv->addLayout(flameRow);
    m_flame = new FlameGraphView;
    m_flame->setIcicle(true); // the root at the top: a pane is short
    // Beside it, the cost centres sorted by their change (the biggest,
    // either way, and what is new or gone first).
    auto* ccFilter = new CompareFiguresFilter(this);
    ccFilter->joinNames = true;
    ccFilter->scope = [](const ComparedFigure& f) { return f.group == "cost_centres"; };
    ccFilter->setSourceModel(m_model);
    m_ccTable = newFiguresTable(ccFilter);
    m_ccTable->setColumnHidden(CompareFiguresModel::Group, true);
    m_ccTable->setColumnHidden(CompareFiguresModel::Figure, true);
    m_ccTable->sortByColumn(CompareFiguresModel::Change, Qt::DescendingOrder);
    m_ccTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_ccTable->horizontalHeader()->setSectionResizeMode(CompareFiguresModel::Key, QHeaderView::Stretch);
    auto* flameSplit = new QSplitter(Qt::Horizontal);
    flameSplit->setChildrenCollapsible(false);
    flameSplit->addWidget(m_flame);
    flameSplit->addWidget(m_ccTable);
    flameSplit->setStretchFactor(0, 3);
    flameSplit->setStretchFactor(1, 2);
    flameSplit->setSizes({3000, 2000}); // (three fifths for the graph, whatever the table would like)
    flv->addWidget(flameSplit, 1);
    m_tabs->addTab(flame, tr("Flame Graph"));
    connect(m_flameMode, &QComboBox::currentIndexChanged, this, &ComparePane::showFlame);

    // Heap profiles on one scale.
    auto* heap = new QWidget;
    auto* hl = new QVBoxLayout(heap);
    hl->setContentsMargins(0, 4, 0, 0);
    auto* heapRow = new QHBoxLayout;
    m_band = new QComboBox;
    heapRow->addWidget(new QLabel(tr("Band:")));
    heapRow->addWidget(m_band, 1);
    hl->addLayout(heapRow);
    m_heapPlot = newComparePlot();
    m_heapPlot->xAxis->setLabel(tr("seconds from each run's start"));
    m_heapPlot->yAxis->setLabel(tr("MB"));
    hl->addWidget(m_heapPlot, 1);
    m_tabs->addTab(heap, tr("Heap Profiles"));

    // GC pauses of both runs: how many fell in each power-of-two range.
    m_pausePlot = newPausePlot();
    m_tabs->addTab(m_pausePlot, tr("GC Pauses"));
    connect(m_band, &QComboBox::currentIndexChanged, this, &ComparePane::showHeap);

    m_runB = std::make_unique<LogDocument>(nullptr, DocumentRole::Compared);
    followRunB();
    updateHeader();
}

ComparePane::~ComparePane() = default;

QString ComparePane::notesText() const
{
    return m_notes->isHidden() ? QString() : m_notes->text(); // (isHidden: also before the window is shown)
}

QString ComparePane::problemText() const
{
    return m_error;
}

void ComparePane::setReportA(const QString& path)
{
    setRunA(QString(), nullptr, nullptr);
    m_reportA = !path.isEmpty();
    m_pathA = path;
    if (!m_loadingB && !m_pathB.isEmpty())
        refresh();
    else
        updateHeader();
}

void ComparePane::setRunA(const QString& path, std::shared_ptr<const LogIndex> index, std::shared_ptr<ByteSource> source)
{
    if (index == m_indexA && path == m_pathA && !m_reportA)
        return;
    m_reportA = false;
    m_pathA = index ? path : QString();
    m_indexA = std::move(index);
    m_sourceA = std::move(source);
    m_a.reset();
    m_comparison.reset();
    // B's load goes on (it is what takes long): A is compared once B is in.
    if (m_loadingB)
        updateHeader();
    else if (!m_pathB.isEmpty())
        refresh();
    else
        updateHeader();
}

void ComparePane::compareWith(const QString& path)
{
    m_runB->open(path); // (the pane follows: followRunB)
}

void ComparePane::setRange(std::optional<ViewRange> a, std::optional<ViewRange> b)
{
    if (sameRange(a, m_rangeA) && sameRange(b, m_rangeB))
        return;
    m_rangeA = a;
    m_rangeB = b;
    // (While B loads, the job's result is compared again for the range.)
    if (!m_loadingB && m_b && !m_pathB.isEmpty())
        refresh();
}

void ComparePane::closeComparison()
{
    m_runB->close();
    m_comparison.reset();
    m_error.clear();
    updateHeader();
}

void ComparePane::cancel()
{
    dropB(tr("Cancelled: %1 was not compared.").arg(QFileInfo(m_pathB).fileName()));
}

// B is let go of (its load or its comparison ends), and the pane says why.
void ComparePane::dropB(const QString& error)
{
    m_runB->close();
    m_error = error;
    updateHeader();
}

// B's document: a new B (or none) as soon as it is chosen, its progress
// and timeline as it loads, then its figures and the comparison.
void ComparePane::followRunB()
{
    const LogDocument* doc = m_runB.get();
    connect(doc, &LogDocument::cleared, this, [this](const QString& path) {
        emit runBCleared();
        m_runner.cancel(); // (a comparison with the previous B)
        m_pathB = path;
        m_b.reset();
        m_reportB = false;
        m_loadingB = !path.isEmpty();
        if (path.isEmpty())
            return;
        m_comparison.reset();
        m_error.clear();
        updateHeader();
        m_progress->setValue(0);
        m_progress->setFormat(tr("Opening %1").arg(QFileInfo(path).fileName()));
        m_progress->show();
        m_cancel->show();
    });
    connect(doc, &LogDocument::progress, this, [this](quint64 done, quint64 total) {
        m_progress->setValue(total ? int(done * 1000 / total) : 0);
    });
    connect(doc, &LogDocument::indexChanged, this, [this](const IndexChange& c) {
        if (!c.partial)
            refresh();
        else if (!m_b && !m_pathB.isEmpty()) // B's timeline as it loads
            emit runBReady(m_pathB, c.index, c.source);
    });
    connect(doc, &LogDocument::reportFound, this, [this] {
        m_reportB = true;
        refresh();
    });
    connect(doc, &LogDocument::openFailed, this, [this](const QString& why) {
        m_progress->hide();
        m_cancel->hide();
        dropB(tr("Cannot compare with %1: %2").arg(QFileInfo(m_pathB).fileName(), why));
        emit comparisonShown();
    });
}

// One job does what is missing: take B's figures (B's document has loaded
// it), take A's, compare. What each side gave is kept, so a new A does not
// take B's again.
void ComparePane::refresh()
{
    m_comparison.reset();
    updateHeader();
    if (m_pathB.isEmpty())
        return;
    m_progress->setValue(!m_b && m_runB->index() ? 1000 : 0); // (B read whole: its figures now)
    m_progress->setFormat(m_b ? tr("Comparing…") : tr("Opening %1").arg(QFileInfo(m_pathB).fileName()));
    m_progress->show();
    m_cancel->show();
    m_loadingB = !m_b;
    const std::string pathA = m_pathA.toStdString(), pathB = m_pathB.toStdString();
    const std::optional<ViewRange> rangeA = m_rangeA, rangeB = m_rangeB;
    auto work = [pathA, pathB, rangeA, rangeB, indexA = m_indexA, sourceA = m_sourceA, reportA = m_reportA,
                 a = m_a, b = m_b, indexB = m_runB->index(), sourceB = m_runB->source(),
                 reportB = m_reportB](const JobContext& ctx) {
        Result r;
        const auto cancelled = [ctx] { return ctx.isCancelled(); };
        const auto side = [&](RunFigures figures, HeapCurves heap) {
            auto s = std::make_shared<Side>();
            if (figures.profile)
                s->profile = std::make_shared<const CostCentreProfile>(std::move(*figures.profile));
            figures.profile.reset();
            s->figures = std::move(figures);
            s->heap = std::move(heap);
            return std::shared_ptr<const Side>(std::move(s));
        };
        // B's figures, from its document's index (or its report's file).
        r.b = b;
        if (!r.b && reportB) {
            std::string error;
            std::optional<RunFigures> report;
            if (std::shared_ptr<FileSource> source = FileSource::open(pathB, error))
                report = reportFiguresOf(pathB, *source);
            if (!report) {
                r.error = error.empty() ? QObject::tr("not a report") : QString::fromStdString(error);
                return r;
            }
            r.b = side(std::move(*report), {});
        } else if (!r.b && indexB && sourceB) {
            auto s = std::const_pointer_cast<Side>(
                side(runFigures(*indexB, *sourceB, pathB, std::nullopt, cancelled), heapCurves(*indexB, 12)));
            s->index = indexB;
            s->source = sourceB;
            r.b = std::move(s);
        }
        if (!r.b)
            return r;
        if (ctx.isCancelled())
            return r;
        r.a = a;
        r.indexA = indexA.get();
        if (!r.a && indexA && sourceA)
            r.a = side(runFigures(*indexA, *sourceA, pathA, std::nullopt, cancelled), heapCurves(*indexA, 12));
        if (!r.a && reportA) {
            std::string error;
            std::optional<RunFigures> report;
            if (std::shared_ptr<FileSource> source = FileSource::open(pathA, error))
                report = reportFiguresOf(pathA, *source);
            if (!report) {
                r.error = QObject::tr("%1 (on screen) cannot be read: %2")
                              .arg(QString::fromStdString(pathA), error.empty() ? QObject::tr("not a report") : QString::fromStdString(error));
                return r;
            }
            r.a = side(std::move(*report), {});
        }
        r.rangeA = rangeA;
        r.rangeB = rangeB;
        if (r.a && r.b && !ctx.isCancelled()) {
            // A selection: the figures of that stretch of each run (a
            // report, and heap bands, stay whole runs).
            if (rangeA && indexA && sourceA && r.b->index && r.b->source) {
                RunFigures ra = runFigures(*indexA, *sourceA, pathA, rangeA, cancelled);
                RunFigures rb = runFigures(*r.b->index, *r.b->source, pathB, rangeB ? rangeB : rangeA, cancelled);
                r.comparison = std::make_shared<const Comparison>(compareRuns(ra, rb));
                if (ra.profile && rb.profile) { // (the flame graph: the selection's samples too)
                    r.flameA = std::make_shared<const CostCentreProfile>(std::move(*ra.profile));
                    r.flameB = std::make_shared<const CostCentreProfile>(std::move(*rb.profile));
                }
            } else {
                r.comparison = std::make_shared<const Comparison>(compareRuns(r.a->figures, r.b->figures));
            }
        }
        if (r.a && r.b && !r.flameA) {
            r.flameA = r.a->profile;
            r.flameB = r.b->profile;
        }
        if (r.flameA && r.flameB && !ctx.isCancelled()) {
            r.bInA = std::make_shared<const std::vector<int64_t>>(
                matchedInclusive(*r.flameB, *r.flameA, ProfileMetric::Time));
            r.aInB = std::make_shared<const std::vector<int64_t>>(
                matchedInclusive(*r.flameA, *r.flameB, ProfileMetric::Time));
        }
        return r;
    };
    m_runner.start(std::move(work), [this](Result r) { show(std::move(r)); });
}

void ComparePane::show(Result r)
{
    m_loadingB = false;
    if (r.error.isEmpty() && r.b
        && (r.indexA != m_indexA.get() || !sameRange(r.rangeA, m_rangeA) || !sameRange(r.rangeB, m_rangeB))) {
        // A changed while B loaded: B is kept, A's figures are taken now.
        m_b = r.b;
        m_a.reset();
        refresh();
        return;
    }
    m_progress->hide();
    m_cancel->hide();
    if (!r.error.isEmpty()) {
        dropB(tr("Cannot compare with %1: %2").arg(QFileInfo(m_pathB).fileName(), r.error));
        emit comparisonShown();
        return;
    }
    m_a = r.a;
    m_b = r.b;
    m_comparison = r.comparison;
    m_flameA = r.flameA;
    m_flameB = r.flameB;
    m_bInA = r.bInA;
    m_aInB = r.aInB;
    updateHeader();
    if (!m_comparison)
        return; // A is not on screen yet: compared when it comes
    showFigures();
    showFlame();
    showHeap();
    showPauses();
    emit stateChanged();
    if (m_b->index)
        emit runBReady(m_pathB, m_b->index, m_b->source);
    else
        emit runBCleared();
    emit comparisonShown();
}

void ComparePane::updateHeader()
{
    const auto name = [&](int side, const QString& path, const std::shared_ptr<const Side>& run) {
        QString text = runChip(side) + QStringLiteral(" ");
        if (path.isEmpty())
            return text + (side == 0 ? tr("no log on screen") : tr("no run chosen"));
        text += QStringLiteral("<b>%1</b>").arg(QFileInfo(path).fileName().toHtmlEscaped());
        if (run)
            text += QStringLiteral(" <span style=\"color:#666\">(%1%2)</span>")
                        .arg(qs(run->figures.kind).toHtmlEscaped(),
                             run->figures.rts.empty() ? QString() : QStringLiteral(", ") + qs(run->figures.rts).toHtmlEscaped());
        return text;
    };
    m_nameA->setText(name(0, m_pathA, m_a));
    m_nameA->setToolTip(m_pathA);
    m_nameB->setText(name(1, m_pathB, m_b));
    m_nameB->setToolTip(m_pathB);
    const bool shown = m_comparison != nullptr;
    if (!shown) {
        m_progress->setVisible(!m_progress->isHidden() && !m_pathB.isEmpty());
        m_cancel->setVisible(!m_progress->isHidden());
    }
    m_tabs->setVisible(shown);
    m_emptyBox->setVisible(!shown);
    if (!shown) {
        m_empty->setText(!m_error.isEmpty() ? m_error
                         : m_pathB.isEmpty()
                             ? tr("Compare the log on screen with another run of the program: File ▸ Compare With… "
                                  "(or drop a file with Shift held, or start with `hecscope A --compare B`).")
                         : m_pathA.isEmpty() ? tr("%1 is compared with the log on screen as soon as one is open.")
                                                   .arg(QFileInfo(m_pathB).fileName())
                                             : tr("Comparing…"));
    }
    QStringList notes;
    if (m_comparison && m_rangeA) {
        const auto span = [](const ViewRange& r) {
            return qs(formatDuration(r.start, UnitStyle::Unicode)) + QStringLiteral(" – ")
                + qs(formatDuration(r.end, UnitStyle::Unicode));
        };
        notes << tr("Figures and flame graph of the selection: A %1, B %2 (heap bands and reports: whole runs)")
                     .arg(span(*m_rangeA), span(m_rangeB ? *m_rangeB : *m_rangeA));
    }
    if (m_comparison)
        for (const std::string& n : m_comparison->notes)
            notes << qs(n);
    m_notes->setText(notes.join(QLatin1Char('\n')));
    m_notes->setVisible(!notes.isEmpty());
    m_copy->setEnabled(shown);
    m_export->setEnabled(shown);
    m_close->setEnabled(!m_pathB.isEmpty());
    emit stateChanged();
}

void ComparePane::showFigures()
{
    m_model->setComparison(m_comparison);
    std::vector<std::string> groups;
    for (const ComparedFigure& f : m_comparison->figures)
        if (std::find(groups.begin(), groups.end(), f.group) == groups.end())
            groups.push_back(f.group);
    const QString current = m_group->currentIndex() > 0 ? m_group->currentText() : QString();
    {
        const QSignalBlocker block(m_group);
        m_group->clear();
        m_group->addItem(tr("All"));
        for (const std::string& g : groups)
            m_group->addItem(qs(g));
        m_group->setCurrentIndex(std::max(0, m_group->findText(current)));
    }
    auto* proxy = static_cast<CompareFiguresFilter*>(m_proxy);
    proxy->group = m_group->currentIndex() <= 0 ? QString() : m_group->currentText();
    proxy->refilter();
    m_table->resizeColumnsToContents();
    m_table->horizontalHeader()->setSectionResizeMode(CompareFiguresModel::Key, QHeaderView::Stretch);
}

void ComparePane::copyCsv()
{
    if (m_comparison)
        QApplication::clipboard()->setText(qs(comparisonCsv(*m_comparison)));
}

void ComparePane::exportImage()
{
    QWidget* view = m_tabs->currentWidget();
    if (!view)
        return;
    const QString path = QFileDialog::getSaveFileName(this, tr("Export the comparison as an image"),
                                                      QStringLiteral("comparison.png"), tr("PNG images (*.png)"));
    if (path.isEmpty())
        return;
    if (!view->grab().save(path, "PNG"))
        m_notes->setText(tr("Could not write %1").arg(path)), m_notes->show();
}

void ComparePane::follow(const LogDocument* doc)
{
    connect(doc, &LogDocument::cleared, this, [this] { setRunA(QString(), nullptr, nullptr); });
    connect(doc, &LogDocument::indexChanged, this, [this, doc](const IndexChange& c) {
        if (!c.partial && !c.live)
            setRunA(doc->path(), c.index, c.source);
    });
}

} // namespace hecscope
