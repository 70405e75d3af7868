// tst_timeline in the window: opening, wheel zoom, resizing a row, keys
// and history, reload, selection, ruler and legend, tooltips.
#include "tst_timeline.h"
#include "ui/jobs/settings.h"

void TestTimeline::windowOpensAtWholeLog()
{
    MainWindow w;
    QVERIFY(showAndOpen(w, m_log));
    const auto index = w.index();
    QCOMPARE(w.controller()->range(), (ViewRange{0, index->lastTime}));
    QVERIFY(w.statisticsText().startsWith(QStringLiteral("Whole run")));
    // One row per capability (4 in this log) below activity.
    const auto rows = w.timeline()->renderer().layout(w.timeline()->rect(), w.timeline()->options());
    QCOMPARE(int(std::count_if(rows.begin(), rows.end(), [](const TrackRow& r) { return r.id() == QLatin1String("hecs"); })),
             int(index->caps.size()));
    QCOMPARE(index->caps.size(), size_t(4));
    // The painted canvas is not blank: the HEC rows have thread colours.
    const QImage shot = w.timeline()->grab().toImage();
    QSet<QRgb> colours;
    for (const TrackRow& r : rows)
        if (r.id() == QLatin1String("hecs"))
            for (int x = TimelineRenderer::kLabelWidth; x < shot.width(); x += 3)
                colours.insert(shot.pixel(x, r.rect.top() + 10));
    QVERIFY2(colours.size() >= 5, qPrintable(QString::number(colours.size())));
}

void TestTimeline::wheelZoomsAroundPointer()
{
    MainWindow w;
    QVERIFY(showAndOpen(w, m_log));
    TimelineView* view = w.timeline();
    // The gesture is timed on the view's clock, which the test keeps.
    int64_t now = 1000;
    view->setClock([&now] { return now; });
    const QRect plot = view->renderer().plotArea(view->rect(), view->options());
    const QPointF at(plot.left() + plot.width() * 0.3, 80);
    const ViewRange before = w.controller()->range();
    const uint64_t anchor = TimeMapping(before, plot.left(), plot.width()).toTime(at.x());
    QWheelEvent wheel(at, view->mapToGlobal(at), QPoint(), QPoint(0, 360), Qt::NoButton, Qt::NoModifier,
                      Qt::NoScrollPhase, false);
    QApplication::sendEvent(view, &wheel);
    const ViewRange after = w.controller()->range();
    QVERIFY(after.duration() < before.duration() / 1.5);
    const double px = TimeMapping(after, plot.left(), plot.width()).toPixel(anchor);
    QVERIFY2(std::abs(px - at.x()) <= 1.0, qPrintable(QString::number(px - at.x())));
    // The notches of one gesture are one step of the Back history (each
    // within the gesture's time of the one before).
    for (int i = 0; i < 4; ++i) {
        now += TimelineView::kWheelGestureMs / 2;
        QWheelEvent more(at, view->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                         Qt::NoScrollPhase, false);
        QApplication::sendEvent(view, &more);
    }
    QVERIFY(w.controller()->range().duration() < after.duration());
    QVERIFY(w.controller()->canGoBack());
    w.controller()->back();
    QCOMPARE(w.controller()->range(), before);
    QVERIFY(!w.controller()->canGoBack());
    // A gesture after a pause is a step of its own.
    now += TimelineView::kWheelGestureMs + 100;
    QApplication::sendEvent(view, &wheel);
    now += TimelineView::kWheelGestureMs + 100;
    const ViewRange first = w.controller()->range();
    QApplication::sendEvent(view, &wheel);
    w.controller()->back();
    QCOMPARE(w.controller()->range(), first);
    w.controller()->back();
    QCOMPARE(w.controller()->range(), before);
}

