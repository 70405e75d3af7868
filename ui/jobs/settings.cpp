#include "ui/jobs/settings.h"

#include "ui/jobs/workerpool.h"

#include <QCoreApplication>
#include <QHash>
#include <QSettings>

#include <mutex>
#include <utility>

namespace hecscope {
namespace {

// The settings as this process has them: read from the file once, at the
// first use, then changed here and written by the worker (so that the UI
// thread reads no file either, and no QSettings of the UI thread runs
// while the worker's writes: Qt's locks are invisible to ThreadSanitizer).
struct Store {
    std::mutex mutex;
    bool loaded = false;
    QHash<QString, QVariant> values;
    std::thread::id lastWriter;
    // A thread of its own (ended a second after the last write), not the
    // shared pool's: first used as the window starts, the shared pool
    // would then outlive Qt Gui's statics at exit, and a pooled thread
    // that drew text (an export) could no longer free its font cache.
    WorkerPool pool{1, std::chrono::seconds(1)};
    // One task at a time: the changes reach the file in order.
    WorkerPool::Queue writes{pool, 1};

    ~Store() { writes.waitUntilIdle(); } // (then the queue closes, the pool joins its thread)

    // Under `mutex`.
    void load()
    {
        if (loaded)
            return;
        const QSettings settings;
        for (const QString& key : settings.allKeys())
            values.insert(key, settings.value(key));
        loaded = true;
    }

    void change(const QString& key, const QVariant& value, bool removed)
    {
        {
            const std::lock_guard lock(mutex);
            load();
            if (removed)
                values.remove(key);
            else
                values.insert(key, value);
        }
        writes.push({[this, key, value, removed] {
                         {
                             QSettings settings;
                             if (removed)
                                 settings.remove(key);
                             else
                                 settings.setValue(key, value);
                             settings.sync();
                         }
                         const std::lock_guard lock(mutex);
                         lastWriter = std::this_thread::get_id();
                     },
                     nullptr});
    }
};

Store* g_store = nullptr; // (the UI thread's: made and ended there)

// As the application goes (QSettings needs its names): the last writes
// made, the writer's thread joined.
void endStore()
{
    delete std::exchange(g_store, nullptr);
}

Store& store()
{
    if (!g_store) {
        g_store = new Store;
        if (QCoreApplication::instance())
            qAddPostRoutine(endStore);
    }
    return *g_store;
}

} // namespace

QVariant Settings::value(const QString& key, const QVariant& fallback)
{
    Store& s = store();
    const std::lock_guard lock(s.mutex);
    s.load();
    const auto it = s.values.constFind(key);
    return it != s.values.constEnd() ? *it : fallback;
}

void Settings::setValue(const QString& key, const QVariant& value)
{
    store().change(key, value, false);
}

void Settings::remove(const QString& key)
{
    store().change(key, {}, true);
}

void Settings::update(const QString& key, std::function<QVariant(const QVariant&)> merge)
{
    Store& s = store();
    {
        const std::lock_guard lock(s.mutex);
        s.load(); // (before the worker's QSettings: see Store)
    }
    s.writes.push({[&s, key, merge = std::move(merge)] {
                       QVariant value;
                       {
                           QSettings settings;
                           value = merge(settings.value(key));
                           settings.setValue(key, value);
                           settings.sync();
                       }
                       const std::lock_guard lock(s.mutex);
                       s.values.insert(key, value);
                       s.lastWriter = std::this_thread::get_id();
                   },
                   nullptr});
}

void Settings::waitForWrites()
{
    store().writes.waitUntilIdle();
}

void Settings::clear()
{
    Store& s = store();
    s.writes.waitUntilIdle();
    const std::lock_guard lock(s.mutex);
    QSettings().clear();
    s.values.clear();
    s.loaded = true;
}

std::thread::id Settings::lastWriter()
{
    Store& s = store();
    const std::lock_guard lock(s.mutex);
    return s.lastWriter;
}

} // namespace hecscope
