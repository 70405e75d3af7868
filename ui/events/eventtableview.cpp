#include "ui/events/eventtableview.h"

#include <QAbstractItemModel>
#include <QHeaderView>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QToolTip>

#include <algorithm>

namespace hecscope {

EventTableView::EventTableView(QWidget* parent)
    : QAbstractScrollArea(parent)
    , m_header(new QHeaderView(Qt::Horizontal, this))
    , m_rowHeight(fontMetrics().height() + 4)
{
    setFocusPolicy(Qt::StrongFocus);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_header->setStretchLastSection(true);
    m_header->setSectionsMovable(false);
    m_header->setHighlightSections(false);
    connect(m_header, &QHeaderView::sectionResized, viewport(), qOverload<>(&QWidget::update));
    viewport()->setBackgroundRole(QPalette::Base);
    layoutHeader();
}

void EventTableView::setModel(QAbstractItemModel* model)
{
    m_model = model;
    m_header->setModel(model);
    auto refresh = [this] {
        if (m_current >= (m_model ? m_model->rowCount() : 0))
            m_current = -1;
        updateScrollBar();
        viewport()->update();
    };
    connect(model, &QAbstractItemModel::modelReset, this, [this, refresh] {
        m_current = -1;
        verticalScrollBar()->setValue(0);
        refresh();
    });
    connect(model, &QAbstractItemModel::rowsInserted, this, refresh);
    connect(model, &QAbstractItemModel::rowsRemoved, this, refresh);
    connect(model, &QAbstractItemModel::dataChanged, this, [this](const QModelIndex& from, const QModelIndex& to) {
        const int first = firstVisibleRow();
        if (to.row() >= first && from.row() <= first + visibleRows())
            viewport()->update();
    });
    updateScrollBar();
    viewport()->update();
}

void EventTableView::layoutHeader()
{
    const int h = m_header->sizeHint().height();
    setViewportMargins(0, h, 0, 0);
    const QRect vg = viewport()->geometry();
    m_header->setGeometry(vg.left(), vg.top() - h, vg.width(), h);
}

void EventTableView::resizeEvent(QResizeEvent* e)
{
    QAbstractScrollArea::resizeEvent(e);
    layoutHeader();
    updateScrollBar();
}

int EventTableView::visibleRows() const
{
    return std::max(1, viewport()->height() / m_rowHeight);
}

int EventTableView::firstVisibleRow() const
{
    return verticalScrollBar()->value();
}

int EventTableView::rowAt(int y) const
{
    const int row = firstVisibleRow() + y / m_rowHeight;
    return m_model && y >= 0 && row < m_model->rowCount() ? row : -1;
}

void EventTableView::updateScrollBar()
{
    const int rows = m_model ? m_model->rowCount() : 0;
    verticalScrollBar()->setPageStep(visibleRows());
    verticalScrollBar()->setSingleStep(1);
    verticalScrollBar()->setRange(0, std::max(0, rows - visibleRows()));
}

void EventTableView::scrollContentsBy(int, int)
{
    viewport()->update();
}

void EventTableView::scrollToRow(int row)
{
    const int first = firstVisibleRow();
    if (row < first || row >= first + visibleRows())
        verticalScrollBar()->setValue(std::max(0, row - visibleRows() / 2));
}

void EventTableView::setCurrentRow(int row)
{
    if (!m_model || row < 0 || row >= m_model->rowCount())
        return;
    scrollToRow(row);
    if (row == m_current)
        return;
    m_current = row;
    viewport()->update();
    emit currentRowChanged(row);
}

void EventTableView::paintEvent(QPaintEvent*)
{
    QPainter p(viewport());
    const QPalette& pal = palette();
    p.fillRect(viewport()->rect(), pal.color(QPalette::Base));
    if (!m_model)
        return;
    const int rows = m_model->rowCount();
    const int first = firstVisibleRow();
    const int last = std::min(rows - 1, first + visibleRows());
    const int columns = m_model->columnCount();
    for (int row = first; row <= last; ++row) {
        const QRect line(0, (row - first) * m_rowHeight, viewport()->width(), m_rowHeight);
        const bool current = row == m_current;
        if (current)
            p.fillRect(line, pal.color(hasFocus() ? QPalette::Active : QPalette::Inactive, QPalette::Highlight));
        else if (row % 2)
            p.fillRect(line, pal.color(QPalette::AlternateBase));
        p.setPen(pal.color(current ? QPalette::HighlightedText : QPalette::Text));
        for (int c = 0; c < columns; ++c) {
            const int x = m_header->sectionViewportPosition(c);
            const int w = m_header->sectionSize(c);
            if (m_header->isSectionHidden(c) || x > viewport()->width() || x + w < 0)
                continue;
            const QModelIndex ix = m_model->index(row, c);
            const QString text = m_model->data(ix).toString();
            const QVariant align = m_model->data(ix, Qt::TextAlignmentRole);
            const QRect cell(x + 4, line.top(), w - 8, line.height());
            p.drawText(cell, align.isValid() ? Qt::Alignment(align.toInt()) : Qt::AlignLeft | Qt::AlignVCenter,
                       fontMetrics().elidedText(text, Qt::ElideRight, cell.width()));
        }
    }
}

void EventTableView::mousePressEvent(QMouseEvent* e)
{
    setFocus(Qt::MouseFocusReason);
    const int row = rowAt(int(e->position().y()));
    if (row >= 0)
        setCurrentRow(row);
}

void EventTableView::keyPressEvent(QKeyEvent* e)
{
    if (!m_model || m_model->rowCount() == 0)
        return QAbstractScrollArea::keyPressEvent(e);
    const int rows = m_model->rowCount();
    const int cur = m_current < 0 ? firstVisibleRow() : m_current;
    int next = cur;
    switch (e->key()) {
    case Qt::Key_Up: next = cur - 1; break;
    case Qt::Key_Down: next = m_current < 0 ? cur : cur + 1; break;
    case Qt::Key_PageUp: next = cur - visibleRows(); break;
    case Qt::Key_PageDown: next = cur + visibleRows(); break;
    case Qt::Key_Home: next = 0; break;
    case Qt::Key_End: next = rows - 1; break;
    default: return QAbstractScrollArea::keyPressEvent(e);
    }
    setCurrentRow(std::clamp(next, 0, rows - 1));
    e->accept();
}

bool EventTableView::viewportEvent(QEvent* e)
{
    if (e->type() == QEvent::ToolTip && m_model) {
        auto* help = static_cast<QHelpEvent*>(e);
        const int row = rowAt(help->pos().y());
        const int column = m_header->logicalIndexAt(help->pos().x());
        const QString tip = row >= 0 && column >= 0 ? m_model->data(m_model->index(row, column), Qt::ToolTipRole).toString() : QString();
        if (tip.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), tip, viewport());
        return true;
    }
    return QAbstractScrollArea::viewportEvent(e);
}

} // namespace hecscope
