#include "ui/profile/flamegraphview.h"

#include "ui/formatting.h"

#include <QApplication>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QLabel>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QStyle>
#include <QScrollArea>
#include <QScrollBar>
#include <QTimer>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>

#include <utility>

namespace hecscope {
namespace {

QString frameLabel(const CostCentreProfile& p, uint32_t node)
{
    const uint32_t cc = p.nodes[node].cc;
    return cc == kNoCostCentre ? QObject::tr("all") : QString::fromStdString(p.costCentres[cc].label);
}

} // namespace

// The painted part: replays the view's layout, turns mouse and keys into
// zooms, tooltips and the frame menu.
class FlameGraphView::Canvas : public QWidget {
public:
    explicit Canvas(FlameGraphView* view)
        : QWidget(view)
        , m_view(view)
    {
        setMouseTracking(true);
        setFocusPolicy(Qt::StrongFocus);
        setAttribute(Qt::WA_OpaquePaintEvent);
    }
    int frameAt(QPoint pos) const
    {
        return flameFrameAt(rect(), m_view->m_layout, m_view->paintOptions(), pos);
    }

protected:
    void paintEvent(QPaintEvent*) override
    {
        QPainter p(this);
        const QColor base = palette().color(QPalette::Base);
        if (!m_view->m_profile || m_view->m_layout.frames.empty()) {
            p.fillRect(rect(), base);
            p.setPen(palette().color(QPalette::PlaceholderText));
            p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap, m_view->m_emptyText);
            return;
        }
        paintFlame(p, rect(), *m_view->m_profile, m_view->m_layout, m_view->paintOptions());
    }
    void mousePressEvent(QMouseEvent* e) override
    {
        m_pressAt = e->position().toPoint();
        QWidget::mousePressEvent(e);
    }
    void mouseReleaseEvent(QMouseEvent* e) override
    {
        const QPoint at = e->position().toPoint();
        if (std::exchange(m_afterDoubleClick, false))
            return; // the second click of a double click zooms no further
        if (e->button() == Qt::LeftButton && (at - m_pressAt).manhattanLength() <= QApplication::startDragDistance())
            if (const int frame = frameAt(at); frame >= 0)
                m_view->frameClicked(frame);
    }
    void mouseDoubleClickEvent(QMouseEvent* e) override
    {
        m_afterDoubleClick = true;
        if (e->button() == Qt::LeftButton && frameAt(e->position().toPoint()) < 0)
            m_view->resetZoom();
    }
    void mouseMoveEvent(QMouseEvent* e) override
    {
        const int frame = frameAt(e->position().toPoint());
        const uint32_t hovered = frame < 0 ? UINT32_MAX : uint32_t(frame);
        if (hovered != m_view->m_hovered) {
            m_view->m_hovered = hovered;
            update();
        }
    }
    void leaveEvent(QEvent*) override
    {
        if (m_view->m_hovered != UINT32_MAX) {
            m_view->m_hovered = UINT32_MAX;
            update();
        }
    }
    bool event(QEvent* e) override
    {
        if (e->type() == QEvent::ToolTip) {
            auto* help = static_cast<QHelpEvent*>(e);
            const int frame = frameAt(help->pos());
            if (frame >= 0)
                QToolTip::showText(help->globalPos(), m_view->describe(m_view->m_layout.frames[size_t(frame)].node), this);
            else
                QToolTip::hideText();
            return true;
        }
        return QWidget::event(e);
    }
    void contextMenuEvent(QContextMenuEvent* e) override
    {
        const int frame = frameAt(e->pos());
        if (frame < 0)
            return;
        QMenu* menu = m_view->frameMenu(m_view->m_layout.frames[size_t(frame)].node, this);
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->popup(e->globalPos());
    }
    void keyPressEvent(QKeyEvent* e) override
    {
        if (e->key() == Qt::Key_Backspace || e->key() == Qt::Key_Escape)
            m_view->zoomOut();
        else
            QWidget::keyPressEvent(e);
    }

private:
    FlameGraphView* m_view;
    QPoint m_pressAt;
    bool m_afterDoubleClick = false;
};

