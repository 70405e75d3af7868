// Exports of the timeline on real logs: the chosen tracks fill the picture,
// the legend names only what is drawn, File ▸ Export Image… starts from what
// the window shows and asks for the request `hecscope export` makes from the
// same choices, and refuses a bad range.
#include "testsupport.h"

#include "core/io/bytesource.h"
#include "core/load/loader.h"
#include "core/text/units.h"
#include "ui/jobs/settings.h"
#include "ui/timeline/exportchoices.h"
#include "ui/timeline/imageexport.h"
#include "ui/timeline/legendwriter.h"
#include "ui/timeline/timelineview.h"
#include "ui/document/viewcontroller.h"
#include "ui/window/exportdialog.h"
#include "ui/window/imageexporter.h"
#include "ui/window/mainwindow.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QGroupBox>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPainter>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <algorithm>

using namespace hecscope;

namespace {

const QString kLeak = QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/leak-hT.eventlog");

std::shared_ptr<const LogIndex> load(const QString& path)
{
    std::string error;
    const auto source = FileSource::open(path.toStdString(), error);
    if (!source)
        qFatal("%s", error.c_str());
    return std::shared_ptr<const LogIndex>(loadIndex(*source).index);
}

// Pixels of row y within [x0, x1) that are not `background`.
int paintedIn(const QImage& image, int y, int x0, int x1, QRgb background)
{
    int n = 0;
    for (int x = x0; x < x1; ++x)
        n += image.pixel(x, y) != background;
    return n;
}

QStringList checkedTracks(const QListWidget* list)
{
    QStringList ids;
    for (int i = 0; i < list->count(); ++i)
        if (list->item(i)->checkState() == Qt::Checked)
            ids << list->item(i)->data(Qt::UserRole).toString();
    return ids;
}

} // namespace

class TestExport : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void chosenTracksFillThePicture();
    void commandLineFillsToo();
    void tallTracksShrinkToFit();
    void vectorChartsFillTheirTracks();
    void legendListsOnlyWhatIsShown();
    void dialogStartsFromTheWindow();
    void theShortcutsWorkAgainAfterADialog();
    void dialogAsksWhatTheCommandLineDoes();
    void badCustomRangeIsRefused();
    void choicesAreRemembered();
    void exactTimesReadBack();

private:
    static bool openAndWait(MainWindow& w, const QString& log);
    static ExportDefaults defaultsFor(const std::shared_ptr<const LogIndex>& index);
    QTemporaryDir m_settings;
    std::shared_ptr<const LogIndex> m_leak;
};

void TestExport::initTestCase()
{
    QCoreApplication::setOrganizationName(QStringLiteral("HecscopeTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_export"));
    QVERIFY(m_settings.isValid());
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settings.path());
    m_leak = load(kLeak);
    QVERIFY(m_leak && !m_leak->collections.empty() && !m_leak->heapBands.empty());
}

void TestExport::init()
{
    Settings::clear(); // the dialog remembers its last choices
}

bool TestExport::openAndWait(MainWindow& w, const QString& log)
{
    QSignalSpy stats(&w, &MainWindow::statisticsShown);
    w.openFile(log);
    return stats.wait(20000) && w.index();
}

ExportDefaults TestExport::defaultsFor(const std::shared_ptr<const LogIndex>& index)
{
    ExportDefaults d;
    d.index = index;
    d.shown = defaultTrackIds();
    d.visible = TimelineRenderer::boundsOf(index.get());
    d.logPath = kLeak;
    return d;
}

