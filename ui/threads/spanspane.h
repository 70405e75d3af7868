#pragma once

#include "core/index/logindex.h"
#include "core/threads/userspans.h"
#include "core/time/viewrange.h"
#include "ui/jobs/jobrunner.h"

#include <QAbstractTableModel>
#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

class QLabel;
class QLineEdit;
class QTableView;

namespace hecscope {

class LogDocument;
class ViewController;

// Span names with their figures (count, total, self, mean, p50, p95, max).
class SpanNamesModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Count, Total, Self, Mean, P50, P95, Max, Open, ColumnCount }; // Open: never stopped
    static constexpr int kNameRole = Qt::UserRole + 10;
    using QAbstractTableModel::QAbstractTableModel;
    void setFigures(std::shared_ptr<const UserSpans> spans, std::vector<SpanNameFigures> figures);
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

private:
    uint64_t value(const SpanNameFigures& f, int column) const;
    std::shared_ptr<const UserSpans> m_spans;
    std::vector<SpanNameFigures> m_figures;
    int m_sortColumn = Total;
    Qt::SortOrder m_sortOrder = Qt::DescendingOrder;
};

// The spans of one name: start, duration, self, thread, depth.
class SpanOccurrencesModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Start, Duration, Self, Thread, Depth, Note, ColumnCount };
    static constexpr int kSpanRole = Qt::UserRole + 10;
    using QAbstractTableModel::QAbstractTableModel;
    void setSpans(std::shared_ptr<const LogIndex> index, std::shared_ptr<const UserSpans> spans,
                  std::vector<uint32_t> members);
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

private:
    uint64_t value(uint32_t span, int column) const;
    std::shared_ptr<const LogIndex> m_index;
    std::shared_ptr<const UserSpans> m_spans;
    std::vector<uint32_t> m_members;
    int m_sortColumn = Start;
    Qt::SortOrder m_sortOrder = Qt::AscendingOrder;
};

// The Spans pane: span names with their figures for the run or the
// selected range (spans starting in it), the occurrences of the chosen
// name, and the rules that make spans (prefixes, markers). Choosing an
// occurrence jumps to it.
class SpansPane : public QWidget {
    Q_OBJECT
public:
    explicit SpansPane(QWidget* parent = nullptr);
    void setIndex(std::shared_ptr<const LogIndex> index);
    // The document's log as it changes (a grown one keeps the user's
    // choices), for the selection `view` has.
    void follow(const LogDocument* doc, const ViewController* view);
    // The same log grown (a live update): the user's rules and chosen name
    // stay, and the tables keep their rows until the new figures land.
    void updateIndex(std::shared_ptr<const LogIndex> index);
    // The name whose occurrences are shown, if any.
    std::optional<std::string> chosenName() const;
    void setRange(std::optional<ViewRange> range);
    std::shared_ptr<const UserSpans> spans() const { return m_spans; }
    QTableView* namesTable() const { return m_names; }
    QTableView* occurrencesTable() const { return m_occurrences; }
    SpanNamesModel* namesModel() const { return m_namesModel; }
    SpanOccurrencesModel* occurrencesModel() const { return m_occurrencesModel; }
    QString statusText() const;
    // Pairs the spans again with these rules (off the UI thread).
    void setRules(const SpanRules& rules);

signals:
    void spansChanged(std::shared_ptr<const hecscope::UserSpans> spans); // new rules applied
    void spanChosen(uint64_t start, uint64_t end, uint32_t thread);
    void figuresShown(); // a computation landed (tests)

private:
    void recompute();
    // Pairs the index's spans with `rules` on a worker, then shows them
    // (forgetting the chosen name, when the rules are new).
    void pair(const SpanRules& rules, bool forgetName);
    void showName(uint32_t name);

    SpanNamesModel* m_namesModel;
    SpanOccurrencesModel* m_occurrencesModel;
    QTableView* m_names;
    QTableView* m_occurrences;
    QLineEdit* m_start;
    QLineEdit* m_stop;
    QLabel* m_status;
    std::shared_ptr<const LogIndex> m_index;
    std::shared_ptr<const UserSpans> m_spans;
    std::optional<ViewRange> m_range;
    std::optional<uint32_t> m_name; // shown in the occurrences
    std::optional<std::string> m_keepName; // after a live update: chosen again once the figures land
    bool m_markers = true;
    JobRunner m_runner;      // figures
    JobRunner m_pairRunner;  // re-pairing with new rules; last: destroyed first
};

} // namespace hecscope
