#include "ui/threads/spanspane.h"

#include "ui/document/logdocument.h"
#include "ui/document/viewcontroller.h"

#include "ui/threads/tablehelpers.h"

#include "ui/formatting.h"
#include "ui/models/tablemodels.h"
#include "ui/threads/threadrows.h"
#include "ui/threads/threadrowscontroller.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <numeric>

namespace hecscope {

using namespace tables;

// --- SpanNamesModel ---

void SpanNamesModel::setFigures(std::shared_ptr<const UserSpans> spans, std::vector<SpanNameFigures> figures)
{
    beginResetModel();
    m_spans = std::move(spans);
    m_figures = std::move(figures);
    endResetModel();
    sort(m_sortColumn, m_sortOrder);
}

int SpanNamesModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_figures.size());
}

int SpanNamesModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

uint64_t SpanNamesModel::value(const SpanNameFigures& f, int column) const
{
    switch (column) {
    case Count: return f.count;
    case Total: return f.total;
    case Self: return f.self;
    case Mean: return f.mean;
    case P50: return f.p50;
    case P95: return f.p95;
    case Max: return f.max;
    case Open: return f.open;
    default: return 0;
    }
}

QVariant SpanNamesModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || size_t(index.row()) >= m_figures.size() || !m_spans)
        return {};
    const SpanNameFigures& f = m_figures[size_t(index.row())];
    const int c = index.column();
    if (role == kNameRole)
        return uint(f.name);
    if (role == kSortRole)
        return c == Name ? QVariant(QString::fromStdString(m_spans->names[f.name])) : QVariant(qulonglong(value(f, c)));
    if (role == Qt::TextAlignmentRole)
        return c == Name ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole)
        return {};
    switch (c) {
    case Name: return QString::fromStdString(m_spans->names[f.name]);
    case Count:
    case Open: return countText(value(f, c));
    default: return f.count ? durationText(value(f, c)) : QString(); // never stopped: no durations
    }
}

QVariant SpanNamesModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal)
        return {};
    static const char* const names[ColumnCount] = {QT_TR_NOOP("Name"), QT_TR_NOOP("Count"), QT_TR_NOOP("Total"),
                                                   QT_TR_NOOP("Self"), QT_TR_NOOP("Mean"),  QT_TR_NOOP("Median"),
                                                   QT_TR_NOOP("p95"),  QT_TR_NOOP("Max"),   QT_TR_NOOP("Never stopped")};
    if (role == Qt::DisplayRole && section >= 0 && section < ColumnCount)
        return tr(names[section]);
    if (role == Qt::ToolTipRole) {
        if (section == Count)
            return tr("Spans stopped: the other figures are theirs");
        if (section == Self)
            return tr("Total minus the time of spans nested inside (on the same thread)");
        if (section == Open)
            return tr("Spans never stopped (a START without a STOP): their end is unknown, so they are left out "
                      "of the other figures; the timeline draws them to the end of the log");
        if (section == P95 || section == P50)
            return tr("Nearest-rank percentile of the spans' durations");
    }
    return {};
}

void SpanNamesModel::sort(int column, Qt::SortOrder order)
{
    m_sortColumn = column;
    m_sortOrder = order;
    emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    std::vector<uint32_t> rows(m_figures.size());
    std::iota(rows.begin(), rows.end(), 0u);
    if (column == Name && m_spans)
        sortRows(rows, order, [&](uint32_t i) { return m_spans->names[m_figures[i].name]; });
    else
        sortRows(rows, order, [&](uint32_t i) { return value(m_figures[i], column); });
    std::vector<SpanNameFigures> sorted;
    sorted.reserve(rows.size());
    for (uint32_t r : rows)
        sorted.push_back(m_figures[r]);
    m_figures = std::move(sorted);
    const QModelIndexList before = persistentIndexList();
    changePersistentIndexList(before, movedIndexes(*this, before, inverse(rows)));
    emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

// --- SpanOccurrencesModel ---

void SpanOccurrencesModel::setSpans(std::shared_ptr<const LogIndex> index, std::shared_ptr<const UserSpans> spans,
                                    std::vector<uint32_t> members)
{
    beginResetModel();
    m_index = std::move(index);
    m_spans = std::move(spans);
    m_members = std::move(members);
    endResetModel();
    if (m_sortColumn != Start || m_sortOrder != Qt::AscendingOrder)
        sort(m_sortColumn, m_sortOrder);
}

int SpanOccurrencesModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_members.size());
}

int SpanOccurrencesModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

uint64_t SpanOccurrencesModel::value(uint32_t span, int column) const
{
    const UserSpan& s = m_spans->spans[span];
    switch (column) {
    case Start: return s.start;
    case Duration: return s.duration();
    case Self: return s.self;
    case Thread: return s.thread;
    case Depth: return s.depth;
    case Note: return s.flags;
    default: return 0;
    }
}

QVariant SpanOccurrencesModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || size_t(index.row()) >= m_members.size() || !m_spans)
        return {};
    const uint32_t span = m_members[size_t(index.row())];
    const UserSpan& s = m_spans->spans[span];
    const int c = index.column();
    if (role == kSpanRole)
        return uint(span);
    if (role == kSortRole)
        return qulonglong(value(span, c));
    if (role == Qt::TextAlignmentRole)
        return c == Thread || c == Note ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole)
        return {};
    switch (c) {
    case Start: return timeText(s.start);
    case Duration: // never stopped: at least until the end of the log
        return (s.flags & UserSpan::OpenAtEnd) ? tr("≥ %1").arg(durationText(s.duration())) : durationText(s.duration());
    case Self: return durationText(s.self);
    case Thread: return s.thread ? threadName(*m_index, s.thread) : tr("(no thread running)");
    case Depth: return uint(s.depth);
    case Note:
        return (s.flags & UserSpan::OpenAtEnd) ? tr("never stopped: not in the figures")
            : (s.flags & UserSpan::FromMarker) ? tr("marker")
                                               : QString();
    default: return {};
    }
}

QVariant SpanOccurrencesModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    static const char* const names[ColumnCount] = {QT_TR_NOOP("Start"),  QT_TR_NOOP("Duration"), QT_TR_NOOP("Self"),
                                                   QT_TR_NOOP("Thread"), QT_TR_NOOP("Depth"),    QT_TR_NOOP("Note")};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

