#include "ui/threads/threadspane.h"

#include "ui/formatting.h"
#include "ui/models/tablemodels.h"
#include "ui/threads/threadrows.h"
#include "ui/threads/threadrowscontroller.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <numeric>

namespace hecscope {

namespace {

void setUpTable(QTableView* view)
{
    view->setSortingEnabled(true);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setAlternatingRowColors(true);
    view->verticalHeader()->hide();
    view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 4);
    view->horizontalHeader()->setStretchLastSection(true);
    view->horizontalHeader()->setTextElideMode(Qt::ElideNone);
    view->setWordWrap(false);
}

QString rangeText(const std::optional<ViewRange>& r)
{
    return r ? QObject::tr("selection %1 – %2").arg(durationText(r->start), durationText(r->end))
             : QObject::tr("whole run");
}

// Sorts `rows` (indices) by `value`, ties by index, for a self-sorting model.
template <class Value>
void sortRows(std::vector<uint32_t>& rows, Qt::SortOrder order, Value value)
{
    std::stable_sort(rows.begin(), rows.end(), [&](uint32_t a, uint32_t b) {
        const auto va = value(a), vb = value(b);
        return order == Qt::AscendingOrder ? va < vb : vb < va;
    });
}

// Where a sort moves persistent indexes (the views' current and selected
// rows), so that they stay on their item: rowOf[old row] = new row.
QModelIndexList movedIndexes(const QAbstractItemModel& model, const QModelIndexList& before,
                             const std::vector<uint32_t>& rowOf)
{
    QModelIndexList after;
    after.reserve(before.size());
    for (const QModelIndex& ix : before)
        after.push_back(model.index(int(rowOf[size_t(ix.row())]), ix.column()));
    return after;
}

// rowOf[old row] = new row for a permutation `rows` (rows[new row] = old row).
std::vector<uint32_t> inverse(const std::vector<uint32_t>& rows)
{
    std::vector<uint32_t> rowOf(rows.size());
    for (size_t r = 0; r < rows.size(); ++r)
        rowOf[rows[r]] = uint32_t(r);
    return rowOf;
}

constexpr BlockReason kReasonColumns[] = {BlockReason::MVar, BlockReason::MVarRead, BlockReason::BlackHole,
                                          BlockReason::Stm,  BlockReason::Delay,    BlockReason::CCall,
                                          BlockReason::ThrowTo};

} // namespace

// --- ThreadsTableModel ---

void ThreadsTableModel::setFigures(std::shared_ptr<const LogIndex> index, std::vector<ThreadFigures> figures)
{
    beginResetModel();
    m_index = std::move(index);
    m_figures = std::move(figures);
    m_rows.resize(m_figures.size());
    std::iota(m_rows.begin(), m_rows.end(), 0u);
    applySort();
    endResetModel();
}

int ThreadsTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int ThreadsTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

uint64_t ThreadsTableModel::value(const ThreadFigures& f, int column) const
{
    switch (column) {
    case Id: return f.id;
    case Created: return f.created;
    case Finished: return f.finished;
    case Running: return f.running();
    case Runnable: return f.runnable();
    case Blocked: return f.blockedTotal();
    case BlockedOther: {
        uint64_t other = f.blockedTotal();
        for (BlockReason r : kReasonColumns)
            other -= std::min(other, f.blocked[size_t(r)]);
        return other;
    }
    case Runs: return f.runs;
    case Migrations: return f.migrations;
    case Wakeups: return f.wakeups;
    default:
        if (column >= BlockedMVar && column < BlockedOther)
            return f.blocked[size_t(kReasonColumns[column - BlockedMVar])];
        return 0;
    }
}