// Only the GC track: its row runs from the ruler down to the legend at the
// bottom of the picture, and collections are drawn down there.
void TestExport::chosenTracksFillThePicture()
{
    QTemporaryDir dir;
    ExportRequest rq;
    rq.path = dir.filePath(QStringLiteral("gc.png"));
    rq.size = QSize(1600, 1000);
    rq.range = TimelineRenderer::boundsOf(m_leak.get());
    rq.options.tracks = {QStringLiteral("gc")};
    rq.options.palette = exportPalette();
    QCOMPARE(exportImage(m_leak, rq), QString());
    const QImage image(rq.path);
    QCOMPARE(image.size(), rq.size);

    TimelineRenderer r;
    r.setIndex(m_leak);
    RenderOptions filled = rq.options;
    filled.fill = true;
    const QRect area(QPoint(0, 0), rq.size);
    const auto rows = r.layout(area, filled);
    QCOMPARE(rows.size(), size_t(1));
    const QRect gc = rows.front().rect;
    QCOMPARE(gc.top(), TimelineRenderer::kRulerHeight);
    // One line of legend below it, nothing else.
    QCOMPARE(gc.bottom() + 1, 1000 - LegendWriter::kLineHeight);
    const QRgb base = exportPalette().color(QPalette::Base).rgb();
    const QRgb window = exportPalette().color(QPalette::Window).rgb();
    const QRect plot = r.plotArea(area, filled);
    // Every line of the row (below the margin above a major collection)
    // has collections on it, the last ones too.
    for (int y = gc.top() + 8; y <= gc.bottom() - 2; y += 7)
        QVERIFY2(paintedIn(image, y, plot.left(), plot.right(), base) > 30, qPrintable(QString::number(y)));
    QVERIFY(paintedIn(image, gc.bottom() - 3, plot.left(), plot.right(), base) > 100);
    QCOMPARE(image.pixel(plot.left() + 700, 999), window); // the legend is the last thing
}

// `hecscope export --tracks gc` draws the same picture.
void TestExport::commandLineFillsToo()
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("cli.png"));
    const test::Run run = test::runHecscope({QStringLiteral("export"), kLeak, QStringLiteral("--tracks"), QStringLiteral("gc"),
                                             QStringLiteral("-o"), out});
    QCOMPARE(run.exitCode, 0);
    ExportRequest rq;
    rq.path = dir.filePath(QStringLiteral("direct.png"));
    rq.range = TimelineRenderer::boundsOf(m_leak.get());
    rq.options.tracks = {QStringLiteral("gc")};
    rq.options.palette = exportPalette();
    QCOMPARE(exportImage(m_leak, rq), QString());
    const QImage cli(out);
    QCOMPARE(cli.size(), QSize(1600, 1000));
    QCOMPARE(cli, QImage(rq.path));
    const QRgb base = exportPalette().color(QPalette::Base).rgb();
    QVERIFY(paintedIn(cli, 1000 - LegendWriter::kLineHeight - 4, 200, 1500, base) > 50);
}

