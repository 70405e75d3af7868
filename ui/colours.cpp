#include "ui/colours.h"

#include <cmath>

namespace hecscope {

QColor threadColor(uint32_t thread)
{
    const double hue = std::fmod(double(thread) * 0.6180339887, 1.0);
    return QColor::fromHsvF(float(hue), 0.55f, 0.80f);
}

QColor spanColor(SpanKind kind)
{
    // Okabe–Ito hues, told apart with the common colour-vision
    // deficiencies: GC (vermillion) and GC work (orange) differ in hue and
    // lightness, the sync wait is purple, idle a pale tint, parked after a
    // collection sky blue (both drawn thin: not collecting).
    switch (kind) {
    case SpanKind::Running: return QColor(0x00, 0x9e, 0x73);
    case SpanKind::Gc: return QColor(0xd5, 0x5e, 0x00);
    case SpanKind::GcSync: return QColor(0xcc, 0x79, 0xa7);
    case SpanKind::GcWork: return QColor(0xe6, 0x9f, 0x00);
    case SpanKind::GcIdle: return QColor(0xf5, 0xd3, 0xb8);
    case SpanKind::GcDone: return QColor(0x95, 0xa5, 0xa6);
    case SpanKind::GcParked: return QColor(0x56, 0xb4, 0xe9);
    }
    return Qt::gray;
}

QColor spanColour(uint32_t name)
{
    return QColor::fromHsv(int((name * 137u) % 360u), 110, 215);
}

QColor threadColour(int colour)
{
    switch (colour) {
    case ColourRunning: return spanColor(SpanKind::Running); // as running on the HEC rows
    case ColourRunnable: return QColor(0xf1, 0xc4, 0x0f);
    case ColourUnknown: return QColor(0xb0, 0xb0, 0xb0);
    default: break;
    }
    // Blocked: blues and cool hues, apart from the GC oranges and reds of
    // the capability rows; light for waits that are usually idle (delay).
    static const QColor blocked[kBlockReasons] = {
        QColor(0x2f, 0x6f, 0xb0), // MVar
        QColor(0x7f, 0xb0, 0xe0), // MVar read
        QColor(0x2c, 0x3e, 0x50), // black hole
        QColor(0x16, 0xa0, 0x85), // read
        QColor(0x0e, 0x6e, 0x5c), // write
        QColor(0xc5, 0xd3, 0xe0), // delay (sleeping)
        QColor(0x8e, 0x44, 0xad), // STM
        QColor(0x7f, 0x8c, 0x8d), // process
        QColor(0x79, 0x55, 0x48), // foreign call
        QColor(0xc2, 0x18, 0x5b), // throwTo
        QColor(0x9e, 0x9e, 0x9e), // other
    };
    const int r = colour - ColourBlocked;
    return r >= 0 && r < int(kBlockReasons) ? blocked[r] : QColor(Qt::gray);
}

} // namespace hecscope
