// tst_livewindow on sockets: disconnect and reconnect, and the control
// commands on the toolbar.
#include "tst_livewindow.h"

namespace {

QByteArray bytesOf(const std::string& s)
{
    return QByteArray::fromStdString(s);
}

} // namespace

// A socket whose program closes the connection: the window says so and
// waits (no automatic reconnection); Reconnect appends the next connection,
// which re-sends the header, to the same timeline.
void TestLiveWindow::disconnectThenReconnectAppends()
{
    MainWindow& w = *m_window;
    Recorder& rec = *m_rec;
    const std::vector<uint8_t> original = readFile(logPath("threads-N2.eventlog"));
    const LogLayout before = layoutOf(original);
    std::vector<size_t> at;
    const std::vector<uint8_t> bytes = splitBlocksAt(original, {before.eventStarts[before.eventStarts.size() / 3]}, &at);
    QCOMPARE(at.size(), size_t(1));
    const size_t cut = at[0];
    const LogLayout layout = layoutOf(bytes);
    const std::string sock = m_dir->filePath(QStringLiteral("s.sock")).toStdString();
    ReplayServer server(sock, bytes, {{layout.headerSize, cut}, {cut, bytes.size()}}, 11, 50);
    server.start();
    const QString source = QStringLiteral("unix:") + QString::fromStdString(sock);
    w.openLive(source);
    QVERIFY2(w.liveJob(), qPrintable(w.bannerText()));
    QVERIFY(w.liveJob()->isSocket());
    QAction* reconnect = liveAction(w, QStringLiteral("Reconnect"));
    QVERIFY(reconnect);
    QVERIFY(reconnect->isVisible());
    QVERIFY(!reconnect->isEnabled()); // not before a disconnect

    QTRY_VERIFY_WITH_TIMEOUT(rec.lastIs(LiveState::Disconnected), kGuardMs);
    const Shown& down = rec.last();
    QVERIFY2(down.banner.contains(QStringLiteral("closed the connection")), qPrintable(down.banner));
    QVERIFY2(down.banner.contains(QStringLiteral("Reconnect appends the next connection")), qPrintable(down.banner));
    QVERIFY2(w.liveControls()->statusText().contains(QStringLiteral("disconnected")), qPrintable(w.liveControls()->statusText()));
    QCOMPARE(down.status.bytes, uint64_t(cut));
    compareIndexes(*w.index(), *indexOfBytes({bytes.begin(), bytes.begin() + ptrdiff_t(cut)}));
    QCOMPARE(w.eventList()->model()->rowCount(), int(w.index()->scan.events));
    QCOMPARE(down.status.connections, 1u); // no connection of its own accord
    QTRY_COMPARE_WITH_TIMEOUT(server.connectionsServed(), 1, kGuardMs);
    QVERIFY(reconnect->isEnabled());
    QVERIFY(liveAction(w, QStringLiteral("Stop"))->isEnabled());
    QVERIFY(!liveAction(w, QStringLiteral("Heap Census"))->isEnabled()); // nobody to send to

    reconnect->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(rec.lastIs(LiveState::Ended), kGuardMs);
    server.join();
    const Shown& end = rec.last();
    QVERIFY2(end.banner.contains(QStringLiteral("%1 ended").arg(source)), qPrintable(end.banner));
    QCOMPARE(end.status.connections, 2u);
    QCOMPARE(server.connectionsServed(), 2);
    QCOMPARE(end.status.bytes, uint64_t(bytes.size()));
    compareIndexes(*w.index(), *indexOfBytes(bytes));
    QCOMPARE(end.eventRows, int(w.index()->scan.events));
    QVERIFY(!reconnect->isEnabled());
}

