#include "ui/threads/threadspane.h"

#include "ui/document/logdocument.h"
#include "ui/document/viewcontroller.h"

#include "ui/threads/tablehelpers.h"

#include "core/detail/threaddetail.h"

#include "ui/formatting.h"
#include "ui/models/tablemodels.h"
#include "ui/threads/threadrows.h"
#include "ui/threads/threadrowscontroller.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QSpinBox>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <numeric>

namespace hecscope {

using namespace tables;

namespace {

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
    connect(m_rows, &ThreadRowsController::orderChanged, this, [this] {
        if (!m_range)
            recompute();
    });
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

void ThreadsPane::updateIndex(std::shared_ptr<const LogIndex> index)
{
    m_runner.cancel();
    m_index = std::move(index);
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
    // The whole run with the track's filter: the row controller has just
    // computed those figures for its order; take them rather than again.
    const auto rows = m_rows->view();
    if (!m_range && m_rows->busy() && m_rows->pendingIndex() == m_index && m_rows->pendingFilter() == pattern) {
        m_runner.cancel();
        return; // the controller is computing them; orderChanged brings them
    }
    if (!m_range && rows->indexSerial == m_index->serial && rows->filter == pattern) {
        if (m_rows->busy()) {
            m_runner.cancel();
            return; // orderChanged brings them
        }
        // Copied in the track's order on the worker (tens of thousands of
        // threads are a few MB), delivered as every result is, through the
        // runner (a newer computation drops it).
        m_runner.start(
            [rows, whole = m_rows->wholeRunShared()](const JobContext&) {
                std::vector<ThreadFigures> all;
                all.reserve(rows->order.size());
                for (uint32_t number : rows->order)
                    if (number < whole->size())
                        all.push_back((*whole)[number]);
                return all;
            },
            [this](std::vector<ThreadFigures> figures) { show(std::move(figures)); });
        return;
    }
    struct Result {
        std::vector<ThreadFigures> figures;
        std::string error;
    };
    // (A range's segments are read back from the file on this worker.)
    m_runner.start(
        [index = m_index, source = m_source, range = m_range, re, filtering = !pattern.isEmpty()](const JobContext& ctx) {
            Result r;
            r.figures = threadFiguresIn(source.get(), *index, range, [&ctx] { return ctx.isCancelled(); }, &r.error);
            if (filtering)
                std::erase_if(r.figures, [&](const ThreadFigures& f) {
                    const QString label = QString::fromUtf8(f.label.data(), qsizetype(f.label.size()));
                    return !re.match(label).hasMatch() && !re.match(QString::number(f.id)).hasMatch();
                });
            return r;
        },
        [this](Result r) {
            show(std::move(r.figures));
            if (!r.error.empty())
                m_status->setText(tr("The threads' figures of %1 could not be read: %2")
                                      .arg(rangeText(m_range), QString::fromStdString(r.error)));
        });
}

void ThreadsPane::setSource(std::shared_ptr<ByteSource> source)
{
    m_source = std::move(source);
}

void ThreadsPane::show(std::vector<ThreadFigures> all)
{
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

void ThreadsPane::follow(const LogDocument* doc, const ViewController* view)
{
    connect(doc, &LogDocument::cleared, this, [this] { setIndex(nullptr); });
    connect(doc, &LogDocument::indexChanged, this, [this, view](const IndexChange& c) {
        setSource(c.source); // (a range's thread segments are read back too)
        if (c.grown) // the user's choices stay
            updateIndex(c.index);
        else
            setIndex(c.index);
        setRange(view->selection());
    });
}

} // namespace hecscope
