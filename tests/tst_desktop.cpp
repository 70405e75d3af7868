// Hecscope as a desktop application: `--version` says the project's version,
// and the shared-MIME definitions (resources/hecscope-mime.xml) make a file
// manager offer Hecscope for eventlogs, .hp heap profiles and .prof / -pj
// cost-centre reports, by name and by contents alone, as QMimeDatabase (what
// Qt and KDE file managers use) reads them.
//
// The MIME database comes from XDG_DATA_DIRS: CTest points it at a copy of
// the definitions in the build tree (tests/CMakeLists.txt); `tools/dev test`
// runs the MIME functions again with it pointing at an installed package.
#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMimeDatabase>
#include <QTemporaryDir>
#include <QTest>

using namespace hecscope::test;

namespace {

const QString kEventlog = QStringLiteral("application/x-ghc-eventlog");
const QString kHeapProfile = QStringLiteral("text/x-ghc-heap-profile");
const QString kProfile = QStringLiteral("text/x-ghc-profile");
const QString kProfileJson = QStringLiteral("application/x-ghc-profile+json");
const QStringList kOurTypes{kEventlog, kHeapProfile, kProfile, kProfileJson};

// The database reads at most the first few KiB; every magic it knows lies in
// them.
constexpr qint64 kHeadBytes = 16 * 1024;

QByteArray head(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.read(kHeadBytes) : QByteArray();
}

// The MimeType key of the desktop entry (one group, no localised keys).
QStringList desktopMimeTypes()
{
    QFile f(QStringLiteral(HECSCOPE_SOURCE_DIR "/resources/hecscope.desktop"));
    if (!f.open(QIODevice::ReadOnly | QIODevice::Text))
        return {};
    while (!f.atEnd()) {
        const QString line = QString::fromUtf8(f.readLine()).trimmed();
        if (line.startsWith(QLatin1String("MimeType=")))
            return line.mid(9).split(QLatin1Char(';'), Qt::SkipEmptyParts);
    }
    return {};
}

} // namespace

class TestDesktop : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void version();
    void typesAreDefined();
    void desktopEntryListsOurTypes();
    void byContent_data();
    void byContent();
    void byName_data();
    void byName();
    void notOurs_data();
    void notOurs();

private:
    QTemporaryDir m_dir;
    QString write(const QString& name, const QByteArray& bytes);
};

void TestDesktop::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QVERIFY2(!qEnvironmentVariableIsEmpty("XDG_DATA_DIRS"), "run by CTest or tools/dev test, which name the database");
}

QString TestDesktop::write(const QString& name, const QByteArray& bytes)
{
    const QString path = m_dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(bytes) != bytes.size())
        return {};
    return path;
}

void TestDesktop::version()
{
    const Run r = runHecscope({QStringLiteral("--version")});
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(r.out, QByteArray("hecscope " HECSCOPE_PROJECT_VERSION "\n"));
    QVERIFY(r.err.isEmpty());
}

void TestDesktop::typesAreDefined()
{
    const QMimeDatabase db;
    const QMimeType log = db.mimeTypeForName(kEventlog);
    QVERIFY2(log.isValid(), qPrintable(qEnvironmentVariable("XDG_DATA_DIRS")));
    QCOMPARE(log.suffixes(), QStringList{QStringLiteral("eventlog")});
    QCOMPARE(log.comment(), QStringLiteral("GHC eventlog"));
    const QMimeType hp = db.mimeTypeForName(kHeapProfile);
    QVERIFY(hp.isValid());
    QCOMPARE(hp.suffixes(), QStringList{QStringLiteral("hp")});
    // A text editor is offered too, and a .hp is shown as text.
    QVERIFY(hp.inherits(QStringLiteral("text/plain")));
    const QMimeType prof = db.mimeTypeForName(kProfile);
    QVERIFY(prof.isValid());
    QCOMPARE(prof.suffixes(), QStringList{QStringLiteral("prof")});
    QVERIFY(prof.inherits(QStringLiteral("text/plain")));
    // GHC writes -pj's JSON to <prog>.prof too; JSON tools are offered.
    const QMimeType json = db.mimeTypeForName(kProfileJson);
    QVERIFY(json.isValid());
    QCOMPARE(json.suffixes(), (QStringList{QStringLiteral("prof"), QStringLiteral("prof.json")}));
    QVERIFY(json.inherits(QStringLiteral("application/json")));
}

void TestDesktop::desktopEntryListsOurTypes()
{
    QStringList listed = desktopMimeTypes();
    listed.sort();
    QStringList ours = kOurTypes;
    ours.sort();
    QCOMPARE(listed, ours);
}

