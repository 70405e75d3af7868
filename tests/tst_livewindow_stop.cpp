// tst_livewindow: Stop, bytes that are not a log, a source that cannot be
// opened, recording, and a heap profile being written.
#include "tst_livewindow.h"

#include "ui/jobs/workerpool.h"

// Stop while the writer still holds the pipe open: the session ends with
// what was received, and the window shows exactly that.
void TestLiveWindow::stopKeepsWhatWasReceived()
{
    MainWindow& w = *m_window;
    Recorder& rec = *m_rec;
    const std::vector<uint8_t> bytes = readFile(logPath("threads-N2.eventlog"));
    const size_t half = bytes.size() / 2;
    const QString fifo = makeFifo();
    QVERIFY(!fifo.isEmpty());
    w.openLive(fifo);
    QVERIFY2(w.liveJob(), qPrintable(w.bannerText()));
    PipeFeeder feeder(fifo.toStdString(), bytes);
    QVERIFY(feeder.open());
    feeder.feedTo(half);
    QTRY_VERIFY_WITH_TIMEOUT(rec.lastHasBytes(half), kGuardMs);
    QCOMPARE(rec.last().status.state, LiveState::Receiving);
    QAction* stop = liveAction(w, QStringLiteral("Stop"));
    QVERIFY(stop);
    QVERIFY(stop->isEnabled());
    stop->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(rec.lastIs(LiveState::Stopped), kGuardMs);
    const Shown& end = rec.last();
    QVERIFY2(end.banner.contains(QStringLiteral("%1 stopped: stopped following.").arg(fifo)), qPrintable(end.banner));
    QCOMPARE(end.status.bytes, uint64_t(half));
    const std::vector<uint8_t> received(bytes.begin(), bytes.begin() + ptrdiff_t(half));
    const auto oneShot = indexOfBytes(received);
    compareIndexes(*w.index(), *oneShot);
    QVERIFY2(end.banner.contains(QStringLiteral("Showing the %1 events received").arg(countText(oneShot->scan.events))),
             qPrintable(end.banner));
    QCOMPARE(end.eventRows, int(oneShot->scan.events));
    QCOMPARE(end.timelineIndex, w.index().get());
    QVERIFY(!stop->isEnabled());
    QVERIFY(!w.liveJob()->isRunning());
    // The recording the event list reads is what was received.
    std::vector<uint8_t> recorded(half + 1);
    QCOMPARE(w.liveJob()->recording()->read(0, recorded.data(), recorded.size()), half);
    recorded.resize(half);
    QVERIFY(recorded == received);
}

// Stop while still waiting for a writer: the session ends with nothing,
// and the window says so (no log to show). A writer of text, not an
// eventlog: the session fails, the window says why.
void TestLiveWindow::stopBeforeAnyByteAndBytesThatAreNotALog()
{
    MainWindow& w = *m_window;
    Recorder& rec = *m_rec;
    const QString fifo = makeFifo();
    QVERIFY(!fifo.isEmpty());
    w.openLive(fifo);
    QVERIFY2(w.liveJob(), qPrintable(w.bannerText()));
    QTRY_VERIFY_WITH_TIMEOUT(w.liveJob()->status().state == LiveState::Waiting && w.liveJob()->status().sequence > 0, kGuardMs);
    QVERIFY(w.timeline()->options().placeholder.contains(QStringLiteral("waiting for a writer")));
    QVERIFY(!rec.any()); // nothing decoded: no update of the panes
    liveAction(w, QStringLiteral("Stop"))->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(rec.lastIs(LiveState::Stopped), kGuardMs);
    QVERIFY2(w.bannerText().contains(QStringLiteral("%1 stopped").arg(fifo)), qPrintable(w.bannerText()));
    QCOMPARE(rec.last().status.bytes, uint64_t(0));
    QCOMPARE(w.eventList()->model()->rowCount(), 0);
    QVERIFY(!liveAction(w, QStringLiteral("Stop"))->isEnabled());

    const std::string text = "These are my notes, not an eventlog.\n";
    const std::vector<uint8_t> notes(text.begin(), text.end());
    w.openLive(fifo);
    QVERIFY2(w.liveJob(), qPrintable(w.bannerText()));
    PipeFeeder feeder(fifo.toStdString(), notes);
    QVERIFY(feeder.open());
    feeder.feedTo(notes.size());
    feeder.finish();
    QTRY_VERIFY_WITH_TIMEOUT(rec.lastIs(LiveState::Failed), kGuardMs);
    QVERIFY2(w.bannerText().contains(QStringLiteral("%1 failed").arg(fifo)), qPrintable(w.bannerText()));
    QVERIFY2(w.bannerText().contains(QStringLiteral("hdrb")), qPrintable(w.bannerText()));
    QCOMPARE(w.eventList()->model()->rowCount(), 0);
}

