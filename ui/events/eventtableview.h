#pragma once

#include <QAbstractScrollArea>

class QAbstractItemModel;
class QHeaderView;

namespace hecscope {

// A table view for models with tens of millions of rows of one height.
// QTableView keeps per-row bookkeeping in its vertical header (memory and
// time linear in the rows on every reset); this view keeps none: it paints
// the visible rows only, asking the model for their data, and holds one
// current row. Columns come from a horizontal QHeaderView (resizable).
class EventTableView : public QAbstractScrollArea {
    Q_OBJECT
public:
    explicit EventTableView(QWidget* parent = nullptr);

    void setModel(QAbstractItemModel* model);
    QAbstractItemModel* model() const { return m_model; }
    QHeaderView* header() const { return m_header; }
    int rowHeight() const { return m_rowHeight; }
    int currentRow() const { return m_current; } // -1: none
    // Makes `row` current (and visible, centred if it was off screen).
    void setCurrentRow(int row);
    void scrollToRow(int row);
    int firstVisibleRow() const;
    int visibleRows() const;
    int rowAt(int y) const; // -1 below the last row

signals:
    void currentRowChanged(int row);

protected:
    void paintEvent(QPaintEvent*) override;
    void resizeEvent(QResizeEvent*) override;
    void mousePressEvent(QMouseEvent* e) override;
    void keyPressEvent(QKeyEvent* e) override;
    bool viewportEvent(QEvent* e) override;
    void scrollContentsBy(int dx, int dy) override;

private:
    void updateScrollBar();
    void layoutHeader();

    QAbstractItemModel* m_model = nullptr;
    QHeaderView* m_header;
    int m_rowHeight;
    int m_current = -1;
};

} // namespace hecscope
