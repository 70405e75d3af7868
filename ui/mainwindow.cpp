#include "ui/mainwindow.h"

#include "core/info.h"
#include "ui/loadjob.h"

#include <QAction>
#include <QApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QStatusBar>
#include <QTimer>
#include <QVBoxLayout>
#include <qcustomplot.h>

namespace hecscope {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_title(new QLabel(tr("Open an eventlog with File ▸ Open (Ctrl+O).")))
    , m_text(new QPlainTextEdit)
    , m_progress(new QProgressBar)
    , m_cancel(new QPushButton(tr("Cancel")))
    , m_plot(new QCustomPlot)
{
    qRegisterMetaType<std::shared_ptr<const LogIndex>>();
    qRegisterMetaType<RangeStats>();
    setWindowTitle(tr("Hecscope"));
    resize(1100, 700);

    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open…"), this, &MainWindow::chooseFile);
    open->setShortcut(QKeySequence::Open);
    QAction* quit = file->addAction(tr("&Quit"), qApp, &QApplication::quit);
    quit->setShortcut(QKeySequence::Quit);

    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_title->setWordWrap(true);
    m_text->setReadOnly(true);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_text->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_progress->setRange(0, 1000);
    m_progress->hide();
    m_cancel->hide();
    connect(m_cancel, &QPushButton::clicked, this, [this] {
        cancelLoad();
        statusBar()->showMessage(tr("Loading cancelled"));
    });

    m_plot->xAxis->setLabel(tr("time (s)"));
    m_plot->yAxis->setLabel(tr("capabilities busy"));
    m_plot->legend->setVisible(true);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_plot->axisRect()->setRangeZoom(Qt::Horizontal);
    m_plot->axisRect()->setRangeDrag(Qt::Horizontal);
    // Re-read the index at the new resolution whenever the view moves.
    connect(m_plot->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, [this] {
        QTimer::singleShot(0, this, &MainWindow::plotActivity);
    });

    // Cancelled jobs finish their current chunk on their own thread; they
    // are dropped here once done, so the UI never waits for them.
    auto* reaper = new QTimer(this);
    connect(reaper, &QTimer::timeout, this, [this] {
        std::erase_if(m_retired, [](const std::unique_ptr<LoadJob>& j) { return !j->isRunning(); });
    });
    reaper->start(200);

    auto* progressRow = new QHBoxLayout;
    progressRow->addWidget(m_progress, 1);
    progressRow->addWidget(m_cancel);
    auto* splitter = new QSplitter(Qt::Vertical);
    splitter->addWidget(m_plot);
    splitter->addWidget(m_text);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);
    auto* central = new QWidget;
    auto* layout = new QVBoxLayout(central);
    layout->addWidget(m_title);
    layout->addLayout(progressRow);
    layout->addWidget(splitter, 1);
    setCentralWidget(central);
}

MainWindow::~MainWindow() = default;

void MainWindow::chooseFile()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open eventlog"), QString(),
                                                      tr("GHC eventlogs (*.eventlog);;All files (*)"));
    if (!path.isEmpty())
        openFile(path);
}

void MainWindow::cancelLoad()
{
    if (m_job) {
        m_job->cancel();
        m_retired.push_back(std::move(m_job));
    }
    m_progress->hide();
    m_cancel->hide();
}

void MainWindow::openFile(const QString& path)
{
    cancelLoad(); // opening another file cancels the running load
    m_path = path;
    m_job = std::make_unique<LoadJob>(path);
    connect(m_job.get(), &LoadJob::progressChanged, this, [this](quint64 done, quint64 total) {
        m_progress->setValue(total ? int(done * 1000 / total) : 0);
        statusBar()->showMessage(tr("Reading %1 of %2 MB").arg(double(done) / 1e6, 0, 'f', 0)
                                     .arg(double(total) / 1e6, 0, 'f', 0));
    });
    connect(m_job.get(), &LoadJob::indexReady, this, &MainWindow::showIndex);
    connect(m_job.get(), &LoadJob::statisticsReady, this, &MainWindow::showStatistics);
    connect(m_job.get(), &LoadJob::failed, this, &MainWindow::showFailure);
    setWindowTitle(tr("%1 — Hecscope").arg(QFileInfo(path).fileName()));
    m_title->setText(tr("Loading %1…").arg(path.toHtmlEscaped()));
    m_progress->setValue(0);
    m_progress->show();
    m_cancel->show();
    m_job->start();
}

