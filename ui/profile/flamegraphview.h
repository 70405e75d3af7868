#pragma once

#include "core/profile/profileviews.h"
#include "ui/profile/flamepainter.h"

#include <QRegularExpression>
#include <QWidget>

#include <functional>
#include <memory>
#include <optional>

class QLabel;
class QMenu;
class QScrollArea;
class QToolButton;

namespace hecscope {

// One cost-centre profile as a flame graph (or icicle): click a frame to zoom
// into it, a breadcrumb of the path to the focus to go back, search to
// highlight. The layout is computed when the profile, focus or metric change;
// painting and hit tests only read it.
class FlameGraphView : public QWidget {
    Q_OBJECT
public:
    explicit FlameGraphView(QWidget* parent = nullptr);
    ~FlameGraphView() override;

    // Keeps the focus when the new profile has a node with the same stack of
    // cost centres (a new time range of the same log), else shows the root.
    // `layout`, when given, was made off the UI thread for the focus the
    // view will keep (found by focusPath() of before): taken when it matches.
    void setProfile(std::shared_ptr<const CostCentreProfile> profile, ProfileMetric metric,
                    std::optional<FlameLayout> layout = std::nullopt);
    // The cost centres from the root to the focus (what a new profile's focus is found by).
    std::vector<uint32_t> focusPath() const;
    void setIcicle(bool icicle);
    // Highlights the frames whose label or module matches; emits searchResult.
    void setSearch(const QRegularExpression& pattern);
    void setEmptyText(const QString& text); // shown when there is no profile or nothing in it
    // A differential flame graph: per node of the profile set next, its
    // fill (0: the module's colour) and a line added to its tooltip (HTML).
    // Cleared by setProfile unless given with it.
    void setFrameColours(std::vector<QRgb> colours, std::function<QString(uint32_t node)> note = {});

    const std::shared_ptr<const CostCentreProfile>& profile() const { return m_profile; }
    uint32_t focus() const { return m_layout.focus; }
    const FlameLayout& layout() const { return m_layout; }
    std::vector<uint32_t> breadcrumb() const; // nodes from the root to the focus
    const std::optional<SearchResult>& search() const { return m_search; }
    QString emptyText() const { return m_emptyText; }
    QWidget* canvas() const;
    QToolButton* backButton() const { return m_back; }
    FlamePaintOptions paintOptions() const; // as the canvas paints now
    QString describe(uint32_t node) const;  // the tooltip of a node's frame
    QString stackText(uint32_t node) const; // "Copy stack": the frames joined by ';', outermost first
    QMenu* frameMenu(uint32_t node, QWidget* parent);

public slots:
    void zoomTo(uint32_t node);
    void zoomOut(); // to the focus's parent
    void resetZoom();

signals:
    void frameChosen(uint32_t node);
    void sandwichRequested(uint32_t costCentre);
    void searchResult(const QString& text);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    class Canvas;
    friend class Canvas;
    void relayout(uint32_t focus);
    void showLayout(FlameLayout layout);
    void fitCanvas();
    void updateBreadcrumb();
    void updateSearch();
    void frameClicked(int frame);
    QString shareText() const;

    std::shared_ptr<const CostCentreProfile> m_profile;
    ProfileMetric m_metric = ProfileMetric::Time;
    FlameLayout m_layout;
    bool m_icicle = false;
    QRegularExpression m_pattern;
    std::optional<SearchResult> m_search;
    uint32_t m_chosen = UINT32_MAX;  // node
    uint32_t m_hovered = UINT32_MAX; // frame
    QString m_emptyText;
    std::vector<QRgb> m_colours;
    std::function<QString(uint32_t)> m_note;
    QToolButton* m_back = nullptr;
    QLabel* m_crumbs = nullptr;
    Canvas* m_canvas = nullptr;
    QScrollArea* m_scroll = nullptr;
};

} // namespace hecscope
