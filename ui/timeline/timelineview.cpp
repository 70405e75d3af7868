#include "ui/timeline/timelineview.h"

#include <QAbstractScrollArea>
#include <QMenu>
#include <QScrollBar>

#include "ui/document/logdocument.h"
#include "core/live/livesession.h"

#include "ui/document/viewcontroller.h"

#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include <chrono>
#include <cmath>

namespace hecscope {

TimelineView::TimelineView(ViewController* controller, QWidget* parent)
    : QWidget(parent)
    , m_controller(controller)
{
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
    connect(m_controller, &ViewController::viewChanged, this,
            qOverload<>(&QWidget::update));
    connect(m_controller, &ViewController::selectionChanged, this,
            qOverload<>(&QWidget::update));
    for (const TimelineTrack* track : timelineTracks())
        track->restoreState(m_states);
    updateHeight();
}

void TimelineView::setIndex(std::shared_ptr<const LogIndex> index)
{
    m_index = index;
    m_renderer.setIndex(std::move(index));
    m_cursor.reset();
    m_highlight.reset();
    m_selected.reset();
    updateHeight();
    m_controller->setBounds(m_renderer.bounds());
}

void TimelineView::setPendingFrom(std::optional<uint64_t> t)
{
    if (t == m_pendingFrom)
        return;
    m_pendingFrom = t;
    update();
}

void TimelineView::setDroppedBefore(std::optional<uint64_t> t)
{
    if (t == m_droppedBefore)
        return;
    m_droppedBefore = t;
    update();
}

void TimelineView::updateIndex(std::shared_ptr<const LogIndex> index)
{
    m_index = index;
    m_renderer.setIndex(std::move(index));
    updateHeight();
    m_controller->extendBounds(m_renderer.bounds());
    update();
}

void TimelineView::setDetailSource(std::shared_ptr<ByteSource> source)
{
    if (m_detail && m_detail->source() == source)
        return;
    m_detailJobs.cancel();
    m_detail = source ? std::make_shared<DetailStore>(std::move(source)) : nullptr;
    update();
}

void TimelineView::readWantedDetail()
{
    std::vector<InstantUnitKey> keys;
    for (const InstantUnitKey& k : m_renderer.takeWantedInstants())
        if (m_detail && m_detail->ask(k))
            keys.push_back(k);
    std::vector<ThreadWindowKey> windows;
    for (const ThreadWindowKey& w : m_renderer.takeWantedThreads())
        if (m_detail && m_detail->askThreads(w))
            windows.push_back(w);
    if ((keys.empty() && windows.empty()) || !m_index)
        return;
    // The windows of thread segments (the most to read, first) and the
    // instants, each a job of its own: read at once on two cores, each
    // repainting what it brought when it lands.
    for (const ThreadWindowKey& w : windows)
        m_detailJobs.run(
            [store = m_detail, index = m_index, w](const JobContext& ctx) {
                store->loadThreads(*index, w, [&ctx] { return ctx.isCancelled(); });
                return true;
            },
            [this](bool) { update(); });
    if (!keys.empty())
        m_detailJobs.run(
            [store = m_detail, index = m_index, keys](const JobContext& ctx) {
                for (const InstantUnitKey& k : keys) {
                    if (ctx.isCancelled())
                        store->forget(k);
                    else
                        store->load(*index, k);
                }
                return true;
            },
            [this](bool) { update(); });
}

RenderOptions TimelineView::unbiasedOptions() const
{
    RenderOptions o = ownOptions();
    if (m_labelPartner)
        o.minLabelWidth = m_labelPartner->naturalLabelWidth();
    return o;
}

RenderOptions TimelineView::options() const
{
    RenderOptions o = unbiasedOptions();
    if (m_bias) { // (the plot's width before any blank)
        shownRange(m_renderer.plotArea(rect(), o).width(), &o.leadingBlank);
        if (o.selection) {
            if (o.selection->end <= m_bias)
                o.selection.reset();
            else
                o.selection = ViewRange{std::max(o.selection->start, m_bias) - m_bias, o.selection->end - m_bias};
        }
    }
    return o;
}

void TimelineView::setClock(std::function<int64_t()> msNow)
{
    m_clock = std::move(msNow);
}

void TimelineView::setTimeBias(uint64_t bias)
{
    if (bias == m_bias)
        return;
    m_bias = bias;
    update();
}

ViewRange TimelineView::shownRange(int plotWidth, int* blank) const
{
    const ViewRange r = m_controller->range();
    *blank = 0;
    if (r.start >= m_bias)
        return {r.start - m_bias, r.end - m_bias};
    if (r.end <= m_bias + 1) { // all of it before the log starts
        *blank = std::max(plotWidth - 1, 0);
        return {0, 1};
    }
    *blank = int(std::lround(double(plotWidth) * double(m_bias - r.start) / double(r.duration())));
    *blank = std::clamp(*blank, 0, std::max(plotWidth - 1, 0));
    return {0, r.end - m_bias};
}

ViewRange TimelineView::shownRange() const
{
    if (!m_bias)
        return m_controller->range();
    int blank = 0;
    return shownRange(m_renderer.plotArea(rect(), unbiasedOptions()).width(), &blank);
}

RenderOptions TimelineView::ownOptions() const
{
    RenderOptions o;
    o.detail = m_detail;
    o.tracks = m_tracks;
    o.palette = palette();
    o.font = font();
    o.selection = m_controller->selection();
    o.cursor = m_cursor;
    o.states = m_states;
    o.placeholder = m_placeholder;
    o.highlight = m_highlight;
    o.bookmarks = m_bookmarks;
    o.selected = m_selected;
    o.pendingFrom = m_pendingFrom;
    o.droppedBefore = m_droppedBefore;
    o.rowHeights = m_rowHeights;
    o.legend = m_ownLegend;
    return o;
}

void TimelineView::setOwnLegend(bool own)
{
    if (own == m_ownLegend)
        return;
    m_ownLegend = own;
    updateHeight();
    update();
}

bool TimelineView::legendCoveredBy(const TimelineView& other) const
{
    RenderOptions mineOptions = ownOptions(), theirOptions = other.ownOptions();
    mineOptions.legend = theirOptions.legend = true; // (what each would show)
    const LegendContent mine = m_renderer.legendContent(mineOptions);
    const LegendContent theirs = other.m_renderer.legendContent(theirOptions);
    for (const QString& e : mine.entries)
        if (!theirs.entries.contains(e))
            return false;
    for (const QString& b : mine.blocks)
        if (std::find(theirs.blocks.begin(), theirs.blocks.end(), b) == theirs.blocks.end())
            return false;
    return true;
}

void TimelineView::setLabelPartner(const TimelineView* partner)
{
    m_labelPartner = partner;
    update();
}

int TimelineView::naturalLabelWidth() const
{
    return m_renderer.labelWidth(ownOptions());
}

void TimelineView::setTracks(std::vector<QString> tracks)
{
    m_tracks = std::move(tracks);
    updateHeight();
    update();
}

void TimelineView::setHighlight(std::optional<uint64_t> t)
{
    m_highlight = t;
    update();
}

void TimelineView::setBookmarks(std::vector<uint64_t> times)
{
    m_bookmarks = std::move(times);
    update();
}

void TimelineView::setCursorTime(std::optional<uint64_t> t)
{
    m_cursor = t;
    update();
    emit cursorChanged(t);
}

void TimelineView::setRowHeights(std::map<QString, int> heights)
{
    m_rowHeights = std::move(heights);
    updateHeight();
    update();
}

std::optional<TrackRow> TimelineView::edgeAt(QPoint pos) const
{
    const RenderOptions o = options();
    if (m_renderer.unpinned(pos, rect(), visibleRect(), o) != pos)
        return std::nullopt; // over the pinned ruler or legend
    for (const TrackRow& row : m_renderer.layout(rect(), o))
        if (std::abs(pos.y() - row.rect.bottom()) <= 2 && m_renderer.resizable(row, o))
            return row;
    return std::nullopt;
}

void TimelineView::stateChanged()
{
    updateHeight(); // (the thread rows' window, for one)
    update();
}

void TimelineView::setPlaceholder(const QString& text)
{
    m_placeholder = text;
    update();
}

void TimelineView::updateHeight()
{
    setMinimumHeight(m_renderer.naturalHeight(options()));
    updateGeometry();
}

QSize TimelineView::sizeHint() const
{
    return QSize(1000, m_renderer.naturalHeight(options()));
}

TimeMapping TimelineView::mapping() const
{
    const QRect plot = m_renderer.plotArea(rect(), options());
    return TimeMapping(shownRange(), plot.left(), plot.width());
}

void TimelineView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    if (m_detail)
        m_detail->beginView();
    RenderOptions o = options();
    o.visible = visibleRect(); // (the tracks scrolled out of sight are not drawn)
    const ViewRange shown = shownRange();
    m_renderer.paint(p, rect(), shown, o);
    m_renderer.paintPinned(p, rect(), visibleRect(), shown, o);
    readWantedDetail();
}

