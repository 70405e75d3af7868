#pragma once

#include "ui/jobs/jobrunner.h"
#include "ui/timeline/timelinerenderer.h"

#include <QWidget>

#include <functional>

#include <memory>
#include <optional>
#include <utility>

namespace hecscope {

class LogDocument;

class ViewController;

// The timeline canvas: paints the renderer's tracks for the controller's
// range and turns mouse and keys into view changes. Wheel zooms around the
// pointer (Shift+wheel pans), left drag pans, Shift+drag or right drag
// selects a range, a click places the cursor; +, -, arrows, Home, Escape.
class TimelineView : public QWidget {
    Q_OBJECT
public:
    explicit TimelineView(ViewController* controller, QWidget* parent = nullptr);

    void setIndex(std::shared_ptr<const LogIndex> index);
    // The document's log as it changes: a grown one keeps the view, a
    // reload of the same file keeps the range and selection; its
    // placeholder, a live log's pending and dropped stretches.
    void follow(const LogDocument* doc);
    // The same log, grown (a live session's newer snapshot): the view, the
    // selection, the cursor and the chosen item stay.
    void updateIndex(std::shared_ptr<const LogIndex> index);
    // Where the log's detail is read back from (the file, or a live
    // session's recording): a new source starts a new DetailStore, the same
    // one (a grown log) keeps what was read.
    void setDetailSource(std::shared_ptr<ByteSource> source);
    const std::shared_ptr<DetailStore>& detail() const { return m_detail; }
    // Whether detail the last paint wanted is still being read.
    bool isReadingDetail() const { return m_detailJobs.isBusy(); }
    const TimelineRenderer& renderer() const { return m_renderer; }
    RenderOptions options() const;
    void setTracks(std::vector<QString> tracks); // TimelineTrack ids, top to bottom
    // Another view stacked with this one on one time axis (two runs
    // compared): both take the wider label column. None: its own.
    void setLabelPartner(const TimelineView* partner);
    int naturalLabelWidth() const; // the label column this view's own labels need
    // Whether this view draws (lays out, pins, hit-tests) its legend; a run
    // stacked under another whose legend explains its colours too does not.
    void setOwnLegend(bool own);
    bool ownLegend() const { return m_ownLegend; }
    // Whether `other`'s legend shows every entry and block this view's would.
    bool legendCoveredBy(const TimelineView& other) const;
    // The controller's times are this log's plus `bias` (a run placed later
    // on an axis it shares with another): where the view starts before the
    // log does, that stretch is blank (RenderOptions::leadingBlank). Every
    // time the view reports or is given (cursor, clicks) is the log's own.
    void setTimeBias(uint64_t bias);
    uint64_t timeBias() const { return m_bias; }
    // The log's stretch on screen (the controller's range less the bias).
    ViewRange shownRange() const;
    const std::vector<QString>& tracks() const { return m_tracks; }
    void setHighlight(std::optional<uint64_t> t);
    void setBookmarks(std::vector<uint64_t> times);
    std::optional<uint64_t> cursor() const { return m_cursor; }
    void setCursorTime(std::optional<uint64_t> t);
    // A track's user state (RenderOptions::states): replaces the one of
    // its type; null: the track's default.
    template <class S>
    void setTrackState(std::shared_ptr<const S> state)
    {
        m_states.set(std::move(state));
        stateChanged();
    }
    // What every track says instead of its data (RenderOptions::placeholder).
    void setPlaceholder(const QString& text);
    // A live log's unmerged end (RenderOptions::pendingFrom); none: complete.
    void setPendingFrom(std::optional<uint64_t> t);
    // RenderOptions::droppedBefore; none: nothing dropped.
    void setDroppedBefore(std::optional<uint64_t> t);
    // RenderOptions::rowHeights (dragging a row's bottom edge changes them).
    void setRowHeights(std::map<QString, int> heights);
    const std::map<QString, int>& rowHeights() const { return m_rowHeights; }
    static constexpr int kMinRowHeight = 14, kMaxRowHeight = 800;
    std::optional<SelectedItem> selectedItem() const { return m_selected; }
    QSize sizeHint() const override;
    // Wheel zoom steps closer together than this are one gesture: one step
    // of the Back history.
    static constexpr int kWheelGestureMs = 400;
    // The clock the wheel gesture is timed by (ms, monotonic); tests set
    // their own. None: the steady clock.
    void setClock(std::function<int64_t()> msNow);

signals:
    void hoverTimeChanged(std::optional<uint64_t> t);
    void clicked(uint64_t t);
    void cursorChanged(std::optional<uint64_t> t); // by a click or setCursorTime
    void heapBandClicked(uint32_t label);         // a band of the heap-profile track (not OTHER)
    void itemClicked(const QString& details); // what is under a click; empty: nothing
    void itemSelected(const std::optional<hecscope::SelectedItem>& item); // by a click
    void rowHeightsChanged(const std::map<QString, int>& heights); // a drag of a row's edge ended

protected:
    void paintEvent(QPaintEvent*) override;
    bool event(QEvent* e) override;
    void wheelEvent(QWheelEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;
    void mouseDoubleClickEvent(QMouseEvent* e) override;
    void keyPressEvent(QKeyEvent* e) override;
    void leaveEvent(QEvent*) override;
    void contextMenuEvent(QContextMenuEvent* e) override;
    void moveEvent(QMoveEvent* e) override;

private:
    TimeMapping mapping() const;
    // The controller's range as this log's times; `blank`: the pixels
    // before the log starts (of a plot `plotWidth` wide with no blank).
    ViewRange shownRange(int plotWidth, int* blank) const;
    QRect visibleRect() const;
    QPoint unpinned(QPoint pos) const;
    void updateHeight();
    void stateChanged(); // a track's state: its rows and drawing
    // Has what the last paint wanted and did not find read on a worker,
    // then paints again.
    void readWantedDetail();

    ViewController* m_controller;
    // The range and selection across a reload of the same file (follow).
    std::optional<std::pair<ViewRange, std::optional<ViewRange>>> m_keepView;
    TimelineRenderer m_renderer;
    std::vector<QString> m_tracks = defaultTrackIds();
    const TimelineView* m_labelPartner = nullptr;
    bool m_ownLegend = true;
    uint64_t m_bias = 0;
    RenderOptions ownOptions() const; // options() without the partner's label column
    RenderOptions unbiasedOptions() const; // options() with no leading blank
    std::optional<uint64_t> m_cursor, m_highlight;
    std::vector<uint64_t> m_bookmarks;
    TrackStates m_states;
    QString m_placeholder; // the Profile pane's chosen frame
    std::optional<SelectedItem> m_selected;
    std::optional<uint64_t> m_pendingFrom;
    std::optional<uint64_t> m_droppedBefore;
    std::optional<int64_t> m_lastWheelZoomMs;
    std::function<int64_t()> m_clock;
    std::map<QString, int> m_rowHeights;
    enum class Drag { None,
                      Pan,
                      Select,
                      Resize } m_drag
        = Drag::None;
    // The row whose bottom edge is within 3 pixels of `pos`, if its track
    // can be resized.
    std::optional<TrackRow> edgeAt(QPoint pos) const;
    QString m_resizeTrack;
    int m_resizeTop = 0; // y of the dragged row's top
    QPoint m_pressPos;
    ViewRange m_pressRange;
    uint64_t m_pressTime = 0;
    bool m_moved = false;
    std::shared_ptr<const LogIndex> m_index;
    std::shared_ptr<DetailStore> m_detail;
    // Two at once: the windows of thread segments beside the instants
    // (readWantedDetail). Last: destroyed (cancelled, waited for) first.
    JobRunner m_detailJobs{2};
};

} // namespace hecscope
