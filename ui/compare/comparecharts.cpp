// The Compare pane's charts: the differential flame graph, the two heap
// profiles on one scale, the GC pauses of both runs.
#include "ui/compare/comparepane.h"

#include "core/text/units.h"
#include "ui/formatting.h"
#include "ui/profile/flamegraphview.h"

#include <QComboBox>
#include <QLabel>

#include <qcustomplot.h>

#include <bit>
#include <cmath>

namespace hecscope {
namespace {

// The colour of a differential flame graph's frame: how much it changed
// from A to B (`change`) against the largest change shown; red grew, blue
// shrank, the usual sand when unchanged.
QRgb changeColour(double change, double largest)
{
    const QColor neutral(0xe8, 0xe2, 0xd6);
    if (largest <= 0 || change == 0)
        return neutral.rgb();
    const double s = std::min(1.0, std::sqrt(std::abs(change) / largest));
    const QColor to = change > 0 ? QColor(0xd7, 0x30, 0x27) : QColor(0x45, 0x75, 0xb4);
    const auto mix = [&](int a, int b) { return int(a + (b - a) * s); };
    return qRgb(mix(neutral.red(), to.red()), mix(neutral.green(), to.green()), mix(neutral.blue(), to.blue()));
}

} // namespace

void ComparePane::showFlame()
{
    const bool reverse = m_flameMode->currentIndex() == 1;
    const std::shared_ptr<const CostCentreProfile>& shown = reverse ? m_flameA : m_flameB;
    const std::shared_ptr<const CostCentreProfile>& other = reverse ? m_flameB : m_flameA;
    m_flameLegend->setText(QStringLiteral("<span style=\"background:#d73027;color:white\">&nbsp;grew&nbsp;</span> "
                                          "<span style=\"background:#e8e2d6\">&nbsp;same&nbsp;</span> "
                                          "<span style=\"background:#4575b4;color:white\">&nbsp;shrank&nbsp;</span> "
                                          "from A to B (inclusive time); brightest: ")
                           + (reverse ? tr("gone in B") : tr("new in B")));
    const std::shared_ptr<const std::vector<int64_t>>& matches = reverse ? m_aInB : m_bInA;
    if (!shown || !other || !matches) {
        m_flame->setProfile(nullptr, ProfileMetric::Time);
        m_flame->setEmptyText(tr("A differential flame graph needs cost-centre profiles in both runs (a profiled "
                                 "build run with +RTS -p -l, or a .prof / -pj report)."));
        return;
    }
    const CostCentreProfile& p = *shown;
    const std::vector<int64_t>& matched = *matches;
    std::vector<double> change(p.nodes.size());
    double largest = 0;
    for (size_t i = 0; i < p.nodes.size(); ++i) {
        const double mine = double(p.nodes[i].incl[0]);
        const double theirs = matched[i] < 0 ? 0 : double(matched[i]);
        change[i] = reverse ? theirs - mine : mine - theirs; // from A to B
        largest = std::max(largest, std::abs(change[i]));
    }
    std::vector<QRgb> colours(p.nodes.size());
    for (size_t i = 1; i < p.nodes.size(); ++i)
        colours[i] = matched[i] < 0 ? (reverse ? qRgb(0x31, 0x36, 0x95) : qRgb(0xa5, 0x00, 0x26))
                                    : changeColour(change[i], largest);
    m_flame->setProfile(shown, ProfileMetric::Time);
    auto note = [matched, change, reverse, unit = qs(p.unit[0] == ProfileUnit::Samples ? "samples" : "ticks")](uint32_t node) {
        if (node >= matched.size() || node == 0)
            return QString();
        if (matched[node] < 0)
            return QStringLiteral("<br><b>%1</b>").arg(reverse ? QObject::tr("gone: B has no such stack")
                                                               : QObject::tr("new: A has no such stack"));
        const double d = change[node];
        return QStringLiteral("<br><b>%1 %2 %3</b> from A to B (%4: %5)")
            .arg(d > 0 ? "+" : d < 0 ? "−" : "±")
            .arg(std::abs(d), 0, 'f', 0)
            .arg(unit)
            .arg(reverse ? QStringLiteral("B") : QStringLiteral("A"))
            .arg(matched[node]);
    };
    m_flame->setFrameColours(std::move(colours), std::move(note));
}

void ComparePane::showHeap()
{
    const bool any = (m_a && !m_a->heap.seconds.empty()) || (m_b && !m_b->heap.seconds.empty());
    // Labels of the largest bands of either run, those of both first.
    if (sender() != m_band) {
        const QSignalBlocker block(m_band);
        const QString current = m_band->currentText();
        m_band->clear();
        m_band->addItem(tr("Total only"));
        std::vector<std::string> labels;
        for (const auto* s : {m_a.get(), m_b.get()})
            if (s)
                for (const auto& [label, bytes] : s->heap.bands)
                    if (std::find(labels.begin(), labels.end(), label) == labels.end())
                        labels.push_back(label);
        for (const std::string& l : labels)
            m_band->addItem(qs(l));
        m_band->setCurrentIndex(std::max(0, m_band->findText(current)));
    }
    m_heapPlot->clearGraphs();
    if (!any) {
        m_heapPlot->replot();
        return;
    }
    const std::string band = m_band->currentIndex() > 0 ? m_band->currentText().toStdString() : std::string();
    for (int side = 0; side < 2; ++side) {
        const Side* s = side == 0 ? m_a.get() : m_b.get();
        if (!s || s->heap.seconds.empty())
            continue;
        const QString name = side == 0 ? QStringLiteral("A") : QStringLiteral("B");
        const auto add = [&](const std::vector<double>& bytes, const QString& label, Qt::PenStyle style) {
            QCPGraph* g = m_heapPlot->addGraph();
            QVector<double> x(s->heap.seconds.begin(), s->heap.seconds.end()), y;
            y.reserve(qsizetype(bytes.size()));
            for (double b : bytes)
                y.push_back(b / 1e6);
            g->setData(x, y, true);
            g->setPen(QPen(runColour(side), 2, style));
            g->setName(label);
        };
        add(s->heap.total, tr("%1: total").arg(name), Qt::SolidLine);
        if (!band.empty())
            for (const auto& [label, bytes] : s->heap.bands)
                if (label == band)
                    add(bytes, tr("%1: %2").arg(name, qs(label).left(40)), Qt::DashLine);
    }
    m_heapPlot->rescaleAxes();
    // From each run's start.
    m_heapPlot->xAxis->setRangeLower(0);
    m_heapPlot->yAxis->setRange(0, std::max(0.001, m_heapPlot->yAxis->range().upper) * 1.05);
    m_heapPlot->replot();
}

void ComparePane::showPauses()
{
    drawPauseDistributions(m_pausePlot, m_a ? &m_a->figures.pauses : nullptr, m_b ? &m_b->figures.pauses : nullptr);
}

QCustomPlot* newComparePlot()
{
    auto* plot = new QCustomPlot;
    plot->setMinimumHeight(120);
    plot->legend->setVisible(true);
    plot->plotLayout()->insertRow(0);
    plot->plotLayout()->addElement(0, 0, plot->legend);
    plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    plot->legend->setBorderPen(Qt::NoPen);
    plot->plotLayout()->setRowStretchFactor(0, 0.001);
    return plot;
}

QCustomPlot* newPausePlot()
{
    QCustomPlot* plot = newComparePlot();
    plot->xAxis->setLabel(QObject::tr("GC pause (each bar: pauses from this length to twice it)"));
    plot->yAxis->setLabel(QObject::tr("collections"));
    return plot;
}

void drawPauseDistributions(QCustomPlot* plot, const std::vector<uint64_t>* a, const std::vector<uint64_t>* b)
{
    plot->clearPlottables();
    const std::vector<uint64_t>* pauses[2] = {a, b};
    // Power-of-two bins from the shortest pause of either run to the longest.
    int lo = 64, hi = -1;
    for (const auto* p : pauses)
        if (p && !p->empty()) {
            lo = std::min(lo, int(std::bit_width(std::max<uint64_t>(p->front(), 1))) - 1);
            hi = std::max(hi, int(std::bit_width(std::max<uint64_t>(p->back(), 1))) - 1);
        }
    if (hi < 0) {
        plot->replot();
        return;
    }
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (int bin = lo; bin <= hi; ++bin)
        ticker->addTick(bin, qs(formatDuration(uint64_t(1) << bin, UnitStyle::Unicode)));
    plot->xAxis->setTicker(ticker);
    auto* group = new QCPBarsGroup(plot);
    double most = 1;
    for (int side = 0; side < 2; ++side) {
        if (!pauses[side] || pauses[side]->empty())
            continue;
        QVector<double> keys, counts;
        for (int bin = lo; bin <= hi; ++bin) {
            keys.push_back(bin);
            counts.push_back(0);
        }
        for (uint64_t p : *pauses[side])
            counts[int(std::bit_width(std::max<uint64_t>(p, 1))) - 1 - lo] += 1;
        for (double c : counts)
            most = std::max(most, c);
        auto* bars = new QCPBars(plot->xAxis, plot->yAxis);
        bars->setData(keys, counts, true);
        bars->setWidth(0.38);
        bars->setBrush(runColour(side));
        bars->setPen(Qt::NoPen);
        bars->setName(QObject::tr("%1: %2 collections").arg(side == 0 ? QStringLiteral("A") : QStringLiteral("B")).arg(pauses[side]->size()));
        bars->setBarsGroup(group);
    }
    plot->xAxis->setRange(lo - 0.6, hi + 0.6);
    plot->yAxis->setRange(0, most * 1.05);
    plot->replot();
}

} // namespace hecscope
