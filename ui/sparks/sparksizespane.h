#pragma once

#include "core/index/logindex.h"
#include "core/stats/sparksizes.h"
#include "core/time/viewrange.h"
#include "ui/jobs/jobrunner.h"

#include <QWidget>

#include <memory>
#include <optional>

class QComboBox;
class QLabel;

namespace hecscope {

class SparkSizesChart;

// The Spark sizes pane: how long sparks took to evaluate (the histogram of
// core/stats/sparksizes.h) for the whole run or the timeline's selection,
// on all capabilities or one. A header says what it covers and the figures
// (count, total, median, mean, percentiles); the chart says instead why
// there is nothing to draw (a log without -lf, a range where no spark ran).
// The log's evaluations are measured once per index on a worker, then
// each range or capability is binned on a worker too (a big -lf log has
// millions of sparks to sort); the UI thread never waits for either.
class SparkSizesPane : public QWidget {
    Q_OBJECT
public:
    explicit SparkSizesPane(QWidget* parent = nullptr);
    ~SparkSizesPane() override;

    void setIndex(std::shared_ptr<const LogIndex> index);
    void setRange(std::optional<ViewRange> range);
    void setCapability(int cap); // -1: all

    // What is shown now (tests): the header, the chart (its message or
    // bars), the figures (null while computing or when there are none).
    QString headerText() const;
    SparkSizesChart* chart() const { return m_chart; }
    std::shared_ptr<const SparkSizes> sizes() const { return m_sizes; }
    bool isComputing() const;

signals:
    void sizesShown(); // a computation landed (figures or a message)

private:
    void measure();
    void recompute();
    QString scopeText() const;
    void showSizes(std::shared_ptr<const SparkSizes> sizes);

    QLabel* m_header;
    QComboBox* m_cap;
    QComboBox* m_bars;
    SparkSizesChart* m_chart;

    std::shared_ptr<const LogIndex> m_index;
    std::optional<ViewRange> m_range;
    std::shared_ptr<const SparkEvaluations> m_evals; // of m_index, once measured
    std::shared_ptr<const SparkSizes> m_sizes;       // shown
    JobRunner m_measureRunner;                       // the log's evaluations
    JobRunner m_binRunner;                           // the histogram of a range; last: destroyed first
};

} // namespace hecscope
