#include "ui/compare/comparetimeline.h"

#include "ui/compare/comparepane.h"
#include "ui/timeline/timelinerenderer.h"
#include "ui/timeline/timelineview.h"
#include "ui/timeline/viewcontroller.h"

#include <QComboBox>
#include <QFileDialog>
#include <QPushButton>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace hecscope {

CompareTimeline::CompareTimeline(ViewController* controllerA, TimelineView* viewA, QWidget* parent)
    : QWidget(parent)
    , m_controllerA(controllerA)
    , m_viewA(viewA)
    , m_controller(new ViewController(this))
    , m_view(new TimelineView(m_controller))
    , m_scroll(new QScrollArea)
    , m_name(new QLabel)
    , m_alignBox(new QComboBox)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    auto* header = new QHBoxLayout;
    header->setContentsMargins(4, 2, 4, 2);
    m_name->setTextFormat(Qt::RichText);
    m_name->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_alignBox->addItem(tr("Aligned at program start"));
    m_alignBox->addItem(tr("B stretched to A's length"));
    m_alignBox->setToolTip(tr("How B's times are placed on A's time axis"));
    header->addWidget(m_name, 1);
    header->addWidget(m_alignBox);
    auto* save = new QPushButton(tr("Export Image…"));
    save->setToolTip(tr("Both runs' timelines, as they are shown, as a PNG image"));
    connect(save, &QPushButton::clicked, this, &CompareTimeline::exportImage);
    header->addWidget(save);
    layout->addLayout(header);
    m_scroll->setWidget(m_view);
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    layout->addWidget(m_scroll, 1);
    // B's runs are told apart from A's at a glance: a band of its colour.
    setAutoFillBackground(true);
    QPalette p = palette();
    p.setColor(QPalette::Window, runTint(1));
    setPalette(p);

    connect(m_alignBox, &QComboBox::currentIndexChanged, this,
            [this](int i) { setAlignment(i == 1 ? Align::Stretch : Align::Start); });
    connect(m_controllerA, &ViewController::viewChanged, this, &CompareTimeline::followA);
    connect(m_controller, &ViewController::viewChanged, this, &CompareTimeline::followB);
    connect(m_controllerA, &ViewController::selectionChanged, this, &CompareTimeline::followSelectionA);
    connect(m_controller, &ViewController::selectionChanged, this, &CompareTimeline::followSelectionB);
    connect(m_view, &TimelineView::cursorChanged, this, [this](std::optional<uint64_t> t) {
        if (!m_syncing)
            emit cursorFromB(t ? std::optional(toA(*t)) : std::nullopt);
    });
    hide();
}

CompareTimeline::~CompareTimeline() = default;

// Both runs' timelines as shown (what holds them both: A's above, B's).
QImage CompareTimeline::image()
{
    QWidget* both = parentWidget() ? parentWidget() : this;
    return both->grab().toImage();
}

void CompareTimeline::exportImage()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export both timelines as an image"),
                                                      QStringLiteral("compared-timelines.png"), tr("PNG images (*.png)"));
    if (!path.isEmpty() && !image().save(path, "PNG"))
        m_name->setText(m_name->text() + tr(" — could not write %1").arg(path.toHtmlEscaped()));
}

void CompareTimeline::setRuns(std::shared_ptr<const LogIndex> a, const QString& pathB, std::shared_ptr<const LogIndex> b,
                              std::shared_ptr<ByteSource> sourceB, const std::vector<QString>& tracks)
{
    if (a && b && m_b && m_a == a && pathB == m_pathB) {
        // More of the same B (a snapshot of its load, then the whole):
        // the view stays where it is.
        m_b = std::move(b);
        m_syncing = true;
        m_view->updateIndex(m_b);
        m_view->setOwnLegend(!m_view->legendCoveredBy(*m_viewA));
        m_syncing = false;
        m_boundsB = TimelineRenderer::boundsOf(m_b.get());
        updateBounds();
        return;
    }
    m_a = std::move(a);
    m_b = std::move(b);
    m_pathB = pathB;
    if (!m_a || !m_b) {
        clear();
        return;
    }
    m_name->setText(runChip(1) + QStringLiteral(" <b>%1</b>").arg(QFileInfo(pathB).fileName().toHtmlEscaped()));
    m_name->setToolTip(pathB);
    std::vector<QString> shown;
    for (const QString& t : tracks)
        if (!t.contains(QLatin1String("thread"))) // (thread rows are A's pane's choice)
            shown.push_back(t);
    m_view->setTracks(shown);
    m_view->setDetailSource(std::move(sourceB));
    m_syncing = true;
    m_view->setIndex(m_b);
    m_boundsB = TimelineRenderer::boundsOf(m_b.get());
    m_syncing = false;
    m_boundsA = m_controllerA->bounds();
    updateBounds();
    m_viewA->setLabelPartner(m_view);
    m_view->setLabelPartner(m_viewA);
    // One legend for both runs where A's explains every colour of B's.
    m_view->setOwnLegend(!m_view->legendCoveredBy(*m_viewA));
    show();
}