QVariant ThreadsTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || size_t(index.row()) >= m_rows.size())
        return {};
    const ThreadFigures& f = m_figures[m_rows[size_t(index.row())]];
    const int c = index.column();
    if (role == kNumberRole)
        return uint(f.number);
    if (role == kSortRole)
        return c == Label ? QVariant(QString::fromUtf8(f.label.data(), qsizetype(f.label.size())))
                          : QVariant(qulonglong(value(f, c)));
    if (role == Qt::TextAlignmentRole)
        return c == Label ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole)
        return {};
    switch (c) {
    case Id: return uint(f.id);
    case Label: return QString::fromUtf8(f.label.data(), qsizetype(f.label.size()));
    case Created:
    case Finished: return value(f, c) == kNoTime ? QStringLiteral("–") : durationText(value(f, c));
    case Runs:
    case Migrations:
    case Wakeups: return countText(value(f, c));
    default: return value(f, c) ? durationText(value(f, c)) : QStringLiteral("0");
    }
}

QVariant ThreadsTableModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal)
        return {};
    static const char* const names[ColumnCount] = {
        QT_TR_NOOP("Thread"),       QT_TR_NOOP("Label"),        QT_TR_NOOP("Created"),
        QT_TR_NOOP("Finished"),     QT_TR_NOOP("Running"),      QT_TR_NOOP("Runnable"),
        QT_TR_NOOP("Blocked"),      QT_TR_NOOP("MVar"),         QT_TR_NOOP("MVar read"),
        QT_TR_NOOP("Black hole"),   QT_TR_NOOP("STM"),          QT_TR_NOOP("Delay"),
        QT_TR_NOOP("Foreign call"), QT_TR_NOOP("throwTo"),      QT_TR_NOOP("Blocked, other"),
        QT_TR_NOOP("Runs"),         QT_TR_NOOP("Migrations"),   QT_TR_NOOP("Wake-ups")};
    if (role == Qt::DisplayRole && section >= 0 && section < ColumnCount)
        return tr(names[section]);
    if (role == Qt::ToolTipRole && section >= BlockedMVar && section <= BlockedOther)
        return tr("Time blocked for this reason (a safe foreign call counts as blocked)");
    if (role == Qt::ToolTipRole && section == Runnable)
        return tr("Time in a run queue: created, woken or stopped without blocking, not yet running");
    return {};
}

void ThreadsTableModel::sort(int column, Qt::SortOrder order)
{
    m_sortColumn = column;
    m_sortOrder = order;
    emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    const QModelIndexList before = persistentIndexList();
    std::vector<uint32_t> figureOf;
    for (const QModelIndex& ix : before)
        figureOf.push_back(m_rows[size_t(ix.row())]);
    applySort();
    std::vector<uint32_t> rowOf(m_rows.size());
    for (size_t r = 0; r < m_rows.size(); ++r)
        rowOf[m_rows[r]] = uint32_t(r);
    QModelIndexList after;
    for (qsizetype i = 0; i < before.size(); ++i)
        after.push_back(index(int(rowOf[figureOf[size_t(i)]]), before[i].column()));
    changePersistentIndexList(before, after);
    emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

void ThreadsTableModel::applySort()
{
    if (m_sortColumn == Label)
        sortRows(m_rows, m_sortOrder, [&](uint32_t i) { return std::pair(m_figures[i].label.empty(), m_figures[i].label); });
    else
        sortRows(m_rows, m_sortOrder, [&](uint32_t i) { return value(m_figures[i], m_sortColumn); });
}

int ThreadsTableModel::rowOfThread(uint32_t number) const
{
    for (size_t r = 0; r < m_rows.size(); ++r)
        if (m_figures[m_rows[r]].number == number)
            return int(r);
    return -1;
}

// --- ThreadsPane ---

ThreadsPane::ThreadsPane(ThreadRowsController* rows, QWidget* parent)
    : QWidget(parent)
    , m_rows(rows)
    , m_model(new ThreadsTableModel(this))
    , m_table(new QTableView)
    , m_filter(new QLineEdit)
    , m_sort(new QComboBox)
    , m_rowCount(new QSpinBox)
    , m_status(new QLabel)
{
    m_filter->setPlaceholderText(tr("Filter threads: label or id (regular expression)"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setToolTip(tr("Filters this table and the Threads track, e.g. worker-\\d+ or ^17$"));
    for (auto s : {ThreadRowsController::Sort::Id, ThreadRowsController::Sort::Creation,
                   ThreadRowsController::Sort::Label, ThreadRowsController::Sort::RunTime,
                   ThreadRowsController::Sort::BlockedTime, ThreadRowsController::Sort::RunnableTime})
        m_sort->addItem(tr("Rows by %1").arg(ThreadRowsController::sortName(s)), int(s));
    m_sort->setCurrentIndex(m_sort->findData(int(m_rows->sort())));
    m_sort->setToolTip(tr("The order of the rows of the Threads track"));
    m_rowCount->setRange(1, 200);
    m_rowCount->setValue(m_rows->view()->visibleRows);
    m_rowCount->setSuffix(tr(" rows"));
    m_rowCount->setToolTip(tr("How many thread rows the Threads track shows at once"));
    m_status->setWordWrap(true);

    auto* tools = new QHBoxLayout;
    tools->addWidget(m_filter, 1);
    tools->addWidget(m_sort);
    tools->addWidget(m_rowCount);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(tools);
    layout->addWidget(m_status);
    layout->addWidget(m_table, 1);

    m_table->setModel(m_model);
    setUpTable(m_table);
    m_table->sortByColumn(ThreadsTableModel::Id, Qt::AscendingOrder);
    m_table->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_table, &QWidget::customContextMenuRequested, this, &ThreadsPane::contextMenu);

    auto* debounce = new QTimer(this);
    debounce->setSingleShot(true);
    debounce->setInterval(200);
    connect(m_filter, &QLineEdit::textChanged, debounce, qOverload<>(&QTimer::start));
    connect(debounce, &QTimer::timeout, this, [this] {
        m_rows->setFilter(m_filter->text());
        recompute();
    });
    connect(m_sort, &QComboBox::currentIndexChanged, this,
            [this] { m_rows->setSort(ThreadRowsController::Sort(m_sort->currentData().toInt())); });
    connect(m_rowCount, &QSpinBox::valueChanged, m_rows, &ThreadRowsController::setVisibleRows);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (!current.isValid() || !m_index)
                    return;
                const uint32_t number = current.data(ThreadsTableModel::kNumberRole).toUInt();
                if (number < m_index->threadStates.count())
                    emit threadChosen(number, m_index->threadStates.ids[number]);
            });
}