void MainWindow::showIndex(std::shared_ptr<const LogIndex> index)
{
    m_progress->hide();
    m_cancel->hide();
    m_index = std::move(index);
    QString title = tr("<b>%1</b> — %2 events, %3 capabilities, %4 s of run time")
                        .arg(m_path.toHtmlEscaped())
                        .arg(m_index->scan.events)
                        .arg(m_index->caps.size())
                        .arg(double(m_index->lastTime) / 1e9, 0, 'f', 3);
    for (const Diagnostic& d : m_index->scan.diagnostics)
        title += QStringLiteral("<br><span style='color:%1'>%2</span>")
                     .arg(d.isError() ? QStringLiteral("#c0392b") : QStringLiteral("#b9770e"),
                          QString::fromStdString(d.message()).toHtmlEscaped());
    title += tr("<br><i>The timeline view is not built yet; the chart shows capability activity "
                "from the index.</i>");
    m_title->setText(title);
    m_text->setPlainText(tr("Computing statistics…"));
    m_plot->xAxis->setRange(0, std::max(1e-9, double(m_index->lastTime) / 1e9));
    plotActivity();
    statusBar()->showMessage(tr("%1 events indexed").arg(m_index->scan.events));
}

void MainWindow::showStatistics(const RangeStats& stats)
{
    if (m_index)
        m_text->setPlainText(QString::fromStdString(infoText(*m_index, stats, m_path.toStdString())));
}

// How many capabilities were running a thread, and how many were in GC, in
// each of ~1 pixel wide buckets of the visible range: exact totals from the
// timelines' summaries.
void MainWindow::plotActivity()
{
    if (!m_index)
        return;
    const QCPRange range = m_plot->xAxis->range();
    const int buckets = std::max(50, m_plot->axisRect()->width());
    // The view may be zoomed or dragged anywhere: read only the log's span.
    const double last = std::min(double(m_index->lastTime) + 1, 1.8e19); // converts back safely
    const double t0 = std::clamp(range.lower * 1e9, 0.0, last);
    const double t1 = std::clamp(range.upper * 1e9, t0 + 1, last + 1);
    const double width = (t1 - t0) / buckets;
    QVector<double> x(buckets), running(buckets, 0.0), gc(buckets, 0.0);
    for (int b = 0; b < buckets; ++b) {
        const uint64_t a = uint64_t(t0 + b * width), z = uint64_t(t0 + (b + 1) * width);
        x[b] = (t0 + b * width) / 1e9;
        for (const Capability& cap : m_index->caps) {
            if (cap.timeline.size() == 0)
                continue;
            const SpanTotals t = cap.timeline.totalsIn(a, std::max(z, a + 1));
            running[b] += double(t.running()) / std::max(1.0, double(z - a));
            gc[b] += double(t.gc()) / std::max(1.0, double(z - a));
        }
        gc[b] += running[b]; // stacked
    }
    if (m_plot->graphCount() == 0) {
        QCPGraph* g = m_plot->addGraph();
        g->setName(tr("GC"));
        g->setLineStyle(QCPGraph::lsStepLeft);
        g->setPen(QPen(QColor(0xd3, 0x54, 0x00)));
        g->setBrush(QColor(0xe6, 0x7e, 0x22, 160));
        QCPGraph* r = m_plot->addGraph();
        r->setName(tr("running"));
        r->setLineStyle(QCPGraph::lsStepLeft);
        r->setPen(QPen(QColor(0x1e, 0x84, 0x49)));
        r->setBrush(QColor(0x27, 0xae, 0x60, 200));
    }
    m_plot->graph(0)->setData(x, gc, true);
    m_plot->graph(1)->setData(x, running, true);
    const auto active = std::count_if(m_index->caps.begin(), m_index->caps.end(),
                                      [](const Capability& c) { return c.timeline.size() > 0; });
    m_plot->yAxis->setRange(0, std::max<double>(1, double(active)) * 1.05);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void MainWindow::showFailure(const QString& message)
{
    m_progress->hide();
    m_cancel->hide();
    m_title->setText(tr("<b>Cannot open:</b> %1").arg(message.toHtmlEscaped()));
}

} // namespace hecscope