// A track's row height follows a drag of its bottom edge, is kept in the
// settings for the next window, and View ▸ Reset Track Heights undoes it.
// Thread rows, drawn in whole bars, cannot be dragged.
void TestTimeline::dragARowsEdgeToResizeIt()
{
    Settings::remove(QStringLiteral("view/rowHeights"));
    const QString log = QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/leak-hT.eventlog");
    int natural = 0;
    {
        MainWindow w;
        QVERIFY(showAndOpen(w, log));
        TimelineView* view = w.timeline();
        auto heapRow = [&] {
            for (const TrackRow& row : view->renderer().layout(view->rect(), view->options()))
                if (row.id() == QLatin1String("heap-profile"))
                    return row;
            return TrackRow{};
        };
        const TrackRow before = heapRow();
        QVERIFY(before.track);
        natural = before.rect.height();
        const QPoint edge(view->renderer().plotArea(view->rect(), view->options()).center().x(), before.rect.bottom());
        // The edge in sight, clear of the legend pinned to the bottom of the
        // tracks' viewport.
        if (auto* scroll = qobject_cast<QScrollArea*>(view->parentWidget()->parentWidget()))
            scroll->ensureVisible(edge.x(), edge.y(), 0, 300);
        QCoreApplication::processEvents();
        QMouseEvent hover(QEvent::MouseMove, edge, view->mapToGlobal(edge), Qt::NoButton, Qt::NoButton, Qt::NoModifier);
        QApplication::sendEvent(view, &hover);
        QCOMPARE(view->QWidget::cursor().shape(), Qt::SplitVCursor);
        QTest::mousePress(view, Qt::LeftButton, Qt::NoModifier, edge);
        QTest::mouseMove(view, edge + QPoint(0, 80));
        QTest::mouseRelease(view, Qt::LeftButton, Qt::NoModifier, edge + QPoint(0, 80));
        QCOMPARE(heapRow().rect.height(), natural + 80);
        QCOMPARE(view->rowHeights().at(QStringLiteral("heap-profile")), natural + 80);
        QVERIFY(view->minimumHeight() >= heapRow().rect.bottom());
        // The view did not pan or select meanwhile.
        QVERIFY(!w.controller()->selection());
        // Thread rows keep their bars.
        for (const TrackRow& row : view->renderer().layout(view->rect(), view->options()))
            if (row.id() == QLatin1String("threads")) {
                const QPoint threadEdge(edge.x(), row.rect.bottom());
                QTest::mousePress(view, Qt::LeftButton, Qt::NoModifier, threadEdge);
                QTest::mouseMove(view, threadEdge + QPoint(0, 40));
                QTest::mouseRelease(view, Qt::LeftButton, Qt::NoModifier, threadEdge + QPoint(0, 40));
                QVERIFY(!view->rowHeights().count(QStringLiteral("threads")));
            }
        w.close();
    }
    MainWindow again; // kept
    QCOMPARE(again.timeline()->rowHeights().at(QStringLiteral("heap-profile")), natural + 80);
    QAction* reset = nullptr;
    for (QAction* a : again.findChildren<QAction*>())
        if (a->text() == QStringLiteral("Reset Track &Heights"))
            reset = a;
    QVERIFY(reset);
    reset->trigger();
    QVERIFY(again.timeline()->rowHeights().empty());
    QVERIFY(!Settings::value(QStringLiteral("view/rowHeights")).isValid());
    Settings::waitForWrites(); // (a worker writes the file)
    QVERIFY(!QSettings().contains(QStringLiteral("view/rowHeights")));
}

void TestTimeline::keyboardAndHistory()
{
    MainWindow w;
    QVERIFY(showAndOpen(w, m_log));
    TimelineView* view = w.timeline();
    const ViewRange whole = w.controller()->range();
    QTest::keyClick(view, Qt::Key_Plus);
    QCOMPARE(w.controller()->range().duration(), whole.duration() / 2);
    QTest::keyClick(view, Qt::Key_Right);
    QVERIFY(w.controller()->range().start > whole.start);
    QTest::keyClick(view, Qt::Key_Home);
    QCOMPARE(w.controller()->range(), whole);
    w.controller()->back();
    QVERIFY(w.controller()->range().duration() < whole.duration());
}