FlameGraphView::FlameGraphView(QWidget* parent)
    : QWidget(parent)
    , m_emptyText(tr("No cost-centre samples in this range"))
{
    m_back = new QToolButton(this);
    m_back->setIcon(style()->standardIcon(QStyle::SP_ArrowBack));
    m_back->setText(tr("Back"));
    m_back->setToolTip(tr("Zoom out one level (Backspace)"));
    m_back->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_back->setAutoRaise(true);
    m_crumbs = new QLabel(this);
    m_crumbs->setTextFormat(Qt::RichText);
    m_crumbs->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_crumbs->setTextInteractionFlags(Qt::LinksAccessibleByMouse);
    m_canvas = new Canvas(this);
    // A stack deeper than the pane scrolls rather than losing its frames
    // (the innermost, the ones a user looks for, are the ones a clip drops).
    m_scroll = new QScrollArea(this);
    m_scroll->setWidget(m_canvas);
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(2, 0, 2, 0);
    bar->addWidget(m_back);
    bar->addWidget(m_crumbs, 1);
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(2);
    column->addLayout(bar);
    column->addWidget(m_scroll, 1);
    connect(m_back, &QToolButton::clicked, this, &FlameGraphView::zoomOut);
    connect(m_crumbs, &QLabel::linkActivated, this, [this](const QString& link) { zoomTo(link.toUInt()); });
    updateBreadcrumb();
}

FlameGraphView::~FlameGraphView() = default;

QWidget* FlameGraphView::canvas() const
{
    return m_canvas;
}

std::vector<uint32_t> FlameGraphView::focusPath() const
{
    return m_profile ? costCentrePath(*m_profile, m_layout.focus) : std::vector<uint32_t>{};
}

void FlameGraphView::setProfile(std::shared_ptr<const CostCentreProfile> profile, ProfileMetric metric,
                                std::optional<FlameLayout> layout)
{
    if (profile == m_profile && metric == m_metric)
        return; // the layout stands
    std::vector<uint32_t> focusPath, chosenPath;
    if (m_profile) {
        focusPath = costCentrePath(*m_profile, m_layout.focus);
        if (m_chosen < m_profile->nodes.size())
            chosenPath = costCentrePath(*m_profile, m_chosen);
    }
    m_profile = std::move(profile);
    m_metric = metric;
    m_colours.clear();
    m_note = nullptr;
    m_chosen = UINT32_MAX;
    uint32_t focus = 0;
    if (m_profile && !m_profile->nodes.empty()) {
        focus = nodeAtPath(*m_profile, focusPath);
        if (m_profile->nodes[focus].incl[int(metric)] == 0)
            focus = 0;
        if (!chosenPath.empty())
            if (const uint32_t chosen = nodeAtPath(*m_profile, chosenPath))
                m_chosen = chosen;
    }
    updateSearch();
    if (layout && layout->focus == focus && layout->metric == metric && m_profile)
        showLayout(std::move(*layout));
    else
        relayout(focus);
}

// Tall enough for every row of the layout; the flame's root row (at the
// bottom) or the icicle's (at the top) in sight.
void FlameGraphView::fitCanvas()
{
    const int rowHeight = paintOptions().rowHeight;
    m_canvas->setMinimumHeight(m_layout.frames.empty() ? 0 : int(m_layout.maxDepth + 2) * rowHeight);
    QScrollBar* bar = m_scroll->verticalScrollBar();
    QTimer::singleShot(0, this, [this, bar] { bar->setValue(m_icicle ? bar->minimum() : bar->maximum()); });
}

void FlameGraphView::setIcicle(bool icicle)
{
    if (icicle == m_icicle)
        return;
    m_icicle = icicle;
    fitCanvas();
    m_hovered = UINT32_MAX;
    m_canvas->update();
}

void FlameGraphView::setSearch(const QRegularExpression& pattern)
{
    m_pattern = pattern;
    updateSearch();
    m_canvas->update();
}