void ThreadsPane::setIndex(std::shared_ptr<const LogIndex> index)
{
    m_runner.cancel();
    m_index = std::move(index);
    m_range.reset();
    m_model->setFigures(m_index, {});
    recompute();
}

void ThreadsPane::setRange(std::optional<ViewRange> range)
{
    if (range == m_range)
        return;
    m_range = range;
    recompute();
}

QString ThreadsPane::statusText() const
{
    return m_status->text();
}

void ThreadsPane::selectThread(uint32_t number)
{
    const int row = m_model->rowOfThread(number);
    if (row < 0)
        return;
    const QModelIndex ix = m_model->index(row, 0);
    if (m_table->currentIndex().row() != row) {
        const QSignalBlocker block(m_table->selectionModel());
        m_table->setCurrentIndex(ix);
        m_table->selectRow(row);
    }
    m_table->scrollTo(ix);
}

void ThreadsPane::recompute()
{
    if (!m_index) {
        m_status->setText(tr("No log open."));
        return;
    }
    const QString pattern = m_filter->text();
    QRegularExpression re(pattern, QRegularExpression::CaseInsensitiveOption);
    if (!pattern.isEmpty() && !re.isValid()) {
        m_runner.cancel(); // figures still being computed would land over the message
        m_status->setText(tr("Bad filter: %1").arg(re.errorString()));
        m_model->setFigures(m_index, {});
        return;
    }
    m_status->setText(tr("Computing the threads' figures (%1)…").arg(rangeText(m_range)));
    m_runner.start(
        [index = m_index, range = m_range, re, filtering = !pattern.isEmpty()](const JobContext& ctx) {
            std::vector<ThreadFigures> all = allThreadFigures(*index, range, [&ctx] { return ctx.isCancelled(); });
            if (filtering)
                std::erase_if(all, [&](const ThreadFigures& f) {
                    const QString label = QString::fromUtf8(f.label.data(), qsizetype(f.label.size()));
                    return !re.match(label).hasMatch() && !re.match(QString::number(f.id)).hasMatch();
                });
            return all;
        },
        [this](std::vector<ThreadFigures> all) {
            const size_t n = all.size();
            m_model->setFigures(m_index, std::move(all));
            const size_t total = m_index->threadStates.count();
            QString text = n == total ? tr("%1 threads, %2.").arg(countText(n), rangeText(m_range))
                                      : tr("%1 of %2 threads, %3.").arg(countText(n), countText(total), rangeText(m_range));
            if (total == 0)
                text = tr("No thread events in this log (run the program with +RTS -l).");
            m_status->setText(text);
            if (const auto chosen = m_rows->view()->chosen)
                selectThread(*chosen);
            emit figuresShown();
        });
}

