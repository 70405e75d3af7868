#include "ui/timeline/tracks/instantmarks.h"

#include "core/text/units.h"

#include <QObject>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace hecscope {

std::vector<InstantRow> collectInstants(const LogIndex& index, DetailStore* store, bool wait, ViewRange view,
                                        int width, std::vector<InstantUnitKey>* missing)
{
    std::vector<InstantRow> rows(index.caps.size());
    const size_t w = size_t(std::max(1, width));
    const size_t limit = w / kInstantPixelsPerMark;
    const size_t tallLimit = double(view.end - std::min(view.start, view.end)) / double(w) <= kTallMarkNsPerPixel
        ? w / kInstantPixelsPerTallMark
        : 0;
    const uint64_t t0 = view.start, t1 = view.end + 1;
    for (size_t c = 0; c < rows.size() && c < index.instants.size(); ++c) {
        const CapInstantMarks& marks = index.instants[c];
        InstantRow& row = rows[c];
        if (marks.sorted() && marks.countBounds(t0, t1).first > kMaxInstantScanPerPixel * w) {
            row.dense.fill(true);
            continue;
        }
        if (marks.count() == 0 || !store)
            continue;
        ViewInstants got = viewInstants(*store, index, uint16_t(c), t0, t1, wait);
        if (!got.error.empty()) {
            row.error = QString::fromStdString(got.error);
            continue;
        }
        if (!got.missing.empty()) {
            row.pending = true;
            if (missing)
                missing->insert(missing->end(), got.missing.begin(), got.missing.end());
            continue;
        }
        row.instants = std::move(got.instants);
        const CapInstants& in = row.instants;
        if (in.size() > kMaxInstantScanPerPixel * w) {
            row.instants = {};
            row.dense.fill(true);
            continue;
        }
        for (size_t i = 0; i < in.size(); ++i)
            ++row.count[size_t(in.kind(i))];
        for (size_t k = 0; k < size_t(kInstantKinds); ++k) {
            row.dense[k] = row.count[k] > limit;
            row.tall[k] = row.count[k] <= tallLimit;
        }
        for (size_t i = 0; i < in.size(); ++i) {
            const size_t k = size_t(in.kind(i));
            if (!row.dense[k])
                row.shown[k].push_back(uint32_t(i));
        }
    }
    return rows;
}

QColor instantColor(InstantKind kind)
{
    // Okabe–Ito hues (told apart with the common colour-vision
    // deficiencies), none the colour of a span.
    switch (kind) {
    case InstantKind::SparkCreate: return QColor(0x56, 0xb4, 0xe9); // sky blue
    case InstantKind::SparkRun: return QColor(0x00, 0x72, 0xb2);    // blue
    case InstantKind::SparkFizzle: return QColor(0x99, 0x99, 0x99); // grey
    case InstantKind::SparkSteal: return QColor(0xcc, 0x79, 0xa7);  // reddish purple
    case InstantKind::ThreadCreate: return QColor(0x00, 0x00, 0x00);
    case InstantKind::Wakeup: return QColor(0xf0, 0xe4, 0x42);      // yellow
    case InstantKind::Migrate: return QColor(0x8c, 0x56, 0x4b);     // brown
    case InstantKind::GcRequest: return QColor(0xd5, 0x5e, 0x00);   // vermillion
    }
    return Qt::gray;
}

QString instantName(InstantKind kind)
{
    switch (kind) {
    case InstantKind::SparkCreate: return QObject::tr("spark created");
    case InstantKind::SparkRun: return QObject::tr("spark run");
    case InstantKind::SparkFizzle: return QObject::tr("spark fizzled");
    case InstantKind::SparkSteal: return QObject::tr("spark stolen");
    case InstantKind::ThreadCreate: return QObject::tr("thread created");
    case InstantKind::Wakeup: return QObject::tr("thread woken");
    case InstantKind::Migrate: return QObject::tr("thread migrated");
    case InstantKind::GcRequest: return QObject::tr("GC requested");
    }
    return {};
}

