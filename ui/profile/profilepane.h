#pragma once

#include "core/index/logindex.h"
#include "core/profile/profile.h"
#include "core/time/viewrange.h"
#include "ui/profile/profilehighlight.h"
#include "ui/jobs/jobrunner.h"

#include <QWidget>

#include <memory>
#include <optional>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QTabWidget;
class QTableView;
class QTimer;
class QTreeView;

namespace hecscope {

class LogDocument;
class ViewController;

class FlameGraphView;
class ProfileTreeModel;
class TickyModel;

// The Profile pane: where the time and allocation go. Its source is the
// open eventlog's cost-centre samples (for the selected range and a
// capability, recomputed off the UI thread when the selection changes) or
// a .prof / -pj report opened alone or beside the log. Views: flame graph
// (or icicle), call tree, bottom-up, the callers and callees of one cost
// centre, and the ticky-ticky counters of the log.
class ProfilePane : public QWidget {
    Q_OBJECT
public:
    explicit ProfilePane(QWidget* parent = nullptr);
    ~ProfilePane() override;

    void setIndex(std::shared_ptr<const LogIndex> index);
    // The document's log as it changes, for the selection `view` has; a
    // report beside a log is dropped with it.
    void follow(const LogDocument* doc, const ViewController* view);
    void setRange(std::optional<ViewRange> range);
    // A report read from `path`; null takes it away.
    void setReport(std::shared_ptr<const CostCentreProfile> report, const QString& path);
    bool hasReport() const { return m_report != nullptr; }

    // What the views show now (tests, export).
    std::shared_ptr<const CostCentreProfile> profile() const { return m_profile; }
    FlameGraphView* flameGraph() const { return m_flame; }
    QTreeView* callTree() const { return m_callTree; }
    QTreeView* bottomUpTree() const { return m_bottomUp; }
    QTreeView* callersTree() const { return m_callers; }
    QTreeView* calleesTree() const { return m_callees; }
    QTableView* tickyTable() const { return m_ticky; }
    QTabWidget* tabs() const { return m_tabs; }
    QString statusText() const;
    QString searchStatusText() const; // the share the search matches, or why it cannot
    // UI-thread time the last computed profile took to show (models, flame layout), ms.
    double lastApplyMs() const { return m_lastApplyMs; }
    void setCapability(int cap);  // -1: all
    void setHideRts(bool hide);
    void setAllocation(bool alloc);
    void setSearch(const QString& pattern);
    // `raise`: bring its tab forward (a user's choice; not when a new range re-computes it).
    void showCallersAndCallees(uint32_t cc, bool raise = true);

signals:
    // The frame the user chose, for the Time profile track (null: none).
    void highlightChanged(std::shared_ptr<const hecscope::ProfileHighlight> highlight);
    void profileShown();  // a computation landed: flame graph and call tree (tests, bench)
    void bottomUpShown(); // the bottom-up tree followed

private:
    void recompute();
    void forgetProfile();
    void computeBottomUp();
    void applySearch();
    void saveImage();
    void chooseNode(uint32_t node);
    void updateSourceChoices();
    void showTicky();
    bool usingReport() const;

    QComboBox* m_source;
    QComboBox* m_metric;
    QComboBox* m_cap;
    QCheckBox* m_hideRts;
    QCheckBox* m_icicle;
    QLineEdit* m_search;
    QTimer* m_searchTimer;
    QLabel* m_status;
    QLabel* m_searchStatus;
    QTabWidget* m_tabs;
    FlameGraphView* m_flame;
    QTreeView* m_callTree;
    QTreeView* m_bottomUp;
    QLabel* m_sandwichTitle;
    QTreeView* m_callers;
    QTreeView* m_callees;
    QComboBox* m_tickyDump;
    QTableView* m_ticky;
    ProfileTreeModel* m_callModel;
    ProfileTreeModel* m_bottomUpModel;
    ProfileTreeModel* m_callersModel;
    ProfileTreeModel* m_calleesModel;
    TickyModel* m_tickyModel;

    std::shared_ptr<const LogIndex> m_index;
    std::optional<ViewRange> m_range;
    std::shared_ptr<const CostCentreProfile> m_report;
    QString m_reportPath;
    std::shared_ptr<const CostCentreProfile> m_profile; // shown
    std::optional<uint32_t> m_sandwichCc;
    double m_lastApplyMs = 0;
    JobRunner m_runner;         // the profile, its flame layout and call tree
    JobRunner m_bottomUpRunner; // then its bottom-up tree
    JobRunner m_sandwichRunner; // callers and callees; last: destroyed first
};

} // namespace hecscope