// Every track of sparks-N4 (4 HECs, 23 threads) at 1400x620: more than
// fits at natural heights. The thread rows are fewer than the window's 16,
// the others shrink, and all of them end above the legend, still there.
void TestExport::tallTracksShrinkToFit()
{
    const auto index = load(QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/sparks-N4.eventlog"));
    QVERIFY(index && index->threadStates.count() > 16);
    TimelineRenderer r;
    r.setIndex(index);
    RenderOptions o;
    o.palette = exportPalette();
    o.fill = true;
    const QRect area(0, 0, 1400, 620);
    RenderOptions natural = o;
    natural.fill = false;
    QVERIFY(r.naturalHeight(natural) > area.height());
    const RenderOptions fitted = r.fitted(area, o);
    QVERIFY(fitted.states.get<ThreadRowsView>());
    QVERIFY2(fitted.states.get<ThreadRowsView>()->shownRows() > 2 && fitted.states.get<ThreadRowsView>()->shownRows() < 16,
             qPrintable(QString::number(fitted.states.get<ThreadRowsView>()->shownRows())));
    const auto rows = r.layout(area, fitted);
    QCOMPARE(rows.size(), r.layout(area, natural).size()); // every row is there
    QVERIFY(rows.back().id() == QLatin1String("threads"));
    QVERIFY(rows.back().rect.bottom() < area.height() - 2 * LegendWriter::kLineHeight);

    QTemporaryDir dir;
    ExportRequest rq;
    rq.path = dir.filePath(QStringLiteral("all.png"));
    rq.size = area.size();
    rq.range = TimelineRenderer::boundsOf(index.get());
    rq.options = o;
    QCOMPARE(exportImage(index, rq), QString());
    const QImage image(rq.path);
    QCOMPARE(image.pixel(700, 619), exportPalette().color(QPalette::Window).rgb()); // the legend, last
    // The last thread row shown is drawn, above the legend.
    const int y = rows.back().rect.bottom() - ThreadRowsView::kRowHeight / 2;
    QVERIFY(paintedIn(image, y, 200, 1300, exportPalette().color(QPalette::AlternateBase).rgb()) > 0);
}

// An SVG's heap chart reaches the right end of its track, as in the PNG
// (QPicture replays scaled by the device's dpi: it used to stop at 3/4).
void TestExport::vectorChartsFillTheirTracks()
{
    QTemporaryDir dir;
    ExportRequest rq;
    rq.size = QSize(1200, 400);
    rq.range = TimelineRenderer::boundsOf(m_leak.get());
    rq.options.tracks = {QStringLiteral("heap")};
    rq.options.palette = exportPalette();
    rq.options.legend = false;
    rq.path = dir.filePath(QStringLiteral("heap.svg"));
    QCOMPARE(exportImage(m_leak, rq), QString());
    QSvgRenderer svg(rq.path);
    QVERIFY(svg.isValid());
    QImage drawn(rq.size, QImage::Format_ARGB32);
    drawn.fill(Qt::white);
    {
        QPainter p(&drawn);
        svg.render(&p, QRectF(QPointF(0, 0), QSizeF(rq.size)));
    }
    TimelineRenderer r;
    r.setIndex(m_leak);
    const QRect plot = r.plotArea(QRect(QPoint(0, 0), rq.size), rq.options);
    // The last tenth of the plot: the live bytes fill the chart's bottom.
    int painted = 0;
    for (int y = plot.bottom() - 30; y < plot.bottom() - 2; ++y)
        painted += paintedIn(drawn, y, plot.right() - plot.width() / 10, plot.right(), qRgb(255, 255, 255));
    QVERIFY2(painted > plot.width() / 10 * 20, qPrintable(QString::number(painted)));
}

void TestExport::legendListsOnlyWhatIsShown()
{
    TimelineRenderer r;
    r.setIndex(m_leak);
    RenderOptions o;
    auto entries = [&](std::vector<QString> tracks) {
        o.tracks = std::move(tracks);
        return r.legendContent(o);
    };
    const LegendContent all = entries(defaultTrackIds());
    const LegendContent gc = entries({QStringLiteral("gc")});
    const LegendContent heap = entries({QStringLiteral("heap")});
    QVERIFY(!gc.entries.isEmpty());
    QVERIFY(gc.blocks.empty()); // no heap-profile bands
    QVERIFY(heap.entries.contains(QStringLiteral("heap size (MB)")));
    QCOMPARE(all.blocks, std::vector<QString>{QStringLiteral("heap-profile")});
    for (const QString& e : gc.entries) {
        QVERIFY2(all.entries.contains(e), qPrintable(e));
        QVERIFY2(!heap.entries.contains(e), qPrintable(e));
        QVERIFY2(!e.contains(QLatin1String("spark")) && !e.contains(QLatin1String("heap")), qPrintable(e));
    }
    QVERIFY(!all.entries.contains(QStringLiteral("bookmark"))); // none set
    o.bookmarks = {100'000'000};
    QVERIFY(entries({QStringLiteral("gc")}).entries.contains(QStringLiteral("bookmark")));
    o.legend = false;
    QVERIFY(entries({QStringLiteral("gc")}).entries.isEmpty());
    // A bookmark outside the exported range is not in the request.
    ExportChoices c;
    c.tracks = {QStringLiteral("gc")};
    c.range = ViewRange{200'000'000, 300'000'000};
    RenderOptions base;
    base.bookmarks = {100'000'000, 250'000'000};
    QCOMPARE(makeExportRequest(*m_leak, c, base).options.bookmarks, std::vector<uint64_t>{250'000'000});
}

// The dialog opened from the window: its tracks ticked in the window's
// order, the others unticked below; the selection as the range.
void TestExport::dialogStartsFromTheWindow()
{
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(openAndWait(w, kLeak));
    const std::vector<QString> shown = {QStringLiteral("gc"), QStringLiteral("hecs"), QStringLiteral("heap-profile")};
    w.timeline()->setTracks(shown);
    const ViewRange selection{120'000'000, 340'000'000};
    w.controller()->setSelection(selection);
    QAction* action = nullptr;
    for (QAction* a : w.findChildren<QAction*>())
        if (a->text() == QStringLiteral("&Export Image…"))
            action = a;
    QVERIFY(action);
    bool seen = false;
    QTimer::singleShot(0, &w, [&] {
        auto* d = w.findChild<ExportDialog*>();
        QVERIFY(d && d->isVisible());
        seen = true;
        d->reject();
        QCOMPARE(checkedTracks(d->trackList()), (QStringList{QStringLiteral("gc"), QStringLiteral("hecs"), QStringLiteral("heap-profile")}));
        QCOMPARE(d->trackList()->count(), int(timelineTracks().size()));
        QCOMPARE(d->rangeBox()->currentData().toInt(), int(ExportDialog::Selection));
        QCOMPARE(d->choices().range, std::optional<ViewRange>(selection));
        QCOMPARE(d->customRange()->text(), QStringLiteral("120ms:340ms"));
        QCOMPARE(d->choices().tracks, shown);
        // The size of the window's timeline; the heap pane's bands.
        QCOMPARE(d->widthBox()->value(), w.timeline()->width());
        QVERIFY(d->heapGroup() && d->heapGroup()->isEnabled());
        QCOMPARE(d->bandsBox()->value(), int(kDefaultBands));
        QVERIFY(d->pathField()->text().endsWith(QStringLiteral("leak-hT.png")));
    });
    action->trigger();
    QVERIFY(seen);
}

// Ctrl+E, the dialog closed (cancelled, then exporting): the keyboard is
// back on the widget that had it, in the active window, and Ctrl+E opens the
// dialog again at once; Ctrl+O's file dialog likewise. (It used to leave no window active: keys were
// dropped until a click.)
void TestExport::theShortcutsWorkAgainAfterADialog()
{
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QVERIFY(openAndWait(w, kLeak));
    QTemporaryDir dir;
    QSignalSpy exported(w.exporter(), &ImageExporter::exportFinished);
    w.timeline()->setFocus();
    QTRY_COMPARE(QApplication::focusWidget(), static_cast<QWidget*>(w.timeline()));
    int opened = 0;
    for (const bool accept : {false, true, false}) {
        QTimer::singleShot(0, &w, [&] {
            auto* d = qobject_cast<ExportDialog*>(QApplication::activeModalWidget());
            QVERIFY(d);
            ++opened;
            if (!accept)
                return d->reject();
            d->pathField()->setText(dir.filePath(QStringLiteral("again.png")));
            d->accept();
            QVERIFY(!d->isVisible());
        });
        QTest::keyClick(&w, Qt::Key_E, Qt::ControlModifier);
        QTRY_COMPARE(QApplication::activeWindow(), static_cast<QWidget*>(&w));
        QTRY_COMPARE(QApplication::focusWidget(), static_cast<QWidget*>(w.timeline()));
    }
    QCOMPARE(opened, 3);
    QTRY_COMPARE_WITH_TIMEOUT(exported.size(), 1, 20000);
    QCOMPARE(exported.at(0).at(1).toString(), QString());
    QVERIFY(QFile::exists(dir.filePath(QStringLiteral("again.png"))));
    // Ctrl+O, cancelled, twice: the same.
    for (int i = 0; i < 2; ++i) {
        bool seen = false;
        QTimer::singleShot(0, &w, [&] {
            auto* d = qobject_cast<QDialog*>(QApplication::activeModalWidget());
            QVERIFY(d);
            seen = true;
            d->reject();
        });
        QTest::keyClick(&w, Qt::Key_O, Qt::ControlModifier);
        QVERIFY(seen);
        QTRY_COMPARE(QApplication::activeWindow(), static_cast<QWidget*>(&w));
        QTRY_COMPARE(QApplication::focusWidget(), static_cast<QWidget*>(w.timeline()));
    }
}

// Tracks, range and bands chosen in the dialog: the request is the one
// `hecscope export` builds from the same arguments, and the window's export
// (written on a worker) is the command line's picture.
void TestExport::dialogAsksWhatTheCommandLineDoes()
{
    MainWindow w;
    QVERIFY(openAndWait(w, kLeak));
    w.controller()->setSelection(ViewRange{600'000'000, 700'000'000});
    QTemporaryDir dir;
    ExportDefaults defaults = defaultsFor(w.index());
    defaults.selection = w.controller()->selection();
    ExportDialog d(defaults);
    QCOMPARE(d.rangeBox()->currentData().toInt(), int(ExportDialog::Selection));
    // heap-profile, gc: the others unticked, gc moved below.
    QListWidget* list = d.trackList();
    for (int i = list->count() - 1; i >= 0; --i) {
        const QString id = list->item(i)->data(Qt::UserRole).toString();
        list->item(i)->setCheckState(id == QLatin1String("gc") || id == QLatin1String("heap-profile") ? Qt::Checked : Qt::Unchecked);
        if (id == QLatin1String("gc"))
            list->addItem(list->takeItem(i));
    }
    d.customRange()->setFocus();
    d.customRange()->selectAll();
    QTest::keyClicks(d.customRange(), QStringLiteral("100ms:300ms"));
    QCOMPARE(d.rangeBox()->currentData().toInt(), int(ExportDialog::Custom));
    d.bandsBox()->setValue(5);
    d.orderBox()->setCurrentIndex(d.orderBox()->findData(int(BandOrder::Name)));
    d.modeBox()->setCurrentIndex(d.modeBox()->findData(int(HeapChartMode::Lines)));
    d.widthBox()->setValue(900);
    d.heightBox()->setValue(600);
    QCOMPARE(d.sizeBox()->currentData().toSize(), QSize()); // custom
    const QString out = dir.filePath(QStringLiteral("window.png"));
    d.pathField()->setText(out);
    QVERIFY(d.exportButton()->isEnabled());
    const ExportChoices choices = d.choices();

    // What the command line builds from the same arguments.
    QString error;
    ExportChoices cli;
    cli.path = dir.filePath(QStringLiteral("cli.png"));
    cli.size = QSize(900, 600);
    cli.tracks = *parseTrackList(QStringLiteral("heap-profile,gc"), &error);
    cli.range = parseExportRange(QStringLiteral("100ms:300ms"), TimelineRenderer::boundsOf(w.index().get()), &error);
    cli.bands = 5;
    cli.order = *bandOrderFromName("name");
    cli.heapMode = HeapChartMode::Lines;
    RenderOptions cliBase;
    cliBase.palette = exportPalette();
    const ExportRequest expected = makeExportRequest(*w.index(), cli, cliBase);
    const ExportRequest asked = makeExportRequest(*w.index(), choices, exportBaseOptions(w.timeline()->options(), choices));
    QCOMPARE(asked.size, expected.size);
    QCOMPARE(asked.range, expected.range);
    QCOMPARE(asked.range, (ViewRange{100'000'000, 300'000'000}));
    QCOMPARE(asked.options.tracks, expected.options.tracks);
    QVERIFY(asked.options.states.get<HeapView>() && expected.options.states.get<HeapView>());
    QCOMPARE(asked.options.states.get<HeapView>()->mode, HeapChartMode::Lines);
    QCOMPARE(asked.options.states.get<HeapView>()->selection->labels, expected.options.states.get<HeapView>()->selection->labels);
    QCOMPARE(asked.options.states.get<HeapView>()->selection->n, size_t(5));
    QCOMPARE(asked.options.palette, expected.options.palette);
    QVERIFY(!asked.options.cursor && !asked.options.highlight);

    // The window writes it off the UI thread: not yet when start returns.
    QSignalSpy done(w.exporter(), &ImageExporter::exportFinished);
    w.exporter()->start(w.index(), choices, exportBaseOptions(w.timeline()->options(), choices));
    QVERIFY(!QFile::exists(out));
    QVERIFY(done.wait(20000));
    QCOMPARE(done.front().at(0).toString(), out);
    QCOMPARE(done.front().at(1).toString(), QString());
    const test::Run run = test::runHecscope({QStringLiteral("export"), kLeak, QStringLiteral("-o"), cli.path, QStringLiteral("--size"),
                                             QStringLiteral("900x600"), QStringLiteral("--range"), QStringLiteral("100ms:300ms"),
                                             QStringLiteral("--tracks"), QStringLiteral("heap-profile,gc"), QStringLiteral("--bands"),
                                             QStringLiteral("5"), QStringLiteral("--order"), QStringLiteral("name"),
                                             QStringLiteral("--heap-mode"), QStringLiteral("lines")});
    QCOMPARE(run.exitCode, 0);
    const QImage mine(out), theirs(cli.path);
    QCOMPARE(mine.size(), QSize(900, 600));
    QCOMPARE(mine, theirs);
}

void TestExport::badCustomRangeIsRefused()
{
    ExportDialog d(defaultsFor(m_leak));
    QTemporaryDir dir;
    d.pathField()->setText(dir.filePath(QStringLiteral("x.pdf")));
    QCOMPARE(d.formatBox()->currentData().toString(), QStringLiteral("pdf"));
    QVERIFY(d.exportButton()->isEnabled());
    QVERIFY(d.message()->text().isEmpty());
    auto type = [&](const QString& text) {
        d.customRange()->selectAll();
        QTest::keyClicks(d.customRange(), text);
        QCOMPARE(d.customRange()->text(), text);
    };
    type(QStringLiteral("300ms:100ms"));
    QVERIFY(!d.exportButton()->isEnabled());
    QVERIFY2(d.message()->text().contains(QStringLiteral("START before END")), qPrintable(d.message()->text()));
    type(QStringLiteral("2s:3s")); // the log ends at 831 ms
    QVERIFY(!d.exportButton()->isEnabled());
    QVERIFY2(d.message()->text().contains(QStringLiteral("starts after the log")), qPrintable(d.message()->text()));
    d.accept();
    QCOMPARE(d.result(), int(QDialog::Rejected)); // Return does nothing either
    type(QStringLiteral("100ms:"));
    QVERIFY(d.exportButton()->isEnabled());
    QCOMPARE(d.choices().range, (std::optional<ViewRange>(ViewRange{100'000'000, TimelineRenderer::boundsOf(m_leak.get()).end})));
    // No track, or a file of another kind: refused too.
    d.pathField()->setText(dir.filePath(QStringLiteral("x.bmp")));
    QVERIFY(!d.exportButton()->isEnabled());
    d.formatBox()->setCurrentIndex(d.formatBox()->findData(QStringLiteral("svg")));
    QCOMPARE(d.pathField()->text(), dir.filePath(QStringLiteral("x.svg")));
    QVERIFY(d.exportButton()->isEnabled());
    for (int i = 0; i < d.trackList()->count(); ++i)
        d.trackList()->item(i)->setCheckState(Qt::Unchecked);
    QVERIFY(!d.exportButton()->isEnabled());
    QVERIFY(d.message()->text().contains(QStringLiteral("track")));
}

void TestExport::choicesAreRemembered()
{
    QTemporaryDir dir;
    {
        ExportDialog d(defaultsFor(m_leak));
        d.show();
        QVERIFY(QTest::qWaitForWindowExposed(&d));
        d.rangeBox()->setCurrentIndex(d.rangeBox()->findData(int(ExportDialog::Whole)));
        d.widthBox()->setValue(900);
        d.heightBox()->setValue(500);
        d.pathField()->setText(dir.filePath(QStringLiteral("a.svg")));
        QTest::keyClick(d.pathField(), Qt::Key_Return); // Export is the default button
        QCOMPARE(d.result(), int(QDialog::Accepted));
    }
    ExportDefaults again = defaultsFor(m_leak);
    again.selection = ViewRange{1'000'000, 2'000'000}; // the last kind wins over it
    ExportDialog d(again);
    QCOMPARE(d.rangeBox()->currentData().toInt(), int(ExportDialog::Whole));
    QVERIFY(!d.choices().range);
    QCOMPARE(d.choices().size, QSize(900, 500));
    QCOMPARE(d.formatBox()->currentData().toString(), QStringLiteral("svg"));
    QCOMPARE(d.pathField()->text(), dir.filePath(QStringLiteral("leak-hT.svg")));
}

void TestExport::exactTimesReadBack()
{
    for (uint64_t t : {uint64_t(0), uint64_t(1), uint64_t(999), uint64_t(1000), uint64_t(120'000'000), uint64_t(830'881'442),
                       uint64_t(1'500'000'000), uint64_t(3'600'123'456'789)}) {
        const QString text = exactTimeText(t);
        QCOMPARE(parseTime(text.toStdString()), std::optional<uint64_t>(t));
    }
    QCOMPARE(exactTimeText(120'000'000), QStringLiteral("120ms"));
    QCOMPARE(exactTimeText(1'500'000'000), QStringLiteral("1.5s"));
}

QTEST_MAIN(TestExport)
#include "tst_export.moc"
