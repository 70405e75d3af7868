#include "ui/window/bookmarks.h"

#include <QAction>
#include <QHeaderView>

#include "ui/document/logdocument.h"
#include "ui/jobs/settings.h"

#include "ui/formatting.h"
#include "core/time/viewrange.h"

#include <QCryptographicHash>
#include <QFileInfo>

#include <algorithm>

namespace hecscope {

QString BookmarkModel::settingsKey() const
{
    // Paths hold '/', QSettings' group separator: key by a hash of the path.
    const QByteArray hash = QCryptographicHash::hash(QFileInfo(m_path).absoluteFilePath().toUtf8(), QCryptographicHash::Sha1);
    return QStringLiteral("bookmarks/") + QString::fromLatin1(hash.toHex());
}

void BookmarkModel::setLog(const QString& path, const LogIndex* index)
{
    beginResetModel();
    m_path = path;
    m_marks.clear();
    if (index) {
        for (uint32_t i : index->messagesByTime) {
            const Message& m = index->messages[i];
            if (m.kind == Message::Marker)
                m_marks.push_back({m.time, QString::fromStdString(std::string(index->textOf(m.text))), true});
        }
        const QStringList saved = Settings::value(settingsKey()).toStringList();
        for (const QString& entry : saved) {
            const int tab = int(entry.indexOf(QLatin1Char('\t')));
            bool ok = false;
            const uint64_t t = entry.left(tab).toULongLong(&ok);
            if (ok && tab > 0)
                m_marks.push_back({t, entry.mid(tab + 1), false});
        }
        std::stable_sort(m_marks.begin(), m_marks.end(), [](const Bookmark& a, const Bookmark& b) { return a.time < b.time; });
    }
    endResetModel();
    emit bookmarksChanged();
}

void BookmarkModel::save() const
{
    if (m_path.isEmpty())
        return;
    QStringList saved;
    for (const Bookmark& b : m_marks)
        if (!b.fromMarker)
            saved << QStringLiteral("%1\t%2").arg(b.time).arg(b.name);
    if (saved.isEmpty())
        Settings::remove(settingsKey());
    else
        Settings::setValue(settingsKey(), saved);
}

int BookmarkModel::add(uint64_t time, const QString& name)
{
    const auto it = std::upper_bound(m_marks.begin(), m_marks.end(), time, [](uint64_t t, const Bookmark& b) { return t < b.time; });
    const int row = int(it - m_marks.begin());
    beginInsertRows({}, row, row);
    m_marks.insert(it, {time, name, false});
    endInsertRows();
    save();
    emit bookmarksChanged();
    return row;
}

bool BookmarkModel::removeUser(int row)
{
    if (row < 0 || row >= rowCount() || m_marks[size_t(row)].fromMarker)
        return false;
    beginRemoveRows({}, row, row);
    m_marks.erase(m_marks.begin() + row);
    endRemoveRows();
    save();
    emit bookmarksChanged();
    return true;
}

std::vector<uint64_t> BookmarkModel::times() const
{
    std::vector<uint64_t> out;
    for (const Bookmark& b : m_marks)
        if (!b.fromMarker) // markers are drawn by their own track
            out.push_back(b.time);
    return out;
}

int BookmarkModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_marks.size());
}

int BookmarkModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant BookmarkModel::data(const QModelIndex& ix, int role) const
{
    if (!ix.isValid() || ix.row() >= rowCount() || ix.column() >= ColumnCount)
        return {};
    const Bookmark& b = m_marks[size_t(ix.row())];
    if (role == Qt::UserRole)
        return QVariant::fromValue<qulonglong>(b.time);
    if (role == Qt::ToolTipRole)
        return b.fromMarker ? tr("Marker in the log (traceMarker)") : tr("Your bookmark: double-click the name to rename it");
    if (role != Qt::DisplayRole && role != Qt::EditRole)
        return {};
    if (ix.column() == TimeColumn)
        return timeText(b.time);
    return b.fromMarker ? QStringLiteral("◆ ") + b.name : b.name;
}

bool BookmarkModel::setData(const QModelIndex& ix, const QVariant& value, int role)
{
    if (role != Qt::EditRole || !(flags(ix) & Qt::ItemIsEditable))
        return false;
    m_marks[size_t(ix.row())].name = value.toString();
    emit dataChanged(ix, ix);
    save();
    return true;
}

Qt::ItemFlags BookmarkModel::flags(const QModelIndex& ix) const
{
    Qt::ItemFlags f = QAbstractTableModel::flags(ix);
    if (ix.isValid() && ix.column() == NameColumn && ix.row() < rowCount() && !m_marks[size_t(ix.row())].fromMarker)
        f |= Qt::ItemIsEditable;
    return f;
}

QVariant BookmarkModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, o, role);
    return section == TimeColumn ? tr("Time") : tr("Name");
}

void BookmarkModel::follow(const LogDocument* doc)
{
    connect(doc, &LogDocument::cleared, this, [this] { setLog(QString(), nullptr); });
    connect(doc, &LogDocument::indexChanged, this,
            [this, doc](const IndexChange& c) { setLog(doc->path(), c.index.get()); });
}

BookmarkTable::BookmarkTable(BookmarkModel* model, QWidget* parent)
    : QTableView(parent)
    , m_model(model)
{
    setModel(model);
    verticalHeader()->hide();
    horizontalHeader()->setStretchLastSection(true);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    auto jump = [this](const QModelIndex& ix) { emit jumped(ix.data(Qt::UserRole).toULongLong()); };
    connect(this, &QTableView::clicked, this, jump);
    connect(this, &QTableView::activated, this, jump);
    auto* remove = new QAction(tr("Remove Bookmark"), this);
    remove->setShortcut(QKeySequence::Delete);
    remove->setShortcutContext(Qt::WidgetShortcut);
    connect(remove, &QAction::triggered, this, [this] { m_model->removeUser(currentIndex().row()); });
    addAction(remove);
    setContextMenuPolicy(Qt::ActionsContextMenu);
}

void BookmarkTable::addAt(uint64_t time)
{
    const int row = m_model->add(time, tr("Bookmark %1").arg(m_model->times().size() + 1));
    const QModelIndex name = m_model->index(row, BookmarkModel::NameColumn);
    setCurrentIndex(name);
    if (isVisible())
        edit(name);
}

} // namespace hecscope