// The part on screen (the window scrolls the tracks): where the ruler and
// the legend are pinned.
QRect TimelineView::visibleRect() const
{
    const QRect r = visibleRegion().boundingRect();
    return r.isEmpty() ? rect() : r;
}

QPoint TimelineView::unpinned(QPoint pos) const
{
    return m_renderer.unpinned(pos, rect(), visibleRect(), options());
}

// Scrolled: the pinned ruler and legend move with what is shown, so the
// whole view is painted again (a scroll would blit them along).
void TimelineView::moveEvent(QMoveEvent* e)
{
    QWidget::moveEvent(e);
    update();
}

bool TimelineView::event(QEvent* e)
{
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        // Over the label column: an elided label whole; else what is under the pointer.
        const QPoint at = unpinned(help->pos());
        QString text = m_renderer.labelTipAt(at, rect(), options());
        if (text.isEmpty())
            text = m_renderer.describeAt(at, rect(), shownRange(), options());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(e);
}

void TimelineView::wheelEvent(QWheelEvent* e)
{
    const QPoint delta = e->angleDelta();
    const TimeMapping m = mapping();
    if (e->position().x() < m_renderer.labelEdge(rect(), options())) {
        // Over the labels: the track may scroll its rows; else the page scrolls.
        const QPoint at = unpinned(e->position().toPoint());
        if (m_renderer.labelWheel(at, e->globalPosition().toPoint(), delta.y(), rect(), options())) {
            e->accept();
            return;
        }
        // The page scrolls, a pixel per unit of the wheel's delta.
        if (m_renderer.rowAt(at, rect(), options()))
            for (QWidget* w = parentWidget(); w; w = w->parentWidget())
                if (auto* area = qobject_cast<QAbstractScrollArea*>(w)) {
                    area->verticalScrollBar()->setValue(area->verticalScrollBar()->value() - delta.y());
                    e->accept();
                    return;
                }
        e->ignore();
        return;
    }
    if ((e->modifiers() & Qt::ShiftModifier) || std::abs(delta.x()) > std::abs(delta.y())) {
        const int d = delta.x() ? delta.x() : delta.y();
        m_controller->pan(-double(d) / 120.0 * 0.1 * double(m_controller->range().duration()));
    } else if (delta.y() != 0) {
        const double factor = std::pow(0.8, double(delta.y()) / 120.0);
        // One Back step per gesture: the first notch after a pause is
        // remembered, the notches that follow it are not.
        const int64_t now = m_clock ? m_clock()
                                    : std::chrono::duration_cast<std::chrono::milliseconds>(
                                          std::chrono::steady_clock::now().time_since_epoch())
                                          .count();
        const bool gestureStart = !m_lastWheelZoomMs || now - *m_lastWheelZoomMs > kWheelGestureMs;
        m_lastWheelZoomMs = now;
        m_controller->zoom(factor, m.toTime(e->position().x()) + m_bias, gestureStart);
    }
    e->accept();
}

