#include "ui/compare/comparesection.h"

#include "ui/compare/comparefigures.h"
#include "ui/compare/comparepane.h"

#include <QCheckBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QResizeEvent>
#include <QTableView>
#include <QVBoxLayout>

#include <qcustomplot.h>

namespace hecscope {

CompareSection::CompareSection(ComparePane* pane, Options options, QWidget* parent)
    : QWidget(parent)
    , m_pane(pane)
    , m_options(std::move(options))
    , m_header(new QLabel)
    , m_changedOnly(new QCheckBox(tr("Changed only")))
    , m_filter(new CompareFiguresFilter(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->setSpacing(2);
    auto* header = new QHBoxLayout;
    m_header->setTextFormat(Qt::RichText);
    m_header->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_header->setWordWrap(true);
    header->addWidget(m_header, 1);
    header->addWidget(m_changedOnly);
    auto* more = new QPushButton(tr("Compare Pane"));
    more->setToolTip(tr("Every compared figure, the differential flame graph and both heap profiles"));
    connect(more, &QPushButton::clicked, this, &CompareSection::openComparePane);
    header->addWidget(more);
    layout->addLayout(header);

    m_filter->scope = m_options.scope;
    m_filter->setSourceModel(pane->figuresModel());
    m_table = newFiguresTable(m_filter);
    m_filter->joinNames = true;
    m_table->setColumnHidden(CompareFiguresModel::Group, !m_options.showGroup);
    m_table->setColumnHidden(CompareFiguresModel::Figure, true);
    if (m_options.byChange)
        m_table->sortByColumn(CompareFiguresModel::Change, Qt::DescendingOrder);
    if (m_options.pauses) {
        auto* row = new QSplitter(Qt::Horizontal);
        row->setChildrenCollapsible(false);
        m_pausePlot = newPausePlot();
        m_pausePlot->xAxis->setLabel(tr("GC pause (bar: this length to twice it)"));
        m_pausePlot->xAxis->setTickLabelRotation(-40); // (a narrow plot: the lengths side by side would overlap)
        row->addWidget(m_table);
        row->addWidget(m_pausePlot);
        row->setStretchFactor(0, 3);
        row->setStretchFactor(1, 2);
        layout->addWidget(row, 1);
    } else {
        layout->addWidget(m_table, 1);
    }
    // B's tint, as under B's timeline: what is compared is told apart from
    // the pane's own view at a glance.
    setAutoFillBackground(true);
    QPalette p = palette();
    p.setColor(QPalette::Window, runTint(1));
    setPalette(p);

    connect(m_changedOnly, &QCheckBox::toggled, this, [this](bool on) {
        m_filter->changedOnly = on;
        m_filter->refilter();
        refresh();
    });
    connect(pane, &ComparePane::stateChanged, this, &CompareSection::refresh);
    connect(pane->figuresModel(), &QAbstractItemModel::modelReset, this, &CompareSection::refresh);
    refresh();
}

bool CompareSection::comparing() const
{
    return m_pane->comparison() != nullptr;
}

int CompareSection::figuresShown() const
{
    return m_filter->rowCount();
}

void CompareSection::refresh()
{
    const bool shown = comparing();
    if (parentWidget()) // (not a window of its own before it is placed)
        setVisible(shown);
    if (!shown)
        return;
    if (!m_sized) {
        // First shown: the comparison gets two thirds of the pane.
        if (auto* holder = qobject_cast<QSplitter*>(parentWidget())) {
            holder->setSizes({1000, 2000});
            m_sized = true;
        }
    }
    int all = 0, changed = 0;
    const auto* model = m_pane->figuresModel();
    for (int row = 0; row < model->rowCount(); ++row) {
        const ComparedFigure* f = model->figure(row);
        if (!f || !f->listed() || (m_filter->scope && !m_filter->scope(*f)))
            continue;
        ++all;
        changed += relativeChange(*f) != 0;
    }
    m_header->setText(tr("%1 <b>%2</b> vs %3 <b>%4</b> — %5 of %6 changed")
                          .arg(runChip(0), QFileInfo(m_pane->pathA()).fileName().toHtmlEscaped(), runChip(1),
                               QFileInfo(m_pane->pathB()).fileName().toHtmlEscaped())
                          .arg(changed)
                          .arg(all));
    m_header->setToolTip(tr("The %1 of both runs\nA: %2\nB: %3").arg(m_options.what, m_pane->pathA(), m_pane->pathB()));
    // The figures whole; the key takes what is left (elided: a row's
    // tooltip names it whole).
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(CompareFiguresModel::Key, QHeaderView::Stretch);
    if (m_pausePlot)
        drawPauseDistributions(m_pausePlot, m_pane->pauses(0), m_pane->pauses(1));
}

ComparableView::ComparableView(QWidget* pane, CompareSection* section, QWidget* parent)
    : QSplitter(Qt::Horizontal, parent)
    , m_section(section)
{
    setChildrenCollapsible(false);
    addWidget(pane);
    addWidget(section);
    setStretchFactor(0, 1);
    setStretchFactor(1, 1);
    section->setVisible(section->comparing());
}

void ComparableView::resizeEvent(QResizeEvent* event)
{
    // Wide (a tab below the timeline): side by side; tall: one over the other.
    const Qt::Orientation o = event->size().width() >= event->size().height() * 3 / 2 ? Qt::Horizontal : Qt::Vertical;
    if (o != orientation())
        setOrientation(o);
    QSplitter::resizeEvent(event);
}

} // namespace hecscope
