#include "ui/formatting.h"

#include "core/text/units.h"
#include "core/time/viewrange.h"

#include <QLocale>

namespace hecscope {

QString durationText(uint64_t ns)
{
    return QString::fromStdString(formatDuration(ns));
}

QString timeText(uint64_t ns)
{
    return QString::fromStdString(formatTimestamp(ns));
}

QString bytesText(double bytes, const QString& suffix)
{
    return QString::fromStdString(formatBytes(bytes, suffix.toStdString().c_str()));
}

QString countText(uint64_t n)
{
    return QLocale().toString(qulonglong(n));
}

QString percentText(uint64_t part, uint64_t whole)
{
    return whole ? QStringLiteral("%1 %").arg(100.0 * double(part) / double(whole), 0, 'f', 1) : QStringLiteral("–");
}

} // namespace hecscope