void TimelineView::mousePressEvent(QMouseEvent* e)
{
    setFocus();
    if (e->button() == Qt::LeftButton && m_renderer.index())
        if (const auto row = edgeAt(e->pos())) { // a row's bottom edge: its height follows the pointer
            m_drag = Drag::Resize;
            m_resizeTrack = row->id();
            m_resizeTop = row->rect.top();
            return;
        }
    if (e->position().x() < m_renderer.labelEdge(rect(), options())) {
        m_drag = Drag::None;
        const QPoint at = unpinned(e->pos());
        if (e->button() == Qt::LeftButton)
            m_renderer.labelClicked(at, e->globalPosition().toPoint(), rect(), options());
        return;
    }
    m_pressPos = e->pos();
    m_pressRange = m_controller->range();
    m_pressTime = mapping().toTime(e->position().x()) + m_bias;
    m_moved = false;
    if (e->button() == Qt::RightButton || (e->button() == Qt::LeftButton && (e->modifiers() & Qt::ShiftModifier)))
        m_drag = Drag::Select;
    else if (e->button() == Qt::LeftButton)
        m_drag = Drag::Pan;
}

void TimelineView::mouseMoveEvent(QMouseEvent* e)
{
    const TimeMapping m = mapping();
    const QRect plot = m_renderer.plotArea(rect(), options());
    if (plot.contains(e->pos()))
        emit hoverTimeChanged(m.toTime(e->position().x()));
    else
        emit hoverTimeChanged(std::nullopt);
    if (m_drag == Drag::Resize) {
        m_rowHeights[m_resizeTrack] = std::clamp(e->pos().y() - m_resizeTop + 1, kMinRowHeight, kMaxRowHeight);
        updateHeight();
        update();
        return;
    }
    if (m_drag == Drag::None) {
        setCursor(m_renderer.index() && edgeAt(e->pos()) ? Qt::SplitVCursor : Qt::ArrowCursor);
        return;
    }
    if ((e->pos() - m_pressPos).manhattanLength() >= 4)
        m_moved = true;
    if (!m_moved)
        return;
    if (m_drag == Drag::Pan) {
        // (The axis's scale: the plot with any blank before the log.)
        const int blank = options().leadingBlank;
        const TimeMapping at(m_pressRange, plot.left() - blank, plot.width() + blank);
        const double dx = e->position().x() - m_pressPos.x();
        m_controller->setRange(
            panBy(m_pressRange, -dx * at.nsPerPixel(), m_controller->bounds()),
            false);
    } else {
        const uint64_t t = m.toTime(
            std::clamp<double>(e->position().x(), plot.left(), plot.right() + 1)) + m_bias;
        m_controller->setSelection(
            ViewRange{std::min(t, m_pressTime), std::max(t, m_pressTime)});
    }
}

