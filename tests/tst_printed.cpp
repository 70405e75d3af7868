// Every figure `hecscope` prints, byte for byte, on every testdata and
// conformance log: the exit code, stdout and stderr of each command in
// testdata/golden/printed.sha256 (byte counts and SHA-256), written by
// testdata/golden/write-printed.sh from the code as it stood before the
// index's memory work (issue #26). A difference writes the actual output into
// the build tree and names it with the command, for a diff against the
// output of the binary that wrote the goldens. Also fails when a listed log is
// missing or a log has no goldens.
#include "testsupport.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTest>
#include <QThread>

#include <map>
#include <memory>
#include <set>
#include <vector>

using namespace hecscope::test;

namespace {

// The commands of issue #26, as in write-printed.sh: `hecscope WORD1 FILE WORD2...`.
const QStringList kCommands = {QStringLiteral("info --json"), QStringLiteral("info --rts-summary"),
                               QStringLiteral("threads --csv"), QStringLiteral("spans --csv"),
                               QStringLiteral("profile --folded"), QStringLiteral("sparks"),
                               QStringLiteral("heap --csv")};

const QString kGoldens = QStringLiteral(HECSCOPE_TESTDATA_DIR "/golden/printed.sha256");

struct Golden {
    QString log;     // testdata/... or conformance/...
    QString command; // the words, e.g. "info --json"
    int exitCode = 0;
    qint64 outBytes = 0, errBytes = 0;
    QByteArray outSha, errSha; // hex
};

// The folder a log's path is relative to (its first word names it) and the
// path given to hecscope; empty dir when the root is unknown or absent.
struct Place {
    QString dir, file;
};
Place placeOf(const QString& log)
{
    const qsizetype slash = log.indexOf(QLatin1Char('/'));
    const QString root = log.left(slash), file = log.mid(slash + 1);
    if (root == QLatin1String("testdata"))
        return {QStringLiteral(HECSCOPE_TESTDATA_DIR), file};
    if (root == QLatin1String("conformance"))
        return {conformanceDir(), file};
    return {};
}

// The logs that must have goldens: as write-printed.sh lists them.
QStringList logsOnDisk()
{
    QStringList out;
    const auto add = [&out](const QString& base, const QString& root, const QString& sub, const QStringList& globs) {
        const QDir dir(base + QLatin1Char('/') + sub);
        for (const QString& name : dir.entryList(globs, QDir::Files, QDir::Name))
            out << root + QLatin1Char('/') + sub + QLatin1Char('/') + name;
    };
    const QString testdata = QStringLiteral(HECSCOPE_TESTDATA_DIR);
    add(testdata, QStringLiteral("testdata"), QStringLiteral("logs"), {QStringLiteral("*.eventlog"), QStringLiteral("*.hp")});
    add(testdata, QStringLiteral("testdata"), QStringLiteral("rts-summary"), {QStringLiteral("*.eventlog")});
    add(testdata, QStringLiteral("testdata"), QStringLiteral("profiles"), {QStringLiteral("*.eventlog")});
    if (!conformanceDir().isEmpty())
        add(conformanceDir(), QStringLiteral("conformance"), QStringLiteral("ghc-events"), {QStringLiteral("*.eventlog")});
    return out;
}

// LOG COMMAND... EXIT OUT_BYTES OUT_SHA256 ERR_BYTES ERR_SHA256; '#' comments.
// A malformed line is returned in `bad`.
std::vector<Golden> readGoldens(QString& bad)
{
    std::vector<Golden> out;
    QFile f(kGoldens);
    if (!f.open(QIODevice::ReadOnly | QIODevice::Text)) {
        bad = QStringLiteral("cannot read ") + kGoldens;
        return out;
    }
    int lineNo = 0;
    while (!f.atEnd()) {
        ++lineNo;
        const QString line = QString::fromUtf8(f.readLine()).trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
            continue;
        const QStringList w = line.split(QLatin1Char(' '), Qt::SkipEmptyParts);
        bool ok[3] = {false, false, false};
        Golden g;
        if (w.size() >= 7) {
            const qsizetype n = w.size();
            g.log = w[0];
            g.command = w.mid(1, n - 6).join(QLatin1Char(' '));
            g.exitCode = w[n - 5].toInt(&ok[0]);
            g.outBytes = w[n - 4].toLongLong(&ok[1]);
            g.outSha = w[n - 3].toLatin1();
            g.errBytes = w[n - 2].toLongLong(&ok[2]);
            g.errSha = w[n - 1].toLatin1();
        }
        if (!ok[0] || !ok[1] || !ok[2] || g.outSha.size() != 64 || g.errSha.size() != 64) {
            bad = QStringLiteral("%1:%2: malformed line: %3").arg(kGoldens).arg(lineNo).arg(line);
            return out;
        }
        out.push_back(g);
    }
    return out;
}

QByteArray sha256(const QByteArray& bytes)
{
    return QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex();
}

// Where a differing output is written: the build tree, named after the line.
QString actualPath(const Golden& g, const char* stream)
{
    QString name = g.log + QLatin1Char(' ') + g.command;
    for (QChar& c : name)
        if (!c.isLetterOrNumber() && c != QLatin1Char('.') && c != QLatin1Char('-'))
            c = QLatin1Char('_');
    return QCoreApplication::applicationDirPath() + QStringLiteral("/printed-actual/") + name + QLatin1Char('.')
        + QLatin1String(stream);
}

} // namespace