void FlameGraphView::setEmptyText(const QString& text)
{
    m_emptyText = text;
    m_canvas->update();
}

void FlameGraphView::updateSearch()
{
    m_search.reset();
    if (m_pattern.pattern().isEmpty()) {
        emit searchResult(QString());
        return;
    }
    if (!m_pattern.isValid()) {
        emit searchResult(tr("Invalid pattern: %1").arg(m_pattern.errorString()));
        return;
    }
    if (!m_profile || m_profile->nodes.empty()) {
        emit searchResult(QString());
        return;
    }
    m_search = searchProfile(*m_profile, m_metric, [&](const ProfileCostCentre& cc) {
        return m_pattern.match(QString::fromStdString(cc.label)).hasMatch()
            || m_pattern.match(QString::fromStdString(cc.module)).hasMatch();
    });
    emit searchResult(shareText());
}

QString FlameGraphView::shareText() const
{
    const SearchResult& r = *m_search;
    const QString unit = m_profile->unit[int(m_metric)] == ProfileUnit::PercentTenths
        ? (m_metric == ProfileMetric::Time ? tr("time") : tr("allocation"))
        : QString::fromStdString(profileUnitName(*m_profile, m_metric));
    const QString share = percentText(r.matched, r.total);
    if (r.matchingCostCentres == 1)
        return tr("1 cost centre matches: %1 of %2").arg(share, unit);
    return tr("%1 cost centres match: %2 of %3").arg(r.matchingCostCentres).arg(share, unit);
}

void FlameGraphView::relayout(uint32_t focus)
{
    showLayout(m_profile && focus < m_profile->nodes.size() ? layoutFlame(*m_profile, focus, m_metric) : FlameLayout{});
}

void FlameGraphView::showLayout(FlameLayout layout)
{
    m_layout = std::move(layout);
    fitCanvas();
    m_hovered = UINT32_MAX;
    updateBreadcrumb();
    m_canvas->update();
}

void FlameGraphView::zoomTo(uint32_t node)
{
    if (!m_profile || node >= m_profile->nodes.size() || node == m_layout.focus
        || m_profile->nodes[node].incl[int(m_metric)] == 0)
        return;
    relayout(node);
}

void FlameGraphView::zoomOut()
{
    if (m_profile && m_layout.focus != 0 && m_layout.focus < m_profile->nodes.size())
        relayout(m_profile->nodes[m_layout.focus].parent);
}

void FlameGraphView::resetZoom()
{
    if (m_layout.focus != 0)
        relayout(0);
}

void FlameGraphView::frameClicked(int frame)
{
    const uint32_t node = m_layout.frames[size_t(frame)].node;
    m_chosen = node;
    emit frameChosen(node);
    zoomTo(node);
    m_canvas->update();
}

std::vector<uint32_t> FlameGraphView::breadcrumb() const
{
    if (!m_profile || m_profile->nodes.empty())
        return {};
    std::vector<uint32_t> path{0};
    for (uint32_t n : stackOf(*m_profile, m_layout.focus))
        path.push_back(n);
    return path;
}

void FlameGraphView::updateBreadcrumb()
{
    const std::vector<uint32_t> path = breadcrumb();
    m_back->setEnabled(path.size() > 1);
    if (path.empty()) {
        m_crumbs->clear();
        return;
    }
    // From the focus back towards the root while it fits; the root always.
    const QFontMetrics fm(m_crumbs->font());
    const QString sep = QStringLiteral(" › ");
    const int room = std::max(100, m_crumbs->width() - fm.horizontalAdvance(sep + QStringLiteral("…")));
    int used = fm.horizontalAdvance(frameLabel(*m_profile, 0));
    size_t first = path.size();
    while (first > 1) {
        const int w = fm.horizontalAdvance(sep + frameLabel(*m_profile, path[first - 1]));
        if (used + w > room && first < path.size())
            break;
        used += w;
        --first;
    }
    auto crumb = [&](uint32_t node) {
        const QString label = frameLabel(*m_profile, node).toHtmlEscaped();
        return node == m_layout.focus ? QStringLiteral("<b>%1</b>").arg(label)
                                      : QStringLiteral("<a href=\"%1\">%2</a>").arg(node).arg(label);
    };
    QString html = crumb(0);
    if (first > 1)
        html += sep + QStringLiteral("…");
    for (size_t k = first; k < path.size(); ++k)
        html += sep + crumb(path[k]);
    m_crumbs->setText(html);
}

