#include "ui/events/eventlistpane.h"

#include "ui/document/logdocument.h"

#include "core/format/eventtags.h"
#include "ui/formatting.h"

#include "ui/events/eventlistmodel.h"
#include "ui/events/eventtableview.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QScrollBar>
#include <QLineEdit>
#include <QRegularExpression>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace hecscope {

namespace {
constexpr int kTypeNameRole = Qt::UserRole + 1; // of the type box's items: the name without its count
} // namespace

EventListPane::EventListPane(QWidget* parent)
    : QWidget(parent)
    , m_model(new EventListModel(this))
    , m_table(new EventTableView)
    , m_search(new QLineEdit)
    , m_type(new QComboBox)
    , m_cap(new QComboBox)
    , m_thread(new QLineEdit)
    , m_highlight(new QToolButton)
    , m_status(new QLabel)
    , m_clear(new QToolButton)
    , m_debounce(new QTimer(this))
{
    m_search->setPlaceholderText(tr("Search events, types, thread labels (Ctrl+F)"));
    m_search->setClearButtonEnabled(true);
    m_thread->setPlaceholderText(tr("thread id or label"));
    m_thread->setToolTip(tr("A thread id (7), or a regular expression over thread labels (worker-7, ^worker-[12]$)"));
    m_thread->setClearButtonEnabled(true);
    m_thread->setMaximumWidth(160);
    m_type->setMinimumContentsLength(14);
    m_type->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    auto* prev = new QToolButton;
    prev->setText(QStringLiteral("▲"));
    prev->setToolTip(tr("Previous (Shift+F3)"));
    auto* nextButton = new QToolButton;
    nextButton->setText(QStringLiteral("▼"));
    nextButton->setToolTip(tr("Next (F3)"));

    m_table->setModel(m_model);
    m_table->header()->resizeSection(EventListModel::TimeColumn, 130);
    m_table->header()->resizeSection(EventListModel::CapColumn, 40);
    m_table->header()->resizeSection(EventListModel::ThreadColumn, 60);
    m_table->header()->resizeSection(EventListModel::TypeColumn, 170);

    m_highlight->setText(tr("Highlight"));
    m_highlight->setCheckable(true);
    m_highlight->setToolTip(tr("Keep every event listed and mark the matching ones, to step through them in "
                               "context, instead of listing only them"));
    auto* filters = new QHBoxLayout;
    filters->addWidget(m_search, 1);
    filters->addWidget(m_highlight);
    filters->addWidget(prev);
    filters->addWidget(nextButton);
    filters->addWidget(m_type);
    filters->addWidget(m_cap);
    filters->addWidget(m_thread);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addLayout(filters);
    layout->addWidget(m_table, 1);
    m_clear->setText(tr("Clear filters"));
    m_clear->setToolTip(tr("List every event: clear the search, type, capability and thread filters"));
    m_clear->hide();
    m_status->setMinimumWidth(1); // a long status is cut in a narrow dock (its tooltip has it all), never widens it
    auto* statusRow = new QHBoxLayout;
    statusRow->addWidget(m_status);
    statusRow->addWidget(m_clear); // beside the filters it names
    statusRow->addStretch(1);
    layout->addLayout(statusRow);
    connect(m_clear, &QToolButton::clicked, this, &EventListPane::clearFilters);

    m_debounce->setSingleShot(true);
    m_debounce->setInterval(300);
    connect(m_debounce, &QTimer::timeout, this, &EventListPane::applyFilter);
    connect(m_search, &QLineEdit::textChanged, m_debounce, qOverload<>(&QTimer::start));
    connect(m_thread, &QLineEdit::textChanged, m_debounce, qOverload<>(&QTimer::start));
    connect(m_search, &QLineEdit::returnPressed, this, [this] {
        if (m_debounce->isActive())
            applyFilter();
        else
            next();
    });
    connect(m_type, &QComboBox::currentIndexChanged, this, &EventListPane::applyFilter);
    connect(m_highlight, &QToolButton::toggled, this, &EventListPane::applyFilter);
    connect(m_cap, &QComboBox::currentIndexChanged, this, &EventListPane::applyFilter);
    connect(prev, &QToolButton::clicked, this, &EventListPane::previous);
    connect(nextButton, &QToolButton::clicked, this, &EventListPane::next);
    connect(m_model, &EventListModel::scanFinished, this, [this](quint64, bool truncated) {
        m_truncated = truncated;
        updateStatus();
        if (const auto chosen = std::exchange(m_reselect, std::nullopt))
            selectEventOn(chosen->first, chosen->second);
    });
    connect(m_model, &QAbstractItemModel::rowsInserted, this, &EventListPane::updateStatus);
    connect(m_model, &QAbstractItemModel::modelReset, this, &EventListPane::updateStatus);
    connect(m_model, &EventListModel::rowForTimeFound, this, [this](int row) { selectRow(row, false); });
    connect(m_table, &EventTableView::currentRowChanged, this, [this](int row) {
        if (!m_reporting)
            return;
        if (const EventRow* e = m_model->eventAt(row))
            emit eventChosen(e->time, describe(*e));
        else
            m_awaiting = row; // reported when its page arrives
    });
    connect(m_model, &QAbstractItemModel::dataChanged, this, [this](const QModelIndex& from, const QModelIndex& to) {
        if (m_awaiting < from.row() || m_awaiting > to.row() || m_awaiting != m_table->currentRow())
            return;
        if (const EventRow* e = m_model->eventAt(m_awaiting)) {
            m_awaiting = -1;
            emit eventChosen(e->time, describe(*e));
        }
    });
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] { m_awaiting = -1; });
    updateStatus();
}