void SpanOccurrencesModel::sort(int column, Qt::SortOrder order)
{
    m_sortColumn = column;
    m_sortOrder = order;
    if (!m_spans)
        return;
    emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    std::vector<uint32_t> rows(m_members.size());
    std::iota(rows.begin(), rows.end(), 0u);
    sortRows(rows, order, [&](uint32_t r) { return value(m_members[r], column); });
    std::vector<uint32_t> sorted;
    sorted.reserve(rows.size());
    for (uint32_t r : rows)
        sorted.push_back(m_members[r]);
    m_members = std::move(sorted);
    const QModelIndexList before = persistentIndexList();
    changePersistentIndexList(before, movedIndexes(*this, before, inverse(rows)));
    emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

// --- SpansPane ---

SpansPane::SpansPane(QWidget* parent)
    : QWidget(parent)
    , m_namesModel(new SpanNamesModel(this))
    , m_occurrencesModel(new SpanOccurrencesModel(this))
    , m_names(new QTableView)
    , m_occurrences(new QTableView)
    , m_start(new QLineEdit)
    , m_stop(new QLineEdit)
    , m_status(new QLabel)
{
    const SpanRules defaults;
    m_start->setText(QString::fromStdString(defaults.start));
    m_stop->setText(QString::fromStdString(defaults.stop));
    m_start->setToolTip(tr("A user message (traceEvent, traceMarker) starting with this opens a span; the rest is its name"));
    m_stop->setToolTip(tr("A user message starting with this closes the innermost open span of that name on its thread"));
    auto* markers = new QCheckBox(tr("markers too"));
    markers->setChecked(true);
    markers->setToolTip(tr("Pair traceMarker messages as well as traceEvent ones"));
    auto* apply = new QPushButton(tr("Apply"));
    auto* rules = new QHBoxLayout;
    rules->addWidget(new QLabel(tr("Start:")));
    rules->addWidget(m_start);
    rules->addWidget(new QLabel(tr("Stop:")));
    rules->addWidget(m_stop);
    rules->addWidget(markers);
    rules->addWidget(apply);
    m_status->setWordWrap(true);

    m_names->setModel(m_namesModel);
    setUpTable(m_names);
    m_names->horizontalHeader()->setSortIndicator(SpanNamesModel::Total, Qt::DescendingOrder);
    m_occurrences->setModel(m_occurrencesModel);
    setUpTable(m_occurrences);
    m_occurrences->horizontalHeader()->setSortIndicator(SpanOccurrencesModel::Start, Qt::AscendingOrder);
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(m_names);
    split->addWidget(m_occurrences);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(rules);
    layout->addWidget(m_status);
    layout->addWidget(split, 1);

    const auto applyRules = [this, markers] {
        SpanRules r;
        r.start = m_start->text().toStdString();
        r.stop = m_stop->text().toStdString();
        r.markers = markers->isChecked();
        setRules(r);
    };
    connect(apply, &QPushButton::clicked, this, applyRules);
    connect(m_start, &QLineEdit::returnPressed, this, applyRules);
    connect(m_stop, &QLineEdit::returnPressed, this, applyRules);
    connect(m_names->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& ix) {
        if (ix.isValid())
            showName(ix.data(SpanNamesModel::kNameRole).toUInt());
    });
    connect(m_occurrences, &QTableView::activated, this, [this](const QModelIndex& ix) {
        if (!ix.isValid() || !m_spans)
            return;
        const UserSpan& s = m_spans->spans[ix.data(SpanOccurrencesModel::kSpanRole).toUInt()];
        emit spanChosen(s.start, s.end, s.thread);
    });
    connect(m_occurrences->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& ix) {
                if (!ix.isValid() || !m_spans)
                    return;
                const UserSpan& s = m_spans->spans[ix.data(SpanOccurrencesModel::kSpanRole).toUInt()];
                emit spanChosen(s.start, s.end, s.thread);
            });
}

void SpansPane::setIndex(std::shared_ptr<const LogIndex> index)
{
    m_pairRunner.cancel();
    m_runner.cancel();
    m_index = std::move(index);
    m_spans = m_index ? m_index->userSpans : nullptr;
    m_range.reset();
    m_name.reset();
    m_keepName.reset();
    m_occurrencesModel->setSpans(m_index, m_spans, {});
    recompute();
}

void SpansPane::updateIndex(std::shared_ptr<const LogIndex> index)
{
    if (!index || !m_index) {
        setIndex(std::move(index));
        return;
    }
    m_pairRunner.cancel();
    m_runner.cancel();
    if (const auto name = chosenName())
        m_keepName = name;
    const SpanRules rules = m_spans ? m_spans->rules : SpanRules{};
    m_index = std::move(index);
    if (m_index->userSpans && m_index->userSpans->rules == rules) {
        m_spans = m_index->userSpans;
        recompute();
        return;
    }
    pair(rules, false); // the user's own prefixes, on the grown log
}

std::optional<std::string> SpansPane::chosenName() const
{
    if (!m_name || !m_spans || *m_name >= m_spans->names.size())
        return m_keepName;
    return m_spans->names[*m_name];
}

void SpansPane::setRange(std::optional<ViewRange> range)
{
    if (range == m_range)
        return;
    m_range = range;
    recompute();
}

QString SpansPane::statusText() const
{
    return m_status->text();
}

