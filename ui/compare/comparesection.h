#pragma once

#include "core/compare/comparison.h"

#include <QSplitter>
#include <QWidget>

#include <functional>

class QCheckBox;
class QCustomPlot;
class QLabel;
class QTableView;

namespace hecscope {

class ComparePane;
class CompareFiguresFilter;

// A pane's part of a comparison: while the log on screen (A) is compared
// with another run (B), the figures of the pane's concern — A, B, B − A and
// the change, sortable by the change, what one run lacks said so — shown
// beside the pane's own view. The figures are the Compare pane's (one
// model, following its selection), so each pane and `hecscope diff` agree.
class CompareSection : public QWidget {
    Q_OBJECT
public:
    using Scope = std::function<bool(const ComparedFigure&)>;
    struct Options {
        QString what;          // "GC", "threads": the header's words
        Scope scope;           // which figures are the pane's
        bool showGroup = false; // a Group column (figures of several groups)
        bool pauses = false;   // the GC pause distributions of both runs beside the table
        bool byChange = false; // sorted by the change at first (else in the runs' order)
    };
    CompareSection(ComparePane* pane, Options options, QWidget* parent = nullptr);

    QTableView* table() const { return m_table; }
    QCustomPlot* pausePlot() const { return m_pausePlot; }
    bool comparing() const; // a comparison is shown (the section is)
    int figuresShown() const;

signals:
    void openComparePane();

private:
    void refresh();

    ComparePane* m_pane;
    Options m_options;
    QLabel* m_header;
    QCheckBox* m_changedOnly;
    CompareFiguresFilter* m_filter;
    QTableView* m_table;
    QCustomPlot* m_pausePlot = nullptr;
    bool m_sized = false;
};

// A pane and its CompareSection side by side: beside each other when the
// pane is wide (a tab below the timeline), one above the other when it is
// tall (the right-hand column). The section is hidden while nothing is
// compared.
class ComparableView : public QSplitter {
    Q_OBJECT
public:
    ComparableView(QWidget* pane, CompareSection* section, QWidget* parent = nullptr);
    CompareSection* section() const { return m_section; }

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    CompareSection* m_section;
};

} // namespace hecscope