void EventListPane::setLog(const QString& path, std::shared_ptr<const LogIndex> index)
{
    setLog(EventListModel::openSource(path), std::move(index));
}

void EventListPane::setLog(std::shared_ptr<ByteSource> source, std::shared_ptr<const LogIndex> index)
{
    m_index = index;
    m_reselect.reset();
    const QSignalBlocker blockType(m_type), blockCap(m_cap);
    m_type->clear();
    m_type->addItem(tr("All events"), -1);
    m_cap->clear();
    m_cap->addItem(tr("All caps"), -1);
    if (index && index->scan.format) {
        // The types this log has, by name.
        std::vector<std::pair<std::string, int>> types;
        for (size_t tag = 0; tag < index->tagCounts.size(); ++tag)
            if (index->tagCounts[tag] > 0 && tag < 255)
                types.emplace_back(index->scan.format->description(uint16_t(tag)), int(tag));
        std::sort(types.begin(), types.end());
        for (const auto& [name, tag] : types) {
            m_type->addItem(QStringLiteral("%1 (%2)").arg(QString::fromStdString(name)).arg(index->tagCounts[size_t(tag)]), tag);
            m_type->setItemData(m_type->count() - 1, QString::fromStdString(name), kTypeNameRole);
        }
        for (size_t c = 0; c < index->caps.size(); ++c)
            m_cap->addItem(tr("Cap %1").arg(c), int(c));
    }
    m_model->setLog(std::move(source), std::move(index));
    applyFilter();
}

void EventListPane::updateLog(std::shared_ptr<ByteSource> source, std::shared_ptr<const LogIndex> index, bool toEnd)
{
    const QVariant type = m_type->currentData();
    const QVariant cap = m_cap->currentData();
    const int scroll = m_table->verticalScrollBar()->value();
    const EventRow* current = m_model->eventAt(m_table->currentRow());
    const std::optional<std::pair<uint64_t, uint16_t>> chosen =
        current ? std::optional(std::pair{current->time, current->cap}) : std::nullopt;
    setLog(std::move(source), std::move(index));
    {
        const QSignalBlocker blockType(m_type), blockCap(m_cap);
        if (const int i = m_type->findData(type); i >= 0)
            m_type->setCurrentIndex(i);
        if (const int i = m_cap->findData(cap); i >= 0)
            m_cap->setCurrentIndex(i);
    }
    if (m_type->currentData() != QVariant(-1) || m_cap->currentData() != QVariant(-1))
        applyFilter();
    if (toEnd) {
        if (m_model->rowCount() > 0)
            m_table->scrollToRow(m_model->rowCount() - 1);
        return;
    }
    m_table->verticalScrollBar()->setValue(scroll);
    // The same event, not the same row number: events that arrived since
    // may come before it in time (another capability's later block).
    if (chosen) {
        if (m_model->isScanning())
            m_reselect = chosen;
        else
            selectEventOn(chosen->first, chosen->second);
    }
}

