#include "ui/window/displaymenu.h"

#include "core/time/viewrange.h"
#include "ui/jobs/settings.h"
#include "ui/timeline/timelineview.h"
#include "ui/timeline/tracks/instantmarks.h"

#include <QActionGroup>
#include <QMenu>

#include <algorithm>
#include <map>

namespace hecscope {

DisplayMenu::DisplayMenu(QMenu* view, TimelineView* timeline, QObject* parent)
    : QObject(parent)
    , m_view(timeline)
{
    QMenu* instants = view->addMenu(QObject::tr("&Instant Events on HECs"));
    instants->setToolTip(QObject::tr("Marks on the HEC rows when zoomed in far enough to tell them apart"));
    const uint32_t mask = Settings::value(QStringLiteral("view/instantKinds"), kAllInstantKinds).toUInt() & kAllInstantKinds;
    m_view->setTrackState(std::make_shared<const InstantKindsShown>(InstantKindsShown{mask}));
    for (int k = 0; k < kInstantKinds; ++k) {
        QString name = instantName(InstantKind(k));
        name[0] = name[0].toUpper();
        QAction* a = instants->addAction(name);
        a->setCheckable(true);
        a->setChecked(mask & (1u << k));
        a->setData(k);
        m_instantActions.push_back(a);
        connect(a, &QAction::toggled, this, [this] {
            uint32_t now = 0;
            for (QAction* b : m_instantActions)
                if (b->isChecked())
                    now |= 1u << b->data().toInt();
            m_view->setTrackState(std::make_shared<const InstantKindsShown>(InstantKindsShown{now}));
            Settings::setValue(QStringLiteral("view/instantKinds"), now);
        });
    }
    instants->addSeparator();
    instants->addAction(QObject::tr("Show &All"), this, [this] {
        for (QAction* a : m_instantActions)
            a->setChecked(true);
    });
    instants->addAction(QObject::tr("Show &None"), this, [this] {
        for (QAction* a : m_instantActions)
            a->setChecked(false);
    });
    // Row heights dragged on the timeline, kept per track.
    std::map<QString, int> heights;
    const QVariantMap saved = Settings::value(QStringLiteral("view/rowHeights")).toMap();
    for (auto it = saved.begin(); it != saved.end(); ++it)
        heights[it.key()] = std::clamp(it.value().toInt(), TimelineView::kMinRowHeight, TimelineView::kMaxRowHeight);
    m_view->setRowHeights(heights);
    connect(m_view, &TimelineView::rowHeightsChanged, this, [](const std::map<QString, int>& now) {
        QVariantMap map;
        for (const auto& [id, h] : now)
            map.insert(id, h);
        Settings::setValue(QStringLiteral("view/rowHeights"), map);
    });
    view->addAction(QObject::tr("Reset Track &Heights"), this, [this] {
        m_view->setRowHeights({});
        Settings::remove(QStringLiteral("view/rowHeights"));
    });
    // One time format for the ruler, lists, tables and tooltips.
    QMenu* format = view->addMenu(QObject::tr("&Time Format"));
    auto* formats = new QActionGroup(format);
    const std::pair<TimeUnit, QString> units[] = {
        {TimeUnit::Automatic, QObject::tr("&Automatic (the unit of each value)")},
        {TimeUnit::Seconds, QObject::tr("&Seconds")},
        {TimeUnit::Milliseconds, QObject::tr("&Milliseconds")},
        {TimeUnit::Microseconds, QObject::tr("Mi&croseconds")},
        {TimeUnit::Nanoseconds, QObject::tr("&Nanoseconds")},
    };
    const int savedUnit = Settings::value(QStringLiteral("view/timeUnit"), 0).toInt();
    setTimeUnit(savedUnit >= 0 && savedUnit <= int(TimeUnit::Nanoseconds) ? TimeUnit(savedUnit) : TimeUnit::Automatic);
    for (const auto& [unit, text] : units) {
        QAction* a = format->addAction(text);
        a->setCheckable(true);
        a->setChecked(unit == timeUnit());
        formats->addAction(a);
        connect(a, &QAction::triggered, this, [this, u = unit] {
            setTimeUnit(u);
            Settings::setValue(QStringLiteral("view/timeUnit"), int(u));
            m_view->update();
            emit timeFormatChanged();
        });
    }
}

} // namespace hecscope
