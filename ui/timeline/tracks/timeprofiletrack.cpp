#include "core/profile/sampleprofile.h"
#include "core/text/units.h"
#include "ui/formatting.h"
#include "ui/profile/flamepainter.h"
#include "ui/timeline/legendwriter.h"
#include "ui/timeline/timelinerenderer.h"

#include <QObject>
#include <QPainter>

#include <algorithm>

namespace hecscope {

namespace {

// One pixel column of the time profile: how many samples fall in it, how
// many of them are in the chosen frame, and the cost centre most of them
// were running (the innermost frame).
struct ProfileColumn {
    uint32_t samples = 0;
    uint32_t chosen = 0;
    uint32_t leading = kNoCostCentre; // index into the sample tree's cost centres
};

struct TimeProfileList final : DrawList {
    std::vector<ProfileColumn> columns; // one per pixel
    uint32_t peak = 0;                  // the most samples in a column
};

// The cost-centre samples of -p -l (PROF_SAMPLE_COST_CENTRE): samples per
// pixel column, coloured by the leading cost centre's module as the flame
// graph colours it; the frame chosen in the Profile pane shows where in
// time it ran, drawn dark over the columns.
class TimeProfileTrack final : public TimelineTrack {
public:
    QString id() const override { return QStringLiteral("time-profile"); }
    QString title() const override { return QObject::tr("Time profile"); }
    QString menuText() const override { return QObject::tr("&Time profile (cost-centre samples)"); }
    int rowHeight(const TrackContext&) const override { return 48; }
    const void* variant(const TrackContext& ctx) const override { return ctx.options.profileHighlight.get(); }

    std::shared_ptr<const DrawList> prepare(const TrackContext& ctx, ViewRange view, int width) const override
    {
        auto list = std::make_shared<TimeProfileList>();
        const TimeProfileData& tp = ctx.index.timeProfile;
        if (tp.samples.empty() || !tp.tree || width <= 0)
            return list;
        const SampleTree& tree = *tp.tree;
        const std::vector<uint8_t>* chosen = ctx.options.profileHighlight ? &ctx.options.profileHighlight->stacks : nullptr;
        if (chosen && chosen->size() != tp.stacks.size())
            chosen = nullptr; // made for another log
        list->columns.resize(size_t(width));
        const TimeMapping m(view, 0, width);
        auto [first, last] = sampleRange(tp, view.start, view.end + 1);
        std::vector<uint32_t> perCc(tree.skeleton.costCentres.size() + 1, 0);
        std::vector<uint32_t> touched;
        int column = -1;
        auto close = [&] {
            if (column < 0)
                return;
            ProfileColumn& c = list->columns[size_t(column)];
            uint32_t best = 0;
            for (uint32_t cc : touched) {
                if (perCc[cc] > best || (perCc[cc] == best && cc < c.leading)) {
                    best = perCc[cc];
                    c.leading = cc;
                }
                perCc[cc] = 0;
            }
            touched.clear();
            list->peak = std::max(list->peak, c.samples);
        };
        for (size_t i = first; i < last; ++i) {
            const auto& s = tp.samples[i];
            const int x = std::clamp(int(m.toPixel(s.time)), 0, width - 1);
            if (x != column) {
                close();
                column = x;
            }
            ProfileColumn& c = list->columns[size_t(x)];
            ++c.samples;
            if (chosen && (*chosen)[s.stack])
                ++c.chosen;
            const uint32_t cc = tree.stackLeading[s.stack];
            const uint32_t key = cc == kNoCostCentre ? uint32_t(perCc.size() - 1) : cc;
            if (perCc[key]++ == 0)
                touched.push_back(key);
        }
        close();
        for (ProfileColumn& c : list->columns)
            if (c.leading == perCc.size() - 1)
                c.leading = kNoCostCentre;
        return list;
    }