void TestTimeline::reloadKeepsTheView()
{
    MainWindow w;
    QVERIFY(showAndOpen(w, m_log));
    const uint64_t last = w.index()->lastTime;
    const ViewRange view{last / 5, last / 3};
    const ViewRange selection{last / 4, last / 4 + 1000};
    w.controller()->setRange(view);
    w.controller()->setSelection(selection);
    QVERIFY(openAndWait(w, m_log)); // File ▸ Reload
    QCOMPARE(w.controller()->range(), view);
    QCOMPARE(*w.controller()->selection(), selection);
    QVERIFY(w.statisticsText().startsWith(QStringLiteral("Selection")));
    // Another file starts at its whole run.
    const QString other = QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/threads-N2.eventlog");
    QVERIFY(openAndWait(w, other));
    QCOMPARE(w.controller()->range(), (ViewRange{0, w.index()->lastTime}));
    QVERIFY(!w.controller()->selection());
}

void TestTimeline::selectionGivesRangeStatistics()
{
    MainWindow w;
    QVERIFY(showAndOpen(w, m_log));
    TimelineView* view = w.timeline();
    const QRect plot = view->renderer().plotArea(view->rect(), view->options());
    const int y = plot.top() + 60;
    const QPoint from(plot.left() + plot.width() / 4, y), to(plot.left() + plot.width() / 2, y);
    QTest::mousePress(view, Qt::LeftButton, Qt::ShiftModifier, from);
    QTest::mouseMove(view, from + QPoint(20, 0));
    QTest::mouseMove(view, to);
    QTest::mouseRelease(view, Qt::LeftButton, Qt::ShiftModifier, to);
    const auto sel = w.controller()->selection();
    QVERIFY(sel);
    const TimeMapping m(w.controller()->range(), plot.left(), plot.width());
    QCOMPARE(sel->start, m.toTime(from.x()));
    QCOMPARE(sel->end, m.toTime(to.x()));
    // The pane shows the statistics of exactly that range, computed on a
    // worker (it says so meanwhile).
    QVERIFY(w.statisticsText().startsWith(QStringLiteral("Selection")));
    const RangeStats stats = computeStats(*w.index(), sel->start, sel->end);
    const QString expected = QString::fromStdString(infoText(*w.index(), stats, m_log.toStdString()));
    QTRY_VERIFY_WITH_TIMEOUT(w.statisticsText().endsWith(expected), 20000);
    // …with the range's +RTS -s table above them.
    QVERIFY(w.statisticsText().contains(QString::fromStdString(rtsSummaryText(*w.index(), stats, false))));
    // A click on a HEC row shows what is there in the Details pane, as the tooltip says it.
    const auto rows = view->renderer().layout(view->rect(), view->options());
    const auto hec1 = std::find_if(rows.begin(), rows.end(), [](const TrackRow& r) { return r.id() == QLatin1String("hecs") && r.cap == 1; });
    const QPoint click(plot.left() + plot.width() / 3, hec1->rect.top() + 8);
    const QString expectedDetails = view->renderer().describeAt(click, view->rect(), w.controller()->range(), view->options());
    QVERIFY(expectedDetails.startsWith(QStringLiteral("HEC 1")));
    QTest::mouseClick(view, Qt::LeftButton, Qt::NoModifier, click);
    QCOMPARE(w.detailsText(), expectedDetails);
    // …and it is selected: the item under the click, outlined.
    const auto item = view->selectedItem();
    QVERIFY(item);
    QCOMPARE(item->cap, 1);
    const uint64_t at = TimeMapping(w.controller()->range(), plot.left(), plot.width()).toTime(click.x());
    const double slack = 3 * TimeMapping(w.controller()->range(), plot.left(), plot.width()).nsPerPixel();
    QVERIFY(double(item->start) <= double(at) + slack && double(item->end) + slack >= double(at));
    // Escape clears it and the whole run is back.
    QTest::keyClick(view, Qt::Key_Escape);
    QVERIFY(!w.controller()->selection());
    QVERIFY(w.statisticsText().startsWith(QStringLiteral("Whole run")));
}

