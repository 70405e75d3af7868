#include "ui/timeline/exportchoices.h"

#include "core/text/units.h"
#include "ui/timeline/tracks/trackregistry.h"

#include <QObject>
#include <QStringList>

#include <algorithm>

namespace hecscope {

std::optional<std::vector<QString>> parseTrackList(const QString& list, QString* error)
{
    std::vector<QString> ids;
    for (const QString& name : list.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const TimelineTrack* t = findTrack(name);
        if (!t) {
            *error = QObject::tr("unknown track '%1'").arg(name.trimmed());
            return std::nullopt;
        }
        ids.push_back(t->id());
    }
    if (ids.empty()) {
        *error = QObject::tr("no track named");
        return std::nullopt;
    }
    return ids;
}

std::optional<ViewRange> parseExportRange(const QString& text, ViewRange bounds, QString* error)
{
    const auto r = parseTimeRange(text.trimmed().toStdString(), bounds.end);
    if (!r) {
        *error = QObject::tr("'%1' is not START:END with START before END (times as 1.5s, 200ms, 30us)").arg(text);
        return std::nullopt;
    }
    if (r->first >= bounds.end) {
        *error = QObject::tr("'%1' starts after the log, which ends at %2")
                     .arg(text, QString::fromStdString(formatDuration(bounds.end)));
        return std::nullopt;
    }
    return fitInto({std::max(r->first, bounds.start), std::min(r->second, bounds.end)}, bounds);
}

ExportRequest makeExportRequest(const LogIndex& index, const ExportChoices& c, const RenderOptions& base)
{
    ExportRequest rq;
    rq.path = c.path;
    rq.size = c.size;
    const ViewRange bounds = TimelineRenderer::boundsOf(&index);
    rq.range = c.range ? fitInto(*c.range, bounds) : bounds;
    rq.options = base;
    rq.options.tracks = c.tracks;
    std::erase_if(rq.options.bookmarks, [&](uint64_t t) { return t < rq.range.start || t > rq.range.end; });
    const bool heapShown = anyTrackDraws<HeapView>(c.tracks);
    rq.options.states.set<HeapView>(nullptr);
    if (heapShown && !index.heapBands.empty()) {
        const auto& old = base.states.get<HeapView>();
        std::shared_ptr<HeapView> view;
        if (old && old->indexSerial == index.serial && old->selection && old->selection->n == c.bands
            && old->selection->order == c.order && old->selection->reversed == c.reversed) {
            view = std::make_shared<HeapView>(*old); // the bands the user hid stay hidden
            view->emphasised.clear();                // a pointer's hover is not a choice
        } else {
            view = std::make_shared<HeapView>();
            view->indexSerial = index.serial;
            view->selection = std::make_shared<const BandSelection>(
                selectBands(index.heapProfile, index.heapBands, c.bands, c.order, c.reversed));
        }
        view->mode = c.heapMode;
        rq.options.states.set<HeapView>(view);
    }
    return rq;
}

} // namespace hecscope