void paintInstants(QPainter& p, const InstantRow& row, uint32_t mask, const TimeMapping& m, const QRectF& lane)
{
    const CapInstants& instants = row.instants;
    p.save();
    if (!row.error.isEmpty()) { // the file would not give them: say so on the row, never draw others
        const QString text = p.fontMetrics().elidedText(row.error, Qt::ElideRight, int(lane.width()) - 12);
        QRectF box = p.fontMetrics().boundingRect(text);
        box.moveTopLeft(QPointF(lane.left() + 4, lane.center().y() - box.height() / 2));
        p.fillRect(box.adjusted(-2, 0, 2, 0), QColor(255, 255, 255, 230)); // legible over any run
        p.setPen(QColor(0xb0, 0x00, 0x20));
        p.drawText(box, Qt::AlignVCenter | Qt::AlignLeft | Qt::TextSingleLine, text);
    }
    p.setRenderHint(QPainter::Antialiasing, false);
    for (size_t k = 0; k < size_t(kInstantKinds); ++k) {
        if (!(mask & (1u << k)) || row.shown[k].empty())
            continue;
        const QColor colour = instantColor(InstantKind(k));
        // A line across the lane with a notch on top: seen over any run.
        // Close together: a short tick under the notch, one per column.
        p.setPen(QPen(colour, 1));
        const double bottom = row.tall[k] ? lane.bottom() : lane.top() + kShortMarkHeight;
        double last = -1e300;
        for (uint32_t i : row.shown[k]) {
            const double x = std::floor(m.toPixel(instants.time(i))) + 0.5;
            if (x == last)
                continue;
            last = x;
            p.drawLine(QPointF(x, lane.top()), QPointF(x, bottom));
            p.fillRect(QRectF(x - 2.5, lane.top() - 3, 5, 3), colour);
        }
    }
    p.restore();
}

QString describeInstants(const InstantRow& row, uint32_t mask, const TimeMapping& m, double x, const LogIndex& index)
{
    if (!row.error.isEmpty())
        return row.error;
    const CapInstants& instants = row.instants;
    auto threadText = [&](uint32_t id) {
        QString s = QObject::tr("thread %1").arg(id);
        if (const ThreadLabel label = index.labelOf(id); !label.empty())
            s += QStringLiteral(" “%1”").arg(QString::fromStdString(label));
        return s;
    };
    auto capText = [](uint8_t cap) {
        return cap == CapInstants::kFarCap ? QObject::tr("a capability ≥ 255") : QObject::tr("cap %1").arg(cap);
    };
    QStringList lines;
    int more = 0;
    for (size_t k = 0; k < size_t(kInstantKinds); ++k) {
        if (!(mask & (1u << k)))
            continue;
        for (uint32_t i : row.shown[k]) {
            if (std::abs(m.toPixel(instants.time(i)) - x) > 2.5)
                continue;
            if (lines.size() >= 6) {
                ++more;
                continue;
            }
            const InstantKind kind = InstantKind(k);
            QString what;
            switch (kind) {
            case InstantKind::ThreadCreate: what = threadText(instants.arg(i)); break;
            case InstantKind::Wakeup:
                what = QObject::tr("%1 (on %2)").arg(threadText(instants.arg(i)), capText(instants.other(i)));
                break;
            case InstantKind::Migrate:
                what = QObject::tr("%1 to %2").arg(threadText(instants.arg(i)), capText(instants.other(i)));
                break;
            case InstantKind::SparkSteal: what = QObject::tr("from %1").arg(capText(instants.other(i))); break;
            case InstantKind::GcRequest:
                what = instants.other(i) ? QObject::tr("parallel") : QObject::tr("sequential");
                break;
            default: break;
            }
            if (instants.arg(i) && kind != InstantKind::ThreadCreate && kind != InstantKind::Wakeup
                && kind != InstantKind::Migrate)
                what += (what.isEmpty() ? QString() : QStringLiteral(", ")) + QObject::tr("by %1").arg(threadText(instants.arg(i)));
            lines << QStringLiteral("%1 at %2%3")
                         .arg(instantName(kind), QString::fromStdString(formatTimestamp(instants.time(i))),
                              what.isEmpty() ? QString() : QStringLiteral(": ") + what);
        }
    }
    if (more)
        lines << QObject::tr("… and %1 more (zoom in)").arg(more);
    return lines.join(QLatin1Char('\n'));
}

} // namespace hecscope