// A source that cannot be followed — an address that is not one, a pipe in
// a folder that is not there — leaves the log on screen (and a live session
// going on) as it was, and says why.
void TestLiveWindow::aSourceThatCannotBeOpenedKeepsTheLog()
{
    MainWindow& w = *m_window;
    Recorder& rec = *m_rec;
    const QString missingFifo = m_dir->filePath(QStringLiteral("no-such-folder/ghc.fifo"));
    const struct {
        QString source;
        QString problem;
    } bad[] = {
        {QStringLiteral("tcp:nohost"), QStringLiteral("tcp: needs HOST:PORT")},
        {missingFifo, QStringLiteral("No such file or directory")},
    };
    QSignalSpy finished(&w, &MainWindow::loadFinished);
    QSignalSpy cleared(&w, &MainWindow::logCleared);
    w.openFile(logPath("leak-hT.eventlog"));
    QVERIFY(finished.wait(kGuardMs));
    const auto shown = w.index();
    QVERIFY(shown && shown->scan.events > 1000);
    const QString title = w.windowTitle();
    const int clearedBefore = int(cleared.count());
    for (const auto& b : bad) {
        const int loads = int(finished.count());
        w.openLive(b.source);
        QCOMPARE(int(finished.count()), loads + 1);
        QVERIFY2(w.bannerText().contains(QStringLiteral("Cannot follow %1: ").arg(b.source)), qPrintable(w.bannerText()));
        QVERIFY2(w.bannerText().contains(b.problem), qPrintable(w.bannerText()));
        QVERIFY2(w.bannerText().contains(QStringLiteral("Still showing leak-hT.eventlog")), qPrintable(w.bannerText()));
        QCOMPARE(w.index(), shown);
        QCOMPARE(w.timeline()->renderer().index(), shown.get());
        QCOMPARE(w.eventList()->model()->rowCount(), int(shown->scan.events));
        QCOMPARE(int(cleared.count()), clearedBefore);
        QCOMPARE(w.windowTitle(), title);
        QVERIFY(!w.liveJob());
        QVERIFY(w.liveControls()->toolBar()->isHidden());
    }
    // (Once the window's writes of the settings, a worker's, are done.)
    QTRY_VERIFY_WITH_TIMEOUT(WorkerPool::shared().isIdle(), 20000);
    QVERIFY(!QSettings().value(QStringLiteral("recentFiles")).toStringList().contains(missingFifo));

    // While following a pipe: the session goes on.
    const std::vector<uint8_t> bytes = readFile(logPath("spans-N2.eventlog"));
    const QString fifo = makeFifo();
    QVERIFY(!fifo.isEmpty());
    w.openLive(fifo);
    LiveJob* job = w.liveJob();
    QVERIFY2(job, qPrintable(w.bannerText()));
    PipeFeeder feeder(fifo.toStdString(), bytes);
    QVERIFY(feeder.open());
    feeder.feedTo(bytes.size() / 2);
    QTRY_VERIFY_WITH_TIMEOUT(rec.lastHasBytes(bytes.size() / 2), kGuardMs);
    const auto live = w.index();
    w.openLive(QStringLiteral("tcp:nohost"));
    QVERIFY2(w.bannerText().contains(QStringLiteral("Cannot follow tcp:nohost")), qPrintable(w.bannerText()));
    QCOMPARE(w.liveJob(), job);
    QCOMPARE(w.index(), live);
    feeder.feedTo(bytes.size());
    feeder.finish();
    QTRY_VERIFY_WITH_TIMEOUT(rec.lastIs(LiveState::Ended), kGuardMs);
    compareIndexes(*w.index(), *indexOfBytes(bytes));
}

