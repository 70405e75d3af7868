#pragma once

#include "core/index/logindex.h"
#include "core/io/bytesource.h"
#include "core/stats/sparksizes.h"
#include "core/time/viewrange.h"
#include "ui/jobs/jobrunner.h"

#include <QWidget>

#include <memory>
#include <optional>
#include <string>

class QComboBox;
class QLabel;

namespace hecscope {

class LogDocument;

class SparkSizesChart;

// The Spark sizes pane: how long sparks took to evaluate (the histogram of
// core/stats/sparksizes.h) for the whole run or the timeline's selection,
// on all capabilities or one. A header says what it covers and the figures
// (count, total, median, mean, percentiles); the chart says instead why
// there is nothing to draw (a log without -lf, a range where no spark ran).
// The spark events of the range are read back from the log's file, their
// evaluations measured and binned on a worker for each range or capability
// (a big -lf log has millions of sparks); the UI thread never waits, and
// the pane keeps only the figures shown. A file changed or cut since it
// was indexed is said in place of the chart.
class SparkSizesPane : public QWidget {
    Q_OBJECT
public:
    explicit SparkSizesPane(QWidget* parent = nullptr);
    ~SparkSizesPane() override;

    // `source`: the log's bytes, where the spark events are read back from.
    void setIndex(std::shared_ptr<const LogIndex> index, std::shared_ptr<ByteSource> source = {});
    void follow(const LogDocument* doc); // the document's log, as it changes
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
    // What a computation brings back: the figures, or why there are none.
    struct Result {
        std::shared_ptr<const SparkSizes> sizes;
        std::string message;       // sparkSizesMessage
        uint64_t unattributed = 0; // spark events in the range with no running thread
        bool ranged = false;
    };
    void recompute();
    QString scopeText() const;
    void showResult(const Result& result);

    QLabel* m_header;
    QComboBox* m_cap;
    QComboBox* m_bars;
    SparkSizesChart* m_chart;

    std::shared_ptr<const LogIndex> m_index;
    std::shared_ptr<ByteSource> m_source;
    std::optional<ViewRange> m_range;
    std::shared_ptr<const SparkSizes> m_sizes; // shown
    JobRunner m_runner;                        // reads, measures and bins; last: destroyed first
};

} // namespace hecscope