void FlameGraphView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    updateBreadcrumb();
}

void FlameGraphView::setFrameColours(std::vector<QRgb> colours, std::function<QString(uint32_t)> note)
{
    m_colours = std::move(colours);
    m_note = std::move(note);
    m_canvas->update();
}

FlamePaintOptions FlameGraphView::paintOptions() const
{
    FlamePaintOptions o;
    o.icicle = m_icicle;
    o.highlight = m_search ? &m_search->matches : nullptr;
    o.nodeColours = m_colours.empty() ? nullptr : &m_colours;
    o.hoveredFrame = m_hovered;
    o.chosenNode = m_chosen;
    o.rowHeight = std::max(16, QFontMetrics(m_canvas->font()).height() + 4);
    o.background = m_canvas->palette().color(QPalette::Base);
    return o;
}

QString FlameGraphView::describe(uint32_t node) const
{
    if (!m_profile || node >= m_profile->nodes.size())
        return {};
    const CostCentreProfile& p = *m_profile;
    const ProfileNode& n = p.nodes[node];
    const int m = int(m_metric);
    QString text = QStringLiteral("<b>%1</b>").arg(frameLabel(p, node).toHtmlEscaped());
    if (n.cc != kNoCostCentre) {
        const ProfileCostCentre& cc = p.costCentres[n.cc];
        if (!cc.module.empty())
            text += QStringLiteral("<br>%1").arg(QString::fromStdString(cc.module).toHtmlEscaped());
        if (!cc.srcLoc.empty())
            text += QStringLiteral("<br>%1").arg(QString::fromStdString(cc.srcLoc).toHtmlEscaped());
    }
    const uint64_t total = p.total(m_metric);
    auto figure = [&](const QString& name, uint64_t v) {
        const QString value = QString::fromStdString(formatProfileValue(p, m_metric, v));
        if (p.unit[m] == ProfileUnit::PercentTenths) // already a share of the run: no second one
            return QStringLiteral("<br>%1: %2").arg(name, value);
        return QStringLiteral("<br>%1: %2 (%3)").arg(name, value, percentText(v, total));
    };
    text += figure(tr("Inclusive"), n.incl[m]);
    text += figure(tr("Self"), n.self[m]);
    if (p.hasEntries)
        text += QStringLiteral("<br>%1: %2").arg(tr("Entries"), countText(n.entries));
    if (m_note)
        text += m_note(node);
    return text;
}

QString FlameGraphView::stackText(uint32_t node) const
{
    if (!m_profile || node >= m_profile->nodes.size())
        return {};
    QStringList frames;
    for (uint32_t n : stackOf(*m_profile, node))
        frames << frameLabel(*m_profile, n);
    return frames.join(QLatin1Char(';'));
}

QMenu* FlameGraphView::frameMenu(uint32_t node, QWidget* parent)
{
    auto* menu = new QMenu(parent);
    auto add = [&](const QString& text, bool enabled, auto&& run) {
        QAction* a = menu->addAction(text);
        a->setEnabled(enabled);
        connect(a, &QAction::triggered, this, run);
    };
    const uint32_t cc = m_profile && node < m_profile->nodes.size() ? m_profile->nodes[node].cc : kNoCostCentre;
    add(tr("Zoom in"), node != m_layout.focus, [this, node] { zoomTo(node); });
    add(tr("Show callers and callees"), cc != kNoCostCentre, [this, cc] { emit sandwichRequested(cc); });
    add(tr("Copy stack"), node != 0, [this, node] { QApplication::clipboard()->setText(stackText(node)); });
    return menu;
}

} // namespace hecscope
