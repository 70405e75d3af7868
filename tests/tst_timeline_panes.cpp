// tst_timeline in the window: logs that are cut or not logs, tracks
// without a log and their order, the GC table, bookmarks, the capability
// and process panes, and exports.
#include "tst_timeline.h"

void TestTimeline::truncatedLogShowsWhatWasDecoded()
{
    std::vector<uint8_t> bytes = test::readFile(m_log);
    bytes.resize(bytes.size() * 2 / 3);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("cut.eventlog"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(reinterpret_cast<const char*>(bytes.data()), qint64(bytes.size()));
    f.close();
    MainWindow w;
    w.show();
    QVERIFY(openAndWait(w, path));
    const QString banner = w.bannerText();
    QVERIFY2(banner.contains(QStringLiteral("truncated")), qPrintable(banner));
    QVERIFY2(banner.contains(QStringLiteral("offset")), qPrintable(banner));
    QCOMPARE(w.diagnostics().size(), 1);
    QVERIFY(w.diagnostics()[0].contains(QStringLiteral("truncated")));
    // Every complete event before the cut is in, as a plain decode finds them.
    const test::Decoded plain = test::decodeInChunks(bytes);
    QVERIFY(plain.events.size() > 100);
    QCOMPARE(w.index()->scan.events, uint64_t(plain.events.size()));
    QVERIFY(w.index()->scan.truncated);
    // The timeline covers everything decoded before the cut.
    QCOMPARE(w.controller()->range().end, w.index()->lastTime);
    QVERIFY(w.index()->lastTime > 0);
}

void TestTimeline::notAnEventlogSaysSo()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("notes.txt"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("this is not an eventlog\n");
    f.close();
    MainWindow w;
    w.show();
    QSignalSpy shown(&w, &MainWindow::loadFinished);
    w.openFile(path);
    QVERIFY(shown.wait(10000));
    const QString banner = w.bannerText();
    QVERIFY2(banner.contains(QStringLiteral("offset 0")) || banner.contains(QStringLiteral("byte 0")), qPrintable(banner));
}

// Until a log is there the tracks say so ("no log open", "loading…"), not
// "no sparks in this log"; once it is, they draw it.
void TestTimeline::tracksSayWhileThereIsNoLog()
{
    MainWindow w;
    QCOMPARE(w.timeline()->options().placeholder, QStringLiteral("no log open"));
    QSignalSpy shown(&w, &MainWindow::loadFinished);
    w.openFile(m_log);
    QCOMPARE(w.timeline()->options().placeholder, QStringLiteral("loading…"));
    QVERIFY(shown.wait(10000));
    QVERIFY(w.index());
    QVERIFY(w.timeline()->options().placeholder.isEmpty());
    // Drawn in place of the tracks' own notes.
    TimelineRenderer r;
    r.setIndex(w.index());
    RenderOptions o;
    o.tracks = {QStringLiteral("sparks")};
    o.legend = false;
    o.placeholder = QStringLiteral("loading…");
    const QRect area(0, 0, 800, r.naturalHeight(o));
    QImage withNote(area.size(), QImage::Format_ARGB32_Premultiplied), withData(area.size(), QImage::Format_ARGB32_Premultiplied);
    {
        QPainter p(&withNote);
        r.paint(p, area, r.bounds(), o);
    }
    o.placeholder.clear();
    {
        QPainter p(&withData);
        r.paint(p, area, r.bounds(), o);
    }
    QVERIFY(withNote != withData);
}

void TestTimeline::tracksReorderHideAndPersist()
{
    {
        MainWindow w;
        w.setTrackOrder({QStringLiteral("heap"), QStringLiteral("hecs")});
        const std::vector<QString> expected{QStringLiteral("heap"), QStringLiteral("hecs"), QStringLiteral("activity"), QStringLiteral("pinned-threads"), QStringLiteral("gc"), QStringLiteral("nonmoving"), QStringLiteral("sparks"), QStringLiteral("nonmoving-heap"), QStringLiteral("heap-profile"), QStringLiteral("time-profile"), QStringLiteral("markers"), QStringLiteral("spans"), QStringLiteral("threads")};
        QCOMPARE(w.timeline()->tracks(), expected);
        // Hiding one through the View ▸ Tracks menu.
        const auto actions = w.findChildren<QAction*>();
        const auto gc = std::find_if(actions.begin(), actions.end(), [](QAction* a) { return a->data().toString() == QLatin1String("gc"); });
        QVERIFY(gc != actions.end());
        (*gc)->setChecked(false);
        QCOMPARE(w.timeline()->tracks(), (std::vector<QString>{QStringLiteral("heap"), QStringLiteral("hecs"), QStringLiteral("activity"), QStringLiteral("pinned-threads"), QStringLiteral("nonmoving"), QStringLiteral("sparks"), QStringLiteral("nonmoving-heap"), QStringLiteral("heap-profile"), QStringLiteral("time-profile"), QStringLiteral("markers"), QStringLiteral("spans"), QStringLiteral("threads")}));
    }
    MainWindow again; // both persist
    QCOMPARE(again.timeline()->tracks(), (std::vector<QString>{QStringLiteral("heap"), QStringLiteral("hecs"), QStringLiteral("activity"), QStringLiteral("pinned-threads"), QStringLiteral("nonmoving"), QStringLiteral("sparks"), QStringLiteral("nonmoving-heap"), QStringLiteral("heap-profile"), QStringLiteral("time-profile"), QStringLiteral("markers"), QStringLiteral("spans"), QStringLiteral("threads")}));
    again.setTrackOrder({});
    const auto actions = again.findChildren<QAction*>();
    for (QAction* a : actions)
        if (a->data().toString() == QLatin1String("gc"))
            a->setChecked(true);
    again.setTrackOrder({QStringLiteral("activity"), QStringLiteral("hecs"), QStringLiteral("pinned-threads"), QStringLiteral("gc"), QStringLiteral("nonmoving"), QStringLiteral("sparks"), QStringLiteral("heap"), QStringLiteral("nonmoving-heap"), QStringLiteral("heap-profile"), QStringLiteral("time-profile"), QStringLiteral("markers"), QStringLiteral("spans"), QStringLiteral("threads")});
    QCOMPARE(again.timeline()->tracks(), defaultTrackIds());
}

void TestTimeline::gcTableSortsAndJumps()
{
    MainWindow w;
    QVERIFY(showAndOpen(w, QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/leak-hT.eventlog")));
    QTableView* table = w.gcTable();
    QAbstractItemModelTester tester(table->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    const auto index = w.index();
    QCOMPARE(size_t(table->model()->rowCount()), index->collections.size());
    QVERIFY(index->collections.size() > 20);
    // Rows in time order by default; sorting by pause puts the longest first.
    uint64_t previous = 0;
    for (int row = 0; row < table->model()->rowCount(); ++row) {
        const uint64_t t = table->model()->index(row, 0).data(kTimeRole).toULongLong();
        QVERIFY(t >= previous);
        previous = t;
    }
    // The current row follows its collection through a sort.
    table->setCurrentIndex(table->model()->index(3, 0));
    const uint64_t current = table->currentIndex().data(kTimeRole).toULongLong();
    table->sortByColumn(GcTableModel::Pause, Qt::DescendingOrder);
    QCOMPARE(table->currentIndex().data(kTimeRole).toULongLong(), current);
    const RangeStats stats = computeStats(*index);
    QCOMPARE(table->model()->index(0, GcTableModel::Pause).data(kSortRole).toULongLong(), stats.maxPauseNs);
    for (int row = 1; row < table->model()->rowCount(); ++row)
        QVERIFY(table->model()->index(row - 1, GcTableModel::Pause).data(kSortRole).toULongLong()
                >= table->model()->index(row, GcTableModel::Pause).data(kSortRole).toULongLong());
    // The # column keeps each collection's place in time, whatever the order.
    const QModelIndex first = table->model()->index(0, GcTableModel::Number);
    const uint64_t firstStart = first.data(kTimeRole).toULongLong();
    const auto byStart = std::count_if(index->collections.begin(), index->collections.end(),
                                       [&](const Collection& c) { return c.leaderStart < firstStart; });
    QCOMPARE(first.data(kSortRole).toLongLong(), qlonglong(byStart));
    // Activating a collection shows it on the timeline.
    const QModelIndex longest = table->model()->index(0, GcTableModel::Start);
    emit table->activated(longest);
    const uint64_t start = longest.data(kTimeRole).toULongLong();
    const ViewRange r = w.controller()->range();
    QVERIFY(r.start <= start && start + stats.maxPauseNs <= r.end);
    QVERIFY(r.duration() < index->lastTime / 4);
    // Back to the # column, both ways (from the pause order): the
    // collections' own order, and the current row still on its collection.
    const int rows = table->model()->rowCount();
    for (const Qt::SortOrder order : {Qt::DescendingOrder, Qt::AscendingOrder}) {
        table->sortByColumn(GcTableModel::Number, order);
        QCOMPARE(table->currentIndex().data(kTimeRole).toULongLong(), current);
        for (int row = 0; row < rows; ++row)
            QCOMPARE(table->model()->index(row, GcTableModel::Number).data(kSortRole).toLongLong(),
                     qlonglong(order == Qt::AscendingOrder ? row : rows - 1 - row));
    }
}

void TestTimeline::bookmarksFromMarkersAndSavedPerFile()
{
    const QString log = QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/threads-N2.eventlog");
    uint64_t userTime = 0;
    {
        MainWindow w;
        QVERIFY(openAndWait(w, log));
        BookmarkModel* marks = w.bookmarks();
        QAbstractItemModelTester tester(marks, QAbstractItemModelTester::FailureReportingMode::QtTest);
        // The log's markers are there, in time order, and are not removable.
        QStringList names;
        for (int row = 0; row < marks->rowCount(); ++row)
            if (marks->at(row).fromMarker)
                names << marks->at(row).name;
        QCOMPARE(names, (QStringList{QStringLiteral("start"), QStringLiteral("pipeline done"), QStringLiteral("sleepers done"), QStringLiteral("end")}));
        QVERIFY(!marks->removeUser(0));
        // A user bookmark at the cursor, renamed.
        userTime = w.index()->lastTime / 3;
        w.timeline()->setCursorTime(userTime);
        w.addBookmark();
        int row = -1;
        for (int r = 0; r < marks->rowCount(); ++r)
            if (!marks->at(r).fromMarker)
                row = r;
        QVERIFY(row >= 0);
        QCOMPARE(marks->at(row).time, userTime);
        QVERIFY(marks->setData(marks->index(row, BookmarkModel::NameColumn), QStringLiteral("slow part")));
        QVERIFY(!marks->setData(marks->index(0, BookmarkModel::NameColumn), QStringLiteral("renamed marker")));
        QCOMPARE(w.timeline()->options().bookmarks, std::vector<uint64_t>{userTime});
        // Clicking it moves the cursor there.
        w.timeline()->setCursorTime(0);
        emit w.bookmarkTable()->clicked(marks->index(row, 0));
        QCOMPARE(*w.timeline()->cursor(), userTime);
    }
    {
        // Another window on the same file finds it again; another file does not.
        MainWindow w;
        QVERIFY(openAndWait(w, log));
        BookmarkModel* marks = w.bookmarks();
        int row = -1;
        for (int r = 0; r < marks->rowCount(); ++r)
            if (!marks->at(r).fromMarker)
                row = r;
        QVERIFY(row >= 0);
        QCOMPARE(marks->at(row).name, QStringLiteral("slow part"));
        QCOMPARE(marks->at(row).time, userTime);
        QVERIFY(marks->removeUser(row));
        MainWindow other;
        QVERIFY(openAndWait(other, m_log));
        for (int r = 0; r < other.bookmarks()->rowCount(); ++r)
            QVERIFY(other.bookmarks()->at(r).fromMarker);
    }
    MainWindow w;
    QVERIFY(openAndWait(w, log));
    for (int r = 0; r < w.bookmarks()->rowCount(); ++r)
        QVERIFY(w.bookmarks()->at(r).fromMarker); // the removal was saved
}

void TestTimeline::capabilityAndProcessPanes()
{
    MainWindow w;
    QVERIFY(showAndOpen(w, m_log));
    QTableView* caps = w.capabilityTable();
    QAbstractItemModelTester tester(caps->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    const auto index = w.index();
    QCOMPARE(size_t(caps->model()->rowCount()), index->caps.size());
    const RangeStats whole = computeStats(*index);
    QCOMPARE(caps->model()->index(2, CapabilityTableModel::Created).data(kSortRole).toULongLong(), whole.caps[2].sparks.created);
    // A selection shows that range's figures.
    const ViewRange sel{index->lastTime / 4, index->lastTime / 2};
    w.controller()->setSelection(sel);
    const RangeStats part = computeStats(*index, sel.start, sel.end);
    QTRY_VERIFY_WITH_TIMEOUT(!w.statisticsText().endsWith(QStringLiteral("computing…")), 20000);
    for (int c = 0; c < caps->model()->rowCount(); ++c)
        QCOMPARE(caps->model()->index(c, CapabilityTableModel::Running).data(kSortRole).toULongLong(),
                 part.caps[size_t(caps->model()->index(c, 0).data(kSortRole).toULongLong())].running);
    // Process facts and diagnostics.
    const Capset* withRts = nullptr;
    for (const Capset& c : index->capsets)
        if (!c.rtsIdentifier.empty())
            withRts = &c;
    QVERIFY(withRts);
    QVERIFY(w.processText().contains(QString::fromStdString(withRts->rtsIdentifier)));
    QVERIFY(w.processText().contains(QStringLiteral("Process id: %1").arg(withRts->pid)));
    // Every capability of the run, though the RTS removed them from the
    // capset at shutdown; and when it started (the clock-domain capset's
    // wall clock less the time it was read at).
    QVERIFY2(withRts->caps.empty() && withRts->assigned.size() == index->caps.size(), qPrintable(w.processText()));
    QVERIFY2(w.processText().contains(QStringLiteral("Capabilities: %1 (removed at shutdown").arg(index->caps.size())),
             qPrintable(w.processText()));
    const Capset* clock = nullptr;
    for (const Capset& c : index->capsets)
        if (c.wallAt != kNoTime)
            clock = &c;
    QVERIFY(clock);
    const QDateTime started = QDateTime::fromMSecsSinceEpoch(
        qint64((double(clock->wallSeconds) * 1e9 + double(clock->wallNanoseconds) - double(clock->wallAt)) / 1e6));
    QVERIFY2(w.processText().startsWith(QStringLiteral("Started: ")), qPrintable(w.processText()));
    QVERIFY2(w.processText().contains(started.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz UTC"))),
             qPrintable(w.processText()));
    QCOMPARE(w.diagnostics(), QStringList{QStringLiteral("No problems: the log decoded completely.")});
}

void TestTimeline::exportFormats_data()
{
    QTest::addColumn<QString>("suffix");
    QTest::newRow("png") << QStringLiteral("png");
    QTest::newRow("svg") << QStringLiteral("svg");
    QTest::newRow("pdf") << QStringLiteral("pdf");
}

void TestTimeline::exportFormats()
{
    QFETCH(QString, suffix);
    MainWindow w;
    QVERIFY(openAndWait(w, m_log));
    QTemporaryDir dir;
    ExportRequest rq;
    rq.path = dir.filePath(QStringLiteral("view.") + suffix);
    rq.size = QSize(1200, 500);
    rq.range = w.controller()->range();
    rq.options = w.timeline()->options();
    rq.options.palette = exportPalette();
    QCOMPARE(exportImage(w.index(), rq), QString());
    QFile f(rq.path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray bytes = f.readAll();
    if (suffix == QLatin1String("png")) {
        QImage image;
        QVERIFY(image.loadFromData(bytes, "PNG"));
        QCOMPARE(image.size(), QSize(1200, 500));
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 4)
            for (int x = 0; x < image.width(); x += 4)
                colours.insert(image.pixel(x, y));
        QVERIFY2(colours.size() >= 8, qPrintable(QString::number(colours.size())));
    } else if (suffix == QLatin1String("svg")) {
        QVERIFY(bytes.contains("<svg"));
        QVERIFY(bytes.contains("width=\"1200\"") || bytes.contains("width=\"1200px\"") || bytes.contains("viewBox=\"0 0 1200 500\""));
        QVERIFY2(bytes.count("<path") + bytes.count("<rect") + bytes.count("<polyline") > 50, "too few shapes");
        QVERIFY(bytes.contains("HEC 3"));
    } else {
        QVERIFY(bytes.startsWith("%PDF-"));
        QVERIFY(bytes.size() > 5000);
        QVERIFY(bytes.contains("/MediaBox [0 0 1200") && bytes.contains(" 500"));
    }
}

void TestTimeline::exportCommand()
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("cli.png"));
    QProcess p;
    p.start(QStringLiteral(HECSCOPE_BINARY),
            {QStringLiteral("export"), m_log, QStringLiteral("-o"), out, QStringLiteral("--size"), QStringLiteral("800x300"),
             QStringLiteral("--range"), QStringLiteral("50ms:150ms"), QStringLiteral("--tracks"), QStringLiteral("hecs,gc")});
    QVERIFY(p.waitForFinished(30000));
    QCOMPARE(p.exitCode(), 0);
    QImage image(out);
    QCOMPARE(image.size(), QSize(800, 300));
    // Same picture as the renderer draws for that range and those tracks.
    MainWindow w;
    QVERIFY(openAndWait(w, m_log));
    ExportRequest rq;
    rq.path = dir.filePath(QStringLiteral("direct.png"));
    rq.size = QSize(800, 300);
    rq.range = {50'000'000, 150'000'000};
    rq.options.tracks = {QStringLiteral("hecs"), QStringLiteral("gc")};
    rq.options.palette = exportPalette();
    std::string error;
    rq.options.detail = std::make_shared<DetailStore>(std::shared_ptr<ByteSource>(FileSource::open(m_log.toStdString(), error)));
    rq.options.waitForDetail = true; // the instants on the HEC rows, read back from the file
    QCOMPARE(exportImage(w.index(), rq), QString());
    QCOMPARE(image, QImage(rq.path));
}

void TestTimeline::exportCommandErrors()
{
    QTemporaryDir dir;
    auto run = [&](const QStringList& args) {
        QProcess p;
        p.start(QStringLiteral(HECSCOPE_BINARY), QStringList{QStringLiteral("export")} + args);
        p.waitForFinished(30000);
        return std::pair(p.exitCode(), QString::fromUtf8(p.readAllStandardError()));
    };
    const QString png = dir.filePath(QStringLiteral("x.png"));
    QCOMPARE(run({m_log}).first, 2); // no -o
    QCOMPARE(run({m_log, QStringLiteral("-o"), dir.filePath(QStringLiteral("x.bmp"))}).first, 2);
    QCOMPARE(run({m_log, QStringLiteral("-o"), png, QStringLiteral("--tracks"), QStringLiteral("nope")}).first, 2);
    QCOMPARE(run({m_log, QStringLiteral("-o"), png, QStringLiteral("--range"), QStringLiteral("2s:1s")}).first, 2);
    QCOMPARE(run({m_log, QStringLiteral("-o"), png, QStringLiteral("--size"), QStringLiteral("big")}).first, 2);
    const auto missing = run({dir.filePath(QStringLiteral("missing.eventlog")), QStringLiteral("-o"), png});
    QCOMPARE(missing.first, 1);
    QVERIFY(missing.second.contains(QStringLiteral("cannot open")));
    QVERIFY(!QFile::exists(png));
}
