#pragma once

#include "core/time/viewrange.h"

#include <QObject>

#include <optional>
#include <vector>

namespace hecscope {

// The one owner of what the timeline shows: the log's bounds, the visible
// range, the selected range and the zoom history. Every track follows
// `viewChanged`. Ranges are always inside the bounds (see fitInto).
class ViewController : public QObject {
    Q_OBJECT
public:
    explicit ViewController(QObject* parent = nullptr);

    void setBounds(ViewRange bounds); // resets the view to fit all, clears
                                      // history and selection
    // A growing log: new bounds, the same view (or all of it, if it showed
    // all before), history and selection.
    void extendBounds(ViewRange bounds);
    ViewRange bounds() const { return m_bounds; }
    ViewRange range() const { return m_range; }
    std::optional<ViewRange> selection() const { return m_selection; }

    // Moves the view; `remember` puts the previous range on the back stack
    // (zooms and jumps do, continuous drags and wheel steps after the first do
    // not).
    void setRange(ViewRange r, bool remember = true);
    void zoom(double factor, uint64_t anchor, bool remember = false);
    void pan(double deltaNs);
    void fitAll();
    void zoomToSelection();
    void centreOn(uint64_t t); // keeps the zoom
    void setSelection(std::optional<ViewRange> s);

    bool canGoBack() const { return !m_back.empty(); }
    bool canGoForward() const { return !m_forward.empty(); }
    void back();
    void forward();

signals:
    void viewChanged(hecscope::ViewRange range);
    void selectionChanged(std::optional<hecscope::ViewRange> selection);
    void historyChanged();

private:
    ViewRange m_bounds{0, 1000};
    ViewRange m_range{0, 1000};
    std::optional<ViewRange> m_selection;
    std::vector<ViewRange> m_back, m_forward;
};

} // namespace hecscope
