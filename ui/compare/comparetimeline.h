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
class QSpinBox;
class QScrollArea;

namespace hecscope {

class TimelineView;
class ViewController;

// The second run's timeline (B), under the log on screen (A) on one time
// axis: its own view controller kept in step with A's, so that zoom, pan,
// the selection and the cursor act on both. The axis is A's; B's times are
// placed on it by the alignment: both runs from their start, B stretched to
// A's length, or B moved so that one occurrence of a user span or marker
// (the 3rd "request") starts at the same x in both. Each run's own bounds are
// extended to the other's, so that both show the same span at the same scale
// (where a run has ended, its tracks are empty; where B is moved later, the
// stretch before it starts is hatched).
class CompareTimeline : public QWidget {
    Q_OBJECT
public:
    enum class Align { Start, Stretch, Occurrence };

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
    void setAlignment(Align align); // Start or Stretch
    // Moves B so that the `occurrence`th (from 1) span or marker called
    // `name` starts where A's does. False (nothing changes) when either run
    // has fewer.
    bool alignAt(const QString& name, int occurrence);
    Align alignment() const { return m_align; }
    // The span and marker names both runs have (what alignAt takes), and
    // how many times the rarer run has each.
    std::vector<std::pair<QString, int>> commonNames() const;
    // A's time minus B's for one instant of both (Occurrence; else 0).
    int64_t shift() const { return m_shift; }

    TimelineView* view() const { return m_view; }
    ViewController* controller() const { return m_controller; }
    // A time of A's axis as B's time, and back (ns; clamped to the runs'
    // start).
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
    struct AlignName {
        QString name;
        int count; // occurrences in the rarer run
        bool marker; // a traceMarker's (else a START/STOP span's)
    };
    std::vector<AlignName> alignNames() const; // commonNames, each said a marker or not
    void fillAlignBox();
    void chooseAlignment(int item);
    uint64_t axisB(uint64_t tA) const; // A's time on B's controller's axis
    uint64_t axisToA(uint64_t axis) const;
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
    QSpinBox* m_occurrence;
    QLabel* m_shiftLabel;
    std::shared_ptr<const LogIndex> m_a, m_b;
    QString m_pathB;
    Align m_align = Align::Start;
    double m_scale = 1; // B ns per A ns
    int64_t m_shift = 0; // Occurrence: A's time minus B's
    QString m_alignName; // Occurrence: the span or marker
    int m_alignOccurrence = 1;
    bool m_syncing = false;
    ViewRange m_boundsA{0, 1}, m_boundsB{0, 1};
};

} // namespace hecscope