void TimelineView::mouseReleaseEvent(QMouseEvent* e)
{
    if (m_drag == Drag::Resize) {
        m_drag = Drag::None;
        emit rowHeightsChanged(m_rowHeights);
        return;
    }
    if (m_drag == Drag::Pan && m_moved && m_controller->range() != m_pressRange) {
        // One history entry for the whole drag.
        const ViewRange now = m_controller->range();
        m_controller->setRange(m_pressRange, false);
        m_controller->setRange(now, true);
    }
    if (!m_moved && m_renderer.plotArea(rect(), options()).contains(e->pos())) {
        m_cursor = mapping().toTime(e->position().x());
        update();
        emit cursorChanged(m_cursor);
        emit clicked(*m_cursor);
        const QPoint at = unpinned(e->pos());
        const ViewRange shown = shownRange();
        m_selected = m_renderer.itemAt(at, rect(), shown, options());
        emit itemSelected(m_selected);
        emit itemClicked(m_renderer.describeAt(at, rect(), shown, options()));
        if (m_selected && m_selected->heapBand)
            emit heapBandClicked(*m_selected->heapBand);
    }
    m_drag = Drag::None;
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent* e)
{
    if (m_renderer.plotArea(rect(), options()).contains(e->pos()))
        m_controller->zoom(0.5, mapping().toTime(e->position().x()) + m_bias, true);
}

