#include "ui/compare/comparetimeline.h"

#include "ui/compare/comparepane.h"
#include "ui/timeline/timelinerenderer.h"
#include "ui/timeline/timelineview.h"
#include "ui/document/viewcontroller.h"

#include "core/text/units.h"

#include <QComboBox>
#include <QSpinBox>
#include <QFileDialog>
#include <QPushButton>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>

#include <algorithm>
#include <map>
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
    , m_occurrence(new QSpinBox)
    , m_shiftLabel(new QLabel)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    auto* header = new QHBoxLayout;
    header->setContentsMargins(4, 2, 4, 2);
    m_name->setTextFormat(Qt::RichText);
    m_name->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_alignBox->setToolTip(tr("How B's times are placed on A's time axis: from both starts, B stretched to A's "
                              "length, or B moved so that one occurrence of a user span or marker starts where "
                              "A's does"));
    m_alignBox->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_occurrence->setPrefix(tr("occurrence "));
    m_occurrence->setToolTip(tr("Which occurrence of the span or marker, in each run's own order"));
    m_occurrence->hide();
    m_shiftLabel->setStyleSheet(QStringLiteral("color: #555"));
    header->addWidget(m_name, 1);
    header->addWidget(m_shiftLabel);
    header->addWidget(m_alignBox);
    header->addWidget(m_occurrence);
    fillAlignBox();
    auto* save = new QPushButton(tr("Export Image…"));
    save->setToolTip(tr("Both runs' timelines, as they are shown, as a PNG image"));
    connect(save, &QPushButton::clicked, this, &CompareTimeline::exportImage);
    header->addWidget(save);
    layout->addLayout(header);
    m_scroll->setWidget(m_view);
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // (A's too, while B is shown: both plots equally wide, a time at one x.)
    m_scroll->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOn);
    layout->addWidget(m_scroll, 1);
    // B's runs are told apart from A's at a glance: a band of its colour.
    setAutoFillBackground(true);
    QPalette p = palette();
    p.setColor(QPalette::Window, runTint(1));
    setPalette(p);

    connect(m_alignBox, &QComboBox::activated, this, &CompareTimeline::chooseAlignment);
    connect(m_occurrence, &QSpinBox::valueChanged, this, [this](int k) {
        if (m_align == Align::Occurrence && k != m_alignOccurrence)
            alignAt(m_alignName, k);
    });
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
        fillAlignBox();
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
    if (m_align == Align::Occurrence) { // (a new pair: its own occurrence, if it has one)
        m_align = Align::Start;
        m_shift = 0;
    }
    fillAlignBox();
    if (!m_alignName.isEmpty() && !alignAt(m_alignName, m_alignOccurrence))
        m_alignName.clear(); // (this B has no such occurrence: from the starts)
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
    m_view->setTimeBias(0);
    m_view->setIndex(nullptr);
    m_syncing = false;
    hide();
}

void CompareTimeline::setAlignment(Align align)
{
    if (align == Align::Occurrence)
        return; // (alignAt chooses the occurrence)
    m_align = align;
    m_shift = 0;
    m_alignName.clear();
    fillAlignBox();
    if (m_b)
        updateBounds();
}

namespace {

// Where the `occurrence`th (from 1) span or marker called `name` starts.
std::optional<uint64_t> occurrenceStart(const LogIndex* index, const std::string& name, int occurrence)
{
    const UserSpans* spans = index ? index->userSpans.get() : nullptr;
    if (!spans || occurrence < 1)
        return std::nullopt;
    const auto it = std::find(spans->names.begin(), spans->names.end(), name);
    if (it == spans->names.end())
        return std::nullopt;
    const size_t n = size_t(it - spans->names.begin());
    const uint32_t first = spans->nameOffsets[n], end = spans->nameOffsets[n + 1];
    if (uint32_t(occurrence) > end - first)
        return std::nullopt;
    return spans->spans[spans->byName[first + uint32_t(occurrence) - 1]].start;
}

bool isMarker(const UserSpans& spans, size_t name)
{
    const uint32_t first = spans.nameOffsets[name];
    return first < spans.nameOffsets[name + 1] && (spans.spans[spans.byName[first]].flags & UserSpan::FromMarker);
}

// t + d, no earlier than 0.
uint64_t moved(uint64_t t, int64_t d)
{
    if (d >= 0)
        return t + uint64_t(d);
    return t > uint64_t(-d) ? t - uint64_t(-d) : 0;
}

} // namespace

std::vector<CompareTimeline::AlignName> CompareTimeline::alignNames() const
{
    std::vector<AlignName> out;
    const UserSpans* a = m_a ? m_a->userSpans.get() : nullptr;
    const UserSpans* b = m_b ? m_b->userSpans.get() : nullptr;
    if (!a || !b)
        return out;
    std::map<std::string, uint32_t> countB;
    for (size_t n = 0; n < b->names.size(); ++n)
        countB[b->names[n]] = b->nameOffsets[n + 1] - b->nameOffsets[n];
    for (size_t n = 0; n < a->names.size(); ++n) {
        const uint32_t count = std::min(a->nameOffsets[n + 1] - a->nameOffsets[n], countB[a->names[n]]);
        if (count > 0)
            out.push_back({QString::fromStdString(a->names[n]), int(count), isMarker(*a, n)});
    }
    // Markers first (they mark the program's phases), then spans, by name.
    std::stable_sort(out.begin(), out.end(), [](const AlignName& x, const AlignName& y) {
        return x.marker != y.marker ? x.marker : x.name < y.name;
    });
    return out;
}

std::vector<std::pair<QString, int>> CompareTimeline::commonNames() const
{
    std::vector<std::pair<QString, int>> out;
    for (const AlignName& n : alignNames())
        out.emplace_back(n.name, n.count);
    return out;
}

