#pragma once

#include <QElapsedTimer>
#include <QTimer>

#include <algorithm>

namespace hecscope::cli {

// The longest gap between ticks of a 1 ms timer: how long the event loop
// was ever kept from running (`bench`'s ui_max_stall_ms and
// live_ui_max_stall_ms). Gaps count only while `counting`.
class StallMeter {
public:
    StallMeter()
    {
        m_tick.setTimerType(Qt::PreciseTimer);
        QObject::connect(&m_tick, &QTimer::timeout, [this] {
            const qint64 now = m_clock.nsecsElapsed();
            if (m_counting)
                m_worst = std::max(m_worst, now - m_last);
            m_last = now;
        });
    }
    void start()
    {
        m_clock.start();
        m_tick.start(1);
    }
    void stop() { m_tick.stop(); }
    void setCounting(bool on) { m_counting = on; }
    double worstMs() const { return double(m_worst) / 1e6; }

private:
    QElapsedTimer m_clock;
    QTimer m_tick;
    qint64 m_last = 0, m_worst = 0;
    bool m_counting = true;
};

} // namespace hecscope::cli
