#include "core/timeprofile/sampleprofile.h"
#include "core/text/units.h"
#include "ui/formatting.h"
#include "ui/timeline/legendwriter.h"
#include "ui/timeline/timelinerenderer.h"

#include <QObject>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>

namespace hecscope {

namespace {

// One bin of the time profile: at least a pixel and at least ten ticks
// wide (so that a bar's height can say more than "a sample or none"),
// aligned to multiples of its width so that panning does not shimmer.
struct ProfileBin {
    uint64_t t0 = 0, t1 = 0;  // ns
    double x0 = 0, x1 = 0;    // pixels from the plot's left
    uint32_t samples = 0;
    uint32_t chosen = 0;      // of them, in the chosen frame
    uint32_t leading = kNoCostCentre; // the cost centre most of them were running (sample tree index)
};

struct TimeProfileList final : DrawList {
    std::vector<ProfileBin> bins; // by time, only those with samples
    double full = 1;              // samples that fill a bin's height: every capability sampled at every tick
    bool byPeak = false;          // no tick interval known: scaled to the fullest bin
};

// Distinct colours for cost centres (Okabe–Ito and Tableau hues, told apart
// by colour-blind readers too), chosen by a stable hash of the cost centre;
// the RTS's own cost centres grey.
QColor binColour(const ProfileCostCentre& cc)
{
    static const QColor kPalette[] = {
        QColor(0xe6, 0x9f, 0x00), QColor(0x56, 0xb4, 0xe9), QColor(0x00, 0x9e, 0x73), QColor(0xf0, 0xe4, 0x42),
        QColor(0x00, 0x72, 0xb2), QColor(0xd5, 0x5e, 0x00), QColor(0xcc, 0x79, 0xa7), QColor(0x8c, 0x56, 0x4b),
        QColor(0x9c, 0x75, 0x5f), QColor(0x76, 0xb7, 0xb2), QColor(0xed, 0xc9, 0x48), QColor(0xb0, 0x7a, 0xa1)};
    if (cc.rts)
        return QColor(0xb8, 0xb8, 0xb8);
    uint32_t h = 2166136261u;
    for (unsigned char c : cc.module + '.' + cc.label)
        h = (h ^ c) * 16777619u;
    return kPalette[h % std::size(kPalette)];
}

// The cost-centre samples of -p -l (PROF_SAMPLE_COST_CENTRE): how much of
// the capabilities' time was sampled in each bin (full height: every
// capability at every tick), coloured by the cost centre that was running
// most; the frame chosen in the Profile pane is drawn dark over them, so
// its bars show where in time it ran.
class TimeProfileTrack final : public TimelineTrack {
public:
    QString id() const override { return QStringLiteral("time-profile"); }
    QString title() const override { return QObject::tr("Time profile"); }
    QString menuText() const override { return QObject::tr("&Time profile (cost-centre samples)"); }
    int rowHeight(const TrackContext&) const override { return 48; }
    QString emptyNote(const TrackContext& ctx) const override
    {
        const TimeProfileData& tp = ctx.index.timeProfile;
        return tp.samples.empty() || !tp.tree
            ? QObject::tr("no cost-centre samples in this log (run a profiled build with +RTS -p -l)")
            : QString();
    }
    const void* variant(const TrackContext& ctx) const override { return ctx.options.states.get<ProfileHighlight>().get(); }

