#pragma once

#include <QString>
#include <QVariant>

#include <functional>
#include <thread>

namespace hecscope {

// The settings the user changes (views, panes, dialogs), written to the
// file by a worker: QSettings rewrites the whole file and syncs it to the
// disk under a lock file, which the UI thread must not wait for (tens of
// milliseconds on a busy disk; a spin box wrote it at every step). A change
// is seen at once by value(), in this process, and reaches the file (and
// QSettings) in the order the changes were made. The file is read once,
// at the first use: after that value() reads memory only (what another
// process writes later is not seen, as QSettings caches it too). The
// writes left when the application ends are made as it goes (main waits
// for them, and so does a routine QCoreApplication runs as it is
// destroyed: QSettings needs its names).
class Settings {
public:
    static QVariant value(const QString& key, const QVariant& fallback = {});
    static void setValue(const QString& key, const QVariant& value);
    static void remove(const QString& key);
    // A change the worker makes from the value in the file then (a list
    // another process may have added to): `merge` is given that and
    // gives the new value, which value() returns once written.
    static void update(const QString& key, std::function<QVariant(const QVariant&)> merge);
    // Blocks until every change made so far is in the file.
    static void waitForWrites();
    // Waits, then removes every setting (tests start from the defaults;
    // after it the file is not read again).
    static void clear();
    // The thread that wrote the file last (tests: not the UI thread).
    static std::thread::id lastWriter();
};

} // namespace hecscope