// Scrolled down a tall timeline, the ruler is painted again at the top of
// what is shown and the legend at its bottom, pixel for pixel as at their
// own places; the pointer over them reads the ruler and the legend, not the
// rows under them. Scrolled to the top, nothing is pinned.
void TestTimeline::rulerAndLegendStayInSight()
{
    TimelineRenderer r;
    const auto index = indexOf(m_log);
    QVERIFY(index);
    r.setIndex(index);
    RenderOptions o;
    const int height = r.naturalHeight(o);
    const QRect area(0, 0, 1200, height);
    const ViewRange view = r.bounds();
    const QRect visible(0, 300, 1200, 400);
    QVERIFY(height > visible.bottom() + 100); // the legend's own place is off screen
    QImage full(area.size(), QImage::Format_ARGB32_Premultiplied), pinned(full);
    {
        QPainter p(&full);
        r.paint(p, area, view, o);
    }
    {
        QPainter p(&pinned);
        r.paint(p, area, view, o);
        r.paintPinned(p, area, visible, view, o);
    }
    const QRect ruler = r.pinnedRuler(area, visible);
    QCOMPARE(ruler, QRect(0, visible.top(), area.width(), TimelineRenderer::kRulerHeight));
    const QRect plot = r.plotArea(area, o);
    // The ruler's strip right of the labels: the same pixels as at the top.
    const QRect tickStrip(plot.left(), 0, plot.width(), TimelineRenderer::kRulerHeight - 1);
    QCOMPARE(pinned.copy(tickStrip.translated(0, visible.top())), full.copy(tickStrip));
    QVERIFY(pinned.copy(tickStrip.translated(0, visible.top())) != full.copy(tickStrip.translated(0, visible.top())));
    const QRect legend = r.pinnedLegend(area, visible, o);
    QVERIFY(!legend.isEmpty());
    QCOMPARE(legend.bottom(), visible.bottom());
    const auto rows = r.layout(area, o);
    const int natural = rows.back().rect.bottom() + 1;
    // (At its own place the label column's separator runs through it.)
    for (const QRect part : {QRect(0, 1, plot.left() - 2, legend.height() - 1),
                             QRect(plot.left(), 1, area.width() - plot.left(), legend.height() - 1)})
        QCOMPARE(pinned.copy(part.translated(0, legend.top())), full.copy(part.translated(0, natural)));
    // Hit tests: the pinned strips stand for the ruler and the legend.
    QCOMPARE(r.unpinned(QPoint(600, visible.top() + 10), area, visible, o), QPoint(600, 10));
    QCOMPARE(r.unpinned(QPoint(600, legend.top() + 5), area, visible, o), QPoint(600, natural + 5));
    QCOMPARE(r.unpinned(QPoint(600, visible.top() + 100), area, visible, o), QPoint(600, visible.top() + 100));
    QVERIFY(r.describeAt(r.unpinned(QPoint(600, visible.top() + 10), area, visible, o), area, view, o).isEmpty());
    // At the top, nothing to pin.
    QVERIFY(r.pinnedRuler(area, QRect(0, 0, 1200, 400)).isEmpty());
}

void TestTimeline::tooltipNamesThread()
{
    TimelineRenderer r;
    const auto index = indexOf(m_log);
    QVERIFY(index);
    r.setIndex(index);
    const CapTimeline& tl = index->caps[0].timeline;
    size_t i = 0;
    while (i < tl.size() && (tl[i].kind() != SpanKind::Running || tl[i].length() < 1000))
        ++i;
    QVERIFY(i < tl.size());
    const Span s = tl[i];
    // A view of that span alone, so it fills the plot.
    const ViewRange view{s.start(), s.end()};
    const QRect area(0, 0, 1200, 400);
    RenderOptions o;
    const auto rows = r.layout(area, o);
    const auto hec0 = std::find_if(rows.begin(), rows.end(), [](const TrackRow& row) { return row.cap == 0; });
    QVERIFY(hec0 != rows.end());
    const QString text = r.describeAt(QPoint(600, hec0->rect.top() + 8), area, view, o);
    QVERIFY2(text.contains(QStringLiteral("Thread %1").arg(s.thread())), qPrintable(text));
    QVERIFY2(text.contains(stopReasonText(s.stop())), qPrintable(text));
    // The ruler and the label column describe nothing.
    QVERIFY(r.describeAt(QPoint(10, hec0->rect.top() + 8), area, view, o).isEmpty());
}
