#include "ui/compare/comparefigures.h"

#include "ui/compare/comparepane.h"
#include "ui/formatting.h"

#include <QColor>
#include <QHeaderView>
#include <QTableView>

#include <cmath>

namespace hecscope {
double relativeChange(const ComparedFigure& f)
{
    if (f.a && !f.b)
        return -INFINITY;
    if (!f.a && f.b)
        return INFINITY;
    if (!f.both())
        return 0;
    if (f.a->value == 0)
        return f.b->value == 0 ? 0 : (f.b->value > 0 ? INFINITY : -INFINITY);
    return (f.b->value - f.a->value) / std::abs(f.a->value);
}

namespace {

const std::string& unitName(const ComparedFigure& f)
{
    return f.figure == "value" ? f.key : f.figure;
}

bool isReal(const ComparedFigure& f)
{
    return (f.a && f.a->real) || (f.b && f.b->real);
}

} // namespace

QVariant CompareFiguresModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::DisplayRole) {
        static const char* const names[] = {"Group", "Key", "Figure", "A", "B", "B − A", "B / A", "Change"};
        return QObject::tr(names[section]);
    }
    if (role == Qt::ForegroundRole && (section == A || section == B))
        return runColour(section == A ? 0 : 1);
    if (role == Qt::ToolTipRole && section == Ratio)
        return QObject::tr("B / A, where both runs have the figure and A is not 0");
    if (role == Qt::ToolTipRole && section == Change)
        return QObject::tr("(B − A) / A; “new”: only B has it, “gone”: only A has it");
    return {};
}

QVariant CompareFiguresModel::data(const QModelIndex& index, int role) const
{
    const ComparedFigure* f = figure(index.row());
    if (!f)
        return {};
    const bool real = isReal(*f);
    const std::string& unit = unitName(*f);
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case Group: return qs(f->group);
        case Key: return qs(f->key);
        case Figure: return f->figure == "value" ? QString() : qs(f->figure);
        case A: return f->a ? qs(formatFigure(unit, f->a->value, real)) : QStringLiteral("–");
        case B: return f->b ? qs(formatFigure(unit, f->b->value, real)) : QStringLiteral("–");
        case Difference: return f->both() ? qs(formatFigure(unit, *f->difference(), real, true)) : QString();
        case Ratio: {
            const std::optional<double> r = f->ratio();
            return r ? QStringLiteral("×%1").arg(*r, 0, 'g', 3) : QString();
        }
        case Change: {
            if (f->a && !f->b)
                return QObject::tr("gone");
            if (!f->a && f->b)
                return QObject::tr("new");
            const double c = relativeChange(*f);
            if (std::isinf(c))
                return QObject::tr("from 0");
            if (c == 0)
                return QStringLiteral("=");
            if (std::abs(c) < 0.0005) // (not "+0.0 %": it did change)
                return c > 0 ? QStringLiteral("+<0.1 %") : QStringLiteral("−<0.1 %");
            return QStringLiteral("%1%2 %").arg(c > 0 ? "+" : "").arg(c * 100, 0, 'f', 1);
        }
        }
        return {};
    case Qt::ToolTipRole:
        if (index.column() <= Figure)
            return qs(f->group + " / " + f->key + (f->figure == "value" ? "" : " / " + f->figure));
        return {};
    case Qt::TextAlignmentRole:
        return index.column() >= A ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::ForegroundRole:
        if (index.column() == Change || index.column() == Difference || index.column() == Ratio) {
            const double c = relativeChange(*f);
            if (c > 0)
                return QColor(0xb0, 0x1c, 0x1c);
            if (c < 0)
                return QColor(0x1c, 0x4e, 0xa8);
        }
        return {};
    case SortRole:
        switch (index.column()) {
        case Group: return qs(f->group);
        case Key: return qs(f->key);
        case Figure: return qs(f->figure);
        case A: return f->a ? f->a->value : -INFINITY;
        case B: return f->b ? f->b->value : -INFINITY;
        case Difference: return f->both() ? *f->difference() : 0.0;
        case Ratio: return f->ratio() ? *f->ratio() : 0.0;
        case Change: { // by the size of the change, either way
            const double c = relativeChange(*f);
            return std::isinf(c) ? 1e300 : std::abs(c);
        }
        }
        return {};
    }
    return {};
}

QTableView* newFiguresTable(CompareFiguresFilter* filter)
{
    filter->setSortRole(CompareFiguresModel::SortRole);
    auto* table = new QTableView;
    table->setModel(filter);
    table->setSortingEnabled(true);
    table->sortByColumn(-1, Qt::AscendingOrder); // the runs' order until a column is chosen
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setAlternatingRowColors(true);
    table->verticalHeader()->hide();
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 6);
    table->horizontalHeader()->setStretchLastSection(false);
    // (Fitting the columns measures a sample of rows, not thousands.)
    table->horizontalHeader()->setResizeContentsPrecision(200);
    table->horizontalHeader()->setSectionResizeMode(CompareFiguresModel::Key, QHeaderView::Stretch);
    return table;
}

QVariant CompareFiguresFilter::data(const QModelIndex& index, int role) const
{
    if (joinNames && role == Qt::DisplayRole && index.column() == CompareFiguresModel::Key) {
        const auto* model = static_cast<const CompareFiguresModel*>(sourceModel());
        if (const ComparedFigure* f = model->figure(mapToSource(index).row()))
            return f->figure == "value" ? qs(f->key) : qs(f->key + " · " + f->figure);
    }
    return QSortFilterProxyModel::data(index, role);
}

QVariant CompareFiguresFilter::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (joinNames && role == Qt::DisplayRole && orientation == Qt::Horizontal && section == CompareFiguresModel::Key)
        return QObject::tr("Figure");
    return QSortFilterProxyModel::headerData(section, orientation, role);
}

bool CompareFiguresFilter::filterAcceptsRow(int row, const QModelIndex&) const
{
    const auto* model = static_cast<const CompareFiguresModel*>(sourceModel());
    const ComparedFigure* f = model->figure(row);
    if (!f)
        return false;
    if (!f->listed())
        return false;
    if (!group.isEmpty() && qs(f->group) != group)
        return false;
    if (scope && !scope(*f))
        return false;
    if (changedOnly && relativeChange(*f) == 0)
        return false;
    if (!text.isEmpty() && !qs(f->key).contains(text, Qt::CaseInsensitive)
        && !qs(f->figure).contains(text, Qt::CaseInsensitive))
        return false;
    return true;
}

} // namespace hecscope