void SpansPane::setRules(const SpanRules& rules)
{
    if (!m_index)
        return;
    if (rules.start.empty() || rules.stop.empty() || rules.start == rules.stop) {
        m_status->setText(tr("The start and stop prefixes must differ and not be empty."));
        return;
    }
    if (m_spans && m_spans->rules == rules)
        return;
    m_status->setText(tr("Pairing spans…"));
    pair(rules, true);
}

void SpansPane::pair(const SpanRules& rules, bool forgetName)
{
    m_pairRunner.start(
        [index = m_index, rules](const JobContext& ctx) {
            return pairUserSpans(*index, rules, [&ctx] { return ctx.isCancelled(); });
        },
        [this, forgetName](std::shared_ptr<const UserSpans> spans) {
            if (!spans)
                return;
            m_spans = std::move(spans);
            if (forgetName) {
                m_name.reset();
                m_occurrencesModel->setSpans(m_index, m_spans, {});
            }
            emit spansChanged(m_spans);
            recompute();
        });
}

void SpansPane::recompute()
{
    if (!m_index || !m_spans) {
        m_status->setText(m_index ? tr("Pairing spans…") : tr("No log open."));
        m_namesModel->setFigures(nullptr, {});
        return;
    }
    m_runner.start(
        [spans = m_spans, range = m_range](const JobContext& ctx) {
            return spanFigures(*spans, range, [&ctx] { return ctx.isCancelled(); });
        },
        [this](std::vector<SpanNameFigures> figures) {
            uint64_t count = 0, open = 0;
            for (const SpanNameFigures& f : figures) {
                count += f.count;
                open += f.open;
            }
            m_namesModel->setFigures(m_spans, std::move(figures));
            QString text;
            if (m_spans->spans.empty() && m_spans->issues.empty())
                text = tr("No user spans: write traceEvent \"%1name\" … \"%2name\" (Debug.Trace) around the work to measure.")
                           .arg(QString::fromStdString(m_spans->rules.start), QString::fromStdString(m_spans->rules.stop));
            else
                text = tr("%1 spans of %2 names, %3%4%5.")
                           .arg(countText(count))
                           .arg(m_namesModel->rowCount())
                           .arg(m_range ? tr("starting in the ") : QString(), rangeText(m_range),
                                open ? tr("; %1 never stopped, left out of the figures").arg(countText(open)) : QString());
            if (!m_spans->issues.empty())
                text += tr(" %1 unmatched START or STOP: see Diagnostics.").arg(m_spans->issues.size());
            m_status->setText(text);
            if (m_keepName) {
                // After a live update: the same name, under its number in
                // the new spans, and its row chosen again.
                const auto it = std::find(m_spans->names.begin(), m_spans->names.end(), *m_keepName);
                m_keepName.reset();
                m_name.reset();
                if (it != m_spans->names.end()) {
                    const uint32_t id = uint32_t(it - m_spans->names.begin());
                    for (int row = 0; row < m_namesModel->rowCount(); ++row)
                        if (m_namesModel->index(row, 0).data(SpanNamesModel::kNameRole).toUInt() == id) {
                            m_names->selectionModel()->setCurrentIndex(
                                m_namesModel->index(row, 0), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
                            break;
                        }
                    m_name = id;
                }
            }
            if (m_name)
                showName(*m_name);
            emit figuresShown();
        });
}

void SpansPane::showName(uint32_t name)
{
    m_name = name;
    m_occurrencesModel->setSpans(m_index, m_spans, spansOfName(*m_spans, name, m_range));
}

void SpansPane::follow(const LogDocument* doc, const ViewController* view)
{
    connect(doc, &LogDocument::cleared, this, [this] { setIndex(nullptr); });
    connect(doc, &LogDocument::indexChanged, this, [this, view](const IndexChange& c) {
        if (c.grown) // the user's choices stay
            updateIndex(c.index);
        else
            setIndex(c.index);
        setRange(view->selection());
    });
}

} // namespace hecscope