void CompareTimeline::clear()
{
    m_syncing = true;
    // A's own bounds again (they covered B's too), where A is still the log
    // they were extended for.
    if (m_b && m_controllerA->bounds().end != m_boundsA.end && m_controllerA->bounds().end >= m_boundsA.end) {
        const ViewRange keep = m_controllerA->range();
        const std::optional<ViewRange> selection = m_controllerA->selection();
        m_controllerA->setBounds(m_boundsA);
        m_controllerA->setRange({std::min(keep.start, m_boundsA.end - 1), std::min(keep.end, m_boundsA.end)}, false);
        m_controllerA->setSelection(selection);
    }
    m_b.reset();
    m_viewA->setLabelPartner(nullptr);
    m_view->setLabelPartner(nullptr);
    m_view->setOwnLegend(true);
    m_view->setIndex(nullptr);
    m_syncing = false;
    hide();
}

void CompareTimeline::setAlignment(Align align)
{
    m_align = align;
    {
        const QSignalBlocker block(m_alignBox);
        m_alignBox->setCurrentIndex(align == Align::Stretch ? 1 : 0);
    }
    if (m_b)
        updateBounds();
}

uint64_t CompareTimeline::toB(uint64_t tA) const
{
    return uint64_t(std::llround(double(tA) * m_scale));
}

uint64_t CompareTimeline::toA(uint64_t tB) const
{
    return m_scale > 0 ? uint64_t(std::llround(double(tB) / m_scale)) : tB;
}

// Both controllers' bounds cover both runs on the shared axis, then B
// follows A's view.
void CompareTimeline::updateBounds()
{
    const double lengthA = double(std::max<uint64_t>(m_boundsA.end, 1));
    const double lengthB = double(std::max<uint64_t>(m_boundsB.end, 1));
    m_scale = m_align == Align::Stretch ? lengthB / lengthA : 1.0;
    ViewRange keep = m_controllerA->range();
    const std::optional<ViewRange> selection = m_controllerA->selection();
    const uint64_t endA = std::max(m_boundsA.end, toA(m_boundsB.end));
    // A view of all of A becomes a view of all of both.
    if (keep.start == m_controllerA->bounds().start && keep.end == m_controllerA->bounds().end)
        keep = {0, endA};
    m_syncing = true;
    if (m_controllerA->bounds().end != endA) {
        m_controllerA->setBounds({0, endA});
        m_controllerA->setRange(keep, false);
        m_controllerA->setSelection(selection);
    }
    m_controller->setBounds({0, std::max(m_boundsB.end, toB(endA))});
    m_syncing = false;
    followA(m_controllerA->range());
    followSelectionA(m_controllerA->selection());
}

// What one side did, done to the other, unless it is the other's echo.
template <class Step>
void CompareTimeline::sync(Step step)
{
    if (m_syncing || !m_b)
        return;
    m_syncing = true;
    step();
    m_syncing = false;
}

void CompareTimeline::followA(ViewRange r)
{
    sync([&] { m_controller->setRange({toB(r.start), std::max(toB(r.end), toB(r.start) + 1)}, false); });
}

void CompareTimeline::followB(ViewRange r)
{
    sync([&] { m_controllerA->setRange({toA(r.start), std::max(toA(r.end), toA(r.start) + 1)}, true); });
}

void CompareTimeline::followSelectionA(std::optional<ViewRange> s)
{
    sync([&] { m_controller->setSelection(s ? std::optional(ViewRange{toB(s->start), toB(s->end)}) : std::nullopt); });
}

void CompareTimeline::followSelectionB(std::optional<ViewRange> s)
{
    sync([&] { m_controllerA->setSelection(s ? std::optional(ViewRange{toA(s->start), toA(s->end)}) : std::nullopt); });
}

void CompareTimeline::setCursorFromA(std::optional<uint64_t> tA)
{
    sync([&] { m_view->setCursorTime(tA ? std::optional(toB(*tA)) : std::nullopt); });
}

} // namespace hecscope
