#include "ui/mainwindow.h"

#include "ui/summaryjob.h"

#include <QAction>
#include <QApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QMenuBar>
#include <QProgressBar>
#include <QPushButton>
#include <QStatusBar>
#include <QVBoxLayout>
#include <qcustomplot.h>

namespace hecscope {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_summary(new QLabel(tr("Open an eventlog with File ▸ Open (Ctrl+O).")))
    , m_progress(new QProgressBar)
    , m_cancel(new QPushButton(tr("Cancel")))
    , m_plot(new QCustomPlot)
{
    setWindowTitle(tr("Hecscope"));
    resize(1100, 650);

    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open…"), this, &MainWindow::chooseFile);
    open->setShortcut(QKeySequence::Open);
    QAction* quit = file->addAction(tr("&Quit"), qApp, &QApplication::quit);
    quit->setShortcut(QKeySequence::Quit);

    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setWordWrap(true);
    m_progress->setRange(0, 1000);
    m_progress->hide();
    m_cancel->hide();
    connect(m_cancel, &QPushButton::clicked, this, [this] {
        if (m_job)
            m_job->cancel();
        m_job.reset();
        m_progress->hide();
        m_cancel->hide();
        statusBar()->showMessage(tr("Loading cancelled"));
    });

    m_plot->xAxis->setLabel(tr("time (s)"));
    m_plot->yAxis->setLabel(tr("events per bucket"));
    m_plot->addGraph();
    m_plot->graph(0)->setLineStyle(QCPGraph::lsStepLeft);
    m_plot->graph(0)->setBrush(QBrush(palette().color(QPalette::Highlight).lighter(160)));
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_plot->axisRect()->setRangeZoom(Qt::Horizontal);
    m_plot->axisRect()->setRangeDrag(Qt::Horizontal);

    auto* progressRow = new QHBoxLayout;
    progressRow->addWidget(m_progress, 1);
    progressRow->addWidget(m_cancel);
    auto* central = new QWidget;
    auto* layout = new QVBoxLayout(central);
    layout->addWidget(m_summary);
    layout->addLayout(progressRow);
    layout->addWidget(m_plot, 1);
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

void MainWindow::openFile(const QString& path)
{
    m_job = std::make_unique<SummaryJob>(path);
    connect(m_job.get(), &SummaryJob::progressChanged, m_progress, &QProgressBar::setValue);
    connect(m_job.get(), &SummaryJob::finished, this, &MainWindow::showSummary);
    connect(m_job.get(), &SummaryJob::failed, this, &MainWindow::showFailure);
    setWindowTitle(tr("%1 — Hecscope").arg(QFileInfo(path).fileName()));
    m_summary->setText(tr("Loading %1…").arg(path));
    m_progress->setValue(0);
    m_progress->show();
    m_cancel->show();
    m_job->start();
}

void MainWindow::showSummary(const LogSummary& s)
{
    m_progress->hide();
    m_cancel->hide();
    QString text = tr("<b>%1</b><br>%2 events in %3 bytes, %4 capabilities, %5 s of run time")
                       .arg(s.path.toHtmlEscaped())
                       .arg(s.events)
                       .arg(s.bytes)
                       .arg(s.capabilities)
                       .arg(double(s.endNs) / 1e9, 0, 'f', 3);
    for (const Diagnostic& d : s.diagnostics)
        text += QStringLiteral("<br><span style='color:%1'>%2</span>")
                    .arg(d.isError() ? QStringLiteral("#c0392b") : QStringLiteral("#b9770e"),
                         QString::fromStdString(d.message()).toHtmlEscaped());
    text += tr("<br><i>The timeline view is not built yet; this chart shows the event rate.</i>");
    m_summary->setText(text);
    QVector<double> x(s.bucketCounts.size());
    for (int i = 0; i < x.size(); ++i)
        x[i] = double(i) * double(s.bucketWidthNs) / 1e9;
    m_plot->yAxis->setLabel(tr("events per %1 µs").arg(double(s.bucketWidthNs) / 1e3));
    m_plot->graph(0)->setData(x, s.bucketCounts, true);
    m_plot->rescaleAxes();
    m_plot->xAxis->setRange(double(s.startNs) / 1e9, double(s.endNs) / 1e9);
    m_plot->replot();
    statusBar()->showMessage(tr("%1 events").arg(s.events));
}

void MainWindow::showFailure(const QString& message)
{
    m_progress->hide();
    m_cancel->hide();
    m_summary->setText(tr("<b>Cannot open:</b> %1").arg(message.toHtmlEscaped()));
}

} // namespace hecscope