void TimelineView::keyPressEvent(QKeyEvent* e)
{
    const ViewRange r = m_controller->range();
    const uint64_t centre = r.start + r.duration() / 2;
    const uint64_t anchor = m_cursor && *m_cursor + m_bias >= r.start && *m_cursor + m_bias <= r.end
        ? *m_cursor + m_bias
        : centre;
    switch (e->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        m_controller->zoom(0.5, anchor, true);
        break;
    case Qt::Key_Minus:
        m_controller->zoom(2.0, anchor, true);
        break;
    case Qt::Key_Left:
        m_controller->pan(-0.2 * double(r.duration()));
        break;
    case Qt::Key_Right:
        m_controller->pan(0.2 * double(r.duration()));
        break;
    case Qt::Key_Home:
        m_controller->fitAll();
        break;
    case Qt::Key_Escape:
        m_controller->setSelection(std::nullopt);
        break;
    default:
        QWidget::keyPressEvent(e);
        return;
    }
    e->accept();
}

void TimelineView::contextMenuEvent(QContextMenuEvent* e)
{
    // Over the labels only: a right drag over the plot selects a range.
    if (e->pos().x() >= m_renderer.labelEdge(rect(), options()))
        return;
    const QPoint at = unpinned(e->pos());
    QMenu menu;
    m_renderer.addContextActions(menu, at, e->globalPos(), rect(), options(),
                                 [this](const std::function<void(TrackStates&)>& edit) {
                                     edit(m_states);
                                     stateChanged();
                                 });
    if (!menu.isEmpty())
        menu.exec(e->globalPos());
}

void TimelineView::leaveEvent(QEvent*)
{
    emit hoverTimeChanged(std::nullopt);
}

void TimelineView::follow(const LogDocument* doc)
{
    connect(doc, &LogDocument::placeholderChanged, this, &TimelineView::setPlaceholder);
    connect(doc, &LogDocument::cleared, this, [this](const QString&, bool sameFile) {
        // A reload of the same file keeps where the user was looking.
        m_keepView.reset();
        if (sameFile && m_index)
            m_keepView = std::pair{m_controller->range(), m_controller->selection()};
        setPendingFrom(std::nullopt);
        setDroppedBefore(std::nullopt);
        setIndex(nullptr);
        setTrackState<HeapView>(nullptr);
    });
    connect(doc, &LogDocument::indexChanged, this, [this](const IndexChange& c) {
        setDetailSource(c.source); // before the index: the first paint reads through it
        if (c.grown) {
            updateIndex(c.index);
            return;
        }
        setIndex(c.index);
        if (m_keepView) {
            m_controller->setRange(m_keepView->first, false);
            m_controller->setSelection(m_keepView->second);
            m_keepView.reset();
        }
    });
    connect(doc, &LogDocument::liveUpdated, this, [this, doc](const LiveStatus& s) {
        const std::shared_ptr<const LogIndex> index = doc->index();
        if (!index)
            return;
        setPendingFrom(!isFinal(s.state) && s.mergedTime < s.newestTime ? std::optional(s.mergedTime) : std::nullopt);
        setDroppedBefore(index->dropped.fromByte > 0 ? std::optional(index->dropped.before) : std::nullopt);
    });
}

} // namespace hecscope