    void paint(QPainter& p, const TrackRowGeometry& g, const DrawList& d, const TrackContext& ctx) const override
    {
        const auto& list = static_cast<const TimeProfileList&>(d);
        const TimeProfileData& tp = ctx.index.timeProfile;
        if (tp.samples.empty()) {
            paintTrackNote(p, g.plot, ctx.options.palette,
                           QObject::tr("no cost-centre samples in this log (run a profiled build with +RTS -p -l)"));
            return;
        }
        if (list.peak == 0)
            return;
        const QRect& r = g.plot;
        const double scale = double(r.height() - 2) / double(list.peak);
        const auto& ccs = tp.tree->skeleton.costCentres;
        const QColor chosenColour(0x20, 0x20, 0x20);
        for (size_t x = 0; x < list.columns.size(); ++x) {
            const ProfileColumn& c = list.columns[x];
            if (!c.samples)
                continue;
            const int h = std::max(1, int(c.samples * scale + 0.5));
            const QColor colour = c.leading == kNoCostCentre ? QColor(Qt::gray) : costCentreColour(ccs[c.leading]);
            p.fillRect(QRect(r.left() + int(x), r.bottom() + 1 - h, 1, h), colour);
            if (c.chosen) {
                const int hc = std::max(1, int(c.chosen * scale + 0.5));
                p.fillRect(QRect(r.left() + int(x), r.bottom() + 1 - hc, 1, hc), chosenColour);
            }
        }
        p.setPen(ctx.options.palette.color(QPalette::PlaceholderText));
        p.drawText(r.adjusted(2, 1, -2, 0), Qt::AlignLeft | Qt::AlignTop,
                   QObject::tr("%1 samples per pixel").arg(list.peak));
        if (ctx.options.profileHighlight && !ctx.options.profileHighlight->label.isEmpty())
            p.drawText(r.adjusted(2, 1, -4, 0), Qt::AlignRight | Qt::AlignTop,
                       QObject::tr("dark: %1").arg(ctx.options.profileHighlight->label));
    }

    // The column under the pointer: its samples and the cost centres that
    // ran most in it.
    QString describe(const TrackRowGeometry& g, QPoint pos, const DrawList& d, const TrackContext& ctx) const override
    {
        const auto& list = static_cast<const TimeProfileList&>(d);
        const int x = pos.x() - g.plot.left();
        if (x < 0 || x >= int(list.columns.size()) || !list.columns[size_t(x)].samples)
            return {};
        const TimeProfileData& tp = ctx.index.timeProfile;
        const uint64_t t0 = g.mapping.toTime(g.plot.left() + x), t1 = g.mapping.toTime(g.plot.left() + x + 1);
        auto [first, last] = sampleRange(tp, t0, t1);
        std::map<uint32_t, uint32_t> counts;
        for (size_t i = first; i < last; ++i)
            ++counts[tp.tree->stackLeading[tp.samples[i].stack]];
        std::vector<std::pair<uint32_t, uint32_t>> top(counts.begin(), counts.end());
        std::sort(top.begin(), top.end(), [](auto a, auto b) { return a.second > b.second || (a.second == b.second && a.first < b.first); });
        const ProfileColumn& c = list.columns[size_t(x)];
        QString text = QObject::tr("%1 – %2: %3 samples").arg(durationText(t0), durationText(t1)).arg(c.samples);
        if (c.chosen)
            text += QObject::tr(", %1 in %2").arg(c.chosen).arg(ctx.options.profileHighlight->label);
        const auto& ccs = tp.tree->skeleton.costCentres;
        for (size_t k = 0; k < top.size() && k < 5; ++k) {
            const QString name = top[k].first == kNoCostCentre
                ? QObject::tr("(no cost centre)")
                : QStringLiteral("%1 (%2)").arg(QString::fromStdString(ccs[top[k].first].label),
                                                QString::fromStdString(ccs[top[k].first].module));
            text += QStringLiteral("\n  %1  %2").arg(top[k].second, 6).arg(name);
        }
        if (top.size() > 5)
            text += QObject::tr("\n  … %1 more cost centres").arg(top.size() - 5);
        return text;
    }

    void addLegend(LegendWriter& legend, const TrackContext& ctx) const override
    {
        if (ctx.index.timeProfile.samples.empty())
            return;
        legend.entry(QObject::tr("samples (colour: module of the running cost centre)"), [](QPainter& p, QRect box) {
            p.fillRect(box.adjusted(0, box.height() / 3, 0, 0), QColor(0xe0, 0x80, 0x40));
        });
        if (ctx.options.profileHighlight)
            legend.solid(QObject::tr("chosen frame"), QColor(0x20, 0x20, 0x20));
    }
};

} // namespace

std::unique_ptr<TimelineTrack> makeTimeProfileTrack()
{
    return std::make_unique<TimeProfileTrack>();
}

} // namespace hecscope