void EventListPane::applyFilter()
{
    m_truncated = false;
    m_debounce->stop();
    EventFilter f;
    f.text = m_search->text().trimmed().toStdString();
    const int tag = m_type->currentData().toInt();
    if (tag >= 0)
        f.tags.set(size_t(tag));
    const int cap = m_cap->currentData().toInt();
    if (cap >= 0)
        f.cap = uint16_t(cap);
    // The thread box: digits are an id; anything else a regular expression
    // over labels, whose matches the status names (never a silent guess).
    m_threadError.clear();
    const QString threadText = m_thread->text().trimmed();
    bool ok = false;
    const uint thread = threadText.toUInt(&ok);
    const QString oldNote = std::exchange(m_threadNote, QString());
    if (ok) {
        f.thread = thread;
    } else if (!threadText.isEmpty()) {
        const QRegularExpression re(threadText, QRegularExpression::CaseInsensitiveOption);
        if (!re.isValid()) {
            m_threadError = tr("thread: not an id nor a regular expression (%1)").arg(re.errorString());
            m_threadNote = oldNote; // of the filter still on
            updateStatus();
            return; // the list keeps its filter
        }
        QStringList names;
        if (m_index)
            for (const auto& [id, label] : m_index->threads.labels()) // (the labelled ones, not every thread)
                if (re.match(QString::fromStdString(label)).hasMatch()) {
                    f.threads.push_back(id);
                    if (names.size() < 4)
                        names << QStringLiteral("%1 (%2)").arg(QString::fromStdString(label)).arg(id);
                }
        std::sort(f.threads.begin(), f.threads.end());
        f.threads.erase(std::unique(f.threads.begin(), f.threads.end()), f.threads.end());
        f.noThread = f.threads.empty();
        m_threadNote = f.noThread ? tr("no thread label matches “%1”").arg(threadText)
                                  : tr("threads %1%2").arg(names.join(QStringLiteral(", ")),
                                                           f.threads.size() > 4 ? tr(" and %1 more").arg(f.threads.size() - 4)
                                                                                : QString());
    }
    const bool highlight = m_highlight->isChecked();
    if (m_model->filter() == f && m_model->isHighlighting() == (highlight && !f.empty())) {
        updateStatus();
        return;
    }
    // Highlighting keeps the list (and the row chosen) where it was.
    const EventRow* current = m_model->eventAt(m_table->currentRow());
    const bool keep = current && highlight;
    const uint64_t keepTime = current ? current->time : 0;
    m_reselect.reset(); // the user's new filter: the list starts over
    m_model->setFilter(f, highlight);
    if (keep)
        selectNearest(keepTime);
    updateStatus();
}

void EventListPane::clearFilters()
{
    {
        const QSignalBlocker a(m_search), b(m_thread), c(m_type), d(m_cap);
        m_search->clear();
        m_thread->clear();
        m_type->setCurrentIndex(0);
        m_cap->setCurrentIndex(0);
    }
    applyFilter();
}

void EventListPane::filterToThread(uint32_t id)
{
    m_thread->setText(QString::number(id));
    applyFilter();
}

QString EventListPane::statusText() const
{
    return m_status->text();
}