// What a file manager sees for a file saved without its suffix.
void TestDesktop::byContent_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("type");
    QStringList logs = testdataLogs();
    QDir profiles(QStringLiteral(HECSCOPE_TESTDATA_DIR "/profiles"));
    for (const QString& name : profiles.entryList({QStringLiteral("*.eventlog")}, QDir::Files, QDir::Name))
        logs << profiles.absoluteFilePath(name);
    // Logs of GHC 6.12 to 9.x, where ../shared is there (the golden tests
    // need it anyway).
    logs << conformanceLogs(QStringLiteral("ghc-events"));
    for (const QString& log : logs)
        QTest::newRow(qPrintable(QFileInfo(log).fileName())) << log << kEventlog;
    QTest::newRow("leak-prof-hc.hp") << QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/leak-prof-hc.hp") << kHeapProfile;
    // GHC 9.0.2's reports of +RTS -p, -P and -pj.
    for (const QString& name : profiles.entryList({QStringLiteral("*.prof")}, QDir::Files, QDir::Name))
        QTest::newRow(qPrintable(name)) << profiles.absoluteFilePath(name) << kProfile;
    QTest::newRow("profile-pj.prof.json") << profiles.absoluteFilePath(QStringLiteral("profile-pj.prof.json"))
                                          << kProfileJson;
}

void TestDesktop::byContent()
{
    QFETCH(QString, file);
    QFETCH(QString, type);
    const QByteArray bytes = head(file);
    QVERIFY2(!bytes.isEmpty(), qPrintable(file));
    const QString path = write(QStringLiteral("no-suffix"), bytes);
    QVERIFY(!path.isEmpty());
    const QMimeDatabase db;
    QCOMPARE(db.mimeTypeForFile(path).name(), type);
    QCOMPARE(db.mimeTypeForFile(path, QMimeDatabase::MatchContent).name(), type);
    QCOMPARE(db.mimeTypeForData(bytes).name(), type);
}

// Names decide when they are unambiguous. *.hp is also C++'s, with more
// weight, so a .hp is a heap profile by its contents. (A C++ header named .hp
// stays C++ in one database, as a package install makes it; Qt 6.4 takes it
// for a heap profile when our definitions are a directory of their own
// before the system's, as here. tools/dev test checks it with GLib.) *.prof
// names both reports, the text one with more weight: the contents choose, and
// where they cannot, it is the text report.
void TestDesktop::byName_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("type");
    const QByteArray log = head(QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/threads-N2.eventlog"));
    const QByteArray hp = head(QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/leak-prof-hc.hp"));
    QTest::newRow("eventlog") << QStringLiteral("run.eventlog") << log << kEventlog;
    QTest::newRow("empty eventlog") << QStringLiteral("empty.eventlog") << QByteArray() << kEventlog;
    QTest::newRow("hp") << QStringLiteral("run.hp") << hp << kHeapProfile;
    const QByteArray prof = head(QStringLiteral(HECSCOPE_TESTDATA_DIR "/profiles/profile-P.prof"));
    const QByteArray pj = head(QStringLiteral(HECSCOPE_TESTDATA_DIR "/profiles/profile-pj.prof.json"));
    QTest::newRow("prof") << QStringLiteral("run.prof") << prof << kProfile;
    QTest::newRow("-pj report named .prof, as GHC names it") << QStringLiteral("run.prof") << pj << kProfileJson;
    QTest::newRow("prof.json") << QStringLiteral("run.prof.json") << pj << kProfileJson;
    QTest::newRow("other text named .prof") << QStringLiteral("notes.prof") << QByteArray("notes\n") << kProfile;
}

void TestDesktop::byName()
{
    QFETCH(QString, name);
    QFETCH(QByteArray, bytes);
    QFETCH(QString, type);
    const QString path = write(name, bytes);
    QVERIFY(!path.isEmpty());
    QCOMPARE(QMimeDatabase().mimeTypeForFile(path).name(), type);
}

// Files that only look alike are left to other applications.
void TestDesktop::notOurs_data()
{
    QTest::addColumn<QByteArray>("bytes");
    const QByteArray log = head(QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/threads-N2.eventlog"));
    QTest::newRow("eventlog without its first byte") << log.mid(1);
    QTest::newRow("hdr only") << QByteArray("hdr\0\0\0", 6);
    const QByteArray prof = head(QStringLiteral(HECSCOPE_TESTDATA_DIR "/profiles/profile-p.prof"));
    const QByteArray pj = head(QStringLiteral(HECSCOPE_TESTDATA_DIR "/profiles/profile-pj.prof.json"));
    QTest::newRow(".prof report without its first tab") << prof.mid(1);
    QTest::newRow(".prof title far from the start") << QByteArray(64, '\t') + prof;
    QTest::newRow("-pj report without its first brace") << pj.mid(1);
    QTest::newRow("other JSON") << QByteArray("{\n\"name\": \"program\"}\n");
    QTest::newRow("JOB without a quote") << QByteArray("JOB DESCRIPTION\nnone\n");
    QTest::newRow("job in lower case") << QByteArray("job \"x\"\n");
}

void TestDesktop::notOurs()
{
    QFETCH(QByteArray, bytes);
    const QString path = write(QStringLiteral("other"), bytes);
    QVERIFY(!path.isEmpty());
    const QString name = QMimeDatabase().mimeTypeForFile(path).name();
    QVERIFY2(!kOurTypes.contains(name), qPrintable(name));
}

QTEST_GUILESS_MAIN(TestDesktop)
#include "tst_desktop.moc"
