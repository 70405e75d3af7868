// Widget tests of the heap-profile panes: the legend's filter, hiding and
// emphasis, the band count and ordering controls, the band detail table,
// the cost-centre tree, the track itself, and .hp files in the window.

#include "core/io/bytesource.h"
#include "core/heap/heapbands.h"
#include "core/index/logindex.h"
#include "core/load/loader.h"
#include "core/synth/synthetic.h"
#include "core/time/viewrange.h"
#include "ui/charts/chartpainter.h"
#include "ui/heap/heappanel.h"
#include "ui/jobs/settings.h"
#include "ui/window/mainwindow.h"
#include "ui/models/tablemodels.h"
#include "ui/timeline/timelinerenderer.h"
#include "ui/timeline/tracks/heapchart.h"
#include "ui/timeline/tracks/heapprofilechart.h"
#include "ui/timeline/timelineview.h"
#include "ui/document/viewcontroller.h"

#include "testsupport.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QComboBox>
#include <QImage>
#include <QLineEdit>
#include <QListView>
#include <QPainter>
#include <QSettings>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include <algorithm>
#include <numeric>

using namespace hecscope;
using hecscope::test::readFile;

namespace {

std::shared_ptr<const LogIndex> load(const QString& name)
{
    const std::vector<uint8_t> bytes = readFile(QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/") + name);
    MemorySource source(bytes);
    return std::shared_ptr<const LogIndex>(loadIndex(source).index);
}

// A light palette: white base, black text (label boxes and text are grey
// levels, every data colour is not).
QPalette lightPalette()
{
    QPalette pal;
    pal.setColor(QPalette::Base, Qt::white);
    pal.setColor(QPalette::Text, Qt::black);
    pal.setColor(QPalette::Window, Qt::white);
    return pal;
}

QStringList legendNames(const HeapPanel& panel)
{
    QStringList names;
    const QAbstractItemModel* m = panel.legend()->model();
    for (int r = 0; r < m->rowCount(); ++r)
        names << m->index(r, 0).data().toString();
    return names;
}

bool openAndWait(MainWindow& w, const QString& path)
{
    w.resize(1400, 800);
    w.show();
    QSignalSpy stats(&w, &MainWindow::statisticsShown);
    w.openFile(path);
    return stats.wait(20000) && w.index();
}

} // namespace

class TestHeapView : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void legendFilterSubstringAndRegex();
    void legendClickHidesAndHoverEmphasises();
    void bandCountAndOrderingControls();
    void detailTableFiguresAndSorting();
    void detailTableRanksSelectedRange();
    void costCentreTreeEmphasisesItsBands();
    void hiddenBandChangesTheTrack();
    void clickOnABandChoosesIt();
    void hpFileOpensInTheWindow();
    void choicesPersist();
    void chartModeIsPerFile();
    void bigProfileSelectsOnAWorker();
    void denseChartKeepsTheLastCensus();
    void manyBandsDrawTheTallestInColour();
    void valueLabelsSayWhatEachModeDraws_data();
    void valueLabelsSayWhatEachModeDraws();
    void valueLabelsStayOffTheLines_data();
    void valueLabelsStayOffTheLines();
};

void TestHeapView::initTestCase()
{
    QCoreApplication::setOrganizationName(QStringLiteral("HecscopeTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_heapview"));
    Settings::clear();
}