    std::shared_ptr<const DrawList> prepare(const TrackContext& ctx, ViewRange view, int width) const override
    {
        auto list = std::make_shared<TimeProfileList>();
        const TimeProfileData& tp = ctx.index.timeProfile;
        if (tp.samples.empty() || !tp.tree || width <= 0 || view.duration() == 0)
            return list;
        const SampleTree& tree = *tp.tree;
        const std::vector<uint8_t>* chosen = ctx.options.states.get<ProfileHighlight>() ? &ctx.options.states.get<ProfileHighlight>()->stacks : nullptr;
        if (chosen && chosen->size() != tp.stacks.size())
            chosen = nullptr; // made for another log
        const TimeMapping m(view, 0, width);
        const double pixel = double(view.duration()) / width;
        const uint64_t binWidth = std::max<uint64_t>(
            1, uint64_t(std::ceil(std::max(pixel, tp.tickInterval ? 10.0 * double(tp.tickInterval) : pixel))));
        list->byPeak = tp.tickInterval == 0;
        list->full = tp.tickInterval
            ? double(std::max<size_t>(1, ctx.index.caps.size())) * double(binWidth) / double(tp.tickInterval)
            : 1;
        const uint64_t first = view.start / binWidth * binWidth;
        const uint64_t last = (view.end / binWidth + 1) * binWidth; // the end of the bin holding view.end
        auto [from, to] = sampleRange(tp, first, last);
        std::vector<uint32_t> perCc(tree.skeleton.costCentres.size() + 1, 0);
        const uint32_t none = uint32_t(perCc.size() - 1);
        std::vector<uint32_t> touched;
        auto close = [&] {
            if (list->bins.empty())
                return;
            ProfileBin& b = list->bins.back();
            uint32_t best = 0;
            for (uint32_t cc : touched) {
                if (perCc[cc] > best || (perCc[cc] == best && cc < b.leading)) {
                    best = perCc[cc];
                    b.leading = cc == none ? kNoCostCentre : cc;
                }
                perCc[cc] = 0;
            }
            touched.clear();
        };
        for (size_t i = from; i < to; ++i) {
            const auto& s = tp.samples[i];
            const uint64_t t0 = s.time / binWidth * binWidth;
            if (list->bins.empty() || list->bins.back().t0 != t0) {
                close();
                ProfileBin b;
                b.t0 = t0;
                b.t1 = t0 + binWidth;
                b.x0 = m.toPixel(t0);
                b.x1 = m.toPixel(b.t1);
                list->bins.push_back(b);
            }
            ProfileBin& b = list->bins.back();
            ++b.samples;
            if (chosen && (*chosen)[s.stack])
                ++b.chosen;
            const uint32_t cc = tree.stackLeading[s.stack];
            const uint32_t key = cc == kNoCostCentre ? none : cc;
            if (perCc[key]++ == 0)
                touched.push_back(key);
        }
        close();
        if (list->byPeak)
            for (const ProfileBin& b : list->bins)
                list->full = std::max(list->full, double(b.samples));
        return list;
    }

    void paint(QPainter& p, const TrackRowGeometry& g, const DrawList& d, const TrackContext& ctx) const override
    {
        const auto& list = static_cast<const TimeProfileList&>(d);
        const TimeProfileData& tp = ctx.index.timeProfile;
        if (tp.samples.empty() || !tp.tree) {
            paintTrackNote(p, g.plot, ctx.options.palette, emptyNote(ctx), ctx.resources.text());
            return;
        }
        const QRect& r = g.plot;
        const double h = r.height() - 3;
        const auto& ccs = tp.tree->skeleton.costCentres;
        const QColor chosenColour(0x20, 0x20, 0x20);
        p.save();
        p.setClipRect(r);
        for (const ProfileBin& b : list.bins) {
            // Whole pixels, so that neighbouring bins meet without a seam.
            const double x0 = r.left() + std::floor(std::max(b.x0, -1.0));
            const double x1 = r.left() + std::floor(std::min(b.x1, double(r.width() + 1)));
            const double w = std::max(1.0, x1 - x0);
            const double bh = std::max(1.0, std::min(1.0, b.samples / list.full) * h);
            const QColor colour = b.leading == kNoCostCentre ? QColor(Qt::gray) : binColour(ccs[b.leading]);
            p.fillRect(QRectF(x0, r.bottom() + 1 - bh, w, bh), colour);
            if (b.chosen) {
                const double ch = std::max(1.0, std::min(1.0, b.chosen / list.full) * h);
                p.fillRect(QRectF(x0, r.bottom() + 1 - ch, w, ch), chosenColour);
            }
        }
        p.restore();
        // The scale, and what is dark, on a backing that keeps them readable.
        const QString scale = list.byPeak ? QObject::tr("height: samples (fullest bin %1)").arg(list.full)
                                          : QObject::tr("height: share of capability time sampled");
        QString chosenText;
        if (ctx.options.states.get<ProfileHighlight>() && !ctx.options.states.get<ProfileHighlight>()->label.isEmpty())
            chosenText = QObject::tr("dark: %1").arg(ctx.options.states.get<ProfileHighlight>()->label);
        const QFontMetrics fm(p.font());
        QColor backing = ctx.options.palette.color(QPalette::Base);
        backing.setAlpha(210);
        auto label = [&](const QString& text, bool right) {
            const int w = fm.horizontalAdvance(text) + 6;
            const QRect box(right ? r.right() - w : r.left(), r.top(), w, fm.height());
            p.fillRect(box, backing);
            p.setPen(ctx.options.palette.color(QPalette::Text));
            ctx.resources.text().draw(p, box, Qt::AlignCenter, text);
        };
        label(scale, false);
        if (!chosenText.isEmpty())
            label(chosenText, true);
    }