void ThreadsPane::contextMenu(const QPoint& pos)
{
    const QModelIndex ix = m_table->indexAt(pos);
    if (!ix.isValid() || !m_index)
        return;
    const uint32_t number = ix.data(ThreadsTableModel::kNumberRole).toUInt();
    QMenu menu;
    const bool pinned = m_rows->isPinned(number);
    menu.addAction(pinned ? tr("Unpin from the top") : tr("Pin next to the capabilities"), this,
                   [this, number, pinned] { m_rows->setPinned(number, !pinned); });
    menu.addAction(tr("Show in the event list"), this,
                   [this, number] { emit threadChosen(number, m_index->threadStates.ids[number]); });
    menu.exec(m_table->viewport()->mapToGlobal(pos));
}

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
    default: return durationText(value(f, c));
    }
}

QVariant SpanNamesModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal)
        return {};
    static const char* const names[ColumnCount] = {QT_TR_NOOP("Name"), QT_TR_NOOP("Count"), QT_TR_NOOP("Total"),
                                                   QT_TR_NOOP("Self"), QT_TR_NOOP("Mean"),  QT_TR_NOOP("Median"),
                                                   QT_TR_NOOP("p95"),  QT_TR_NOOP("Max"),   QT_TR_NOOP("Open")};
    if (role == Qt::DisplayRole && section >= 0 && section < ColumnCount)
        return tr(names[section]);
    if (role == Qt::ToolTipRole) {
        if (section == Self)
            return tr("Total minus the time of spans nested inside (on the same thread)");
        if (section == Open)
            return tr("Spans never stopped: they end with the log");
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
    case Start: return durationText(s.start);
    case Duration: return durationText(s.duration());
    case Self: return durationText(s.self);
    case Thread: return s.thread ? threadName(*m_index, s.thread) : tr("(no thread running)");
    case Depth: return uint(s.depth);
    case Note:
        return (s.flags & UserSpan::OpenAtEnd) ? tr("never stopped: ends with the log")
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
    m_occurrencesModel->setSpans(m_index, m_spans, {});
    recompute();
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
    m_pairRunner.start(
        [index = m_index, rules](const JobContext& ctx) {
            return pairUserSpans(*index, rules, [&ctx] { return ctx.isCancelled(); });
        },
        [this](std::shared_ptr<const UserSpans> spans) {
            if (!spans)
                return;
            m_spans = std::move(spans);
            m_name.reset();
            m_occurrencesModel->setSpans(m_index, m_spans, {});
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
            uint64_t count = 0;
            for (const SpanNameFigures& f : figures)
                count += f.count;
            m_namesModel->setFigures(m_spans, std::move(figures));
            QString text;
            if (m_spans->spans.empty() && m_spans->issues.empty())
                text = tr("No user spans: write traceEvent \"%1name\" … \"%2name\" (Debug.Trace) around the work to measure.")
                           .arg(QString::fromStdString(m_spans->rules.start), QString::fromStdString(m_spans->rules.stop));
            else
                text = tr("%1 spans of %2 names, %3%4.")
                           .arg(countText(count))
                           .arg(m_namesModel->rowCount())
                           .arg(m_range ? tr("starting in the ") : QString(), rangeText(m_range));
            if (!m_spans->issues.empty())
                text += tr(" %1 unmatched START or STOP: see Diagnostics.").arg(m_spans->issues.size());
            m_status->setText(text);
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

} // namespace hecscope