// After Reconnect, while the next connection is receiving, the window no
// longer says the program closed the connection (and that Reconnect would
// append the next one): the banner is about what is going on now. Three
// connections; the second is held open after its bytes, so that the
// session is receiving on it for as long as the test looks.
//
// Fails with the product as it is: showLiveUpdate() sets the banner for a
// disconnect, an end and decoding problems, but nothing takes the
// disconnect's banner away once the session receives again.
void TestLiveWindow::aReconnectedSessionNoLongerSaysDisconnected()
{
    MainWindow& w = *m_window;
    Recorder& rec = *m_rec;
    const std::vector<uint8_t> original = readFile(logPath("threads-N2.eventlog"));
    const LogLayout before = layoutOf(original);
    const size_t n = before.eventStarts.size();
    std::vector<size_t> at;
    const std::vector<uint8_t> bytes = splitBlocksAt(original, {before.eventStarts[n / 3], before.eventStarts[2 * n / 3]}, &at);
    QCOMPARE(at.size(), size_t(2));
    const LogLayout layout = layoutOf(bytes);
    const std::string sock = m_dir->filePath(QStringLiteral("s.sock")).toStdString();
    ReplayServer server(sock, bytes, {{layout.headerSize, at[0]}, {at[0], at[1]}, {at[1], bytes.size()}}, 17, 50);
    server.holdOpen(1);
    server.start();
    const QString source = QStringLiteral("unix:") + QString::fromStdString(sock);
    w.openLive(source);
    QVERIFY2(w.liveJob(), qPrintable(w.bannerText()));
    QAction* reconnect = liveAction(w, QStringLiteral("Reconnect"));
    QVERIFY(reconnect);
    QTRY_VERIFY_WITH_TIMEOUT(rec.lastIs(LiveState::Disconnected), kGuardMs);
    QVERIFY2(w.bannerText().contains(QStringLiteral("closed the connection")), qPrintable(w.bannerText()));
    reconnect->trigger();
    // Receiving on the second connection, all of its bytes in.
    QTRY_VERIFY_WITH_TIMEOUT(rec.lastHasBytes(at[1]), kGuardMs);
    const Shown& again = rec.last();
    QCOMPARE(again.status.state, LiveState::Receiving);
    QCOMPARE(again.status.connections, 2u);
    QVERIFY(!reconnect->isEnabled());
    QVERIFY(liveAction(w, QStringLiteral("Heap Census"))->isEnabled());
    QVERIFY2(w.liveControls()->statusText().contains(QStringLiteral("receiving")), qPrintable(w.liveControls()->statusText()));
    compareIndexes(*w.index(), *indexOfBytes({bytes.begin(), bytes.begin() + ptrdiff_t(at[1])}));
    // Checked at the end, so that the rest is seen through either way.
    const QString bannerWhileReceiving = w.bannerText();

    // The second connection closes too; the third has the rest.
    server.release();
    QTRY_VERIFY_WITH_TIMEOUT(rec.lastIs(LiveState::Disconnected), kGuardMs);
    QVERIFY(reconnect->isEnabled());
    reconnect->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(rec.lastIs(LiveState::Ended), kGuardMs);
    server.join();
    QCOMPARE(rec.last().status.connections, 3u);
    compareIndexes(*w.index(), *indexOfBytes(bytes));
    QVERIFY2(!bannerWhileReceiving.contains(QStringLiteral("closed the connection"))
                 && !bannerWhileReceiving.contains(QStringLiteral("Reconnect appends")),
             qPrintable(QStringLiteral("receiving on connection 2, the banner still said: ") + bannerWhileReceiving));
}

// While a socket is receiving, the toolbar's control commands go to the
// program on the same connection; a pipe has none to offer.
void TestLiveWindow::controlCommandsFromTheToolbar()
{
    MainWindow& w = *m_window;
    Recorder& rec = *m_rec;
    const std::vector<uint8_t> bytes = readFile(logPath("leak-hT.eventlog"));
    const LogLayout layout = layoutOf(bytes);
    const std::string sock = m_dir->filePath(QStringLiteral("s.sock")).toStdString();
    ReplayServer server(sock, bytes, {{layout.headerSize, layout.eventStarts[layout.eventStarts.size() / 2]}}, 5, 0);
    server.holdOpen(0);
    server.start();
    w.openLive(QStringLiteral("unix:") + QString::fromStdString(sock));
    QVERIFY2(w.liveJob(), qPrintable(w.bannerText()));
    QTRY_VERIFY_WITH_TIMEOUT(rec.lastIs(LiveState::Receiving), kGuardMs);
    const QStringList commands = {QStringLiteral("Start Profiling"), QStringLiteral("Stop Profiling"),
                                  QStringLiteral("Start Heap Profiling"), QStringLiteral("Stop Heap Profiling"),
                                  QStringLiteral("Heap Census")};
    for (const QString& c : commands) {
        QAction* a = liveAction(w, c);
        QVERIFY2(a, qPrintable(c));
        QVERIFY2(a->isVisible() && a->isEnabled(), qPrintable(c));
    }
    QVERIFY(server.received().empty());
    liveAction(w, QStringLiteral("Heap Census"))->trigger();
    const std::string census = controlMessage(ControlCommand::RequestHeapCensus);
    QTRY_VERIFY_WITH_TIMEOUT(server.received().size() >= census.size(), kGuardMs);
    QCOMPARE(bytesOf(server.received()), bytesOf(census));
    liveAction(w, QStringLiteral("Stop Heap Profiling"))->trigger();
    const std::string both = census + controlMessage(ControlCommand::StopHeapProfiling);
    QTRY_VERIFY_WITH_TIMEOUT(server.received().size() >= both.size(), kGuardMs);
    QCOMPARE(bytesOf(server.received()), bytesOf(both));

    // The program goes away: nothing to send to.
    server.release();
    QTRY_VERIFY_WITH_TIMEOUT(rec.lastIs(LiveState::Disconnected), kGuardMs);
    for (const QString& c : commands)
        QVERIFY2(!liveAction(w, c)->isEnabled(), qPrintable(c));

    // A named pipe: no control commands, no Reconnect.
    const QString fifo = makeFifo();
    QVERIFY(!fifo.isEmpty());
    w.openLive(fifo);
    QVERIFY2(w.liveJob() && !w.liveJob()->isSocket(), qPrintable(w.bannerText()));
    PipeFeeder feeder(fifo.toStdString(), bytes);
    QVERIFY(feeder.open());
    feeder.feedTo(bytes.size() / 2);
    QTRY_VERIFY_WITH_TIMEOUT(rec.lastHasBytes(bytes.size() / 2), kGuardMs);
    for (const QString& c : commands)
        QVERIFY2(!liveAction(w, c)->isVisible(), qPrintable(c));
    QVERIFY(!liveAction(w, QStringLiteral("Reconnect"))->isVisible());
    QVERIFY(liveAction(w, QStringLiteral("Stop"))->isEnabled());
    QCOMPARE(bytesOf(server.received()), bytesOf(both));
}