    // The bin under the pointer, if it has samples.
    static const ProfileBin* binAt(const TrackRowGeometry& g, QPoint pos, const DrawList& d)
    {
        const auto& bins = static_cast<const TimeProfileList&>(d).bins;
        const double x = pos.x() - g.plot.left();
        auto it = std::partition_point(bins.begin(), bins.end(), [x](const ProfileBin& b) { return b.x1 <= x; });
        return it == bins.end() || it->x0 > x + 1 ? nullptr : &*it;
    }

    // A click selects the bin (its figures go to the Details pane).
    std::optional<SelectedItem> itemAt(const TrackRowGeometry& g, QPoint pos, const DrawList& d,
                                       const TrackContext&) const override
    {
        const ProfileBin* b = binAt(g, pos, d);
        if (!b)
            return std::nullopt;
        return SelectedItem{id(), -1, false, b->t0, b->t1};
    }

    void paintSelected(QPainter& p, const TrackRowGeometry& g, const SelectedItem& item, const TrackContext& ctx) const override
    {
        paintSelectionOutline(p, g.mapping, item.start, item.end, g.plot.top(), g.plot.height(), ctx.options.palette);
    }

    // The bin under the pointer: its samples and the cost centres that ran
    // most in it.
    QString describe(const TrackRowGeometry& g, QPoint pos, const DrawList& d, const TrackContext& ctx) const override
    {
        const auto& list = static_cast<const TimeProfileList&>(d);
        const ProfileBin* found = binAt(g, pos, d);
        if (!found)
            return {};
        const ProfileBin& b = *found;
        const TimeProfileData& tp = ctx.index.timeProfile;
        if (!tp.tree)
            return {};
        auto [first, last] = sampleRange(tp, b.t0, b.t1);
        std::map<uint32_t, uint32_t> counts;
        for (size_t i = first; i < last; ++i)
            ++counts[tp.tree->stackLeading[tp.samples[i].stack]];
        std::vector<std::pair<uint32_t, uint32_t>> top(counts.begin(), counts.end());
        std::sort(top.begin(), top.end(), [](auto a, auto c) { return a.second > c.second || (a.second == c.second && a.first < c.first); });
        QString text = QObject::tr("%1 – %2: %3 samples").arg(timeText(b.t0), timeText(b.t1)).arg(b.samples);
        if (!list.byPeak)
            text += QObject::tr(" (%1 of the capabilities' ticks)").arg(percentText(uint64_t(b.samples), uint64_t(list.full + 0.5)));
        if (b.chosen)
            text += QObject::tr(", %1 in %2").arg(b.chosen).arg(ctx.options.states.get<ProfileHighlight>()->label);
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
        legend.entry(QObject::tr("samples (colour: the running cost centre)"), [](QPainter& p, QRect box) {
            const int w = box.width() / 3;
            p.fillRect(QRect(box.left(), box.top() + box.height() / 3, w, box.height() * 2 / 3), QColor(0xe6, 0x9f, 0x00));
            p.fillRect(QRect(box.left() + w, box.top(), w, box.height()), QColor(0x56, 0xb4, 0xe9));
            p.fillRect(QRect(box.left() + 2 * w, box.top() + box.height() / 2, w, box.height() / 2), QColor(0x00, 0x9e, 0x73));
        });
        if (ctx.options.states.get<ProfileHighlight>())
            legend.solid(QObject::tr("chosen frame"), QColor(0x20, 0x20, 0x20));
    }
};

} // namespace

std::unique_ptr<TimelineTrack> makeTimeProfileTrack()
{
    return std::make_unique<TimeProfileTrack>();
}

} // namespace hecscope