// Substring filtering is case-insensitive; a regular expression filters by
// pattern; an invalid one is flagged and leaves the list as it was.
void TestHeapView::legendFilterSubstringAndRegex()
{
    HeapPanel panel;
    const auto ix = load(QStringLiteral("leak-hT.eventlog"));
    panel.setIndex(ix);
    QAbstractItemModelTester tester(panel.legend()->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    const QStringList all = legendNames(panel);
    QCOMPARE(all.size(), 16); // 15 + OTHER (43 bands)
    QVERIFY(all.last().startsWith(QStringLiteral("OTHER")));

    panel.filterField()->setText(QStringLiteral("ghc-prim"));
    QStringList shown = legendNames(panel);
    QVERIFY(!shown.isEmpty());
    QVERIFY(shown.size() < all.size());
    for (const QString& n : shown)
        QVERIFY2(n.contains(QStringLiteral("ghc-prim")), qPrintable(n));
    const qsizetype expected = std::count_if(all.begin(), all.end(), [](const QString& n) { return n.contains(QStringLiteral("GHC-PRIM"), Qt::CaseInsensitive); });
    panel.filterField()->setText(QStringLiteral("GHC-PRIM"));
    QCOMPARE(legendNames(panel).size(), expected);

    panel.regexBox()->setChecked(true);
    panel.filterField()->setText(QStringLiteral("^THUNK"));
    shown = legendNames(panel);
    QVERIFY(!shown.isEmpty());
    for (const QString& n : shown)
        QVERIFY2(n.startsWith(QStringLiteral("THUNK")), qPrintable(n));
    const QStringList before = shown;
    panel.filterField()->setText(QStringLiteral("(unclosed"));
    QVERIFY(!panel.filterField()->toolTip().isEmpty()); // says what is wrong
    QCOMPARE(legendNames(panel), before);
    panel.filterField()->clear();
    QCOMPARE(legendNames(panel), all);
}

void TestHeapView::legendClickHidesAndHoverEmphasises()
{
    HeapPanel panel;
    panel.setIndex(load(QStringLiteral("leak-hT.eventlog")));
    QSignalSpy changed(&panel, &HeapPanel::viewChanged);
    panel.filterField()->setText(QStringLiteral("THUNK"));
    const QModelIndex first = panel.legend()->model()->index(0, 0);
    const int column = first.data(BandLegendModel::kColumnRole).toInt();
    QCOMPARE(first.data(Qt::CheckStateRole).toInt(), int(Qt::Checked));
    // A click on the filtered row hides that band (its column, not row 0).
    panel.toggleRow(0);
    QCOMPARE(changed.size(), 1);
    QVERIFY(panel.view()->isHidden(size_t(column)));
    QCOMPARE(panel.legend()->model()->index(0, 0).data(Qt::CheckStateRole).toInt(), int(Qt::Unchecked));
    size_t hidden = 0;
    for (size_t k = 0; k < panel.view()->selection->columns(); ++k)
        hidden += panel.view()->isHidden(k);
    QCOMPARE(hidden, size_t(1));
    panel.toggleRow(0);
    QVERIFY(!panel.view()->isHidden(size_t(column)));

    // Hovering a row picks the band out; leaving the list clears it.
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    emit panel.legend()->entered(panel.legend()->model()->index(0, 0));
    QVERIFY(panel.view()->isEmphasised(size_t(column)));
    QVERIFY(panel.view()->anyEmphasised());
    QEvent leave(QEvent::Leave);
    QCoreApplication::sendEvent(panel.legend()->viewport(), &leave);
    QVERIFY(!panel.view()->anyEmphasised());

    // A band hidden stays hidden when the ordering changes, and when it
    // falls into OTHER and comes back (the smallest of the 15 is hidden).
    panel.filterField()->clear();
    panel.toggleRow(14);
    const uint32_t label = panel.view()->selection->labels[14];
    QVERIFY(panel.view()->isHidden(14));
    panel.orderBox()->setCurrentIndex(panel.orderBox()->findData(int(BandOrder::Name)));
    auto k = panel.view()->selection->columnOf(label);
    QVERIFY(k);
    QVERIFY(panel.view()->isHidden(*k));
    panel.bandsBox()->setValue(1);
    QVERIFY(std::find(panel.view()->selection->labels.begin(), panel.view()->selection->labels.end(), label)
            == panel.view()->selection->labels.end());
    QVERIFY(!panel.view()->isHidden(panel.view()->selection->columns() - 1)); // OTHER is not hidden for it
    panel.bandsBox()->setValue(15);
    k = panel.view()->selection->columnOf(label);
    QVERIFY(k && *k < panel.view()->selection->labels.size());
    QVERIFY(panel.view()->isHidden(*k));

    // Bands chosen elsewhere (the table, the tree) stay picked out after a
    // hover over the legend ends, and across a new ordering.
    const uint32_t chosen = panel.view()->selection->labels[0];
    panel.emphasiseLabels({chosen});
    QVERIFY(panel.view()->isEmphasised(0));
    emit panel.legend()->entered(panel.legend()->model()->index(1, 0));
    QVERIFY(!panel.view()->isEmphasised(0));
    QCoreApplication::sendEvent(panel.legend()->viewport(), &leave);
    QVERIFY(panel.view()->isEmphasised(*panel.view()->selection->columnOf(chosen)));
    panel.orderBox()->setCurrentIndex(panel.orderBox()->findData(int(BandOrder::Size)));
    QVERIFY(panel.view()->isEmphasised(*panel.view()->selection->columnOf(chosen)));
}

void TestHeapView::bandCountAndOrderingControls()
{
    HeapPanel panel;
    const auto ix = load(QStringLiteral("leak-prof-hd.eventlog"));
    panel.setIndex(ix);
    const HeapBands& bands = ix->heapBands;
    panel.bandsBox()->setValue(3);
    QCOMPARE(legendNames(panel).size(), 4);
    QVERIFY(panel.view()->selection->other);
    panel.bandsBox()->setValue(0); // all
    QVERIFY(!panel.view()->selection->other);
    const size_t nonEmpty = size_t(std::count_if(bands.stats.begin(), bands.stats.end(), [](const BandStats& s) { return s.peak > 0; }));
    QCOMPARE(size_t(legendNames(panel).size()), nonEmpty);

    panel.bandsBox()->setValue(5);
    panel.orderBox()->setCurrentIndex(panel.orderBox()->findData(int(BandOrder::Name)));
    QStringList names = legendNames(panel);
    names.removeLast(); // OTHER
    QStringList sorted = names;
    std::sort(sorted.begin(), sorted.end(), [](const QString& a, const QString& b) { return a.toStdString() < b.toStdString(); });
    QCOMPARE(names, sorted);
    panel.reverseBox()->setChecked(true);
    QStringList reversed = legendNames(panel);
    QVERIFY(reversed.last().startsWith(QStringLiteral("OTHER"))); // OTHER stays last
    reversed.removeLast();
    std::reverse(sorted.begin(), sorted.end());
    QCOMPARE(reversed, sorted);

    panel.reverseBox()->setChecked(false);
    panel.orderBox()->setCurrentIndex(panel.orderBox()->findData(int(BandOrder::Growth)));
    const BandSelection& sel = *panel.view()->selection;
    for (size_t k = 1; k < sel.labels.size(); ++k)
        QVERIFY(bands.stats[sel.labels[k - 1]].slope >= bands.stats[sel.labels[k]].slope);

    panel.modeBox()->setCurrentIndex(panel.modeBox()->findData(int(HeapChartMode::Lines)));
    QCOMPARE(panel.view()->mode, HeapChartMode::Lines);
    QCOMPARE(panel.view()->selection.get(), &sel); // a mode change keeps the bands
    Settings::clear(); // the other tests start from the defaults
}

// One row per band; the figures are the index's; sorting covers all rows;
// the cursor column sums to the census total; sparklines peak at 1.
void TestHeapView::detailTableFiguresAndSorting()
{
    MainWindow w;
    QVERIFY(openAndWait(w, QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/leak-hT.eventlog")));
    QTableView* table = w.bandTable();
    QAbstractItemModelTester tester(table->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    const auto ix = w.index();
    const HeapBands& bands = ix->heapBands;
    QCOMPARE(size_t(table->model()->rowCount()), bands.stats.size());

    table->sortByColumn(BandTableModel::Peak, Qt::DescendingOrder);
    uint64_t maxPeak = 0;
    for (const BandStats& s : bands.stats)
        maxPeak = std::max(maxPeak, s.peak);
    QAbstractItemModel* m = table->model();
    QCOMPARE(m->index(0, BandTableModel::Peak).data(kSortRole).toULongLong(), qulonglong(maxPeak));
    for (int r = 1; r < m->rowCount(); ++r)
        QVERIFY(m->index(r - 1, BandTableModel::Peak).data(kSortRole).toULongLong() >= m->index(r, BandTableModel::Peak).data(kSortRole).toULongLong());
    table->sortByColumn(BandTableModel::Band, Qt::AscendingOrder);
    for (int r = 1; r < m->rowCount(); ++r)
        QVERIFY(m->index(r - 1, 0).data().toString() <= m->index(r, 0).data().toString());

    // The cursor on the 5th census: the column holds that census's bands.
    const size_t pos = 4;
    w.timeline()->setCursorTime(bands.times[pos] + 1);
    qulonglong sum = 0;
    for (int r = 0; r < m->rowCount(); ++r)
        sum += m->index(r, BandTableModel::AtCursor).data(kSortRole).toULongLong();
    QCOMPARE(sum, qulonglong(bands.totals[pos]));

    for (int r = 0; r < m->rowCount(); ++r) {
        const auto spark = m->index(r, BandTableModel::Trend).data(BandTableModel::kSparkRole).value<QVector<double>>();
        QCOMPARE(size_t(spark.size()), kSparkPoints);
        const double top = *std::max_element(spark.begin(), spark.end());
        const uint32_t label = m->index(r, 0).data(BandTableModel::kLabelRole).toUInt();
        if (bands.stats[label].peak > 0)
            QCOMPARE(top, 1.0);
    }
    // Choosing rows picks their bands out in the chart.
    table->selectRow(0);
    const uint32_t label = m->index(0, 0).data(BandTableModel::kLabelRole).toUInt();
    const auto column = w.heapPanel()->view()->selection->columnOf(label);
    QVERIFY(column);
    QVERIFY(w.heapPanel()->view()->isEmphasised(*column));
}

void TestHeapView::detailTableRanksSelectedRange()
{
    MainWindow w;
    QVERIFY(openAndWait(w, QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/leak-hT.eventlog")));
    const auto ix = w.index();
    const HeapBands& bands = ix->heapBands;
    const ViewRange range{bands.times[2], bands.times[6]};
    w.controller()->setSelection(range);
    QTRY_VERIFY(w.bandModel()->hasRange()); // ranked once the selection settles
    QAbstractItemModel* m = w.bandTable()->model();
    const std::vector<double> expected = byteSecondsIn(ix->heapProfile, bands, range.start, range.end);
    const double best = *std::max_element(expected.begin(), expected.end());
    QVERIFY(best > 0);
    // Sorted by residency in the selection, largest first.
    QCOMPARE(m->index(0, BandTableModel::InRange).data(kSortRole).toDouble(), best);
    for (int r = 1; r < m->rowCount(); ++r)
        QVERIFY(m->index(r - 1, BandTableModel::InRange).data(kSortRole).toDouble() >= m->index(r, BandTableModel::InRange).data(kSortRole).toDouble());
    // Slope, R² and growth are of the selection, and the headers say so.
    const BandTrends inRange = bandTrendsIn(ix->heapProfile, bands, range.start, range.end);
    QCOMPARE(m->headerData(BandTableModel::Slope, Qt::Horizontal).toString(), QStringLiteral("Slope (selection)"));
    QCOMPARE(m->headerData(BandTableModel::Growth, Qt::Horizontal).toString(), QStringLiteral("Growth (selection)"));
    int differ = 0;
    for (int r = 0; r < m->rowCount(); ++r) {
        const uint32_t label = m->index(r, 0).data(BandTableModel::kLabelRole).toUInt();
        QCOMPARE(m->index(r, BandTableModel::Slope).data(kSortRole).toDouble(), inRange.labels[label].slope);
        QCOMPARE(m->index(r, BandTableModel::R2).data(kSortRole).toDouble(), inRange.labels[label].r2);
        QCOMPARE(m->index(r, BandTableModel::Growth).data(kSortRole).toLongLong(), qlonglong(inRange.labels[label].growth));
        differ += inRange.labels[label].slope != bands.stats[label].slope;
    }
    QVERIFY(differ > 0); // the selection's trends are not the run's
    // Without a selection: the whole run's.
    w.controller()->setSelection(std::nullopt);
    QTRY_VERIFY(!w.bandModel()->hasRange());
    QCOMPARE(m->headerData(BandTableModel::Slope, Qt::Horizontal).toString(), QStringLiteral("Slope (run)"));
    for (int r = 0; r < m->rowCount(); ++r) {
        const uint32_t label = m->index(r, 0).data(BandTableModel::kLabelRole).toUInt();
        QVERIFY(std::abs(m->index(r, BandTableModel::Slope).data(kSortRole).toDouble() - bands.stats[label].slope)
                <= 1e-9 * std::max(1.0, std::abs(bands.stats[label].slope)));
    }
}

void TestHeapView::costCentreTreeEmphasisesItsBands()
{
    MainWindow w;
    QVERIFY(openAndWait(w, QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/leak-prof-hc.eventlog")));
    QTreeWidget* tree = w.costCentreTree()->tree();
    QVERIFY(tree->topLevelItemCount() > 0);
    // Top-level nodes are outermost cost centres; their labels are the
    // bands whose stacks end there.
    const auto ix = w.index();
    QTreeWidgetItem* top = tree->topLevelItem(0);
    const QVariantList labels = top->data(0, Qt::UserRole).toList();
    QVERIFY(!labels.isEmpty());
    for (const QVariant& l : labels) {
        const auto& stack = ix->heapProfile.stacks[l.toUInt()];
        QVERIFY(!stack.empty());
        QCOMPARE(QString::fromStdString(ix->costCentres.at(stack.back()).label), top->text(0));
    }
    // Sizes read in units and sort by value, largest first.
    QVERIFY2(top->text(1).endsWith(QStringLiteral("B·s")), qPrintable(top->text(1)));
    QCOMPARE(tree->sortColumn(), 1);
    for (int i = 1; i < tree->topLevelItemCount(); ++i)
        QVERIFY(tree->topLevelItem(i - 1)->data(1, Qt::UserRole).toDouble() >= tree->topLevelItem(i)->data(1, Qt::UserRole).toDouble());
    tree->setCurrentItem(top);
    const auto view = w.heapPanel()->view();
    QVERIFY(view->anyEmphasised());
    for (const QVariant& l : labels)
        QVERIFY(view->isEmphasised(*view->selection->columnOf(l.toUInt())));
}

void TestHeapView::hiddenBandChangesTheTrack()
{
    const auto ix = load(QStringLiteral("leak-hT.eventlog"));
    TimelineRenderer renderer;
    renderer.setIndex(ix);
    RenderOptions o;
    o.tracks = {QStringLiteral("heap-profile")};
    o.legend = false;
    auto render = [&](std::shared_ptr<const HeapView> v) {
        o.states.set<HeapView>(std::move(v));
        QImage image(800, 260, QImage::Format_ARGB32_Premultiplied);
        QPainter p(&image);
        renderer.paint(p, image.rect(), renderer.bounds(), o);
        return image;
    };
    auto shown = std::make_shared<HeapView>();
    shown->indexSerial = ix->serial;
    shown->selection = ix->defaultBands;
    auto hidden = std::make_shared<HeapView>(*shown);
    hidden->hidden.assign(shown->selection->columns(), 0);
    hidden->hidden[0] = 1; // the largest band
    const QImage a = render(shown), b = render(hidden);
    QVERIFY(a != b);
    // The default view (no panel) is the same as the default selection, and
    // so is a view made for another index (a reload): never mixed up.
    QCOMPARE(render(nullptr), a);
    auto stale = std::make_shared<HeapView>(*hidden);
    stale->indexSerial = load(QStringLiteral("leak-prof-hd.eventlog"))->serial;
    QCOMPARE(render(stale), a);
}

// Clicking the lowest band of the stack selects its row in the band table
// and picks it out; clicking above every band chooses nothing.
void TestHeapView::clickOnABandChoosesIt()
{
    MainWindow w;
    QVERIFY(openAndWait(w, QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/leak-prof-hc.eventlog")));
    TimelineView* view = w.timeline();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    view->grab(); // paints the track, as the screen does
    const auto rows = view->renderer().layout(view->rect(), view->options());
    const auto row = std::find_if(rows.begin(), rows.end(), [](const TrackRow& r) { return r.id() == QLatin1String("heap-profile"); });
    QVERIFY(row != rows.end());
    const auto ix = w.index();
    const HeapBands& bands = ix->heapBands;
    const QRect plot = view->renderer().plotArea(view->rect(), view->options());
    const TimeMapping m(w.controller()->range(), plot.left(), plot.width());
    const size_t census = bands.times.size() / 2;
    const QPoint bottom(int(m.toPixel(bands.times[census])), row->rect.bottom() - 3);
    const BandSelection& sel = *w.heapPanel()->view()->selection;
    QCOMPARE(view->renderer().heapColumnAt(bottom, view->rect(), w.controller()->range(), view->options()), std::optional<size_t>(0));
    QSignalSpy clicked(view, &TimelineView::heapBandClicked);
    QTest::mouseClick(view, Qt::LeftButton, {}, bottom);
    QCOMPARE(clicked.size(), 1);
    QCOMPARE(clicked.first().first().toUInt(), sel.labels[0]);
    const QModelIndexList chosen = w.bandTable()->selectionModel()->selectedRows();
    QCOMPARE(chosen.size(), qsizetype(1));
    QCOMPARE(chosen.first().data(BandTableModel::kLabelRole).toUInt(), sel.labels[0]);
    QVERIFY(w.heapPanel()->view()->isEmphasised(0));
    // The tree shows the stack of that band.
    QTreeWidgetItem* current = w.costCentreTree()->tree()->currentItem();
    QVERIFY(current);
    QCOMPARE(current->data(0, Qt::UserRole + 1).toUInt(), ix->heapProfile.stacks[sel.labels[0]].front());
    // The top of the track is above every band.
    const QPoint above(bottom.x(), row->rect.top() + 3);
    QCOMPARE(view->renderer().heapColumnAt(above, view->rect(), w.controller()->range(), view->options()), std::nullopt);
}

// A .hp file opens like an eventlog: its censuses become the heap-profile
// track; an incomplete last sample is named in the banner.
void TestHeapView::hpFileOpensInTheWindow()
{
    MainWindow w;
    QVERIFY(openAndWait(w, QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/leak-prof-hc.hp")));
    QVERIFY(w.index()->hpFile);
    QVERIFY(!w.index()->heapBands.empty());
    QCOMPARE(w.bannerText(), QString());
    QVERIFY(legendNames(*w.heapPanel()).size() > 3);

    QTemporaryDir dir;
    const QString cut = dir.filePath(QStringLiteral("cut.hp"));
    std::vector<uint8_t> bytes = readFile(QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/leak-prof-hc.hp"));
    bytes.resize(bytes.size() * 2 / 3);
    QFile f(cut);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(reinterpret_cast<const char*>(bytes.data()), qint64(bytes.size()));
    f.close();
    MainWindow w2;
    QVERIFY(openAndWait(w2, cut));
    QVERIFY2(w2.bannerText().contains(QStringLiteral("incomplete heap profile")), qPrintable(w2.bannerText()));
    QVERIFY(!w2.index()->heapBands.empty());
}

// Band count, ordering and direction are the next panel's too; the chart
// mode is not (it changes what the axis means).
void TestHeapView::choicesPersist()
{
    {
        HeapPanel panel;
        panel.bandsBox()->setValue(7);
        panel.orderBox()->setCurrentIndex(panel.orderBox()->findData(int(BandOrder::Growth)));
        panel.reverseBox()->setChecked(true);
        panel.modeBox()->setCurrentIndex(panel.modeBox()->findData(int(HeapChartMode::Lines)));
    }
    HeapPanel next;
    next.setIndex(load(QStringLiteral("leak-hT.eventlog")));
    QCOMPARE(next.bandsBox()->value(), 7);
    QCOMPARE(next.view()->selection->n, size_t(7));
    QCOMPARE(next.view()->selection->order, BandOrder::Growth);
    QVERIFY(next.view()->selection->reversed);
    QCOMPARE(next.view()->mode, HeapChartMode::Stacked);
    Settings::clear(); // the other tests start from the defaults
}

// In the window, another file starts in the stacked chart; reloading the
// same file keeps the mode chosen for it.
void TestHeapView::chartModeIsPerFile()
{
    MainWindow w;
    QVERIFY(openAndWait(w, QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/leak-hT.eventlog")));
    QComboBox* mode = w.heapPanel()->modeBox();
    mode->setCurrentIndex(mode->findData(int(HeapChartMode::Lines)));
    QTRY_VERIFY(w.heapPanel()->view() && w.heapPanel()->view()->mode == HeapChartMode::Lines);
    QVERIFY(openAndWait(w, QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/leak-hT.eventlog")));
    QTRY_VERIFY(w.heapPanel()->view());
    QCOMPARE(w.heapPanel()->view()->mode, HeapChartMode::Lines);
    QVERIFY(openAndWait(w, QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/leak-prof-hc.hp")));
    QTRY_VERIFY(w.heapPanel()->view());
    QCOMPARE(HeapChartMode(mode->currentData().toInt()), HeapChartMode::Stacked);
    QCOMPARE(w.heapPanel()->view()->mode, HeapChartMode::Stacked);
}

// A profile of more than kSelectInline samples is selected on a worker
// thread: the pane says so meanwhile, only the latest request lands, and
// the result is the one selectBands gives.
void TestHeapView::bigProfileSelectsOnAWorker()
{
    Settings::clear(); // the default band count, whatever ran before
    const std::vector<uint8_t> bytes = synthesizeHeapProfileLog(700, 2000);
    MemorySource source(bytes);
    const std::shared_ptr<const LogIndex> ix(loadIndex(source).index);
    QVERIFY(ix->heapProfile.samples.size() >= HeapPanel::kSelectInline);
    HeapPanel panel;
    panel.setIndex(ix);
    QVERIFY(!panel.isSelecting()); // the loader's default selection
    QCOMPARE(panel.view()->selection, ix->defaultBands);
    QSignalSpy changed(&panel, &HeapPanel::viewChanged);
    panel.bandsBox()->setValue(7);
    QVERIFY(panel.isSelecting());
    panel.bandsBox()->setValue(9);
    panel.orderBox()->setCurrentIndex(panel.orderBox()->findData(int(BandOrder::Name)));
    QTRY_VERIFY_WITH_TIMEOUT(!panel.isSelecting(), 20000);
    QCOMPARE(changed.size(), 1); // the earlier requests were dropped
    const BandSelection want = selectBands(ix->heapProfile, ix->heapBands, 9, BandOrder::Name, false);
    QCOMPARE(panel.view()->selection->labels, want.labels);
    QCOMPARE(panel.view()->selection->values, want.values);
    QCOMPARE(legendNames(panel).size(), 10);
    Settings::clear();
}

// Zoomed out over thousands of censuses, the last one (here the peak, at
// the very end of the view, as a .hp file's whole view ends) is drawn: the
// scale reaches it.
void TestHeapView::denseChartKeepsTheLastCensus()
{
    std::string text = "JOB \"p\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n";
    for (int i = 1; i <= 4000; ++i) {
        const std::string t = std::to_string(i) + ".0";
        text += "BEGIN_SAMPLE " + t + "\nX\t" + (i == 4000 ? "8000000" : "1000000") + "\nEND_SAMPLE " + t + "\n";
    }
    MemorySource source(std::vector<uint8_t>(text.begin(), text.end()));
    const std::shared_ptr<const LogIndex> ix(loadIndex(source).index);
    TimelineRenderer renderer;
    renderer.setIndex(ix);
    const ViewRange whole = renderer.bounds();
    QCOMPARE(whole.end, ix->heapBands.times.back());
    auto view = std::make_shared<HeapView>();
    view->indexSerial = ix->serial;
    view->selection = ix->defaultBands;
    const auto drawn = HeapProfileChart::prepare(*ix, view, whole, 400);
    QVERIFY2(drawn.top >= 8.0, qPrintable(QString::number(drawn.top))); // MB
}

// With every band of a 300-band profile shown, the chart gives its own
// graph to the 64 tallest (and to picked-out ones, whatever their size);
// the scale still covers the whole stack.
void TestHeapView::manyBandsDrawTheTallestInColour()
{
    const std::vector<uint8_t> bytes = synthesizeHeapProfileLog(30, 300);
    MemorySource source(bytes);
    const std::shared_ptr<const LogIndex> ix(loadIndex(source).index);
    const auto all = std::make_shared<const BandSelection>(selectBands(ix->heapProfile, ix->heapBands, 0));
    QVERIFY(all->columns() > HeapProfileChart::kMaxDrawnBands);
    TimelineRenderer renderer;
    renderer.setIndex(ix);
    for (HeapChartMode mode : {HeapChartMode::Stacked, HeapChartMode::Lines}) {
        auto view = std::make_shared<HeapView>();
        view->indexSerial = ix->serial;
        view->selection = all;
        view->mode = mode;
        QCOMPARE(HeapProfileChart::prepare(*ix, view, renderer.bounds(), 600).drawnBands, HeapProfileChart::kMaxDrawnBands);
    }
    // The stack's top is the largest census total, in MB.
    auto stacked = std::make_shared<HeapView>();
    stacked->indexSerial = ix->serial;
    stacked->selection = all;
    QVERIFY(HeapProfileChart::prepare(*ix, stacked, renderer.bounds(), 600).top >= double(ix->heapBands.peakTotal) * 1e-6);
    // Fewer bands than the limit: every one is drawn.
    auto few = std::make_shared<HeapView>(*stacked);
    few->selection = ix->defaultBands;
    QCOMPARE(HeapProfileChart::prepare(*ix, few, renderer.bounds(), 600).drawnBands, ix->defaultBands->columns());
}

QTEST_MAIN(TestHeapView)
#include "tst_heapview.moc"

void TestHeapView::valueLabelsSayWhatEachModeDraws_data()
{
    QTest::addColumn<QString>("file");
    QTest::newRow(".hp (5 KB)") << QStringLiteral("leak-prof-hc.hp");
    QTest::newRow("-hT eventlog") << QStringLiteral("leak-hT.eventlog");
    QTest::newRow("-hd eventlog") << QStringLiteral("leak-prof-hd.eventlog");
}

// The heap-profile track's one labelled gridline, as the painter draws it,
// is in the units of what each mode draws: MB stacked (a round value not
// above the stack's top), % normalised, a share of each band's own peak
// in lines mode (never MB: each line has its own scale).
void TestHeapView::valueLabelsSayWhatEachModeDraws()
{
    QFETCH(QString, file);
    const auto ix = load(file);
    QVERIFY(ix && ix->defaultBands);
    TimelineRenderer renderer;
    renderer.setIndex(ix);
    const QRect r(0, 0, 800, 200);
    for (HeapChartMode mode : {HeapChartMode::Stacked, HeapChartMode::Normalised, HeapChartMode::Lines}) {
        auto view = std::make_shared<HeapView>();
        view->indexSerial = ix->serial;
        view->selection = ix->defaultBands;
        view->mode = mode;
        const auto d = HeapProfileChart::prepare(*ix, view, renderer.bounds(), r.width());
        QImage image(r.size(), QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::white);
        ChartPainter painter;
        {
            QPainter p(&image);
            d.paint(painter, p, r, lightPalette());
        }
        QCOMPARE(painter.labelsDrawn().size(), size_t(1));
        const QString label = painter.labelsDrawn().front().text;
        const QString what = heapChartModeName(mode) + QStringLiteral(": ") + label;
        switch (mode) {
        case HeapChartMode::Stacked: {
            QVERIFY2(label.endsWith(QStringLiteral(" MB")), qPrintable(what));
            const double mb = label.chopped(3).toDouble();
            QVERIFY2(mb > 0 && mb <= d.top && mb * 10 > d.top, qPrintable(what + QStringLiteral(" top %1").arg(d.top)));
            break;
        }
        case HeapChartMode::Normalised:
            QCOMPARE(label, QStringLiteral("50 %"));
            break;
        case HeapChartMode::Lines:
            QCOMPARE(label, QStringLiteral("50 % of peak"));
            break;
        }
    }
}

void TestHeapView::valueLabelsStayOffTheLines_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("width");
    for (const QString& file : {QStringLiteral("leak-hT.eventlog"), QStringLiteral("leak-prof-hc.eventlog"),
                               QStringLiteral("threads-N2.eventlog"), QStringLiteral("spans-N2.eventlog")})
        for (int width : {300, 800, 1500})
            QTest::newRow(qPrintable(file + QLatin1Char(' ') + QString::number(width))) << file << width;
}

// The heap track's labels (MB on the left, MB/s on the right) and the
// heap-profile track's lie on boxes of the base colour: no data line runs
// through their text (in a light palette every pixel of a box is a grey
// level; the lines are red, green and blue-grey).
void TestHeapView::valueLabelsStayOffTheLines()
{
    QFETCH(QString, file);
    QFETCH(int, width);
    const auto ix = load(file);
    QVERIFY(ix);
    TimelineRenderer renderer;
    renderer.setIndex(ix);
    const auto check = [&](const QRect& r, const auto& chart) {
        QImage image(r.size(), QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::white);
        ChartPainter painter;
        {
            QPainter p(&image);
            chart.paint(painter, p, r, lightPalette());
        }
        QVERIFY(!painter.labelsDrawn().empty());
        for (const ChartPainter::ValueLabel& l : painter.labelsDrawn()) {
            const QRect box = l.box.toAlignedRect().intersected(image.rect());
            QVERIFY(!box.isEmpty());
            for (int y = box.top(); y <= box.bottom(); ++y)
                for (int x = box.left(); x <= box.right(); ++x) {
                    const QColor c = image.pixelColor(x, y);
                    QVERIFY2(c.red() == c.green() && c.green() == c.blue(),
                             qPrintable(QStringLiteral("%1 at %2,%3: %4").arg(l.text).arg(x).arg(y).arg(c.name())));
                }
        }
    };
    const QRect heap(0, 0, width, 84);
    check(heap, HeapChart::prepare(*ix, renderer.bounds(), width));
    if (!ix->defaultBands)
        return;
    const QRect profile(0, 0, width, 200);
    for (HeapChartMode mode : {HeapChartMode::Stacked, HeapChartMode::Lines}) {
        auto view = std::make_shared<HeapView>();
        view->indexSerial = ix->serial;
        view->selection = ix->defaultBands;
        view->mode = mode;
        check(profile, HeapProfileChart::prepare(*ix, view, renderer.bounds(), width));
    }
}