bool CompareTimeline::alignAt(const QString& name, int occurrence)
{
    const auto a = occurrenceStart(m_a.get(), name.toStdString(), occurrence);
    const auto b = occurrenceStart(m_b.get(), name.toStdString(), occurrence);
    if (!a || !b)
        return false;
    m_align = Align::Occurrence;
    m_alignName = name;
    m_alignOccurrence = occurrence;
    m_shift = int64_t(*a) - int64_t(*b);
    m_scale = 1;
    fillAlignBox();
    updateBounds();
    return true;
}

// The choices: from the starts, stretched, and at each span or marker both
// runs have (the chosen one kept while B grows).
void CompareTimeline::fillAlignBox()
{
    const QSignalBlocker block(m_alignBox);
    const QSignalBlocker blockOccurrence(m_occurrence);
    m_alignBox->clear();
    m_alignBox->addItem(tr("Aligned at program start"));
    m_alignBox->addItem(tr("B stretched to A's length"));
    int count = 0;
    for (const auto& [name, n, marker] : alignNames()) {
        if (m_alignBox->count() == 2)
            m_alignBox->insertSeparator(2);
        m_alignBox->addItem(marker ? tr("Aligned at marker “%1”").arg(name) : tr("Aligned at span “%1”").arg(name), name);
        if (m_align == Align::Occurrence && name == m_alignName) {
            m_alignBox->setCurrentIndex(m_alignBox->count() - 1);
            count = n;
        }
        if (m_alignBox->count() > 400)
            break; // (a log with thousands of names: the first ones)
    }
    if (m_align != Align::Occurrence)
        m_alignBox->setCurrentIndex(m_align == Align::Stretch ? 1 : 0);
    m_occurrence->setVisible(m_align == Align::Occurrence);
    m_occurrence->setRange(1, std::max(count, 1));
    m_occurrence->setSuffix(tr(" of %1").arg(std::max(count, 1)));
    m_occurrence->setValue(m_alignOccurrence);
    QString shift;
    if (m_align == Align::Occurrence && m_shift != 0) {
        const QString by = QString::fromStdString(formatDuration(uint64_t(std::abs(m_shift)), UnitStyle::Unicode));
        shift = m_shift > 0 ? tr("B moved %1 later").arg(by)
                            : tr("B moved %1 earlier (its first %1 are before A's start)").arg(by);
    }
    m_shiftLabel->setText(shift);
    m_shiftLabel->setVisible(!shift.isEmpty());
}

void CompareTimeline::chooseAlignment(int item)
{
    const QString name = m_alignBox->itemData(item).toString();
    if (!name.isEmpty()) {
        if (!alignAt(name, name == m_alignName ? m_alignOccurrence : 1))
            fillAlignBox();
    } else {
        setAlignment(item == 1 ? Align::Stretch : Align::Start);
    }
}

uint64_t CompareTimeline::toB(uint64_t tA) const
{
    if (m_align == Align::Occurrence)
        return moved(tA, -m_shift);
    return uint64_t(std::llround(double(tA) * m_scale));
}

uint64_t CompareTimeline::toA(uint64_t tB) const
{
    if (m_align == Align::Occurrence)
        return moved(tB, m_shift);
    return m_scale > 0 ? uint64_t(std::llround(double(tB) / m_scale)) : tB;
}

// B's controller's axis: B's times, plus the bias of B's view when B is
// moved later (B's view starts blank there), so that it never needs a time
// before 0.
uint64_t CompareTimeline::axisB(uint64_t tA) const
{
    if (m_align == Align::Occurrence)
        return m_shift < 0 ? tA + uint64_t(-m_shift) : tA;
    return uint64_t(std::llround(double(tA) * m_scale));
}

uint64_t CompareTimeline::axisToA(uint64_t axis) const
{
    if (m_align == Align::Occurrence)
        return m_shift < 0 ? moved(axis, m_shift) : axis;
    return m_scale > 0 ? uint64_t(std::llround(double(axis) / m_scale)) : axis;
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
        m_controllerA->setRange({std::min(keep.start, endA - 1), std::min(keep.end, endA)}, false);
        m_controllerA->setSelection(selection);
    }
    const uint64_t bias = m_align == Align::Occurrence && m_shift > 0 ? uint64_t(m_shift) : 0;
    m_view->setTimeBias(bias);
    m_controller->setBounds({0, std::max(m_boundsB.end + bias, axisB(endA))});
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
    sync([&] { m_controller->setRange({axisB(r.start), std::max(axisB(r.end), axisB(r.start) + 1)}, false); });
}

void CompareTimeline::followB(ViewRange r)
{
    sync([&] { m_controllerA->setRange({axisToA(r.start), std::max(axisToA(r.end), axisToA(r.start) + 1)}, true); });
}

void CompareTimeline::followSelectionA(std::optional<ViewRange> s)
{
    sync([&] {
        m_controller->setSelection(s ? std::optional(ViewRange{axisB(s->start), axisB(s->end)}) : std::nullopt);
    });
}

void CompareTimeline::followSelectionB(std::optional<ViewRange> s)
{
    sync([&] {
        m_controllerA->setSelection(s ? std::optional(ViewRange{axisToA(s->start), axisToA(s->end)}) : std::nullopt);
    });
}

void CompareTimeline::setCursorFromA(std::optional<uint64_t> tA)
{
    // (Before B starts on the shared axis: no cursor in B.)
    if (tA && m_align == Align::Occurrence && m_shift > 0 && *tA < uint64_t(m_shift))
        tA.reset();
    sync([&] { m_view->setCursorTime(tA ? std::optional(toB(*tA)) : std::nullopt); });
}

} // namespace hecscope
