// `hecscope export --view flame`.
#include "app/cli.h"
#include "app/commands.h"
#include "core/load/loader.h"
#include "core/profile/profileviews.h"
#include "core/profile/profreport.h"
#include "core/timeprofile/sampleprofile.h"
#include "core/text/units.h"
#include "ui/formatting.h"
#include "ui/profile/flameexport.h"

#include <QFile>
#include <QFileInfo>

#include <cstdio>
#include <cstring>

namespace hecscope::cli {
namespace {

// What `export --view flame` draws and how the title names it.
struct ExportProfile {
    std::optional<CostCentreProfile> profile; // empty when it could not be made
    QString scope;                            // "range 1 s – 2 s, capability 1"
    QString error;                            // why there is no profile
    int status = 0;                           // 1 bad input, 2 usage error
    bool truncated = false;                   // the file was cut: what was read is drawn
};

// A .prof or -pj report: the whole run, so --range and --cap do not apply.
ExportProfile loadReportForExport(const QString& path, const FlameExportOptions& o)
{
    ExportProfile r;
    ProfReportFile file = readProfReportFile(path.toStdString());
    if (!file.profile) {
        r.error = QStringLiteral("%1: %2").arg(path, QString::fromStdString(file.error));
        r.status = 1;
        return r;
    }
    if (!o.range.empty() || o.cap >= 0) {
        r.error = QStringLiteral("--range and --cap choose an eventlog's samples; a report covers the whole run");
        r.status = 2;
        return r;
    }
    CostCentreProfile& p = *file.profile;
    if (p.error) {
        std::fprintf(stderr, "hecscope export: %s: %s\n", qPrintable(path),
                     problemText(p, "drawn").c_str());
        r.truncated = true;
    }
    if (o.metric == ProfileMetric::Alloc && !p.hasMetric[1]) {
        r.error = QStringLiteral("%1 has no allocation figures").arg(path);
        r.status = 1;
        return r;
    }
    r.profile = std::move(p);
    r.scope = QStringLiteral("whole run (%1)").arg(QFileInfo(path).fileName());
    return r;
}

// The one place that reads FILE for the flame view: an eventlog with
// cost-centre samples (+RTS -p -l), or a .prof / -pj report (by content).
ExportProfile loadProfileForExport(const std::string& file, const FlameExportOptions& o)
{
    ExportProfile r;
    const QString path = QString::fromStdString(file);
    auto source = openOrComplain(file);
    if (!source) {
        r.status = 1;
        return r; // openOrComplain said why
    }
    uint8_t magic[4] = {};
    if (file != "-" && (source->read(0, magic, 4) != 4 || std::memcmp(magic, "hdrb", 4) != 0))
        return loadReportForExport(path, o);
    LoadResult loaded = loadIndex(*source);
    const LogIndex& ix = *loaded.index;
    for (const Diagnostic& d : ix.scan.diagnostics)
        std::fprintf(stderr, "hecscope export: %s: %s\n", qPrintable(path), d.message().c_str());
    r.truncated = ix.scan.hasError;
    if (ix.timeProfile.samples.empty()) {
        r.error = QStringLiteral("%1 has no cost-centre samples (a program run with +RTS -p -l writes them)").arg(path);
        r.status = 1;
        return r;
    }
    if (o.metric == ProfileMetric::Alloc) {
        r.error = QStringLiteral("an eventlog's samples count time only: --alloc needs a .prof or JSON report");
        r.status = 2; // as for `hecscope profile`
        return r;
    }
    if (o.cap >= int(ix.caps.size())) {
        r.error = QStringLiteral("--cap %1: the log's capabilities are 0 to %2").arg(o.cap).arg(int(ix.caps.size()) - 1);
        r.status = 2;
        return r;
    }
    SampleFilter filter;
    filter.cap = o.cap;
    QString range = QStringLiteral("whole run");
    if (!o.range.empty()) {
        const auto t = parseTimeRange(o.range, ix.lastTime + 1); // an open end takes the last instant too
        if (!t) {
            r.error = QStringLiteral("bad --range '%1' (START:END with START < END)").arg(QString::fromStdString(o.range));
            r.status = 2;
            return r;
        }
        filter.t0 = t->first;
        filter.t1 = t->second;
        range = QStringLiteral("range %1 – %2").arg(durationText(t->first), durationText(t->second));
    }
    r.profile = sampleProfile(ix, filter);
    r.scope = range + (o.cap >= 0 ? QStringLiteral(", capability %1").arg(o.cap) : QString());
    return r;
}

} // namespace

int exportFlame(const FlameExportOptions& o)
{
    const ExportProfile loaded = loadProfileForExport(o.file, o);
    if (!loaded.profile) {
        if (loaded.status == 2)
            return usageError("export", loaded.error.toLocal8Bit().toStdString());
        if (!loaded.error.isEmpty())
            std::fprintf(stderr, "hecscope export: %s\n", qPrintable(loaded.error));
        return loaded.status ? loaded.status : 1;
    }
    const CostCentreProfile p = o.hideRts ? withoutRtsFrames(*loaded.profile) : *loaded.profile;
    for (const std::string& w : p.warnings)
        std::fprintf(stderr, "hecscope export: %s: %s\n", o.file.c_str(), w.c_str());
    FlameExportRequest rq;
    rq.path = QString::fromStdString(o.out);
    rq.size = QSize(o.width, o.height);
    rq.metric = o.metric;
    rq.icicle = o.icicle;
    rq.title = flameTitle(p, o.metric, loaded.scope + (o.hideRts ? QStringLiteral(", RTS frames hidden") : QString()));
    rq.emptyText = QStringLiteral("No cost-centre samples in this range");
    if (p.total(o.metric) == 0)
        std::fprintf(stderr, "hecscope export: no cost-centre samples in this range\n");
    const QString error = exportFlameImage(p, rq);
    if (!error.isEmpty()) {
        std::fprintf(stderr, "hecscope export: %s\n", qPrintable(error));
        return 1;
    }
    return loaded.truncated ? 1 : 0;
}

} // namespace hecscope::cli
