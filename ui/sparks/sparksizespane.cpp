#include "ui/sparks/sparksizespane.h"

#include "ui/document/logdocument.h"

#include "ui/capabilitybox.h"

#include "ui/formatting.h"
#include "ui/sparks/sparksizeschart.h"
#include "ui/threads/tablehelpers.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QVBoxLayout>

namespace hecscope {

SparkSizesPane::SparkSizesPane(QWidget* parent)
    : QWidget(parent)
    , m_header(new QLabel)
    , m_cap(new QComboBox)
    , m_bars(new QComboBox)
    , m_chart(new SparkSizesChart)
{
    m_header->setWordWrap(true);
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_header->setToolTip(tr(
        "A spark's evaluation time is the time its spark thread ran from the spark's SPARK_RUN "
        "(or SPARK_STEAL) to the thread's next spark or its end, pauses and collections left "
        "out: ThreadScope's measure. A spark belongs to the range and capability it started in."));
    m_cap->addItem(tr("All capabilities"), -1);
    m_bars->addItem(tr("Bars: number of sparks"));
    m_bars->addItem(tr("Bars: total evaluation time"));
    m_bars->setToolTip(tr(
        "Total time per bin shows where the evaluation time goes (as ThreadScope draws it); "
        "the number of sparks shows how sizes are spread."));

    auto* controls = new QHBoxLayout;
    controls->addWidget(m_cap);
    controls->addWidget(m_bars);
    controls->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_header);
    layout->addLayout(controls);
    layout->addWidget(m_chart, 1);

    connect(m_cap, &QComboBox::currentIndexChanged, this, [this] { recompute(); });
    connect(m_bars, &QComboBox::currentIndexChanged, this, [this](int i) {
        m_chart->setBars(i == 0 ? SparkSizesChart::Bars::Count : SparkSizesChart::Bars::TotalTime);
    });
    setIndex(nullptr);
}

SparkSizesPane::~SparkSizesPane() = default;

void SparkSizesPane::setIndex(std::shared_ptr<const LogIndex> index, std::shared_ptr<ByteSource> source)
{
    m_index = std::move(index);
    m_source = std::move(source);
    m_sizes.reset();
    m_runner.cancel();
    fillCapabilityBox(m_cap, m_index.get());
    if (!m_index) {
        // (Also while a log loads: the window drops the old index first.)
        m_header->setText(tr("Spark sizes: no log loaded."));
        m_chart->setMessage(tr("How long each spark took appears here once an eventlog written with +RTS -lf is loaded."));
        return;
    }
    m_chart->setMessage(tr("Measuring the sparks…"));
    recompute();
}

void SparkSizesPane::setRange(std::optional<ViewRange> range)
{
    if (range == m_range)
        return;
    m_range = range;
    recompute();
}

void SparkSizesPane::setCapability(int cap)
{
    const int i = m_cap->findData(cap);
    if (i >= 0)
        m_cap->setCurrentIndex(i);
}

QString SparkSizesPane::headerText() const
{
    return m_header->text();
}

bool SparkSizesPane::isComputing() const
{
    return m_runner.isBusy();
}

QString SparkSizesPane::scopeText() const
{
    const int cap = m_cap->currentData().toInt();
    const QString range = tables::rangeText(m_range);
    return (cap >= 0 ? tr("%1, capability %2").arg(range).arg(cap) : tr("%1, all capabilities").arg(range));
}

// The histogram of the range and capability shown: the range's spark
// events read back from the file, measured, binned.
void SparkSizesPane::recompute()
{
    if (!m_index)
        return;
    const int cap = m_cap->currentData().toInt();
    m_header->setText(tr("Spark sizes (%1): measuring the sparks…").arg(scopeText()));
    m_runner.start(
        [index = m_index, source = m_source, range = m_range, cap](const JobContext& ctx) {
            const auto cancelled = [&ctx] { return ctx.isCancelled(); };
            MemorySource none({});
            SparkEvaluations evals = sparkEvaluations(*index, source ? *source : none, range, cancelled);
            if (!source && !evals.error.empty())
                evals.error = "the log's file is not open";
            Result r;
            const SparkSizes sizes = sparkSizes(evals, range, cap);
            r.message = sparkSizesMessage(sizes, evals);
            r.unattributed = evals.unattributed;
            r.ranged = range.has_value();
            r.sizes = std::make_shared<const SparkSizes>(sizes);
            return r;
        },
        [this](const Result& r) { showResult(r); });
}

void SparkSizesPane::showResult(const Result& r)
{
    const SparkSizes& s = *r.sizes;
    const QString scope = scopeText();
    if (s.status != SparkSizesStatus::Ok) {
        m_sizes.reset();
        m_header->setText(tr("Spark sizes (%1).").arg(scope));
        m_chart->setMessage(QString::fromStdString(r.message));
        emit sizesShown();
        return;
    }
    m_sizes = r.sizes;
    QString text = tr("Spark sizes (%1): %2 evaluated (%3 stolen from another capability), %4 in all. "
                      "Median %5, mean %6; percentiles 10th %7, 90th %8, 99th %9; longest %10.")
                       .arg(scope, s.count == 1 ? tr("1 spark") : tr("%1 sparks").arg(countText(s.count)),
                            countText(s.stolen), durationText(s.total), durationText(s.median), durationText(s.mean),
                            durationText(s.p10), durationText(s.p90), durationText(s.p99))
                       .arg(durationText(s.max));
    if (s.cut > 0)
        text += tr(" %1 cut by the end of the log: their times are lower bounds.").arg(countText(s.cut));
    if (r.unattributed > 0)
        text += (r.ranged ? tr(" %1 spark events of the range had no thread running on their capability and are not measured.")
                          : tr(" %1 spark events of the log had no thread running on their capability and are not measured."))
                    .arg(countText(r.unattributed));
    m_header->setText(text);
    m_chart->setSizes(m_sizes);
    emit sizesShown();
}

void SparkSizesPane::follow(const LogDocument* doc)
{
    connect(doc, &LogDocument::cleared, this, [this] { setIndex(nullptr); });
    // Its range follows the selection from the start; a range's spark
    // events are read back from the source.
    connect(doc, &LogDocument::indexChanged, this, [this](const IndexChange& c) { setIndex(c.index, c.source); });
}

} // namespace hecscope
