#pragma once

#include "core/index/logindex.h"
#include "core/io/bytesource.h"
#include "core/time/viewrange.h"

#include <QImage>
#include <QWidget>

#include <memory>
#include <optional>

class QComboBox;
class QLabel;
class QScrollArea;

namespace hecscope {

class TimelineView;
class ViewController;

// The second run's timeline (B), under the log on screen (A) on one time
// axis: its own view controller kept in step with A's, so that zoom, pan,
// the selection and the cursor act on both. The axis is A's; B's times are
// placed on it by the alignment: both runs from their start, or B stretched
// to A's length. Each run's own bounds are extended to the other's, so that
// both show the same span at the same scale (where a run has ended, its
// tracks are empty).
class CompareTimeline : public QWidget {
    Q_OBJECT
public:
    enum class Align { Start, Stretch };

    // `viewA`: A's timeline, whose label column B's matches (and the other
    // way round) while B is shown.
    CompareTimeline(ViewController* controllerA, TimelineView* viewA, QWidget* parent = nullptr);
    ~CompareTimeline() override;

    // A's index (its length sets the stretch); B's index, bytes and tracks.
    void setRuns(std::shared_ptr<const LogIndex> a, const QString& pathB, std::shared_ptr<const LogIndex> b,
                 std::shared_ptr<ByteSource> sourceB, const std::vector<QString>& tracks);
    void clear();
    bool hasRun() const { return m_b != nullptr; }
    const std::shared_ptr<const LogIndex>& runB() const { return m_b; }
    void setAlignment(Align align);

    TimelineView* view() const { return m_view; }
    ViewController* controller() const { return m_controller; }
    // A time of A's axis as B's time, and back (ns).
    uint64_t toB(uint64_t tA) const;
    uint64_t toA(uint64_t tB) const;
    // Both runs' timelines as they are shown (Export Image… writes it).
    QImage image();
    // Follows A's cursor (the window connects A's view to it).
    void setCursorFromA(std::optional<uint64_t> tA);

signals:
    void cursorFromB(std::optional<uint64_t> tA); // B's cursor, on A's axis

private:
    void followA(ViewRange rangeA);
    void followB(ViewRange rangeB);
    void followSelectionA(std::optional<ViewRange> s);
    void followSelectionB(std::optional<ViewRange> s);
    void updateBounds();
    void exportImage();
    template <class Step>
    void sync(Step step);

    ViewController* m_controllerA;
    TimelineView* m_viewA;
    ViewController* m_controller;
    TimelineView* m_view;
    QScrollArea* m_scroll;
    QLabel* m_name;
    QComboBox* m_alignBox;
    std::shared_ptr<const LogIndex> m_a, m_b;
    QString m_pathB;
    Align m_align = Align::Start;
    double m_scale = 1; // B ns per A ns
    bool m_syncing = false;
    ViewRange m_boundsA{0, 1}, m_boundsB{0, 1};
};

} // namespace hecscope
