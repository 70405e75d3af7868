#include "ui/heap/heappanel.h"

#include "ui/document/logdocument.h"
#include "ui/document/viewcontroller.h"
#include "ui/jobs/settings.h"

#include "ui/formatting.h"
#include "ui/models/tablemodels.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QApplication>
#include <QPainter>
#include <QPointer>
#include <QPixmap>
#include <QRegularExpression>
#include <QSignalBlocker>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QSpinBox>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>

namespace hecscope {

namespace {

QIcon swatch(const QColor& c)
{
    QPixmap pm(12, 12);
    pm.fill(c);
    return QIcon(pm);
}

} // namespace

// ---------------------------------------------------------------- legend

void BandLegendModel::setView(std::shared_ptr<const LogIndex> index, std::shared_ptr<const HeapView> view)
{
    const bool sameRows = m_view && view && m_view->selection == view->selection && m_index == index;
    m_index = std::move(index);
    m_view = std::move(view);
    if (sameRows) {
        // Only hidden/emphasised changed.
        if (rowCount() > 0)
            emit dataChanged(this->index(0), this->index(rowCount() - 1));
        return;
    }
    beginResetModel();
    endResetModel();
}

int BandLegendModel::rowCount(const QModelIndex& parent) const
{
    if (parent.isValid() || !m_view || !m_view->selection)
        return 0;
    return int(m_view->selection->columns());
}

QVariant BandLegendModel::data(const QModelIndex& ix, int role) const
{
    if (!ix.isValid() || !m_view)
        return {};
    const BandSelection& sel = *m_view->selection;
    const HeapBands& bands = m_index->heapBands;
    const size_t k = size_t(ix.row());
    switch (role) {
    case Qt::DisplayRole: return columnName(sel, bands, k);
    case Qt::DecorationRole: return swatch(columnColour(sel, bands, k));
    case Qt::CheckStateRole: return m_view->isHidden(k) ? Qt::Unchecked : Qt::Checked;
    case kColumnRole: return int(k);
    case Qt::FontRole:
        if (m_view->isEmphasised(k)) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    case Qt::ToolTipRole: {
        if (k >= sel.labels.size())
            return QObject::tr("%n bands outside the top %1, summed; peak %2", nullptr, int(sel.otherCount))
                .arg(sel.labels.size())
                .arg(bytesText(double(sel.columnPeak[k])));
        const BandStats& s = bands.stats[sel.labels[k]];
        return QObject::tr("%1\npeak %2 at %3\n%4, slope %5 (R² %6)")
            .arg(columnName(sel, bands, k), bytesText(double(s.peak)), timeText(s.peakTime),
                 bytesText(s.byteSeconds, QStringLiteral("·s")), bytesText(s.slope, QStringLiteral("/s")))
            .arg(s.r2, 0, 'f', 2);
    }
    default: return {};
    }
}

Qt::ItemFlags BandLegendModel::flags(const QModelIndex& ix) const
{
    return ix.isValid() ? Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsUserCheckable : Qt::NoItemFlags;
}

// ---------------------------------------------------------------- table

void BandTableModel::setIndex(std::shared_ptr<const LogIndex> index)
{
    beginResetModel();
    m_index = std::move(index);
    m_atCursor.clear();
    m_inRange.clear();
    m_cursorCensusTime.reset();
    m_trends = m_index && !m_index->heapBands.empty()
        ? bandTrendsIn(m_index->heapProfile, m_index->heapBands, 0, m_index->heapBands.times.back() + 1)
        : BandTrends{};
    endResetModel();
}

void BandTableModel::setCursor(std::optional<uint64_t> t)
{
    m_cursor = t;
    if (!m_index || m_index->heapBands.empty())
        return;
    const HeapBands& bands = m_index->heapBands;
    const auto pos = t ? bands.censusAtOrBefore(*t) : std::nullopt;
    m_atCursor = pos ? bytesAtCensus(m_index->heapProfile, bands, *pos) : std::vector<uint64_t>{};
    m_cursorCensusTime = pos ? std::optional<uint64_t>(bands.times[*pos]) : std::nullopt;
    emit headerDataChanged(Qt::Horizontal, AtCursor, AtCursor);
    if (rowCount() > 0)
        emit dataChanged(index(0, AtCursor), index(rowCount() - 1, AtCursor));
}

void BandTableModel::setRange(std::optional<ViewRange> r)
{
    if (!m_index || m_index->heapBands.empty())
        return;
    const HeapBands& bands = m_index->heapBands;
    m_inRange = r ? byteSecondsIn(m_index->heapProfile, bands, r->start, r->end) : std::vector<double>{};
    m_trends = r ? bandTrendsIn(m_index->heapProfile, bands, r->start, r->end)
                 : bandTrendsIn(m_index->heapProfile, bands, 0, bands.times.back() + 1);
    emit headerDataChanged(Qt::Horizontal, Slope, InRange);
    if (rowCount() > 0)
        emit dataChanged(index(0, Slope), index(rowCount() - 1, Trend));
}

int BandTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_index ? 0 : int(m_index->heapBands.stats.size());
}

int BandTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant BandTableModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Band: return tr("Band");
    case Peak: return tr("Peak");
    case AtCursor:
        return m_cursorCensusTime ? tr("At cursor (%1)").arg(timeText(*m_cursorCensusTime))
                                  : tr("At cursor");
    case ByteSeconds: return tr("Size (B·s)");
    case StdDev: return tr("Std dev");
    case Slope: return m_inRange.empty() ? tr("Slope (run)") : tr("Slope (selection)");
    case R2: return m_inRange.empty() ? tr("R² (run)") : tr("R² (selection)");
    case Growth: return m_inRange.empty() ? tr("Growth (run)") : tr("Growth (selection)");
    case InRange: return tr("In selection (B·s)");
    case Trend: return tr("Trend");
    }
    return {};
}

QVariant BandTableModel::data(const QModelIndex& ix, int role) const
{
    if (!ix.isValid() || !m_index)
        return {};
    const HeapBands& bands = m_index->heapBands;
    const size_t l = size_t(ix.row());
    const BandStats& s = bands.stats[l];
    const uint64_t atCursor = l < m_atCursor.size() ? m_atCursor[l] : 0;
    const bool hasRange = !m_inRange.empty();
    const BandTrend trend = l < m_trends.labels.size() ? m_trends.labels[l] : BandTrend{};
    if (role == kLabelRole)
        return int(l);
    if (role == kSparkRole && ix.column() == Trend) {
        QVector<double> v(int(s.spark.size()));
        const double peak = double(std::max<uint64_t>(1, s.peak));
        for (size_t i = 0; i < s.spark.size(); ++i)
            v[int(i)] = double(s.spark[i]) / peak;
        return QVariant::fromValue(v);
    }
    if (role == Qt::ToolTipRole) {
        QString tip = QString::fromStdString(bands.names[l]);
        const auto& stack = m_index->heapProfile.stacks;
        if (l < stack.size())
            for (uint32_t id : stack[l]) {
                const auto it = m_index->costCentres.find(id);
                if (it != m_index->costCentres.end())
                    tip += QStringLiteral("\n  %1  %2  %3")
                               .arg(QString::fromStdString(it->second.label), QString::fromStdString(it->second.module),
                                    QString::fromStdString(it->second.srcloc));
            }
        return tip;
    }
    if (role == Qt::TextAlignmentRole)
        return ix.column() == Band ? int(Qt::AlignLeft | Qt::AlignVCenter) : int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == kSortRole) {
        switch (ix.column()) {
        case Band: return QString::fromStdString(bands.names[l]);
        case Peak: return qulonglong(s.peak);
        case AtCursor: return qulonglong(atCursor);
        case ByteSeconds: return s.byteSeconds;
        case StdDev: return s.stddev;
        case Slope: return trend.slope;
        case R2: return trend.r2;
        case Growth: return qlonglong(trend.growth);
        case InRange: return hasRange ? m_inRange[l] : 0.0;
        case Trend: return trend.slope;
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (ix.column()) {
    case Band: return QString::fromStdString(bands.names[l]);
    case Peak: return bytesText(double(s.peak));
    case AtCursor: return m_atCursor.empty() ? QString() : bytesText(double(atCursor));
    case ByteSeconds: return bytesText(s.byteSeconds, QStringLiteral("·s"));
    case StdDev: return bytesText(s.stddev);
    case Slope: return m_trends.censuses < 2 ? tr("< 2 censuses") : bytesText(trend.slope, QStringLiteral("/s"));
    case R2: return m_trends.censuses < 2 ? QString() : QString::number(trend.r2, 'f', 3);
    case Growth:
        return m_trends.censuses < 2 ? QString()
                                     : (trend.growth > 0 ? QStringLiteral("+") : QString()) + bytesText(double(trend.growth));
    case InRange: return hasRange ? bytesText(m_inRange[l], QStringLiteral("·s")) : QString();
    }
    return {};
}

void SparklineDelegate::paint(QPainter* p, const QStyleOptionViewItem& option, const QModelIndex& ix) const
{
    QStyledItemDelegate::paint(p, option, ix);
    const QVector<double> v = ix.data(BandTableModel::kSparkRole).value<QVector<double>>();
    if (v.size() < 2)
        return;
    const QRectF r = QRectF(option.rect).adjusted(3, 3, -3, -3);
    QPolygonF line;
    for (int i = 0; i < v.size(); ++i)
        line << QPointF(r.left() + r.width() * i / (v.size() - 1), r.bottom() - r.height() * v[i]);
    p->save();
    p->setRenderHint(QPainter::Antialiasing);
    p->setPen(QPen(option.state & QStyle::State_Selected ? option.palette.color(QPalette::HighlightedText)
                                                         : option.palette.color(QPalette::Text),
                   1));
    p->drawPolyline(line);
    p->restore();
}

// ---------------------------------------------------------------- panel

HeapPanel::HeapPanel(QWidget* parent)
    : QWidget(parent)
    , m_bands(new QSpinBox)
    , m_order(new QComboBox)
    , m_reverse(new QCheckBox(tr("Reverse")))
    , m_mode(new QComboBox)
    , m_filter(new QLineEdit)
    , m_regex(new QCheckBox(tr("Regex")))
    , m_legend(new QListView)
    , m_model(new BandLegendModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
{
    m_bands->setRange(0, 100000);
    m_bands->setValue(int(kDefaultBands));
    m_bands->setSpecialValueText(tr("all"));
    m_bands->setToolTip(tr("Bands shown, by size; the rest are summed into OTHER (0 = all)"));
    const QString orders[] = {tr("Size"), tr("Standard deviation"), tr("Name"), tr("Natural (numbers by value)"),
                              tr("Growth (slope)")};
    for (BandOrder o : kBandOrders)
        m_order->addItem(orders[int(o)], int(o));
    for (HeapChartMode m : {HeapChartMode::Stacked, HeapChartMode::Normalised, HeapChartMode::Lines})
        m_mode->addItem(heapChartModeName(m), int(m));
    m_filter->setPlaceholderText(tr("Filter bands"));
    m_filter->setClearButtonEnabled(true);
    m_proxy->setSourceModel(m_model);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_legend->setModel(m_proxy);
    m_legend->setMouseTracking(true);
    m_legend->viewport()->installEventFilter(this);
    m_legend->setUniformItemSizes(true);

    auto* form = new QFormLayout;
    auto* bandsRow = new QHBoxLayout;
    bandsRow->addWidget(m_bands);
    bandsRow->addWidget(m_reverse);
    form->addRow(tr("Bands"), bandsRow);
    form->addRow(tr("Order"), m_order);
    form->addRow(tr("Chart"), m_mode);
    auto* filterRow = new QHBoxLayout;
    filterRow->addWidget(m_filter, 1);
    filterRow->addWidget(m_regex);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(form);
    layout->addLayout(filterRow);
    layout->addWidget(m_legend, 1);
    auto* hint = new QLabel(tr("Click a band to hide or show it; hover to pick it out."));
    hint->setWordWrap(true);
    layout->addWidget(hint);

    // The band choices persist between sessions. The chart mode does not:
    // it changes what the value axis means (MB, % of each census, % of each
    // band's peak), and a file read in a mode chosen for another is misread.
    m_bands->setValue(Settings::value(QStringLiteral("heap/bands"), int(kDefaultBands)).toInt());
    m_order->setCurrentIndex(std::max(0, m_order->findData(Settings::value(QStringLiteral("heap/order"), 0).toInt())));
    m_reverse->setChecked(Settings::value(QStringLiteral("heap/reverse"), false).toBool());
    m_regex->setChecked(Settings::value(QStringLiteral("heap/regex"), false).toBool());
    auto save = [this] {
        Settings::setValue(QStringLiteral("heap/bands"), m_bands->value());
        Settings::setValue(QStringLiteral("heap/order"), m_order->currentData());
        Settings::setValue(QStringLiteral("heap/reverse"), m_reverse->isChecked());
        Settings::setValue(QStringLiteral("heap/regex"), m_regex->isChecked());
    };
    for (QObject* control : std::initializer_list<QObject*>{m_bands, m_order, m_reverse, m_regex}) {
        if (auto* spin = qobject_cast<QSpinBox*>(control))
            connect(spin, &QSpinBox::valueChanged, this, save);
        else if (auto* combo = qobject_cast<QComboBox*>(control))
            connect(combo, &QComboBox::currentIndexChanged, this, save);
        else if (auto* box = qobject_cast<QCheckBox*>(control))
            connect(box, &QCheckBox::toggled, this, save);
    }

    connect(m_bands, &QSpinBox::valueChanged, this, &HeapPanel::reselect);
    connect(m_order, &QComboBox::currentIndexChanged, this, &HeapPanel::reselect);
    connect(m_reverse, &QCheckBox::toggled, this, &HeapPanel::reselect);
    connect(m_mode, &QComboBox::currentIndexChanged, this, &HeapPanel::refresh);
    connect(m_filter, &QLineEdit::textChanged, this, &HeapPanel::applyFilter);
    connect(m_regex, &QCheckBox::toggled, this, &HeapPanel::applyFilter);
    connect(m_legend, &QListView::clicked, this, [this](const QModelIndex& ix) { toggleRow(ix.row()); });
    connect(m_legend, &QListView::entered, this,
            [this](const QModelIndex& ix) { emphasiseColumn(ix.data(BandLegendModel::kColumnRole).toInt()); });
}

void HeapPanel::setIndex(std::shared_ptr<const LogIndex> index)
{
    m_index = std::move(index);
    m_view.reset();
    m_selection.reset();
    m_hiddenLabels.clear();
    m_hideOther = false;
    m_chosen.clear();
    m_hover.reset();
    m_model->setView(m_index, nullptr);
    emit viewChanged(nullptr); // the old index's bands are gone
    reselect();
}

void HeapPanel::resetChartMode()
{
    m_mode->setCurrentIndex(m_mode->findData(int(HeapChartMode::Stacked)));
}

void HeapPanel::reselect()
{
    m_selector.cancel(); // results of earlier requests are dropped
    if (!m_index || m_index->heapBands.empty()) {
        m_selecting = false;
        m_view.reset();
        m_selection.reset();
        m_model->setView(m_index, nullptr);
        emit viewChanged(nullptr);
        return;
    }
    const size_t n = size_t(m_bands->value());
    const BandOrder order = BandOrder(m_order->currentData().toInt());
    const bool reversed = m_reverse->isChecked();
    const auto& ready = m_index->defaultBands; // computed while loading
    if (ready && ready->n == n && ready->order == order && ready->reversed == reversed)
        return adopt(ready);
    // A small profile is selected at once (a few milliseconds); a big one
    // on a worker thread, the chart keeping the previous bands meanwhile.
    if (m_index->heapProfile.samples.size() < kSelectInline)
        return adopt(std::make_shared<const BandSelection>(
            selectBands(m_index->heapProfile, m_index->heapBands, n, order, reversed)));
    m_selecting = true;
    m_selector.start(
        [index = m_index, n, order, reversed](const JobContext&) {
            return std::make_shared<const BandSelection>(
                selectBands(index->heapProfile, index->heapBands, n, order, reversed));
        },
        [this](std::shared_ptr<const BandSelection> sel) { adopt(std::move(sel)); });
}

void HeapPanel::adopt(std::shared_ptr<const BandSelection> selection)
{
    m_selecting = false;
    m_selection = std::move(selection);
    m_hover.reset(); // columns mean other bands now
    refresh();
}

// The view from the state: hidden bands (by label, OTHER by being OTHER)
// and emphasis (the legend row under the pointer, else the bands chosen in
// the table, tree or chart) survive new selections.
void HeapPanel::refresh()
{
    if (!m_selection)
        return;
    auto v = std::make_shared<HeapView>();
    v->indexSerial = m_index->serial;
    v->mode = HeapChartMode(m_mode->currentData().toInt());
    v->selection = m_selection;
    const BandSelection& sel = *m_selection;
    v->hidden.assign(sel.columns(), 0);
    for (size_t k = 0; k < sel.labels.size(); ++k)
        v->hidden[k] = m_hiddenLabels.count(sel.labels[k]) ? 1 : 0;
    if (sel.other)
        v->hidden.back() = m_hideOther ? 1 : 0;
    if (m_hover) {
        v->emphasised.assign(sel.columns(), 0);
        if (*m_hover < sel.columns())
            v->emphasised[*m_hover] = 1;
    } else if (!m_chosen.empty()) {
        v->emphasised.assign(sel.columns(), 0);
        for (uint32_t l : m_chosen)
            if (const auto k = sel.columnOf(l))
                v->emphasised[*k] = 1;
    }
    if (m_view && m_view->selection == v->selection && m_view->mode == v->mode && m_view->hidden == v->hidden
        && m_view->emphasised == v->emphasised)
        return; // nothing to redraw
    publish(v);
}

void HeapPanel::publish(std::shared_ptr<HeapView> view)
{
    m_view = std::move(view);
    m_model->setView(m_index, m_view);
    emit viewChanged(m_view);
}

void HeapPanel::applyFilter()
{
    const QString text = m_filter->text();
    if (m_regex->isChecked()) {
        QRegularExpression re(text, QRegularExpression::CaseInsensitiveOption);
        m_filter->setStyleSheet(re.isValid() ? QString() : QStringLiteral("color:#c0392b"));
        m_filter->setToolTip(re.isValid() ? QString() : re.errorString());
        if (re.isValid())
            m_proxy->setFilterRegularExpression(re);
    } else {
        m_filter->setStyleSheet(QString());
        m_filter->setToolTip(QString());
        m_proxy->setFilterFixedString(text);
    }
}

void HeapPanel::toggleRow(int row)
{
    if (!m_selection || row < 0 || row >= m_proxy->rowCount())
        return;
    const size_t column = size_t(m_proxy->index(row, 0).data(BandLegendModel::kColumnRole).toInt());
    if (column < m_selection->labels.size()) {
        const uint32_t label = m_selection->labels[column];
        if (!m_hiddenLabels.erase(label))
            m_hiddenLabels.insert(label);
    } else {
        m_hideOther = !m_hideOther;
    }
    refresh();
}

void HeapPanel::emphasiseColumn(int column)
{
    m_hover = column >= 0 ? std::optional<size_t>(size_t(column)) : std::nullopt;
    refresh();
}

void HeapPanel::emphasiseLabels(const std::vector<uint32_t>& labels)
{
    m_chosen = labels;
    refresh();
}

bool HeapPanel::eventFilter(QObject* watched, QEvent* e)
{
    if (watched == m_legend->viewport() && e->type() == QEvent::Leave)
        emphasiseColumn(-1);
    return QWidget::eventFilter(watched, e);
}

// ---------------------------------------------------------------- cost centres

CostCentreTree::CostCentreTree(QWidget* parent)
    : QWidget(parent)
    , m_tree(new QTreeWidget)
{
    m_tree->setColumnCount(4);
    m_tree->setHeaderLabels({tr("Cost centre"), tr("Size, inclusive"), tr("Module"), tr("Source")});
    m_tree->setSortingEnabled(true);
    m_tree->setUniformRowHeights(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_tree);
    connect(m_tree, &QTreeWidget::itemSelectionChanged, this, [this] {
        std::vector<uint32_t> labels;
        for (QTreeWidgetItem* item : m_tree->selectedItems())
            for (const QVariant& l : item->data(0, Qt::UserRole).toList())
                labels.push_back(l.toUInt());
        emit labelsChosen(labels);
    });
}

void CostCentreTree::selectLabel(uint32_t label)
{
    if (!m_index || label >= m_index->heapProfile.stacks.size())
        return;
    const auto& stack = m_index->heapProfile.stacks[label];
    QTreeWidgetItem* item = nullptr;
    for (auto it = stack.rbegin(); it != stack.rend(); ++it) {
        QTreeWidgetItem* next = nullptr;
        const int n = item ? item->childCount() : m_tree->topLevelItemCount();
        for (int i = 0; i < n && !next; ++i) {
            QTreeWidgetItem* child = item ? item->child(i) : m_tree->topLevelItem(i);
            if (child->data(0, Qt::UserRole + 1).toUInt() == *it)
                next = child;
        }
        if (!next)
            return;
        item = next;
    }
    if (!item)
        return;
    const QSignalBlocker block(m_tree);
    m_tree->setCurrentItem(item);
    m_tree->scrollToItem(item);
    m_tree->viewport()->update();
}

void CostCentreTree::setIndex(std::shared_ptr<const LogIndex> index)
{
    m_index = index;
    m_tree->clear();
    if (!index)
        return;
    const HeapProfileData& hp = index->heapProfile;
    const HeapBands& bands = index->heapBands;
    // Outermost cost centre first: the stacks are stored innermost first.
    struct Node {
        std::map<uint32_t, Node> children;
        double byteSeconds = 0;
        QVariantList labels;
    };
    Node root;
    bool any = false;
    for (size_t l = 0; l < hp.stacks.size() && l < bands.stats.size(); ++l) {
        const auto& stack = hp.stacks[l];
        if (stack.empty())
            continue;
        any = true;
        Node* node = &root;
        for (auto it = stack.rbegin(); it != stack.rend(); ++it) {
            node = &node->children[*it];
            node->byteSeconds += bands.stats[l].byteSeconds;
            node->labels.push_back(uint(l));
        }
    }
    if (!any) {
        auto* item = new QTreeWidgetItem(m_tree, {tr("No cost-centre stacks: this view is for -hc heap profiles.")});
        item->setFlags(Qt::NoItemFlags);
        return;
    }
    // Sizes read as units ("1.2 MB·s") and sort by their value.
    struct SizeItem final : QTreeWidgetItem {
        using QTreeWidgetItem::QTreeWidgetItem;
        bool operator<(const QTreeWidgetItem& other) const override
        {
            const int column = treeWidget() ? treeWidget()->sortColumn() : 0;
            if (column != 1)
                return QTreeWidgetItem::operator<(other);
            return data(1, Qt::UserRole).toDouble() < other.data(1, Qt::UserRole).toDouble();
        }
    };
    std::function<void(const Node&, QTreeWidgetItem*)> add = [&](const Node& n, QTreeWidgetItem* parentItem) {
        for (const auto& [id, child] : n.children) {
            const auto cc = index->costCentres.find(id);
            QStringList cols{cc != index->costCentres.end() ? QString::fromStdString(cc->second.label) : QStringLiteral("cc%1").arg(id),
                             bytesText(child.byteSeconds, QStringLiteral("·s")),
                             cc != index->costCentres.end() ? QString::fromStdString(cc->second.module) : QString(),
                             cc != index->costCentres.end() ? QString::fromStdString(cc->second.srcloc) : QString()};
            auto* item = parentItem ? new SizeItem(parentItem, cols) : new SizeItem(m_tree, cols);
            item->setData(0, Qt::UserRole, child.labels);
            item->setData(0, Qt::UserRole + 1, id);
            item->setData(1, Qt::UserRole, child.byteSeconds);
            item->setTextAlignment(1, Qt::AlignRight | Qt::AlignVCenter);
            add(child, item);
        }
    };
    add(root, nullptr);
    m_tree->sortByColumn(1, Qt::DescendingOrder);
    m_tree->expandToDepth(1);
    m_tree->resizeColumnToContents(0);
}

void BandTableModel::follow(const LogDocument* doc, const ViewController* view)
{
    connect(doc, &LogDocument::cleared, this, [this] { setIndex(nullptr); });
    connect(doc, &LogDocument::indexChanged, this, [this, view](const IndexChange& c) {
        // A new log's timeline has no cursor; a grown one keeps it.
        const std::optional<uint64_t> cursor = c.grown ? m_cursor : std::nullopt;
        setIndex(c.index);
        setCursor(cursor);
        setRange(view->selection());
    });
}

void HeapPanel::follow(const LogDocument* doc)
{
    connect(doc, &LogDocument::cleared, this, [this](const QString&, bool sameFile) {
        setIndex(nullptr);
        if (!sameFile)
            resetChartMode();
    });
    connect(doc, &LogDocument::indexChanged, this, [this](const IndexChange& c) { setIndex(c.index); });
}

void CostCentreTree::follow(const LogDocument* doc)
{
    connect(doc, &LogDocument::cleared, this, [this] { setIndex(nullptr); });
    connect(doc, &LogDocument::indexChanged, this, [this](const IndexChange& c) { setIndex(c.index); });
}

void setUpBandTable(QTableView* table, BandTableModel* model, HeapPanel* panel, CostCentreTree* tree)
{
    setUpTable(table, model);
    table->sortByColumn(BandTableModel::ByteSeconds, Qt::DescendingOrder);
    table->setItemDelegateForColumn(BandTableModel::Trend, new SparklineDelegate(table));
    table->horizontalHeader()->setSectionResizeMode(BandTableModel::Band, QHeaderView::Interactive);
    table->setColumnWidth(BandTableModel::Band, 260);
    table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    QObject::connect(table->selectionModel(), &QItemSelectionModel::selectionChanged, panel, [table, panel] {
        std::vector<uint32_t> labels;
        for (const QModelIndex& ix : table->selectionModel()->selectedRows())
            labels.push_back(uint32_t(ix.data(BandTableModel::kLabelRole).toUInt()));
        panel->emphasiseLabels(labels);
    });
    QObject::connect(tree, &CostCentreTree::labelsChosen, panel, &HeapPanel::emphasiseLabels);
}

void showBand(QTableView* table, CostCentreTree* tree, uint32_t label)
{
    QAbstractItemModel* model = table->model();
    const QModelIndexList hits = model->match(model->index(0, 0), BandTableModel::kLabelRole, int(label), 1, Qt::MatchExactly);
    if (!hits.isEmpty()) {
        table->selectRow(hits.first().row());
        table->scrollTo(hits.first());
    }
    tree->selectLabel(label);
}

} // namespace hecscope
