#include "ui/window/logpanes.h"

#include "core/report/info.h"
#include "core/report/rtssummary.h"
#include "core/threads/userspans.h"
#include "ui/document/logdocument.h"
#include "ui/formatting.h"
#include "ui/models/tablemodels.h"
#include "ui/threads/spanspane.h"
#include "ui/threads/threadrows.h"
#include "ui/document/viewcontroller.h"

#include <QDateTime>
#include <QDockWidget>
#include <QFontDatabase>
#include <QLocale>

namespace hecscope {

namespace {
// The +RTS -s table of the run or the range, above the rest of the figures.
std::string rtsSummaryBlock(const LogIndex& ix, const RangeStats& st, bool wholeRun)
{
    return "As +RTS -s prints them\n\n" + rtsSummaryText(ix, st, wholeRun) + "\n";
}
} // namespace

StatisticsPane::StatisticsPane(const ViewController* view, const SpansPane* spans, CapabilityTableModel* capabilities,
                               QWidget* parent)
    : QPlainTextEdit(parent)
    , m_view(view)
    , m_spans(spans)
    , m_capabilities(capabilities)
{
    setReadOnly(true);
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setLineWrapMode(QPlainTextEdit::NoWrap);
    connect(view, &ViewController::selectionChanged, this, &StatisticsPane::refresh);
}

void StatisticsPane::follow(const LogDocument* doc)
{
    m_doc = doc;
    connect(doc, &LogDocument::cleared, this, [this] {
        m_runner.cancel();
        m_capabilities->setStats(RangeStats{});
        clear();
    });
    connect(doc, &LogDocument::indexChanged, this, [this](const IndexChange& c) {
        if (c.partial)
            setPlainText(tr("Loading: statistics come once the whole log is read."));
        else if (!c.live)
            setPlainText(tr("Computing statistics…"));
    });
    connect(doc, &LogDocument::statisticsReady, this, &StatisticsPane::refresh);
}

void StatisticsPane::refresh()
{
    if (!m_doc || !m_doc->index() || !m_doc->wholeStats())
        return;
    const std::shared_ptr<const LogIndex> index = m_doc->index();
    const RangeStats& whole = *m_doc->wholeStats();
    const std::string path = m_doc->path().toStdString();
    const auto sel = m_view->selection();
    if (index->hpFile) { // no scheduler figures: the file's facts (a selection ranks the Heap Bands)
        setPlainText(qs(infoText(*index, whole, path)));
        return;
    }
    if (!sel) {
        m_runner.cancel();
        const bool stretch = index->dropped.fromByte > 0;
        QString text = (stretch ? tr("Latest stretch, from %1 (%2 older events dropped; the recording has them)\n\n")
                                      .arg(durationText(index->dropped.before), countText(index->dropped.events))
                                : tr("Whole run\n\n"))
            + qs(rtsSummaryBlock(*index, whole, !stretch)) + qs(infoText(*index, whole, path));
        setPlainText(text);
        // The spans' figures take a pass over every span: on a worker.
        if (const auto spans = m_spans->spans(); spans && !spans->spans.empty())
            m_runner.start(
                [spans](const JobContext& ctx) {
                    return spanFiguresText(*spans, spanFigures(*spans, std::nullopt, [&ctx] { return ctx.isCancelled(); }), 20);
                },
                [this, text](std::string spansText) {
                    setPlainText(text + tr("\nUser spans (the 20 with the most time; all in the Spans pane)\n\n")
                                 + qs(spansText));
                });
        m_capabilities->setStats(whole);
        return;
    }
    // Computed on a worker while the user drags; a newer selection drops
    // an older result. The pane says so meanwhile.
    const QString title = tr("Selection %1 – %2 (%3)\n\n")
                              .arg(timeText(sel->start), timeText(sel->end), durationText(sel->duration()));
    setPlainText(title + tr("computing…"));
    struct Result {
        RangeStats stats;
        std::string text;
    };
    m_runner.start(
        [index, range = *sel, path, spans = m_spans->spans()](const JobContext&) {
            Result r{computeStats(*index, range.start, range.end), {}};
            r.text = rtsSummaryBlock(*index, r.stats, false) + infoText(*index, r.stats, path);
            if (spans && !spans->spans.empty()) {
                const auto figures = spanFigures(*spans, range);
                r.text += "\nUser spans starting in the selection\n\n"
                    + (figures.empty() ? std::string("none\n") : spanFiguresText(*spans, figures, 20));
            }
            return r;
        },
        [this, title](Result r) {
            m_capabilities->setStats(r.stats);
            setPlainText(title + qs(r.text));
        });
}

ProcessPane::ProcessPane(QWidget* parent)
    : QPlainTextEdit(parent)
{
    setReadOnly(true);
    setLineWrapMode(QPlainTextEdit::WidgetWidth);
}

void ProcessPane::follow(const LogDocument* doc)
{
    connect(doc, &LogDocument::cleared, this, &QPlainTextEdit::clear);
    connect(doc, &LogDocument::indexChanged, this, [this](const IndexChange& c) { describe(*c.index); });
}

void ProcessPane::describe(const LogIndex& index)
{
    QString text;
    // The wall clock comes with the clock-domain capset, not the process's:
    // the time the run began is that clock less the time it was read at.
    const Capset* clock = nullptr;
    for (const Capset& c : index.capsets)
        if (c.wallAt != kNoTime && !clock)
            clock = &c;
    if (clock) {
        const double startNs = double(clock->wallSeconds) * 1e9 + double(clock->wallNanoseconds) - double(clock->wallAt);
        const QDateTime started = QDateTime::fromMSecsSinceEpoch(qint64(startNs / 1e6));
        text += tr("Started: %1 (%2 UTC)\n\n")
                    .arg(QLocale().toString(started, QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz")),
                         started.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz")));
    }
    for (const Capset& c : index.capsets) {
        if (c.rtsIdentifier.empty() && c.args.empty() && !c.hasPid)
            continue;
        text += tr("Capset %1\n").arg(c.id);
        if (!c.rtsIdentifier.empty())
            text += tr("  RTS: %1\n").arg(qs(c.rtsIdentifier));
        if (!c.args.empty()) {
            QStringList args;
            for (const std::string& a : c.args)
                args << qs(a);
            text += tr("  Command: %1\n").arg(args.join(QLatin1Char(' ')));
        }
        if (c.hasPid)
            text += tr("  Process id: %1").arg(c.pid) + (c.hasPpid ? tr(", parent %1\n").arg(c.ppid) : QStringLiteral("\n"));
        // Every capability the run had: the RTS removes them all from the
        // capset as it shuts down, so what is assigned at the end is none.
        text += tr("  Capabilities: %1").arg(c.assigned.size());
        if (!c.assigned.empty() && c.caps.empty() && c.deleted != kNoTime)
            text += tr(" (removed at shutdown, %1)").arg(timeText(c.deleted));
        text += QLatin1Char('\n');
        if (!c.env.empty()) {
            text += tr("  Environment:\n");
            for (const std::string& e : c.env)
                text += QStringLiteral("    %1\n").arg(qs(e));
        }
    }
    text += tr("\n%1 events, %2 capabilities, %3 threads, %4 collections\n")
                .arg(index.scan.events)
                .arg(index.caps.size())
                .arg(index.threadCount())
                .arg(index.collections.size());
    setPlainText(text);
}

DiagnosticsPane::DiagnosticsPane(QWidget* parent)
    : QListWidget(parent)
{
    setWordWrap(true); // a diagnostic is a sentence with an offset: all of it
    setTextElideMode(Qt::ElideNone);
}

void DiagnosticsPane::follow(const LogDocument* doc)
{
    m_doc = doc;
    connect(doc, &LogDocument::cleared, this, &QListWidget::clear);
    connect(doc, &LogDocument::indexChanged, this, [this](const IndexChange& c) {
        clear();
        for (const Diagnostic& d : c.index->scan.diagnostics)
            addItem(qs(d.message()));
        if (c.index->scan.diagnostics.empty())
            addItem(c.grown ? tr("No problems so far.") : tr("No problems: the log decoded completely."));
        showSpanIssues(c.index->userSpans);
    });
}

// Unmatched START and STOP messages of the spans shown (the prefixes may
// have changed since the load), after the decoder's diagnostics.
void DiagnosticsPane::showSpanIssues(const std::shared_ptr<const UserSpans>& spans)
{
    for (int i = count(); i-- > 0;)
        if (item(i)->data(Qt::UserRole).toBool())
            delete takeItem(i);
    const std::shared_ptr<const LogIndex> index = m_doc ? m_doc->index() : nullptr;
    if (!spans || !index)
        return;
    for (const SpanIssue& i : spans->issues) {
        auto* issue = new QListWidgetItem(
            (i.kind == SpanIssue::StopWithoutStart ? tr("User span: STOP “%1” without a START on %2 at %3")
                                                   : tr("User span: START “%1” on %2 at %3 never stopped: drawn to the end of the log, left out of the span figures"))
                .arg(qs(spans->names[i.name]), i.thread ? threadName(*index, i.thread) : tr("no thread"),
                     timeText(i.time)));
        issue->setData(Qt::UserRole, true);
        addItem(issue);
    }
}

QStringList DiagnosticsPane::lines() const
{
    QStringList out;
    for (int i = 0; i < count(); ++i)
        out << item(i)->text();
    return out;
}

DetailsPane::DetailsPane(QWidget* parent)
    : QPlainTextEdit(parent)
{
    setReadOnly(true);
    setPlaceholderText(tr("Click an item on the timeline to see its details here."));
}

void DetailsPane::follow(const LogDocument* doc)
{
    connect(doc, &LogDocument::cleared, this, &QPlainTextEdit::clear);
}

void DetailsPane::describe(const QString& details)
{
    setPlainText(details);
    if (details.isEmpty())
        return;
    for (QWidget* w = parentWidget(); w; w = w->parentWidget())
        if (auto* dock = qobject_cast<QDockWidget*>(w)) {
            dock->show();
            dock->raise();
            break;
        }
}

} // namespace hecscope
