#pragma once

#include "core/heap/heapbands.h"
#include "ui/heap/heapview.h"
#include "ui/timeline/imageexport.h"

#include <QSize>
#include <QString>

#include <optional>
#include <vector>

namespace hecscope {

// What `hecscope export` and File ▸ Export Image… ask. One function turns
// it into the request, so the window draws what the command line draws
// from the same choices.
struct ExportChoices {
    QString path; // .png, .svg or .pdf
    QSize size{1600, 1000};
    std::optional<ViewRange> range;                  // ns; none: the whole log
    std::vector<QString> tracks = defaultTrackIds(); // top to bottom
    // The heap-profile bands, as `hecscope heap` chooses them.
    size_t bands = kDefaultBands;
    BandOrder order = BandOrder::Size;
    bool reversed = false;
    HeapChartMode heapMode = HeapChartMode::Stacked;
};

// "hecs, gc" as track ids, top to bottom; none (and `error` says why) for
// an unknown name or an empty list.
std::optional<std::vector<QString>> parseTrackList(const QString& list, QString* error);
// "START:END" as `--range` reads it (parseTimeRange: an empty START is the
// log's start, an empty END its end), cut to the log's `bounds`; none (and
// `error` says why) when it is not one or starts after the log.
std::optional<ViewRange> parseExportRange(const QString& text, ViewRange bounds, QString* error);
// The request for `choices` over `base`: the window's options (palette,
// bookmarks, thread rows, heap view) or the command line's. The heap view
// of `base` is kept, without its emphasis, when it shows the chosen bands
// in the chosen mode; else the bands are selected again, which takes a
// while on a big profile (a job for a worker thread). Bookmarks outside
// the range are dropped, so the legend names only what is drawn.
ExportRequest makeExportRequest(const LogIndex& index, const ExportChoices& choices, const RenderOptions& base);

} // namespace hecscope