void EventListPane::updateStatus()
{
    if (!m_index) {
        m_status->setText(tr("No log"));
        m_clear->hide();
        return;
    }
    const QString count = QLocale().toString(qlonglong(m_model->rowCount()));
    QString text;
    if (m_model->filter().empty())
        text = tr("%1 events").arg(count);
    else if (m_model->isHighlighting())
        text = tr("%1 events, %2 matching%3 (highlighted: F3 and Shift+F3 step through them)")
                   .arg(count, QLocale().toString(qulonglong(m_model->matchCount())),
                        m_model->isScanning() ? tr(" so far") : QString());
    else if (m_model->isScanning())
        text = tr("Searching… %1 found so far").arg(count);
    else if (m_truncated)
        text = tr("%1 matching events shown: the search stopped there (narrow the filter to see later ones)").arg(count);
    else
        text = tr("%1 matching events").arg(count);
    const QString filters = filterNames();
    if (!filters.isEmpty())
        text += (m_model->isHighlighting() ? tr(" — highlighting: %1") : tr(" — filters: %1")).arg(filters);
    if (!m_threadError.isEmpty())
        text += QStringLiteral(" — ") + m_threadError;
    m_status->setText(text);
    m_status->setToolTip(text);
    m_clear->setVisible(!filters.isEmpty() || !m_threadError.isEmpty());
}

QString EventListPane::filterNames() const
{
    QStringList on;
    const EventFilter& f = m_model->filter();
    if (!f.text.empty())
        on << tr("text “%1”").arg(QString::fromStdString(f.text));
    if (m_type->currentData().toInt() >= 0)
        on << tr("type %1").arg(m_type->currentData(kTypeNameRole).toString());
    if (f.cap)
        on << tr("cap %1").arg(*f.cap);
    if (!f.threads.empty() || f.noThread) // a label expression: which threads it chose, or why none
        on << m_threadNote;
    else if (f.thread)
        on << tr("thread %1").arg(*f.thread);
    return on.join(QStringLiteral(", "));
}

QString EventListPane::describe(const EventRow& e) const
{
    QString text = QString::fromStdString(e.type) + QStringLiteral("\n\n");
    text += tr("Time        %1 (%2 ns from the start)\n").arg(timeText(e.time), countText(e.time));
    text += tr("Capability  %1\n").arg(e.cap == kNoCap ? tr("none (the global buffer)") : QString::number(e.cap));
    if (e.thread) {
        QString thread = QString::number(*e.thread);
        if (const ThreadLabel label = m_index ? m_index->labelOf(*e.thread) : ThreadLabel{}; !label.empty())
            thread += QStringLiteral(" \"%1\"").arg(QString::fromStdString(label));
        if (e.tag == tag::UserMsg || e.tag == tag::UserMarker || e.tag == tag::UserBinaryMsg)
            thread += tr(" (running on the capability: it wrote this)");
        text += tr("Thread      %1\n").arg(thread);
    }
    text += tr("Event       %1 of %2 in time order\n\n").arg(countText(e.position + 1),
                                                            countText(m_index ? m_index->scan.events : 0));
    return text + QString::fromStdString(e.details);
}

void EventListPane::selectRow(int row, bool report)
{
    if (row < 0 || row >= m_model->rowCount())
        return;
    m_reporting = report;
    m_table->setCurrentRow(row);
    m_reporting = true;
}

void EventListPane::selectNearest(uint64_t t)
{
    m_model->findRowAt(t);
}

void EventListPane::selectEventOn(uint64_t t, uint16_t cap)
{
    m_model->findRowAt(t, cap);
}

void EventListPane::next()
{
    if (const auto row = m_model->nextMatch(m_table->currentRow(), true))
        selectRow(*row, true);
}

void EventListPane::previous()
{
    const int current = m_table->currentRow();
    if (const auto row = m_model->nextMatch(current < 0 ? m_model->rowCount() : current, false))
        selectRow(*row, true);
}

void EventListPane::follow(const LogDocument* doc, std::function<bool()> followNewest)
{
    connect(doc, &LogDocument::cleared, this, [this] { setLog(std::shared_ptr<ByteSource>(), nullptr); });
    connect(doc, &LogDocument::indexChanged, this, [this, followNewest](const IndexChange& c) {
        if (c.grown) // only a live session follows the newest events; a long load's list stays where it is (the top)
            updateLog(c.source, c.index, c.live && followNewest());
        else
            setLog(c.source, c.index);
    });
}

} // namespace hecscope