class TestPrinted : public QObject {
    Q_OBJECT
private slots:
    void everyLogHasItsGoldens();
    void printedFiguresUnchanged();
};

// Every listed log exists; every log on disk has one line per command, and
// only those.
void TestPrinted::everyLogHasItsGoldens()
{
    QString bad;
    const std::vector<Golden> goldens = readGoldens(bad);
    QVERIFY2(bad.isEmpty(), qPrintable(bad));
    std::map<QString, QStringList> commandsOf;
    for (const Golden& g : goldens) {
        const Place p = placeOf(g.log);
        QVERIFY2(!p.dir.isEmpty(), qPrintable(g.log + QStringLiteral(": unknown root folder, or the conformance "
                                                                     "folder is not at HECSCOPE_SHARED_DIR")));
        QVERIFY2(QFile::exists(p.dir + QLatin1Char('/') + p.file),
                 qPrintable(g.log + QStringLiteral(" has goldens but is missing (in ") + p.dir + QLatin1Char(')')));
        commandsOf[g.log] << g.command;
    }
    const QStringList onDisk = logsOnDisk();
    for (const QString& log : onDisk) {
        QVERIFY2(commandsOf.contains(log),
                 qPrintable(log + QStringLiteral(" has no goldens: run testdata/golden/write-printed.sh and review")));
        QVERIFY2(commandsOf[log] == kCommands,
                 qPrintable(log + QStringLiteral(": goldens of [") + commandsOf[log].join(QStringLiteral(", "))
                            + QStringLiteral("], want one of each of [") + kCommands.join(QStringLiteral(", "))
                            + QStringLiteral("] in that order")));
    }
    QCOMPARE(commandsOf.size(), size_t(onDisk.size()));
}

// Runs each line's command (a few at a time) from its log's folder and
// compares; every difference is listed before failing.
void TestPrinted::printedFiguresUnchanged()
{
    QString bad;
    const std::vector<Golden> goldens = readGoldens(bad);
    QVERIFY2(bad.isEmpty(), qPrintable(bad));
    QVERIFY(!goldens.empty());
    QStringList differences;
    // The outputs of a failing run, fresh each run so none is stale.
    const QString actualDir = QCoreApplication::applicationDirPath() + QStringLiteral("/printed-actual");
    QDir(actualDir).removeRecursively();
    QVERIFY(QDir().mkpath(actualDir));
    const size_t parallel = size_t(std::max(2, QThread::idealThreadCount()));
    for (size_t first = 0; first < goldens.size(); first += parallel) {
        std::vector<std::unique_ptr<QProcess>> running;
        for (size_t i = first; i < std::min(goldens.size(), first + parallel); ++i) {
            const Golden& g = goldens[i];
            const Place p = placeOf(g.log);
            QVERIFY2(!p.dir.isEmpty(), qPrintable(g.log));
            QStringList args = g.command.split(QLatin1Char(' '));
            args.insert(1, p.file);
            auto proc = std::make_unique<QProcess>();
            proc->setWorkingDirectory(p.dir);
            proc->setStandardInputFile(QProcess::nullDevice());
            proc->start(QStringLiteral(HECSCOPE_BINARY), args);
            running.push_back(std::move(proc));
        }
        for (size_t k = 0; k < running.size(); ++k) {
            const Golden& g = goldens[first + k];
            QProcess& proc = *running[k];
            const QString what = QStringLiteral("`hecscope %1` in %2 (%3)")
                                     .arg(proc.arguments().join(QLatin1Char(' ')), proc.workingDirectory(), g.log);
            // A guard against a hung child, not a timing assertion.
            QVERIFY2(proc.waitForFinished(300000) && proc.exitStatus() == QProcess::NormalExit,
                     qPrintable(what + QStringLiteral(" did not finish normally")));
            const QByteArray out = proc.readAllStandardOutput(), err = proc.readAllStandardError();
            const bool outSame = out.size() == g.outBytes && sha256(out) == g.outSha;
            const bool errSame = err.size() == g.errBytes && sha256(err) == g.errSha;
            if (outSame && errSame && proc.exitCode() == g.exitCode)
                continue;
            QString d = what + QStringLiteral(": exit %1 (golden %2)").arg(proc.exitCode()).arg(g.exitCode);
            const auto keep = [&](const char* stream, const QByteArray& bytes, qint64 goldenBytes, bool same) {
                if (same) {
                    d += QStringLiteral("; %1 same").arg(QLatin1String(stream));
                    return;
                }
                const QString path = actualPath(g, stream);
                QFile f(path);
                const bool written = f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
                d += QStringLiteral("; %1 DIFFERS: %2 bytes (golden %3), %4 %5")
                         .arg(QLatin1String(stream))
                         .arg(bytes.size())
                         .arg(goldenBytes)
                         .arg(written ? QStringLiteral("written to") : QStringLiteral("could not write"), path);
            };
            keep("stdout", out, g.outBytes, outSame);
            keep("stderr", err, g.errBytes, errSame);
            differences << d;
        }
    }
    QVERIFY2(differences.isEmpty(),
             qPrintable(QStringLiteral("%1 of %2 printed outputs differ from %3:\n")
                            .arg(differences.size())
                            .arg(goldens.size())
                            .arg(kGoldens)
                        + differences.join(QLatin1Char('\n'))));
}

QTEST_GUILESS_MAIN(TestPrinted)
#include "tst_printed.moc"
