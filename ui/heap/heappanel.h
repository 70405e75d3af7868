#pragma once

#include "core/index/logindex.h"
#include "core/time/viewrange.h"
#include "ui/heap/heapview.h"
#include "ui/jobs/jobrunner.h"

#include <QAbstractListModel>
#include <QAbstractTableModel>
#include <QStyledItemDelegate>
#include <QWidget>

#include <memory>
#include <optional>
#include <set>
#include <vector>

class QCheckBox;
class QComboBox;
class QLineEdit;
class QListView;
class QSortFilterProxyModel;
class QSpinBox;
class QTableView;
class QTreeWidget;
class QTreeWidgetItem;

namespace hecscope {

class LogDocument;
class ViewController;

// The legend of the heap-profile track: one row per shown band (OTHER
// last) with its colour; checked = drawn.
class BandLegendModel : public QAbstractListModel {
    Q_OBJECT
public:
    static constexpr int kColumnRole = Qt::UserRole + 10; // column of the selection
    using QAbstractListModel::QAbstractListModel;
    void setView(std::shared_ptr<const LogIndex> index, std::shared_ptr<const HeapView> view);
    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& ix, int role) const override;
    Qt::ItemFlags flags(const QModelIndex& ix) const override;

private:
    std::shared_ptr<const LogIndex> m_index;
    std::shared_ptr<const HeapView> m_view;
};

// Every band of the profile, one row each: label, peak, bytes at the
// cursor, byte·seconds, standard deviation, slope, R² and growth (over the
// selected range when there is one, else the whole run: the headers say
// which), byte·seconds in the selected range, and a sparkline. Sorting
// (kSortRole) covers all rows.
class BandTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Band,
                  Peak,
                  AtCursor,
                  ByteSeconds,
                  StdDev,
                  Slope,
                  R2,
                  Growth,
                  InRange,
                  Trend,
                  ColumnCount };
    static constexpr int kLabelRole = Qt::UserRole + 11; // label index
    static constexpr int kSparkRole = Qt::UserRole + 12; // QVector<double> in 0..1
    using QAbstractTableModel::QAbstractTableModel;
    void setIndex(std::shared_ptr<const LogIndex> index);
    // The document's log as it changes, for the selection `view` has (a
    // grown log keeps the cursor's column).
    void follow(const LogDocument* doc, const ViewController* view);
    void setCursor(std::optional<uint64_t> t);
    void setRange(std::optional<ViewRange> r);
    bool hasRange() const { return !m_inRange.empty(); }
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& ix, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

private:
    std::shared_ptr<const LogIndex> m_index;
    std::optional<uint64_t> m_cursorCensusTime;
    std::optional<uint64_t> m_cursor; // as last set
    std::vector<uint64_t> m_atCursor;
    std::vector<double> m_inRange; // empty: no range selected
    BandTrends m_trends;           // over the selected range, else the whole run
};

// Draws kSparkRole as a small line over the cell.
class SparklineDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter* p, const QStyleOptionViewItem& option, const QModelIndex& ix) const override;
};

// The heap-profile controls and legend: band count (0 = all), ordering and
// its direction, chart mode, and a filterable legend (substring, or a
// regular expression); clicking a band hides or shows it, hovering
// emphasises it in the chart. Emits the view the timeline draws.
class HeapPanel : public QWidget {
    Q_OBJECT
public:
    explicit HeapPanel(QWidget* parent = nullptr);
    void setIndex(std::shared_ptr<const LogIndex> index);
    // The document's log as it changes (another file: the default chart mode).
    void follow(const LogDocument* doc);
    // Back to the default chart mode (stacked): for another file, whose
    // chart would be misread in a mode chosen for the previous one.
    void resetChartMode();
    // Null until the bands of a new index are selected (at once unless
    // the profile is big and the choice is not the loader's default).
    std::shared_ptr<const HeapView> view() const { return m_view; }
    // Whether a selection is being computed on a worker thread.
    bool isSelecting() const { return m_selecting; }
    // Profiles with at least this many samples select on a worker thread.
    static constexpr size_t kSelectInline = 1'000'000;

    // For tests and the window's other panes.
    QLineEdit* filterField() const { return m_filter; }
    QCheckBox* regexBox() const { return m_regex; }
    QListView* legend() const { return m_legend; }
    QSpinBox* bandsBox() const { return m_bands; }
    QComboBox* orderBox() const { return m_order; }
    QCheckBox* reverseBox() const { return m_reverse; }
    QComboBox* modeBox() const { return m_mode; }
    // Labels emphasised in the chart (a table row, a cost centre); empty: none.
    void emphasiseLabels(const std::vector<uint32_t>& labels);
    // Toggles a legend row (a row of legend()'s model).
    void toggleRow(int row);

signals:
    void viewChanged(std::shared_ptr<const hecscope::HeapView> view);

protected:
    bool eventFilter(QObject* watched, QEvent* e) override;

private:
    void reselect();
    void adopt(std::shared_ptr<const BandSelection> selection);
    void refresh();
    void publish(std::shared_ptr<HeapView> view);
    void applyFilter();
    void emphasiseColumn(int column);

    std::shared_ptr<const LogIndex> m_index;
    std::shared_ptr<const HeapView> m_view;
    std::shared_ptr<const BandSelection> m_selection;
    std::set<uint32_t> m_hiddenLabels;
    bool m_hideOther = false;
    std::vector<uint32_t> m_chosen;    // labels picked out by the table, tree or chart
    std::optional<size_t> m_hover;     // legend row under the pointer (a column)
    bool m_selecting = false;
    QSpinBox* m_bands;
    QComboBox* m_order;
    QCheckBox* m_reverse;
    QComboBox* m_mode;
    QLineEdit* m_filter;
    QCheckBox* m_regex;
    QListView* m_legend;
    BandLegendModel* m_model;
    QSortFilterProxyModel* m_proxy;
    JobRunner m_selector; // big profiles select on it; last member: destroyed first
};

// The cost-centre stacks of a -hc profile as a tree (outermost cost centre
// at the root), each node with the byte·seconds and peak of the bands
// below it; choosing a node emphasises those bands.
class CostCentreTree : public QWidget {
    Q_OBJECT
public:
    explicit CostCentreTree(QWidget* parent = nullptr);
    void setIndex(std::shared_ptr<const LogIndex> index);
    void follow(const LogDocument* doc); // the document's log, as it changes
    QTreeWidget* tree() const { return m_tree; }
    // Selects and shows the node of a band's whole stack (without emitting
    // labelsChosen: the band is already chosen).
    void selectLabel(uint32_t label);

signals:
    void labelsChosen(const std::vector<uint32_t>& labels);

private:
    QTreeWidget* m_tree;
    std::shared_ptr<const LogIndex> m_index;
};

// The Heap Bands table over `model`: ranked by byte-seconds, a sparkline
// per band, several rows chosen at once; the rows chosen (and the nodes
// chosen in `tree`) are emphasised in `panel`'s chart.
void setUpBandTable(QTableView* table, BandTableModel* model, HeapPanel* panel, CostCentreTree* tree);
// A band clicked in the chart: its row in the band table (which picks it
// out in the chart) and its stack in the cost-centre tree.
void showBand(QTableView* table, CostCentreTree* tree, uint32_t label);

} // namespace hecscope