// --record: the file is the log as it arrived, byte for byte, and says so.
void TestLiveWindow::recordKeepsTheBytesAsReceived()
{
    MainWindow& w = *m_window;
    Recorder& rec = *m_rec;
    const std::vector<uint8_t> bytes = readFile(logPath("leak-hT.eventlog"));
    const QString fifo = makeFifo();
    QVERIFY(!fifo.isEmpty());
    const QString record = m_dir->filePath(QStringLiteral("recorded.eventlog"));
    w.openLive(fifo, record);
    QVERIFY2(w.liveJob(), qPrintable(w.bannerText()));
    QCOMPARE(w.liveJob()->recordPath(), record);
    PipeFeeder feeder(fifo.toStdString(), bytes, 1000, 100);
    QVERIFY(feeder.open());
    feeder.feedTo(bytes.size() / 3);
    QTRY_VERIFY_WITH_TIMEOUT(rec.lastHasBytes(bytes.size() / 3), kGuardMs);
    feeder.feedTo(bytes.size());
    feeder.finish();
    QTRY_VERIFY_WITH_TIMEOUT(rec.lastIs(LiveState::Ended), kGuardMs);
    QVERIFY2(rec.last().banner.contains(QStringLiteral("Recorded in %1.").arg(record)), qPrintable(rec.last().banner));
    QVERIFY(readFile(record) == bytes);
    compareIndexes(*w.index(), *indexOfBytes(bytes));
}

// A .hp file that the program is still writing (File ▸ Open, the command
// line: it has a writer) is followed: each update draws the complete
// censuses, the status bar counts them and what is pending of the next;
// once the program has closed it, the banner says it finished writing.
void TestLiveWindow::aHeapProfileBeingWrittenIsFollowed()
{
    MainWindow& w = *m_window;
    Recorder& rec = *m_rec;
    const std::string text = readText(logPath("leak-prof-hc.hp"));
    const QString path = m_dir->filePath(QStringLiteral("leak.hp"));
    const int fd = ::open(path.toLocal8Bit().constData(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    QVERIFY(fd >= 0);
    // Five complete censuses and the sixth begun.
    size_t cut = 0;
    for (int k = 0; k < 5; ++k)
        cut = text.find('\n', text.find("END_SAMPLE", cut)) + 1;
    cut = text.find('\n', text.find("BEGIN_SAMPLE", cut)) + 4;
    QCOMPARE(::write(fd, text.data(), cut), ssize_t(cut));
    w.openFile(path);
    QVERIFY2(w.liveJob(), qPrintable(w.bannerText()));
    QVERIFY(w.bannerText().contains(QStringLiteral("Following %1 live").arg(path)));
    QTRY_VERIFY_WITH_TIMEOUT(rec.lastHasBytes(cut), kGuardMs);
    const Shown& s = rec.last();
    QCOMPARE(s.status.state, LiveState::Receiving);
    QVERIFY(s.index->hpFile);
    QCOMPARE(s.index->heapProfile.censuses.size(), size_t(5));
    QCOMPARE(s.timelineIndex, s.index.get());
    QCOMPARE(w.bandModel()->rowCount(), int(s.index->heapProfile.labels.size()));
    QVERIFY(w.bandModel()->rowCount() > 0);
    const QString status = w.liveControls()->statusText();
    QVERIFY2(status.contains(QStringLiteral("5 complete censuses")), qPrintable(status));
    QVERIFY2(status.contains(QStringLiteral("of a census")), qPrintable(status));

    QCOMPARE(::write(fd, text.data() + cut, text.size() - cut), ssize_t(text.size() - cut));
    ::close(fd);
    QTRY_VERIFY_WITH_TIMEOUT(rec.lastIs(LiveState::Ended), kGuardMs);
    const Shown& end = rec.last();
    QVERIFY2(end.banner.contains(QStringLiteral("%1 ended: the program finished writing its heap profile").arg(path)),
             qPrintable(end.banner));
    QVERIFY2(end.banner.contains(QStringLiteral("Showing the 15 complete censuses received.")), qPrintable(end.banner));
    QCOMPARE(w.index()->heapProfile.censuses.size(), size_t(15));
    QCOMPARE(w.index()->heapBands.totals, indexOfBytes(std::vector<uint8_t>(text.begin(), text.end()))->heapBands.totals);
    QCOMPARE(w.bandModel()->rowCount(), int(w.index()->heapProfile.labels.size()));
    QCOMPARE(end.timelineIndex, w.index().get());
}
